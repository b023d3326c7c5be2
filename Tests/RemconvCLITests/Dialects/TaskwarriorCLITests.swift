import Foundation
import RemconvCLI
import RemconvCore
import RemconvTestSupport
import Testing

/// A Taskwarrior with its own data folder and rc file, so tests never touch a user's tasks.
final class TaskwarriorSandbox {
  /// The `task` program (`Scripts/bootstrap.sh --test` installs it). A test that needs it fails
  /// when it is missing, never skips.
  static let executable = Program.find("task")

  let directory = TemporaryDirectory()
  /// The zone `task` reads and shows local times in (the test bench uses the same).
  let timeZone = "Europe/Berlin"

  init() {
    directory.write("taskrc", "confirmation=off\nhooks=off\nverbose=nothing\njson.array=on\n")
    try? FileManager.default.createDirectory(atPath: directory.file("data"), withIntermediateDirectories: true)
  }

  struct Result {
    let status: Int32
    let output: String
    let errors: String
  }

  /// Runs `task ARGUMENTS` on the sandbox's data.
  @discardableResult
  func run(_ arguments: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Result {
    let executable = try #require(Self.executable, sourceLocation: sourceLocation)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = ["rc.confirmation=off", "rc.hooks=off", "rc.verbose=nothing"] + arguments
    process.environment = [
      "TASKDATA": directory.file("data"), "TASKRC": directory.file("taskrc"), "TZ": timeZone,
      "HOME": directory.path, "PATH": "/usr/bin:/bin",
    ]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let result = Result(
      status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
      errors: String(decoding: errorData, as: UTF8.self))
    #expect(result.status == 0, "task \(arguments): \(result.errors)", sourceLocation: sourceLocation)
    return result
  }

  /// `task export` as task objects by UUID, without the fields `task` derives on every run.
  func exportedTasks() throws -> [String: [String: JSONValue]] {
    let text = try run(["export"]).output
    var tasks: [String: [String: JSONValue]] = [:]
    for task in try #require(try JSONParser.parse(text).arrayValue) {
      var members = try #require(task.objectValue)
      members["id"] = nil
      members["urgency"] = nil
      tasks[try #require(members["uuid"]?.stringValue)] = members
    }
    return tasks
  }
}

@Suite struct TaskwarriorCLITests {
  @Test func brokenStructureIsRefusedWithItsLocation() {
    DialectCLI.expectRefused(
      DialectCLI.fixture("taskwarrior", "bad-truncated.json"), format: "taskwarrior", located: "bad-truncated.json:3:")
    DialectCLI.expectRefused(
      DialectCLI.fixture("taskwarrior", "bad-not-object.json"), format: "taskwarrior",
      located: "bad-not-object.json:3:1")
    DialectCLI.expectRefused(
      DialectCLI.fixture("taskwarrior", "bad-lines.json"), format: nil, located: "bad-lines.json:2:22")
  }

  @Test func importsWithoutBeingToldTheFormat() throws {
    let bench = TestBench()
    let result = bench.run(["import", DialectCLI.fixture("taskwarrior", "export.json"), "--report", "json"])
    #expect(result.status == .ok, "\(result.errors)")
    #expect(result.output.contains("\"format\":\"taskwarrior\""))
    // 7 tasks, of which a recurring template and its instance are one reminder.
    #expect(try DialectCLI.reportCounts(result.output).added == 6)
    let again = bench.run(["import", DialectCLI.fixture("taskwarrior", "export.json"), "--report", "json"])
    let counts = try DialectCLI.reportCounts(again.output)
    #expect(counts.added == 0 && counts.updated == 0 && counts.unchanged == 6)
  }

  /// `Samples/taskwarrior/reminders.json` is the Taskwarrior export of `Samples/json/reminders.json`.
  @Test func sampleIsTheExportOfTheJSONSample() {
    let bench = TestBench()
    #expect(bench.run(["import", Repository.path("Samples/json/reminders.json")]).status == .ok)
    let result = bench.run(["export", "--format", "taskwarrior"])
    #expect(result.status == .ok)
    #expect(result.output == Repository.read("Samples/taskwarrior/reminders.json"))
  }

