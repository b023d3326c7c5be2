import Foundation
import Testing

@testable import RemconvCore

@Suite struct TimeZoneResolverTests {
  @Test func ianaNamesAndLinksAreIANA() {
    #expect(TimeZoneResolver.resolve("Europe/Berlin", vtimezone: nil) == .iana("Europe/Berlin"))
    #expect(TimeZoneResolver.resolve("US/Pacific", vtimezone: nil) == .iana("US/Pacific"))
    #expect(TimeZoneResolver.resolve("Asia/Kolkata", vtimezone: nil) == .iana("Asia/Kolkata"))
    #expect(TimeZoneResolver.resolve("UTC", vtimezone: nil) == .iana("UTC"))
    #expect(!TimeZoneResolver.isIANA("W. Europe Standard Time"))
    #expect(!TimeZoneResolver.isIANA("/freeassociation.sourceforge.net/Europe/Berlin"))
  }

  @Test func prefixedNamesResolveToTheirIANATail() {
    for tzid in [
      "/freeassociation.sourceforge.net/Tzfile/America/Toronto", "/freeassociation.sourceforge.net/America/Toronto",
      "/softwarestudio.org/Olson_20011030_5/America/Toronto", "/mozilla.org/20050126_1/America/Toronto",
    ] {
      #expect(
        TimeZoneResolver.resolve(tzid, vtimezone: nil)
          == .mapped("America/Toronto", reason: "its IANA name after the prefix"), "\(tzid)")
    }
  }

  @Test func aVTimezoneMayNameItsZone() {
    let block = ComponentBlock(
      name: "VTIMEZONE",
      lines: [
        ContentLine(text: "BEGIN:VTIMEZONE", line: 1), ContentLine(text: "TZID:Custom 7", line: 2),
        ContentLine(text: "X-LIC-LOCATION:Asia/Bangkok", line: 3), ContentLine(text: "END:VTIMEZONE", line: 4),
      ], startLine: 1)
    #expect(
      TimeZoneResolver.resolve("Custom 7", vtimezone: block)
        == .mapped("Asia/Bangkok", reason: "the X-LIC-LOCATION of its VTIMEZONE"))
    #expect(TimeZoneResolver.resolve("Custom 7", vtimezone: nil) == .unresolved)
  }

  @Test func windowsNamesMapToZonesThisSystemKnows() {
    #expect(
      TimeZoneResolver.resolve("W. Europe Standard Time", vtimezone: nil)
        == .mapped("Europe/Berlin", reason: "the CLDR zone for this Windows name"))
    #expect(
      TimeZoneResolver.resolve("Tokyo Standard Time", vtimezone: nil)
        == .mapped("Asia/Tokyo", reason: "the CLDR zone for this Windows name"))
    for (windows, iana) in TimeZoneResolver.windowsZones {
      #expect(TimeZoneResolver.isIANA(iana), "\(windows) → \(iana)")
      #expect(TimeZone(identifier: iana) != nil, "\(windows) → \(iana)")
    }
    #expect(TimeZoneResolver.windowsZones.count > 130)
  }

  @Test func libicalBuildsVTimezonesForIANAZones() throws {
    let lines = try #require(LibICal.builtinTimeZoneLines(for: "America/New_York"))
    #expect(lines.first == "BEGIN:VTIMEZONE")
    #expect(lines[1] == "TZID:America/New_York")
    #expect(lines.last == "END:VTIMEZONE")
    #expect(lines.contains("BEGIN:DAYLIGHT"))
    #expect(LibICal.builtinTimeZoneLines(for: "Not/A_Zone") == nil)
  }

  @Test func aVTimezoneFromTheInputGivesInstants() throws {
    let text =
      "BEGIN:VTIMEZONE\r\nTZID:Plus 0530\r\nBEGIN:STANDARD\r\nDTSTART:16010101T000000\r\nTZOFFSETFROM:+0530\r\nTZOFFSETTO:+0530\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n"
    let zone = try ICalTimeZone(vtimezone: Array(text.utf8), lastYear: 2200, maximumChanges: 10)
    let wall = try #require(LocalDateTime(iso: "2026-02-02T10:00:00"))
    #expect(LocalDateTime(secondsSinceEpoch: zone.utcSeconds(of: wall)).description == "2026-02-02T04:30:00")
    #expect(throws: ICalTimeZone.Refusal.unreadable) {
      try ICalTimeZone(
        vtimezone: Array("BEGIN:VTODO\r\nUID:x\r\nEND:VTODO\r\n".utf8), lastYear: 2200, maximumChanges: 10)
    }
  }

  /// libical expands a zone's observances up to the year asked for; the changes are counted,
  /// with libical's own iterator, before the zone exists.
  @Test func aVTimezoneIsCountedBeforeLibicalExpandsIt() throws {
    func zone(_ rule: String) -> String {
      "BEGIN:VTIMEZONE\r\nTZID:Odd\r\nBEGIN:STANDARD\r\nDTSTART:16010101T020000\r\n\(rule)TZOFFSETFROM:+0100\r\nTZOFFSETTO:+0000\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n"
    }
    // Outlook's shape: one change a year from 1601 to 2205.
    _ = try ICalTimeZone(
      vtimezone: Array(zone("RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\n").utf8), lastYear: 2200, maximumChanges: 10_000
    )
    #expect(throws: ICalTimeZone.Refusal.tooManyChanges(limit: 500, year: 2205)) {
      try ICalTimeZone(
        vtimezone: Array(zone("RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\n").utf8), lastYear: 2200, maximumChanges: 500)
    }
    #expect(throws: ICalTimeZone.Refusal.tooManyChanges(limit: 10_000, year: 2205)) {
      try ICalTimeZone(
        vtimezone: Array(zone("RRULE:FREQ=MONTHLY;BYMONTHDAY=1,2,3,4,5,6,7;BYHOUR=0,1,2,3,4,5,6,7,8,9,10,11\r\n").utf8),
        lastYear: 2200,
        maximumChanges: 10_000)
    }
  }

  /// A calendar per list, each with the zones its reminders use: a VTIMEZONE repeated line for
  /// line is taken as the one before it, and a later one of the same TZID that differs is still
  /// checked (and refused when no zone looks like it).
  @Test func aRepeatedVTimezoneIsTheFirstAndADifferentOneIsStillChecked() throws {
    func zone(_ rule: String) -> String {
      "BEGIN:VTIMEZONE\r\nTZID:Plus 0530\r\nBEGIN:STANDARD\r\nDTSTART:16010101T000000\r\n\(rule)TZOFFSETFROM:+0530\r\nTZOFFSETTO:+0530\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n"
    }
    func calendar(_ zone: String, uid: String) -> String {
      "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\n\(zone)BEGIN:VTODO\r\nUID:\(uid)\r\nSUMMARY:s\r\nDUE;TZID=Plus 0530:20260202T100000\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
    }
    let repeated = try ICSTest.read(text: calendar(zone(""), uid: "a") + calendar(zone(""), uid: "b"))
    #expect(repeated.reminders.count == 2)
    #expect(repeated.reminders.first?.dueDate == .utc(try #require(LocalDateTime(iso: "2026-02-02T04:30:00"))))
    #expect(repeated.reminders.first?.dueDate == repeated.reminders.last?.dueDate)
    let daily = zone("RRULE:FREQ=DAILY\r\n")
    #expect(throws: RemconvError.self) {
      try ICSTest.read(text: calendar(zone(""), uid: "a") + calendar(daily, uid: "b"))
    }
    do {
      _ = try ICSTest.read(text: calendar(zone(""), uid: "a") + calendar(daily, uid: "b"))
    } catch {
      #expect("\(error)".contains("FREQ=DAILY"))
    }
  }
}
