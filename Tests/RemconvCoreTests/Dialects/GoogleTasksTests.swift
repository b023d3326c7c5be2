import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

@Suite struct GoogleTasksTests {
  let format = GoogleTasksFormat.descriptor

  @Test func readsATakeoutExport() throws {
    let outcome = try Dialects.read(format, path: Dialects.fixture("googletasks", "Tasks.json"))
    #expect(outcome.diagnostics.isEmpty, "\(outcome.diagnostics)")
    #expect(outcome.lists.map(\.name) == ["My Tasks", "Reading", "Someday"])
    #expect(outcome.lists[0].id == "MTI3NTk0NzQ2MTg0NjYwMjg5ODE6MDow")
    #expect(outcome.lists[0].extra["googletasks"]?["updated"] == .string("2026-11-28T07:45:00.000Z"))
    #expect(outcome.reminders.count == 7)

    let plants = try #require(outcome.reminder("dGFzay0wMDAxLXBsYW50cw"))
    #expect(plants.title == "Water the plants")
    #expect(plants.listID == outcome.lists[0].id)
    #expect(plants.dueDate == .date(try Dialects.localDate("2026-12-01")))
    #expect(plants.createdAt == (try Dialects.timestamp("2026-11-01T09:00:00Z")))
    #expect(plants.editedAt == (try Dialects.timestamp("2026-11-24T09:00:00Z")))
    #expect(plants.extra["googletasks"]?["position"] == .string("00000000000000000000"))
    #expect(plants.extra["googletasks"]?["webViewLink"] != nil)
    #expect(plants.extra["googletasks"]?["due"] == nil, "a midnight due needs no keeping")
    #expect(plants.extra["googletasks"]?["kind"] == nil)

    let trip = try #require(outcome.reminder("dGFzay0wMDAyLXRyaXA"))
    #expect(trip.notes == "Window seat.\nCheck the ANA fare first.")
    #expect(trip.extra["googletasks"]?["links"]?.arrayValue?.first?["type"] == .string("email"))

    let flights = try #require(outcome.reminder("dGFzay0wMDAzLWZsaWdodA"))
    #expect(flights.parentID == trip.id)
    #expect(flights.isDone)
    #expect(flights.completedAt == (try Dialects.timestamp("2026-11-22T08:00:00Z")))
    #expect(outcome.reminder("dGFzay0wMDA0LXZpc2E")?.parentID == trip.id)

    let bins = try #require(outcome.reminder("dGFzay0wMDA1LWJpbnM"))
    #expect(bins.isDone)
    #expect(bins.extra["googletasks"]?["hidden"] == .bool(true), "hidden tasks are kept, marked")

    let deleted = try #require(outcome.reminder("dGFzay0wMDA2LW9sZA"))
    #expect(deleted.isDone, "a deleted task is kept as done")
    #expect(deleted.extra["googletasks"]?["deleted"] == .bool(true))
    #expect(deleted.extra["googletasks"]?["status"] == .string("needsAction"))

    #expect(outcome.reminder("dGFzay0wMTAxLWJvb2s")?.listID == outcome.lists[1].id)
  }

  /// The due day is the date as written: reading it in a zone west of UTC must not move it.
  @Test func dueDatesAreNeverShiftedThroughAZone() throws {
    for zone in [Dialects.chicago, Dialects.berlin, TimeZone(identifier: "Pacific/Kiritimati") ?? .current] {
      let outcome = try Dialects.read(format, path: Dialects.fixture("googletasks", "tasks-page.json"), timeZone: zone)
      #expect(outcome.reminders.first?.dueDate == .date(try Dialects.localDate("2026-11-29")), "\(zone.identifier)")
    }
  }

  @Test func readsAPageOfTasksAndTaskLists() throws {
    let page = try Dialects.read(format, path: Dialects.fixture("googletasks", "tasks-page.json"))
    #expect(page.lists.isEmpty)
    let call = try #require(page.reminders.first)
    #expect(call.listID == "", "a page of tasks goes to the import's list")
    #expect(call.notes == "Kitchen tap drips; ask about Saturday")
    #expect(call.extra["googletasks"]?["etag"] == .string("\"MTY5NTQ4OTk4Mg\""))

    let lists = try Dialects.read(format, path: Dialects.fixture("googletasks", "tasklists.json"))
    #expect(lists.reminders.isEmpty)
    #expect(lists.lists.map(\.name) == ["My Tasks", "Reading"])
    #expect(lists.lists[1].extra["googletasks"]?["selfLink"] != nil)
  }

  @Test func badValuesAreWarningsAndKept() throws {
    let outcome = try Dialects.read(format, path: Dialects.fixture("googletasks", "bad-values.json"))
    let odd = try #require(outcome.reminder("dGFzay0wMzAxLWJhZA"))
    #expect(!odd.isDone && odd.dueDate == nil && odd.completedAt == nil && odd.notes == "")
    #expect(odd.extra["invalid"]?["status"] == .string("done"))
    #expect(odd.extra["invalid"]?["due"] == .string("tomorrow"))
    #expect(odd.extra["invalid"]?["completed"] == .string("earlier"))
    #expect(odd.extra["invalid"]?["notes"] == .number("42"))
    #expect(outcome.warnings("invalid-value").count == 4)

    let noID = try #require(outcome.reminder(titled: "No id"))
    #expect(noID.dueDate == .date(try Dialects.localDate("2026-12-24")))
    #expect(
      noID.extra["googletasks"]?["due"] == .string("2026-12-24T15:30:00.000Z"), "a time Google would drop is kept")
    #expect(outcome.warnings("missing-uid").count == 1)
    #expect(outcome.diagnostics.allSatisfy { $0.location?.line != nil })
  }

  @Test func isDetectedFromContent() throws {
    for name in ["Tasks.json", "tasklists.json", "tasks-page.json"] {
      #expect(
        try FormatRegistry.detect(for: .file(Dialects.fixture("googletasks", name))).name == "googletasks", "\(name)")
    }
    #expect(
      try FormatRegistry.detect(for: .file(Repository.path("Samples/googletasks/Tasks.json"))).name == "googletasks")
  }
}
