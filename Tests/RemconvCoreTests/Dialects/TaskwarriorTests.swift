import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

@Suite struct TaskwarriorTests {
  let format = TaskwarriorFormat.descriptor

  // MARK: Reading

  @Test func readsEveryFieldOfAnArrayExport() throws {
    let outcome = try Dialects.read(format, path: Dialects.fixture("taskwarrior", "export.json"))
    // The recurring template and its instance are one reminder.
    #expect(outcome.reminders.count == 6)
    #expect(outcome.diagnostics.isEmpty, "\(outcome.diagnostics)")
    #expect(outcome.lists.map(\.name) == ["Home.Finance", "Taskwarrior", "Errands"])

    let rent = try #require(outcome.reminder("5fe4a0c6-0c16-4c2c-92a4-a1699e6f53f8"))
    #expect(rent.title == "Pay rent")
    #expect(rent.listID == outcome.lists[0].id)
    #expect(rent.dueDate == .utc(try Dialects.localDateTime("2026-12-01T08:00:00")))
    #expect(rent.priority == .high)
    #expect(rent.tags == ["bills"])
    #expect(rent.flagged)
    #expect(rent.notes == "IBAN is in the lease\nLandlord wants it by the 1st")
    #expect(rent.createdAt == (try Dialects.timestamp("2026-11-20T08:15:00Z")))
    #expect(rent.editedAt == (try Dialects.timestamp("2026-11-28T19:00:00Z")))
    #expect(!rent.isDone)
    let rentExtra = try #require(rent.extra["taskwarrior"]?.objectValue)
    #expect(rentExtra["estimate"] == .string("PT30M"))
    #expect(rentExtra["annotations"]?.arrayValue?.count == 2)
    #expect(rentExtra["id"] == nil && rentExtra["urgency"] == nil, "derived fields are not kept")

    let template = try #require(outcome.reminder("81421bc8-4791-4947-ad50-e73c1bd19e7a"))
    #expect(!template.isDone)
    #expect(template.listID == outcome.lists[1].id, "no project: the list 'Taskwarrior', whatever the file's name")
    #expect(template.extra["taskwarrior"]?["status"] == .string("recurring"))
    #expect(template.recurrence?.rule == "FREQ=WEEKLY", "recur is the reminder's rule (issue 22)")
    #expect(template.extra["taskwarrior"]?["recur"] == nil)
    #expect(template.extra["taskwarrior"]?["mask"] == .string("-"))
    #expect(template.extra["taskwarrior"]?[TaskwarriorFormat.listWithoutProjectKey] == .string("Taskwarrior"))

    #expect(outcome.reminder("6854127d-9891-4874-abc2-dc3dc528079f") == nil, "an instance is no reminder of its own")
    let instances = try #require(template.extra["taskwarrior"]?[TaskwarriorFormat.instancesKey]?.arrayValue)
    #expect(instances.count == 1)
    let instance = try #require(instances.first?.objectValue)
    #expect(instance["uuid"] == .string("6854127d-9891-4874-abc2-dc3dc528079f"))
    #expect(instance["parent"] == .string("81421bc8-4791-4947-ad50-e73c1bd19e7a"))
    #expect(instance["imask"] == .number("0"))
    #expect(instance["id"] == nil && instance["urgency"] == nil, "derived fields are not kept")

    let waiting = try #require(outcome.reminder(titled: "Call dentist"))
    #expect(!waiting.isDone)
    #expect(waiting.extra["taskwarrior"]?["status"] == .string("waiting"))
    #expect(waiting.extra["taskwarrior"]?["wait"] == .string("20270109T230000Z"))

    let bike = try #require(outcome.reminder(titled: "Fix bike"))
    #expect(bike.priority == .low)
    #expect(bike.extra["taskwarrior"]?["depends"] == .array([.string("5fe4a0c6-0c16-4c2c-92a4-a1699e6f53f8")]))
    #expect(bike.startDate == .utc(try Dialects.localDateTime("2026-12-04T23:00:00")), "scheduled is the start")
    #expect(bike.extra["taskwarrior"]?["scheduled"] == nil)
    #expect(bike.extra["taskwarrior"]?["start"] == .string("20261129T144514Z"))

    let stamps = try #require(outcome.reminder(titled: "Buy stamps"))
    #expect(stamps.isDone)
    #expect(stamps.completedAt == (try Dialects.timestamp("2026-11-25T16:10:00Z")))
    #expect(stamps.tags == ["post-office"])
    #expect(stamps.extra["taskwarrior"]?["status"] == nil)

    let deleted = try #require(outcome.reminder(titled: "Learn the ukulele"))
    #expect(deleted.isDone, "deleted is kept as done")
    #expect(deleted.extra["taskwarrior"]?["status"] == .string("deleted"))
    #expect(deleted.completedAt == (try Dialects.timestamp("2026-11-26T20:00:00Z")))
    #expect(deleted.priority == .medium)
  }

