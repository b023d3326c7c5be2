import Foundation
import RemconvCLI
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// Real files from other applications (`shared/corpus/ics`, see its MANIFEST.md). Skipped when
/// the corpus is not there.
@Suite(.enabled(if: ICSTest.corpusFolder != nil)) struct ICSCorpusTests {
  static var files: [String] {
    guard let folder = ICSTest.corpusFolder,
      let names = try? FileManager.default.contentsOfDirectory(atPath: folder)
    else { return [] }
    return names.filter { $0.hasSuffix(".ics") }.sorted().map { folder + "/" + $0 }
  }

  @Test func everyFileImportsOrFailsWithALocatedError() throws {
    let files = Self.files
    #expect(files.count >= 60)
    var imported = 0
    for path in files {
      let bench = TestBench()
      let result = bench.run(["import", path])
      switch result.status {
      case .ok:
        imported += 1
      case .dataError:
        // Broken structure: the message names the file and a line.
        let name = URL(fileURLWithPath: path).lastPathComponent
        let located = result.errors.range(of: name + ":").map { found in
          result.errors[found.upperBound...].prefix { $0.isNumber }.count > 0
        }
        #expect(located == true, "\(name): \(result.errors)")
      default:
        Issue.record("\(path): exit \(result.status.rawValue): \(result.errors)")
      }
    }
    #expect(imported >= files.count - 1)
  }

  @Test func theFuzzedFileFailsWithItsLine() {
    guard let folder = ICSTest.corpusFolder else { return }
    let result = TestBench().run(["import", folder + "/libical__issue253.ics"])
    #expect(result.status == .dataError)
    // The fuzzer's file holds a NUL byte on line 7, which every reader refuses before the
    // mismatched END:VALARM on line 124 (docs/reliability.md).
    #expect(result.errors.contains("libical__issue253.ics:7:3: a NUL byte"), "\(result.errors)")
  }

  @Test func importExportImportGivesTheSameModelForEveryFile() throws {
    for path in Self.files {
      let first = TestBench()
      guard first.run(["import", path]).status == .ok else { continue }
      let exported = first.directory.file("export.ics")
      #expect(first.run(["export", "--format", "ics", "-o", exported]).status == .ok)
      let second = TestBench()
      #expect(second.run(["import", exported]).status == .ok, "\(path)")
      #expect(second.snapshot() == first.snapshot(), "\(path)")
      let again = second.directory.file("again.ics")
      #expect(second.run(["export", "--format", "ics", "-o", again]).status == .ok)
      #expect(
        (try? String(contentsOfFile: again, encoding: .utf8))
          == (try? String(contentsOfFile: exported, encoding: .utf8)),
        "\(path): the second export differs")
    }
  }

  @Test func crlfAndLFReadAlike() throws {
    for path in Self.files where !path.hasSuffix("issue253.ics") {
      let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
      let text = String(decoding: bytes, as: UTF8.self)
      guard String(validating: Array(bytes), as: UTF8.self) != nil else { continue }
      let lf = try ICSTest.read(text: text.replacingOccurrences(of: "\r\n", with: "\n"))
      let crlf = try ICSTest.read(
        text: text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n"))
      #expect(lf.reminders == crlf.reminders, "\(path)")
      #expect(lf.lists == crlf.lists, "\(path)")
    }
  }

  @Test func knownQuirksReadAsExpected() throws {
    guard let folder = ICSTest.corpusFolder else { return }
    func read(_ name: String) throws -> ICSTest.ReadResult { try ICSTest.read(path: folder + "/" + name) }

    let summary = try read("tasks-folding__long_summary.ics").reminders.first?.title
    #expect(summary == "https://android-developers.googleblog.com/2025/11/raising-bar-on-battery-performance.html")
    let description = try read("tasks-folding__long_description.ics").reminders.first?.notes
    #expect(
      description
        == "[Google](www.google.com) link with *bold*\n\nLet's make this longerrrr, shall we? Here is _underline_ and **bold**\n\nAnd another line."
    )

    let allDay = try read("tasks-nextcloud__all_day_task.ics").reminders.first
    #expect(allDay?.dueDate?.description == "2021-02-01")
    let stars = try (1...9).map {
      try read("tasks-nextcloud__priority_\($0)_star\($0 == 1 ? "" : "s").ics").reminders.first?.priority
    }
    #expect(stars == [.low, .low, .low, .low, .medium, .high, .high, .high, .high])

    let apple = try read("tasks-apple__basic_due_date.ics").reminders.first
    #expect(apple?.dueDate?.description == "2018-04-16T18:00:00 America/Chicago")
    #expect(
      apple?.extra["ical"]?["lines"]?.arrayValue?.contains(.string("DTSTART;TZID=America/Chicago:20180416T180000"))
        == false)

    let recurring = try read("tasks-thunderbird__completed_repeating_task.ics")
    #expect(recurring.reminders.count == 1)
    #expect(recurring.reminders.first?.extra["ical"]?["overrides"]?.arrayValue?.count == 1)

    let mixed = try read("icalendar__issue_1050_all_components.ics")
    #expect(mixed.reminders.count == 1)
    #expect(mixed.skipped.sorted() == ["VAVAILABILITY", "VEVENT", "VJOURNAL"])

    let php = try read("ical4j__phpicalendar_sample.ics")
    #expect(php.reminders.count == 3)
    #expect(php.skipped.count == 17)

    let latin1 = try read("ical4android__latin1.ics")
    #expect(latin1.reminders.first?.title.contains("äöüß") == true)
    #expect(!latin1.warnings("encoding").isEmpty)
  }
}
