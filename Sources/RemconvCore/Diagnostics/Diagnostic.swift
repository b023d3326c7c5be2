/// Where in an input something was found.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
  /// The input's name as the user gave it (`<stdin>` for standard input).
  public var file: String
  /// 1-based line (for CSV: the physical line the record starts on), when known.
  public var line: Int?
  /// 1-based column, when known.
  public var column: Int?

  public init(file: String, line: Int? = nil, column: Int? = nil) {
    self.file = file
    self.line = line
    self.column = column
  }

  /// `file:line:column`, omitting what is unknown.
  public var description: String {
    var text = file
    if let line {
      text += ":\(line)"
      if let column { text += ":\(column)" }
    }
    return text
  }
}

/// A warning or error about one item of an input or the store.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
  public enum Severity: String, Sendable, Comparable {
    case warning, error

    public static func < (lhs: Severity, rhs: Severity) -> Bool {
      lhs == .warning && rhs == .error
    }
  }

  public var severity: Severity
  /// A short stable code, such as `bad-priority` or `orphan-parent`.
  public var code: String
  public var message: String
  public var location: SourceLocation?
  /// The UID of the item concerned, when known.
  public var uid: String?

  public init(
    _ severity: Severity, code: String, _ message: String, at location: SourceLocation? = nil,
    uid: String? = nil
  ) {
    self.severity = severity
    self.code = code
    self.message = message
    self.location = location
    self.uid = uid
  }

  /// `file:line: warning: message (UID …) [code]`.
  public var description: String {
    var text = ""
    if let location { text += "\(location): " }
    text += "\(severity.rawValue): \(message)"
    if let uid { text += " (UID \(uid))" }
    text += " [\(code)]"
    return text
  }
}

/// Collects the diagnostics of one run. Readers and the merge engine report here; the CLI
/// prints them and `--strict` turns warnings into a failure.
///
/// Every diagnostic goes to `onReport` as it comes, but only the first `retainedLimit` are
/// kept for the report: a warning on each of a million items must not make memory grow with
/// the input. The rest are counted by code (`omitted`), and the counts stay exact.
public final class DiagnosticLog {
  /// Enough for any report a person reads; a machine reading `--report json` sees the
  /// omitted counts by code.
  public static let defaultRetainedLimit = 10_000

  public let retainedLimit: Int
  public private(set) var entries: [Diagnostic] = []
  /// Diagnostics beyond `retainedLimit`, counted by code.
  public private(set) var omitted: [String: Int] = [:]
  public private(set) var warningCount = 0
  public private(set) var errorCount = 0
  /// Warnings and errors so far: a caller compares it before and after a step to learn
  /// whether the step reported anything.
  public var reportedCount: Int { warningCount + errorCount }
  /// Called for each diagnostic as it is reported, so a long import shows them as it goes.
  public var onReport: ((Diagnostic) -> Void)?

  public init(retainedLimit: Int = DiagnosticLog.defaultRetainedLimit) {
    self.retainedLimit = retainedLimit
  }

  public func report(_ diagnostic: Diagnostic) {
    switch diagnostic.severity {
    case .warning: warningCount += 1
    case .error: errorCount += 1
    }
    if entries.count < retainedLimit {
      entries.append(diagnostic)
    } else {
      omitted[diagnostic.code, default: 0] += 1
    }
    onReport?(diagnostic)
  }

  public func warning(_ code: String, _ message: String, at location: SourceLocation? = nil, uid: String? = nil) {
    report(Diagnostic(.warning, code: code, message, at: location, uid: uid))
  }
}
