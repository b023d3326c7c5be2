/// The one place where a start date, recurrence and alarms that remconv before 0009 kept only
/// in a format's `extra` are lifted into the reminder's fields.
///
/// It runs on every reminder read: from the store (`Store.decodeReminder`) and at the model
/// boundary of every import and conversion (`ModelBoundaryReader`), so a store of an earlier
/// release and a file an earlier release exported both arrive with the fields filled. The
/// migration does not do it (docs/migrations.md, "0009"): a step is frozen once released, while
/// the lifters grow as each format learns its keys, and a read lifts with the newest.
///
/// A lifter moves what it understands of its namespace's entry into fields that are still
/// empty, and removes exactly that from the entry (and the entry once it is empty): nothing
/// is held twice, and what it does not understand stays in `extra` as it was.
public enum ExtraScheduleLifting {
  /// Lifts from `reminder.extra[namespace]`, which is there when it is called.
  public typealias Lifter = @Sendable (_ reminder: inout Reminder) -> Void

  /// The lifters, by the `extra` namespace they read. A format that kept recurrence, alarms
  /// or a start in `extra` before 0009 adds its entry here.
  static let lifters: [(namespace: String, lift: Lifter)] = [
    ("ical", { ICSScheduleLifter.lift(&$0, namespace: "ical") }),
    ("ics", { ICSScheduleLifter.lift(&$0, namespace: "ics") }),
  ]

  public static func lift(_ reminder: inout Reminder) {
    guard !reminder.extra.isEmpty else { return }
    for (namespace, lift) in lifters where reminder.extra[namespace] != nil { lift(&reminder) }
  }

  /// `reminder` lifted, or nil when it has no namespace a lifter reads (most reminders: the
  /// check costs a lookup per lifter, and nothing is copied).
  public static func lifted(_ reminder: Reminder) -> Reminder? {
    guard !reminder.extra.isEmpty, lifters.contains(where: { reminder.extra[$0.namespace] != nil }) else {
      return nil
    }
    var result = reminder
    lift(&result)
    return result
  }
}
