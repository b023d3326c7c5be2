import Foundation

/// Merges a stream of records into the store: lists by UID or name, reminders by UID.
///
/// Knows no format (it sees `SourceRecord`s) and no SQL (it calls `Store`). Runs inside the
/// caller's transaction; `Importer` owns that.
public final class MergeEngine {
  public struct Options: Sendable {
    /// `--list`: every reminder goes to this list.
    public var targetList: String?
    /// The list for reminders whose source names none (the file's base name).
    public var defaultList: String

    public init(targetList: String? = nil, defaultList: String) {
      self.targetList = targetList
      self.defaultList = defaultList
    }
  }

  private let store: Store
  private let options: Options
  private let diagnostics: DiagnosticLog
  public private(set) var report: ImportReport

  /// Source list UID → the store's list.
  private var lists: [String: StoredList] = [:]
  private var defaultList: StoredList?
  /// Rows present before the import began have ids up to this; newer rows were added by it.
  private let lastRowBeforeImport: Int64
  /// Which pre-existing rows this import already matched, to spot a UID that comes twice in
  /// one source without holding every UID in memory.
  private var matchedRows = RowBits()
  /// Which pre-existing rows this import changed: what its validation looks at.
  private var changedRows = RowBits()
  /// Lets the reader skip records the store holds unchanged (see `RecordDigest`).
  private let knownRecords: KnownRecords?
  /// What record digests are combined with: the options of this import that decide where a
  /// record's reminder goes.
  private let digestSeed: RecordDigest
  /// Subtasks whose parent had not been seen yet when they were written.
  private var pendingParents: [(row: Int64, parentID: String, uid: String, location: SourceLocation)] = []

  public init(
    store: Store, options: Options, diagnostics: DiagnosticLog, report: ImportReport, knownRecords: KnownRecords? = nil
  ) throws {
    self.store = store
    self.options = options
    self.diagnostics = diagnostics
    self.report = report
    self.knownRecords = knownRecords
    digestSeed = RecordDigest(context: ["merge", options.targetList ?? "\u{0}", options.defaultList])
    let maxRow = try store.database.scalar("SELECT coalesce(max(id), 0) FROM reminders")
    if case .integer(let value) = maxRow { lastRowBeforeImport = value } else { lastRowBeforeImport = 0 }
    // Only digests stored before this import can name a row to skip: into a store without
    // any (a first import), readers are told at once that nothing is known.
    if knownRecords != nil, try store.hasSourceDigests() {
      knownRecords?.lookup = { [unowned self] digest in try self.holdsUnchanged(digest) }
    }
  }

  public func consume(_ record: SourceRecord) throws {
    switch record {
    case .list(let list):
      if options.targetList != nil {
        lists[list.id] = try targetList()
      } else {
        lists[list.id] = try mergeList(list)
      }
    case .reminder(let reminder, let location):
      try mergeReminder(reminder, at: location)
    case .skipped(let kind, _):
      report.skipped[kind, default: 0] += 1
    case .rejected(let reason, let location, let uid):
      report.rejected += 1
      diagnostics.report(Diagnostic(.error, code: "rejected", reason, at: location, uid: uid))
    case .unchanged:
      report.unchanged += 1
    }
  }

  /// Whether the store holds a reminder stored from a record with this digest and not changed
  /// since; if so, it counts as matched by this import (a second record with the same digest
  /// in the source is decoded, and reported as the duplicate it is).
  private func holdsUnchanged(_ digest: RecordDigest) throws -> Bool {
    guard let row = try store.reminderRowID(sourceDigest: stored(digest)), !wasWrittenByThisImport(row) else {
      return false
    }
    mark(row, in: &matchedRows)
    return true
  }

  /// A reader's digest with this import's own context.
  private func stored(_ digest: RecordDigest) -> RecordDigest {
    withUnsafeBytes(of: (digest.high, digest.low)) { RecordDigest(of: $0, seed: digestSeed) }
  }

