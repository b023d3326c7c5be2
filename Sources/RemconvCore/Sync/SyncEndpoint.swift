/// One remote side of a sync: a vdir folder (`VdirEndpoint`) or a CalDAV account. The sync
/// engine knows nothing else of it: it lists the collections, reads what changed, fetches item
/// bodies and applies conditional writes. Items are iCalendar objects (one VCALENDAR per UID),
/// exchanged as the bytes the remote holds, so what remconv does not model travels untouched.
///
/// The API blocks: a sync is a sequence of steps, each of which must be confirmed by the remote
/// before the engine records it in the store (a sync killed between two steps reruns the
/// unconfirmed one). An endpoint may run a few requests at once inside `fetch` and `apply`.
public protocol SyncEndpoint: AnyObject {
  /// The collections that can hold reminders (those accepting VTODO), in a stable order.
  func collections() throws(SyncError) -> [RemoteCollection]

  /// Creates a collection for reminders named `displayName`, with `color` (`#RRGGBB`) when
  /// given, and returns it as `collections()` will list it.
  func createCollection(displayName: String, color: String?) throws(SyncError) -> RemoteCollection

  /// Sets the display name and the colour (`#RRGGBB`) of `collection` where given (nil leaves
  /// one as it is) and returns the collection as `collections()` will list it. Throws
  /// `SyncError.refused` when the remote will not change them: the engine reports it under
  /// `skipped` and the sync goes on.
  func updateCollection(_ collection: RemoteCollection, displayName: String?, color: String?) throws(SyncError)
    -> RemoteCollection

  /// Every item of `collection` (href and ETag, no bodies) when `token` is nil, or what changed
  /// since `token`, a token this endpoint issued in an earlier answer. Throws
  /// `SyncError.invalidSyncToken` when it no longer honours `token`: the engine then asks again
  /// without one.
  func changes(in collection: RemoteCollection, since token: String?) throws(SyncError) -> RemoteChanges

  /// The bodies of `hrefs`. An href gone in the meantime is left out of the answer (the engine
  /// sees it as deleted at the next listing); the order of the answer is not significant.
  func fetch(_ hrefs: [String], in collection: RemoteCollection) throws(SyncError) -> [RemoteItem]

  /// Applies `writes`, each conditional on what the engine last saw (see `RemoteWrite`), and
  /// returns one result per write, in the order of `writes`. A write the remote refuses is a
  /// result (`.preconditionFailed`, `.rejected`), never a throw: only a failure of the whole
  /// exchange (authentication, the remote unreachable, a malformed answer) throws, and then the
  /// engine records nothing of this call and reruns it at the next sync.
  func apply(_ writes: [RemoteWrite], in collection: RemoteCollection) throws(SyncError) -> [RemoteWriteResult]

  /// Where `collections()` found the collections (a CalDAV calendar home's URL), for the store
  /// to keep and the next sync's endpoint to start from; nil when finding them costs nothing.
  var discoveredHome: String? { get }

  /// Removes what a sync stopped by a signal left in a collection (a vdir's staged files);
  /// a sync that writes calls it before its writes, a dry run never.
  func removeLeftovers(in collection: RemoteCollection) throws(SyncError)

  /// Why an item of these bytes could not be read back from this remote (larger than what a
  /// fetch reads), or nil: such an item is never written.
  func cannotReadBack(_ body: [UInt8]) -> String?
}

extension SyncEndpoint {
  public var discoveredHome: String? { nil }

  public func removeLeftovers(in collection: RemoteCollection) throws(SyncError) {}
}

/// A collection of a remote: a vdir subfolder or a CalDAV calendar.
public struct RemoteCollection: Sendable, Hashable {
  /// What identifies the collection to its endpoint for good: the subfolder's name, the
  /// calendar's path. The store keeps it to find the pairing again.
  public var href: String
  /// The name shown to the user (`displayname`), when the remote has one.
  public var displayName: String?
  /// `#RRGGBB` when the remote has a colour for it (Apple's `#RRGGBBAA` normalised).
  public var color: String?

  public init(href: String, displayName: String?, color: String?) {
    self.href = href
    self.displayName = displayName
    self.color = color
  }
}

