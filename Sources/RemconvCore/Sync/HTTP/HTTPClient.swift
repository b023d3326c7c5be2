import Dispatch
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One HTTP request of a sync. Bodies and answers are bytes: CalDAV items travel untouched.
struct HTTPRequest: Sendable {
  var method: String
  var url: URL
  var headers: [String: String] = [:]
  var body: [UInt8]?
}

/// A server's answer, after redirects were followed.
struct HTTPResponse: Sendable {
  var status: Int
  /// Header fields by lowercased name.
  var headers: [String: String]
  var body: [UInt8]
  /// The URL that answered: the request's, or where its redirects led.
  var url: URL

  func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// The scheme, host and port of a URL: the only place credentials are sent to.
struct Origin: Hashable, Sendable, CustomStringConvertible {
  var scheme: String
  var host: String
  var port: Int

  init?(_ url: URL) {
    guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
      let host = url.host?.lowercased(), !host.isEmpty
    else { return nil }
    self.scheme = scheme
    self.host = host
    port = url.port ?? (scheme == "https" ? 443 : 80)
  }

  var description: String { "\(scheme)://\(host):\(port)" }
}

/// A user name and password for one origin. The password is never printed: this type has no
/// description that shows it, and it is only ever turned into the `Authorization` header.
struct HTTPCredentials: Sendable {
  var origin: Origin
  var user: String
  var password: String

  /// `Basic` credentials, sent with the first request: answering a challenge instead costs a
  /// request each time, and servers such as iCloud advertise schemes a client cannot answer.
  var authorization: String { "Basic " + Data("\(user):\(password)".utf8).base64EncodedString() }
}

/// How patient a client is: timeouts, retries and how many requests it has in flight.
public struct HTTPPolicy: Sendable {
  /// Seconds without a byte from the server before a request is given up (then retried): a
  /// server that does not answer, or does not accept the connection, is given up after it.
  public var requestTimeout: TimeInterval
  /// Seconds a whole answer may take, however its bytes come: a server dripping one byte now and
  /// then is given up after it (then retried).
  public var answerTimeout: TimeInterval
  /// Attempts of one request before the server counts as unreachable.
  public var attempts: Int
  /// The wait after the first failed attempt; it doubles with each further one.
  public var firstBackoff: TimeInterval
  /// The longest `Retry-After` honoured: a server asking for longer counts as unavailable.
  public var longestRetryAfter: TimeInterval
  /// Requests in flight at once at most (FoundationNetworking has crashed under more, and
  /// servers throttle clients that send more).
  public var maximumInFlight: Int
  /// Redirects followed for one request at most.
  public var maximumRedirects: Int

  public init(
    requestTimeout: TimeInterval = 30, answerTimeout: TimeInterval = 300, attempts: Int = 4,
    firstBackoff: TimeInterval = 0.5, longestRetryAfter: TimeInterval = 120, maximumInFlight: Int = 4,
    maximumRedirects: Int = 10
  ) {
    self.requestTimeout = requestTimeout
    self.answerTimeout = answerTimeout
    self.attempts = attempts
    self.firstBackoff = firstBackoff
    self.longestRetryAfter = longestRetryAfter
    self.maximumInFlight = maximumInFlight
    self.maximumRedirects = maximumRedirects
  }

  public static let standard = HTTPPolicy()

  /// The standard policy with the timeouts `environment` sets: `REMCONV_HTTP_IDLE_TIMEOUT` and
  /// `REMCONV_HTTP_ANSWER_TIMEOUT`, in seconds (docs/sync.md, "Limits and timeouts").
  ///
  /// - Throws: `SyncError.refused` naming the variable whose value is not a positive number.
  public static func standard(environment: [String: String]) throws(SyncError) -> HTTPPolicy {
    var policy = HTTPPolicy.standard
    func seconds(_ name: String) throws(SyncError) -> TimeInterval? {
      guard let text = environment[name] else { return nil }
      guard let value = TimeInterval(text), value > 0, value.isFinite else {
        throw .refused("$\(name) is '\(text)', not a positive number of seconds")
      }
      return value
    }
    if let idle = try seconds("REMCONV_HTTP_IDLE_TIMEOUT") { policy.requestTimeout = idle }
    if let answer = try seconds("REMCONV_HTTP_ANSWER_TIMEOUT") { policy.answerTimeout = answer }
    return policy
  }
}

/// A blocking HTTP client over Foundation's URLSession (FoundationNetworking, libcurl
/// underneath), shaped by what goes wrong with it on Linux and with CalDAV servers:
/// - redirects are never followed by URLSession (its session delegate refuses each one) but
///   here, so that credentials go only to the origin they were given for, never to another
///   host a redirect names;
/// - credentials are sent up front (`Basic`), and an authentication challenge is refused:
///   answering one hung URLSession on Linux before Swift 6.3, and there is nothing better to
///   answer with;
/// - connection failures, timeouts, 429, 502, 503 and 504 are retried a bounded number of
///   times, after the server's `Retry-After` (seconds or an HTTP date) or an exponential
///   backoff; then the server counts as unreachable;
/// - TLS certificates are verified by libcurl's defaults, which nothing here relaxes;
/// - only the session delegate is used: task delegates are never called on Linux.
final class HTTPClient: @unchecked Sendable {
  let policy: HTTPPolicy
  private let credentials: HTTPCredentials?
  private let session: URLSession
  private let events: SessionEvents
  private let counter = NSLock()
  private var sent = 0

