import Foundation

/// One pass of the sync of a list with its collection (`SyncEngine`): reads both sides,
/// decides per item, records in the store what came from the remote, then sends the remote
/// writes and records each once confirmed.
final class CollectionSync {
  /// A remote write and what the store records once the remote confirms it.
  private struct PendingWrite {
    var write: RemoteWrite
    var confirm: (RemoteWriteResult) throws -> Void
  }

  /// A reminder the remote brought, for the merge engine (`StoreMerge`): as the remote holds it
  /// (a parent's `RELTYPE=CHILD` link applied), with its item (nil for a child that only a
  /// fetched parent's link changed: its own item is not rewritten for it) and what both sides
  /// last agreed on.
  private struct Download {
    var reminder: Reminder
    var item: RemoteItem?
    var agreement: MergeEngine.Agreement?
    /// The UID the store keeps it under: another than its own when another collection's item
    /// has its UID (the engine derives one; the item then goes up with it).
    var storedUID: String?
  }

  private let store: Store
  private let endpoint: any SyncEndpoint
  private let codec: ICSItemCodec
  let pair: SyncEngine.Pair
  private let collection: RemoteCollection
  private let collectionID: Int64
  private let list: ReminderList
  private let listRowID: Int64
  private let remoteRowID: Int64
  private let dryRun: Bool
  private(set) var report = SyncReport()

  /// Deleting more items of one side than this in one sync, and more than half of them, is
  /// refused without `--allow-mass-delete`: an emptied folder, a wiped account, a store
  /// replaced by an empty one look like that.
  static let massDeletionFloor = 5

  /// The items the list and its collection shared at the last sync.
  private(set) var pairedItemCount = 0
  /// Whether the remote confirmed a write of this pass (which moved the collection's token).
  private var wroteToRemote = false
  /// Items this pass deletes on the remote (deleted in the store).
  private(set) var remoteDeletionCount = 0
  private var storedToken: String?
  private var newToken: String?
  private var downloads: [Download] = []
  private var localDeletions: [(uid: String, href: String)] = []
  private var etagRefreshes: [(href: String, etag: String?)] = []
  private var droppedStates: [String] = []
  /// Items whose reminder the store holds as agreed under the digest an earlier remconv made
  /// (`SyncEngine.agreesUnderEarlierDigest`): their state takes today's digest.
  private var digestRefreshes: [(uid: String, digest: [UInt8])] = []
  private var writes: [PendingWrite] = []
  /// The `RELTYPE=CHILD` links the fetched items state.
  private let links = ChildLinks()
  /// Item names on the remote, and those this pass creates: a create never meets another item.
  private var takenNames: Set<String> = []

  init(
    store: Store, endpoint: any SyncEndpoint, codec: ICSItemCodec, pair: SyncEngine.Pair, remoteRowID: Int64,
    dryRun: Bool
  ) {
    self.store = store
    self.endpoint = endpoint
    self.codec = codec
    self.pair = pair
    collection = pair.collection
    collectionID = pair.stateRowID
    list = pair.list.list
    listRowID = pair.list.rowID
    self.remoteRowID = remoteRowID
    self.dryRun = dryRun
  }

  private func transaction<T>(_ body: () throws -> T) throws -> T {
    dryRun ? try body() : try store.write(body)
  }

  // MARK: Deciding

