import RemconvCore

/// An endpoint through which another client writes once, around the engine's first write:
/// `.beforeFirstWrite`, so that write meets a changed remote (a 412, as when another client
/// saves meanwhile); `.afterFirstWrite`, so the change lands between the engine's writes and
/// the token it asks for next.
public final class RacingEndpoint<Inner: SyncEndpoint>: SyncEndpoint {
  public enum Moment: Sendable { case beforeFirstWrite, afterFirstWrite }

  public let inner: Inner
  public let moment: Moment
  /// The other client's write, run once.
  public var race: (() -> Void)?
  /// How many of the writes the remote refused because it had changed.
  public private(set) var preconditionFailures = 0

  public init(_ inner: Inner, racing moment: Moment) {
    self.inner = inner
    self.moment = moment
  }

  public var discoveredHome: String? { inner.discoveredHome }
  public func collections() throws(SyncError) -> [RemoteCollection] { try inner.collections() }
  public func createCollection(displayName: String, color: String?) throws(SyncError) -> RemoteCollection {
    try inner.createCollection(displayName: displayName, color: color)
  }
  public func updateCollection(_ collection: RemoteCollection, displayName: String?, color: String?)
    throws(SyncError) -> RemoteCollection
  {
    try inner.updateCollection(collection, displayName: displayName, color: color)
  }
  public func changes(in collection: RemoteCollection, since token: String?) throws(SyncError) -> RemoteChanges {
    try inner.changes(in: collection, since: token)
  }
  public func fetch(_ hrefs: [String], in collection: RemoteCollection) throws(SyncError) -> [RemoteItem] {
    try inner.fetch(hrefs, in: collection)
  }
  public func cannotReadBack(_ body: [UInt8]) -> String? { inner.cannotReadBack(body) }
  public func apply(_ writes: [RemoteWrite], in collection: RemoteCollection) throws(SyncError)
    -> [RemoteWriteResult]
  {
    if moment == .beforeFirstWrite { runRace() }
    let results = try inner.apply(writes, in: collection)
    if moment == .afterFirstWrite { runRace() }
    preconditionFailures += results.filter { if case .preconditionFailed = $0 { true } else { false } }.count
    return results
  }

  private func runRace() {
    race?()
    race = nil
  }
}
