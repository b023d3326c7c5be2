import Foundation
import Testing

@testable import RemconvCore

/// The recurrence engine: libical's occurrences of an RRULE from a first due date, with
/// EXDATE and RDATE, COUNT and UNTIL, in the due date's own kind.
@Suite struct RecurrenceEngineTests {
  private func date(_ text: String) throws -> DueDate { .date(try #require(LocalDate(iso: text))) }
  private func floating(_ text: String) throws -> DueDate { .floating(try #require(LocalDateTime(iso: text))) }
  private func zoned(_ text: String, _ zone: String) throws -> DueDate {
    .zoned(try #require(LocalDateTime(iso: text)), timeZone: zone)
  }

  private func series(
    _ rule: String, from start: DueDate, except exceptions: [DueDate] = [], adding additions: [DueDate] = []
  ) throws -> RecurrenceSeries {
    RecurrenceSeries(
      rule: try RecurrenceRule(rule), start: start, exceptionDates: exceptions, additionalDates: additions)
  }

  @Test func weeklyOnTuesdaySkipsItsException() throws {
    // 2026-12-01 is a Tuesday; the 8th is left out.
    let weekly = try series(
      "FREQ=WEEKLY;BYDAY=TU", from: floating("2026-12-01T09:00"), except: [floating("2026-12-08T09:00")])
    #expect(
      try weekly.occurrences(limit: 3) == [
        floating("2026-12-01T09:00"), floating("2026-12-15T09:00"), floating("2026-12-22T09:00"),
      ])
    #expect(try weekly.occurrence(after: floating("2026-12-01T09:00")) == floating("2026-12-15T09:00"))
    // Later on the Tuesday itself is still after it.
    #expect(try weekly.occurrence(after: floating("2026-12-15T08:59")) == floating("2026-12-15T09:00"))
  }

  @Test func anExceptionInUTCLeavesOutTheZonedOccurrenceAtThatInstant() throws {
    let weekly = try series(
      "FREQ=WEEKLY;BYDAY=TU", from: zoned("2026-12-01T09:00", "Europe/Berlin"),
      except: [.utc(try #require(LocalDateTime(iso: "2026-12-08T08:00")))])
    #expect(
      try weekly.occurrence(after: zoned("2026-12-01T09:00", "Europe/Berlin"))
        == zoned("2026-12-15T09:00", "Europe/Berlin"))
  }

  @Test func additionalDatesJoinTheRule() throws {
    let weekly = try series(
      "FREQ=WEEKLY;BYDAY=TU", from: date("2026-12-01"), adding: [date("2026-12-03"), date("2026-12-08")])
    // The 8th is an occurrence of the rule too: given once.
    #expect(
      try weekly.occurrences(limit: 4) == [
        date("2026-12-01"), date("2026-12-03"), date("2026-12-08"), date("2026-12-15"),
      ])
  }

  @Test func monthEnds() throws {
    // BYMONTHDAY=31 leaves out the months without a 31st (RFC 5545 §3.3.10).
    #expect(
      try series("FREQ=MONTHLY;BYMONTHDAY=31", from: date("2026-01-31")).occurrences(limit: 4) == [
        date("2026-01-31"), date("2026-03-31"), date("2026-05-31"), date("2026-07-31"),
      ])
    // BYMONTHDAY=-1 is every month's last day.
    #expect(
      try series("FREQ=MONTHLY;BYMONTHDAY=-1", from: date("2026-01-31")).occurrences(limit: 4) == [
        date("2026-01-31"), date("2026-02-28"), date("2026-03-31"), date("2026-04-30"),
      ])
    // Monthly from the 31st takes the day of DTSTART: again only the months with a 31st.
    #expect(
      try series("FREQ=MONTHLY", from: date("2026-01-31")).occurrence(after: date("2026-01-31")) == date("2026-03-31"))
  }

  @Test func aLeapDayRepeatsInLeapYears() throws {
    #expect(
      try series("FREQ=YEARLY", from: date("2024-02-29")).occurrences(limit: 3) == [
        date("2024-02-29"), date("2028-02-29"), date("2032-02-29"),
      ])
  }

  /// A zoned 02:30 daily keeps its wall time through both changes of the clocks: on the day
  /// 02:30 does not exist it stays 02:30 (RFC 5545 reads it with the offset before the gap,
  /// 03:30 in summer time), and the day after it is 02:30 again, not 03:30.
  @Test(arguments: [
    ("Europe/Berlin", "2026-03-28T02:30", "2026-03-29T01:30:00Z", "2026-03-30T00:30:00Z"),
    ("America/New_York", "2026-03-07T02:30", "2026-03-08T07:30:00Z", "2026-03-09T06:30:00Z"),
  ])
  func aZonedDailyKeepsItsWallTimeThroughTheSpringGap(zone: String, start: String, gapUTC: String, afterUTC: String)
    throws
  {
    let daily = try series("FREQ=DAILY", from: zoned(start, zone))
    let occurrences = try daily.occurrences(limit: 3)
    let wallTimes = occurrences.map { RecurrenceSeries.wallTime(of: $0) }
    #expect(wallTimes.map { ($0.hour, $0.minute) }.allSatisfy { $0 == (2, 30) })
    #expect(occurrences.allSatisfy { $0.timeZoneIdentifier == zone })
    let instants = occurrences.compactMap(RecurrenceSeries.instant(of:)).map {
      Timestamp(millisecondsSinceEpoch: $0 * 1000).description
    }
    #expect(instants.dropFirst().elementsEqual([gapUTC, afterUTC]))
  }

  @Test(arguments: [
    ("Europe/Berlin", "2026-10-24T02:30", "2026-10-25T00:30:00Z"),
    ("America/New_York", "2026-10-31T01:30", "2026-11-01T05:30:00Z"),
  ])
  func aZonedDailyKeepsItsWallTimeThroughTheAutumnOverlap(zone: String, start: String, overlapUTC: String) throws {
    let daily = try series("FREQ=DAILY", from: zoned(start, zone))
    let next = try #require(try daily.occurrence(after: zoned(start, zone)))
    #expect(next == .zoned(try #require(LocalDateTime(iso: start)).adding(days: 1), timeZone: zone))
    let instant = try #require(RecurrenceSeries.instant(of: next))
    #expect(Timestamp(millisecondsSinceEpoch: instant * 1000).description == overlapUTC)
  }

  @Test func countEndsTheSeries() throws {
    let three = try series("FREQ=DAILY;COUNT=3", from: date("2026-12-01"))
    #expect(try three.occurrences(limit: 10) == [date("2026-12-01"), date("2026-12-02"), date("2026-12-03")])
    #expect(try three.occurrence(after: date("2026-12-02")) == date("2026-12-03"))
    #expect(try three.occurrence(after: date("2026-12-03")) == nil)
    #expect(try RecurrenceRule("FREQ=DAILY;COUNT=3").count == 3)
  }

  @Test func untilEndsTheSeries() throws {
    let dated = try series("FREQ=WEEKLY;UNTIL=20261215", from: date("2026-12-01"))
    #expect(try dated.occurrences(limit: 10) == [date("2026-12-01"), date("2026-12-08"), date("2026-12-15")])
    #expect(try dated.occurrence(after: date("2026-12-15")) == nil)
    // A UTC UNTIL of a zoned series is the instant: 2026-12-15 08:00 UTC is 09:00 in Berlin,
    // so the 09:00 occurrence that day is the last; a minute earlier and it is not.
    let last = try series("FREQ=WEEKLY;UNTIL=20261215T080000Z", from: zoned("2026-12-01T09:00", "Europe/Berlin"))
    #expect(try last.occurrences(limit: 10).count == 3)
    let before = try series("FREQ=WEEKLY;UNTIL=20261215T075900Z", from: zoned("2026-12-01T09:00", "Europe/Berlin"))
    #expect(try before.occurrences(limit: 10).count == 2)
    #expect(
      try RecurrenceRule("FREQ=WEEKLY;UNTIL=20261215T080000Z").until
        == .utc(try #require(LocalDateTime(iso: "2026-12-15T08:00"))))
  }

  @Test(arguments: [
    ("FREQ=FORTNIGHTLY", "libical cannot read it"),
    ("FREQ=DAILY;INTERVAL=0", "libical cannot read it"),
    ("FREQ=MONTHLY;BYMONTHDAY=32", "libical cannot read it"),
    ("BYDAY=TU", "libical finds no FREQ in it"),
    ("FREQ=YEARLY;BYWEEKNO=20;BYMONTH=2", "libical cannot expand this combination of parts"),
  ])
  func invalidRulesAreRefusedWithLibicalsReason(rule: String, reason: String) {
    #expect(throws: RecurrenceRuleError.self) { try RecurrenceRule(rule) }
    let problem = RecurrenceRule.problem(in: rule)
    #expect(problem?.hasPrefix(reason) == true, "\(rule): \(problem ?? "accepted")")
  }

  /// libical steps an HOURLY rule through every hour up to 2582 looking for a day its parts
  /// allow; a rule whose days never come is answered at once.
  @Test func aSubDailyRuleWhoseDaysNeverComeHasNoOccurrence() throws {
    let never = try series("FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=30", from: floating("2026-01-01T09:00"))
    #expect(try never.occurrences(limit: 1).isEmpty)
  }

  @Test func countCanBeRewritten() throws {
    let rule = try RecurrenceRule("FREQ=WEEKLY;BYDAY=TU;COUNT=5").withCount(4)
    #expect(rule.count == 4)
    #expect(
      try RecurrenceSeries(rule: rule, start: date("2026-12-01")).occurrences(limit: 10).count == 4)
  }

  @Test(arguments: [
    ("daily", "FREQ=DAILY"), ("Weekly", "FREQ=WEEKLY"), ("monthly", "FREQ=MONTHLY"), ("yearly", "FREQ=YEARLY"),
    ("weekdays", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"), ("every day", "FREQ=DAILY"),
    ("every 3 days", "FREQ=DAILY;INTERVAL=3"), ("every 2 weeks", "FREQ=WEEKLY;INTERVAL=2"),
    ("every 1 month", "FREQ=MONTHLY"), ("every 10 years", "FREQ=YEARLY;INTERVAL=10"),
    ("FREQ=WEEKLY;BYDAY=TU", "FREQ=WEEKLY;BYDAY=TU"),
    ("rrule:freq=monthly;bymonthday=-1", "FREQ=MONTHLY;BYMONTHDAY=-1"),
  ])
  func repeatWordsSpellARule(words: String, rule: String) throws {
    #expect(try RecurrenceRule(repeatWords: words)?.text == rule)
  }

  @Test(arguments: ["fortnightly", "every days", "every 0 days", "every -2 weeks", "every 2 fortnights", "every"])
  func otherWordsAreNotARule(words: String) throws {
    #expect(try RecurrenceRule(repeatWords: words) == nil)
  }

  @Test func anRRULELibicalRefusesIsAnErrorWithItsReason() {
    #expect(throws: RecurrenceRuleError.self) { try RecurrenceRule(repeatWords: "FREQ=WEEKLY;BYDAY=XX") }
  }
}

extension LocalDateTime {
  fileprivate func adding(days: Int) -> LocalDateTime {
    LocalDateTime(secondsSinceEpoch: secondsSinceEpoch + Int64(days) * 86_400)
  }
}