  func plan() throws {
    storedToken = try store.syncCollections(remote: remoteRowID).first { $0.rowID == collectionID }?.syncToken
    let states = try store.syncItems(collection: collectionID)
    pairedItemCount = states.count
    var stateByHref: [String: SyncItemState] = [:]
    for state in states { stateByHref[state.href] = state }
    let remoteETags = try listRemote(states: states)
    // A listing names items by href (a CalDAV path, percent-encoded), a create by file name.
    takenNames = Set(remoteETags.keys.map(Self.fileName(ofHref:)))
    let (local, localOrder) = try readLocal()

    // What is new or changed on the remote is fetched; nothing else is.
    let toFetch = remoteETags.keys.filter { href in
      guard let state = stateByHref[href] else { return true }
      return remoteETags[href] != .some(state.etag)
    }.sorted()
    var fetched: [String: RemoteItem] = [:]
    for start in stride(from: 0, to: toFetch.count, by: SyncEngine.fetchBatchSize) {
      let batch = Array(toFetch[start..<min(start + SyncEngine.fetchBatchSize, toFetch.count)])
      for item in try endpoint.fetch(batch, in: collection) { fetched[item.href] = item }
    }
    // Every fetched item is read before any is decided on: a parent may name its subtasks
    // (RELTYPE=CHILD, RFC 9253) while their own items name no parent, in any order.
    var decoded: [String: Reminder] = [:]
    for href in toFetch {
      if let item = fetched[href], let reminder = decode(item) { decoded[href] = reminder }
    }
    for (href, reminder) in decoded where reminder.parentID == nil {
      if let link = links.parent(of: reminder.id), link.parent != reminder.id { decoded[href]?.parentID = link.parent }
    }
    let fetchedUIDs = Set(decoded.values.map(\.id))

    var claimedUIDs: Set<String> = []
    for state in states {
      claimedUIDs.insert(state.uid)
      try decideKnown(
        state, remoteETag: remoteETags[state.href], local: local[state.uid], fetched: fetched, decoded: decoded)
    }
    for href in toFetch where stateByHref[href] == nil {
      guard let item = fetched[href], let remoteReminder = decoded[href] else { continue }
      guard claimedUIDs.insert(remoteReminder.id).inserted else {
        skip(href, "a second item with the UID \(remoteReminder.id) in this collection: left alone")
        continue
      }
      // The same reminder on both sides before any pairing (a first sync of what was imported
      // from this remote, or a create whose answer was lost) is merged without a base.
      let known = try local[remoteReminder.id] != nil || store.reminder(uid: remoteReminder.id) != nil
      downloads.append(
        Download(
          reminder: remoteReminder, item: item,
          agreement: known ? MergeEngine.Agreement(base: nil, storeChanged: true) : nil))
    }
    for uid in localOrder where !claimedUIDs.contains(uid) {
      if let reminder = local[uid] { try upload(reminder) }
    }
    // Reminders of this list that a fetched parent names as its children and that the store
    // holds without a parent take it; their items are not rewritten for it.
    for (child, parent) in links.parentsByChild.sorted(by: { $0.key < $1.key })
    where !fetchedUIDs.contains(child) && claimedUIDs.contains(child) {
      guard var linked = local[child], linked.parentID == nil else { continue }
      let agreed = linked
      linked.parentID = parent
      downloads.append(
        Download(reminder: linked, item: nil, agreement: MergeEngine.Agreement(base: agreed, storeChanged: false)))
    }
  }

  /// The remote's items and ETags now: a full listing, or the stored state moved on by what
  /// changed since the stored token.
  private func listRemote(states: [SyncItemState]) throws -> [String: String?] {
    var changes: RemoteChanges
    do {
      changes = try endpoint.changes(in: collection, since: storedToken)
    } catch SyncError.invalidSyncToken {
      changes = try endpoint.changes(in: collection, since: nil)
    }
    var etags: [String: String?] = [:]
    switch changes {
    case .full(let items, let token):
      for item in items { etags[item.href] = .some(item.etag) }
      newToken = token
    case .delta(let changed, let deleted, let token):
      for state in states { etags[state.href] = .some(state.etag) }
      for href in deleted { etags[href] = nil }
      for item in changed { etags[item.href] = .some(item.etag) }
      newToken = token
    }
    return etags
  }