  @Test func remconvToTaskwarriorToRemconvKeepsEveryReminder() throws {
    let source = TestBench()
    #expect(source.run(["import", Repository.path("Samples/json/reminders.json")]).status == .ok)
    let target = TestBench()
    let path = target.directory.write("tasks.json", source.run(["export", "--format", "taskwarrior"]).output)
    let imported = target.run(["import", path])
    #expect(imported.status == .ok, "\(imported.errors)")
    try DialectCLI.expectSameReminders(source.snapshot(), target.snapshot())
    let counts = try DialectCLI.reportCounts(target.run(["import", path, "--report", "json"]).output)
    #expect(counts.added == 0 && counts.updated == 0 && counts.unchanged == 11)
  }

  // MARK: Against the real `task`

  @Test func tasksMadeWithTaskAddImportWithTheirValues() throws {
    let taskwarrior = TaskwarriorSandbox()
    try taskwarrior.run([
      "add", "Pay rent", "project:Home.Finance", "due:2026-12-01T09:00", "priority:H", "+bills", "+flagged",
    ])
    try taskwarrior.run(["add", "Buy stamps", "project:Errands", "priority:L", "+post"])
    try taskwarrior.run(["add", "Read the manual", "due:2026-12-24", "priority:M"])
    try taskwarrior.run(["1", "annotate", "IBAN is in the lease"])
    try taskwarrior.run(["1", "annotate", "Landlord wants it by the 1st"])
    try taskwarrior.run(["2", "done"])
    let bench = TestBench()
    let path = bench.directory.write("tw.json", try taskwarrior.run(["export"]).output)
    let imported = bench.run(["import", path])
    #expect(imported.status == .ok, "\(imported.errors)")
    let reminders = try DialectCLI.reminders(of: bench.snapshot())
    let tasks = try taskwarrior.exportedTasks()
    #expect(reminders.count == 3)

    func reminder(_ title: String) throws -> (list: String, members: [String: JSONValue]) {
      try #require(reminders.values.first { $0.members["title"] == .string(title) }, "\(title)")
    }
    let rent = try reminder("Pay rent")
    #expect(rent.list == "Home.Finance")
    #expect(rent.members["dueDate"] == .string("2026-12-01T08:00:00Z"), "09:00 in Berlin")
    #expect(rent.members["priority"] == .string("high"))
    #expect(rent.members["tags"] == .array([.string("bills")]))
    #expect(rent.members["flagged"] == .bool(true))
    #expect(rent.members["notes"] == .string("IBAN is in the lease\nLandlord wants it by the 1st"))
    #expect(rent.members["isDone"] == .bool(false))
    let stamps = try reminder("Buy stamps")
    #expect(stamps.list == "Errands")
    #expect(stamps.members["isDone"] == .bool(true))
    #expect(stamps.members["priority"] == .string("low"))
    #expect(stamps.members["tags"] == .array([.string("post")]))
    let manual = try reminder("Read the manual")
    #expect(manual.list == "Taskwarrior", "no project: the list 'Taskwarrior', not the file's name")
    #expect(manual.members["dueDate"] == .string("2026-12-23T23:00:00Z"), "task puts a date at local midnight")
    #expect(manual.members["priority"] == .string("medium"))

    // Every task's values, field by field.
    for (uuid, task) in tasks {
      let members = try #require(reminders[uuid]?.members, "\(uuid)")
      #expect(members["title"] == task["description"])
      #expect(members["createdAt"] == task["entry"].flatMap(iso))
      #expect(members["editedAt"] == task["modified"].flatMap(iso))
      #expect(members["completedAt"] == (task["end"].flatMap(iso) ?? .null))
      #expect(members["isDone"] == .bool(task["status"] == .string("completed")))
    }
  }

