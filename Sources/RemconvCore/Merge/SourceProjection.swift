/// What the source being merged makes of a stored item: the stored values as that source's
/// format would carry them (a colour it has no field for gone, milliseconds it cannot write
/// cut, CRLF it cannot keep turned into LF).
///
/// The merge engine compares an incoming record with this, not with the stored item, so a
/// field the source cannot carry never overwrites what the store holds. The pipeline, which
/// knows the format, provides it; the engine knows no format.
public protocol SourceProjection: AnyObject {
  /// The stored reminder as the source would carry it, or nil when the source cannot carry it
  /// at all (then the incoming reminder is taken as it is).
  func reminder(_ stored: Reminder, in list: ReminderList) throws -> Reminder?
  /// The stored list as the source would carry it, or nil when it cannot tell.
  func list(_ stored: ReminderList) throws -> ReminderList?
}

/// Merges one record into what the store holds, field by field: where the incoming value is
/// what the source would make of the stored one, the stored (richer) value stays; where it
/// differs, the source changed it and the incoming value is taken. `extra` is merged key by key
/// the same way (see `extra(_:_:)`).
struct FieldMerge<Item> {
  private let incoming: Item
  private let projected: Item
  private let stored: Item
  /// The stored item with what the source changed.
  private(set) var merged: Item
  /// The names of the fields whose value changed, `extra.<key>` for a key of `extra`.
  private(set) var changed: [String] = []

  init(incoming: Item, projected: Item, stored: Item) {
    self.incoming = incoming
    self.projected = projected
    self.stored = stored
    merged = stored
  }

  mutating func field<Value: Equatable>(_ path: WritableKeyPath<Item, Value>, _ name: String) {
    let value = incoming[keyPath: path]
    guard value != projected[keyPath: path] else { return }
    merged[keyPath: path] = value
    if value != stored[keyPath: path] { changed.append(name) }
  }

  /// `extra` key by key. A key the source does not have stays, whatever the format: another
  /// app's data (`ical` kept through a Taskwarrior import) is not the source's to remove. Only
  /// `invalid`, the values the source's own fields could not be read from, goes when the
  /// source could carry it and no longer does: its value was fixed at the source.
  mutating func extra(_ path: WritableKeyPath<Item, [String: JSONValue]>, _ prefix: String) {
    let source = incoming[keyPath: path]
    let carried = projected[keyPath: path]
    for key in Set(source.keys).union(carried.keys).sorted() where source[key] != carried[key] {
      guard source[key] != nil || key == Self.invalidKey else { continue }
      merged[keyPath: path][key] = source[key]
      if source[key] != stored[keyPath: path][key] { changed.append("\(prefix).\(key)") }
    }
  }

  static var invalidKey: String { "invalid" }

  /// What a merge without a projection sees of a stored `extra`: the keys the source has, and
  /// `invalid` (the source's alone, so a value fixed at the source stops being reported).
  static func unprojected(extra stored: [String: JSONValue], incoming: [String: JSONValue]) -> [String: JSONValue] {
    stored.filter { incoming[$0.key] != nil || $0.key == invalidKey }
  }
}

extension FieldMerge where Item == Reminder {
  /// Every field of a reminder a source carries; its UID, list and parent are where the engine
  /// puts it, not fields of its content.
  static func reminder(_ incoming: Reminder, projected: Reminder, stored: Reminder) -> Self {
    var merge = Self(incoming: incoming, projected: projected, stored: stored)
    merge.field(\.title, "title")
    merge.field(\.notes, "notes")
    merge.field(\.isDone, "isDone")
    merge.field(\.completedAt, "completedAt")
    merge.field(\.flagged, "flagged")
    merge.field(\.dueDate, "dueDate")
    merge.field(\.startDate, "startDate")
    merge.field(\.recurrence, "recurrence")
    merge.field(\.alarms, "alarms")
    merge.field(\.priority, "priority")
    merge.field(\.tags, "tags")
    merge.field(\.url, "url")
    merge.field(\.createdAt, "createdAt")
    merge.field(\.editedAt, "editedAt")
    merge.extra(\.extra, "extra")
    // A time of editing alone is no edit: a source that changed nothing else leaves the stored
    // one (a reminder flagged here since keeps the time it was flagged).
    if merge.changed == ["editedAt"] || (merge.changed.isEmpty && merge.merged.editedAt != stored.editedAt) {
      merge.merged.editedAt = stored.editedAt
      merge.changed = []
    }
    merge.merged.id = incoming.id
    merge.merged.listID = incoming.listID
    merge.merged.parentID = incoming.parentID
    return merge
  }

  /// What a merge without a projection compares with: the stored reminder, `extra` as
  /// `unprojected(extra:incoming:)` sees it.
  static func unprojected(_ stored: Reminder, incoming: Reminder) -> Reminder {
    var projected = stored
    projected.extra = unprojected(extra: stored.extra, incoming: incoming.extra)
    return projected
  }
}

extension FieldMerge where Item == ReminderList {
  /// A list's attributes; its UID and name are the engine's to decide.
  static func list(_ incoming: ReminderList, projected: ReminderList, stored: ReminderList) -> Self {
    var merge = Self(incoming: incoming, projected: projected, stored: stored)
    merge.field(\.symbol, "list.symbol")
    merge.field(\.color, "list.color")
    merge.field(\.createdAt, "list.createdAt")
    merge.extra(\.extra, "list.extra")
    merge.merged.id = incoming.id
    merge.merged.name = incoming.name
    return merge
  }

  /// What a merge without a projection compares a list with: a source without a creation time
  /// keeps the stored one, and `extra` as for reminders.
  static func unprojected(_ stored: ReminderList, incoming: ReminderList) -> ReminderList {
    var projected = stored
    projected.createdAt = nil
    projected.extra = unprojected(extra: stored.extra, incoming: incoming.extra)
    return projected
  }
}