  private func readLocal() throws -> (reminders: [String: Reminder], order: [String]) {
    var reminders: [String: Reminder] = [:]
    var order: [String] = []
    try store.read {
      try store.forEachReminder(inListRow: listRowID) { reminder, _ in
        if reminders[reminder.id] == nil { order.append(reminder.id) }
        reminders[reminder.id] = reminder
      }
    }
    return (reminders, order)
  }

  /// Decides for an item both sides agreed on at the last sync.
  private func decideKnown(
    _ state: SyncItemState, remoteETag: String??, local: Reminder?, fetched: [String: RemoteItem],
    decoded: [String: Reminder]
  ) throws {
    let localChanged = try local.map { reminder in
      let digest = SyncEngine.digest(reminder)
      guard digest != state.localDigest else { return false }
      guard try SyncEngine.agreesUnderEarlierDigest(reminder, state, base: { try base(of: state.href) }) else {
        return true
      }
      digestRefreshes.append((reminder.id, digest))
      return false
    }
    guard let remoteETag else {
      // Gone from the remote.
      switch (local, localChanged) {
      case (let local?, true?):
        conflict(.editedLocallyDeletedRemotely, local)
        droppedStates.append(state.href)
        try upload(local)
      case (_?, _): localDeletions.append((state.uid, state.href))
      case (nil, _): droppedStates.append(state.href)
      }
      return
    }
    if remoteETag == state.etag {
      switch (local, localChanged) {
      case (nil, _):
        // Deleted in the store: deleted on the remote, if it is still as agreed.
        guard let etag = state.etag else { return }
        remoteDeletionCount += 1
        writes.append(
          PendingWrite(write: .delete(href: state.href, etag: etag)) { [self] result in
            guard case .deleted = result else { return }
            try store.deleteSyncItem(href: state.href, collection: collectionID)
            report.deletedRemote += 1
          })
      case (let local?, true?): try upload(local, replacing: state.href, ifMatch: etag(state.etag))
      default: break
      }
      return
    }
    // Changed on the remote.
    guard let item = fetched[state.href], var remoteReminder = decoded[state.href] else { return }
    guard let local else {
      // Deleted here, edited there: the edit wins, nothing is lost.
      conflict(.deletedLocallyEditedRemotely, remoteReminder)
      downloads.append(Download(reminder: remoteReminder, item: item, agreement: nil))
      return
    }
    let agreed = try base(of: state.href)
    if remoteReminder.parentID == nil, let parent = local.parentID, agreed?.parentID == nil {
      // The item never named the parent (a parent's RELTYPE=CHILD link gave it): kept.
      remoteReminder.parentID = parent
    }
    if localChanged == false, SyncEngine.digest(remoteReminder) == state.localDigest {
      // A new ETag for the same content (a server that rewrote our write): nothing changes.
      etagRefreshes.append((state.href, item.etag))
      return
    }
    // Changed on the remote only, or on both sides: merged three ways against the agreed version.
    downloads.append(
      Download(
        reminder: remoteReminder, item: item,
        agreement: MergeEngine.Agreement(base: agreed, storeChanged: localChanged == true)))
  }

  /// The reminder both sides last agreed on for `href`, read from the state's bytes.
  private func base(of href: String) throws -> Reminder? {
    try store.syncItemBase(collection: collectionID, href: href).flatMap { bytes -> Reminder? in
      guard case .reminder(let reminder) = try codec.decode(bytes, name: itemName(href), in: list) else {
        return nil
      }
      return reminder
    }
  }

  private func conflict(_ kind: SyncConflict.Kind, _ reminder: Reminder) {
    report.conflicts.append(
      SyncConflict(kind: kind, uid: reminder.id, title: reminder.title, list: list.name, fields: [], copyUID: nil))
  }

  private func skip(_ href: String, _ reason: String) {
    report.skipped.append(SyncSkippedItem(list: list.name, href: href, reason: reason))
  }

  private func itemName(_ href: String) -> String { collection.href + "/" + href }