  @Test func readsOneObjectPerLine() throws {
    let outcome = try Dialects.read(format, path: Dialects.fixture("taskwarrior", "export-lines.json"))
    #expect(outcome.reminders.map(\.title) == ["Send the Q4 forecast", "Stand-up notes", "Expense report"])
    #expect(outcome.lists.map(\.name) == ["Work"])
    #expect(outcome.locations.map(\.line) == [1, 2, 3])
    #expect(outcome.reminders[2].isDone)
  }

  @Test func readsTheTasksOfAWrapperAndReportsItsOtherMembers() throws {
    let outcome = try Dialects.read(format, path: Dialects.fixture("taskwarrior", "wrapped.json"))
    #expect(outcome.reminders.map(\.title) == ["Renew passport", "Book flights"])
    #expect(outcome.lists.map(\.name) == ["Admin"])
    #expect(outcome.reminders[1].isDone)
    #expect(outcome.reminders.allSatisfy { $0.extra["json"] == nil && $0.extra["taskwarrior"]?["tasks"] == nil })
    let reported = outcome.warnings("cannot-carry")
    #expect(reported.count == 1)
    #expect(reported.first?.message.hasSuffix("exported, host, version") == true, "\(reported)")
    #expect(reported.first?.location?.line == 1)
    #expect(outcome.diagnostics.count == 1, "\(outcome.diagnostics)")
  }

