/// What each writable format carries of the model, field by field: the table in
/// docs/formats.md ("What each format carries"), mirrored here so the pipeline can act on it
/// (how a source identifies reminders, what an export reports it cannot carry) and the
/// round-trip tests can hold every format to it. A test checks the two agree.
public struct FormatCarriage: Sendable {
  /// How a format keeps one field.
  public enum Keeping: String, Sendable {
    /// Written and read back as it is.
    case kept = "yes"
    /// Written in a form that loses something (a rounding, a mapping to fewer values).
    case changed = "changed"
    /// Not written: read back as the model's default.
    case lost = "no"
  }

  /// How a format identifies reminders.
  public enum Identity: String, Sendable {
    /// Every reminder has its UID.
    case uids = "yes"
    /// Reminders carry no UID; a reader derives one from list, parent, title and due date.
    case derived = "no"
  }

  public let format: String
  /// True for a format remconv only reads: its row is declared, not checked by a round trip.
  public let readOnly: Bool
  public let identity: Identity
  /// The key of `extra` the format owns: what it carries of `extra` when it does not carry
  /// all of it (`extra` lost).
  public let extraKey: String?
  /// By field name (`FormatCarriage.fields`).
  public let fields: [String: Keeping]
  /// For a format remconv only reads, what it makes of a stored reminder's fields it carries
  /// `changed` (To Do's one alarm at an instant): a re-import compares its values with these.
  let carried: (@Sendable (Reminder) -> Reminder)?

  init(
    _ format: String, readOnly: Bool = false, identity: Identity = .uids, extraKey: String? = nil,
    changed: Set<String> = [], lost: Set<String> = [], carried: (@Sendable (Reminder) -> Reminder)? = nil
  ) {
    self.format = format
    self.readOnly = readOnly
    self.identity = identity
    self.extraKey = extraKey
    self.carried = carried
    fields = Dictionary(
      uniqueKeysWithValues: Self.fields.map {
        ($0, lost.contains($0) ? .lost : changed.contains($0) ? .changed : .kept)
      })
  }

  public func keeps(_ field: String) -> Keeping { fields[field] ?? .kept }

  /// The fields of the table: a reminder's as the model declares them (`Reminder.fields`), its
  /// parent, then a list's.
  public static let fields =
    Reminder.fields.map(\.name) + Reminder.placementFields + ReminderList.fields.map(\.name)

  public static func of(_ format: String) -> FormatCarriage? { table.first { $0.format == format } }

  /// The merge's identity for a source in `format`.
  static func mergeIdentity(of format: String) -> MergeEngine.SourceIdentity {
    of(format)?.identity == .derived ? .derivedWhenAbsent : .uids
  }
}
