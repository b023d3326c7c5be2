import Testing

@testable import RemconvCore

/// `recur` periods and rules, as `task` 2.6 steps them (each row checked against the real
/// `task`: the dues of the instances it generates).
@Suite struct TaskwarriorRecurTests {
  @Test(arguments: [
    // Calendar periods: the day of the month is kept.
    ("monthly", "FREQ=MONTHLY"), ("bimonthly", "FREQ=MONTHLY;INTERVAL=2"), ("quarterly", "FREQ=MONTHLY;INTERVAL=3"),
    ("semiannual", "FREQ=MONTHLY;INTERVAL=6"), ("annual", "FREQ=YEARLY"), ("yearly", "FREQ=YEARLY"),
    ("biannual", "FREQ=YEARLY;INTERVAL=2"), ("biyearly", "FREQ=YEARLY;INTERVAL=2"), ("3m", "FREQ=MONTHLY;INTERVAL=3"),
    ("1m", "FREQ=MONTHLY"), ("2q", "FREQ=MONTHLY;INTERVAL=6"), ("1y", "FREQ=YEARLY"), ("2y", "FREQ=YEARLY;INTERVAL=2"),
    ("P1M", "FREQ=MONTHLY"), ("P3M", "FREQ=MONTHLY;INTERVAL=3"), ("P1Y", "FREQ=YEARLY"),
    ("P2Y", "FREQ=YEARLY;INTERVAL=2"),
    ("weekdays", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
    // Durations: added in seconds.
    ("daily", "FREQ=DAILY"), ("weekly", "FREQ=WEEKLY"), ("biweekly", "FREQ=WEEKLY;INTERVAL=2"),
    ("fortnight", "FREQ=WEEKLY;INTERVAL=2"), ("3d", "FREQ=DAILY;INTERVAL=3"), ("3days", "FREQ=DAILY;INTERVAL=3"),
    ("10d", "FREQ=DAILY;INTERVAL=10"), ("14d", "FREQ=WEEKLY;INTERVAL=2"), ("2w", "FREQ=WEEKLY;INTERVAL=2"),
    ("1weeks", "FREQ=WEEKLY"), ("P1D", "FREQ=DAILY"), ("P3D", "FREQ=DAILY;INTERVAL=3"), ("P1W", "FREQ=WEEKLY"),
    ("P2W", "FREQ=WEEKLY;INTERVAL=2"), ("PT1H", "FREQ=HOURLY"), ("P1DT12H", "FREQ=HOURLY;INTERVAL=36"),
    ("1h", "FREQ=HOURLY"), ("5min", "FREQ=MINUTELY;INTERVAL=5"),
    // `mo`, `month`, `year` are fixed durations to `task`, not calendar periods.
    ("2mo", "FREQ=DAILY;INTERVAL=60"), ("2months", "FREQ=DAILY;INTERVAL=60"), ("month", "FREQ=DAILY;INTERVAL=30"),
    ("year", "FREQ=DAILY;INTERVAL=365"),
  ])
  func recurIsTheRuleTaskFollows(recur: String, rule: String) {
    #expect(TaskwarriorRecur.rule(forRecur: recur) == rule)
  }

  @Test(arguments: ["", "0d", "0m", "often", "P", "P1M2D", "P1Y2M", "3 parsecs", "d3", "P1H", "-1d", "99999999d"])
  func periodsTaskDoesNotTakeHaveNoRule(recur: String) {
    #expect(TaskwarriorRecur.rule(forRecur: recur) == nil)
  }

  /// 2026-12-01 is a Tuesday.
  let tuesday = LocalDate(year: 2026, month: 12, day: 1)!

  @Test(arguments: [
    ("FREQ=DAILY", "daily"), ("FREQ=DAILY;INTERVAL=3", "3d"), ("FREQ=WEEKLY", "weekly"),
    ("FREQ=WEEKLY;BYDAY=TU", "weekly"), ("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;WKST=MO", "2w"),
    ("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "weekdays"), ("FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR", "weekdays"),
    ("FREQ=MONTHLY", "monthly"), ("FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=1", "3m"), ("FREQ=YEARLY", "yearly"),
    ("FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=1", "yearly"), ("FREQ=YEARLY;INTERVAL=2", "2y"), ("FREQ=HOURLY", "1h"),
    ("FREQ=MINUTELY;INTERVAL=15", "15min"), ("freq=weekly;byday=tu", "weekly"),
  ])
  func ruleIsWrittenAsRecur(rule: String, recur: String) throws {
    let written = try TaskwarriorRecur.written(rule: rule, firstDay: tuesday).get()
    #expect(written == .init(recur: recur, until: nil, unfollowed: []))
    // And `task`'s period reads back as a rule with the same occurrences.
    let back = try #require(TaskwarriorRecur.rule(forRecur: recur))
    #expect(try TaskwarriorRecur.written(rule: back, firstDay: tuesday).get().recur == recur)
  }

  @Test func untilAndCountAreTakenApart() throws {
    let instant = try TaskwarriorRecur.written(rule: "FREQ=WEEKLY;UNTIL=20270131T230000Z", firstDay: tuesday).get()
    #expect(instant.until == .instant(Timestamp(iso: "2027-01-31T23:00:00Z")!))
    let date = try TaskwarriorRecur.written(rule: "FREQ=WEEKLY;UNTIL=20270131", firstDay: tuesday).get()
    #expect(date.until == .date(LocalDate(year: 2027, month: 1, day: 31)!))
    let floating = try TaskwarriorRecur.written(rule: "UNTIL=20270131T090000;FREQ=DAILY", firstDay: tuesday).get()
    #expect(floating.until == .floating(LocalDateTime(iso: "2027-01-31T09:00:00")!))
    let counted = try TaskwarriorRecur.written(rule: "FREQ=DAILY;COUNT=5", firstDay: tuesday).get()
    #expect(counted == .init(recur: "daily", until: nil, unfollowed: ["COUNT=5"]))
    #expect(TaskwarriorRecur.untilText(Timestamp(iso: "2027-01-31T23:00:00Z")!) == "20270131T230000Z")
  }

  @Test(arguments: [
    ("FREQ=MONTHLY;BYDAY=2TU", "BYDAY=2TU"), ("FREQ=MONTHLY;BYDAY=TU;BYSETPOS=-1", "BYDAY=TU"),
    ("FREQ=MONTHLY;BYSETPOS=-1;BYMONTHDAY=1", "BYSETPOS=-1"), ("FREQ=WEEKLY;BYDAY=MO,WE", "BYDAY=MO,WE"),
    ("FREQ=WEEKLY;BYDAY=WE", "BYDAY=WE"), ("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TU,WE,TH,FR", "BYDAY=MO,TU,WE,TH,FR"),
    ("FREQ=MONTHLY;BYMONTHDAY=15", "BYMONTHDAY=15"), ("FREQ=DAILY;BYHOUR=9,17", "BYHOUR=9,17"),
    ("FREQ=YEARLY;BYWEEKNO=20", "BYWEEKNO=20"), ("FREQ=YEARLY;BYMONTH=3", "BYMONTH=3"), ("INTERVAL=2", "no FREQ"),
    ("FREQ=FORTNIGHTLY", "FREQ=FORTNIGHTLY"), ("FREQ=DAILY;INTERVAL=0", "INTERVAL=0"),
    ("FREQ=DAILY;UNTIL=soon", "UNTIL"),
  ])
  func rulesTaskCannotFollowAreRefusedWithTheirPart(rule: String, named: String) {
    guard case .failure(let unwritable) = TaskwarriorRecur.written(rule: rule, firstDay: tuesday) else {
      Issue.record("\(rule) was written")
      return
    }
    #expect(unwritable.reason.contains(named), "\(unwritable.reason)")
  }

  @Test func weekdayCodes() {
    #expect(TaskwarriorRecur.weekdayCode(of: tuesday) == "TU")
    #expect(TaskwarriorRecur.weekdayCode(of: LocalDate(year: 1970, month: 1, day: 1)!) == "TH")
    #expect(TaskwarriorRecur.weekdayCode(of: LocalDate(year: 1969, month: 12, day: 28)!) == "SU")
  }
}
