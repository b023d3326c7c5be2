import Foundation

/// A remote as the store keeps it (migrations 0010 and 0011).
public struct StoredRemote: Sendable, Equatable {
  public let rowID: Int64
  public var configuration: RemoteConfiguration
  /// Where the last sync's discovery found the remote's collections (a CalDAV calendar home),
  /// so that the next sync starts there; nil before the first sync.
  public var discoveredHome: String?
}

/// One collection of a remote and the list it pairs with.
public struct SyncCollectionState: Sendable, Equatable {
  public let rowID: Int64
  public var href: String
  public var displayName: String?
  public var listUID: String
  public var syncToken: String?
}

/// A paired item: what both sides last agreed on. `base` (the item's bytes then) is read on
/// request (`syncItemBase`), since a sync compares digests and ETags first.
public struct SyncItemState: Sendable, Equatable {
  public var href: String
  public var etag: String?
  public var uid: String
  public var localDigest: [UInt8]

  public init(href: String, etag: String?, uid: String, localDigest: [UInt8]) {
    self.href = href
    self.etag = etag
    self.uid = uid
    self.localDigest = localDigest
  }
}

extension Store {
  // MARK: Remotes

  public func remotes() throws -> [StoredRemote] {
    try database.rows(
      """
      SELECT id, name, url, user_name, password_kind, password_reference, discovered_home
      FROM sync_remotes ORDER BY name
      """
    ).map(Self.decodeRemote)
  }

  public func remote(named name: String) throws -> StoredRemote? {
    try database.rows(
      """
      SELECT id, name, url, user_name, password_kind, password_reference, discovered_home
      FROM sync_remotes WHERE name = ?
      """,
      [.text(name)]
    ).first.map(Self.decodeRemote)
  }

  private static func decodeRemote(_ row: Row) -> StoredRemote {
    let password = row.string(4).flatMap { kind in PasswordSource(kind: kind, reference: row.string(5) ?? "") }
    return StoredRemote(
      rowID: row.int(0) ?? 0,
      configuration: RemoteConfiguration(
        name: row.string(1) ?? "", url: row.string(2) ?? "", user: row.string(3), password: password),
      discoveredHome: row.string(6))
  }

  /// Adds a remote; a name already taken is `RemconvError.conflict`.
  public func addRemote(_ remote: RemoteConfiguration) throws {
    if try self.remote(named: remote.name) != nil {
      throw RemconvError.conflict(
        "a remote named '\(remote.name)' exists already (remconv remote remove \(remote.name))")
    }
    try database.run(
      "INSERT INTO sync_remotes (name, url, user_name, password_kind, password_reference) VALUES (?, ?, ?, ?, ?)",
      [
        .text(remote.name), .text(remote.url), remote.user.map(SQLValue.text) ?? .null,
        remote.password.map { .text($0.kind) } ?? .null, remote.password.map { .text($0.reference) } ?? .null,
      ])
  }

  /// Removes a remote with its pairings and item states (the lists and reminders stay).
  public func removeRemote(rowID: Int64) throws {
    try database.run("DELETE FROM sync_remotes WHERE id = ?", [.integer(rowID)])
  }

  /// Records where discovery found the remote's collections (nil: discover again next time).
  public func setDiscoveredHome(_ home: String?, remote: Int64) throws {
    try database.run(
      "UPDATE sync_remotes SET discovered_home = ? WHERE id = ?", [home.map(SQLValue.text) ?? .null, .integer(remote)])
  }

  // MARK: Collections

  public func syncCollections(remote: Int64) throws -> [SyncCollectionState] {
    try database.rows(
      "SELECT id, href, display_name, list_uid, sync_token FROM sync_collections WHERE remote_id = ? ORDER BY id",
      [.integer(remote)]
    ).map { row in
      SyncCollectionState(
        rowID: row.int(0) ?? 0, href: row.string(1) ?? "", displayName: row.string(2), listUID: row.string(3) ?? "",
        syncToken: row.string(4))
    }
  }

