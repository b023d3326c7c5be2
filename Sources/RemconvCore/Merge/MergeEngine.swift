import Foundation

/// Merges a stream of records into a repository: lists by UID or name, reminders by UID.
///
/// Knows no format (it sees `SourceRecord`s) and no storage (it sees a `ReminderRepository`
/// and its handles), so a store, a folder or a remote collection are merged alike. Runs
/// inside the caller's transaction; `Importer` owns that.
public final class MergeEngine {
  public struct Options {
    /// `--list`: every reminder goes to this list.
    public var targetList: String?
    /// The list for reminders whose source names none (the file's base name).
    public var defaultList: String
    /// What the source makes of a stored item: what an incoming one is compared with, so that
    /// what the source cannot carry stays as stored. Nil: the stored item itself.
    public var projection: (any SourceProjection)?
    /// How the source identifies its reminders.
    public var identity: SourceIdentity
    /// A sync's: for each UID it merges, the version both sides last agreed on. A reminder
    /// named here merges three ways against it (`MergeBasis.agreed`), not with the projection.
    public var agreements: [String: Agreement]

    public init(
      targetList: String? = nil, defaultList: String, projection: (any SourceProjection)? = nil,
      identity: SourceIdentity = .uids, agreements: [String: Agreement] = [:]
    ) {
      self.targetList = targetList
      self.defaultList = defaultList
      self.projection = projection
      self.identity = identity
      self.agreements = agreements
    }
  }

  /// What the two sides of a sync last agreed on for one reminder.
  public struct Agreement: Sendable {
    /// The agreed version; nil when there is none (the reminder was met on both sides before
    /// any pairing: every field they hold differently is then changed on both).
    public var base: Reminder?
    /// Whether the store changed the reminder since: if not, whatever the incoming side
    /// changed is taken, and nothing is a conflict.
    public var storeChanged: Bool

    public init(base: Reminder?, storeChanged: Bool) {
      self.base = base
      self.storeChanged = storeChanged
    }
  }

  /// How a source identifies its reminders.
  public enum SourceIdentity: Sendable {
    /// By UIDs it carries: a reminder is the stored one with its UID.
    case uids
    /// Some or all of its UIDs are derived from what a reminder says (it carries none): a
    /// reminder whose UID the repository does not hold is the stored one in the same list,
    /// under the same parent, with the same title and due date, that this merge has not
    /// matched yet (its fallback identity).
    case derivedWhenAbsent
  }

  private let repository: any ReminderRepository
  private let options: Options
  private let diagnostics: DiagnosticLog
  public private(set) var report: ImportReport

  /// Source list UID → the repository's list.
  private var lists: [String: RepositoryList] = [:]
  private var defaultList: RepositoryList?
  /// Reminders present before the merge began have handles up to this; greater ones were
  /// added by it.
  private let lastBeforeMerge: ReminderHandle
  /// Whether the repository held no reminder when the merge began: every reminder it holds
  /// since is one this merge wrote.
  private let startedEmpty: Bool
  /// Whether a list may hold a former UID: one did when the merge began, or the merge wrote one
  /// since. Without, no list is sought by a former UID (a scan of every list's `extra`, for
  /// each list a source names).
  private var listsMayHoldAliases: Bool
  /// Which pre-existing reminders this merge already matched, to spot a UID that comes twice
  /// in one source without holding every UID in memory.
  private var matched = RowBits()
  /// Which pre-existing reminders this merge changed: what its validation looks at.
  private var changed = RowBits()
  /// Tells the import stage which records the repository holds unchanged (see `RecordDigest`).
  private let knownRecords: KnownRecords?
  /// What record digests are combined with: the options of this import that decide where a
  /// record's reminder goes.
  private let digestSeed: RecordDigest
  /// Derives the UIDs of reminders whose UID came before in the source.
  private let duplicateIDs = DerivedIDGenerator()
  /// Source UID → the stored reminder's UID, for reminders matched by their fallback identity
  /// (`SourceIdentity.derivedWhenAbsent`): their subtasks name them by the source's UID.
  private var matchedUIDs: [String: String] = [:]
  /// Subtasks whose parent had not been seen yet when they were written.
  private var pendingParents: [PendingParent] = []
  /// The UIDs this merge wrote, when the repository held no reminder before it: a UID not in
  /// the filter is in no row, so a new reminder's UID is not looked up (`existingState`).
  private var writtenUIDs: UIDFilter?
  /// The reminders this merge added last, by UID, when the repository held no reminder before
  /// it: each of those UIDs names one row (a UID met twice got a derived one), the one added.
  /// A subtask's parent most often comes shortly before it, and is found there without a
  /// look-up (`handle(uid:)`).
  private var addedHandles: AddedHandles?

