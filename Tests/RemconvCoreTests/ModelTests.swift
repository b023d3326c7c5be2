import Foundation
import Testing

@testable import RemconvCore

@Suite struct DueDateTests {
  @Test func eachKindParsesFromItsShapeAndWritesBackUnchanged() throws {
    let cases: [(String, String?, DueDate.Kind)] = [
      ("2026-11-30", nil, .date),
      ("2026-11-30T09:00:00", nil, .floating),
      ("2026-11-30T09:00:00Z", nil, .utc),
      ("2026-11-30T09:00:00", "Europe/Berlin", .zoned),
    ]
    for (text, zone, kind) in cases {
      let due = try DueDate(isoText: text, timeZone: zone)
      #expect(due.kind == kind)
      #expect(due.isoText == text)
      #expect(due.timeZoneIdentifier == zone)
    }
  }

  @Test func refusesWhatWouldChangeTheKind() {
    #expect(throws: DueDateError.zoneOnDate("2026-11-30")) {
      try DueDate(isoText: "2026-11-30", timeZone: "Europe/Berlin")
    }
    #expect(throws: DueDateError.zoneOnUTC("2026-11-30T09:00:00Z")) {
      try DueDate(isoText: "2026-11-30T09:00:00Z", timeZone: "Europe/Berlin")
    }
    #expect(throws: DueDateError.unknownZone("Mars/Olympus")) {
      try DueDate(isoText: "2026-11-30T09:00:00", timeZone: "Mars/Olympus")
    }
    #expect(throws: DueDateError.unparsable("2026-02-30")) { try DueDate(isoText: "2026-02-30", timeZone: nil) }
    #expect(throws: DueDateError.unparsable("20261399")) { try DueDate(isoText: "20261399", timeZone: nil) }
  }

  /// Read from its bytes in place (as a view reads a row), a due date is what its text gives,
  /// and so is each refusal, named by the same text.
  @Test func readFromItsBytesItIsWhatItsTextGives() {
    let texts = [
      "2026-11-30", "20261130", "2026-11-30T09:00:00", "2026-11-30 09:00", "2026-11-30T09:00:00Z", "2026-02-30",
      "2026-11-30T25:00:00Z", "Z", "", "tomorrow", "2026-11-30T09:00:00z", "２０２６-11-30", "2026-11-30\u{0}",
    ]
    for text in texts {
      for zone in [nil, "Europe/Berlin", "Mars/Olympus", ""] as [String?] {
        let fromText = Result { () throws(DueDateError) in
          try DueDate(isoText: text, timeZone: zone, zoneIsKnown: TimeZoneNames.isKnown)
        }
        var bytes = text
        let fromBytes = bytes.withUTF8 { utf8 in
          Result { () throws(DueDateError) in
            try DueDate(isoBytes: utf8, timeZone: zone, zoneIsKnown: TimeZoneNames.isKnown)
          }
        }
        #expect(fromBytes == fromText, "\(text) \(zone ?? "-")")
      }
    }
    #expect(throws: DueDateError.unparsable("2026-11-\u{FFFD}")) {
      try [UInt8](Array("2026-11-".utf8) + [0xFF]).withUnsafeBufferPointer { bytes throws(DueDateError) in
        try DueDate(isoBytes: bytes, timeZone: nil, zoneIsKnown: { _ in true })
      }
    }
  }

  @Test func anAllDayDueIsTheSameDayInEveryZone() throws {
    let due = try DueDate(isoText: "2026-11-30", timeZone: nil)
    for zone in ["Pacific/Auckland", "America/Los_Angeles", "UTC", "Pacific/Kiritimati"] {
      let timeZone = try #require(TimeZone(identifier: zone))
      #expect(due.day(in: timeZone) == LocalDate(year: 2026, month: 11, day: 30))
    }
  }

  @Test func timedDuesFallOnTheLocalDay() throws {
    let utc = try DueDate(isoText: "2026-11-30T23:30:00Z", timeZone: nil)
    let auckland = try #require(TimeZone(identifier: "Pacific/Auckland"))
    let losAngeles = try #require(TimeZone(identifier: "America/Los_Angeles"))
    #expect(utc.day(in: auckland) == LocalDate(year: 2026, month: 12, day: 1))
    #expect(utc.day(in: losAngeles) == LocalDate(year: 2026, month: 11, day: 30))
    let berlin = try DueDate(isoText: "2026-11-30T00:30:00", timeZone: "Europe/Berlin")
    #expect(berlin.day(in: losAngeles) == LocalDate(year: 2026, month: 11, day: 29))
    let floating = try DueDate(isoText: "2026-11-30T00:30:00", timeZone: nil)
    #expect(floating.day(in: losAngeles) == LocalDate(year: 2026, month: 11, day: 30))
  }
}

