import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// `CalDAVEndpoint` behind the fault-injecting proxy (`Tests/Servers/davserver.py`) in front of
/// Radicale: what a server or the network does wrong, and what the client makes of it.
@Suite(.serialized) struct CalDAVFaultTests {
  /// Radicale with one calendar, and the proxy in front of it.
  private final class Setup {
    let radicale: DAVServer
    let proxy: FaultProxy
    let endpoint: CalDAVEndpoint
    let collection: RemoteCollection

    init(policy: HTTPPolicy = .test) throws {
      radicale = try DAVServer.start(.radicale)
      proxy = try DAVServer.proxy(to: radicale.url)
      collection = try CalDAVFixtures.endpoint(radicale.url).createCollection(displayName: "Faults", color: nil)
      endpoint = try CalDAVEndpoint(url: proxy.url, user: DAVServer.user, password: DAVServer.password, policy: policy)
      _ = try endpoint.collections()
    }

    func requests(_ method: String) -> [FaultProxy.LoggedRequest] { proxy.requests().filter { $0.method == method } }
  }

  @Test func a429IsRetriedAfterTheTimeItsRetryAfterAsks() throws {
    let setup = try Setup()
    let past = "Thu, 01 Jan 2026 00:00:00 GMT"
    try setup.proxy.setRules([
      .init(method: "REPORT", times: 1, action: "status", status: 429, headers: ["Retry-After": "1"]),
      .init(method: "REPORT", times: 1, action: "status", status: 503, headers: ["Retry-After": past]),
    ])
    #expect(try setup.endpoint.changes(in: setup.collection, since: nil).fullItems?.isEmpty == true)
    #expect(setup.requests("REPORT").map(\.rule) == ["status", "status", nil])
  }

  /// A calendar's rename is a PROPPATCH; a server without it (501) refuses only the rename,
  /// which the engine reports and goes on from.
  @Test func aRenameIsAPropPatchAndAServerWithoutOneRefusesOnlyIt() throws {
    let setup = try Setup()
    let renamed = try setup.endpoint.updateCollection(setup.collection, displayName: "Chores", color: "#ff9500")
    #expect(renamed.displayName == "Chores" && renamed.color == "#FF9500")
    let listed = try CalDAVFixtures.endpoint(setup.radicale.url).collections().first { $0.href == renamed.href }
    #expect(listed?.displayName == "Chores" && listed?.color == "#FF9500")
    try setup.proxy.setRules([.init(method: "PROPPATCH", action: "status", status: 501)])
    let error = syncError { try setup.endpoint.updateCollection(renamed, displayName: "Errands", color: nil) }
    guard case .refused(let message) = error else { throw Failure("\(String(describing: error))") }
    #expect(message.contains("501"))
    #expect(setup.requests("PROPPATCH").filter { $0.rule == "status" }.count == 1)
  }

  /// A server that drips its answer one byte at a time never trips the idle timeout; the
  /// answer's own bound gives it up, each attempt, and then the server is unreachable
  /// (issue 41, finding 11).
  @Test func anAnswerThatDripsIsGivenUpAfterTheAnswerTimeout() throws {
    var policy = HTTPPolicy.test
    policy.answerTimeout = 1
    policy.attempts = 2
    let setup = try Setup(policy: policy)
    try setup.proxy.setRules([.init(method: "PROPFIND", action: "drip", seconds: 0.2)])
    let error = syncError { try setup.endpoint.collections() }
    guard case .unreachable(let message) = error else { throw Failure("\(String(describing: error))") }
    #expect(message.contains("after 2 attempts"), "\(message)")
    #expect(setup.requests("PROPFIND").filter { $0.rule == "drip" }.count == 2)
  }

