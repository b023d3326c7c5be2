import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// The calendar home an earlier sync discovered (`CalDAVEndpoint.discoveredHome`, kept in the
/// store): a sync lists it at once, one request in all, and a home that no longer answers as one
/// falls back to full discovery without the sync noticing. Requests are counted by the
/// fault-injecting proxy in front of the server.
@Suite(.serialized) struct CalDAVKnownHomeTests {
  /// A server with one calendar behind the proxy, and the home a first discovery found.
  private final class Setup {
    let server: DAVServer
    let proxy: FaultProxy
    let home: String
    let tasks: RemoteCollection

    init(_ kind: DAVServer.Kind) throws {
      server = try DAVServer.start(kind)
      proxy = try DAVServer.proxy(to: server.url, requiringCredentials: kind == .xandikos)
      let first = try CalDAVFixtures.endpoint(proxy.url)
      tasks = try first.createCollection(displayName: "Tasks", color: nil)
      _ = try first.collections()
      home = try #require(first.discoveredHome)
    }

    func endpoint(knownHome: String?) throws -> CalDAVEndpoint {
      try CalDAVEndpoint(
        url: proxy.url, user: DAVServer.user, password: DAVServer.password, policy: .test,
        knownHome: knownHome.flatMap { URL(string: $0) })
    }

    /// The requests the proxy saw from the `count`-th on, as `METHOD path`.
    func requests(from count: Int) -> [String] { proxy.requests().dropFirst(count).map { "\($0.method) \($0.path)" } }
  }