  @Test func remconvExportImportsIntoTaskUnchangedAndOnlyOnce() throws {
    let original = TaskwarriorSandbox()
    try original.run([
      "add", "Pay rent", "project:Home.Finance", "due:2026-12-01T09:00", "priority:H", "+bills", "+flagged",
    ])
    try original.run(["add", "Buy stamps", "project:Errands", "priority:L", "+post"])
    try original.run(["add", "Read the manual", "due:2026-12-24"])
    try original.run(["1", "annotate", "IBAN is in the lease"])
    try original.run(["1", "annotate", "Landlord wants it by the 1st"])
    try original.run(["2", "done"])
    try original.run(["add", "Old idea", "project:Someday"])
    try original.run(["project:Someday", "delete"])
    let bench = TestBench()
    let exportPath = bench.directory.write("tw.json", try original.run(["export"]).output)
    #expect(bench.run(["import", exportPath]).status == .ok)
    let remconvPath = bench.directory.file("remconv.json")
    let exported = bench.run(["export", "--format", "taskwarrior", "-o", remconvPath])
    #expect(exported.status == .ok, "\(exported.errors)")

    // Into a fresh Taskwarrior: the same tasks, value for value.
    let fresh = TaskwarriorSandbox()
    let first = try fresh.run(["import", remconvPath])
    #expect(first.output.components(separatedBy: " add ").count - 1 == 4, "\(first.output)")
    let expected = try original.exportedTasks()
    #expect(try fresh.exportedTasks() == expected)

    // A second import changes nothing, in the fresh one and in the original.
    let second = try fresh.run(["import", remconvPath])
    #expect(!second.output.contains(" add ") && !second.output.contains(" mod "), "\(second.output)")
    #expect(try fresh.exportedTasks() == expected)
    let back = try original.run(["import", remconvPath])
    #expect(!back.output.contains(" add ") && !back.output.contains(" mod "), "\(back.output)")
    #expect(try original.exportedTasks() == expected)

    // And remconv reading Taskwarrior's export again changes nothing either.
    let again = try DialectCLI.reportCounts(bench.run(["import", exportPath, "--report", "json"]).output)
    #expect(again.added == 0 && again.updated == 0 && again.unchanged == 4)
  }

  @Test func remindersSurviveATripThroughTask() throws {
    let source = TestBench()
    #expect(source.run(["import", Repository.path("Samples/json/reminders.json")]).status == .ok)
    let outbound = source.directory.write("out.json", source.run(["export", "--format", "taskwarrior"]).output)
    let taskwarrior = TaskwarriorSandbox()
    try taskwarrior.run(["import", outbound])
    let target = TestBench()
    let inbound = target.directory.write("in.json", try taskwarrior.run(["export"]).output)
    let imported = target.run(["import", inbound])
    #expect(imported.status == .ok, "\(imported.errors)")
    // Due kinds, UIDs, subtasks, URLs, notes and flags all come back.
    try DialectCLI.expectSameReminders(source.snapshot(), target.snapshot())
  }

  // MARK: What the real `task` cannot take (issue 21)

  /// Reminders with what `task import` splits (commas in tags) or crashes on (dates before
  /// 1980, in the last day of 9999), and a Taskwarrior export with a recurring task.
  static let edgeReminders = """
    {"format":"remconv","version":1,"lists":[{"id":"E0000000-0000-4000-8000-000000000000","name":"Edges",
    "symbol":"list.bullet","color":null,"createdAt":"2026-01-01T00:00:00Z","extra":{},"reminders":[
    {"id":"e0000000-0000-4000-8000-000000000001","title":"Comma tags","notes":"","isDone":false,"completedAt":null,\
    "flagged":false,"dueDate":null,"dueTimeZone":null,"priority":"none","parentId":null,\
    "tags":["red,green","two words","flagged"],"url":null,"createdAt":"2026-01-01T00:00:00Z",\
    "editedAt":"2026-01-02T00:00:00Z","extra":{}},
    {"id":"e0000000-0000-4000-8000-000000000002","title":"Long ago","notes":"","isDone":false,"completedAt":null,\
    "flagged":false,"dueDate":"1901-12-14","dueTimeZone":null,"priority":"none","parentId":null,"tags":[],\
    "url":null,"createdAt":"1901-12-13T20:45:52Z","editedAt":"1969-12-31T23:59:59Z","extra":{}},
    {"id":"e0000000-0000-4000-8000-000000000003","title":"Far ahead","notes":"","isDone":true,\
    "completedAt":"9999-12-31T23:59:59Z","flagged":false,"dueDate":"9999-12-31T23:59:59Z","dueTimeZone":null,\
    "priority":"none","parentId":null,"tags":[],"url":null,"createdAt":"2026-01-01T00:00:00Z",\
    "editedAt":"9999-12-31T23:59:59Z","extra":{}}
    ]}]}
    """