  /// The file name an href ends in, decoded: what a create of that name would be answered with.
  static func fileName(ofHref href: String) -> String {
    let last = href.split(separator: "/").last.map(String.init) ?? href
    return last.removingPercentEncoding ?? last
  }

  /// An ETag the state may lack (a write's answer without one): "" matches nothing.
  private func etag(_ etag: String?) -> String { etag ?? "" }

  private func decode(_ item: RemoteItem) -> Reminder? {
    if let reason = item.unread {
      skip(item.href, "not read: \(reason)")
      return nil
    }
    do {
      switch try codec.decode(item.body, name: itemName(item.href), in: list, links: links) {
      case .reminder(var reminder):
        reminder.listID = list.id
        return reminder
      case .unreadable(let reason):
        skip(item.href, reason)
      }
    } catch {
      skip(item.href, error.description)
    }
    return nil
  }

  /// Queues the upload of `reminder`: a replacement of `href` at `ifMatch`, else a new item.
  /// Once confirmed, the item's state is recorded and `then` runs, in the same transaction.
  private func upload(
    _ reminder: Reminder, replacing href: String? = nil, ifMatch etag: String? = nil,
    then: @escaping () throws -> Void = {}
  ) throws {
    let body = try codec.encode(reminder)
    if let reason = endpoint.cannotReadBack(body) {
      // What could not be fetched again would stop every later sync of the collection.
      skip(href ?? VdirNames.item(reminder.id) + ".ics", "\(reminder.id) is not written: its item would be \(reason)")
      return
    }
    let write: RemoteWrite
    if let href, let etag {
      write = .update(href: href, etag: etag, body: body)
    } else {
      let stem = VdirNames.item(reminder.id)
      var name = stem + ".ics"
      var suffix = 2
      while takenNames.contains(name) {
        name = stem + "-\(suffix).ics"
        suffix += 1
      }
      takenNames.insert(name)
      write = .create(name: name, body: body)
    }
    let digest = SyncEngine.digest(reminder)
    let cutsFractions = try cutsNewFractions(reminder, replacing: href)
    writes.append(
      PendingWrite(write: write) { [self] result in
        switch result {
        case .created(let written, let etag), .updated(let written, let etag):
          if let href, href != written { try store.deleteSyncItem(href: href, collection: collectionID) }
          try store.putSyncItem(
            SyncItemState(href: written, etag: etag, uid: reminder.id, localDigest: digest), base: body,
            collection: collectionID)
          report.uploaded += 1
          if cutsFractions { report.fractionsCut += 1 }
          try then()
        case .deleted, .preconditionFailed, .rejected: break
        }
      })
  }

  /// Whether writing `reminder` cuts a fraction of a second the remote has not seen cut
  /// before: an instant with a fraction whose whole second the base (the item as both sides
  /// last agreed on it) does not already hold. What round-tripped once is not counted again.
  private func cutsNewFractions(_ reminder: Reminder, replacing href: String?) throws -> Bool {
    let instants = VTodoEncoder.fractionalInstants(of: reminder)
    guard !instants.isEmpty else { return false }
    guard let href, let base = try base(of: href) else { return true }
    let agreed = ["createdAt": base.createdAt, "editedAt": base.editedAt, "completedAt": base.completedAt]
    return instants.contains { agreed[$0.name] != .some($0.written) }
  }

  /// Reminders this pass deletes in the store (gone from the remote).
  var localDeletionCount: Int { localDeletions.count }

  var listName: String { list.name }

  /// Throws when the plan deletes more than half of the items of one side (and more than a
  /// handful), before anything of it is written on either side.
  func refuseMassDeletion() throws(SyncError) {
    let sides = [
      (remoteDeletionCount, "items of the collection '\(collection.href)' on the remote (deleted in the store)"),
      (localDeletions.count, "reminders of the list '\(list.name)' in the store (gone from the remote)"),
    ]
    for (count, what) in sides where count > Self.massDeletionFloor && count * 2 > pairedItemCount {
      throw .massDeletionRefused(
        "the sync would delete \(count) of the \(pairedItemCount) \(what); nothing was changed. "
          + "If that is what you want, run it again with --allow-mass-delete")
    }
  }

