import Foundation

/// Two-way sync of the store with one remote (docs/sync.md).
///
/// Each list pairs with one collection (the stored pairing, else the collection of the same
/// name, else a new one). For each pair the engine compares three things per item: the remote
/// (ETags from a listing, or what changed since the stored token), the store (a digest of each
/// reminder) and the state both last agreed on (`sync_items`: ETag, local digest, base bytes).
/// An item only one side changed is copied to the other; one both changed is merged field by
/// field, three ways against the agreed version. What the remote brought is written by the
/// import path (`StoreMerge`: the model boundary, the merge engine, the checks after writing);
/// an item nobody changed is neither fetched nor written.
///
/// Safety: the store records a remote write only after the remote confirmed it, and records
/// what it took from the remote in the same transaction as the item's new state; every step is
/// idempotent against the state, so a sync killed anywhere and run again converges. A dry run
/// takes the same path against an endpoint that only pretends to write, inside a store
/// transaction that is rolled back.
public final class SyncEngine {
  public struct Options: Sendable {
    public var dryRun = false
    public var now = Date()
    public var timeZone = TimeZone.current
    /// Whether a sync may delete more than half of one side's items of a collection
    /// (`--allow-mass-delete`); without it such a sync is refused before anything is written.
    public var allowsMassDeletion = false
    /// Test hook (debug builds): the process kills itself with SIGKILL once this many remote
    /// writes are confirmed, before the store records them.
    public var killAfterRemoteWrites: Int?

    public init() {}

    /// `REMCONV_TEST_SYNC_KILL_AFTER_WRITES` in `environment`; nil in a release build.
    public static func testKillPoint(in environment: [String: String]) -> Int? {
      #if DEBUG
        environment["REMCONV_TEST_SYNC_KILL_AFTER_WRITES"].flatMap { Int($0) }
      #else
        nil
      #endif
    }
  }

  /// Writes sent to the remote in one `apply`: a batch is recorded in one store transaction.
  static let writeBatchSize = 200
  /// Items fetched in one request.
  static let fetchBatchSize = 100

  private let store: Store
  private let remote: StoredRemote
  private let endpoint: any SyncEndpoint
  private let options: Options
  private let codec: ICSItemCodec
  private let diagnostics: DiagnosticLog
  private var report = SyncReport()
  private var remoteWrites = 0

  public init(
    store: Store, remote: StoredRemote, endpoint: any SyncEndpoint, options: Options, diagnostics: DiagnosticLog
  ) {
    self.store = store
    self.remote = remote
    self.endpoint = options.dryRun ? DryRunEndpoint(endpoint) : endpoint
    self.options = options
    self.diagnostics = diagnostics
    codec = ICSItemCodec(
      now: options.now, diagnostics: diagnostics, timeZone: options.timeZone, reportsFractions: false)
  }

  public func run() throws -> SyncReport {
    // A store that cannot be written is found before anything is written on the remote.
    if !options.dryRun { try store.write {} }
    if options.dryRun {
      try store.write(commit: false) { try syncAll() }
    } else {
      try syncAll()
    }
    if report.fractionsCut > 0 {
      // Once per sync, not per reminder: a store imported from an app that keeps milliseconds
      // would otherwise warn for every item of a first upload.
      let count = report.fractionsCut
      diagnostics.warning(
        "cannot-carry",
        "\(count) reminder\(count == 1 ? "" : "s") written to the remote \(count == 1 ? "has" : "have") times with "
          + "fractions of a second; iCalendar keeps whole seconds, so the remote holds them cut (the store keeps them)")
    }
    return report
  }

  /// Runs `body` in a store transaction; in a dry run the one around the whole sync.
  private func transaction<T>(_ body: () throws -> T) throws -> T {
    options.dryRun ? try body() : try store.write(body)
  }

  /// Plans every pair, records what came from the remote for all of them in one transaction
  /// (a flush to disk is the dearest thing a sync of a vdir does), then sends each pair's
  /// writes. A pair whose write met a changed remote (412) is read and merged again, a few
  /// times at most.
  private func syncAll() throws {
    let passes = try pairCollections().map(makePass)
    for pass in passes { try pass.plan() }
    if !options.allowsMassDeletion { try refuseMassDeletion(passes) }
    if passes.contains(where: \.hasSomethingToRecord) {
      try transaction { try record(passes) }
    }
    for pass in passes {
      if !options.dryRun { try endpoint.removeLeftovers(in: pass.pair.collection) }
      var last = pass
      var metChange = try send(pass)
      var again = 0
      while metChange, again < 3 {
        again += 1
        let retry = makePass(pass.pair)
        try retry.plan()
        if !options.allowsMassDeletion { try refuseMassDeletion([retry]) }
        if retry.hasSomethingToRecord { try transaction { try record([retry]) } }
        metChange = try send(retry)
        last = retry
      }
      // A retry's listing saw the writes of the passes before it: only the last one's are new.
      try last.recordTokenPastOwnWrites()
    }
  }