  /// A store with the sample, the edges and a recurring task, exported as Taskwarrior: the
  /// real `task import` takes the whole file, `task export` shows the values, and remconv
  /// reads `task`'s export back to the same reminders, adding nothing.
  @Test func theWholeExportOfARichStoreImportsIntoTheRealTask() throws {
    let bench = TestBench()
    #expect(bench.run(["import", Repository.path("Samples/json/reminders.json")]).status == .ok)
    #expect(bench.run(["import", bench.directory.write("edges.json", Self.edgeReminders)]).status == .ok)
    #expect(bench.run(["import", DialectCLI.fixture("taskwarrior", "export.json")]).status == .ok)
    let path = bench.directory.file("all.json")
    let exported = bench.run(["export", "--format", "taskwarrior", "-o", path])
    #expect(exported.status == .ok, "\(exported.errors)")
    for said in [
      "the tag 'red,green' is written as 'red_green'",
      "the due 1901-12-14 is written as remconv_due, not 'due'",
      "1901-12-13T20:45:52Z is written as remconv_entry, not 'entry'",
      "9999-12-31T23:59:59Z is written as remconv_end, not 'end'",
    ] {
      #expect(exported.errors.contains(said), "\(said)")
    }

    let taskwarrior = TaskwarriorSandbox()
    try taskwarrior.run(["import", path])
    let tasks = try taskwarrior.exportedTasks()
    let commas = try #require(tasks["e0000000-0000-4000-8000-000000000001"])
    #expect(
      commas["tags"] == .array([.string("flagged_tag"), .string("red_green"), .string("two_words")]),
      "task keeps each tag whole")
    let past = try #require(tasks["e0000000-0000-4000-8000-000000000002"])
    #expect(past["due"] == nil && past["remconv_due"] == .string("1901-12-14"))
    #expect(past["remconv_entry"] == .string("1901-12-13T20:45:52Z"))
    let future = try #require(tasks["e0000000-0000-4000-8000-000000000003"])
    #expect(future["status"] == .string("completed"))
    #expect(future["due"] == nil && future["remconv_due"] == .string("9999-12-31T23:59:59Z"))
    #expect(future["remconv_end"] == .string("9999-12-31T23:59:59Z"))
    // The recurring task went in as Taskwarrior had it: the template and its instance.
    let template = try #require(tasks["81421bc8-4791-4947-ad50-e73c1bd19e7a"])
    #expect(template["status"] == .string("recurring"))
    let instance = try #require(tasks["6854127d-9891-4874-abc2-dc3dc528079f"])
    #expect(instance["parent"] == .string("81421bc8-4791-4947-ad50-e73c1bd19e7a"))
    #expect(tasks["8d4bb3ff-305c-4b58-ba65-50f421975fa2"]?["project"] == nil, "without a project, as it came")

    // Back from `task`: the same reminders, the edges' values restored, nothing added.
    let copy = TestBench()
    let back = copy.directory.write("back.json", try taskwarrior.run(["export"]).output)
    #expect(copy.run(["import", back]).status == .ok)
    let reminders = try DialectCLI.reminders(of: copy.snapshot())
    let original = try DialectCLI.reminders(of: bench.snapshot())
    #expect(reminders.count == original.count)
    for id in ["e0000000-0000-4000-8000-000000000001", "e0000000-0000-4000-8000-000000000002"] {
      let members = try #require(reminders[id]?.members)
      let expected = try #require(original[id]?.members)
      for field in ["tags", "flagged", "dueDate", "createdAt", "editedAt"] {
        #expect(members[field] == expected[field], "\(id) \(field)")
      }
    }
    let far = try #require(reminders["e0000000-0000-4000-8000-000000000003"]?.members)
    #expect(far["dueDate"] == .string("9999-12-31T23:59:59Z"))
    #expect(far["completedAt"] == .string("9999-12-31T23:59:59Z"))
    #expect(far["editedAt"] == .string("9999-12-31T23:59:59Z"))
    let counts = try DialectCLI.reportCounts(bench.run(["import", back, "--report", "json"]).output)
    #expect(counts.added == 0)
  }

