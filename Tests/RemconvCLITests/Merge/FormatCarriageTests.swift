import Foundation
import RemconvCLI
import RemconvCore
import RemconvTestSupport
import Testing

/// Issue 21's proof: the table of docs/formats.md ("What each format carries") is the oracle of
/// a round trip of a rich store through every writable format.
@Suite struct FormatCarriageTests {
  /// The table as docs/formats.md writes it: format → field → `yes`, `changed` or `no`.
  static func documentedTable() throws -> [String: [String: String]] {
    let text = try String(contentsOfFile: Repository.path("docs/formats.md"), encoding: .utf8)
    let start = try #require(text.range(of: "<!-- carriage-table -->"))
    let end = try #require(text.range(of: "<!-- /carriage-table -->"))
    let rows = text[start.upperBound..<end.lowerBound].split(separator: "\n").map { line in
      line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
    }.filter { !$0.isEmpty }
    let formats = rows[0].dropFirst().map { $0.replacingOccurrences(of: " *read*", with: "") }
    var table: [String: [String: String]] = [:]
    for row in rows.dropFirst(2) {
      let field = row[0].replacingOccurrences(of: "`", with: "")
      for (format, cell) in zip(formats, row.dropFirst()) { table[format, default: [:]][field] = cell }
    }
    return table
  }

  @Test func theDocumentedTableIsTheOneThePipelineUses() throws {
    let documented = try Self.documentedTable()
    #expect(Set(documented.keys) == Set(FormatCarriage.table.map(\.format)))
    for carriage in FormatCarriage.table {
      var mirrored = carriage.fields.mapValues(\.rawValue)
      mirrored["UIDs"] = carriage.identity.rawValue
      #expect(documented[carriage.format] == mirrored, "\(carriage.format)")
    }
    let writable = Set(FormatRegistry.writableNames)
    #expect(Set(FormatCarriage.table.filter { !$0.readOnly }.map(\.format)) == writable)
  }

  /// A store with the model's values and edges: CR and CRLF in notes, a control character,
  /// milliseconds, a due in a DST gap, dates from 1901 to 9999, an empty URL, a comma in a tag,
  /// every app's extra, a subtask.
  static let richStore = """
    {"format":"remconv","version":1,"lists":[
    {"id":"LIST-W","name":"Work","symbol":"briefcase","color":"#FF9500","createdAt":"2024-01-02T03:04:05.678Z",
     "extra":{"ical":{"lines":["X-APPLE-SORT-ORDER:1"]},"todoist":{"meta":["view_style=list"]}},"reminders":[
      {"id":"R-1","title":"Plan the offsite","notes":"line one\\r\\nline two\\rthree","flagged":true,"priority":"high",
       "tags":["plan","a,b"],"url":"https://example.com/offsite","dueDate":"2026-03-29T02:30:00","dueTimeZone":"Europe/Berlin",
       "createdAt":"2024-01-02T03:04:05.678Z","editedAt":"2024-01-03T00:00:00Z","startDate":"2026-03-20",
       "recurrence":{"rule":"FREQ=WEEKLY;BYDAY=TU","basis":"due",
         "exceptionDates":[{"date":"2026-03-31T02:30:00","timeZone":"Europe/Berlin"}],"additionalDates":[]},
       "alarms":[{"action":"DISPLAY","text":"soon, really","offset":-900,"relatedTo":"due"},
         {"action":"AUDIO","text":null,"at":"2026-03-29T00:00:00Z"}],
       "extra":{"ical":{"lines":["LOCATION:Berlin"]},"taskwarrior":{"urgency":"3"},"googletasks":{"position":"001"},
       "mstodo":{"importance":"high"},"ticktick":{"Kind":"TEXT"},"csv":{"Column":"x"}}},
      {"id":"R-2","parentId":"R-1","title":"Book rooms","dueDate":"1901-12-14","priority":"medium","url":""},
      {"id":"R-3","title":"Far future","dueDate":"9999-12-31T23:59:59Z","isDone":true,"completedAt":"2025-06-01T12:00:00.250Z"}
    ]},
    {"id":"LIST-H","name":"Home","reminders":[{"id":"R-4","title":"Water plants","notes":"every second day\\u0007"}]}]}
    """

