import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// An import checks the dates of the rows it writes on the values they were written from
/// (`EncodedDates`), parsing a text only when it would not read back as its value. These tests
/// hold that shortcut to the parse it stands for, and the import's findings to `validate`'s.
@Suite struct EncodedDatesTests {
  /// The first and last instants of the years 1 to 9999, and the instants either side.
  static let yearEdges: [Int64] = {
    let first = Int64(CivilTime.days(year: 1, month: 1, day: 1)) * 86_400_000
    let last = Int64(CivilTime.days(year: 10_000, month: 1, day: 1)) * 86_400_000 - 1
    return [first - 1, first, first + 1, last - 1, last, last + 1, 0, -1, 1]
  }()

  @Test func aTimestampReadsBackFromItsTextExactlyWhenItSaysSo() {
    var random = SeededGenerator(seed: 26)
    // Years far beyond the four digits, around them, and within them; whole seconds and not.
    let spans: [ClosedRange<Int64>] = [
      -400_000_000_000_000...400_000_000_000_000, -70_000_000_000_000...260_000_000_000_000,
      -62_135_596_800_000 - 86_400_000...253_402_300_799_999 + 86_400_000,
    ]
    var instants = Self.yearEdges
    for _ in 0..<20_000 {
      let value = Int64.random(in: spans.randomElement(using: &random)!, using: &random)
      instants.append(Bool.random(using: &random) ? value - value % 1000 : value)
    }
    var within = 0
    for instant in instants {
      let timestamp = Timestamp(millisecondsSinceEpoch: instant)
      let readBack = Timestamp(iso: timestamp.description)
      #expect(timestamp.readsBackFromText == (readBack == timestamp), "\(instant) \(timestamp)")
      if timestamp.readsBackFromText { within += 1 }
    }
    // Both answers are met many times.
    #expect(within > 1000)
    #expect(instants.count - within > 1000)
  }

  @Test func aDueDateReadsBackFromItsTextsExactlyWhenItSaysSo() throws {
    var random = SeededGenerator(seed: 2026)
    let zones = ["Europe/Berlin", "America/New_York", "Asia/Kolkata", "UTC", "Not/AZone", "EST", "", "GMT+1"]
    // Day counts of years 0 to 10000 and beyond, and within 1 to 9999.
    let dayCounts: [ClosedRange<Int>] = [-800_000...3_000_000, -719_162...2_932_896]
    var values: [DueDate] = []
    for _ in 0..<20_000 {
      let days = Int.random(in: dayCounts.randomElement(using: &random)!, using: &random)
      let time = LocalDateTime(secondsSinceEpoch: Int64(days) * 86_400 + Int64.random(in: 0..<86_400, using: &random))
      switch Int.random(in: 0..<4, using: &random) {
      case 0: values.append(.date(LocalDate(daysSinceEpoch: days)))
      case 1: values.append(.floating(time))
      case 2: values.append(.utc(time))
      default: values.append(.zoned(time, timeZone: zones.randomElement(using: &random)!))
      }
    }
    var readingBack = 0
    for value in values {
      let readBack = try? DueDate(isoText: value.isoText, timeZone: value.timeZoneIdentifier)
      let says = value.readsBackFromText(zoneIsKnown: TimeZoneNames.isKnown)
      #expect(says == (readBack == value), "\(value)")
      if says { readingBack += 1 }
    }
    #expect(readingBack > 1000)
    #expect(values.count - readingBack > 1000)
  }

