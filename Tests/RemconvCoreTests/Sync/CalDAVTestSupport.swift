import Foundation
import RemconvTestSupport

@testable import RemconvCore

extension HTTPPolicy {
  /// Short timeouts and backoffs, so that the fault tests' retries take a fraction of a second.
  static let test = HTTPPolicy(
    requestTimeout: 2, attempts: 3, firstBackoff: 0.02, longestRetryAfter: 5, maximumInFlight: 4)
}

enum CalDAVFixtures {
  /// One task as a CalDAV item.
  static func task(_ uid: String, _ summary: String) -> [UInt8] {
    Array(
      ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//remconv tests//EN\r\nBEGIN:VTODO\r\nUID:\(uid)\r\n"
        + "DTSTAMP:20260101T000000Z\r\nSUMMARY:\(summary)\r\nEND:VTODO\r\nEND:VCALENDAR\r\n").utf8)
  }

  static func endpoint(_ url: URL, password: String = DAVServer.password) throws -> CalDAVEndpoint {
    try CalDAVEndpoint(url: url, user: DAVServer.user, password: password, policy: .test)
  }
}

extension RemoteChanges {
  var fullItems: [RemoteItemVersion]? {
    if case .full(let items, _) = self { return items }
    return nil
  }

  var token: String? {
    switch self {
    case .full(_, let token): token
    case .delta(_, _, let token): token
    }
  }
}

extension RemoteWriteResult {
  var href: String {
    switch self {
    case .created(let href, _), .updated(let href, _), .deleted(let href), .preconditionFailed(let href),
      .rejected(let href, _):
      href
    }
  }
}

/// Runs `body` and returns the `SyncError` it throws, nil when it throws nothing (or another
/// error, which the caller's expectation then reports as nil).
func syncError<T>(_ body: () throws -> T) -> SyncError? {
  do {
    _ = try body()
    return nil
  } catch {
    return error as? SyncError
  }
}

/// One `SyncEngine` run of the store's remote `name`, at a fixed time in UTC.
func syncOnce(
  _ store: Store, _ endpoint: any SyncEndpoint, remote name: String, diagnostics: DiagnosticLog = DiagnosticLog()
) throws -> SyncReport {
  guard let remote = try store.read({ try store.remote(named: name) }) else {
    throw RemconvError.ioFailure("no remote \(name)")
  }
  var options = SyncEngine.Options()
  options.now = Date(timeIntervalSince1970: 1_796_000_000)
  options.timeZone = TimeZone(identifier: "UTC")!
  return try SyncEngine(store: store, remote: remote, endpoint: endpoint, options: options, diagnostics: diagnostics)
    .run()
}
