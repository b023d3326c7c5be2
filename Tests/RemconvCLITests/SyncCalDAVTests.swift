import Foundation
import RemconvCLI
import RemconvCore
import RemconvTestSupport
import Testing

/// `remconv sync` with real CalDAV servers (Debian's Radicale and Xandikos) started on
/// 127.0.0.1, reached through the fault-injecting proxy, which counts the requests and stops
/// answering when a test says so. The other side's edits are made by another client (a
/// `CalDAVEndpoint` of the test's own).
@Suite(.serialized) struct SyncCalDAVTests {
  final class Setup {
    let server: DAVServer
    let proxy: FaultProxy
    /// The store side, driven as the vdir tests drive it (their remote `v` is never synced here).
    let local = SyncVdirTests.Setup()
    var bench: TestBench { local.bench }
    /// Another client of the same account.
    let other: CalDAVEndpoint

    init(_ kind: DAVServer.Kind) throws {
      server = try DAVServer.start(kind)
      proxy = try DAVServer.proxy(to: server.url, requiringCredentials: kind == .xandikos)
      local.bench.environment["DAV_PW"] = DAVServer.password
      other = try CalDAVEndpoint(url: server.url, user: DAVServer.user, password: DAVServer.password)
      let added = bench.run([
        "remote", "add", "dav", proxy.url.absoluteString, "--user", DAVServer.user, "--password-env", "DAV_PW",
      ])
      #expect(added.status == .ok, "\(added.errors)")
    }

    func sync(_ more: [String] = [], sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> JSONValue {
      let result = bench.run(["sync", "dav", "--report", "json"] + more)
      #expect(result.status == .ok, "\(result.errors)", sourceLocation: sourceLocation)
      return try JSONParser.parse(result.output)
    }

    func collection(_ name: String) throws -> RemoteCollection {
      if let found = try other.collections().first(where: { $0.displayName == name }) { return found }
      return try other.createCollection(displayName: name, color: nil)
    }

    /// Each item of the list `name` on the server, by SUMMARY.
    func remoteItems(_ name: String) throws -> [String: RemoteItem] {
      guard let collection = try other.collections().first(where: { $0.displayName == name }) else { return [:] }
      guard case .full(let versions, _) = try other.changes(in: collection, since: nil) else { return [:] }
      var items: [String: RemoteItem] = [:]
      for item in try other.fetch(versions.map(\.href), in: collection) {
        items[Self.summary(item.body) ?? ""] = item
      }
      #expect(items.count == versions.count, "two items of \(name) share a title")
      return items
    }

    func remoteTitles(_ name: String) throws -> [String] { try remoteItems(name).keys.sorted() }

    /// The requests the proxy saw from the `count`-th on, as `METHOD path`.
    func requests(from count: Int) -> [String] { proxy.requests().dropFirst(count).map { "\($0.method) \($0.path)" } }

    static func summary(_ body: [UInt8]) -> String? {
      String(decoding: body, as: UTF8.self).split(whereSeparator: \.isNewline).first { $0.hasPrefix("SUMMARY:") }
        .map { String($0.dropFirst("SUMMARY:".count)) }
    }

    func writeRemote(_ list: String, _ name: String, uid: String, summary: String, extra: [String] = []) throws {
      let collection = try collection(list)
      let body = Array(
        ([
          "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Other client//EN", "BEGIN:VTODO", "UID:\(uid)",
          "DTSTAMP:20261101T080000Z", "SUMMARY:\(summary)", "X-OTHER-CLIENT-COLOR;X-P=1:teal",
        ] + extra + ["END:VTODO", "END:VCALENDAR", ""]).joined(separator: "\r\n").utf8)
      let existing = try remoteItems(list).values.first {
        String(decoding: $0.body, as: UTF8.self).contains("UID:\(uid)")
      }
      let write: RemoteWrite =
        existing.map { .update(href: $0.href, etag: $0.etag, body: body) } ?? .create(name: name, body: body)
      let result = try other.apply([write], in: collection)
      switch result.first {
      case .created, .updated: break
      default: Issue.record("the other client's write failed: \(result)")
      }
    }

    func deleteRemote(_ list: String, titled title: String) throws {
      let item = try #require(try remoteItems(list)[title])
      #expect(try other.apply([.delete(href: item.href, etag: item.etag)], in: try collection(list)).count == 1)
    }

    @discardableResult
    func add(_ title: String, list: String, _ more: [String] = []) -> String { local.add(title, list: list, more) }
    func reminders() throws -> [JSONValue] { try local.reminders() }
    func titles(in list: String) throws -> [String] { try local.titles(in: list) }

    func id(of title: String) throws -> String {
      try #require(try reminders().first { $0["title"]?.stringValue == title }?["id"]?.stringValue)
    }

    /// Both sides hold the same titles in each of `lists`, and no UID twice.
    func expectConverged(_ lists: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
      for list in lists {
        #expect(try remoteTitles(list) == (try titles(in: list)), "\(list)", sourceLocation: sourceLocation)
      }
      let uids = try reminders().compactMap { $0["id"]?.stringValue }
      #expect(Set(uids).count == uids.count, sourceLocation: sourceLocation)
    }

    /// Both sides have something the other lacks.
    func populate() throws {
      let milk = add("Buy milk", list: "Groceries")
      add("Skimmed", list: "Groceries", ["--parent", milk])
      add("Call mum", list: "Home", ["--due", "2026-12-24"])
      try writeRemote("Groceries", "bread.ics", uid: "bread@other", summary: "Bread")
      try writeRemote("Work", "report.ics", uid: "report@other", summary: "Write report")
      try writeRemote("Work", "slides.ics", uid: "slides@other", summary: "Slides", extra: ["RELATED-TO:report@other"])
    }
  }

