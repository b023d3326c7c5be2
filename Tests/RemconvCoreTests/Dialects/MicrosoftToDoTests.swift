import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

@Suite struct MicrosoftToDoTests {
  let format = MicrosoftToDoFormat.descriptor

  // MARK: The corpus: real Graph responses, read in America/Chicago as their producer did

  @Test(.enabled(if: Corpus.isPresent, "needs the shared corpus"))
  func everyCorpusFileImportsWithItsValues() throws {
    let folder = try Corpus.file("json")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("tasks-microsoft__") }
    #expect(names.count == 11)
    for name in names {
      let path = folder + "/" + name
      #expect(try FormatRegistry.detect(for: .file(path)).name == "mstodo", "\(name)")
      let outcome = try Dialects.read(format, path: path, timeZone: Dialects.chicago)
      #expect(outcome.diagnostics.isEmpty, "\(name): \(outcome.diagnostics)")
      #expect(outcome.lists.isEmpty, "a page of tasks names no list")
      let task = try #require(outcome.reminders.first, "\(name)")
      #expect(task.parentID == nil && task.listID == "")
      #expect(task.id.hasPrefix("AQMkADAwATNiZmYAZC04OABiMC0x"))
      try expectValues(of: name, task: task, all: outcome.reminders)
    }
  }

  private func expectValues(of name: String, task: Reminder, all: [Reminder]) throws {
    let date = Dialects.localDate
    let instant = Dialects.timestamp
    switch name {
    case "tasks-microsoft__basic_task.json":
      #expect(task.title == "Basic task")
      #expect(task.notes == "" && task.priority == .none && !task.isDone && task.dueDate == nil && task.tags.isEmpty)
      #expect(task.createdAt == (try instant("2022-09-18T05:25:19.778Z")))
      #expect(task.editedAt == (try instant("2022-09-18T05:25:19.872Z")))
      #expect(task.alarms.isEmpty && task.extra["mstodo"]?["isReminderOn"] == nil, "no reminder: no alarm")
    case "tasks-microsoft__basic_task_with_due_date.json":
      #expect(task.title == "Test" && task.priority == .high)
      #expect(task.dueDate == .date(try date("2023-07-19")), "05:00 UTC is midnight in Chicago")
    case "tasks-microsoft__completed_task.json":
      #expect(task.isDone)
      #expect(task.completedAt == (try instant("2022-09-18T05:00:00Z")))
      #expect(task.editedAt == (try instant("2022-09-18T06:25:27.607Z")))
    case "tasks-microsoft__task_with_description.json":
      #expect(task.title == "Test with description")
      #expect(task.notes == "Hello world")
      #expect(task.extra["mstodo"]?["body"]?["content"] == .string("Hello world\r\n"), "the raw body is kept")
      #expect(task.isDone)
      #expect(task.completedAt == (try instant("2024-12-28T06:00:00Z")))
    case "tasks-microsoft__task_with_reminder.json":
      #expect(
        task.alarms == [Alarm(trigger: .absolute(try instant("2023-07-22T14:00:00Z")), action: "DISPLAY", text: nil)])
      #expect(task.extra["mstodo"]?["isReminderOn"] == nil && task.extra["mstodo"]?["reminderDateTime"] == nil)
    case "tasks-microsoft__task_with_subtasks.json":
      #expect(all.map(\.title) == ["Test with subtasks", "A", "B", "C"])
      #expect(all.dropFirst().allSatisfy { $0.parentID == task.id && !$0.isDone })
      #expect(all[1].id == "426d6b9f-6cb0-4642-b9ed-b12a17fa0730")
      #expect(all[1].createdAt == (try instant("2023-09-18T04:43:10.117Z")))
    case "tasks-microsoft__task_with_completed_subtask.json":
      #expect(task.notes == "", "a body of just a line break is blank")
      #expect(all.map(\.title) == ["Task with subtasks", "Step 1", "Step 2"])
      #expect(!all[1].isDone && all[1].completedAt == nil)
      #expect(all[2].isDone)
      #expect(all[2].completedAt == (try instant("2024-12-28T09:22:34.580Z")))
    case "tasks-microsoft__repeat_daily.json":
      #expect(task.dueDate == .date(try date("2023-08-01")))
      #expect(
        task.recurrence == Recurrence(rule: "FREQ=DAILY", exceptionDates: [], additionalDates: [], basis: .dueDate))
      #expect(task.extra["mstodo"]?["recurrence"] == nil, "the placeholders of the range are not kept")
    case "tasks-microsoft__repeat_weekdays.json":
      #expect(task.dueDate == .date(try date("2023-07-31")))
      // What tasks.org expects of this file too.
      #expect(task.recurrence?.rule == "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TU,WE,TH,FR")
    case "tasks-microsoft__repeat_monthly.json":
      #expect(task.dueDate == .date(try date("2023-08-07")))
      #expect(task.recurrence?.rule == "FREQ=MONTHLY;BYMONTHDAY=7")
    case "tasks-microsoft__repeat_yearly.json":
      #expect(task.dueDate == .date(try date("2023-08-01")))
      #expect(task.recurrence?.rule == "FREQ=YEARLY;BYMONTHDAY=1;BYMONTH=8")
    default:
      Issue.record("no expectations for \(name)")
    }
  }

  // MARK: Own fixtures

  @Test func readsAPageOfTasks() throws {
    let outcome = try Dialects.read(format, path: Dialects.fixture("mstodo", "page.json"), timeZone: Dialects.chicago)
    #expect(outcome.diagnostics.isEmpty, "\(outcome.diagnostics)")
    #expect(
      outcome.reminders.map(\.title) == [
        "Renew car insurance", "Quote from the broker", "Quote online", "Return library books",
        "Take out the recycling",
      ])
    let insurance = outcome.reminders[0]
    #expect(insurance.priority == .high)
    #expect(!insurance.isDone)
    #expect(insurance.extra["mstodo"]?["status"] == .string("inProgress"))
    #expect(insurance.notes == "Compare the two quotes\nPolicy number 55-1234")
    #expect(insurance.tags == ["Red category", "car"])
    #expect(
      insurance.dueDate == .date(try Dialects.localDate("2026-12-01")), "06:00 UTC is midnight in Chicago in winter")
    #expect(insurance.createdAt == (try Dialects.timestamp("2026-11-02T15:04:05.123Z")))
    #expect(
      insurance.alarms == [
        Alarm(trigger: .absolute(try Dialects.timestamp("2026-11-30T15:00:00Z")), action: "DISPLAY", text: nil)
      ])
    #expect(outcome.reminders[1].parentID == insurance.id && outcome.reminders[1].isDone)
    #expect(outcome.reminders[1].completedAt == (try Dialects.timestamp("2026-11-10T09:00:00Z")))
    #expect(outcome.reminders[2].parentID == insurance.id && !outcome.reminders[2].isDone)

    let books = outcome.reminders[3]
    #expect(books.priority == .low && books.isDone)
    #expect(
      books.dueDate == .date(try Dialects.localDate("2026-10-30")), "05:00 UTC is midnight in Chicago in summer time")
    #expect(books.completedAt == (try Dialects.timestamp("2026-10-30T05:00:00Z")))
    #expect(books.extra["mstodo"]?["body"] == nil, "an empty text body needs no keeping")

    let recycling = outcome.reminders[4]
    #expect(recycling.priority == .none, "normal importance is no priority")
    #expect(recycling.notes == "<p>Blue bin <b>only</b></p>")
    #expect(recycling.extra["mstodo"]?["body"]?["contentType"] == .string("html"))
    #expect(recycling.recurrence?.rule == "FREQ=WEEKLY;BYDAY=WE")
    #expect(recycling.extra["mstodo"]?["recurrence"] == nil)
  }

  @Test func readsListsWithTheirTasks() throws {
    let outcome = try Dialects.read(format, path: Dialects.fixture("mstodo", "lists.json"), timeZone: Dialects.chicago)
    #expect(outcome.diagnostics.isEmpty, "\(outcome.diagnostics)")
    #expect(outcome.lists.map(\.name) == ["Tasks", "Groceries 🛒", "Someday"])
    #expect(outcome.lists[0].id == "AAMkAGRlMTEyNzQ0LTRiN2EtNDhmZS1hZjc0LWQ5NmQwZDZkMmE1ZgAuAAAAAAAR")
    #expect(outcome.lists[0].extra["mstodo"]?["wellknownListName"] == .string("defaultList"))
    #expect(outcome.lists[1].extra["mstodo"]?["isShared"] == .bool(true))
    #expect(outcome.reminders.map(\.title) == ["Book the dentist", "Oat milk"])
    #expect(outcome.reminders[0].listID == outcome.lists[0].id)
    #expect(outcome.reminders[1].listID == outcome.lists[1].id)
    #expect(outcome.reminders[1].notes == "Barista edition")
    #expect(outcome.reminders[1].dueDate == .date(try Dialects.localDate("2026-11-29")))
  }

  @Test func readsABareArrayAndKeepsOtherStatuses() throws {
    let outcome = try Dialects.read(
      format, path: Dialects.fixture("mstodo", "tasks-array.json"), timeZone: Dialects.berlin)
    #expect(outcome.diagnostics.isEmpty, "\(outcome.diagnostics)")
    let lease = try #require(outcome.reminders.first)
    #expect(lease.extra["mstodo"]?["status"] == .string("waitingOnOthers"))
    #expect(
      lease.dueDate == .date(try Dialects.localDate("2026-12-15")),
      "a midnight in a named zone is that day, wherever remconv runs")
  }

  @Test func badValuesAreWarningsAndKept() throws {
    let outcome = try Dialects.read(
      format, path: Dialects.fixture("mstodo", "bad-values.json"), timeZone: Dialects.chicago)
    let odd = try #require(outcome.reminder(titled: "Odd values"))
    #expect(
      odd.priority == .none && !odd.isDone && odd.dueDate == nil && odd.createdAt == nil && odd.completedAt == nil)
    let invalid = try #require(odd.extra["invalid"]?.objectValue)
    #expect(invalid["importance"] == .string("urgent"))
    #expect(invalid["status"] == .string("archived"))
    #expect(invalid["createdDateTime"] == .string("yesterday"))
    #expect(invalid["categories"] == .string("home"))
    #expect(invalid["dueDateTime"]?["timeZone"] == .string("Pacific Standard Time"))
    #expect(invalid["completedDateTime"]?["dateTime"] == .string("soon"))
    #expect(invalid["checklistItems"] == .array([.string("not an item")]))
    #expect(outcome.warnings("invalid-value").count == 7)

    let shifted = try #require(outcome.reminder(titled: "Due in the wrong zone"))
    #expect(shifted.dueDate == .date(try Dialects.localDate("2026-12-01")))
    #expect(shifted.extra["mstodo"]?["dueDateTime"]?["dateTime"] == .string("2026-12-01T15:00:00.0000000"))
    #expect(outcome.warnings("due-zone").count == 1)
    #expect(outcome.diagnostics.allSatisfy { $0.location?.line != nil })
  }

  @Test func isDetectedFromContent() throws {
    for name in ["page.json", "lists.json", "tasks-array.json"] {
      #expect(try FormatRegistry.detect(for: .file(Dialects.fixture("mstodo", name))).name == "mstodo", "\(name)")
    }
    #expect(try FormatRegistry.detect(for: .file(Repository.path("Samples/mstodo/tasks.json"))).name == "mstodo")
  }
}