  /// Dates whose texts do not read back (a year of five digits, a zone the system does not
  /// know) are still parsed, and reported as `validate` reports them.
  @Test func datesWhoseTextsDoNotReadBackAreReportedAsValidateReportsThem() throws {
    let directory = TemporaryDirectory()
    let store = try Store(path: directory.file("store.sqlite"))
    defer { store.close() }
    let checks = WrittenValueChecks(watching: store)
    let farFuture = Timestamp(
      millisecondsSinceEpoch: Int64(CivilTime.days(year: 10_000, month: 3, day: 1)) * 86_400_000)
    let fine = Timestamp(millisecondsSinceEpoch: 1_780_000_000_000)
    let nine = try #require(LocalDateTime(iso: "2026-05-01T09:00:00"))
    try store.write {
      let list = try store.insertList(ReminderList(id: "L1", name: "L"))
      let reminders = [
        Reminder(id: "created", listID: "L1", title: "t", createdAt: farFuture),
        Reminder(id: "edited", listID: "L1", title: "t", createdAt: fine, editedAt: farFuture),
        Reminder(id: "completed", listID: "L1", title: "t", isDone: true, completedAt: farFuture),
        Reminder(id: "zone", listID: "L1", title: "t", dueDate: .zoned(nine, timeZone: "Not/AZone")),
        Reminder(
          id: "due-year", listID: "L1", title: "t",
          dueDate: .utc(LocalDateTime(secondsSinceEpoch: farFuture.millisecondsSinceEpoch / 1000))),
        Reminder(
          id: "start-after", listID: "L1", title: "t", dueDate: .floating(nine),
          startDate: .zoned(
            LocalDateTime(secondsSinceEpoch: nine.secondsSinceEpoch + 86_400), timeZone: "Europe/Berlin")),
        Reminder(id: "done-without-completion", listID: "L1", title: "t", isDone: true, editedAt: fine),
        Reminder(id: "completion-not-done", listID: "L1", title: "t", completedAt: fine),
        Reminder(
          id: "edited-before", listID: "L1", title: "t",
          createdAt: Timestamp(millisecondsSinceEpoch: fine.millisecondsSinceEpoch + 250), editedAt: fine),
        Reminder(
          id: "fine", listID: "L1", title: "t", isDone: true, completedAt: fine,
          dueDate: .zoned(nine, timeZone: "Europe/Berlin"),
          createdAt: fine, editedAt: fine),
      ]
      for reminder in reminders { try store.insertReminder(reminder, listRowID: list, parentRowID: nil) }
    }
    checks.stop()
    let described = { (findings: [Finding]) in
      findings.map { "\($0.rule.id) \($0.subject.uid ?? "") \($0.message)" }.sorted()
    }
    let written = described(checks.findings)
    let validated = described(try Validator(store: store).run().findings.filter { $0.subject.table == "reminders" })
    #expect(written == validated)
    let rules = Set(checks.findings.map { "\($0.rule.id) \($0.subject.uid ?? "")" })
    #expect(
      rules.isSuperset(of: [
        "invalid-date created", "invalid-date edited", "invalid-date completed", "invalid-time-zone zone",
        "invalid-date due-year", "start-after-due start-after", "done-without-completion done-without-completion",
        "completion-without-done completion-not-done", "edited-before-created edited-before",
      ]))
    #expect(!written.contains { $0.contains(" fine ") })
  }

  /// A row written from a reminder spells its times into the statement's parameters
  /// (`Timestamp.appendDescription`, `TimestampText`): the bytes are the description's, and a
  /// time kept as an instant equals, and hashes as, its text.
  @Test func aTimeWrittenInPlaceIsItsDescription() {
    var random = SeededGenerator(seed: 3340)
    let spans: [ClosedRange<Int64>] = [
      -400_000_000_000_000...400_000_000_000_000, -62_135_596_800_000 - 86_400_000...253_402_300_799_999 + 86_400_000,
      -100_000...100_000,
    ]
    var instants = Self.yearEdges
    for _ in 0..<20_000 {
      let value = Int64.random(in: spans.randomElement(using: &random)!, using: &random)
      instants.append(Bool.random(using: &random) ? value - value % 1000 : value)
    }
    for instant in instants {
      let timestamp = Timestamp(millisecondsSinceEpoch: instant)
      var bytes: [UInt8] = [0x41]
      timestamp.appendDescription(to: &bytes)
      #expect(bytes == [0x41] + Array(timestamp.description.utf8), "\(instant)")
      let kept = TimestampText(timestamp)
      let read = TimestampText(timestamp.description)
      #expect(kept == read && read == kept)
      #expect(kept.hashValue == read.hashValue)
      #expect(kept.text == timestamp.description)
      #expect(kept != TimestampText(Timestamp(millisecondsSinceEpoch: instant &+ 1)))
      #expect(kept != TimestampText(timestamp.description + " "))
    }
  }

  /// The day a written row's due is indexed by comes from its value when its texts read back
  /// as it, and is the day its texts give in every case.
  @Test func aDueDayFromTheValueIsTheDayItsTextsGive() {
    var random = SeededGenerator(seed: 2027)
    let zones = ["Europe/Berlin", "Pacific/Kiritimati", "UTC", "Not/AZone", "EST", ""]
    let dayCounts: [ClosedRange<Int>] = [-800_000...3_000_000, -719_162...2_932_896]
    var fromText = 0
    for round in 0..<20_000 {
      let days = Int.random(in: dayCounts.randomElement(using: &random)!, using: &random)
      let time = LocalDateTime(secondsSinceEpoch: Int64(days) * 86_400 + Int64.random(in: 0..<86_400, using: &random))
      let value: DueDate =
        switch round % 4 {
        case 0: .date(LocalDate(daysSinceEpoch: days))
        case 1: .floating(time)
        case 2: .utc(time)
        default: .zoned(time, timeZone: zones.randomElement(using: &random)!)
        }
      let texts = ReminderIndexValues.dueDay(due: value.isoText, timeZone: value.timeZoneIdentifier)
      #expect(ReminderIndexValues.dueDay(of: value) == texts, "\(value)")
      if texts == nil { fromText += 1 }
    }
    // Both kinds of due are met: days the texts give, and texts that give none.
    #expect(fromText > 1000)
    #expect(ReminderIndexValues.dueDay(of: nil) == nil)
  }
}