  static func counts(_ report: JSONValue) -> [String: String] { SyncVdirTests.counts(report) }

  static func expected(
    uploaded: Int = 0, downloaded: Int = 0, deletedRemote: Int = 0, deletedLocal: Int = 0, conflicts: Int = 0
  ) -> [String: String] {
    SyncVdirTests.expected(
      uploaded: uploaded, downloaded: downloaded, deletedRemote: deletedRemote, deletedLocal: deletedLocal,
      conflicts: conflicts)
  }

  /// The issue's scenarios in one run per server: a first sync both ways, a repeat that
  /// transfers nothing and costs at most one request per collection after discovery, edits,
  /// additions and deletions on each side, a conflict.
  @Test(arguments: DAVServer.Kind.allCases) func aFullCycle(_ kind: DAVServer.Kind) throws {
    let setup = try Setup(kind)
    try setup.populate()
    #expect(Self.counts(try setup.sync()) == Self.expected(uploaded: 3, downloaded: 3))
    try setup.expectConverged(["Groceries", "Home", "Work"])
    #expect(
      try setup.reminders().first { $0["title"]?.stringValue == "Slides" }?["parentId"]?.stringValue == "report@other")
    let skimmed = try #require(try setup.remoteItems("Groceries")["Skimmed"])
    #expect(
      String(decoding: skimmed.body, as: UTF8.self).contains(
        "RELATED-TO;RELTYPE=PARENT:\(try setup.id(of: "Buy milk"))"))

    // A repeat: nothing moves, and after discovery (PROPFIND) one request per collection at most.
    _ = try setup.sync()
    let before = setup.proxy.requests().count
    #expect(Self.counts(try setup.sync()) == Self.expected())
    let repeated = setup.proxy.requests().dropFirst(before)
    let collections = try setup.other.collections().count
    #expect(repeated.filter { $0.method != "PROPFIND" }.count <= collections, "\(repeated.map(\.method))")
    #expect(repeated.allSatisfy { $0.method == "PROPFIND" || $0.method == "REPORT" })