  /// Resolves subtasks whose parent came later, and reports parents that never came.
  public func finish() throws -> ImportReport {
    for pending in pendingParents {
      if let parent = try store.reminderRowID(uid: pending.parentID) {
        try attach(row: pending.row, uid: pending.uid, toParentRow: parent, parentID: pending.parentID, at: pending.location)
      } else {
        diagnostics.warning(
          "missing-parent",
          "the parent \(pending.parentID) of this subtask is not in the source or the store; it stays top-level",
          at: pending.location, uid: pending.uid)
        if let stored = try store.reminder(rowID: pending.row) {
          var reminder = stored.reminder
          reminder.extra["missingParent"] = .string(pending.parentID)
          reminder.parentID = nil
          try store.updateReminder(rowID: pending.row, reminder, listRowID: stored.listRowID, parentRowID: nil)
        }
      }
    }
    pendingParents = []
    report.record(diagnostics)
    return report
  }

  // MARK: Lists

  private func targetList() throws -> StoredList {
    if let defaultList { return defaultList }
    let name = options.targetList ?? options.defaultList
    let list = try findOrCreateList(named: name)
    defaultList = list
    return list
  }

  private func findOrCreateList(named name: String) throws -> StoredList {
    if let existing = try store.list(named: name) { return existing }
    let list = ReminderList(id: StableID.derived(["list", ListName.key(for: name)]), name: name)
    let row = try store.insertList(list)
    report.listsAdded += 1
    return StoredList(rowID: row, list: list)
  }

  private func mergeList(_ list: ReminderList) throws -> StoredList {
    // An empty UID is no identifier: the store would hold a list no record could name again
    // (an empty list id means "no list" to a reminder). The list gets the UID a source without
    // ids would give it; its reminders still find it under the empty id, in `lists`.
    if list.id.isEmpty {
      var identified = list
      identified.id = StableID.derived(["list", ListName.key(for: ListName.normalized(list.name))])
      diagnostics.warning(
        "empty-list-id", "the list '\(list.name)' has an empty UID; it is given \(identified.id)", uid: identified.id)
      return try mergeList(identified)
    }
    // A name that is blank once trimmed cannot be stored: the list keeps the name it has, or
    // a new one takes the default list's. It is looked up under the name it will be stored
    // under, so that two blank names become one list, not a clash of keys.
    var name = ListName.normalized(list.name)
    if name.isEmpty {
      let existing = try store.list(uid: list.id)
      name = existing?.list.name ?? options.defaultList
      diagnostics.warning(
        "blank-list-name", "the list \(list.id) has a blank name; it is named '\(name)'", uid: list.id)
    }
    if let existing = try store.list(uid: list.id) {
      var updated = existing.list
      updated.name = name
      updated.symbol = list.symbol
      updated.color = list.color
      updated.createdAt = list.createdAt ?? existing.list.createdAt
      updated.extra = Self.merged(extra: list.extra, over: existing.list.extra)
      if updated != existing.list {
        if ListName.key(for: updated.name) != ListName.key(for: existing.list.name),
          let clash = try store.list(named: updated.name), clash.rowID != existing.rowID
        {
          diagnostics.warning(
            "list-name-taken",
            "list \(list.id) is renamed '\(updated.name)' in the source, but another list has that name; the name is kept",
            uid: list.id)
          updated.name = existing.list.name
        }
        if updated != existing.list {
          try store.updateList(rowID: existing.rowID, updated)
          report.listsUpdated += 1
        }
      }
      return StoredList(rowID: existing.rowID, list: updated)
    }
    if let byName = try store.list(named: name) {
      // Same name key, another UID: the source's list lands in the store's list of that name,
      // whose own values stay; what the source's list carried is kept beside them.
      return try keepMergedList(list, named: name, in: byName)
    }
    var created = list
    created.name = name
    let row = try store.insertList(created)
    report.listsAdded += 1
    return StoredList(rowID: row, list: created)
  }

