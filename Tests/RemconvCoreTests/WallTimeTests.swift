import Foundation
import Testing

@testable import RemconvCore

/// A zoned wall time becomes an instant by RFC 5545 §3.3.5: in a gap (clocks set forward) the
/// offset before the gap; in an overlap (clocks set back) the first occurrence. One helper,
/// `DueDate.utcSeconds(ofWallTime:in:)`, does it for every reader and writer.
@Suite struct WallTimeTests {
  /// (zone, wall time, the UTC instant RFC 5545 gives, what the case is).
  static let cases: [(String, String, String, String)] = [
    // Europe/Berlin: +01:00 → +02:00 at 2026-03-29 01:00Z, +02:00 → +01:00 at 2026-10-25 01:00Z.
    ("Europe/Berlin", "2026-03-29T02:30:00", "2026-03-29T01:30:00Z", "gap: the offset before it (+01:00)"),
    ("Europe/Berlin", "2026-10-25T02:30:00", "2026-10-25T00:30:00Z", "overlap: the first (+02:00)"),
    ("Europe/Berlin", "2026-03-29T01:59:59", "2026-03-29T00:59:59Z", "just before the gap"),
    ("Europe/Berlin", "2026-03-29T03:00:00", "2026-03-29T01:00:00Z", "just after the gap"),
    ("Europe/Berlin", "2026-10-25T03:00:00", "2026-10-25T02:00:00Z", "just after the overlap"),
    // America/New_York: −05:00 → −04:00 at 2026-03-08 07:00Z, −04:00 → −05:00 at 2026-11-01 06:00Z.
    ("America/New_York", "2026-03-08T02:30:00", "2026-03-08T07:30:00Z", "gap: the offset before it (−05:00)"),
    ("America/New_York", "2026-11-01T01:30:00", "2026-11-01T05:30:00Z", "overlap: the first (−04:00)"),
    ("America/New_York", "2026-07-01T12:00:00", "2026-07-01T16:00:00Z", "summer, no transition"),
    // Australia/Sydney, where the clocks go forward in October and back in April:
    // +10:00 → +11:00 at 2026-10-03 16:00Z, +11:00 → +10:00 at 2026-04-04 16:00Z.
    ("Australia/Sydney", "2026-10-04T02:30:00", "2026-10-03T16:30:00Z", "gap: the offset before it (+10:00)"),
    ("Australia/Sydney", "2026-04-05T02:30:00", "2026-04-04T15:30:00Z", "overlap: the first (+11:00)"),
  ]

  @Test(arguments: cases)
  func aWallTimeIsTheInstantRFC5545Gives(zone: String, wall: String, utc: String, what: String) throws {
    let timeZone = try #require(TimeZone(identifier: zone))
    let time = try #require(LocalDateTime(iso: wall))
    let expected = try #require(Timestamp(iso: utc))
    let seconds = DueDate.utcSeconds(ofWallTime: time, in: timeZone)
    #expect(seconds * 1000 == expected.millisecondsSinceEpoch, "\(zone) \(wall): \(what)")
  }

  /// The writers that need an instant use the helper: Taskwarrior's `due`, and a zoned
  /// COMPLETED that jCal turns into UTC.
  @Test func writersAndReadersUseTheRule() throws {
    let list = ReminderList(id: "L", name: "DST")
    let gap = Reminder(
      id: "GAP", listID: "L", title: "gap",
      dueDate: .zoned(try #require(LocalDateTime(iso: "2026-03-08T02:30:00")), timeZone: "America/New_York"))
    let overlap = Reminder(
      id: "OVERLAP", listID: "L", title: "overlap",
      dueDate: .zoned(try #require(LocalDateTime(iso: "2026-10-25T02:30:00")), timeZone: "Europe/Berlin"))
    let written = try Dialects.write(TaskwarriorFormat.descriptor, [(list, [gap, overlap])])
    #expect(written.text.contains("\"due\":\"20260308T073000Z\""), "\(written.text)")
    #expect(written.text.contains("\"due\":\"20261025T003000Z\""), "\(written.text)")

    let jcal = """
      ["vcalendar",[["version",{},"text","2.0"]],[["vtodo",[["uid",{},"text","T"],["summary",{},"text","t"],
      ["completed",{"tzid":"Europe/Berlin"},"date-time","2026-10-25T02:30:00"]],[]]]]
      """
    let read = try Dialects.read(JCalFormat.descriptor, text: jcal, name: "dst.jcal")
    #expect(read.reminder("T")?.completedAt == (try Dialects.timestamp("2026-10-25T00:30:00Z")))
  }
}