  /// The path of `url` as sent, its final slash kept (`URL.path` drops it).
  private static func path(_ url: String) throws -> String { try #require(URLComponents(string: url)).path }

  @Test(arguments: DAVServer.Kind.allCases) func aKnownHomeListsTheCollectionsInOneRequest(_ kind: DAVServer.Kind)
    throws
  {
    let setup = try Setup(kind)
    let homePath = try Self.path(setup.home)
    #expect(setup.home.hasPrefix(setup.proxy.url.absoluteString))
    // A calendar another client made since is in the home's listing.
    let other = try CalDAVFixtures.endpoint(setup.server.url).createCollection(displayName: "Later", color: nil)
    let discovered = try CalDAVFixtures.endpoint(setup.proxy.url).collections()
    #expect(Set(discovered.map(\.href)).isSuperset(of: [setup.tasks.href, other.href]))

    let before = setup.proxy.requests().count
    let endpoint = try setup.endpoint(knownHome: setup.home)
    let listed = try endpoint.collections()
    #expect(listed == discovered)
    #expect(setup.requests(from: before) == ["PROPFIND \(homePath)"])
    #expect(endpoint.requestsSent == 1)
    #expect(endpoint.discoveredHome == setup.home)

    // The listing's tokens are the collections' current ones: nothing changed, nothing asked.
    guard case .full(_, let token) = try endpoint.changes(in: setup.tasks, since: nil) else {
      throw Failure("no full listing")
    }
    let again = try setup.endpoint(knownHome: setup.home)
    _ = try again.collections()
    guard case .delta(let changed, let deleted, _) = try again.changes(in: setup.tasks, since: try #require(token))
    else { throw Failure("no delta") }
    #expect(changed.isEmpty && deleted.isEmpty)
    #expect(again.requestsSent == 1)
  }

  /// The listing asks for `getctag` (which Radicale computes in a pass over every item, as it
  /// does the sync token) only while the store does not hold a sync token for every collection:
  /// a server without sync tokens is still compared by its ctag. The listing is one request
  /// either way.
  @Test func theListingAsksForCTagsOnlyUntilEveryStoredTokenIsASyncToken() throws {
    let setup = try Setup(.radicale)
    let sync = "sync:http://radicale.org/ns/sync/0a"
    let cases: [(storedTokens: [String?], asksCTag: Bool)] = [
      ([], true), (["ctag:\"1\""], true), ([sync, nil], true), ([sync, "ctag:\"1\""], true), ([sync], false),
      ([sync, "sync:http://radicale.org/ns/sync/0b"], false),
    ]
    for (storedTokens, asksCTag) in cases {
      let before = setup.proxy.requests().count
      let endpoint = try CalDAVEndpoint(
        url: setup.proxy.url, user: DAVServer.user, password: DAVServer.password, policy: .test,
        knownHome: URL(string: setup.home), storedTokens: storedTokens)
      #expect(try endpoint.collections().map(\.href) == [setup.tasks.href])
      let sent = setup.proxy.requests().dropFirst(before)
      #expect(sent.count == 1, "\(storedTokens)")
      let body = try #require(sent.first).body
      #expect(body.contains("sync-token"), "\(storedTokens)")
      #expect(body.contains("getctag") == asksCTag, "\(storedTokens)")
    }
  }

  /// Each way a known home can fail: the next discovery runs in the same call, finds the real
  /// home, and the endpoint hands that on to be kept.
  @Test func aKnownHomeThatFailsFallsBackToDiscovery() throws {
    let setup = try Setup(.radicale)
    let homePath = try Self.path(setup.home)
    let calendar = try #require(URL(string: setup.tasks.href, relativeTo: setup.proxy.url)?.absoluteString)
    typealias Rule = FaultProxy.Rule
    let cases: [(name: String, knownHome: String, rules: [Rule])] = [
      ("gone (404)", setup.home, [Rule(method: "PROPFIND", path: homePath, times: 1, action: "status", status: 404)]),
      (
        "refused (401)", setup.home, [Rule(method: "PROPFIND", path: homePath, times: 1, action: "status", status: 401)]
      ),
      (
        "forbidden (403)", setup.home,
        [Rule(method: "PROPFIND", path: homePath, times: 1, action: "status", status: 403)]
      ),
      (
        "moved (301)", setup.home,
        [Rule(method: "PROPFIND", path: homePath, times: 1, action: "redirect", location: "/moved")]
      ),
      ("not a home (a calendar)", calendar, []),
      ("a path the server does not hold", setup.proxy.url.absoluteString + "nobody/", []),
      (
        "not a multistatus", setup.home,
        [Rule(method: "PROPFIND", path: homePath, times: 1, action: "status", status: 207, body: "<html>")]
      ),
    ]
    for (name, knownHome, rules) in cases {
      try setup.proxy.setRules(rules)
      let before = setup.proxy.requests().count
      let endpoint = try setup.endpoint(knownHome: knownHome)
      let listed = try endpoint.collections()
      #expect(listed.map(\.href) == [setup.tasks.href], "\(name)")
      #expect(endpoint.discoveredHome == setup.home, "\(name)")
      let sent = setup.requests(from: before)
      // The known home first, then discovery from the URL given, ending with the home's listing.
      #expect(sent.count > 2, "\(name): \(sent)")
      #expect(sent.first == "PROPFIND \(try Self.path(knownHome))", "\(name): \(sent)")
      #expect(sent.last == "PROPFIND \(homePath)", "\(name): \(sent)")
    }
  }

  /// A known home on another origin than the remote's URL is never asked (it would get the
  /// credentials); a server that cannot be reached fails as discovery would.
  @Test func aKnownHomeElsewhereIsIgnoredAndAnUnreachableServerFails() throws {
    let setup = try Setup(.radicale)
    let elsewhere = try DAVServer.proxy(to: setup.server.url)
    let endpoint = try setup.endpoint(knownHome: elsewhere.url.absoluteString + "alice/")
    #expect(try endpoint.collections().map(\.href) == [setup.tasks.href])
    #expect(elsewhere.requests().isEmpty)
    #expect(endpoint.discoveredHome == setup.home)

    setup.server.stop()
    let unreachable = try setup.endpoint(knownHome: setup.home)
    let error = syncError { try unreachable.collections() }
    guard case .unreachable = error else { throw Failure("\(String(describing: error))") }
  }
}