  // MARK: Writing

  /// Whether the remote brought anything the store must record.
  var hasSomethingToRecord: Bool {
    !(downloads.isEmpty && localDeletions.isEmpty && etagRefreshes.isEmpty && droppedStates.isEmpty
      && digestRefreshes.isEmpty && newToken == storedToken)
  }

  /// The agreed versions of the reminders this pass downloads, by UID: what the merge engine
  /// merges them against.
  var agreements: [String: MergeEngine.Agreement] {
    var agreements: [String: MergeEngine.Agreement] = [:]
    for download in downloads { agreements[download.reminder.id] = download.agreement }
    return agreements
  }

  /// Hands what came from the remote to the merge (`StoreMerge`), inside the caller's
  /// transaction: the reminders the remote deleted are removed, the ones it added or changed
  /// merged, through the model boundary as an import's records are.
  func merge(into merge: StoreMerge) throws {
    try removeLocalDeletions(merge)
    let read = downloads.map { SourceRecord.reminder($0.reminder, SourceLocation(file: itemName($0.item?.href ?? ""))) }
    let records = Importer.records(
      from: SourceRecordList(read), source: .directory(collection.href), diagnostics: merge.diagnostics)
    var index = 0
    while let record = try records.next() {
      let before = merge.report
      downloads[index].storedUID = try merge.consume(record)
      let after = merge.report
      for conflict in after.conflicts.dropFirst(before.conflicts.count) {
        report.conflicts.append(
          SyncConflict(
            kind: .editedOnBothSides, uid: conflict.uid, title: conflict.title, list: list.name,
            fields: conflict.fields, copyUID: conflict.copyUID))
      }
      let copies = after.conflicts.count - before.conflicts.count
      if after.added + after.updated - copies > before.added + before.updated, downloads[index].item != nil {
        report.downloaded += 1
      }
      index += 1
    }
  }

  /// Records the state of every item the merge took from the remote, once the merge is finished
  /// (a parent that came later is attached), and queues for the remote what the store holds
  /// beyond it: a merge of changes from both sides, a conflict copy.
  func recordStates() throws {
    for download in downloads {
      guard let stored = try store.reminder(uid: download.storedUID ?? download.reminder.id)?.reminder else {
        continue
      }
      let digest = SyncEngine.digest(stored)
      guard let item = download.item else {
        // A child linked by its parent's item: its own item stays as it is.
        try store.setSyncItemLocalDigest(digest, uid: stored.id, collection: collectionID)
        continue
      }
      let remoteDigest = SyncEngine.digest(download.reminder)
      guard digest != remoteDigest, try SyncEngine.digest(asTheRemoteReads(stored)) != remoteDigest else {
        try store.putSyncItem(
          SyncItemState(href: item.href, etag: item.etag, uid: stored.id, localDigest: digest), base: item.body,
          collection: collectionID)
        continue
      }
      // The store holds more than the remote (the other side's changes): the item's state is
      // the remote's, so a sync killed before the upload finds the store changed, and uploads.
      try store.putSyncItem(
        SyncItemState(href: item.href, etag: item.etag, uid: stored.id, localDigest: remoteDigest), base: item.body,
        collection: collectionID)
      try upload(stored, replacing: item.href, ifMatch: etag(item.etag))
    }
    for (uid, digest) in digestRefreshes {
      try store.setSyncItemLocalDigest(digest, uid: uid, collection: collectionID)
    }
    for (href, etag) in etagRefreshes { try store.setSyncItemETag(etag, href: href, collection: collectionID) }
    for href in droppedStates { try store.deleteSyncItem(href: href, collection: collectionID) }
    for conflict in report.conflicts where conflict.kind == .editedOnBothSides {
      if let uid = conflict.copyUID, let copy = try store.reminder(uid: uid)?.reminder { try upload(copy) }
    }
    if newToken != storedToken { try store.setSyncToken(newToken, collection: collectionID) }
  }