@Suite struct TimestampTests {
  @Test(arguments: [
    ("2026-11-30T09:00:00Z", "2026-11-30T09:00:00Z"),
    ("2026-11-30T10:00:00+01:00", "2026-11-30T09:00:00Z"),
    ("2026-11-30T04:00:00-0500", "2026-11-30T09:00:00Z"),
    ("20261130T090000Z", "2026-11-30T09:00:00Z"),
    ("2026-11-30T09:00:00.1234567Z", "2026-11-30T09:00:00.123Z"),
    ("1969-12-31T23:59:59.500Z", "1969-12-31T23:59:59.500Z"),
  ])
  func parsesOffsetsAndFractionsAndWritesUTC(input: String, written: String) throws {
    let timestamp = try #require(Timestamp(iso: input))
    #expect(timestamp.description == written)
    #expect(Timestamp(iso: written) == timestamp)
  }

  @Test(arguments: ["2026-11-30T09:00:00", "yesterday", "2026-11-30", "2026-11-30T25:00:00Z", ""])
  func refusesTimesWithoutAZoneOrOutOfRange(input: String) {
    #expect(Timestamp(iso: input) == nil)
  }

  @Test(arguments: [
    "2026-11-30T09:00:00+05:3", "2026-11-30T09:00:00+05:3Z", "2026-11-30T09:00:00+5", "2026-11-30T09:0:00Z",
    "2026-11-30T09:00:0Z", "2026-1-30T09:00:00Z", "2026-11-30T09:00:00+0x:00", "2026-11-30T09:00:00.Z",
  ])
  func refusesShortOrBrokenFields(input: String) {
    #expect(Timestamp(iso: input) == nil)
  }

  @Test func anOffsetWithoutMinutesCountsWholeHours() throws {
    let timestamp = try #require(Timestamp(iso: "2026-11-30T10:00:00+01"))
    #expect(timestamp.description == "2026-11-30T09:00:00Z")
  }

  /// Dates and times are spelled into inline bytes (`DigitWriter`): the texts are those of
  /// `pad`, which spells numbers with `String(_:)`, for years of four digits and more.
  @Test func datesAndTimesSpellTheirFieldsAsPaddedNumbers() {
    for days in stride(from: 0, through: 300_000_000, by: 2_999_993) {
      let date = LocalDate(daysSinceEpoch: days)
      #expect(date.description == "\(pad(date.year, 4))-\(pad(date.month, 2))-\(pad(date.day, 2))")
      let seconds = Int64(days) * 86400 + 3 * 3600 + 4 * 60 + 5
      let time = LocalDateTime(secondsSinceEpoch: seconds)
      #expect(time.description == "\(date.description)T03:04:05")
      let timestamp = Timestamp(millisecondsSinceEpoch: seconds * 1000 + 7)
      #expect(timestamp.description == "\(date.description)T03:04:05.007Z")
      #expect(Timestamp(millisecondsSinceEpoch: seconds * 1000).description == "\(date.description)T03:04:05Z")
    }
    #expect(Timestamp(millisecondsSinceEpoch: -1).description == "1969-12-31T23:59:59.999Z")
  }

