import Foundation
import Testing

@testable import RemconvCore

/// The app dialects' own words for a repeat and an alarm, as RRULEs and offsets.
@Suite struct AppRecurrenceTranslationTests {
  // MARK: Microsoft To Do: recurrence.pattern and recurrence.range

  private func graph(_ pattern: String, range: String = #"{"type":"noEnd"}"#) throws -> String? {
    let value = try JSONParser.parse(#"{"pattern":\#(pattern),"range":\#(range)}"#)
    guard case .success(let translation) = GraphRecurrence.rule(of: value) else { return nil }
    return translation.rule
  }

  @Test func everyGraphPatternTypeHasItsRule() throws {
    // The placeholders Graph fills in for members a type does not use are not read.
    let placeholders = #""month":0,"dayOfMonth":0,"daysOfWeek":[],"firstDayOfWeek":"sunday","index":"first""#
    #expect(try graph(#"{"type":"daily","interval":1,\#(placeholders)}"#) == "FREQ=DAILY")
    #expect(try graph(#"{"type":"daily","interval":3}"#) == "FREQ=DAILY;INTERVAL=3")
    #expect(
      try graph(#"{"type":"weekly","interval":1,"daysOfWeek":["tuesday"],"firstDayOfWeek":"sunday"}"#)
        == "FREQ=WEEKLY;BYDAY=TU", "one week at a time: the week start changes nothing")
    #expect(
      try graph(
        #"{"type":"weekly","interval":2,"daysOfWeek":["monday","tuesday","wednesday","thursday","friday"],"firstDayOfWeek":"sunday"}"#
      ) == "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TU,WE,TH,FR", "a week from Sunday holds the same weekdays")
    #expect(
      try graph(#"{"type":"weekly","interval":2,"daysOfWeek":["saturday","sunday"],"firstDayOfWeek":"sunday"}"#)
        == "FREQ=WEEKLY;INTERVAL=2;BYDAY=SA,SU;WKST=SU", "a week from Sunday parts the weekend")
    #expect(
      try graph(#"{"type":"weekly","interval":2,"daysOfWeek":["friday"],"firstDayOfWeek":"monday"}"#)
        == "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR", "Monday is RFC 5545's week start already")
    #expect(try graph(#"{"type":"absoluteMonthly","interval":1,"dayOfMonth":7}"#) == "FREQ=MONTHLY;BYMONTHDAY=7")
    #expect(
      try graph(#"{"type":"relativeMonthly","interval":1,"daysOfWeek":["tuesday"],"index":"third"}"#)
        == "FREQ=MONTHLY;BYDAY=3TU")
    #expect(
      try graph(#"{"type":"relativeMonthly","interval":2,"daysOfWeek":["friday"],"index":"last"}"#)
        == "FREQ=MONTHLY;INTERVAL=2;BYDAY=-1FR")
    #expect(
      try graph(#"{"type":"relativeMonthly","interval":1,"daysOfWeek":["saturday","sunday"],"index":"first"}"#)
        == "FREQ=MONTHLY;BYDAY=SA,SU;BYSETPOS=1", "the first weekend day of the month")
    #expect(
      try graph(#"{"type":"absoluteYearly","interval":1,"month":8,"dayOfMonth":1}"#)
        == "FREQ=YEARLY;BYMONTHDAY=1;BYMONTH=8")
    #expect(
      try graph(#"{"type":"relativeYearly","interval":1,"month":11,"daysOfWeek":["thursday"],"index":"fourth"}"#)
        == "FREQ=YEARLY;BYDAY=4TH;BYMONTH=11", "Thanksgiving")
  }