  private struct PendingParent {
    let child: ReminderHandle
    let parentID: String
    let uid: String
    let location: SourceLocation
  }

  public init(
    repository: any ReminderRepository, options: Options, diagnostics: DiagnosticLog, report: ImportReport,
    knownRecords: KnownRecords? = nil
  ) throws {
    self.repository = repository
    self.options = options
    self.diagnostics = diagnostics
    self.report = report
    self.knownRecords = knownRecords
    digestSeed = RecordDigest(context: ["merge", options.targetList ?? "\u{0}", options.defaultList])
    lastBeforeMerge = try repository.lastReminderHandle()
    startedEmpty = try repository.holdsNoReminders()
    listsMayHoldAliases = try repository.holdsListAliases()
    if startedEmpty {
      writtenUIDs = UIDFilter()
      addedHandles = AddedHandles()
    }
    // Only digests stored before this merge can name a reminder to skip: into a repository
    // without any (a first import), the import stage is told at once that nothing is known.
    if knownRecords != nil, try repository.hasSourceDigests() {
      knownRecords?.lookup = { [unowned self] digest in try self.holdsUnchanged(digest) }
    }
  }

  /// Merges one list and returns it as the repository keeps it.
  public func merge(_ list: ReminderList) throws -> RepositoryList {
    let merged = try mergeList(list)
    lists[list.id] = merged
    return merged
  }

  /// Merges one record; returns the UID a reminder is kept under (another than its own when the
  /// source had its UID twice), nil for any other record.
  @discardableResult
  public func consume(_ record: consuming SourceRecord) throws -> String? {
    // Consumed, so the reminder moves on to the merge instead of being copied.
    switch consume record {
    case .list(let list):
      if options.targetList != nil {
        lists[list.id] = try targetList()
      } else {
        lists[list.id] = try mergeList(list)
      }
    case .reminder(let reminder, let location):
      return try mergeReminder(reminder, at: location)
    case .skipped(let kind, _):
      report.skipped[kind, default: 0] += 1
    case .rejected(let reason, let location, let uid):
      report.rejected += 1
      diagnostics.report(Diagnostic(.error, code: "rejected", reason, at: location, uid: uid))
    case .unchanged:
      report.unchanged += 1
    }
    return nil
  }

  /// Whether the store holds a reminder stored from a record with this digest and not changed
  /// since; if so, it counts as matched by this import (a second record with the same digest
  /// in the source is decoded, and reported as the duplicate it is).
  private func holdsUnchanged(_ digest: RecordDigest) throws -> Bool {
    guard let handle = try repository.reminderHandle(sourceDigest: stored(digest)), !wasWrittenByThisMerge(handle)
    else {
      return false
    }
    mark(handle, in: &matched)
    return true
  }

  /// A reader's digest with this import's own context.
  private func stored(_ digest: RecordDigest) -> RecordDigest {
    withUnsafeBytes(of: (digest.high, digest.low)) { RecordDigest(of: $0, seed: digestSeed) }
  }

  /// Resolves subtasks whose parent came later, and reports parents that never came.
  public func finish() throws -> ImportReport {
    for pending in pendingParents {
      if let parent = try handle(uid: matchedUIDs[pending.parentID] ?? pending.parentID) {
        try attach(pending, to: parent)
      } else {
        diagnostics.warning(
          "missing-parent",
          "the parent \(pending.parentID) of this subtask is not in the source or the store; it stays top-level",
          at: pending.location, uid: pending.uid)
        try detach(pending.child) { $0["missingParent"] = .string(pending.parentID) }
      }
    }
    pendingParents = []
    report.record(diagnostics)
    return report
  }

