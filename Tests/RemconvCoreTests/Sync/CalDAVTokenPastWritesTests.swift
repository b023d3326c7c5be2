import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// The token a sync records past its own writes (`CollectionSync.recordTokenPastOwnWrites`),
/// against real servers: the next sync with nothing changed is the listing of collections
/// alone, and a change another client made between the writes and that token is never
/// skipped.
@Suite(.serialized) struct CalDAVTokenPastWritesTests {
  /// A server whose calendar `Work` holds one task another client wrote, and a store with a
  /// remote for it.
  private final class Setup {
    let server: DAVServer
    let directory = TemporaryDirectory()
    let store: Store
    let other: CalDAVEndpoint
    let work: RemoteCollection

    init(_ kind: DAVServer.Kind) throws {
      server = try DAVServer.start(kind)
      other = try CalDAVFixtures.endpoint(server.url)
      work = try other.createCollection(displayName: "Work", color: nil)
      store = try Store(path: directory.file("store.sqlite"))
      try write(.create(name: "a.ics", body: CalDAVFixtures.task("a@other", "Draft")))
      try store.write {
        try store.addRemote(
          RemoteConfiguration(name: "dav", url: server.url.absoluteString, user: DAVServer.user, password: nil))
      }
    }

    deinit { store.close() }

    func write(_ write: RemoteWrite) throws {
      let results = try other.apply([write], in: work)
      #expect(results.allSatisfy { if case .rejected = $0 { false } else { true } }, "\(results)")
    }

    /// A sync as `remconv sync` makes it: an endpoint started from what the store holds.
    func sync(race: (() -> Void)? = nil) throws -> (report: SyncReport, requests: Int) {
      let remote = try #require(try store.read { try store.remote(named: "dav") })
      let storedTokens = try store.read { try store.syncCollections(remote: remote.rowID).map(\.syncToken) }
      let endpoint = try CalDAVEndpoint(
        url: server.url, user: DAVServer.user, password: DAVServer.password, policy: .test,
        knownHome: remote.discoveredHome.flatMap { URL(string: $0) }, storedTokens: storedTokens)
      let racing = RacingEndpoint(endpoint, racing: .afterFirstWrite)
      racing.race = race
      var options = SyncEngine.Options()
      options.now = Date(timeIntervalSince1970: 1_796_000_000)
      options.timeZone = TimeZone(identifier: "UTC")!
      let report = try SyncEngine(
        store: store, remote: remote, endpoint: racing, options: options, diagnostics: DiagnosticLog()
      ).run()
      return (report, endpoint.requestsSent)
    }

    func edit(_ uid: String, title: String) throws {
      let stored = try #require(try store.reminder(uid: uid))
      var edited = stored.reminder
      edited.title = title
      try store.write {
        try store.updateReminder(rowID: stored.rowID, edited, listRowID: stored.listRowID, parentRowID: nil)
      }
    }
  }

  @Test(arguments: DAVServer.Kind.allCases) func aSyncThatWroteLeavesNothingForTheNextToAsk(_ kind: DAVServer.Kind)
    throws
  {
    let setup = try Setup(kind)
    #expect(try setup.sync().report.downloaded == 1)
    #expect(try setup.sync().requests == 1)

    // An edit, then a deletion: after each, the next sync is the listing alone.
    try setup.edit("a@other", title: "Final")
    let edited = try setup.sync()
    #expect(edited.report.uploaded == 1)
    var next = try setup.sync()
    #expect(next.report.transferredNothing && next.requests == 1, "\(next)")
    let stored = try #require(try setup.store.reminder(uid: "a@other"))
    try setup.store.write { try setup.store.deleteReminder(rowID: stored.rowID) }
    #expect(try setup.sync().report.deletedRemote == 1)
    next = try setup.sync()
    #expect(next.report.transferredNothing && next.requests == 1, "\(next)")
  }

  /// Another client's task arrives between the engine's write and its question: the token is not
  /// moved past it, and the next sync takes the task.
  @Test(arguments: DAVServer.Kind.allCases) func anotherClientsWriteAfterOursIsNotSkipped(_ kind: DAVServer.Kind)
    throws
  {
    let setup = try Setup(kind)
    _ = try setup.sync()
    try setup.edit("a@other", title: "Final")
    let raced = try setup.sync {
      do {
        try setup.write(.create(name: "b.ics", body: CalDAVFixtures.task("b@other", "Meanwhile")))
      } catch {
        Issue.record("the other client's write failed: \(error)")
      }
    }
    #expect(raced.report.uploaded == 1 && raced.report.downloaded == 0)
    let next = try setup.sync()
    #expect(next.report.downloaded == 1 && next.report.uploaded == 0)
    #expect(try setup.store.reminder(uid: "b@other")?.reminder.title == "Meanwhile")
    let quiet = try setup.sync()
    #expect(quiet.report.transferredNothing && quiet.requests == 1, "\(quiet)")
  }
}