  /// Throws when the plan deletes more than half of one side's items (and more than a handful)
  /// of one list, or of the whole remote: twenty lists of five emptied are a hundred deletions.
  /// Nothing is written on either side before.
  private func refuseMassDeletion(_ passes: [CollectionSync]) throws(SyncError) {
    for pass in passes { try pass.refuseMassDeletion() }
    let paired = passes.reduce(0) { $0 + $1.pairedItemCount }
    let sides: [(count: (CollectionSync) -> Int, what: String)] = [
      (\.remoteDeletionCount, "on the remote (deleted in the store)"),
      (\.localDeletionCount, "in the store (gone from the remote)"),
    ]
    for side in sides {
      let total = passes.reduce(0) { $0 + side.count($1) }
      guard total > CollectionSync.massDeletionFloor, total * 2 > paired else { continue }
      let lists = passes.filter { side.count($0) > 0 }.map { "'\($0.listName)' \(side.count($0))" }
      throw .massDeletionRefused(
        "the sync would delete \(total) of the \(paired) items the store and the remote shared, \(side.what), "
          + "in \(lists.count) list\(lists.count == 1 ? "" : "s") (\(lists.joined(separator: ", "))); nothing was "
          + "changed. If that is what you want, run it again with --allow-mass-delete")
    }
  }

  /// Records what the remote brought to `passes` in the caller's transaction: merged into the
  /// store by one merge (parents that come in another item, or another collection, are found),
  /// then each item's state.
  private func record(_ passes: [CollectionSync]) throws {
    var agreements: [String: MergeEngine.Agreement] = [:]
    for pass in passes { agreements.merge(pass.agreements) { first, _ in first } }
    let merge = try StoreMerge(
      store: store, options: MergeEngine.Options(defaultList: ReminderList.recoveredName, agreements: agreements),
      diagnostics: diagnostics, report: ImportReport(source: remote.configuration.name, format: "ics"))
    for pass in passes { try pass.merge(into: merge) }
    _ = try merge.check(merge.finish())
    for pass in passes { try pass.recordStates() }
  }

  private func makePass(_ pair: Pair) -> CollectionSync {
    CollectionSync(
      store: store, endpoint: endpoint, codec: codec, pair: pair, remoteRowID: remote.rowID, dryRun: options.dryRun)
  }

  /// Sends a pass's writes; returns whether one met a changed remote.
  private func send(_ pass: CollectionSync) throws -> Bool {
    let batchSize = options.killAfterRemoteWrites == nil ? Self.writeBatchSize : 1
    let metChange = try pass.sendWrites(batchSize: batchSize) { [self] count in
      remoteWrites += count
      if let limit = options.killAfterRemoteWrites, remoteWrites >= limit { kill(getpid(), SIGKILL) }
    }
    report.add(pass.report)
    return metChange
  }

  // MARK: Pairing

  /// A list and the collection it syncs with.
  struct Pair {
    var collection: RemoteCollection
    var stateRowID: Int64
    var list: StoredList
  }

  /// Pairs every list with a collection and every collection with a list: stored pairings
  /// first, then by name, then by creating what is missing on either side.
  private func pairCollections() throws -> [Pair] {
    let remoteCollections = try endpoint.collections()
    // One transaction: a collection created on the remote and not yet recorded is found
    // again by its name at the next sync.
    return try transaction {
      if endpoint.discoveredHome != remote.discoveredHome {
        try store.setDiscoveredHome(endpoint.discoveredHome, remote: remote.rowID)
      }
      // Lists are written as an import writes them.
      let merge = try StoreMerge(
        store: store, options: MergeEngine.Options(defaultList: ReminderList.recoveredName), diagnostics: diagnostics,
        report: ImportReport(source: remote.configuration.name, format: "ics"))
      let pairs = try pair(remoteCollections, merge: merge)
      _ = try merge.check(merge.finish())
      return pairs
    }
  }