  init(credentials: HTTPCredentials?, policy: HTTPPolicy) {
    self.credentials = credentials
    self.policy = policy
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCredentialStorage = nil
    configuration.httpCookieStorage = nil
    configuration.httpShouldSetCookies = false
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.timeoutIntervalForRequest = policy.requestTimeout
    configuration.httpMaximumConnectionsPerHost = policy.maximumInFlight
    events = SessionEvents()
    session = URLSession(configuration: configuration, delegate: events, delegateQueue: nil)
  }

  deinit { session.invalidateAndCancel() }

  /// The requests sent so far, each attempt and redirect counted.
  var requestsSent: Int { counter.withLock { sent } }

  /// Sends `request`, following redirects and retrying as the policy says.
  func send(_ request: HTTPRequest) throws(SyncError) -> HTTPResponse {
    var current = request
    var redirects = 0
    while true {
      let response = try sendWithRetries(current)
      guard [301, 302, 303, 307, 308].contains(response.status) else {
        if response.status == 401 { throw authenticationRefused(at: current.url) }
        return response
      }
      guard let location = response.header("location"),
        let target = URL(string: location, relativeTo: current.url)?.absoluteURL, let targetOrigin = Origin(target)
      else {
        throw .malformedResponse("\(current.url): HTTP \(response.status) without a usable Location")
      }
      redirects += 1
      guard redirects <= policy.maximumRedirects else {
        throw .unreachable("\(request.url): more than \(policy.maximumRedirects) redirects")
      }
      if current.url.scheme?.lowercased() == "https", targetOrigin.scheme == "http" {
        throw .unreachable("\(current.url): redirected from https to \(target); remconv does not downgrade")
      }
      current.url = target
      if response.status == 303 {
        current.method = "GET"
        current.body = nil
      }
    }
  }

  /// Sends `requests`, at most `policy.maximumInFlight` at once, and returns their outcomes in
  /// the order of `requests`.
  ///
  /// The senders are threads of their own, not work items of Dispatch's global queues: each
  /// blocks until its answer comes, and URLSession delivers answers through those same queues,
  /// whose pool has as many threads as cores and adds one only after a blocked one was seen for
  /// about a second. Senders there held back each answer by that second on a 2-core machine.
  func sendAll(_ requests: [HTTPRequest]) -> [Result<HTTPResponse, SyncError>] {
    let outcomes = Outcomes(count: requests.count)
    let senders = min(policy.maximumInFlight, requests.count)
    let finished = DispatchSemaphore(value: 0)
    for _ in 0..<senders {
      Thread.detachNewThread {
        while let index = outcomes.nextIndex() {
          let outcome: Result<HTTPResponse, SyncError>
          do throws(SyncError) { outcome = .success(try self.send(requests[index])) } catch {
            outcome = .failure(error)
          }
          outcomes.record(outcome, at: index)
        }
        finished.signal()
      }
    }
    for _ in 0..<senders { finished.wait() }
    return outcomes.all
  }

  private func sendWithRetries(_ request: HTTPRequest) throws(SyncError) -> HTTPResponse {
    var attempt = 1
    while true {
      let wait: TimeInterval
      let failure: String
      switch exchange(request) {
      case .success(let response):
        guard [429, 502, 503, 504].contains(response.status) else { return response }
        failure = "HTTP \(response.status)"
        if let asked = Self.retryAfter(response.header("retry-after"), now: Date()) {
          guard asked <= policy.longestRetryAfter else {
            throw .unreachable("\(request.url): HTTP \(response.status), the server asks to wait \(Int(asked)) s")
          }
          wait = asked
        } else {
          wait = backoff(after: attempt)
        }
      case .failure(.challenged):
        throw authenticationRefused(at: request.url)
      case .failure(.transport(let error)):
        guard Self.isTransient(error) else { throw .unreachable("\(request.url): \(error.localizedDescription)") }
        failure = error.localizedDescription
        wait = backoff(after: attempt)
      }
      guard attempt < policy.attempts else {
        throw .unreachable("\(request.url): \(failure) (after \(policy.attempts) attempts)")
      }
      Thread.sleep(forTimeInterval: wait)
      attempt += 1
    }
  }

  private func backoff(after attempt: Int) -> TimeInterval {
    policy.firstBackoff * Double(1 << min(attempt - 1, 10))
  }

  private func authenticationRefused(at url: URL) -> SyncError {
    guard let credentials else {
      return .authenticationRefused("\(url): the server asks for credentials; give --user and a password")
    }
    guard Origin(url) == credentials.origin else {
      return .authenticationRefused(
        "\(url): a redirect led to another origin than \(credentials.origin), which asks for credentials; "
          + "remconv sends them only to the origin of the remote's URL: give this URL instead")
    }
    return .authenticationRefused("\(url): the server refused the credentials of user '\(credentials.user)'")
  }