  @Test func theTimeoutsAreSetByTheEnvironmentAndABadValueIsNamed() throws {
    let policy = try HTTPPolicy.standard(
      environment: ["REMCONV_HTTP_IDLE_TIMEOUT": "12.5", "REMCONV_HTTP_ANSWER_TIMEOUT": "90"])
    #expect(policy.requestTimeout == 12.5 && policy.answerTimeout == 90)
    #expect(try HTTPPolicy.standard(environment: [:]).answerTimeout == HTTPPolicy.standard.answerTimeout)
    for bad in ["0", "-3", "soon", "inf"] {
      let error = syncError { try HTTPPolicy.standard(environment: ["REMCONV_HTTP_ANSWER_TIMEOUT": bad]) }
      guard case .refused(let message) = error else { throw Failure("\(bad): \(String(describing: error))") }
      #expect(message.contains("$REMCONV_HTTP_ANSWER_TIMEOUT"), "\(message)")
    }
  }

  @Test func aServerThatKeepsFailingIsUnreachableAfterBoundedAttempts() throws {
    let setup = try Setup()
    try setup.proxy.setRules([.init(method: "PROPFIND", action: "status", status: 503)])
    let error = syncError { try setup.endpoint.collections() }
    guard case .unreachable = error else { throw Failure("\(String(describing: error))") }
    #expect(setup.requests("PROPFIND").filter { $0.rule == "status" }.count == HTTPPolicy.test.attempts)
  }

  @Test func aServerAskingToWaitTooLongIsUnreachableAtOnce() throws {
    let setup = try Setup()
    try setup.proxy.setRules([
      .init(method: "REPORT", action: "status", status: 429, headers: ["Retry-After": "3600"])
    ])
    let error = syncError { try setup.endpoint.changes(in: setup.collection, since: nil) }
    guard case .unreachable(let message) = error else { throw Failure("\(String(describing: error))") }
    #expect(message.contains("3600"))
    #expect(setup.requests("REPORT").count == 1)
  }

  /// A 500 on one write refuses that item and leaves the others; on a listing it fails the
  /// exchange (not retried: the server answered).
  @Test func a500RejectsOneWriteAndFailsAListing() throws {
    let setup = try Setup()
    try setup.proxy.setRules([
      .init(method: "PUT", path: "broken", action: "status", status: 500, body: "Internal error"),
      .init(method: "REPORT", action: "status", status: 500),
    ])
    let results = try setup.endpoint.apply(
      [
        .create(name: "fine.ics", body: CalDAVFixtures.task("fine", "Fine")),
        .create(name: "broken.ics", body: CalDAVFixtures.task("broken", "Broken")),
      ], in: setup.collection)
    guard case .created = results[0], case .rejected(_, let reason) = results[1] else { throw Failure("\(results)") }
    #expect(reason.contains("500"))
    let error = syncError { try setup.endpoint.changes(in: setup.collection, since: nil) }
    guard case .unreachable = error else { throw Failure("\(String(describing: error))") }
    #expect(setup.requests("REPORT").count == 1)
  }

  @Test func a412IsAPreconditionFailureNeverAnOverwrite() throws {
    let setup = try Setup()
    try setup.proxy.setRules([.init(method: "PUT", times: 1, action: "status", status: 412)])
    let results = try setup.endpoint.apply(
      [.create(name: "taken.ics", body: CalDAVFixtures.task("taken", "Taken"))], in: setup.collection)
    #expect(results == [.preconditionFailed(href: setup.collection.href + "taken.ics")])
    #expect(setup.requests("PUT").count == 1)
  }

  @Test func anAnswerCutShortIsRetried() throws {
    let setup = try Setup()
    try setup.proxy.setRules([.init(method: "PROPFIND", times: 1, action: "truncate")])
    #expect(try setup.endpoint.collections().map(\.href) == [setup.collection.href])
    let requests = setup.requests("PROPFIND")
    let cut = try #require(requests.firstIndex { $0.rule == "truncate" })
    #expect(requests.count > cut + 1 && requests[cut + 1].path == requests[cut].path)
  }