  /// Keeps what a source list merged by name into `stored` carries and the stored list does
  /// not (its own UID, a colour, a symbol, its extra) in the stored list's `extra.mergedLists`,
  /// one entry per source UID in the shape `validate --fix --on-duplicate merge` and the
  /// migration's merge policy use, and warns naming both lists. A UID derived from the name (a
  /// source without list UIDs) is no loss by itself; an entry already kept as it is is not
  /// written or reported again, so importing the same file twice changes nothing.
  private func keepMergedList(_ list: ReminderList, named name: String, in stored: StoredList) throws -> StoredList {
    let ownUID = list.id != StableID.derived(["list", ListName.key(for: name)]) && list.id != stored.list.id
    let color = list.color.flatMap { $0 == stored.list.color ? nil : $0 }
    let symbol = list.symbol == ReminderList.defaultSymbol || list.symbol == stored.list.symbol ? nil : list.symbol
    let extra = list.extra.isEmpty || list.extra == stored.list.extra ? nil : list.extra
    guard ownUID || color != nil || symbol != nil || extra != nil else { return stored }
    var entry: [String: JSONValue] = [
      "id": .string(list.id), "name": .string(name), "symbol": .string(list.symbol), "extra": .object(list.extra),
    ]
    if let color = list.color { entry["color"] = .string(color) }
    if let created = list.createdAt { entry["createdAt"] = .string(created.description) }
    var entries = stored.list.extra["mergedLists"]?.arrayValue ?? []
    if let index = entries.firstIndex(where: { $0["id"] == .string(list.id) }) {
      guard entries[index] != .object(entry) else { return stored }
      entries[index] = .object(entry)
    } else {
      entries.append(.object(entry))
    }
    var updated = stored
    updated.list.extra["mergedLists"] = .array(entries)
    try store.updateListExtra(rowID: stored.rowID, updated.list.extra)
    report.listsUpdated += 1
    let carried = [
      ownUID ? "UID \(list.id)" : nil, color.map { "colour \($0)" }, symbol.map { "symbol \($0)" },
      extra.map { _ in "extra" },
    ].compactMap { $0 }
    let likeness = ListName.sameScalars(name, stored.list.name) ? "" : " but for case, spaces or Unicode form"
    diagnostics.warning(
      "list-merged-by-name",
      "the list \(JSONText.quoted(name)) has the name of the store's list \(JSONText.quoted(stored.list.name)) (UID \(stored.list.id))\(likeness): its reminders go there, that list keeps its own values, and this list's \(carried.joined(separator: ", ")) \(carried.count == 1 ? "is" : "are") kept in its extra.mergedLists",
      uid: list.id)
    return updated
  }

  // MARK: Reminders

  private func mergeReminder(_ source: Reminder, at location: SourceLocation) throws {
    // The digest of the record is stored with the reminder only when merging it was clean: no
    // warning here (a reader notes a digest only when decoding warned of nothing), no parent
    // left for later, and a list found by its UID (a list found by name may be another once
    // lists are renamed). Anything else is merged in full on every import, so its warnings
    // are reported every time.
    var digest = knownRecords?.take(forUID: source.id).map(stored)
    let reportedBefore = diagnostics.reportedCount
    let list: StoredList
    if options.targetList != nil {
      list = try targetList()
    } else if let known = lists[source.listID] {
      list = known
    } else if source.listID.isEmpty {
      list = try targetList()
    } else if let byUID = try store.list(uid: source.listID) {
      lists[source.listID] = byUID
      list = byUID
    } else {
      diagnostics.warning(
        "unknown-list", "the list \(source.listID) is not in the source; the reminder goes to '\(options.targetList ?? options.defaultList)'",
        at: location, uid: source.id)
      list = try targetList()
    }
    var reminder = source
    reminder.listID = list.list.id
    if options.targetList == nil, !source.listID.isEmpty, list.list.id != source.listID { digest = nil }
    if reminder.title.allSatisfy(\.isWhitespace) {
      diagnostics.warning("empty-title", "the reminder has an empty title", at: location, uid: reminder.id)
    }

    var existing = try store.fingerprint(uid: reminder.id)
    if let found = existing, wasWrittenByThisImport(found.rowID) {
      let fresh = StableID.make()
      diagnostics.warning(
        "duplicate-uid",
        "the UID \(reminder.id) appears again in the source; this one gets the new UID \(fresh) (the old one is kept in extra.originalId)",
        at: location, uid: reminder.id)
      reminder.extra["originalId"] = .string(reminder.id)
      reminder.id = fresh
      existing = nil
      digest = nil
    }

    // Resolve the parent now when it is already in the store; otherwise after the last record.
    var parentRow: Int64?
    var parentPending = false
    if let parentID = reminder.parentID {
      if parentID == reminder.id {
        diagnostics.warning("self-parent", "the reminder names itself as its parent; it stays top-level", at: location, uid: reminder.id)
        reminder.parentID = nil
      } else if let parent = try store.reminderRowID(uid: parentID) {
        // Keeping the parent it has cannot make a cycle; checking it would walk every ancestor
        // of every reminder on each re-import, quadratic in the depth of a deep outline.
        if existing?.parentRowID != parent, try createsCycle(child: existing?.rowID, parentRow: parent) {
          diagnostics.warning(
            "parent-cycle", "making \(parentID) the parent would form a cycle; the reminder stays top-level",
            at: location, uid: reminder.id)
          reminder.extra["brokenParent"] = .string(parentID)
          reminder.parentID = nil
        } else {
          parentRow = parent
        }
      } else {
        parentPending = true
      }
    }

    if parentPending || diagnostics.reportedCount != reportedBefore { digest = nil }

    let row: Int64
    if let existing {
      if case .text(let storedExtra) = existing.content.last, storedExtra != "{}" {
        reminder.extra = Self.merged(extra: reminder.extra, over: Store.decodeObject(storedExtra))
      }
      let sameParent = existing.parentUID == reminder.parentID && (parentPending || existing.parentRowID == parentRow)
      if sameParent, existing.listRowID == list.rowID, existing.content == store.storedContent(of: reminder) {
        report.unchanged += 1
        mark(existing.rowID, in: &matchedRows)
        if let digest, existing.sourceDigest != digest {
          try store.setSourceDigest(digest, ofReminderRow: existing.rowID)
        }
        return
      }
      // A parent that comes later in the source is attached by finish(); keep the link until then.
      try store.updateReminder(
        rowID: existing.rowID, reminder, listRowID: list.rowID, parentRowID: parentPending ? existing.parentRowID : parentRow,
        sourceDigest: digest)
      report.updated += 1
      row = existing.rowID
      mark(row, in: &matchedRows)
      mark(row, in: &changedRows)
    } else {
      row = try store.insertReminder(reminder, listRowID: list.rowID, parentRowID: parentRow, sourceDigest: digest)
      report.added += 1
    }
    if parentPending, let parentID = reminder.parentID {
      pendingParents.append((row, parentID, reminder.id, location))
    }
  }