  /// `reminder` as the remote would read it back once written: what it can carry of it.
  private func asTheRemoteReads(_ reminder: Reminder) throws -> Reminder {
    guard case .reminder(var read) = try codec.decode(codec.encode(reminder), name: itemName(""), in: list) else {
      return reminder
    }
    read.listID = list.id
    return read
  }

  /// Sends the queued writes in batches, recording each batch in one transaction once the
  /// remote answered; `sent` is told how many went. Returns whether one met a changed remote.
  func sendWrites(batchSize: Int, sent: (Int) -> Void) throws -> Bool {
    var metChange = false
    var start = 0
    // A confirmation may queue another write (a conflict copy): the queue is read as it grows.
    while start < writes.count {
      let batch = Array(writes[start..<min(start + batchSize, writes.count)])
      start += batch.count
      let results = try endpoint.apply(batch.map(\.write), in: collection)
      guard results.count == batch.count else {
        throw SyncError.malformedResponse("\(collection.href): \(results.count) answers to \(batch.count) writes")
      }
      sent(batch.count)
      try transaction {
        for (pending, result) in zip(batch, results) {
          switch result {
          case .preconditionFailed: metChange = true
          case .rejected(let href, let reason): skip(href, reason)
          case .created, .updated, .deleted: wroteToRemote = true
          }
          try pending.confirm(result)
        }
      }
    }
    return metChange
  }

  /// Moves the stored token past this pass's own writes, so that the next sync with nothing
  /// changed finds it in the listing of collections and asks nothing more: what changed since
  /// the stored token is asked once, and the token that answer gives is recorded when it names
  /// nothing but the writes (each href at the ETag the store recorded for it, each deleted href
  /// one the store no longer pairs). Anything else (another client's change since, a write
  /// whose answer gave no ETag) leaves the stored token, and the next sync reads it as a change.
  func recordTokenPastOwnWrites() throws {
    guard wroteToRemote, !dryRun,
      let token = try store.syncCollections(remote: remoteRowID).first(where: { $0.rowID == collectionID })?.syncToken
    else { return }
    let changes: RemoteChanges
    do {
      changes = try endpoint.changes(in: collection, since: token)
    } catch {
      // Only a saving: the writes are recorded, and the next sync asks the same question.
      return
    }
    guard case .delta(let changed, let deleted, let next) = changes, next != token else { return }
    var recorded: [String: String] = [:]
    for state in try store.syncItems(collection: collectionID) { recorded[state.href] = state.etag ?? "" }
    guard changed.allSatisfy({ recorded[$0.href] == $0.etag }), deleted.allSatisfy({ recorded[$0] == nil })
    else { return }
    try store.write { try store.setSyncToken(next, collection: collectionID) }
  }

  /// Removes reminders the remote deleted; a subtask the remote kept stays, at the top, and
  /// its item is not rewritten for it (the remote's RELATED-TO names a parent it deleted).
  /// Only a reminder as this pass read it: one another collection's pass moved into its own
  /// list meanwhile (an item moved between collections on the remote) stays.
  private func removeLocalDeletions(_ merge: StoreMerge) throws {
    let deleted = Set(localDeletions.map(\.uid))
    for (uid, href) in localDeletions {
      if let detached = try merge.remove(uid: uid, from: ListHandle(listRowID), with: deleted) {
        for child in detached {
          if let reminder = try store.reminder(uid: child)?.reminder {
            try store.setSyncItemLocalDigest(SyncEngine.digest(reminder), uid: child, collection: collectionID)
          }
        }
        report.deletedLocal += 1
      }
      try store.deleteSyncItem(href: href, collection: collectionID)
    }
  }
}
