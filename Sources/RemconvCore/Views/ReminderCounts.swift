/// The counts a reminders app shows in its sidebar, always derived from the reminders.
public struct ReminderCounts: Sendable {
  /// Reminders not done, by list row id (lists without any are absent).
  public private(set) var openByList: [Int64: Int] = [:]
  /// Reminders in each scope of `ReminderScope.counted` (and `completed`).
  public private(set) var byScope: [ReminderScope: Int] = [:]

  public init() {}

  /// Counts the store's reminders on `today`, from SQLite's counts of their facts and the
  /// few reminders that may be due today. Call it inside `store.read` with the query of the
  /// lists, so both see one snapshot.
  ///
  /// Every scope but Today looks only at the done state, the flag and whether there is a due
  /// date, so each combination's count goes through `ReminderScope.contains` once, with a due
  /// date standing for any (one that is never today: Today is counted from its candidates).
  public init(store: Store, today: Today) throws {
    let someDue = DueDate.date(LocalDate(daysSinceEpoch: today.date.daysSinceEpoch + 7))
    try store.forEachFactCount { listRowID, isDone, flagged, hasDue, count in
      let facts = ReminderFacts(isDone: isDone, flagged: flagged, dueDate: hasDue ? someDue : nil)
      for scope in ReminderScope.allCases where scope != .today && scope.contains(facts, today: today) {
        byScope[scope, default: 0] += count
      }
      if ReminderScope.all.contains(facts, today: today) { openByList[listRowID, default: 0] += count }
    }
    try store.forEachTodayCandidateFacts(today) { _, facts in
      if ReminderScope.today.contains(facts, today: today) { byScope[.today, default: 0] += 1 }
    }
  }

  /// Counts one more reminder.
  public mutating func add(_ facts: ReminderFacts, inListRow listRowID: Int64, today: Today) {
    for scope in ReminderScope.allCases where scope.contains(facts, today: today) {
      byScope[scope, default: 0] += 1
    }
    if ReminderScope.all.contains(facts, today: today) { openByList[listRowID, default: 0] += 1 }
  }

  public func open(inListRow listRowID: Int64) -> Int { openByList[listRowID] ?? 0 }

  public func count(_ scope: ReminderScope) -> Int { byScope[scope] ?? 0 }
}
