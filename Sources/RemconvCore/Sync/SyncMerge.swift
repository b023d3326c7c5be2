/// The three-way merge of one reminder: the version both sides last agreed on (the base), the
/// store's and the remote's. A field only one side changed takes that side's value; a field
/// both changed to different values is a conflict, and the merged reminder keeps the remote's
/// value there (the local version survives whole as a conflict copy, `SyncEngine`).
///
/// `extra` merges per key, and `extra.ical` (what the iCalendar reader kept of properties
/// remconv does not model) per key inside it, so an unknown property edited on one side and
/// a title edited on the other both survive.
enum SyncMerge {
  struct Outcome {
    var merged: Reminder
    /// The fields both sides changed differently (`title`, `extra.ical.lines`, ...).
    var conflicts: [String]
  }

  /// Merges `local` and `remote`; with no base (an item met on both sides before any pairing),
  /// every field they hold differently is a conflict, except the timestamps remconv keeps
  /// (creation, completion, edit), which follow the remote.
  static func merge(base: Reminder?, local: Reminder, remote: Reminder) -> Outcome {
    var merged = remote
    merged.listID = local.listID
    var conflicts: [String] = []

    func field<Value: Equatable>(_ name: String, _ path: WritableKeyPath<Reminder, Value>, conflicting: Bool = true) {
      let mine = local[keyPath: path]
      let theirs = remote[keyPath: path]
      guard mine != theirs else { return }
      guard let base else {
        if conflicting { conflicts.append(name) }
        return
      }
      let agreed = base[keyPath: path]
      if theirs == agreed {
        merged[keyPath: path] = mine
      } else if mine != agreed {
        conflicts.append(name)
      }
    }

    field("title", \.title)
    field("notes", \.notes)
    field("isDone", \.isDone)
    field("completedAt", \.completedAt, conflicting: false)
    field("flagged", \.flagged)
    field("dueDate", \.dueDate)
    field("priority", \.priority)
    field("tags", \.tags)
    field("url", \.url)
    field("parentID", \.parentID)
    field("createdAt", \.createdAt, conflicting: false)
    // The later edit time: both sides edited, whatever the fields.
    if let mine = local.editedAt, let theirs = remote.editedAt {
      merged.editedAt = max(mine, theirs)
    } else {
      merged.editedAt = remote.editedAt ?? local.editedAt
    }

    merged.extra = mergeObjects(
      base: base?.extra, local: local.extra, remote: remote.extra, path: "extra", nested: ["ical"],
      conflicts: &conflicts, hasBase: base != nil)
    return Outcome(merged: merged, conflicts: conflicts)
  }

  /// Merges two JSON objects key by key against `base`; the keys in `nested` merge their own
  /// members the same way.
  private static func mergeObjects(
    base: [String: JSONValue]?, local: [String: JSONValue], remote: [String: JSONValue], path: String,
    nested: Set<String>, conflicts: inout [String], hasBase: Bool
  ) -> [String: JSONValue] {
    var merged = remote
    for key in Set(local.keys).union(remote.keys).sorted() {
      let mine = local[key]
      let theirs = remote[key]
      guard mine != theirs else { continue }
      if nested.contains(key), let mineObject = mine?.objectValue ?? (mine == nil ? [:] : nil),
        let theirsObject = theirs?.objectValue ?? (theirs == nil ? [:] : nil)
      {
        let object = mergeObjects(
          base: base?[key]?.objectValue ?? (hasBase ? [:] : nil), local: mineObject, remote: theirsObject,
          path: path + "." + key, nested: [], conflicts: &conflicts, hasBase: hasBase)
        merged[key] = object.isEmpty ? nil : .object(object)
        continue
      }
      guard hasBase else {
        conflicts.append(path + "." + key)
        continue
      }
      let agreed = base?[key]
      if theirs == agreed {
        merged[key] = mine
      } else if mine != agreed {
        conflicts.append(path + "." + key)
      }
    }
    return merged
  }
}