  private func pair(_ listed: [RemoteCollection], merge: StoreMerge) throws -> [Pair] {
    var remoteCollections = listed
    var pairs: [Pair] = []
    var pairedLists: Set<String> = []
    var pairedHrefs: Set<String> = []
    for state in try store.syncCollections(remote: remote.rowID) {
      guard let collection = remoteCollections.first(where: { $0.href == state.href }),
        let list = try store.list(uid: state.listUID)
      else {
        // The collection or the list is gone: the pairing (and its item states) is forgotten
        // and made again below, so nothing is deleted on the other side for it.
        try store.removeSyncCollection(rowID: state.rowID)
        continue
      }
      let (carried, carriedList) = try carryListChanges(state, collection, list, merge: merge)
      pairs.append(Pair(collection: carried, stateRowID: state.rowID, list: carriedList))
      pairedLists.insert(list.list.id)
      pairedHrefs.insert(collection.href)
    }
    for list in try store.lists() where !pairedLists.contains(list.list.id) {
      let key = ListName.key(for: list.list.name)
      var collection = remoteCollections.first { candidate in
        !pairedHrefs.contains(candidate.href) && ListName.key(for: candidate.displayName ?? candidate.href) == key
      }
      if collection == nil {
        let created = try endpoint.createCollection(displayName: list.list.name, color: list.list.color)
        remoteCollections.append(created)
        report.collectionsCreated.append(list.list.name)
        collection = created
      }
      guard let collection else { continue }
      let rowID = try store.addSyncCollection(
        remote: remote.rowID, href: collection.href, displayName: collection.displayName, listUID: list.list.id)
      pairs.append(Pair(collection: collection, stateRowID: rowID, list: list))
      pairedLists.insert(list.list.id)
      pairedHrefs.insert(collection.href)
    }
    for collection in remoteCollections where !pairedHrefs.contains(collection.href) {
      let name = collection.displayName ?? VdirNames.decoded(collection.href)
      guard try store.list(named: name) == nil else {
        // Two collections of one name: the list of that name pairs with the first.
        report.skipped.append(
          SyncSkippedItem(
            list: name, href: collection.href, reason: "another collection of this name is paired with the list"))
        continue
      }
      let added = try merge.merge(ReminderList(id: StableID.make(), name: name, color: collection.color))
      guard let stored = try store.list(uid: added.list.id) else {
        throw RemconvError.ioFailure("the list '\(name)' was not kept")
      }
      let rowID = try store.addSyncCollection(
        remote: remote.rowID, href: collection.href, displayName: collection.displayName, listUID: stored.list.id)
      report.listsCreated.append(name)
      pairs.append(Pair(collection: collection, stateRowID: rowID, list: stored))
      pairedHrefs.insert(collection.href)
    }
    return pairs
  }

  /// Carries a list's rename or recolour to its collection, and the collection's to the list
  /// (docs/sync.md, "Lists"). The name merges three-way against the one both sides last agreed
  /// on (`sync_collections.display_name`): the side that changed it wins, the remote when both
  /// did. The store keeps no agreed colour: a collection's colour, when it has one, is the
  /// list's; a collection without one takes the list's.
  private func carryListChanges(
    _ state: SyncCollectionState, _ collection: RemoteCollection, _ stored: StoredList, merge: StoreMerge
  ) throws -> (RemoteCollection, StoredList) {
    var list = stored.list
    let remoteName = ListName.normalized(collection.displayName ?? VdirNames.decoded(collection.href))
    let agreedName = ListName.normalized(state.displayName ?? VdirNames.decoded(collection.href))
    var nameUp: String?
    var namesAgree = true
    if remoteName != agreedName {
      if let other = try store.list(named: remoteName), other.rowID != stored.rowID {
        report.skipped.append(
          SyncSkippedItem(
            list: list.name, href: collection.href,
            reason: "the collection is now named '\(remoteName)', as another list is: this list keeps its name"))
        namesAgree = false
      } else {
        list.name = remoteName
      }
    } else if ListName.normalized(list.name) != agreedName {
      nameUp = list.name
    }
    let remoteColor = collection.color.flatMap(ListColor.normalized)
    let localColor = list.color.flatMap(ListColor.normalized)
    var colorUp: String?
    if remoteColor != localColor {
      if let remoteColor { list.color = remoteColor } else { colorUp = localColor }
    }
    var collection = collection
    if nameUp != nil || colorUp != nil {
      do {
        collection = try endpoint.updateCollection(collection, displayName: nameUp, color: colorUp)
        report.collectionsUpdated.append(list.name)
      } catch {
        guard case .refused(let reason) = error else { throw error }
        report.skipped.append(SyncSkippedItem(list: list.name, href: collection.href, reason: reason))
      }
    }
    var carried = stored
    if list != stored.list {
      carried.list = try merge.merge(list).list
      report.listsUpdated.append(list.name)
    }
    if namesAgree, collection.displayName != state.displayName, nameUp == nil || collection.displayName == nameUp {
      try store.setSyncCollectionDisplayName(collection.displayName, collection: state.rowID)
    }
    return (collection, carried)
  }

