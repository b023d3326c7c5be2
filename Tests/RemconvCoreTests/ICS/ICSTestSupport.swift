import Foundation
import RemconvTestSupport

@testable import RemconvCore

/// Reading and writing iCalendar in tests.
enum ICSTest {
  static func fixture(_ name: String) -> String { Repository.path("Tests/RemconvCoreTests/Fixtures/ics/" + name) }

  /// The shared corpus of real files (`shared/corpus/ics` beside the repository or one of its
  /// parents, or `$REMCONV_CORPUS`/ics); nil when absent.
  static var corpusFolder: String? {
    if let root = ProcessInfo.processInfo.environment["REMCONV_CORPUS"] { return root + "/ics" }
    var url = URL(fileURLWithPath: Repository.root)
    for _ in 0..<4 {
      url.deleteLastPathComponent()
      let candidate = url.appendingPathComponent("shared/corpus/ics").path
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: candidate, isDirectory: &isFolder), isFolder.boolValue {
        return candidate
      }
    }
    return nil
  }

  /// What a reader produced from one input.
  struct ReadResult {
    var lists: [ReminderList] = []
    var reminders: [Reminder] = []
    var locations: [String: SourceLocation] = [:]
    var skipped: [String] = []
    var diagnostics: [Diagnostic] = []

    func reminder(_ id: String) -> Reminder? { reminders.first { $0.id == id } }

    func warnings(_ code: String) -> [Diagnostic] { diagnostics.filter { $0.code == code } }
  }

  /// Reads a file with the ICS reader, interpreting zone-less times in `timeZone`.
  static func read(path: String, timeZone: String = "Europe/Berlin") throws -> ReadResult {
    try read(source: .file(path), preopened: nil, timeZone: timeZone)
  }

  /// Reads text as if it came on standard input.
  static func read(text: String, timeZone: String = "Europe/Berlin") throws -> ReadResult {
    try read(
      source: .standardInput, preopened: ByteReader(bytes: Array(text.utf8), name: "<stdin>"), timeZone: timeZone)
  }

  private static func read(source: InputSource, preopened: ByteReader?, timeZone: String) throws -> ReadResult {
    var options = ReaderOptions()
    options.timeZone = TimeZone(identifier: timeZone) ?? .current
    let log = DiagnosticLog()
    let reader = try ICSReader(
      context: ReaderContext(source: source, diagnostics: log, options: options, preopened: preopened))
    return try drain(reader, log: log)
  }

  static func drain(_ reader: any ReminderReader, log: DiagnosticLog) throws -> ReadResult {
    var result = ReadResult()
    while let record = try reader.next() {
      switch record {
      case .list(let list): result.lists.append(list)
      case .reminder(let reminder, let location):
        result.reminders.append(reminder)
        result.locations[reminder.id] = location
      case .skipped(let kind, _): result.skipped.append(kind)
      case .rejected(let reason, _, _): result.skipped.append("rejected: " + reason)
      case .unchanged(let location): result.skipped.append("unchanged: \(location)")
      }
    }
    result.diagnostics = log.entries
    return result
  }

  /// The text the ICS writer makes of `lists`, at the fixed time `now`.
  static func write(_ lists: [(ReminderList, [Reminder])], now: String = "2026-11-29T10:00:00Z") throws -> (
    String, [Diagnostic]
  ) {
    let output = ByteWriter()
    let log = DiagnosticLog()
    var options = WriterOptions()
    options.now = Timestamp(iso: now)?.date ?? Date(timeIntervalSince1970: 0)
    let writer = try ICSFormat.Writer(
      context: WriterContext(target: .stream(output), diagnostics: log, options: options))
    for (list, reminders) in lists {
      try writer.beginList(list)
      for reminder in reminders { try writer.write(reminder, in: list, depth: 0) }
      try writer.endList(list)
    }
    try writer.finish()
    return (output.text, log.entries)
  }

  /// Output with the body of every VTIMEZONE left out (their observances come from the
  /// system's time-zone database, which changes with its releases); the TZID stays.
  static func withoutTimeZoneBodies(_ text: String) -> String {
    var kept: [Substring] = []
    var inZone = false
    for line in text.split(separator: "\r\n", omittingEmptySubsequences: false) {
      if line == "BEGIN:VTIMEZONE" {
        inZone = true
        kept.append(line)
        continue
      }
      if line == "END:VTIMEZONE" {
        inZone = false
        kept.append(line)
        continue
      }
      if inZone, !line.hasPrefix("TZID:") { continue }
      kept.append(line)
    }
    return kept.joined(separator: "\r\n")
  }

  /// Whether a program exists, for the tests that need a peer.
  static func exists(_ path: String) -> Bool { FileManager.default.isExecutableFile(atPath: path) }

  /// Runs a program and returns its exit status, standard output and standard error.
  static func run(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil, input: String? = nil
  ) throws
    -> ProcessOutcome
  {
    try Program.run(executable, arguments, environment: environment, input: input)
  }
}
