import Foundation
import RemconvTestSupport

@testable import RemconvCore

/// Reading OPML in tests: fixtures by name, and what a reader makes of a file or a text.
enum OPMLTest {
  static func fixture(_ name: String) -> String { Repository.path("Tests/RemconvCoreTests/Fixtures/opml/\(name)") }

  /// What the OPML reader emitted, in order.
  struct Records {
    var lists: [ReminderList] = []
    var reminders: [Reminder] = []
    var locations: [SourceLocation] = []
    let diagnostics: DiagnosticLog

    func reminder(titled title: String) -> Reminder? { reminders.first { $0.title == title } }
    func list(named name: String) -> ReminderList? { lists.first { $0.name == name } }
  }

  static func read(file path: String, options: ReaderOptions = ReaderOptions()) throws -> Records {
    try read(ReaderContext(source: .file(path), diagnostics: DiagnosticLog(), options: options))
  }

  /// Reads `text` as if it were the file `name`.
  static func read(_ text: String, name: String = "outline.opml", options: ReaderOptions = ReaderOptions()) throws
    -> Records
  {
    try read(
      ReaderContext(
        source: .file(name), diagnostics: DiagnosticLog(), options: options,
        preopened: ByteReader(bytes: Array(text.utf8), name: name)))
  }

  private static func read(_ context: ReaderContext) throws -> Records {
    let reader = try OPMLReader(context: context)
    var records = Records(diagnostics: context.diagnostics)
    while let record = try reader.next() {
      switch record {
      case .list(let list): records.lists.append(list)
      case .reminder(let reminder, let location):
        records.reminders.append(reminder)
        records.locations.append(location)
      case .skipped, .rejected, .unchanged: break
      }
    }
    return records
  }

  /// The OPML the writer makes of `lists`, each with its reminders and their depths.
  static func write(
    _ lists: [(ReminderList, [(Reminder, Int)])], diagnostics: DiagnosticLog = DiagnosticLog()
  ) throws -> String {
    let output = ByteWriter()
    let writer = try OPMLWriter(context: WriterContext(target: .stream(output), diagnostics: diagnostics))
    for (list, reminders) in lists {
      try writer.beginList(list)
      for (reminder, depth) in reminders { try writer.write(reminder, in: list, depth: depth) }
      try writer.endList(list)
    }
    try writer.finish()
    return output.text
  }

  /// A document with `outlines` in its body.
  static func document(_ outlines: String, head: String = "<title>Test</title>") -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <opml version="2.0" xmlns:remconv="\(OPMLFormat.namespace)">
      <head>\(head)</head>
      <body>
    \(outlines)
      </body>
    </opml>

    """
  }
}
