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

/// What a merge compares an incoming item with.
enum MergeBasis<Item> {
  /// An import: what the source makes of the stored item (`SourceProjection`). Where the
  /// incoming value is that, the stored (richer) value stays; where it differs, the source
  /// changed it and the incoming value is taken.
  case projection(Item)
  /// A sync: the version both sides last agreed on (nil when there is none: an item met on both
  /// sides before any pairing), and whether the store changed it since. A field only the
  /// incoming side changed takes its value, one only the store changed keeps the store's, and
  /// one both changed to different values follows the field's rule (`ModelField.OnBothChanged`).
  case agreed(Item?, storeChanged: Bool)
}

/// Merges one incoming item into what the store holds, field by field, for every field its
/// table declares (`Reminder.fields`, `ReminderList.fields`), against a `MergeBasis`.
struct FieldMerge<Item> {
  private let incoming: Item
  private let basis: MergeBasis<Item>
  private let stored: Item
  /// The stored item with what the incoming one changed.
  private(set) var merged: Item
  /// The names of the fields whose value changed, `extra.<key>` for a key of `extra`.
  private(set) var changed: [String] = []
  /// The fields both sides of a sync changed to different values (`extra.ical.<key>` for a
  /// key inside a nested object); each keeps the incoming value.
  private(set) var conflicts: [String] = []

  init(incoming: Item, basis: MergeBasis<Item>, stored: Item) {
    self.incoming = incoming
    self.basis = basis
    self.stored = stored
    merged = stored
  }

  mutating func merge(_ fields: [ModelField<Item>]) {
    for field in fields {
      switch field.merging {
      case .whole(let rule): whole(field, rule)
      case .perKey(let nested):
        guard let path = field.object else { continue }
        perKey(path, field.name, nested: nested)
      }
    }
  }

  private mutating func whole(_ field: ModelField<Item>, _ rule: ModelField<Item>.OnBothChanged) {
    switch basis {
    case .projection(let projected):
      guard !field.isSame(incoming, projected) else { return }
      take(field)
    case .agreed(let base, let storeChanged):
      guard !field.isSame(incoming, stored) else { return }
      if let base {
        // Only the store changed it.
        if field.isSame(incoming, base) { return }
        if !storeChanged || field.isSame(stored, base) { return take(field) }
      } else if !storeChanged {
        return take(field)
      }
      switch rule {
      case .conflict:
        conflicts.append(field.name)
        take(field)
      case .incoming: take(field)
      case .later(let isLater): if isLater(incoming, stored) { take(field) }
      }
    }
  }

  private mutating func take(_ field: ModelField<Item>) {
    field.copy(incoming, &merged)
    if !field.isSame(incoming, stored) { changed.append(field.name) }
  }

  private mutating func perKey(
    _ path: any WritableKeyPath<Item, [String: JSONValue]> & Sendable, _ name: String, nested: Set<String>
  ) {
    switch basis {
    case .projection(let projected): projectedKeys(path, name, projected: projected)
    case .agreed(let base, let storeChanged):
      merged[keyPath: path] = agreedKeys(
        base: base?[keyPath: path], local: stored[keyPath: path], incoming: incoming[keyPath: path], name: name,
        nested: nested, storeChanged: storeChanged)
    }
  }

  /// An import's `extra`, key by key. A key the source does not have stays, whatever the format:
  /// another app's data (`ical` kept through a Taskwarrior import) is not the source's to remove.
  /// Only `invalid`, the values the source's own fields could not be read from, goes when the
  /// source could carry it and no longer does: its value was fixed at the source.
  private mutating func projectedKeys(
    _ path: any WritableKeyPath<Item, [String: JSONValue]> & Sendable, _ name: String, projected: Item
  ) {
    let source = incoming[keyPath: path]
    let carried = projected[keyPath: path]
    for key in Set(source.keys).union(carried.keys).sorted() where source[key] != carried[key] {
      guard source[key] != nil || key == Self.invalidKey else { continue }
      merged[keyPath: path][key] = source[key]
      if source[key] != stored[keyPath: path][key] { changed.append("\(name).\(key)") }
    }
  }

  /// A sync's object, three ways key by key as whole fields merge; a key of `nested` merges its
  /// own members the same way, so an unknown property a phone changed and another changed here
  /// both survive.
  private mutating func agreedKeys(
    base: [String: JSONValue]?, local: [String: JSONValue], incoming: [String: JSONValue], name: String,
    nested: Set<String>, storeChanged: Bool
  ) -> [String: JSONValue] {
    var result = local
    for key in Set(local.keys).union(incoming.keys).sorted() {
      let mine = local[key]
      let theirs = incoming[key]
      guard mine != theirs else { continue }
      let keyName = name + "." + key
      if nested.contains(key), let mineObject = mine.map(\.objectValue) ?? [:],
        let theirsObject = theirs.map(\.objectValue) ?? [:]
      {
        let object = agreedKeys(
          base: base.map { $0[key]?.objectValue ?? [:] }, local: mineObject, incoming: theirsObject, name: keyName,
          nested: [], storeChanged: storeChanged)
        result[key] = object.isEmpty ? nil : .object(object)
        continue
      }
      let agreed = base?[key]
      if base != nil, theirs == agreed { continue }
      if storeChanged, base == nil || mine != agreed { conflicts.append(keyName) }
      result[key] = theirs
      changed.append(keyName)
    }
    return result
  }

  static var invalidKey: String { "invalid" }

  /// What a merge without a projection sees of a stored `extra`: the keys the source has, and
  /// `invalid` (the source's alone, so a value fixed at the source stops being reported).
  static func unprojected(extra stored: [String: JSONValue], incoming: [String: JSONValue]) -> [String: JSONValue] {
    stored.filter { incoming[$0.key] != nil || $0.key == invalidKey }
  }
}

extension FieldMerge where Item == Reminder {
  /// Every declared field of a reminder (`Reminder.fields`); its UID, list and parent are where
  /// the engine puts it, not fields of its content.
  static func reminder(_ incoming: Reminder, basis: MergeBasis<Reminder>, stored: Reminder) -> Self {
    var merge = Self(incoming: incoming, basis: basis, stored: stored)
    merge.merge(Reminder.fields)
    // A time of editing alone is no edit: a source that changed nothing else leaves the stored
    // one (a reminder flagged here since keeps the time it was flagged). A sync takes the later.
    if case .projection = basis,
      merge.changed == ["editedAt"] || (merge.changed.isEmpty && merge.merged.editedAt != stored.editedAt)
    {
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
  /// A list's declared fields (`ReminderList.fields`) but its name, which the engine decides
  /// (another list may have it), as it decides its UID.
  static func list(_ incoming: ReminderList, projected: ReminderList, stored: ReminderList) -> Self {
    var merge = Self(incoming: incoming, basis: .projection(projected), stored: stored)
    merge.merge(ReminderList.fields.filter { $0.name != "list.name" })
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
