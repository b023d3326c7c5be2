import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// Apple Reminders' recurrence rule, alarm and early-reminder rows as `recurrence` and `alarms`.
@Suite struct AppleRepeatsAndAlarmsTests {
  typealias Mapper = AppleRepeatsAndAlarms

  static func seconds(_ iso: String) -> SQLValue { .real(CoreDataFixtures.seconds(iso)) }

  @Test(
    arguments: [
      (["ZFREQUENCY": .integer(0), "ZINTERVAL": .integer(1)], false, "FREQ=DAILY"),
      (
        ["ZFREQUENCY": .integer(1), "ZINTERVAL": .integer(2), "ZENDDATE": seconds("2027-06-30T00:00:00Z")], true,
        "FREQ=WEEKLY;INTERVAL=2;UNTIL=20270630"
      ),
      (
        ["ZFREQUENCY": .integer(2), "ZOCCURRENCECOUNT": .integer(12), "ZDAYSOFTHEMONTH": .text("[1,15]")], false,
        "FREQ=MONTHLY;COUNT=12;BYMONTHDAY=1,15"
      ),
      (
        [
          "ZFREQUENCY": .integer(1), "ZENDDATE": seconds("2027-03-31T14:30:00Z"), "ZFIRSTDAYOFTHEWEEK": .integer(2),
          "ZDAYSOFTHEWEEK": .text(#"[{"dayOfTheWeek":2,"weekNumber":0},{"dayOfTheWeek":4},{"dayOfTheWeek":6}]"#),
        ], false, "FREQ=WEEKLY;UNTIL=20270331T143000Z;BYDAY=MO,WE,FR;WKST=MO"
      ),
      (
        [
          "ZFREQUENCY": .integer(2), "ZSETPOSITIONS": .text("[-1]"),
          "ZDAYSOFTHEWEEK": .text(
            #"[{"dayOfTheWeek":2},{"dayOfTheWeek":3},{"dayOfTheWeek":4},{"dayOfTheWeek":5},{"dayOfTheWeek":6}]"#),
        ], false, "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1"
      ),
      (
        [
          "ZFREQUENCY": .text("3"), "ZMONTHSOFTHEYEAR": .blob(Array("[3,9]".utf8)),
          "ZDAYSOFTHEWEEK": .blob(Array(#"[{"dayOfTheWeek":3,"weekNumber":2}]"#.utf8)),
        ], false, "FREQ=YEARLY;BYMONTH=3,9;BYDAY=2TU"
      ),
      (
        [
          "ZFREQUENCY": .integer(3), "ZWEEKSOFTHEYEAR": .text("[20,-1]"), "ZDAYSOFTHEYEAR": .text("[100]"),
          "ZDAYSOFTHEWEEK": .text(#"[{"dayOfTheWeek":1,"weekNumber":-1}]"#), "ZDAYSOFTHEMONTH": .text("[]"),
        ], false, "FREQ=YEARLY;BYWEEKNO=20,-1;BYYEARDAY=100;BYDAY=-1SU"
      ),
    ] as [([String: SQLValue], Bool, String)])
  func recurrenceRuleRowsAreRules(columns: [String: SQLValue], allDay: Bool, rule: String) throws {
    #expect(try Mapper.rule(columns, allDay: allDay).get() == rule)
  }

  @Test(
    arguments: [
      ([:], "ZFREQUENCY null"), (["ZFREQUENCY": .integer(9)], "ZFREQUENCY 9"),
      (["ZFREQUENCY": .integer(1), "ZINTERVAL": .integer(-2)], "ZINTERVAL -2"),
      (["ZFREQUENCY": .integer(1), "ZDAYSOFTHEWEEK": .text("Tuesday")], "ZDAYSOFTHEWEEK"),
      (["ZFREQUENCY": .integer(1), "ZDAYSOFTHEWEEK": .text(#"[{"dayOfTheWeek":8}]"#)], "dayOfTheWeek"),
      (["ZFREQUENCY": .integer(3), "ZMONTHSOFTHEYEAR": .text("[13]")], "13"),
      (["ZFREQUENCY": .integer(2), "ZDAYSOFTHEMONTH": .text("[0]")], "0"),
      (["ZFREQUENCY": .integer(2), "ZFIRSTDAYOFTHEWEEK": .integer(8)], "ZFIRSTDAYOFTHEWEEK 8"),
    ] as [([String: SQLValue], String)])
  func rowsThatAreNoRuleSayWhy(columns: [String: SQLValue], named: String) {
    guard case .failure(let unmapped) = Mapper.rule(columns, allDay: false) else {
      Issue.record("mapped")
      return
    }
    #expect(unmapped.reason.contains(named), "\(unmapped.reason)")
  }

  @Test func alarmsOfEveryTrigger() throws {
    let before = try Mapper.alarm(
      trigger: ("REMCDAlarmTimeIntervalTrigger", ["ZTIMEINTERVAL": .real(-900)]), timeZone: nil
    ).get()
    #expect(before == Alarm(trigger: .relative(seconds: -900, to: .due), action: "DISPLAY", text: nil))
    let components = #"{"year":2026,"month":11,"day":30,"hour":8,"minute":30}"#
    let zoned = try Mapper.alarm(
      trigger: ("REMCDAlarmDateTrigger", ["ZDATECOMPONENTSDATA": .blob(Array(components.utf8))]),
      timeZone: "Europe/Berlin"
    ).get()
    #expect(zoned.trigger == .absolute(try Dialects.timestamp("2026-11-30T07:30:00Z")))
    let ownZone = try Mapper.alarm(
      trigger: (
        "REMCDAlarmDateTrigger",
        ["ZDATECOMPONENTSDATA": .text(#"{"year":2026,"month":7,"day":1,"hour":9,"timeZone":"America/New_York"}"#)]
      ), timeZone: "Europe/Berlin"
    ).get()
    #expect(ownZone.trigger == .absolute(try Dialects.timestamp("2026-07-01T13:00:00Z")))

    for (trigger, reason) in [
      (("REMCDAlarmDateTrigger", ["ZDATECOMPONENTSDATA": .text(components)]), "no known time zone"),
      (("REMCDAlarmDateTrigger", ["ZDATECOMPONENTSDATA": .blob([0x62, 0x70])]), "no JSON date components"),
      (("REMCDAlarmLocationTrigger", ["ZTITLE": .text("Office")]), "REMCDAlarmLocationTrigger"),
      (("REMCDAlarmTimeIntervalTrigger", [:]), "no ZTIMEINTERVAL"),
    ] as [((String, [String: SQLValue]), String)] {
      guard case .failure(let unmapped) = Mapper.alarm(trigger: trigger, timeZone: nil) else {
        Issue.record("\(trigger) mapped")
        continue
      }
      #expect(unmapped.reason.contains(reason), "\(unmapped.reason)")
    }
    guard case .failure(let untriggered) = Mapper.alarm(trigger: nil, timeZone: nil) else {
      Issue.record("an alarm without a trigger mapped")
      return
    }
    #expect(untriggered.reason == "the alarm has no trigger")
  }

  @Test func earlyRemindersOfMinutesToWeeksAreAlarmsMonthsStay() {
    let text =
      #"{"dueDateDeltaAlerts":[{"dueDateDeltaUnit":0,"dueDateDeltaCount":-15,"identifier":"D1"},"#
      + #"{"dueDateDeltaUnit":1,"dueDateDeltaCount":-2},{"dueDateDeltaUnit":2,"dueDateDeltaCount":-1},"#
      + #"{"dueDateDeltaUnit":3,"dueDateDeltaCount":-1},{"dueDateDeltaUnit":4,"dueDateDeltaCount":-1}]}"#
    let early = Mapper.earlyReminders(.text(text))
    #expect(
      early.alarms.map(\.trigger) == [-900, -7200, -86400, -604_800].map { .relative(seconds: $0, to: .due) })
    #expect(early.unmapped == [.object(["dueDateDeltaUnit": .number("4"), "dueDateDeltaCount": .number("-1")])])
    #expect(Mapper.earlyReminders(nil).alarms.isEmpty && Mapper.earlyReminders(.text("")).unmapped.isEmpty)
    #expect(Mapper.earlyReminders(.text("not json")).unmapped == [.null])
  }

  @Test func aReminderRowsMapAndWhatDoesNotStays() {
    typealias Row = AppleRemindersDatabase.ObjectRow
    let objects = [
      Row(key: 1, entity: "REMCDRecurrenceRule", columns: ["ZFREQUENCY": .integer(1), "ZACCOUNT": .integer(1)]),
      Row(key: 2, entity: "REMCDRecurrenceRule", columns: ["ZFREQUENCY": .integer(0)]),
      Row(key: 3, entity: "REMCDAlarm", columns: ["ZTRIGGER": .integer(10)]),
      Row(key: 4, entity: "REMCDAlarm", columns: ["Z16_TRIGGER": .integer(11)]),
      Row(key: 5, entity: "REMCDAlarm", columns: [:]),
      Row(key: 6, entity: "REMCDLocation", columns: ["ZTITLE": .text("Home")]),
    ]
    let triggers: [Int64: Row] = [
      10: Row(key: 10, entity: "REMCDAlarmTimeIntervalTrigger", columns: ["ZTIMEINTERVAL": .integer(0)]),
      11: Row(key: 11, entity: "REMCDAlarmLocationTrigger", columns: ["ZTITLE": .text("Office")]),
    ]
    let mapping = Mapper.map(
      objects: objects, triggers: triggers, earlyReminders: nil, allDay: false, timeZone: "Europe/Berlin")
    #expect(mapping.recurrence?.rule == "FREQ=WEEKLY")
    #expect(mapping.alarms == [Alarm(trigger: .relative(seconds: 0, to: .due), action: "DISPLAY", text: nil)])
    // The first rule's column it does not read stays; the second rule, the alarms that do not
    // map (with their trigger) and the location row stay whole.
    #expect(mapping.keptObjects.map(\.key) == [1, 2, 4, 11, 5, 6])
    #expect(mapping.keptObjects.first?.columns == ["ZACCOUNT": SQLValue.integer(1)])
    #expect(mapping.reasons.count == 3, "\(mapping.reasons)")
    #expect(mapping.reasons[0] == "a second recurrence rule (the model holds one)")
  }

  /// A store an earlier remconv wrote kept the rows only in `extra.apple`.
  @Test func rowsKeptInExtraByAnEarlierVersionAreLifted() throws {
    var reminder = Reminder(id: "r", listID: "l", title: "Stand-up")
    reminder.dueDate = .zoned(try Dialects.localDateTime("2026-11-30T09:00:00"), timeZone: "Europe/Berlin")
    reminder.extra = [
      "apple": .object([
        "objects": .array([
          .object(["entity": .string("REMCDRecurrenceRule"), "ZFREQUENCY": .number("1"), "ZINTERVAL": .number("2")]),
          .object(["entity": .string("REMCDAlarm"), "ZRELATIVEOFFSET": .number("-900.0")]),
        ]),
        "columns": .object([
          "ZDUEDATEDELTAALERTSDATA": .string(
            #"{"dueDateDeltaAlerts":[{"dueDateDeltaUnit":0,"dueDateDeltaCount":-5}]}"#),
          "ZICSURL": .string("https://example.com"),
        ]),
      ])
    ]
    var lifted = reminder
    Mapper.lift(&lifted)
    #expect(lifted.recurrence?.rule == "FREQ=WEEKLY;INTERVAL=2")
    #expect(lifted.alarms.map(\.trigger) == [.relative(seconds: -300, to: .due)])
    #expect(lifted.extra["apple"]?["columns"] == .object(["ZICSURL": .string("https://example.com")]))
    #expect(
      lifted.extra["apple"]?["objects"]
        == .array([.object(["entity": .string("REMCDAlarm"), "ZRELATIVEOFFSET": .number("-900.0")])]),
      "an alarm whose trigger was not kept stays")
    var twice = lifted
    ExtraScheduleLifting.lift(&twice)
    #expect(twice == lifted, "lifting twice changes nothing")
    // Through the hook every read goes through.
    #expect(ExtraScheduleLifting.lifted(reminder) == lifted)
  }
}

/// The fixture account read by `--format apple-reminders`: every mapped case of the rows.
@Suite struct AppleRemindersRepeatsImportTests {
  @Test func theFixturesRulesAlarmsAndEarlyRemindersAreFields() throws {
    let folder = TemporaryDirectory()
    let uuid = "A1111111-1111-4111-8111-111111111111"
    let path = folder.file("Data-\(uuid).sqlite")
    let holder = try CoreDataFixtures.appleReminders(at: path, layout: .current, storeUUID: uuid)
    let outcome = try Dialects.read(AppleRemindersFormat.descriptor, path: path)
    withExtendedLifetime(holder) {}

    let oat = try #require(outcome.reminder("UID-OAT"))
    #expect(oat.recurrence == Recurrence(rule: "FREQ=WEEKLY;INTERVAL=2;UNTIL=20270630"), "all-day: UNTIL a day")
    #expect(oat.alarms == [Alarm(trigger: .relative(seconds: -900, to: .due))])
    #expect(oat.extra["apple"]?["objects"] == nil, "mapped rows are not kept twice")

    let forecast = try #require(outcome.reminder("UID-FORECAST"))
    #expect(forecast.recurrence?.rule == "FREQ=MONTHLY;COUNT=12;BYMONTHDAY=1,15")
    #expect(forecast.alarms == [Alarm(trigger: .absolute(try Dialects.timestamp("2026-11-30T07:30:00Z")))])
    #expect(forecast.extra["apple"]?["objects"] == nil, "an alarm marked for deletion is not kept")

    let standUp = try #require(outcome.reminder("UID-STANDUP"))
    #expect(standUp.recurrence?.rule == "FREQ=WEEKLY;UNTIL=20270331T143000Z;BYDAY=MO,WE,FR;WKST=MO")
    #expect(
      standUp.alarms.map(\.trigger) == [.relative(seconds: -900, to: .due), .relative(seconds: -86400, to: .due)])
    // The alarm at a place stays with its trigger; the early reminder of a month stays.
    let kept = try #require(standUp.extra["apple"]?["objects"]?.arrayValue)
    #expect(kept.compactMap { $0["entity"]?.stringValue } == ["REMCDAlarm", "REMCDAlarmLocationTrigger"])
    #expect(kept.last?["ZTITLE"] == .string("Office"))
    #expect(
      standUp.extra["apple"]?["columns"]?["ZDUEDATEDELTAALERTSDATA"]
        == .string(#"{"dueDateDeltaAlerts":[{"dueDateDeltaCount":-1,"dueDateDeltaUnit":4}]}"#))

    let ingredients = try #require(outcome.reminder("CK-INGREDIENTS"))
    #expect(ingredients.recurrence?.rule == "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1")
    let vanilla = try #require(outcome.reminder(titled: "Vanilla pods"))
    #expect(vanilla.recurrence?.rule == "FREQ=YEARLY;BYMONTH=3,9;BYDAY=2TU")

    // A rule of an unknown frequency stays in extra, reported.
    let walOnly = try #require(outcome.reminder("UID-WAL"))
    #expect(walOnly.recurrence == nil)
    #expect(walOnly.extra["apple"]?["objects"]?.arrayValue?.first?["ZFREQUENCY"] == .number("9"))
    let reported = outcome.warnings("unmapped-value").map { ($0.uid ?? "", $0.message) }
    #expect(reported.contains { $0.0 == "UID-WAL" && $0.1.contains("ZFREQUENCY 9 is no EventKit frequency") })
    #expect(reported.contains { $0.0 == "UID-STANDUP" && $0.1.contains("REMCDAlarmLocationTrigger") })
    #expect(reported.contains { $0.0 == "UID-STANDUP" && $0.1.contains("early reminders") })
    #expect(reported.count == 3, "\(reported)")
  }
}