  // MARK: Lists

  private func targetList() throws -> RepositoryList {
    if let defaultList { return defaultList }
    let name = options.targetList ?? options.defaultList
    let list = try findOrCreateList(named: name)
    defaultList = list
    return list
  }

  private func findOrCreateList(named name: String) throws -> RepositoryList {
    if let existing = try repository.findList(named: name) { return existing }
    let list = ReminderList(id: StableID.derived(["list", ListName.key(for: name)]), name: name)
    let handle = try repository.addList(list)
    report.listsAdded += 1
    noteAliases(of: list)
    return RepositoryList(handle: handle, list: list)
  }

  private func mergeList(_ list: ReminderList) throws -> RepositoryList {
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
      let existing = try repository.findList(uid: list.id)
      name = existing?.list.name ?? options.defaultList
      diagnostics.warning(
        "blank-list-name", "the list \(list.id) has a blank name; it is named '\(name)'", uid: list.id)
    }
    if let existing = try repository.findList(uid: list.id) {
      return try update(existing, with: list, named: name)
    }
    if listsMayHoldAliases, let aliased = try repository.findList(alias: list.id) {
      // A UID the list had before it took another one's: the list keeps its present UID.
      var known = list
      known.id = aliased.list.id
      return try update(aliased, with: known, named: name)
    }
    if let byName = try repository.findList(named: name) {
      return try adopt(list, named: name, into: byName)
    }
    var created = list
    created.name = name
    let handle = try repository.addList(created)
    report.listsAdded += 1
    noteAliases(of: created)
    return RepositoryList(handle: handle, list: created)
  }

  /// Keeps `listsMayHoldAliases` true once a list written holds former UIDs.
  private func noteAliases(of list: ReminderList) {
    if list.extra["mergedLists"] != nil { listsMayHoldAliases = true }
  }

  /// Merges a source's list into the stored one it names, attribute by attribute as for
  /// reminders (`FieldMerge`): what the source cannot carry stays. A new name is taken unless
  /// another list has it.
  private func update(
    _ existing: RepositoryList, with list: ReminderList, named name: String, adopting: Bool = false
  ) throws -> RepositoryList {
    var incoming = list
    incoming.name = name
    if incoming == existing.list, !adopting { return existing }
    var projected =
      try options.projection?.list(existing.list) ?? FieldMerge.unprojected(existing.list, incoming: incoming)
    // The UIDs a list had before (`adopt`) are the store's memory, not a source's to change.
    projected.extra["mergedLists"] = incoming.extra["mergedLists"]
    let merge = FieldMerge.list(incoming, projected: projected, stored: existing.list)
    var updated = merge.merged
    var changed = merge.changed
    if updated.name != existing.list.name {
      if ListName.key(for: updated.name) != ListName.key(for: existing.list.name),
        let clash = try repository.findList(named: updated.name), clash.handle != existing.handle
      {
        diagnostics.warning(
          "list-name-taken",
          "list \(list.id) is renamed '\(updated.name)' in the source, but another list has that name; the name is kept",
          uid: list.id)
        updated.name = existing.list.name
      } else {
        changed.append("list.name")
      }
    }
    if adopting {
      changed.append("list.id")
      var aliases = updated.extra["mergedLists"]?.arrayValue ?? []
      aliases.append(.object(["id": .string(existing.list.id), "name": .string(existing.list.name)]))
      updated.extra["mergedLists"] = .array(aliases)
    }
    if updated != existing.list {
      try repository.replaceList(existing.handle, with: updated)
      report.listsUpdated += 1
      noteAliases(of: updated)
      for field in changed { report.fieldChanges[field, default: 0] += 1 }
    }
    return RepositoryList(handle: existing.handle, list: updated)
  }

  /// A source's list with the name (by key) of a stored list of another UID: the same list,
  /// as when a backup is restored into a store whose lists came from elsewhere. The stored
  /// list takes what the source changed, as any matched list does; a list with a UID of its
  /// own (not one derived from its name by a source without list UIDs) also gives the stored
  /// list its UID, the stored one kept in `extra.mergedLists` so that sources naming either
  /// find the list, and the warning says so. Both are then known: the next import matches by
  /// UID and says nothing.
  private func adopt(_ list: ReminderList, named name: String, into stored: RepositoryList) throws -> RepositoryList {
    // A source that knows the list by its name alone keeps finding it by name: the stored form
    // of the name (its case, its spaces) stays.
    guard list.id != StableID.derived(["list", ListName.key(for: name)]) else {
      var derived = list
      derived.id = stored.list.id
      return try update(stored, with: derived, named: stored.list.name)
    }
    let updated = try update(stored, with: list, named: name, adopting: true)
    let likeness = ListName.sameScalars(name, stored.list.name) ? "" : " but for case, spaces or Unicode form"
    diagnostics.warning(
      "list-matched-by-name",
      "the list \(JSONText.quoted(name)) has the name of the store's list \(JSONText.quoted(stored.list.name)) (UID \(stored.list.id))\(likeness): that list takes this list's UID and values, and keeps \(stored.list.id) in its extra.mergedLists, so that sources naming either UID find it",
      uid: list.id)
    return updated
  }

  // MARK: Reminders

  /// One source reminder on its way into the repository.
  private struct Incoming {
    var reminder: Reminder
    let location: SourceLocation
    /// The record's digest, kept with the reminder only when its merge is clean: no warning
    /// (the import stage notes a digest only when decoding warned of nothing), no parent left for
    /// later, and a list found by its UID (a list found by name may be another once lists are
    /// renamed). Anything else is merged in full on every import, so its warnings are
    /// reported every time.
    var digest: RecordDigest?
    /// Whether merging it warned of anything: then its digest is not kept.
    var warned = false
    /// Whether both sides of a sync moved it under different parents.
    var parentConflict = false
  }

  /// Where an incoming reminder's parent is.
  private enum ParentLink {
    case none
    case found(ReminderHandle)
    /// Not in the repository yet: attached by `finish()` once every record is in.
    case pending(String)

    var handle: ReminderHandle? {
      if case .found(let handle) = self { return handle }
      return nil
    }

    var isPending: Bool {
      if case .pending = self { return true }
      return false
    }
  }

  private func mergeReminder(_ source: consuming Reminder, at location: SourceLocation) throws -> String {
    let digest = knownRecords?.take(forUID: source.id).map(stored)
    var incoming = Incoming(reminder: source, location: location, digest: digest)
    if let parentID = incoming.reminder.parentID, let storedUID = matchedUIDs[parentID] {
      incoming.reminder.parentID = storedUID
    }
    let list = try resolveList(of: &incoming)
    if incoming.reminder.title.isBlank {
      warning("empty-title", "the reminder has an empty title", for: &incoming)
    }
    let existing = try existingState(of: &incoming, in: list)
    if let existing, let agreement = options.agreements[incoming.reminder.id] {
      mergeParent(of: &incoming, existing: existing, agreement)
    }
    let parent = try resolveParent(of: &incoming, existing: existing)
    if incoming.warned || parent.isPending { incoming.digest = nil }
    let written: ReminderHandle
    if let existing {
      guard let updated = try update(existing, with: &incoming, in: list, parent: parent) else {
        return incoming.reminder.id
      }
      written = updated
    } else {
      written = try repository.addReminder(
        incoming.reminder, list: list.handle, parent: parent.handle, sourceDigest: incoming.digest)
      report.added += 1
      addedHandles?.note(written, uid: incoming.reminder.id)
    }
    writtenUIDs?.insert(incoming.reminder.id)
    if case .pending(let parentID) = parent {
      pendingParents.append(
        PendingParent(child: written, parentID: parentID, uid: incoming.reminder.id, location: location))
    }
    return incoming.reminder.id
  }

  private func warning(_ code: String, _ message: String, for incoming: inout Incoming) {
    diagnostics.warning(code, message, at: incoming.location, uid: incoming.reminder.id)
    incoming.warned = true
  }

  /// The list the reminder goes to: `--list`, the list its source names (by UID), or the
  /// default list.
  private func resolveList(of incoming: inout Incoming) throws -> RepositoryList {
    let listID = incoming.reminder.listID
    let list: RepositoryList
    if options.targetList != nil {
      list = try targetList()
    } else if let known = lists[listID] {
      list = known
    } else if listID.isEmpty {
      list = try targetList()
    } else if let byUID = try repository.findList(uid: listID) {
      lists[listID] = byUID
      list = byUID
    } else {
      warning(
        "unknown-list",
        "the list \(listID) is not in the source; the reminder goes to '\(options.targetList ?? options.defaultList)'",
        for: &incoming)
      list = try targetList()
    }
    // A list the source named but that was found under another UID (by name) is not clean.
    if options.targetList == nil, !listID.isEmpty, list.list.id != listID { incoming.digest = nil }
    incoming.reminder.listID = list.list.id
    return list
  }

  /// The reminder the repository keeps under the incoming UID. A UID this merge has already
  /// written (it comes twice in the source) gets a UID derived from it and the record, the
  /// source's kept in `extra.originalId`, so that importing the source again finds the same
  /// reminder under it. A source whose UIDs may be derived (`SourceIdentity`) falls back to
  /// matching by list, parent, title and due date.
  private func existingState(of incoming: inout Incoming, in list: RepositoryList) throws -> ReminderState? {
    let sourceUID = incoming.reminder.id
    if writtenUIDs?.mayContain(sourceUID) ?? true, let existing = try repository.reminderState(uid: sourceUID) {
      guard wasWrittenByThisMerge(existing.handle) else { return existing }
      let derived = duplicateIDs.next(Self.identityParts(of: incoming.reminder))
      warning(
        "duplicate-uid",
        "the UID \(sourceUID) appears again in the source; this one gets the UID \(derived), derived from it and the reminder, so a re-import finds it again (the old one is kept in extra.originalId)",
        for: &incoming)
      incoming.reminder.extra["originalId"] = .string(sourceUID)
      incoming.reminder.id = derived
      guard let kept = try repository.reminderState(uid: derived), !wasWrittenByThisMerge(kept.handle) else {
        return nil
      }
      return kept
    }
    // Only a reminder this merge did not write can be the record's: into a repository that held
    // none, there is no candidate to look for (the search by list and title reads every reminder
    // of the list, which made a first import quadratic in the size of its lists).
    guard options.identity == .derivedWhenAbsent, !startedEmpty else { return nil }
    let parent = try incoming.reminder.parentID.map { try repository.reminderHandle(uid: $0) }
    if incoming.reminder.parentID != nil, parent == nil { return nil }
    let candidates = try repository.reminderStates(
      list: list.handle, parent: parent ?? nil, title: incoming.reminder.title
    ).filter { !wasWrittenByThisMerge($0.handle) }
    guard let (match, storedUID) = try sameDue(as: incoming.reminder, among: candidates, in: list) else {
      return nil
    }
    matchedUIDs[sourceUID] = storedUID
    incoming.reminder.id = storedUID
    return match
  }

  /// The first candidate whose due date is the incoming one as the source would carry it (a
  /// source without due dates matches any), with its UID.
  private func sameDue(
    as incoming: Reminder, among candidates: [ReminderState], in list: RepositoryList
  ) throws -> (ReminderState, String)? {
    let due = ReminderColumns(incoming)
    for candidate in candidates {
      guard let stored = try repository.reminder(candidate.handle)?.reminder else { continue }
      if candidate.columns.due == due.due, candidate.columns.dueKind == due.dueKind,
        candidate.columns.dueTimeZone == due.dueTimeZone
      {
        return (candidate, stored.id)
      }
      if let projected = try options.projection?.reminder(stored, in: list.list), projected.dueDate == incoming.dueDate
      {
        return (candidate, stored.id)
      }
    }
    return nil
  }

  /// What a reminder says that tells it apart from another with its UID: the parts a derived
  /// UID is made of.
  private static func identityParts(of reminder: Reminder) -> [String] {
    let columns = ReminderColumns(reminder)
    return [
      "duplicate", reminder.id, reminder.listID, reminder.parentID ?? "", columns.title, columns.notes,
      columns.due ?? "", columns.dueKind ?? "", columns.dueTimeZone ?? "", String(columns.isDone),
      columns.completedAt ?? "", columns.createdAt ?? "", columns.tags, columns.url ?? "",
    ]
  }

  /// A sync's parent, three ways as a field: the side that moved the reminder decides; both
  /// moving it under different parents is a conflict, and the incoming parent is kept.
  private func mergeParent(of incoming: inout Incoming, existing: ReminderState, _ agreement: Agreement) {
    let mine = existing.parentUID
    let theirs = incoming.reminder.parentID
    guard theirs != mine else { return }
    if let base = agreement.base {
      if theirs == base.parentID {
        incoming.reminder.parentID = mine
        return
      }
      if !agreement.storeChanged || mine == base.parentID { return }
    } else if !agreement.storeChanged {
      return
    }
    incoming.parentConflict = true
  }

  /// Finds the parent now when the repository has it already; otherwise it is pending.
  private func resolveParent(of incoming: inout Incoming, existing: ReminderState?) throws -> ParentLink {
    guard let parentID = incoming.reminder.parentID else { return .none }
    if parentID == incoming.reminder.id {
      warning("self-parent", "the reminder names itself as its parent; it stays top-level", for: &incoming)
      incoming.reminder.parentID = nil
      return .none
    }
    guard let parent = try handle(uid: parentID) else { return .pending(parentID) }
    // Keeping the parent it has cannot make a cycle; checking it would walk every ancestor
    // of every reminder on each re-import, quadratic in the depth of a deep outline.
    if existing?.parent != parent, try createsCycle(child: existing?.handle, parent: parent) {
      warning(
        "parent-cycle", "making \(parentID) the parent would form a cycle; the reminder stays top-level",
        for: &incoming)
      incoming.reminder.extra["brokenParent"] = .string(parentID)
      incoming.reminder.parentID = nil
      return .none
    }
    return .found(parent)
  }

  /// The first reminder the repository keeps under `uid`, what `reminderHandle(uid:)` answers:
  /// from what a first merge added, without asking, when it can tell.
  private func handle(uid: String) throws -> ReminderHandle? {
    if let added = addedHandles?.handle(uid: uid) { return added }
    if writtenUIDs?.mayContain(uid) == false { return nil }
    return try repository.reminderHandle(uid: uid)
  }

  /// Writes what the source changed of `existing` (`FieldMerge`) unless it changed nothing;
  /// returns the handle written, or nil when nothing changed.
  private func update(
    _ existing: ReminderState, with incoming: inout Incoming, in list: RepositoryList, parent: ParentLink
  ) throws -> ReminderHandle? {
    let sameParent: Bool
    switch parent {
    case .none: sameParent = existing.parentUID == nil && existing.parent == nil
    case .found(let handle): sameParent = existing.parentUID == incoming.reminder.parentID && existing.parent == handle
    case .pending: sameParent = existing.parentUID == incoming.reminder.parentID
    }
    let samePlace = sameParent && existing.list == list.handle
    var changedFields: [String] = []
    var conflicts: [String] = incoming.parentConflict ? ["parent"] : []
    var before: Reminder?
    if !samePlace || existing.columns != ReminderColumns(incoming.reminder),
      let stored = try repository.reminder(existing.handle)?.reminder
    {
      let basis: MergeBasis<Reminder>
      if let agreement = options.agreements[incoming.reminder.id] {
        basis = .agreed(agreement.base, storeChanged: agreement.storeChanged)
      } else {
        basis = .projection(
          try options.projection?.reminder(stored, in: list.list)
            ?? FieldMerge.unprojected(stored, incoming: incoming.reminder))
      }
      let merge = FieldMerge.reminder(incoming.reminder, basis: basis, stored: stored)
      incoming.reminder = merge.merged
      changedFields = merge.changed
      conflicts = merge.conflicts + conflicts
      before = stored
    }
    if samePlace, existing.columns == ReminderColumns(incoming.reminder) {
      report.unchanged += 1
      mark(existing.handle, in: &matched)
      if let digest = incoming.digest, existing.sourceDigest != digest {
        try repository.setSourceDigest(digest, of: existing.handle)
      }
      return nil
    }
    if existing.list != list.handle { changedFields.append("list") }
    if !sameParent { changedFields.append("parent") }
    // A parent that comes later in the source is attached by finish(); keep the link until then.
    let parentHandle = parent.isPending ? existing.parent : parent.handle
    try repository.replaceReminder(
      existing.handle, with: incoming.reminder, list: list.handle, parent: parentHandle, sourceDigest: incoming.digest)
    report.updated += 1
    for field in changedFields { report.fieldChanges[field, default: 0] += 1 }
    mark(existing.handle, in: &matched)
    mark(existing.handle, in: &changed)
    if !conflicts.isEmpty, let before {
      try keepConflictCopy(of: before, fields: conflicts, in: list, parent: existing.parent)
    }
    return existing.handle
  }

  /// Keeps the store's version of a reminder whose same fields both sides of a sync changed:
  /// a new reminder beside the merged one (docs/sync.md, "Merging and conflicts").
  private func keepConflictCopy(
    of stored: Reminder, fields: [String], in list: RepositoryList, parent: ReminderHandle?
  ) throws {
    var copy = stored
    copy.id = StableID.make()
    copy.title = stored.title + " (conflict copy)"
    copy.listID = list.list.id
    _ = try repository.addReminder(copy, list: list.handle, parent: parent, sourceDigest: nil)
    report.conflicts.append(MergeConflict(uid: stored.id, title: stored.title, fields: fields, copyUID: copy.id))
  }

  /// Removes the reminder with `uid` from `list`, with those of its subtasks that `uids` names
  /// too; any other subtask stays, at the top. Returns the UIDs of the subtasks it detached,
  /// nil when the list holds no reminder with that UID (another list may hold it since).
  public func remove(uid: String, from list: ListHandle, with uids: Set<String>) throws -> [String]? {
    guard let state = try repository.reminderState(uid: uid), state.list == list else { return nil }
    var detached: [String] = []
    for child in try repository.children(of: state.handle) {
      guard let childUID = try repository.reminder(child)?.reminder.id, !uids.contains(childUID) else { continue }
      try repository.setParent(of: child, to: nil)
      detached.append(childUID)
    }
    try repository.removeReminder(state.handle)
    return detached
  }

  private func attach(_ pending: PendingParent, to parent: ReminderHandle) throws {
    guard try createsCycle(child: pending.child, parent: parent) else {
      try repository.setParent(of: pending.child, to: parent)
      return
    }
    diagnostics.warning(
      "parent-cycle", "making \(pending.parentID) the parent would form a cycle; the reminder stays top-level",
      at: pending.location, uid: pending.uid)
    try detach(pending.child) { $0["brokenParent"] = .string(pending.parentID) }
  }

  /// Makes a reminder top-level, noting in its extra why.
  private func detach(_ handle: ReminderHandle, noting: (inout [String: JSONValue]) -> Void) throws {
    guard let stored = try repository.reminder(handle) else { return }
    var reminder = stored.reminder
    reminder.parentID = nil
    noting(&reminder.extra)
    try repository.replaceReminder(handle, with: reminder, list: stored.list, parent: nil, sourceDigest: nil)
  }

  /// True when `parent` is `child` or one of its descendants.
  private func createsCycle(child: ReminderHandle?, parent: ReminderHandle) throws -> Bool {
    guard let child else { return false }
    var current: ReminderHandle? = parent
    var steps = 0
    while let handle = current {
      if handle == child { return true }
      steps += 1
      if steps > 100_000 { return true }
      current = try repository.parent(of: handle)
    }
    return false
  }

  /// What this merge wrote: every reminder whose handle is above `addedAfter` is new, and
  /// `updated` are the ones that existed before and that it changed.
  public var writtenReminders: (addedAfter: ReminderHandle, updated: [ReminderHandle]) {
    (lastBeforeMerge, changed.sorted.map(ReminderHandle.init))
  }

  private func wasWrittenByThisMerge(_ handle: ReminderHandle) -> Bool {
    handle > lastBeforeMerge || matched.contains(handle.ordinal)
  }

  /// Notes a pre-existing reminder in `set`; those this merge added are told by their handle.
  private func mark(_ handle: ReminderHandle, in set: inout RowBits) {
    guard handle <= lastBeforeMerge else { return }
    set.insert(handle.ordinal)
  }
}