  static func bench(with store: String) throws -> TestBench {
    let bench = TestBench()
    let result = bench.run(["import", "-", "--format", "json"], input: store)
    #expect(result.status == .ok, "\(result.errors)")
    return bench
  }

  static func exported(_ format: String, from bench: TestBench, list: String = "Work") throws -> (
    path: String, errors: String
  ) {
    // Formats that name their one list after the file (csv:todoist) name it after the list.
    let path = bench.directory.file(list + "." + format.replacingOccurrences(of: ":", with: "-"))
    let only = oneListPerFile.contains(format) ? ["--list", list] : []
    let result = bench.run(["export", "--format", format, "--output", path] + only)
    #expect(result.status == .ok, "\(format): \(result.errors)")
    return (path, result.errors)
  }

  /// Formats whose file is one list (a Todoist template is one project): the store goes out one
  /// list a file. A whole store in one such file folds the later lists into sections of the
  /// first, reported at export (TodoistCSVFormatTests).
  static let oneListPerFile: Set<String> = ["csv:todoist"]

  static func report(_ result: CLIResult) throws -> JSONValue {
    #expect(result.status == .ok, "\(result.errors)")
    return try JSONParser.parse(result.output)
  }

  /// Export, import into the same store: nothing changes, and the JSON export is the same bytes.
  @Test(arguments: FormatCarriage.table.filter { !$0.readOnly }.map(\.format))
  func intoTheSameStoreNothingChanges(format: String) throws {
    let bench = try Self.bench(with: Self.richStore)
    let before = bench.snapshot()
    let lists = Self.oneListPerFile.contains(format) ? ["Work", "Home"] : ["Work"]
    let paths = try lists.map { try Self.exported(format, from: bench, list: $0).path }
    for path in paths {
      let again = try Self.report(bench.run(["import", path, "--format", format, "--report", "json"]))
      #expect(again["added"] == .number(0) && again["updated"] == .number(0), "\(format): \(again)")
      #expect(again["listsUpdated"] == .number(0), "\(format): \(again)")
    }
    #expect(bench.snapshot() == before, "\(format)")
  }

  /// Export, import into an empty store: every field the table says the format keeps comes back
  /// as it was.
  @Test(arguments: FormatCarriage.table.filter { !$0.readOnly })
  func intoAnEmptyStoreWhatTheFormatKeepsComesBack(carriage: FormatCarriage) throws {
    try Self.expectRoundTrip(of: Self.richStore, through: carriage)
  }

  /// The same through seeded random stores (issue 40): every declared field set, values of
  /// every kind (`PropertyValues`), subtasks. A field comes back as it was, or the export names
  /// it in a `cannot-carry` warning as the table says. `REMCONV_PROPERTY_SEED` replays a run.
  @Test(arguments: FormatCarriage.table.filter { !$0.readOnly })
  func seededStoresComeBackAsTheTableSays(carriage: FormatCarriage) throws {
    let first = ProcessInfo.processInfo.environment["REMCONV_PROPERTY_SEED"].flatMap(UInt64.init) ?? 40
    for seed in first..<first + 3 {
      var random = SeededGenerator(seed: seed)
      let lists = (0..<2).map { index in
        let list = ReminderList(
          id: "list-\(seed)-\(index)", name: index == 0 ? "Work" : "Home", symbol: "star",
          color: "#34C759", createdAt: Timestamp(millisecondsSinceEpoch: 1_700_000_000_000))
        var reminders: [Reminder] = []
        for number in 0..<6 {
          var reminder = PropertyValues.reminder(id: "r-\(seed)-\(index)-\(number)", list: list.id, &random)
          if number % 3 == 2 { reminder.parentID = reminders[number - 1].id }
          reminders.append(reminder)
        }
        return (list, reminders)
      }
      try Self.expectRoundTrip(of: PropertyValues.document(lists), through: carriage, seed: seed)
    }
  }

