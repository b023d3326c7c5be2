import Testing

@testable import RemconvCore

/// The recurrence and alarms written straight as bytes (`ScheduleJSON.text`, `append`) spell
/// exactly what encoding their JSON value spells, for every shape a value can take.
@Suite struct ScheduleJSONTextTests {
  static func wall(_ text: String) -> LocalDateTime { LocalDateTime(iso: text)! }

  static let dates: [DueDate] = [
    .date(LocalDate(iso: "2026-12-08")!), .floating(wall("2026-12-08T09:00:00")), .utc(wall("2026-12-08T09:00:00")),
    .zoned(wall("2026-12-08T09:30:15"), timeZone: "Europe/Berlin"),
  ]

  static let recurrences: [Recurrence] = [
    Recurrence(rule: "FREQ=DAILY"),
    Recurrence(rule: "FREQ=WEEKLY;BYDAY=TU", exceptionDates: dates, basis: .completion),
    Recurrence(rule: "FREQ=MONTHLY", additionalDates: dates.reversed()),
    Recurrence(rule: "FREQ=YEARLY", exceptionDates: [dates[3]], additionalDates: [dates[0], dates[2]]),
    // Text JSON escapes: quotes, backslashes, control characters, and text beyond ASCII.
    Recurrence(rule: "X-NAME=\"a\\b\"\n\t\u{1}é🙂"),
  ]

  static let alarms: [[Alarm]] = [
    [],
    [Alarm(trigger: .relative(seconds: -900, to: .due))],
    [Alarm(trigger: .relative(seconds: 0, to: .start), action: "AUDIO", text: "")],
    [Alarm(trigger: .relative(seconds: 86_400, to: .due), action: "EMAIL", text: "Gleich \"jetzt\"\r\n\\ 🙂")],
    [
      Alarm(trigger: .absolute(Timestamp(iso: "2026-12-08T07:45:00Z")!), text: "at"),
      Alarm(trigger: .absolute(Timestamp(iso: "2026-12-08T07:45:00.250Z")!), action: "DISPLAY\u{7}"),
      Alarm(trigger: .relative(seconds: -1_209_600, to: .start)),
    ],
  ]

  @Test(arguments: recurrences)
  func aRecurrenceIsSpelledAsItsValueEncodes(_ recurrence: Recurrence) throws {
    let expected = JSONText.encode(ScheduleJSON.value(recurrence))
    #expect(ScheduleJSON.text(recurrence) == expected)
    var appended = Array("x".utf8)
    ScheduleJSON.append(recurrence, to: &appended)
    #expect(appended == Array(("x" + expected).utf8))
    #expect(try ScheduleJSON.recurrence(JSONParser.parse(ScheduleJSON.text(recurrence))) == recurrence)
    #expect(ScheduleJSON.lengthBound(recurrence) >= expected.utf8.count)
  }

  @Test(arguments: alarms)
  func alarmsAreSpelledAsTheirValueEncodes(_ alarms: [Alarm]) throws {
    let expected = JSONText.encode(ScheduleJSON.value(alarms))
    #expect(ScheduleJSON.text(alarms) == expected)
    var appended = Array("x".utf8)
    ScheduleJSON.append(alarms, to: &appended)
    #expect(appended == Array(("x" + expected).utf8))
    #expect(try ScheduleJSON.alarms(JSONParser.parse(ScheduleJSON.text(alarms))) == alarms)
    #expect(ScheduleJSON.lengthBound(alarms) >= expected.utf8.count)
  }

  /// The bounds hold for texts that escape to six bytes a byte and for many dates and alarms.
  @Test func theLengthBoundsHoldAtTheirWorst() {
    let control = String(repeating: "\u{1}", count: 300)
    let zoned = DueDate.zoned(Self.wall("0001-01-01T00:00:00"), timeZone: control)
    let recurrence = Recurrence(
      rule: control, exceptionDates: Array(repeating: zoned, count: 50),
      additionalDates: Array(repeating: .utc(Self.wall("9999-12-31T23:59:59")), count: 50), basis: .completion)
    #expect(ScheduleJSON.lengthBound(recurrence) >= ScheduleJSON.text(recurrence).utf8.count)
    let alarms =
      Array(
        repeating: Alarm(trigger: .relative(seconds: Int.min, to: .start), action: control, text: control), count: 50)
      + [Alarm(trigger: .absolute(Timestamp(iso: "9999-12-31T23:59:59.999Z")!), action: control)]
    #expect(ScheduleJSON.lengthBound(alarms) >= ScheduleJSON.text(alarms).utf8.count)
  }
}