  @Test func civilDatesRoundTripAcrossCenturies() {
    for days in stride(from: -800_000, through: 800_000, by: 997) {
      let date = LocalDate(daysSinceEpoch: days)
      #expect(date.daysSinceEpoch == days)
    }
    #expect(LocalDate(year: 2024, month: 2, day: 29) != nil)
    #expect(LocalDate(year: 2100, month: 2, day: 29) == nil)
    #expect(LocalDate(year: 2000, month: 2, day: 29) != nil)
  }
}

@Suite struct ListNameTests {
  @Test func namesCollideAfterTrimmingNormalisationAndCaseFolding() {
    let key = ListName.key(for: "Groceries")
    #expect(ListName.key(for: "groceries ") == key)
    #expect(ListName.key(for: "  GROCERIES") == key)
    #expect(ListName.key(for: "Gro\u{0308}ceries") == ListName.key(for: "Gr\u{00F6}ceries"))
    #expect(ListName.key(for: "Groceries 2") != key)
  }

  @Test func storedNamesKeepTheirCase() {
    #expect(ListName.normalized("  Gro\u{0308}ceries ") == "Gr\u{00F6}ceries")
  }

  @Test func coloursAreNormalisedOrRefused() {
    #expect(ListColor.normalized("#34c759") == "#34C759")
    #expect(ListColor.normalized("#34C759FF") == "#34C759")
    #expect(ListColor.normalized("#abc") == "#AABBCC")
    #expect(ListColor.normalized("red") == nil)
    #expect(ListColor.normalized("#12345") == nil)
  }
}

@Suite struct StableIDTests {
  @Test func derivedIDsAreDeterministicAndUUIDShaped() {
    let first = StableID.derived(["reminder", "Groceries", "Milk"])
    #expect(first == StableID.derived(["reminder", "Groceries", "Milk"]))
    #expect(first != StableID.derived(["reminder", "Groceries", "Milk "]))
    // Joining must be unambiguous: ("ab", "c") is not ("a", "bc").
    #expect(StableID.derived(["ab", "c"]) != StableID.derived(["a", "bc"]))
    #expect(
      first.range(of: #"^[0-9A-F]{8}-[0-9A-F]{4}-5[0-9A-F]{3}-[0-9A-F]{4}-[0-9A-F]{12}$"#, options: .regularExpression)
        != nil)
  }

  @Test func repeatedItemsGetDistinctIDs() {
    let generator = DerivedIDGenerator()
    let first = generator.next(["Groceries", "Milk"])
    let second = generator.next(["Groceries", "Milk"])
    #expect(first != second)
    let again = DerivedIDGenerator()
    #expect(again.next(["Groceries", "Milk"]) == first)
    #expect(again.next(["Groceries", "Milk"]) == second)
  }

  @Test func occurrencesAreNumberedInTheKey() {
    // The generator keeps only a digest of each key; the UIDs are those of the keys themselves.
    let generator = DerivedIDGenerator()
    let parts = ["reminder", "Groceries", String(repeating: "long title ", count: 100)]
    #expect(generator.next(parts) == StableID.derived(parts))
    #expect(generator.next(["reminder", "Groceries", "Eggs"]) == StableID.derived(["reminder", "Groceries", "Eggs"]))
    #expect(generator.next(parts) == StableID.derived(parts + ["#2"]))
    #expect(generator.next(parts) == StableID.derived(parts + ["#3"]))
    // Parts that a separator would have joined into the same text stay apart.
    #expect(generator.next(["a\u{1F}b"]) == StableID.derived(["a\u{1F}b"]))
    #expect(generator.next(["a", "b"]) == StableID.derived(["a", "b"]))
  }
}

