import Foundation
import Testing

@testable import RemconvCore

/// What the reading of long notes in many scripts relies on (issue 20, the producers' corpus):
/// folds that split a UTF-8 sequence, escapes, CRLF and LF, schedule lines told from the
/// others by their bytes, and the search fold's runs.
@Suite struct LongNotesReadingTests {
  /// A note in several scripts with emoji, flags, a ZWJ sequence, skin tones, escaped commas
  /// and semicolons, a backslash and line breaks, as the model holds it.
  static let note =
    "Zürich, Ärger; naïve — Привет, мир! Γειά σου; שלום, עולם — مرحبا — 你好，世界 — 안녕하세요 — नमस्ते — สวัสดีครับ "
    + "👨‍👩‍👧 🇫🇷 👍🏽 ❤️ C:\\temp\nsecond line\nthird; with, both"

  /// `line` folded every `width` bytes, wherever that falls (inside a UTF-8 sequence too), each
  /// physical line ended by `ending`.
  static func folded(_ line: String, width: Int, ending: String) -> [UInt8] {
    let bytes = Array(line.utf8)
    var output: [UInt8] = []
    var start = 0
    while start < bytes.count {
      let end = min(start + width, bytes.count)
      if start > 0 { output.append(0x20) }
      output += bytes[start..<end]
      output += Array(ending.utf8)
      start = end
    }
    return output
  }

  /// A calendar of one VTODO whose DESCRIPTION is `note`, folded by `folded`: bytes, as a fold
  /// inside a character leaves physical lines that are not UTF-8 on their own.
  static func calendar(width: Int, ending: String, extraLines: [String] = []) -> [UInt8] {
    var bytes: [UInt8] = []
    let head = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", "BEGIN:VTODO", "UID:long-1", "SUMMARY:Ünïcode"]
    for line in head { bytes += Array((line + ending).utf8) }
    bytes += folded("DESCRIPTION:" + ICSText.escape(note), width: width, ending: ending)
    for line in extraLines + ["END:VTODO", "END:VCALENDAR"] { bytes += folded(line, width: 75, ending: ending) }
    return bytes
  }

  /// What the reader makes of `bytes` on standard input.
  static func read(_ bytes: [UInt8]) throws -> ICSTest.ReadResult {
    var options = ReaderOptions()
    options.timeZone = TimeZone(identifier: "Europe/Berlin") ?? .current
    let log = DiagnosticLog()
    let reader = try ICSReader(
      context: ReaderContext(
        source: .standardInput, diagnostics: log, options: options,
        preopened: ByteReader(bytes: bytes, name: "<stdin>")))
    return try ICSTest.drain(reader, log: log)
  }

  @Test(arguments: [
    (1, "\r\n"), (2, "\r\n"), (3, "\n"), (5, "\r\n"), (7, "\n"), (74, "\r\n"), (75, "\n"), (4_096, "\r\n"),
  ])
  func notesFoldedInsideCharactersReadWhole(width: Int, ending: String) throws {
    let result = try Self.read(Self.calendar(width: width, ending: ending))
    let reminder = try #require(result.reminder("long-1"))
    #expect(reminder.notes == Self.note)
    #expect(reminder.title == "Ünïcode")
    #expect(result.warnings("encoding").isEmpty)
  }

  /// A long kept line of other scripts (Outlook's HTML copy of the note) beside the schedule's
  /// lines, some in lower case, which only their upper-cased characters name: the schedule
  /// takes what it takes and keeps the long line exactly.
  @Test func scheduleLinesAreFoundBesideLongKeptLines() throws {
    let html = "X-ALT-DESC;FMTTYPE=text/html:<p>" + String(repeating: "Привет, 你好 👍🏽 ", count: 120) + "</p>"
    let result = try Self.read(
      Self.calendar(
        width: 75, ending: "\r\n",
        extraLines: [
          html, "dtstart;value=date:20261130", "Rrule:FREQ=WEEKLY", "begin:valarm", "action:DISPLAY",
          "trigger;related=end:-PT15M", "End:Valarm",
        ]))
    let reminder = try #require(result.reminder("long-1"))
    #expect(reminder.startDate == .date(try #require(LocalDate(iso: "2026-11-30"))))
    #expect(reminder.recurrence?.rule == "FREQ=WEEKLY")
    #expect(reminder.alarms == [Alarm(trigger: .relative(seconds: -900, to: .due))])
    #expect(reminder.extra["ical"]?.objectValue?["lines"] == .array([.string(html)]))
  }

  /// The schedule reads lines by their characters: bytes that only look like a schedule's line
  /// in part (a name with other letters, a sub-component of another name, a line with no
  /// colon) are kept as they are, in their order.
  @Test func linesTheScheduleDoesNotTakeAreKeptInOrder() {
    let lines = [
      "X-ALT-DESC;FMTTYPE=text/html:" + String(repeating: "ß", count: 300),
      "DTSTARTX:20261130", "RRULE", "BEGIN:X-ÄÖ", "DTSTART:20261130T080000Z", "END:X-ÄÖ",
      "BEGIN:VALARMS", "TRIGGER:-PT5M", "END:VALARMS", "Ｄ:x", "BEGIN:\u{301}VALARM",
    ]
    let schedule = ICSSchedule(lines: lines)
    #expect(schedule.kept == lines)
    #expect(schedule.start == nil && schedule.recurrence == nil && schedule.alarms.isEmpty)
    // Nothing the schedule may take: the same lines, untouched, and nothing lifted.
    let none = ["X-ALT-DESC:" + String(repeating: "你好", count: 500), "X-MOZ-GENERATION:3", "CLASS:PUBLIC"]
    #expect(ICSSchedule(lines: none).kept == none)
    var reminder = Reminder(
      id: "a", listID: "l", title: "t", extra: ["ical": .object(["lines": .array(none.map(JSONValue.string))])])
    let before = reminder
    ExtraScheduleLifting.lift(&reminder)
    #expect(reminder == before)
  }

  /// The search column of long notes in many scripts is Foundation's fold, whatever breaks the
  /// runs that fold to themselves (capitals at either end, marks, a text that starts with a
  /// mark).
  @Test(arguments: [
    note, note.uppercased(), "A" + note + "Z", "\u{301}" + note, String(repeating: "你好世界", count: 2_000),
    String(repeating: "abc ", count: 3_000) + "É", "É" + String(repeating: "ß", count: 5_000),
    String(repeating: "नमस्ते สวัสดี ", count: 300),
  ])
  func longNotesFoldAsFoundationFoldsThem(text: String) {
    #expect(Array(ReminderIndexValues.fold(text).utf8) == Array(SearchTextFolder.foundationFold(text).utf8))
    #expect(
      Array(ReminderIndexValues.searchText(title: "Title", notes: text).utf8)
        == Array(("title\u{1F}" + SearchTextFolder.foundationFold(text)).utf8))
  }
}
