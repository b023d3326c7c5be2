import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// `CalDAVEndpoint` against real servers (Debian's Radicale and Xandikos) started on 127.0.0.1:
/// discovery from the server's root, MKCALENDAR, conditional writes, full listings, sync
/// reports, and a repeated listing that costs at most one request.
@Suite(.serialized) struct CalDAVServerTests {
  @Test(arguments: DAVServer.Kind.allCases) func discoveryWritesAndListingsRoundTrip(_ kind: DAVServer.Kind) throws {
    let server = try DAVServer.start(kind)
    let endpoint = try CalDAVFixtures.endpoint(server.url)
    let created = try endpoint.createCollection(displayName: "Groceries & <Co>", color: "#ff8800")
    let listed = try endpoint.collections()
    let found = try #require(listed.first { $0.href == created.href })
    #expect(found.displayName == "Groceries & <Co>")
    if kind == .radicale { #expect(found.color == "#FF8800") }

    let results = try endpoint.apply(
      (1...3).map { .create(name: "task \($0).ics", body: CalDAVFixtures.task("uid-\($0)", "Task \($0)")) }, in: created
    )
    #expect(results.count == 3)
    for result in results {
      guard case .created = result else {
        Issue.record("\(result)")
        continue
      }
    }

    let listing = try endpoint.changes(in: created, since: nil)
    let items = try #require(listing.fullItems)
    #expect(Set(items.map(\.href)) == Set(results.map(\.href)))
    let fetched = try endpoint.fetch(items.map(\.href), in: created)
    #expect(Set(fetched.map { String(decoding: $0.body, as: UTF8.self).contains("SUMMARY:Task") }) == [true])
    #expect(fetched.count == 3)

    let first = try #require(items.first { $0.href.hasSuffix("task%201.ics") })
    let second = try #require(items.first { $0.href.hasSuffix("task%202.ics") })
    let edited = try endpoint.apply(
      [.update(href: first.href, etag: first.etag, body: CalDAVFixtures.task("uid-1", "Task 1 edited"))], in: created)
    guard case .updated = edited[0] else { throw Failure("update: \(edited)") }
    // The ETag the first listing gave is stale now: the server must refuse, never overwrite.
    let stale = try endpoint.apply(
      [.update(href: first.href, etag: first.etag, body: CalDAVFixtures.task("uid-1", "lost edit"))], in: created)
    #expect(stale == [.preconditionFailed(href: first.href)])
    let again = try endpoint.apply(
      [.create(name: "task 3.ics", body: CalDAVFixtures.task("uid-3", "Task 3 twice"))], in: created)
    #expect(again == [.preconditionFailed(href: results[2].href)])
    let deleted = try endpoint.apply([.delete(href: second.href, etag: second.etag)], in: created)
    #expect(deleted == [.deleted(href: second.href)])

    // A later run: its listing of collections, then what changed since the first listing.
    let rerun = try CalDAVFixtures.endpoint(server.url)
    _ = try rerun.collections()
    let changes = try rerun.changes(in: created, since: try #require(listing.token))
    guard case .delta(let changed, let gone, let token) = changes else { throw Failure("no delta: \(changes)") }
    #expect(changed.map(\.href) == [first.href])
    #expect(gone == [second.href])
    let body = try rerun.fetch(changed.map(\.href), in: created)
    #expect(String(decoding: try #require(body.first).body, as: UTF8.self).contains("Task 1 edited"))

    // Nothing changed since: after discovery, one request at most.
    let quiet = try CalDAVFixtures.endpoint(server.url)
    _ = try quiet.collections()
    let before = quiet.requestsSent
    guard case .delta(let none, let noneGone, _) = try quiet.changes(in: created, since: token) else {
      throw Failure("no delta")
    }
    #expect(none.isEmpty && noneGone.isEmpty)
    #expect(quiet.requestsSent - before <= 1)
  }

  /// A calendar URL given directly is the one collection of the remote; a calendar of events
  /// only is no collection for reminders.
  @Test func aCollectionURLIsTheOnlyCollectionAndEventCalendarsAreLeftOut() throws {
    let server = try DAVServer.start(.radicale)
    let endpoint = try CalDAVFixtures.endpoint(server.url)
    let tasks = try endpoint.createCollection(displayName: "Tasks", color: nil)
    let client = HTTPClient(
      credentials: HTTPCredentials(
        origin: try #require(Origin(server.url)), user: DAVServer.user, password: DAVServer.password),
      policy: .test)
    let events = try client.send(
      HTTPRequest(
        method: "MKCALENDAR", url: server.url.appendingPathComponent("alice/events/"),
        headers: ["Content-Type": "application/xml"],
        body: Array(
          (#"<C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop>"#
            + #"<C:supported-calendar-component-set><C:comp name="VEVENT"/></C:supported-calendar-component-set>"#
            + "</D:prop></D:set></C:mkcalendar>").utf8)))
    #expect(events.status == 201)
    #expect(try endpoint.collections().map(\.href) == [tasks.href])

    let single = try CalDAVFixtures.endpoint(try #require(URL(string: tasks.href, relativeTo: server.url)?.absoluteURL))
    #expect(try single.collections().map(\.href) == [tasks.href])
    let refusal = syncError { try single.createCollection(displayName: "More", color: nil) }
    guard case .refused = refusal else { throw Failure("\(String(describing: refusal))") }
  }

  @Test func aWrongPasswordIsRefusedAuthentication() throws {
    let server = try DAVServer.start(.radicale)
    let error = syncError { try CalDAVFixtures.endpoint(server.url, password: "wrong").collections() }
    guard case .authenticationRefused(let message) = error else { throw Failure("\(String(describing: error))") }
    #expect(!message.contains("wrong"))
  }

  /// A token the server no longer honours sends the engine back to a full listing.
  @Test(arguments: DAVServer.Kind.allCases) func anUnknownSyncTokenAsksForAFullListing(_ kind: DAVServer.Kind) throws {
    let server = try DAVServer.start(kind)
    let endpoint = try CalDAVFixtures.endpoint(server.url)
    let collection = try endpoint.createCollection(displayName: "Tokens", color: nil)
    _ = try endpoint.collections()
    let error = syncError { try endpoint.changes(in: collection, since: "sync:http://example.com/ns/sync/42") }
    #expect(error == .invalidSyncToken)
  }

  @Test func aServerThatIsGoneIsUnreachable() throws {
    let server = try DAVServer.start(.radicale)
    let endpoint = try CalDAVFixtures.endpoint(server.url)
    _ = try endpoint.collections()
    server.stop()
    let error = syncError { try endpoint.collections() }
    guard case .unreachable = error else { throw Failure("\(String(describing: error))") }
  }
}

struct Failure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