  /// A recurring task made with `task add … recur:` (a template and several instances) is one
  /// reminder, and a second export of the same tasks adds nothing.
  @Test func aRecurringTaskIsOneReminder() throws {
    let taskwarrior = TaskwarriorSandbox()
    try taskwarrior.run(["add", "Water plants", "due:2026-01-05", "recur:weekly", "project:Home"])
    try taskwarrior.run(["add", "Buy soil", "project:Home"])
    let exported = try taskwarrior.run(["export"]).output
    let taskCount = try #require(try JSONParser.parse(exported).arrayValue).count
    #expect(taskCount > 3, "task made instances: \(taskCount) tasks")
    let bench = TestBench()
    let path = bench.directory.write("tw.json", exported)
    let result = bench.run(["import", path, "--report", "json"])
    #expect(try DialectCLI.reportCounts(result.output).added == 2)
    let titles = try DialectCLI.reminders(of: bench.snapshot()).values.compactMap { $0.members["title"]?.stringValue }
    #expect(titles.sorted() == ["Buy soil", "Water plants"])
    // Written back, the template and every instance go to `task` as they were.
    let fresh = TaskwarriorSandbox()
    try fresh.run([
      "import", bench.directory.write("out.json", bench.run(["export", "--format", "taskwarrior"]).output),
    ])
    #expect(try fresh.exportedTasks().count == taskCount)
  }

  // MARK: Recurrence (issue 22)

  static let templateUUID = "b1a7e0c2-0001-4f00-8000-000000000022"