  private func attach(row: Int64, uid: String, toParentRow parent: Int64, parentID: String, at location: SourceLocation) throws {
    if try createsCycle(child: row, parentRow: parent) {
      diagnostics.warning(
        "parent-cycle", "making \(parentID) the parent would form a cycle; the reminder stays top-level",
        at: location, uid: uid)
      if let stored = try store.reminder(rowID: row) {
        var reminder = stored.reminder
        reminder.parentID = nil
        reminder.extra["brokenParent"] = .string(parentID)
        try store.updateReminder(rowID: row, reminder, listRowID: stored.listRowID, parentRowID: nil)
      }
      return
    }
    try store.setParent(ofReminderRow: row, to: parent)
  }

  /// True when `parentRow` is `child` or one of its descendants.
  private func createsCycle(child: Int64?, parentRow: Int64) throws -> Bool {
    guard let child else { return false }
    var current: Int64? = parentRow
    var steps = 0
    while let row = current {
      if row == child { return true }
      steps += 1
      if steps > 100_000 { return true }
      current = try store.parentRowID(ofReminderRow: row)
    }
    return false
  }

  /// What a source carries beyond the model, laid over what the store kept: each format owns
  /// its own key of `extra` (`ical`, `taskwarrior`, ...), so importing the same reminders from
  /// another app keeps what the first app carried (an iCalendar alarm survives a Taskwarrior
  /// import). The source's keys win; `invalid` is the source's alone, so a value fixed at the
  /// source stops being reported.
  static func merged(extra source: [String: JSONValue], over stored: [String: JSONValue]) -> [String: JSONValue] {
    var result = stored
    result.removeValue(forKey: "invalid")
    result.merge(source) { _, new in new }
    return result
  }

  /// What this import wrote: every reminder row above `addedAfter` is new, and `updated` are
  /// the rows that existed before and that it changed.
  public var writtenReminderRows: (addedAfter: Int64, updated: [Int64]) {
    (lastRowBeforeImport, changedRows.sorted)
  }

  private func wasWrittenByThisImport(_ row: Int64) -> Bool {
    row > lastRowBeforeImport || matchedRows.contains(row)
  }

  private func mark(_ row: Int64, in rows: inout RowBits) {
    guard row <= lastRowBeforeImport else { return }
    rows.insert(row)
  }
}
