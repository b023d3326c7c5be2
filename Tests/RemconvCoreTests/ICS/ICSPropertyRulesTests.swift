import Foundation
import Testing

@testable import RemconvCore

/// remconv's own rules for the property lines it keeps (docs/formats-ics.md, *Who parses*).
@Suite struct ICSPropertyRulesTests {
  private func todo(_ lines: [String]) throws -> (Reminder, ICSTest.ReadResult) {
    let text =
      (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//t//EN", "BEGIN:VTODO", "UID:r1", "SUMMARY:t"] + lines
      + ["END:VTODO", "END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
    let result = try ICSTest.read(text: text)
    return (try #require(result.reminder("r1")), result)
  }

  private func strings(_ value: JSONValue?) -> [String] { value?.arrayValue?.compactMap(\.stringValue) ?? [] }

  @Test func typedValuesOfKeptPropertiesMustHaveTheirSyntax() throws {
    let refused = [
      "SEQUENCE:x", "REPEAT:1.5", "DURATION:PT", "DURATION:P1DT", "DURATION:p1d", "GEO:1.5;x", "GEO:1",
      "RRULE:FREQ=FOO", "RRULE:INTERVAL=2", "RRULE:FREQ=DAILY;COUNT=x", "RRULE:FREQ=DAILY;BYDAY=XX",
      "RRULE:FREQ=WEEKLY;FOO=1", "RRULE:FREQ=DAILY;FREQ=WEEKLY", "EXDATE:20260101T000000,x",
      "RDATE;VALUE=PERIOD:garbage", "RECURRENCE-ID:x", "DTSTART:20260101T250000", "DTSTART:20261301",
    ]
    let kept = [
      "SEQUENCE:-3", "DURATION:P1W", "DURATION:+P1DT2H", "GEO:52.52;13.40", "RRULE:freq=daily;byday=1MO,-1FR",
      "RRULE:FREQ=WEEKLY;UNTIL=20261231T000000Z;WKST=MO", "EXDATE;VALUE=DATE:20260101,20260102",
      "RDATE;VALUE=PERIOD:20260101T000000Z/PT1H", "X-MOZ-GENERATION:3", "x-lower:kept", "CLASS:whatever",
    ]
    let (reminder, result) = try todo(refused + kept)
    #expect(strings(reminder.extra["ical"]?["invalid"]) == refused)
    #expect(strings(reminder.extra["ical"]?["lines"]) == kept)
    #expect(result.warnings("ical-error").count == refused.count)
    #expect(result.warnings("ical-error").allSatisfy { $0.uid == "r1" && ($0.location?.line ?? 0) > 6 })
  }

  @Test func namesMustBeRegisteredOrExtensionsAndValuesNonEmpty() throws {
    let refused = ["LAST-MOD:20260101T100000", "PERCENT_COMPLETE:100", "LOCATION:", "X-EMPTY:", "NO COLON HERE"]
    let (reminder, result) = try todo(refused + ["TRANSP:OPAQUE", "ESTIMATED-DURATION:PT1H"])
    #expect(strings(reminder.extra["ical"]?["invalid"]) == refused)
    #expect(strings(reminder.extra["ical"]?["lines"]) == ["TRANSP:OPAQUE", "ESTIMATED-DURATION:PT1H"])
    let messages = result.warnings("ical-error").map(\.message)
    #expect(messages.contains { $0.hasPrefix("LAST-MOD is not a registered property") })
    #expect(messages.contains { $0.hasPrefix("'PERCENT_COMPLETE' is not a property name") })
    #expect(messages.contains { $0.hasPrefix("could not find a property name") })
  }

  @Test func aSubComponentOrOverrideKeepsABrokenLineAsXRemconvInvalid() throws {
    let (reminder, _) = try todo([
      "RRULE:FREQ=DAILY", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:garbage", "DESCRIPTION:", "END:VALARM",
    ])
    // The rule is a field; the VALARM without a readable TRIGGER stays as lines.
    #expect(reminder.recurrence == Recurrence(rule: "FREQ=DAILY"))
    #expect(
      strings(reminder.extra["ical"]?["lines"]) == [
        "BEGIN:VALARM", "ACTION:DISPLAY", "X-REMCONV-INVALID:TRIGGER:garbage",
        "X-REMCONV-INVALID:DESCRIPTION:", "END:VALARM",
      ])
  }

  @Test func theReadValuesOfTheVTodoAreLeftToTheirReaders() throws {
    // DUE and PRIORITY are checked by the readers, which warn invalid-value, not by the rules.
    let (reminder, result) = try todo(["DUE:20261301", "PRIORITY:12"])
    #expect(strings(reminder.extra["ical"]?["invalid"]) == ["DUE:20261301", "PRIORITY:12"])
    #expect(result.warnings("invalid-value").count == 2)
    #expect(result.warnings("ical-error").isEmpty)
  }

  @Test func unescapeAndPartsKeepMultiByteTextWhole() throws {
    // A run after an escape may begin with a combining mark or a Prepend character, and a part
    // may end before one: slices are taken by bytes, not by Characters.
    #expect(ICSText.unescape("a\\n\u{301}b\\,\u{600}c") == "a\n\u{301}b,\u{600}c")
    #expect(ICSText.unescape("\u{600}\\;x\\\\") == "\u{600};x\\")
    let long = String(repeating: "Ünïcødé ", count: 10)
    #expect(ICSText.unescape(long + "\\n" + long) == long + "\n" + long)
    let parts = try #require(ContentLineParts("SUMMARY;LANGUAGE=\u{301}de:\u{301}" + long))
    #expect(parts.value == "\u{301}" + long)
    #expect(parts.parameter("LANGUAGE") == "\u{301}de")
  }
}