  @Test func aTaskHoldingTasksIsRefused() throws {
    let error = try #require(throws: RemconvError.self) {
      try Dialects.read(format, path: Dialects.fixture("taskwarrior", "bad-nested-wrapper.json"))
    }
    guard case .malformedInput(let message, let location, _) = error else {
      Issue.record("expected malformed input, got \(error)")
      return
    }
    #expect(message.contains("a task holds a \"tasks\" array"))
    #expect(location.line == 2)
  }

  @Test func badValuesAreWarningsAndKept() throws {
    let outcome = try Dialects.read(format, path: Dialects.fixture("taskwarrior", "bad-values.json"))
    #expect(outcome.reminders.count == 2)
    let first = outcome.reminders[0]
    #expect(first.dueDate == nil)
    #expect(first.extra["invalid"]?["due"] == .string("next tuesday"))
    #expect(first.extra["invalid"]?["status"] == .string("archived"))
    #expect(first.extra["invalid"]?["tags"] == .string("home"))
    #expect(first.extra["taskwarrior"]?["priority"] == .string("X"))
    #expect(!first.isDone)
    let second = outcome.reminders[1]
    #expect(second.createdAt == (try Dialects.timestamp("2025-11-29T10:00:00Z")), "epoch seconds are read")
    #expect(outcome.warnings("invalid-value").count == 3)
    #expect(outcome.warnings("unmapped-value").count == 1)
    #expect(outcome.warnings("missing-status").count == 1)
    #expect(outcome.warnings("missing-uid").count == 1)
    #expect(outcome.diagnostics.allSatisfy { $0.location?.line != nil }, "every warning is located")
    // The derived UID is stable: reading the same file again gives the same one.
    let again = try Dialects.read(format, path: Dialects.fixture("taskwarrior", "bad-values.json"))
    #expect(again.reminders[1].id == second.id)
  }

  @Test func isDetectedFromContent() throws {
    for name in ["export.json", "export-lines.json"] {
      let format = try FormatRegistry.detect(for: .file(Dialects.fixture("taskwarrior", name)))
      #expect(format.name == "taskwarrior", "\(name)")
    }
    let remconv = try FormatRegistry.detect(for: .file(Repository.path("Samples/json/reminders.json")))
    #expect(remconv.name == "json")
    let sample = try FormatRegistry.detect(for: .file(Repository.path("Samples/taskwarrior/reminders.json")))
    #expect(sample.name == "taskwarrior")
  }

  // MARK: Writing

  @Test func writesWhatWasReadUnchanged() throws {
    let outcome = try Dialects.read(format, path: Dialects.fixture("taskwarrior", "export.json"))
    let content = outcome.lists.map { list in (list, outcome.reminders.filter { $0.listID == list.id }) }
    let written = try Dialects.write(format, content)
    #expect(written.diagnostics.isEmpty, "\(written.diagnostics)")
    let again = try Dialects.read(format, text: written.text, name: "export.json")
    for reminder in outcome.reminders {
      #expect(again.reminder(reminder.id) == reminder)
    }
    // Taskwarrior's own fields come back as they were, derived ones are left out.
    let original = try JSONParser.parse(
      try String(contentsOfFile: Dialects.fixture("taskwarrior", "export.json"), encoding: .utf8))
    let rewritten = try JSONParser.parse(written.text)
    let originalTasks = try #require(original.arrayValue).compactMap(\.objectValue)
    let rewrittenTasks = try #require(rewritten.arrayValue).compactMap(\.objectValue)
    for task in originalTasks {
      let uuid = try #require(task["uuid"])
      let counterpart = try #require(rewrittenTasks.first { $0["uuid"] == uuid })
      #expect(counterpart == task.filter { !TaskwarriorFormat.derivedFields.contains($0.key) })
    }
  }

  @Test func writesTheModelFieldsTaskwarriorHasNot() throws {
    let list = ReminderList(id: "L1", name: "Groceries", symbol: "cart", color: "#34C759")
    let parent = Reminder(
      id: "B1A7E0C2-0001-4F00-8000-000000000002", listID: "L1", title: "Ingredients", notes: "Vanilla\n\nCream",
      dueDate: .date(try Dialects.localDate("2026-11-29")), tags: ["weekend plans", "baking"])
    let child = Reminder(
      id: "ymv2zg9t2p", listID: "L1", parentID: parent.id, title: "", flagged: true,
      dueDate: .zoned(try Dialects.localDateTime("2026-11-30T09:00:00"), timeZone: "America/New_York"),
      url: "https://example.com/x")
    let floating = Reminder(
      id: "0e0e0e0e-0000-4000-8000-000000000003", listID: "L1", title: "Floating",
      dueDate: .floating(try Dialects.localDateTime("2026-12-10T18:00:00")),
      extra: ["ical": .object(["lines": .array([.string("X-APPLE-SORT-ORDER:1")])])])
    let written = try Dialects.write(format, [(list, [parent, child, floating])])
    let tasks = try #require(try JSONParser.parse(written.text).arrayValue).compactMap(\.objectValue)
    #expect(tasks.count == 3)

    #expect(tasks[0]["uuid"] == .string("b1a7e0c2-0001-4f00-8000-000000000002"))
    #expect(tasks[0]["remconv_id"] == .string(parent.id))
    #expect(tasks[0]["due"] == .string("20261129T225959Z"), "a date goes out as the end of that day in Berlin")
    #expect(tasks[0]["remconv_due"] == .string("2026-11-29"))
    #expect(tasks[0]["tags"] == .array([.string("weekend_plans"), .string("baking")]))
    // The reminder has no times: its note is stamped with the earliest time `task` holds, not
    // the time of export, so that every export of it is the same.
    #expect(
      tasks[0]["annotations"]
        == .array([.object(["entry": .string("19800101T000000Z"), "description": .string("Vanilla\n\nCream")])]))
    #expect(tasks[0]["project"] == .string("Groceries"))

    #expect(tasks[1]["uuid"] == .string(StableID.derived(["taskwarrior", "ymv2zg9t2p"]).lowercased()))
    #expect(tasks[1]["remconv_id"] == .string("ymv2zg9t2p"))
    #expect(tasks[1]["description"] == .string("(untitled)"))
    #expect(tasks[1]["remconv_parent"] == .string(parent.id))
    #expect(tasks[1]["remconv_url"] == .string("https://example.com/x"))
    #expect(tasks[1]["tags"] == .array([.string("flagged")]))
    #expect(tasks[1]["due"] == .string("20261130T140000Z"))
    #expect(tasks[1]["remconv_due"] == .string("2026-11-30T09:00:00 America/New_York"))

    #expect(tasks[2]["due"] == .string("20261210T170000Z"), "a floating time is read in the writer's zone")
    #expect(tasks[2]["remconv_id"] == nil)

    let reported = written.diagnostics.filter { $0.code == "cannot-carry" }.map(\.message)
    #expect(reported.contains { $0.contains("weekend plans") })
    #expect(reported.contains { $0.contains("colour #34C759") && $0.contains("symbol cart") })
    #expect(reported.contains { $0.contains("not written: extra.ical of 1 reminder") })

    // Read back, the reminders are what they were (notes, kinds, ids, parent, url, flag).
    let again = try Dialects.read(format, text: written.text)
    for original in [parent, child, floating] {
      let read = try #require(again.reminder(original.id))
      #expect(read.title == original.title)
      #expect(read.notes == original.notes)
      #expect(read.dueDate == original.dueDate)
      #expect(read.parentID == original.parentID)
      #expect(read.url == original.url)
      #expect(read.flagged == original.flagged)
    }
    // Written `weekend_plans`, read back as they were (`remconv_tags`).
    #expect(tasks[0]["tags"] == .array([.string("weekend_plans"), .string("baking")]))
    #expect(again.reminder(parent.id)?.tags == ["weekend plans", "baking"])
  }

  @Test func aDueChangedInTaskwarriorWinsOverTheRememberedKind() throws {
    let text = """
      [
      {"description":"Moved","due":"20261203T100000Z","remconv_due":"2026-11-29","remconv_due_sent":"20261129T225959Z","status":"pending","uuid":"0e0e0e0e-0000-4000-8000-000000000009"}
      ]
      """
    let outcome = try Dialects.read(format, text: text)
    let reminder = try #require(outcome.reminders.first)
    #expect(reminder.dueDate == .utc(try Dialects.localDateTime("2026-12-03T10:00:00")))
    #expect(reminder.extra["taskwarrior"]?["remconv_due"] == nil)
  }

  @Test func notesThatGrewKeepTheOriginalAnnotations() throws {
    let outcome = try Dialects.read(format, path: Dialects.fixture("taskwarrior", "export.json"))
    var rent = try #require(outcome.reminder("5fe4a0c6-0c16-4c2c-92a4-a1699e6f53f8"))
    rent.notes += "\nPaid on the 30th"
    rent.editedAt = try Dialects.timestamp("2026-11-20T00:00:00Z")
    let list = outcome.lists[0]
    let written = try Dialects.write(format, [(list, [rent])])
    let task = try #require(try JSONParser.parse(written.text).arrayValue?.first?.objectValue)
    let annotations = try #require(task["annotations"]?.arrayValue)
    #expect(annotations.count == 3)
    #expect(annotations[0]["entry"] == .string("20261120T081600Z"))
    #expect(annotations[2]["description"] == .string("Paid on the 30th"))
    #expect(annotations[2]["entry"] == .string("20261121T090001Z"), "after the kept ones, never on the same second")
  }

  /// An instance may come before its template (ids renumbered after a garbage collection):
  /// still one reminder, the template, holding the instance.
  @Test func anInstanceBeforeItsTemplateIsStillOneReminder() throws {
    let text = """
      [
      {"description":"Water","imask":0,"parent":"81421bc8-4791-4947-ad50-e73c1bd19e7a","status":"pending","uuid":"6854127d-9891-4874-abc2-dc3dc528079f"},
      {"description":"Water","mask":"-","recur":"weekly","status":"recurring","uuid":"81421bc8-4791-4947-ad50-e73c1bd19e7a"},
      {"description":"Orphan","imask":3,"parent":"00000000-0000-4000-8000-000000000000","status":"pending","uuid":"0e0e0e0e-0000-4000-8000-000000000001"}
      ]
      """
    let outcome = try Dialects.read(format, text: text)
    #expect(
      outcome.reminders.map(\.id) == ["81421bc8-4791-4947-ad50-e73c1bd19e7a", "0e0e0e0e-0000-4000-8000-000000000001"])
    let instances = outcome.reminders[0].extra["taskwarrior"]?[TaskwarriorFormat.instancesKey]?.arrayValue
    #expect(instances?.compactMap { $0["uuid"]?.stringValue } == ["6854127d-9891-4874-abc2-dc3dc528079f"])
    // An instance whose template is not in the file stays a reminder of its own.
    #expect(outcome.reminders[1].extra["taskwarrior"]?["parent"] == .string("00000000-0000-4000-8000-000000000000"))
  }

  /// Tags changed in Taskwarrior since remconv wrote them win over the remembered ones.
  @Test func tagsChangedInTaskwarriorWinOverTheRememberedOnes() throws {
    let text = """
      [
      {"description":"Kept","remconv_tags":"[\\"red,green\\"]","status":"pending","tags":["red_green"],"uuid":"0e0e0e0e-0000-4000-8000-000000000001"},
      {"description":"Changed","remconv_tags":"[\\"red,green\\"]","status":"pending","tags":["blue"],"uuid":"0e0e0e0e-0000-4000-8000-000000000002"}
      ]
      """
    let outcome = try Dialects.read(format, text: text)
    #expect(outcome.reminders.map(\.tags) == [["red,green"], ["blue"]])
    #expect(outcome.reminders.allSatisfy { $0.extra["taskwarrior"]?["remconv_tags"] == nil })
  }

  @Test func reopenedAndEmptyListsAreWrittenHonestly() throws {
    let outcome = try Dialects.read(format, path: Dialects.fixture("taskwarrior", "export.json"))
    var deleted = try #require(outcome.reminder(titled: "Learn the ukulele"))
    deleted.isDone = false
    deleted.completedAt = nil
    let empty = ReminderList(id: "E", name: "Someday")
    let written = try Dialects.write(format, [(ReminderList(id: "D", name: "Taskwarrior"), [deleted]), (empty, [])])
    let task = try #require(try JSONParser.parse(written.text).arrayValue?.first?.objectValue)
    #expect(task["status"] == .string("pending"))
    #expect(task["end"] == nil)
    #expect(task["project"] == nil, "still in the list it came into without a project")
    #expect(written.diagnostics.contains { $0.code == "cannot-carry" && $0.message.contains("'Someday'") })
  }
}
