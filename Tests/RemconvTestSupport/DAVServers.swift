import Foundation

/// A CalDAV server run by a test on 127.0.0.1 and a free port (`Tests/Servers/davserver.py`):
/// Debian's Radicale (with htpasswd authentication) or Xandikos, or the fault-injecting proxy in
/// front of one. Stopped when the value goes away, or when the test process dies (the script
/// stops its server once its standard input closes). A server that cannot start fails the test:
/// the packages are in `Scripts/bootstrap.sh --test`.
public final class DAVServer {
  public enum Kind: String, Sendable, CaseIterable, CustomStringConvertible {
    case radicale, xandikos
    public var description: String { rawValue }
  }

  public static let script = Repository.path("Tests/Servers/davserver.py")
  public static let user = "alice"
  public static let password = "s3cret-Pa55"

  /// The server's root, `http://127.0.0.1:PORT/`.
  public let url: URL
  /// Where the server keeps its data (and the proxy its rules and log).
  public let directory: TemporaryDirectory
  private let process: Process
  private let input: Pipe

  private init(arguments: [String], directory: TemporaryDirectory) throws {
    self.directory = directory
    process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = [Self.script] + arguments
    input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    var line: [UInt8] = []
    while true {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      line.append(contentsOf: chunk)
      if line.contains(0x0A) { break }
    }
    let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard text.hasPrefix("READY "), let url = URL(string: String(text.dropFirst(6))) else {
      process.terminate()
      throw StartFailure(description: "\(arguments.first ?? "server") did not start: '\(text)'")
    }
    self.url = url
  }

  public struct StartFailure: Error, CustomStringConvertible {
    public let description: String
  }

  /// Starts a server of `kind` with an empty storage; Radicale asks for `user` and `password`.
  public static func start(_ kind: Kind) throws -> DAVServer {
    let directory = TemporaryDirectory()
    switch kind {
    case .radicale: return try DAVServer(arguments: ["radicale", directory.path, user, password], directory: directory)
    case .xandikos: return try DAVServer(arguments: ["xandikos", directory.path, user], directory: directory)
    }
  }

  /// Starts the fault-injecting proxy in front of `upstream`, checking Basic credentials itself
  /// when `requiringCredentials` (Xandikos has no authentication of its own).
  /// With `selfSignedTLS`, it speaks https with a certificate nobody trusts.
  public static func proxy(
    to upstream: URL, requiringCredentials: Bool = false, selfSignedTLS: Bool = false
  ) throws -> FaultProxy {
    let directory = TemporaryDirectory()
    var arguments = ["proxy", upstream.absoluteString, directory.file("rules.json"), directory.file("log.jsonl")]
    if requiringCredentials { arguments += ["--require-auth", "\(user):\(password)"] }
    if selfSignedTLS { arguments.append("--tls") }
    return FaultProxy(server: try DAVServer(arguments: arguments, directory: directory))
  }

  /// Stops the server and waits for it to end.
  public func stop() {
    guard process.isRunning else { return }
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
  }

  deinit { stop() }
}

/// The fault-injecting proxy: rules say which requests it answers itself, and how.
public final class FaultProxy {
  public let server: DAVServer
  public var url: URL { server.url }

  init(server: DAVServer) { self.server = server }

  /// One rule (see `Tests/Servers/davserver.py`): `method` and a part of the `path` to match,
  /// how many `times` (every time when nil), the `action` and its values.
  public struct Rule: Encodable {
    public var method: String?
    public var path: String?
    public var times: Int?
    public var action: String
    public var status: Int?
    public var headers: [String: String]?
    public var body: String?
    public var location: String?
    public var seconds: Double?

    public init(
      method: String? = nil, path: String? = nil, times: Int? = nil, action: String, status: Int? = nil,
      headers: [String: String]? = nil, body: String? = nil, location: String? = nil, seconds: Double? = nil
    ) {
      self.method = method
      self.path = path
      self.times = times
      self.action = action
      self.status = status
      self.headers = headers
      self.body = body
      self.location = location
      self.seconds = seconds
    }
  }

  /// Replaces the rules; the next request is matched against these.
  public func setRules(_ rules: [Rule]) throws {
    try JSONEncoder().encode(rules).write(to: URL(fileURLWithPath: server.directory.file("rules.json")))
  }

  /// A request as the proxy saw it.
  public struct LoggedRequest: Decodable, Sendable {
    public var method: String
    public var path: String
    /// Whether it carried an `Authorization` header.
    public var authorization: Bool
    /// The action of the rule that answered it, nil when forwarded untouched.
    public var rule: String?
    /// The body it carried, as UTF-8 text.
    public var body: String
  }

  /// Every request so far, in order.
  public func requests() -> [LoggedRequest] {
    let text = server.directory.read("log.jsonl")
    return text.split(separator: "\n").compactMap { try? JSONDecoder().decode(LoggedRequest.self, from: Data($0.utf8)) }
  }
}