  // MARK: Digests

  /// What identifies a reminder as the store holds it: its UID, its parent's UID and every
  /// content column the field table declares (`Reminder.fields`); the list is the pairing's.
  static func digest(_ reminder: Reminder) -> [UInt8] {
    hash([reminder.id, reminder.parentID] + ReminderColumns(reminder).contentColumns.map(\.value))
  }

  /// The digest of remconv 0.x before the start, recurrence and alarms were columns: a store
  /// synced by it holds these in its item states until each item is next written.
  static func earlierDigest(_ reminder: Reminder) -> [UInt8] {
    let columns = ReminderColumns(reminder)
    return hash([
      reminder.id, reminder.parentID, columns.title, columns.notes, String(columns.isDone), columns.completedAt,
      String(columns.flagged), columns.due, columns.dueKind, columns.dueTimeZone, String(columns.priority),
      columns.tags, columns.url, columns.createdAt, columns.editedAt, columns.extra,
    ])
  }

  /// Whether `reminder` is as the two sides agreed on in a state an earlier remconv recorded:
  /// its earlier digest matches, and the fields that digest left out are the agreed version's.
  static func agreesUnderEarlierDigest(
    _ reminder: Reminder, _ state: SyncItemState, base: () throws -> Reminder?
  ) throws -> Bool {
    guard earlierDigest(reminder) == state.localDigest, let agreed = try base() else { return false }
    return reminder.startDate == agreed.startDate && reminder.recurrence == agreed.recurrence
      && reminder.alarms == agreed.alarms
  }

  /// Each field with a marker of presence and its length (8 bytes, little-endian), so no two
  /// rows hash alike; hashed as one message.
  private static func hash(_ fields: [String?]) -> [UInt8] {
    var message: [UInt8] = []
    message.reserveCapacity(512)
    for field in fields {
      guard let field else {
        message.append(0)
        continue
      }
      message.append(1)
      let length = UInt64(field.utf8.count)
      for shift in stride(from: 0, to: 64, by: 8) { message.append(UInt8(truncatingIfNeeded: length >> shift)) }
      message.append(contentsOf: field.utf8)
    }
    var hasher = SHA256()
    hasher.update(message)
    return Array(hasher.finalize().prefix(16))
  }
}

/// An endpoint that reads its remote and only pretends to write: `sync --dry-run`.
final class DryRunEndpoint: SyncEndpoint {
  private let remote: any SyncEndpoint
  private var created: Set<String> = []

  init(_ remote: any SyncEndpoint) { self.remote = remote }

  func collections() throws(SyncError) -> [RemoteCollection] { try remote.collections() }

  var discoveredHome: String? { remote.discoveredHome }

  func createCollection(displayName: String, color: String?) throws(SyncError) -> RemoteCollection {
    let href = ".dry-run-" + VdirNames.safe(displayName)
    created.insert(href)
    return RemoteCollection(href: href, displayName: displayName, color: color)
  }

  func updateCollection(_ collection: RemoteCollection, displayName: String?, color: String?) throws(SyncError)
    -> RemoteCollection
  {
    var updated = collection
    if let displayName { updated.displayName = displayName }
    if let color { updated.color = color }
    return updated
  }

  func changes(in collection: RemoteCollection, since token: String?) throws(SyncError) -> RemoteChanges {
    if created.contains(collection.href) { return .full(items: [], token: nil) }
    return try remote.changes(in: collection, since: token)
  }

  func fetch(_ hrefs: [String], in collection: RemoteCollection) throws(SyncError) -> [RemoteItem] {
    if created.contains(collection.href) { return [] }
    return try remote.fetch(hrefs, in: collection)
  }

  func cannotReadBack(_ body: [UInt8]) -> String? { remote.cannotReadBack(body) }

  func apply(_ writes: [RemoteWrite], in collection: RemoteCollection) throws(SyncError) -> [RemoteWriteResult] {
    writes.map { write in
      switch write {
      case .create(let name, _): .created(href: name, etag: nil)
      case .update(let href, _, _): .updated(href: href, etag: nil)
      case .delete(let href, _): .deleted(href: href)
      }
    }
  }
}
