import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// What a reader produced from one input.
struct ReadOutcome {
  var lists: [ReminderList] = []
  var reminders: [Reminder] = []
  var locations: [RemconvCore.SourceLocation] = []
  var diagnostics: [Diagnostic] = []
  /// The kinds of the components counted and skipped (VEVENTs in a calendar).
  var skipped: [String] = []

  func reminder(_ id: String) -> Reminder? { reminders.first { $0.id == id } }
  func reminder(titled title: String) -> Reminder? { reminders.first { $0.title == title } }
  func list(_ id: String) -> ReminderList? { lists.first { $0.id == id } }
  func warnings(_ code: String) -> [Diagnostic] { diagnostics.filter { $0.code == code } }
}

enum Dialects {
  static let berlin = TimeZone(identifier: "Europe/Berlin") ?? .current
  static let chicago = TimeZone(identifier: "America/Chicago") ?? .current

  static func fixture(_ format: String, _ name: String) -> String {
    Repository.path("Tests/RemconvCoreTests/Fixtures/\(format)/\(name)")
  }

  /// Reads a file with `format`'s reader, collecting every record.
  static func read(
    _ format: FormatDescriptor, path: String, timeZone: TimeZone = berlin, listName: String? = nil
  ) throws -> ReadOutcome {
    let diagnostics = DiagnosticLog()
    var options = ReaderOptions()
    options.timeZone = timeZone
    options.listName = listName
    let context = ReaderContext(source: .file(path), diagnostics: diagnostics, options: options)
    let makeReader = try #require(format.makeReader)
    let reader = try makeReader(context)
    var outcome = ReadOutcome()
    while let record = try reader.next() {
      switch record {
      case .list(let list): outcome.lists.append(list)
      case .reminder(let reminder, let location):
        outcome.reminders.append(reminder)
        outcome.locations.append(location)
      case .skipped(let kind, _): outcome.skipped.append(kind)
      case .rejected, .unchanged: Issue.record("unexpected record \(record)")
      }
    }
    outcome.diagnostics = diagnostics.entries
    return outcome
  }

  /// Reads JSON text written to a scratch file named `name`.
  static func read(
    _ format: FormatDescriptor, text: String, name: String = "input.json", timeZone: TimeZone = berlin
  ) throws -> ReadOutcome {
    let folder = TemporaryDirectory()
    return try read(format, path: folder.write(name, text), timeZone: timeZone)
  }

  /// Writes lists and their reminders (in order) with `format`'s writer.
  static func write(
    _ format: FormatDescriptor, _ content: [(ReminderList, [Reminder])], timeZone: TimeZone = berlin,
    now: String = "2026-11-29T10:00:00Z"
  ) throws -> (text: String, diagnostics: [Diagnostic]) {
    let output = ByteWriter()
    let diagnostics = DiagnosticLog()
    var options = WriterOptions()
    options.timeZone = timeZone
    options.now = try #require(Timestamp(iso: now)).date
    let makeWriter = try #require(format.makeWriter)
    let writer = try makeWriter(WriterContext(target: .stream(output), diagnostics: diagnostics, options: options))
    for (list, reminders) in content {
      try writer.beginList(list)
      for reminder in reminders { try writer.write(reminder, in: list, depth: reminder.parentID == nil ? 0 : 1) }
      try writer.endList(list)
    }
    try writer.finish()
    return (output.text, diagnostics.entries)
  }

  static func timestamp(_ text: String) throws -> Timestamp { try #require(Timestamp(iso: text)) }

  static func localDate(_ text: String) throws -> LocalDate { try #require(LocalDate(iso: text)) }

  static func localDateTime(_ text: String) throws -> LocalDateTime { try #require(LocalDateTime(iso: text)) }
}

/// The shared corpus of other apps' files (`/work/shared/corpus`), when it is on this machine.
enum Corpus {
  static let path: String? = {
    var candidates = [Repository.path("../shared/corpus"), Repository.path("../../shared/corpus")]
    if let configured = ProcessInfo.processInfo.environment["REMCONV_CORPUS"] { candidates.insert(configured, at: 0) }
    return candidates.first { FileManager.default.fileExists(atPath: $0 + "/MANIFEST.md") }
  }()

  static var isPresent: Bool { path != nil }

  static func file(_ relative: String) throws -> String {
    try #require(path.map { $0 + "/" + relative })
  }
}