  /// Records that the collection `href` of a remote pairs with the list `listUID`.
  public func addSyncCollection(remote: Int64, href: String, displayName: String?, listUID: String) throws -> Int64 {
    try database.run(
      "INSERT INTO sync_collections (remote_id, href, display_name, list_uid) VALUES (?, ?, ?, ?)",
      [.integer(remote), .text(href), displayName.map(SQLValue.text) ?? .null, .text(listUID)])
    return database.lastInsertRowID
  }

  /// Records the display name both sides now agree on for a pairing's collection.
  public func setSyncCollectionDisplayName(_ displayName: String?, collection: Int64) throws {
    try database.run(
      "UPDATE sync_collections SET display_name = ? WHERE id = ?",
      [displayName.map(SQLValue.text) ?? .null, .integer(collection)])
  }

  /// Forgets a pairing and the states of its items.
  public func removeSyncCollection(rowID: Int64) throws {
    try database.run("DELETE FROM sync_collections WHERE id = ?", [.integer(rowID)])
  }

  public func setSyncToken(_ token: String?, collection: Int64) throws {
    try database.run(
      "UPDATE sync_collections SET sync_token = ? WHERE id = ?",
      [token.map(SQLValue.text) ?? .null, .integer(collection)])
  }

  // MARK: Items

  public func syncItems(collection: Int64) throws -> [SyncItemState] {
    try database.rows(
      "SELECT href, etag, uid, local_digest FROM sync_items WHERE collection_id = ? ORDER BY href",
      [.integer(collection)]
    ).map { row in
      var digest: [UInt8] = []
      if case .blob(let bytes) = row.value(at: 3) { digest = bytes }
      return SyncItemState(
        href: row.string(0) ?? "", etag: row.string(1), uid: row.string(2) ?? "", localDigest: digest)
    }
  }

  /// The bytes both sides last agreed on for an item (the merge base).
  public func syncItemBase(collection: Int64, href: String) throws -> [UInt8]? {
    let value = try database.scalar(
      "SELECT base FROM sync_items WHERE collection_id = ? AND href = ?", [.integer(collection), .text(href)])
    if case .blob(let bytes) = value { return bytes }
    return nil
  }

  /// Records an agreed version of an item (replacing what was recorded at its href).
  public func putSyncItem(_ item: SyncItemState, base: [UInt8], collection: Int64) throws {
    let statement = try database.statement(
      """
      INSERT OR REPLACE INTO sync_items (collection_id, href, etag, uid, base, local_digest) VALUES (?, ?, ?, ?, ?, ?)
      """)
    try statement.execute(binding: [
      .integer(collection), .text(item.href), item.etag.map(SQLValue.text) ?? .null, .text(item.uid), .blob(base),
      .blob(item.localDigest),
    ])
  }

  /// Records a new ETag for an item whose content did not change.
  public func setSyncItemETag(_ etag: String?, href: String, collection: Int64) throws {
    try database.run(
      "UPDATE sync_items SET etag = ? WHERE collection_id = ? AND href = ?",
      [etag.map(SQLValue.text) ?? .null, .integer(collection), .text(href)])
  }

  /// Records a reminder's new local digest where the sync itself changed it (a subtask whose
  /// parent the remote deleted), so that the change is not taken for the user's.
  public func setSyncItemLocalDigest(_ digest: [UInt8], uid: String, collection: Int64) throws {
    try database.run(
      "UPDATE sync_items SET local_digest = ? WHERE collection_id = ? AND uid = ?",
      [.blob(digest), .integer(collection), .text(uid)])
  }

  public func deleteSyncItem(href: String, collection: Int64) throws {
    try database.run(
      "DELETE FROM sync_items WHERE collection_id = ? AND href = ?", [.integer(collection), .text(href)])
  }
}