  @Test func everyGraphRangeTypeHasItsEnd() throws {
    let weekly = #"{"type":"weekly","interval":1,"daysOfWeek":["tuesday"]}"#
    #expect(
      try graph(
        weekly, range: #"{"type":"noEnd","startDate":"2023-08-01","endDate":"0001-01-01","numberOfOccurrences":0}"#)
        == "FREQ=WEEKLY;BYDAY=TU")
    #expect(
      try graph(weekly, range: #"{"type":"endDate","startDate":"2026-12-01","endDate":"2027-03-30"}"#)
        == "FREQ=WEEKLY;UNTIL=20270330;BYDAY=TU")
    #expect(
      try graph(weekly, range: #"{"type":"numbered","startDate":"2026-12-01","numberOfOccurrences":10}"#)
        == "FREQ=WEEKLY;COUNT=10;BYDAY=TU")
    let value = try JSONParser.parse(#"{"pattern":\#(weekly),"range":{"type":"noEnd","startDate":"2026-12-01"}}"#)
    let translation = try GraphRecurrence.rule(of: value).get()
    #expect(translation.seriesStart == LocalDate(iso: "2026-12-01"))
  }

  @Test func aGraphPatternWithoutItsMembersSaysWhatIsWrong() throws {
    func failure(_ text: String) throws -> GraphRecurrence.Failure? {
      if case .failure(let failure) = GraphRecurrence.rule(of: try JSONParser.parse(text)) { return failure }
      return nil
    }
    #expect(try failure(#"{"pattern":{"type":"hourly","interval":1}}"#) == .unknownType("hourly"))
    #expect(
      try failure(#"{"pattern":{"type":"weekly","interval":1,"daysOfWeek":[]}}"#)
        == .missing("daysOfWeek", type: "weekly"))
    #expect(
      try failure(#"{"pattern":{"type":"weekly","interval":1,"daysOfWeek":["funday"]}}"#)
        == .invalid(member: "daysOfWeek", value: "funday"))
    #expect(
      try failure(#"{"pattern":{"type":"absoluteMonthly","interval":1,"dayOfMonth":0}}"#)
        == .invalid(member: "dayOfMonth", value: "0"))
    #expect(
      try failure(#"{"pattern":{"type":"relativeMonthly","interval":1,"daysOfWeek":["monday"],"index":"fifth"}}"#)
        == .invalid(member: "index", value: "fifth"))
    #expect(
      try failure(#"{"pattern":{"type":"daily","interval":1},"range":{"type":"numbered"}}"#)
        == .missing("numberOfOccurrences", type: "numbered"))
    #expect(try failure(#"{"pattern":"daily"}"#) == .shape("recurrence.pattern"))
  }

  // MARK: Todoist: every phrases

  @Test(arguments: [
    ("every day", "FREQ=DAILY"), ("daily", "FREQ=DAILY"), ("Every  3 Days", "FREQ=DAILY;INTERVAL=3"),
    ("every other day", "FREQ=DAILY;INTERVAL=2"), ("every week", "FREQ=WEEKLY"), ("weekly", "FREQ=WEEKLY"),
    ("every 2 weeks", "FREQ=WEEKLY;INTERVAL=2"), ("every other week", "FREQ=WEEKLY;INTERVAL=2"),
    ("every weekday", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"), ("every workday", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
    ("every monday", "FREQ=WEEKLY;BYDAY=MO"), ("every tue", "FREQ=WEEKLY;BYDAY=TU"),
    ("every fri, mon", "FREQ=WEEKLY;BYDAY=MO,FR"), ("every tuesday and thursday", "FREQ=WEEKLY;BYDAY=TU,TH"),
    ("every other monday", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO"), ("every month", "FREQ=MONTHLY"),
    ("every 3 months", "FREQ=MONTHLY;INTERVAL=3"), ("every 15th", "FREQ=MONTHLY;BYMONTHDAY=15"),
    ("every month on the 1st", "FREQ=MONTHLY;BYMONTHDAY=1"), ("every last day", "FREQ=MONTHLY;BYMONTHDAY=-1"),
    ("every 3rd friday", "FREQ=MONTHLY;BYDAY=3FR"), ("every last friday", "FREQ=MONTHLY;BYDAY=-1FR"),
    ("every year", "FREQ=YEARLY"), ("yearly", "FREQ=YEARLY"), ("every jan 5", "FREQ=YEARLY;BYMONTHDAY=5;BYMONTH=1"),
    ("every 5 jan", "FREQ=YEARLY;BYMONTHDAY=5;BYMONTH=1"),
    ("every december 24th", "FREQ=YEARLY;BYMONTHDAY=24;BYMONTH=12"),
  ])
  func aTodoistPhraseIsItsRule(phrase: String, rule: String) {
    #expect(TodoistRecurrence.reading(of: phrase) == .init(rule: rule, fromCompletion: false))
  }

  @Test func everyBangRepeatsFromCompletion() {
    #expect(
      TodoistRecurrence.reading(of: "every! 3 days") == .init(rule: "FREQ=DAILY;INTERVAL=3", fromCompletion: true))
    #expect(TodoistRecurrence.reading(of: "every! week") == .init(rule: "FREQ=WEEKLY", fromCompletion: true))
  }

  @Test(arguments: [
    "every day at 9am", "every monday starting dec 1", "every day until jan 1", "every funday",
    "jeden Montag", "tomorrow", "every", "every 0 days", "every 32nd", "every 6th friday", "every feb 30th x",
  ])
  func aPhraseNotReadIsNoRule(phrase: String) {
    #expect(TodoistRecurrence.reading(of: phrase) == nil, "\(phrase)")
  }

  @Test func theSecondOfTheMonthIsADayOfTheMonth() {
    #expect(TodoistRecurrence.reading(of: "every 2nd")?.rule == "FREQ=MONTHLY;BYMONTHDAY=2")
  }

  @Test(arguments: [
    "FREQ=DAILY", "FREQ=DAILY;INTERVAL=3", "FREQ=WEEKLY", "FREQ=WEEKLY;INTERVAL=2", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
    "FREQ=WEEKLY;BYDAY=TU", "FREQ=WEEKLY;BYDAY=MO,FR", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO", "FREQ=MONTHLY",
    "FREQ=MONTHLY;INTERVAL=3", "FREQ=MONTHLY;BYMONTHDAY=15", "FREQ=MONTHLY;BYMONTHDAY=-1", "FREQ=MONTHLY;BYDAY=3FR",
    "FREQ=MONTHLY;BYDAY=-1FR", "FREQ=YEARLY", "FREQ=YEARLY;INTERVAL=2", "FREQ=YEARLY;BYMONTHDAY=5;BYMONTH=1",
  ])
  func aRuleTodoistCanSayIsWrittenAsAPhraseThatReadsBack(rule: String) throws {
    for fromCompletion in [false, true] {
      let phrase = try #require(TodoistRecurrence.phrase(for: rule, fromCompletion: fromCompletion), "\(rule)")
      #expect(TodoistRecurrence.reading(of: phrase) == .init(rule: rule, fromCompletion: fromCompletion), "\(phrase)")
    }
  }

  @Test func theWrittenPhrasesAreTodoists() {
    #expect(TodoistRecurrence.phrase(for: "FREQ=WEEKLY;INTERVAL=1;BYDAY=TU", fromCompletion: false) == "every tuesday")
    #expect(TodoistRecurrence.phrase(for: "FREQ=WEEKLY;BYDAY=FR,MO", fromCompletion: false) == "every monday, friday")
    #expect(TodoistRecurrence.phrase(for: "FREQ=DAILY;INTERVAL=2", fromCompletion: true) == "every! 2 days")
    #expect(TodoistRecurrence.phrase(for: "FREQ=MONTHLY;BYMONTHDAY=22", fromCompletion: false) == "every 22nd")
    #expect(
      TodoistRecurrence.phrase(for: "FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=24", fromCompletion: false) == "every dec 24")
  }

  @Test(arguments: [
    "FREQ=WEEKLY;BYDAY=TU;COUNT=5", "FREQ=WEEKLY;UNTIL=20270101;BYDAY=TU", "FREQ=MONTHLY;BYDAY=MO,TU;BYSETPOS=1",
    "FREQ=WEEKLY;INTERVAL=3;BYDAY=MO", "FREQ=HOURLY", "FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=3", "FREQ=DAILY;BYHOUR=9",
    "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TU", "not a rule",
  ])
  func aRuleTodoistCannotSayHasNoPhrase(rule: String) {
    #expect(TodoistRecurrence.phrase(for: rule, fromCompletion: false) == nil, "\(rule)")
  }

  // MARK: TickTick: Repeat and Reminder

  @Test func aTickTickRepeatIsItsRuleWithoutThePrefix() {
    #expect(
      TickTickRecurrence.rule(ofRepeat: "RRULE:FREQ=WEEKLY;INTERVAL=1;BYDAY=TU") == "FREQ=WEEKLY;BYDAY=TU")
    #expect(
      TickTickRecurrence.rule(ofRepeat: "RRULE:FREQ=MONTHLY;BYDAY=2MO;INTERVAL=2")
        == "FREQ=MONTHLY;INTERVAL=2;BYDAY=2MO", "in RFC 5545's order")
    #expect(TickTickRecurrence.rule(ofRepeat: " FREQ=DAILY;INTERVAL=2 ") == "FREQ=DAILY;INTERVAL=2")
    #expect(TickTickRecurrence.rule(ofRepeat: "rrule:FREQ=MONTHLY;BYMONTHDAY=-1") == "FREQ=MONTHLY;BYMONTHDAY=-1")
  }

  @Test(arguments: [
    "ERULE:NAME=CUSTOM;BYDATE=20261002,20261022", "ERULE:NAME=FORGETTINGCURVE;CYCLE=0",
    "LUNAR:FREQ=YEARLY;INTERVAL=1;BYMONTH=1;BYMONTHDAY=28", "RRULE:FREQ=DAILY;INTERVAL=1;TT_SKIP=HOLIDAY,WEEKEND",
    "RRULE:", "INTERVAL=2",
  ])
  func aTickTickRepeatNoOtherAppReadsIsNoRule(cell: String) {
    #expect(TickTickRecurrence.rule(ofRepeat: cell) == nil, "\(cell)")
  }

  @Test func aTickTickReminderCellIsItsOffsets() {
    #expect(TickTickRecurrence.offsets(ofReminder: "TRIGGER:-PT15M") == [-900])
    #expect(TickTickRecurrence.offsets(ofReminder: "TRIGGER:P0D, TRIGGER:-P1DT2H") == [0, -93_600])
    #expect(TickTickRecurrence.offsets(ofReminder: "TRIGGER:P0DT9H0M0S,TRIGGER:PT0S") == [32_400, 0])
    #expect(TickTickRecurrence.offsets(ofReminder: "TRIGGER:-P1W") == [-604_800])
    #expect(TickTickRecurrence.offsets(ofReminder: "") == [])
  }

  @Test(arguments: ["TRIGGER:-15M", "TRIGGER:PT", "TRIGGER:P", "TRIGGER:-PT15M30H", "TRIGGER:PT1H,soon", "P1DT"])
  func aTickTickReminderThatIsNoDurationIsRefused(cell: String) {
    #expect(TickTickRecurrence.offsets(ofReminder: cell) == nil, "\(cell)")
  }
}
