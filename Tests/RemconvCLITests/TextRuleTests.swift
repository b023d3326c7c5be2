import Foundation
import RemconvCLI
import RemconvCore
import RemconvTestSupport
import Testing

/// One text rule at the model boundary: every reader removes C0 control characters other
/// than tab, LF and CR with a warning, no writer writes what its reader refuses, and what a
/// format cannot carry is reported at export with the reminder's UID and the field.
@Suite struct TextRuleTests {
  static func document(
    title: String, notes: String = "", url: String = "null", createdAt: String = "null", listName: String = "Inbox"
  )
    -> String
  {
    """
    {"format":"remconv","version":1,"lists":[{"id":"L1","name":\(JSONText.quoted(listName)),"symbol":"list.bullet","color":null,"createdAt":null,"extra":{},"reminders":[
    {"id":"R1","title":\(JSONText.quoted(title)),"notes":\(JSONText.quoted(notes)),"isDone":false,"completedAt":null,"flagged":false,"dueDate":null,"dueTimeZone":null,"priority":"none","parentId":null,"tags":["a\\u0002b"],"url":\(url),"createdAt":\(createdAt),"editedAt":null,"extra":{}}]}]}
    """
  }

  /// A NUL from JSON is removed with a warning, like any other control character, so the
  /// exports that wrote it raw are read back by remconv's own readers.
  @Test func aNulFromJSONIsRemovedAndEveryExportReadsBack() throws {
    let bench = TestBench()
    let path = bench.directory.write("nul.json", Self.document(title: "Bu\u{0}y\u{1} milk", notes: "tab\there\nline"))
    let imported = bench.run(["import", path])
    #expect(imported.status == .ok, "\(imported.errors)")
    #expect(imported.errors.contains("[control-character]"), "\(imported.errors)")
    #expect(imported.errors.contains("title, tags held control characters"), "\(imported.errors)")
    #expect(imported.errors.contains("(UID R1)"), "\(imported.errors)")
    let exported = bench.run(["export", "--format", "json"]).output
    #expect(exported.contains("\"title\":\"Buy milk\""), "\(exported)")
    #expect(exported.contains("\"notes\":\"tab\\there\\nline\""), "tab and LF are kept")
    #expect(exported.contains("\"tags\":[\"ab\"]"))

    for (format, name) in [
      ("ics", "out.ics"), ("csv", "out.csv"), ("csv:todoist", "todoist.csv"), ("jcal", "out.jcal"),
    ] {
      let output = bench.directory.file(name)
      let export = bench.run(["export", "--format", format, "-o", output])
      #expect(export.status == .ok, "\(format): \(export.errors)")
      let fresh = TestBench()
      let back = fresh.run(["import", output, "--format", format, "--strict"])
      #expect(back.status == .ok, "\(format): \(back.errors)")
    }
  }

  /// The same rule for `.ics`: a control character in a value is removed with the same warning.
  @Test func aControlCharacterInIcsIsRemovedTheSameWay() throws {
    let bench = TestBench()
    let ics =
      "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:R2\r\nSUMMARY:Bu\u{1}y\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
    let path = bench.directory.write("ctl.ics", ics)
    let imported = bench.run(["import", path])
    #expect(imported.status == .ok, "\(imported.errors)")
    #expect(
      imported.errors.contains("[control-character]") && imported.errors.contains("(UID R2)"), "\(imported.errors)")
    #expect(bench.run(["export", "--format", "json"]).output.contains("\"title\":\"Buy\""))
  }

  /// What iCalendar cannot carry is reported at export, naming the reminder and the field.
  @Test func whatIcsCannotCarryIsReportedWithTheUIDAndField() throws {
    let bench = TestBench()
    let path = bench.directory.write(
      "cr.json", Self.document(title: "t", notes: "one\r\ntwo", url: "\"\"", createdAt: "\"2026-11-01T10:00:00.250Z\""))
    #expect(bench.run(["import", path]).status == .ok)
    for format in ["ics", "jcal"] {
      let export = bench.run(["export", "--format", format, "-o", bench.directory.file("out." + format)])
      #expect(export.status == .ok, "\(export.errors)")
      let warnings = export.errors.split(separator: "\n").filter {
        $0.contains("[cannot-carry]") && $0.contains("(UID R1)")
      }
      #expect(warnings.contains { $0.contains("notes holds a CR") }, "\(format): \(export.errors)")
      #expect(warnings.contains { $0.contains("the url is empty") }, "\(format): \(export.errors)")
      #expect(warnings.contains { $0.contains("createdAt has fractions of a second") }, "\(format): \(export.errors)")
    }
  }

  @Test func aTrimmedListNameIsReported() throws {
    let bench = TestBench()
    let path = bench.directory.write("trim.json", Self.document(title: "t", listName: "  Inbox "))
    let imported = bench.run(["import", path])
    #expect(imported.status == .ok, "\(imported.errors)")
    #expect(imported.errors.contains("[list-name]") && imported.errors.contains("stored trimmed"), "\(imported.errors)")
  }
}