  /// A weekly reminder on Tuesdays at 09:00 in Berlin until the end of January, one Tuesday left
  /// out, an alarm 15 minutes before, starting the day before: as remconv writes it for `task`.
  static let weeklyReminder = #"""
    [
    {"description":"Team call","due":"20261201T080000Z","remconv_due":"2026-12-01T09:00:00 Europe/Berlin","remconv_due_sent":"20261201T080000Z","scheduled":"20261130T080000Z","remconv_scheduled":"2026-11-30T09:00:00 Europe/Berlin","remconv_scheduled_sent":"20261130T080000Z","recur":"weekly","until":"20270131T230000Z","status":"recurring","uuid":"b1a7e0c2-0001-4f00-8000-000000000022","entry":"20261120T080000Z","modified":"20261120T080000Z","project":"Work","remconv_recurrence":"{\"rule\":\"FREQ=WEEKLY;BYDAY=TU;UNTIL=20270131T230000Z\",\"basis\":\"due\",\"exceptionDates\":[{\"date\":\"2026-12-22T09:00:00\",\"timeZone\":\"Europe/Berlin\"}],\"additionalDates\":[],\"recur\":\"weekly\",\"until\":\"20270131T230000Z\"}","remconv_alarms":"[{\"action\":\"DISPLAY\",\"text\":\"Call\",\"offset\":-900,\"relatedTo\":\"due\"}]"}
    ]
    """#

  /// The template remconv exports for the reminder in `bench`.
  private func exportedTemplate(_ bench: TestBench) throws -> [String: JSONValue] {
    let result = bench.run(["export", "--format", "taskwarrior"])
    #expect(result.status == .ok, "\(result.errors)")
    let tasks = try #require(try JSONParser.parse(result.output).arrayValue)
    return try #require(tasks.first { $0["uuid"] == .string(Self.templateUUID) }?.objectValue)
  }

  /// remconv's export of a recurring reminder goes into the real `task` as a template, `task`
  /// makes its instances, and what `task` exports comes back as one reminder with the rule; the
  /// exception and alarm `task` cannot hold are reported and come back with it.
  @Test func theRealTaskRepeatsARecurringReminder() throws {
    let bench = TestBench()
    #expect(bench.run(["import", bench.directory.write("rich.json", Self.weeklyReminder)]).status == .ok)
    let outbound = bench.directory.file("out.json")
    let exported = bench.run(["export", "--format", "taskwarrior", "-o", outbound])
    #expect(exported.status == .ok, "\(exported.errors)")
    #expect(exported.errors.contains("EXDATE 2026-12-22T09:00:00 Europe/Berlin"), "\(exported.errors)")
    #expect(exported.errors.contains("Taskwarrior has no alarms"), "\(exported.errors)")

    let taskwarrior = TaskwarriorSandbox()
    try taskwarrior.run(["import", outbound])
    let tasks = try taskwarrior.exportedTasks()
    let template = try #require(tasks[Self.templateUUID])
    #expect(template["status"] == .string("recurring"))
    #expect(template["recur"] == .string("weekly"))
    #expect(template["until"] == .string("20270131T230000Z"))
    // `task` made the instances: pending tasks of the template, on its Tuesdays at 08:00 UTC.
    let instances = tasks.values.filter { $0["parent"] == .string(Self.templateUUID) }
    #expect(!instances.isEmpty)
    let first = try #require(Timestamp(iso: "2026-12-01T08:00:00Z")).millisecondsSinceEpoch
    for instance in instances {
      #expect(instance["status"] == .string("pending"))
      let due = try #require(instance["due"]?.stringValue.flatMap(Timestamp.init(iso:))).millisecondsSinceEpoch
      #expect((due - first) % (7 * 86_400_000) == 0 && due >= first, "\(due)")
      #expect(due <= (try #require(Timestamp(iso: "2027-01-31T23:00:00Z"))).millisecondsSinceEpoch)
    }

    // What `task` wrote back is one reminder, with the rule, its exception and the alarm.
    let copy = TestBench()
    let inbound = copy.directory.write("back.json", try taskwarrior.run(["export"]).output)
    let imported = copy.run(["import", inbound, "--report", "json"])
    #expect(try DialectCLI.reportCounts(imported.output).added == 1, "\(imported.errors)")
    let back = try exportedTemplate(copy)
    #expect(back["recur"] == .string("weekly") && back["status"] == .string("recurring"))
    let rule = try #require(back["remconv_recurrence"]?.stringValue.flatMap { try? JSONParser.parse($0) })
    #expect(rule["rule"] == .string("FREQ=WEEKLY;BYDAY=TU;UNTIL=20270131T230000Z"))
    #expect(rule["exceptionDates"]?.arrayValue?.count == 1)
    #expect(back["remconv_alarms"] == template["remconv_alarms"])
    #expect(back["scheduled"] == .string("20261130T080000Z"))
    #expect(back["remconv_instances"] == nil, "the instances are kept in extra, written after the template")

    // Re-imported over the richer store, `task`'s export and remconv's own change no rule.
    for file in [inbound, outbound] {
      let again = bench.run(["import", file, "--report", "json"])
      #expect(try DialectCLI.reportCounts(again.output).added == 0, "\(again.errors)")
      let kept = try exportedTemplate(bench)
      #expect(kept["remconv_recurrence"] == back["remconv_recurrence"])
      #expect(kept["remconv_alarms"] == template["remconv_alarms"])
    }
  }

  /// Tasks without a project land in the list 'Taskwarrior' whatever the export's file is
  /// called, so a newer export under another name finds them where they are.
  @Test func tasksWithoutAProjectLandInOneListWhateverTheFileName() throws {
    let bench = TestBench()
    let text = Repository.read("Tests/RemconvCoreTests/Fixtures/taskwarrior/export.json")
    #expect(bench.run(["import", bench.directory.write("monday.json", text)]).status == .ok)
    let again = bench.run(["import", bench.directory.write("tuesday.json", text), "--report", "json"])
    let counts = try DialectCLI.reportCounts(again.output)
    #expect(counts.added == 0 && counts.updated == 0)
    let lists = try #require(try JSONParser.parse(bench.snapshot())["lists"]?.arrayValue).compactMap {
      $0["name"]?.stringValue
    }
    #expect(lists.sorted() == ["Errands", "Home.Finance", "Taskwarrior"])
  }

  /// A Taskwarrior instant as remconv writes it: `20261201T080000Z` → `2026-12-01T08:00:00Z`.
  private func iso(_ value: JSONValue) -> JSONValue? {
    value.stringValue.flatMap { Timestamp(iso: $0) }.map { .string($0.description) }
  }
}
