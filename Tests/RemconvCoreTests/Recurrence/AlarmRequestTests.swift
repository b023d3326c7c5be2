import Foundation
import Testing

@testable import RemconvCore

/// `--alarm` values (`AlarmRequest`) and the alarms they make.
@Suite struct AlarmRequestTests {
  @Test(arguments: [
    ("-15m", AlarmRequest.offset(seconds: -900, to: .due)),
    ("-1h", .offset(seconds: -3600, to: .due)),
    ("-2d", .offset(seconds: -172_800, to: .due)),
    ("-1w", .offset(seconds: -604_800, to: .due)),
    ("+10M", .offset(seconds: 600, to: .due)),
    ("start-10m", .offset(seconds: -600, to: .start)),
    ("start", .offset(seconds: 0, to: .start)),
    ("08:30", .timeOfDay(hour: 8, minute: 30)),
    ("2026-12-01T08:00", .at(LocalDateTime(iso: "2026-12-01T08:00")!, utc: false)),
    ("2026-12-01T08:00Z", .at(LocalDateTime(iso: "2026-12-01T08:00")!, utc: true)),
  ])
  func readsTheForms(text: String, request: AlarmRequest) {
    #expect(AlarmRequest(text: text) == request)
  }

  @Test(arguments: ["soon", "15m", "-m", "-15x", "+1:30", "24:00", "2026-12-01", "-99999d", "start+"])
  func refusesOtherText(text: String) {
    #expect(AlarmRequest(text: text) == nil)
  }

  @Test func aTimeOfDayIsKeptRelativeToTheDueDate() throws {
    let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
    var reminder = Reminder(
      id: "R", listID: "L", title: "T", dueDate: .date(try #require(LocalDate(iso: "2026-12-01"))))
    let request = AlarmRequest.timeOfDay(hour: 8, minute: 30)
    #expect(try request.alarm(for: reminder, in: berlin).trigger == .relative(seconds: 30_600, to: .due))
    reminder.dueDate = .floating(try #require(LocalDateTime(iso: "2026-12-01T10:00")))
    #expect(try request.alarm(for: reminder, in: berlin).trigger == .relative(seconds: -5400, to: .due))
    reminder.dueDate = nil
    #expect(throws: RemconvError.self) { try request.alarm(for: reminder, in: berlin) }
  }

  @Test func aWallTimeIsReadInTheEditorsZone() throws {
    let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
    let reminder = Reminder(id: "R", listID: "L", title: "T")
    let alarm = try #require(AlarmRequest(text: "2026-07-01T08:00")).alarm(for: reminder, in: berlin)
    #expect(alarm.trigger == .absolute(try #require(Timestamp(iso: "2026-07-01T06:00:00Z"))))
  }
}