  @Test func aTruncatedMultistatusIsMalformed() throws {
    let setup = try Setup()
    try setup.proxy.setRules([.init(method: "PROPFIND", action: "truncate-xml")])
    let error = syncError { try setup.endpoint.collections() }
    guard case .malformedResponse(let message) = error else { throw Failure("\(String(describing: error))") }
    #expect(message.contains("malformed XML"))
  }

  @Test func aSlowAnswerTimesOutAndIsRetried() throws {
    var policy = HTTPPolicy.test
    policy.requestTimeout = 2
    let setup = try Setup(policy: policy)
    try setup.proxy.setRules([.init(method: "REPORT", times: 1, action: "delay", seconds: 8)])
    #expect(try setup.endpoint.changes(in: setup.collection, since: nil).fullItems?.isEmpty == true)
    #expect(setup.requests("REPORT").map(\.rule) == ["delay", nil])
  }

  /// A redirect to another origin is followed without the credentials: the other origin's
  /// demand for them is an authentication failure that says why.
  @Test func credentialsNeverFollowARedirectToAnotherOrigin() throws {
    let setup = try Setup()
    let elsewhere = try DAVServer.proxy(to: setup.radicale.url)
    // The proxy appends the request's path to the location.
    try setup.proxy.setRules([
      .init(method: "PROPFIND", action: "redirect", location: String(elsewhere.url.absoluteString.dropLast()))
    ])
    let fresh = try CalDAVFixtures.endpoint(setup.proxy.url.appendingPathComponent("alice/"))
    let error = syncError { try fresh.collections() }
    guard case .authenticationRefused(let message) = error else { throw Failure("\(String(describing: error))") }
    #expect(message.contains("another origin"))
    #expect(!message.contains(DAVServer.password))
    let redirected = elsewhere.requests()
    #expect(!redirected.isEmpty)
    #expect(redirected.allSatisfy { !$0.authorization })
    #expect(setup.requests("PROPFIND").last?.authorization == true)
  }

  /// Radicale's `/.well-known/caldav` redirects to `/`, on the same origin: credentials go along.
  @Test func aRedirectOnTheSameOriginKeepsTheCredentials() throws {
    let setup = try Setup()
    let fresh = try CalDAVFixtures.endpoint(setup.proxy.url.appendingPathComponent(".well-known/caldav"))
    let before = setup.proxy.requests().count
    #expect(try fresh.collections().map(\.href) == [setup.collection.href])
    let requests = setup.proxy.requests().dropFirst(before)
    #expect(requests.first?.path == "/.well-known/caldav")
    #expect(requests.dropFirst().first?.path == "/")
    #expect(requests.allSatisfy { $0.authorization })
  }

  /// A certificate nobody vouches for is refused before any request is sent: the sync stops
  /// (69) and no credentials leave.
  @Test func anUntrustedCertificateIsRefused() throws {
    let radicale = try DAVServer.start(.radicale)
    let proxy = try DAVServer.proxy(to: radicale.url, selfSignedTLS: true)
    #expect(proxy.url.scheme == "https")
    let error = syncError { try CalDAVFixtures.endpoint(proxy.url).collections() }
    guard case .unreachable = error else { throw Failure("\(String(describing: error))") }
    #expect(proxy.requests().isEmpty)
  }

  /// Xandikos behind an authenticating proxy: a 401 is authentication refused (77), the right
  /// password discovers its default calendar.
  @Test func a401IsAuthenticationRefused() throws {
    let xandikos = try DAVServer.start(.xandikos)
    let proxy = try DAVServer.proxy(to: xandikos.url, requiringCredentials: true)
    let error = syncError { try CalDAVFixtures.endpoint(proxy.url, password: "not it").collections() }
    guard case .authenticationRefused = error else { throw Failure("\(String(describing: error))") }
    #expect(try CalDAVFixtures.endpoint(proxy.url).collections().isEmpty == false)
  }
}