@Suite struct JSONParserTests {
  @Test func keepsNumbersAsWritten() throws {
    let value = try JSONParser.parse(#"{"big": 12345678901234567890, "urgency": 4.20, "e": -1.5e-3}"#)
    #expect(value["big"] == .number("12345678901234567890"))
    #expect(value["urgency"] == .number("4.20"))
    #expect(JSONText.encode(value) == #"{"big":12345678901234567890,"e":-1.5e-3,"urgency":4.20}"#)
  }

  @Test func decodesEscapesAndSurrogatePairs() throws {
    let value = try JSONParser.parse(#""tab\t quote\" \u00e9 \ud83d\ude00""#)
    #expect(value == .string("tab\t quote\" é 😀"))
    #expect(try JSONParser.parse(JSONText.encode(value)) == value)
  }

  @Test(arguments: [
    (#"{"a": 01}"#, "is not a valid number"),
    (#"{"a": "\ud800"}"#, "lone UTF-16 surrogate"),
    (#"{"a": tru}"#, "expected 'true'"),
    (#"{"a" 1}"#, "expected ':'"),
    (#"[1,]"#, "unexpected character ']'"),
    (String(repeating: "[", count: 300), "nested deeper than the limit"),
  ])
  func reportsProblemsWithTheirPosition(input: String, message: String) {
    do {
      _ = try JSONParser.parse(input)
      Issue.record("parsed \(input)")
    } catch {
      #expect("\(error)".contains(message), "\(error)")
      #expect("\(error)".contains("<json>:1:"))
    }
  }
}

@Suite struct JSONLimitTests {
  @Test func aStringOverTheFieldLimitIsRefusedWhereItStarts() {
    let long = String(repeating: "a", count: InputLimits.maximumFieldSize + 1)
    do {
      _ = try JSONParser.parse("{\n\"title\": \"\(long)\"}")
      Issue.record("parsed a string over the limit")
    } catch {
      #expect("\(error)".contains("<json>:2:10: malformed JSON: a string is longer than the limit"), "\(error)")
    }
  }
}

/// The slots readers fill by key (`ObjectMembers`) stand for the keys of the JSON contract.
@Suite struct MemberKeyTests {
  @Test func eachKeyIsNamedAsInTheContract() {
    #expect(ReminderKey.allCases.map(\.name) == ReminderJSON.reminderKeys)
    #expect(ReminderKey.allCases.map { String(describing: $0) } == ReminderJSON.reminderKeys)
    #expect(ListKey.allCases.map(\.name) == ReminderJSON.listKeys + ["reminders"])
    #expect(ListKey.allCases.map { String(describing: $0) } == ReminderJSON.listKeys + ["reminders"])
  }

  @Test func membersOfAParsedObjectGoToTheirSlotsOrToTheOthers() {
    let members = ObjectMembers<ReminderKey>(
      ["title": .string("Buy milk"), "flagged": .bool(true), "colour": .string("red"), "list": .string("Home")],
      ignoring: ["list"])
    #expect(members[.title] == .string("Buy milk"))
    #expect(members[.flagged] == .bool(true))
    #expect(members[.notes] == nil)
    #expect(members.others == ["colour": .string("red")], "an ignored member is the caller's, not extra")
    #expect(!members.isEmpty)
    #expect(ObjectMembers<ReminderKey>([:]).isEmpty)
  }

  @Test func unknownMembersAndRejectedValuesAreKeptInExtra() {
    let diagnostics = DiagnosticLog()
    let reminder = ReminderJSON.decodeReminder(
      ["title": .string("Call Anna"), "priority": .string("urgent"), "colour": .string("red")], listID: "l1",
      at: SourceLocation(file: "t.json", line: 3), diagnostics: diagnostics, derivedIDs: DerivedIDGenerator())
    #expect(reminder.title == "Call Anna")
    #expect(reminder.priority == Priority.none)
    #expect(reminder.extra["json"] == .object(["colour": .string("red")]))
    #expect(reminder.extra["invalid"] == .object(["priority": .string("urgent")]))
    #expect(diagnostics.entries.map(\.code) == ["invalid-value"])
  }
}

@Suite struct BlankTextTests {
  /// `isBlank` answers what `allSatisfy(\.isWhitespace)` answers, quicker for a text that
  /// starts with a printable ASCII character.
  @Test(arguments: [
    "", " ", "\t\n\r", "\u{3000}", "\u{A0}\u{2028}", "x", " x", "\u{3000}a", "é", "~", "\u{7F}", "\u{1}",
    "\r\n", "a b",
  ])
  func isBlankIsAllWhiteSpace(text: String) {
    #expect(text.isBlank == text.allSatisfy(\.isWhitespace))
  }
}