  private enum ExchangeFailure: Error {
    case transport(URLError)
    case challenged
  }

  /// One request and its answer, redirects not followed.
  private func exchange(_ request: HTTPRequest) -> Result<HTTPResponse, ExchangeFailure> {
    var urlRequest = URLRequest(url: request.url)
    urlRequest.httpMethod = request.method
    urlRequest.httpShouldHandleCookies = false
    for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
    if let credentials, Origin(request.url) == credentials.origin {
      urlRequest.setValue(credentials.authorization, forHTTPHeaderField: "Authorization")
    }
    if let body = request.body { urlRequest.httpBody = Data(body) }
    counter.withLock { sent += 1 }
    let task = session.dataTask(with: urlRequest)
    let exchange = events.begin(task.taskIdentifier)
    task.resume()
    let answered = exchange.done.wait(timeout: .now() + policy.answerTimeout) == .success
    if !answered {
      task.cancel()
      // The cancel completes the task; the wait is bounded should it not.
      _ = exchange.done.wait(timeout: .now() + policy.requestTimeout)
    }
    events.end(task.taskIdentifier)
    if !answered { return .failure(.transport(URLError(.timedOut))) }
    if exchange.challenged { return .failure(.challenged) }
    if let error = exchange.error {
      return .failure(.transport(error as? URLError ?? URLError(.unknown)))
    }
    guard let response = exchange.response else { return .failure(.transport(URLError(.badServerResponse))) }
    var headers: [String: String] = [:]
    for (name, value) in response.allHeaderFields {
      if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
    }
    return .success(
      HTTPResponse(status: response.statusCode, headers: headers, body: exchange.body, url: request.url))
  }

  /// Failures worth another attempt: the connection, not the request, went wrong.
  private static func isTransient(_ error: URLError) -> Bool {
    switch error.code {
    case .timedOut, .cannotConnectToHost, .networkConnectionLost, .cannotFindHost, .dnsLookupFailed,
      .notConnectedToInternet, .badServerResponse, .cannotParseResponse, .resourceUnavailable, .unknown:
      true
    default: false
    }
  }

  /// The wait a `Retry-After` value asks for: seconds, or an HTTP date (RFC 9110 §10.2.3).
  static func retryAfter(_ value: String?, now: Date) -> TimeInterval? {
    guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
    if let seconds = Int(value) { return TimeInterval(max(0, seconds)) }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
      formatter.dateFormat = format
      if let date = formatter.date(from: value) { return max(0, date.timeIntervalSince(now)) }
    }
    return nil
  }
}

/// The outcomes of `sendAll`, filled in by its workers.
private final class Outcomes: @unchecked Sendable {
  private let lock = NSLock()
  private var results: [Result<HTTPResponse, SyncError>?]
  private var next = 0

  init(count: Int) { results = Array(repeating: nil, count: count) }

  func nextIndex() -> Int? {
    lock.withLock {
      guard next < results.count else { return nil }
      defer { next += 1 }
      return next
    }
  }

  func record(_ outcome: Result<HTTPResponse, SyncError>, at index: Int) { lock.withLock { results[index] = outcome } }

  var all: [Result<HTTPResponse, SyncError>] {
    lock.withLock { results.map { $0 ?? .failure(.unreachable("request not sent")) } }
  }
}

/// The session delegate: collects each task's answer and stops what URLSession would do on its
/// own (follow a redirect, answer a challenge). On Linux only the session's delegate is called,
/// and only for tasks made without a completion handler: a task with one follows redirects
/// without asking anybody.
private final class SessionEvents: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  final class Exchange: @unchecked Sendable {
    var response: HTTPURLResponse?
    var body: [UInt8] = []
    var error: (any Error)?
    var challenged = false
    let done = DispatchSemaphore(value: 0)
  }

  private let lock = NSLock()
  private var exchanges: [Int: Exchange] = [:]

  func begin(_ task: Int) -> Exchange {
    let exchange = Exchange()
    lock.withLock { exchanges[task] = exchange }
    return exchange
  }

  func end(_ task: Int) { _ = lock.withLock { exchanges.removeValue(forKey: task) } }

  private func exchange(_ task: URLSessionTask) -> Exchange? { lock.withLock { exchanges[task.taskIdentifier] } }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
  ) {
    exchange(dataTask)?.response = response as? HTTPURLResponse
    completionHandler(.allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    exchange(dataTask)?.body.append(contentsOf: data)
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
  ) {
    // Refused: the 3xx answer is delivered, and HTTPClient follows it with the credentials the
    // target's origin may have.
    completionHandler(nil)
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
    completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
  ) {
    // Only HTTP authentication reaches here on Linux: libcurl verifies TLS certificates itself
    // (FoundationNetworking has no server-trust challenge).
    exchange(task)?.challenged = true
    completionHandler(.cancelAuthenticationChallenge, nil)
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    guard let exchange = exchange(task) else { return }
    exchange.error = error
    exchange.done.signal()
  }
}