  /// Export of `store` in the carriage's format, import into an empty store: every field the
  /// table says the format keeps comes back as it was, and the export reports the others.
  static func expectRoundTrip(of store: String, through carriage: FormatCarriage, seed: UInt64? = nil) throws {
    let bench = try Self.bench(with: store)
    let original = try JSONParser.parse(bench.snapshot())
    let lists = Self.oneListPerFile.contains(carriage.format) ? ["Work", "Home"] : ["Work"]
    let exports = try lists.map { try Self.exported(carriage.format, from: bench, list: $0) }
    let errors = exports.map(\.errors).joined(separator: "\n")
    // What the format loses of the rich store is reported at export.
    if carriage.fields.values.contains(.lost) {
      #expect(errors.contains("[cannot-carry]"), "\(carriage.format): \(errors)")
    }
    let empty = TestBench()
    for (path, _) in exports {
      #expect(empty.run(["import", path, "--format", carriage.format]).status == .ok)
    }
    let copy = try JSONParser.parse(empty.snapshot())
    // A field the format changes is reported at export for every reminder whose value it changed.
    for (field, keeping) in carriage.fields where keeping == .changed && !field.hasPrefix("list.") {
      for reminder in Self.reminders(of: original) {
        guard let back = Self.counterpart(of: reminder, in: copy),
          Self.value(field, of: back) != Self.value(field, of: reminder), case .string(let uid)? = reminder["id"]
        else { continue }
        #expect(
          errors.split(separator: "\n").contains { $0.contains("[cannot-carry]") && $0.contains(uid) },
          "\(carriage.format): \(field) of \(uid) changed without a report: \(errors)")
      }
    }
    for (field, keeping) in carriage.fields where keeping == .kept && !field.hasPrefix("list.") && field != "parent" {
      // A format that does not keep isDone drops completed reminders (Todoist templates).
      for reminder in Self.reminders(of: original)
      where carriage.keeps("isDone") == .kept || reminder["isDone"] != .bool(true) {
        let title = reminder["title"]
        let back = Self.counterpart(of: reminder, in: copy)
        #expect(back != nil, "\(carriage.format): \(title ?? .null) is missing")
        guard let back else { continue }
        #expect(
          Self.value(field, of: back) == Self.value(field, of: reminder),
          "\(carriage.format): \(field) of \(title ?? .null)")
      }
    }
    for (field, keeping) in carriage.fields where keeping == .kept && field.hasPrefix("list.") {
      let key = String(field.dropFirst("list.".count))
      for list in original["lists"]?.arrayValue ?? [] {
        let back = copy["lists"]?.arrayValue?.first { $0["id"] == list["id"] || $0["name"] == list["name"] }
        #expect(back?[key] == list[key], "\(carriage.format): \(field) of \(list["name"] ?? .null)")
      }
    }
  }

  /// The reminder of `snapshot` that `reminder` came back as: the one with its UID, else (a
  /// format without UIDs) its title, as the format may have trimmed it.
  static func counterpart(of reminder: JSONValue, in snapshot: JSONValue) -> JSONValue? {
    let all = reminders(of: snapshot)
    let title = reminder["title"]?.stringValue
    return all.first { $0["id"] == reminder["id"] } ?? all.first { $0["title"]?.stringValue == title }
      ?? all.first { $0["title"]?.stringValue == title?.trimmingCharacters(in: .whitespaces) }
  }

  static func reminders(of snapshot: JSONValue) -> [JSONValue] {
    (snapshot["lists"]?.arrayValue ?? []).flatMap { $0["reminders"]?.arrayValue ?? [] }
  }

  /// A field of an exported reminder; `dueDate` is its due, kind and zone together.
  static func value(_ field: String, of reminder: JSONValue) -> JSONValue? {
    switch field {
    case "dueDate": .array([reminder["dueDate"] ?? .null, reminder["dueTimeZone"] ?? .null])
    case "startDate": .array([reminder["startDate"] ?? .null, reminder["startTimeZone"] ?? .null])
    default: reminder[field]
    }
  }
}