    // Edits, additions and deletions on each side.
    #expect(setup.bench.run(["edit", try setup.id(of: "Buy milk"), "--title", "Buy oat milk"]).status == .ok)
    #expect(setup.bench.run(["delete", try setup.id(of: "Call mum")]).status == .ok)
    setup.add("Plan trip", list: "Home")
    try setup.writeRemote("Groceries", "bread.ics", uid: "bread@other", summary: "Bread (rye)")
    try setup.deleteRemote("Work", titled: "Slides")
    try setup.writeRemote("Work", "mail.ics", uid: "mail@other", summary: "Answer mail")
    #expect(
      Self.counts(try setup.sync()) == Self.expected(uploaded: 2, downloaded: 2, deletedRemote: 1, deletedLocal: 1))
    try setup.expectConverged(["Groceries", "Home", "Work"])
    #expect(try setup.titles(in: "Home") == ["Plan trip"])
    #expect(try setup.titles(in: "Work") == ["Answer mail", "Write report"])

    // The same field changed on both sides: the remote's value stays, the local one is a copy.
    #expect(setup.bench.run(["edit", try setup.id(of: "Bread (rye)"), "--title", "Bread (white)"]).status == .ok)
    try setup.writeRemote("Groceries", "bread.ics", uid: "bread@other", summary: "Bread (spelt)")
    let conflicted = try setup.sync()
    #expect(Self.counts(conflicted)["conflicts"] == "1")
    try setup.expectConverged(["Groceries", "Home", "Work"])
    #expect(
      try setup.titles(in: "Groceries") == [
        "Bread (spelt)", "Bread (white) (conflict copy)", "Buy oat milk", "Skimmed",
      ])
    // What remconv does not model stayed in the item another client wrote.
    #expect(
      String(decoding: try #require(try setup.remoteItems("Work")["Write report"]).body, as: UTF8.self).contains(
        "X-OTHER-CLIENT-COLOR"))
    #expect(Self.counts(try setup.sync()) == Self.expected())
  }

  /// After the first sync, discovery is not repeated, and the token each collection's own writes
  /// moved is the stored one: a sync with nothing to do is the listing of the calendar home the
  /// store kept, one request, asking for sync tokens alone once every stored token is one (the
  /// first sync's listing also asks `getctag`). A sync that writes asks once more after its writes
  /// (what changed since: only those), and one request more is made for each collection whose
  /// token another client moved. A kept home that fails is discovered again within the same sync.
  @Test func aNoOpSyncAfterTheFirstIsOneRequest() throws {
    let setup = try Setup(.radicale)
    try setup.populate()
    #expect(Self.counts(try setup.sync()) == Self.expected(uploaded: 3, downloaded: 3))
    let home = "PROPFIND /\(DAVServer.user)/"
    let firstListing = try #require(setup.proxy.requests().last { "\($0.method) \($0.path)" == home })
    #expect(firstListing.body.contains("getctag") && firstListing.body.contains("sync-token"))
    var before = setup.proxy.requests().count
    #expect(Self.counts(try setup.sync()) == Self.expected())
    #expect(setup.requests(from: before) == [home])
    let listing = setup.proxy.requests()[before].body
    #expect(listing.contains("sync-token") && !listing.contains("getctag"), "\(listing)")

    #expect(setup.bench.run(["edit", try setup.id(of: "Buy milk"), "--title", "Buy oat milk"]).status == .ok)
    before = setup.proxy.requests().count
    #expect(Self.counts(try setup.sync()) == Self.expected(uploaded: 1))
    let groceries = try setup.collection("Groceries").href
    #expect(setup.requests(from: before).map { $0.split(separator: " ")[0] } == ["PROPFIND", "PUT", "REPORT"])
    #expect(setup.requests(from: before).last == "REPORT \(groceries)")
    before = setup.proxy.requests().count
    #expect(Self.counts(try setup.sync()) == Self.expected())
    #expect(setup.requests(from: before) == [home])

    try setup.writeRemote("Groceries", "bread.ics", uid: "bread@other", summary: "Bread (rye)")
    before = setup.proxy.requests().count
    #expect(Self.counts(try setup.sync()) == Self.expected(downloaded: 1))
    #expect(setup.requests(from: before).map { $0.split(separator: " ")[0] } == ["PROPFIND", "REPORT", "REPORT"])
    before = setup.proxy.requests().count
    #expect(Self.counts(try setup.sync()) == Self.expected())
    #expect(setup.requests(from: before) == [home])

    // The kept home answers 404 once: discovery runs again, and the next sync starts at the home.
    try setup.proxy.setRules([
      .init(method: "PROPFIND", path: "/\(DAVServer.user)/", times: 1, action: "status", status: 404)
    ])
    setup.add("Plan trip", list: "Home")
    before = setup.proxy.requests().count
    #expect(Self.counts(try setup.sync()) == Self.expected(uploaded: 1))
    let rediscovered = setup.requests(from: before)
    #expect(rediscovered.first == home && rediscovered.filter { $0 == home }.count > 1, "\(rediscovered)")
    try setup.expectConverged(["Groceries", "Home", "Work"])
    before = setup.proxy.requests().count
    #expect(Self.counts(try setup.sync()) == Self.expected())
    #expect(setup.requests(from: before) == [home])
  }

  /// A server without sync tokens (the proxy cuts them, and refuses `sync-collection`): each
  /// collection's `getctag` tells whether it changed, the listing keeps asking for it, and a
  /// sync with nothing to do is that listing alone once the ctags the first sync's writes moved
  /// are read (a full listing of each such collection, its ETags all known).
  @Test func aServerWithoutSyncTokensIsComparedByItsCTags() throws {
    let setup = try Setup(.radicale)
    try setup.proxy.setRules([.init(action: "no-sync-tokens")])
    try setup.populate()
    #expect(Self.counts(try setup.sync()) == Self.expected(uploaded: 3, downloaded: 3))
    let home = "PROPFIND /\(DAVServer.user)/"
    let groceries = try setup.collection("Groceries").href
    let homeList = try setup.collection("Home").href
    var before = setup.proxy.requests().count
    #expect(Self.counts(try setup.sync()) == Self.expected())
    #expect(Set(setup.requests(from: before)) == [home, "REPORT \(groceries)", "REPORT \(homeList)"])
    before = setup.proxy.requests().count
    #expect(Self.counts(try setup.sync()) == Self.expected())
    #expect(setup.requests(from: before) == [home])
    #expect(setup.proxy.requests()[before].body.contains("getctag"))

    try setup.writeRemote("Groceries", "bread.ics", uid: "bread@other", summary: "Bread (rye)")
    #expect(Self.counts(try setup.sync()) == Self.expected(downloaded: 1))
    #expect(try setup.titles(in: "Groceries").contains("Bread (rye)"))
    #expect(setup.proxy.requests().allSatisfy { $0.rule == "no-sync-tokens" && !$0.body.contains("sync-collection") })
  }

  @Test func aWrongPasswordExits77AndChangesNothing() throws {
    let setup = try Setup(.radicale)
    setup.add("Buy milk", list: "Groceries")
    setup.bench.environment["DAV_PW"] = "not the password"
    let result = setup.bench.run(["sync", "dav"])
    #expect(result.status.rawValue == 77, "\(result.errors)")
    #expect(!result.errors.contains("not the password"))
    setup.bench.environment["DAV_PW"] = nil
    #expect(setup.bench.run(["sync", "dav"]).status.rawValue == 77)
    #expect(try setup.other.collections().isEmpty)
  }

  /// The server stops answering after two writes: the sync exits 69, and a rerun once it is back
  /// converges with nothing lost or twice.
  @Test func aServerThatStopsMidSyncExits69AndARerunConverges() throws {
    let setup = try Setup(.radicale)
    for index in 1...6 { setup.add("Task \(index)", list: "Inbox") }
    try setup.proxy.setRules([
      .init(method: "PUT", times: 2, action: "delay", seconds: 0), .init(method: "PUT", action: "close"),
    ])
    let failed = setup.bench.run(["sync", "dav"])
    #expect(failed.status.rawValue == 69, "\(failed.errors)")
    try setup.proxy.setRules([])
    #expect(try setup.remoteTitles("Inbox").count == 2)
    let rerun = try setup.sync()
    #expect(rerun["uploaded"]?.intValue == 4)
    try setup.expectConverged(["Inbox"])
    #expect(Self.counts(try setup.sync()) == Self.expected())
  }

  @Test(.needsRemconvBinary) func aSyncKilledAfterARemoteWriteConvergesWhenRunAgain() throws {
    let setup = try Setup(.radicale)
    try setup.populate()
    _ = try setup.sync()
    #expect(setup.bench.run(["edit", try setup.id(of: "Buy milk"), "--title", "Buy oat milk"]).status == .ok)
    setup.add("Plan trip", list: "Home")
    setup.add("Pack", list: "Home")
    try setup.writeRemote("Work", "mail.ics", uid: "mail@other", summary: "Answer mail")
    var environment = setup.bench.environment
    environment["REMCONV_TEST_SYNC_KILL_AFTER_WRITES"] = "2"
    let killed = try RemconvProcess.run(["sync", "dav"], environment: environment, scratch: setup.bench.directory.path)
    #expect(killed.signaled && killed.status == SIGKILL, "\(killed.errors)")
    _ = try setup.sync()
    try setup.expectConverged(["Groceries", "Home", "Work"])
    #expect(try setup.titles(in: "Home") == ["Call mum", "Pack", "Plan trip"])
    #expect(try setup.titles(in: "Work") == ["Answer mail", "Slides", "Write report"])
    #expect(Self.counts(try setup.sync()) == Self.expected())
  }

  /// A list renamed and coloured here is a PROPPATCH of the calendar; a calendar renamed and
  /// recoloured by another client renames and recolours the list; then nothing is left to do.
  @Test func aListRenamedOrRecolouredOnEitherSideIsCarriedToTheCalendar() throws {
    let setup = try Setup(.radicale)
    setup.add("Buy milk", list: "Groceries")
    _ = try setup.sync()
    #expect(setup.bench.run(["list", "edit", "Groceries", "--name", "Shopping", "--color", "#FF9500"]).status == .ok)
    let report = try setup.sync()
    #expect(report["collectionsUpdated"]?.arrayValue == [.string("Shopping")])
    let renamed = try #require(try setup.other.collections().first { $0.displayName == "Shopping" })
    #expect(renamed.color == "#FF9500")
    #expect(try setup.remoteTitles("Shopping") == ["Buy milk"])

    _ = try setup.other.updateCollection(renamed, displayName: "Errands", color: "#34C759")
    #expect(try setup.sync()["listsUpdated"]?.arrayValue == [.string("Errands")])
    #expect(try SyncVdirTests.lists(setup.local) == ["Errands #34C759"])
    #expect(try setup.titles(in: "Errands") == ["Buy milk"])
    let quiet = try setup.sync()
    #expect(Self.counts(quiet) == Self.expected())
    #expect(quiet["collectionsUpdated"]?.arrayValue == [] && quiet["listsUpdated"]?.arrayValue == [])
  }
}