/// An item as a listing names it: where it is and which version it is at.
public struct RemoteItemVersion: Sendable, Hashable {
  /// The item's path inside its collection's namespace (a file name, a URL path).
  public var href: String
  /// The remote's version stamp: changes whenever the item's bytes change.
  public var etag: String

  public init(href: String, etag: String) {
    self.href = href
    self.etag = etag
  }
}

/// An item with its body: one VCALENDAR, as the remote holds it.
public struct RemoteItem: Sendable {
  public var href: String
  public var etag: String
  public var body: [UInt8]
  /// Why the item's bytes were not read (larger than an item may be): it is skipped and
  /// reported, and the rest syncs.
  public var unread: String?

  public init(href: String, etag: String, body: [UInt8], unread: String? = nil) {
    self.href = href
    self.etag = etag
    self.body = body
    self.unread = unread
  }
}

/// What a listing found: everything, or what changed since a token.
public enum RemoteChanges: Sendable {
  /// Every item of the collection; `token` (when the remote issues them) names this state for
  /// the next `changes(in:since:)`.
  case full(items: [RemoteItemVersion], token: String?)
  /// The items added or changed and the hrefs deleted since the token asked about.
  case delta(changed: [RemoteItemVersion], deleted: [String], token: String)
}

/// A conditional write. Nothing is ever written unconditionally: a remote that changed since the
/// engine looked answers `.preconditionFailed` and the engine fetches and merges.
public enum RemoteWrite: Sendable {
  /// A new item under `name` (a file name inside the collection, `<uid-derived>.ics`), written
  /// only if nothing is there yet (`If-None-Match: *`).
  case create(name: String, body: [UInt8])
  /// Replaces `href`, only if it is still at `etag` (`If-Match`).
  case update(href: String, etag: String, body: [UInt8])
  /// Deletes `href`, only if it is still at `etag` (`If-Match`).
  case delete(href: String, etag: String)
}

/// What became of one `RemoteWrite`.
public enum RemoteWriteResult: Sendable, Equatable {
  /// Created at `href`. `etag` is nil when the remote did not say (it may have rewritten the
  /// body): the engine then takes the ETag from its next listing.
  case created(href: String, etag: String?)
  /// Replaced; `etag` as for `.created`.
  case updated(href: String, etag: String?)
  /// Deleted, or already gone.
  case deleted(href: String)
  /// The remote changed since the engine looked (HTTP 412, or an item already at the name of a
  /// create): the engine fetches it and merges.
  case preconditionFailed(href: String)
  /// The remote refused this item (HTTP 400, 403, 409, 415: a UID it holds elsewhere, a body it
  /// will not take); `reason` says why, for the report. Nothing was written.
  case rejected(href: String, reason: String)
}

/// Why a sync with a remote failed as a whole. Each case is one exit status of `remconv sync`.
public enum SyncError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The remote refused the credentials (HTTP 401/403 on the first request; EX_NOPERM, 77).
  case authenticationRefused(String)
  /// The remote could not be reached, after bounded retries (EX_UNAVAILABLE, 69).
  case unreachable(String)
  /// The remote answered something that cannot be read: a malformed multistatus, an item
  /// that is not iCalendar, a truncated body (EX_DATAERR, 65).
  case malformedResponse(String)
  /// The remote refused a request the sync needs as a whole, such as creating a collection
  /// (EX_DATAERR, 65).
  case refused(String)
  /// The sync would delete more than half of one side's items of a collection (and more than
  /// a handful): refused, nothing written, unless `--allow-mass-delete` (EX_DATAERR, 65).
  case massDeletionRefused(String)
  /// The remote no longer honours the sync token it issued (RFC 6578 `valid-sync-token`): the
  /// engine lists the collection in full instead. Never reaches the user.
  case invalidSyncToken

  public var description: String {
    switch self {
    case .authenticationRefused(let message), .unreachable(let message), .malformedResponse(let message),
      .refused(let message), .massDeletionRefused(let message):
      message
    case .invalidSyncToken: "the remote no longer honours the sync token"
    }
  }
}
