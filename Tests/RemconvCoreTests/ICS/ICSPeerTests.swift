import Foundation
import RemconvCLI
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// Other programs read what remconv writes, and remconv reads what they write. These run when
/// the peers are installed (Debian's `python3-icalendar` and `todoman`).
@Suite struct ICSPeerTests {
  static let python = "/usr/bin/python3"
  static let todomanPath = "/usr/bin/todoman"

  static let hasPythonICalendar: Bool = {
    guard ICSTest.exists(python) else { return false }
    return (try? ICSTest.run(python, ["-c", "import icalendar"]).status) == 0
  }()

  /// Prints every VTODO of the files given as arguments as JSON, read by python-icalendar.
  static let dumpScript = #"""
    import json, sys, datetime
    import icalendar

    def when(value):
        if value is None:
            return None
        dt = value.dt
        if isinstance(dt, datetime.datetime):
            if dt.tzinfo is None:
                return {"kind": "floating", "value": dt.strftime("%Y-%m-%dT%H:%M:%S")}
            zone = getattr(dt.tzinfo, "zone", None) or str(dt.tzinfo)
            if zone in ("UTC", "Etc/UTC") and value.params.get("TZID") is None:
                return {"kind": "utc", "value": dt.strftime("%Y-%m-%dT%H:%M:%SZ")}
            return {"kind": "zoned", "value": dt.strftime("%Y-%m-%dT%H:%M:%S"), "zone": zone}
        return {"kind": "date", "value": dt.isoformat()}

    def texts(value):
        if value is None:
            return []
        items = value if isinstance(value, list) else [value]
        result = []
        for item in items:
            result.extend(str(category) for category in getattr(item, "cats", [item]))
        return result

    todos = []
    for path in sys.argv[1:]:
        with open(path, "rb") as handle:
            for calendar in icalendar.Calendar.from_ical(handle.read(), multiple=True):
                for todo in calendar.walk("VTODO"):
                    if todo.get("RECURRENCE-ID") is not None:
                        continue
                    related = todo.get("RELATED-TO")
                    todos.append({
                        "uid": str(todo.get("UID")),
                        "summary": str(todo.get("SUMMARY", "")),
                        "description": str(todo.get("DESCRIPTION", "")),
                        "status": str(todo.get("STATUS", "")),
                        "priority": int(todo.get("PRIORITY")) if todo.get("PRIORITY") not in (None, "") else None,
                        "due": when(todo.get("DUE")),
                        "completed": when(todo.get("COMPLETED")),
                        "categories": texts(todo.get("CATEGORIES")),
                        "parent": str(related) if related is not None and not isinstance(related, list)
                            and related.params.get("RELTYPE", "PARENT") == "PARENT" else None,
                        "url": str(todo.get("URL")) if todo.get("URL") is not None else None,
                    })
    print(json.dumps(todos))
    """#

  /// The store of the samples and every readable fixture.
  private func richBench() -> TestBench {
    let bench = TestBench()
    #expect(bench.run(["import", Repository.path("Samples/json/reminders.json")]).status == .ok)
    for fixture in ICSWriterTests.readableFixtures { bench.run(["import", ICSTest.fixture(fixture)]) }
    return bench
  }

  /// python-icalendar's view of `paths`, by UID.
  private func pythonView(_ paths: [String]) throws -> [String: [String: JSONValue]] {
    let result = try ICSTest.run(Self.python, ["-c", Self.dumpScript] + paths)
    #expect(result.status == 0, "\(result.errors)")
    let parsed = try JSONParser.parse(result.output)
    var byUID: [String: [String: JSONValue]] = [:]
    for item in parsed.arrayValue ?? [] {
      guard let object = item.objectValue, let uid = object["uid"]?.stringValue else { continue }
      byUID[uid] = object
    }
    return byUID
  }

  /// Checks that python-icalendar reads each reminder with the values remconv gave it.
  private func expectSameValues(_ reminders: [Reminder], _ view: [String: [String: JSONValue]]) {
    #expect(!reminders.isEmpty)
    for reminder in reminders {
      guard let todo = view[reminder.id] else {
        Issue.record("python-icalendar did not find \(reminder.id)")
        continue
      }
      #expect(todo["summary"]?.stringValue == reminder.title, "\(reminder.id)")
      #expect(todo["description"]?.stringValue == reminder.notes, "\(reminder.id)")
      let categories = todo["categories"]?.arrayValue?.compactMap(\.stringValue) ?? []
      if reminder.tags.contains(where: { $0.contains(",") }) {
        // python-icalendar 4 unescapes a CATEGORIES value before splitting it at commas, so an
        // escaped comma splits a tag (formats.md §1.7 item 8); the text it reads is the same.
        #expect(categories.joined(separator: ",") == reminder.tags.joined(separator: ","), "\(reminder.id)")
      } else {
        #expect(categories == reminder.tags, "\(reminder.id)")
      }
      #expect(todo["parent"]?.stringValue == reminder.parentID, "\(reminder.id)")
      #expect(todo["url"]?.stringValue == reminder.url, "\(reminder.id)")
      let status = todo["status"]?.stringValue ?? ""
      #expect(["COMPLETED", "CANCELLED"].contains(status) == reminder.isDone, "\(reminder.id): \(status)")
      let priority = todo["priority"]?.intValue
      #expect(priority.map(Priority.init(iCalendarNumber:)) ?? .none == reminder.priority, "\(reminder.id)")
      #expect(
        todo["completed"]?["value"]?.stringValue == reminder.completedAt.map { VTodoEncoder.utc($0).asExtendedUTC },
        "\(reminder.id)")
      switch reminder.dueDate {
      case nil:
        #expect(todo["due"]?.isNull ?? true, "\(reminder.id)")
      case .date(let date):
        #expect(
          todo["due"] == .object(["kind": .string("date"), "value": .string(date.description)]), "\(reminder.id)")
      case .floating(let time):
        #expect(
          todo["due"] == .object(["kind": .string("floating"), "value": .string(time.description)]), "\(reminder.id)")
      case .utc(let time):
        #expect(
          todo["due"] == .object(["kind": .string("utc"), "value": .string(time.description + "Z")]), "\(reminder.id)")
      case .zoned(let time, let zone):
        #expect(
          todo["due"]
            == .object(["kind": .string("zoned"), "value": .string(time.description), "zone": .string(zone)]),
          "\(reminder.id)")
      }
    }
  }

  @Test(.enabled(if: hasPythonICalendar))
  func pythonICalendarReadsTheIcsExportWithTheSameValues() throws {
    let bench = richBench()
    let path = bench.directory.file("all.ics")
    #expect(bench.run(["export", "--format", "ics", "-o", path]).status == .ok)
    let reread = try ICSTest.read(path: path)
    expectSameValues(reread.reminders, try pythonView([path]))
  }

  @Test(.enabled(if: hasPythonICalendar))
  func pythonICalendarReadsEveryVdirItemWithTheSameValues() throws {
    let bench = richBench()
    let root = bench.directory.file("vdir")
    #expect(bench.run(["export", "--format", "vdir", "-o", root]).status == .ok)
    var paths: [String] = []
    for folder in try FileManager.default.contentsOfDirectory(atPath: root) {
      for file in try FileManager.default.contentsOfDirectory(atPath: root + "/" + folder) where file.hasSuffix(".ics")
      {
        paths.append(root + "/" + folder + "/" + file)
      }
    }
    var reminders: [Reminder] = []
    for path in paths { reminders += try ICSTest.read(path: path).reminders }
    #expect(reminders.count == paths.count)
    expectSameValues(reminders, try pythonView(paths))
  }

  // MARK: todoman

  /// A todoman configuration of its own in `folder`, for the lists under `root`.
  private func todomanConfig(in folder: TemporaryDirectory, root: String) -> String {
    folder.write(
      "todoman/config.py",
      """
      path = "\(root)/*"
      cache_path = "\(folder.file("todoman/cache.sqlite3"))"
      date_format = "%Y-%m-%d"
      time_format = "%H:%M"
      default_list = "Errands"
      """)
  }

  private func todoman(_ arguments: [String], config: String, home: String) throws -> ProcessOutcome {
    try ICSTest.run(
      Self.todomanPath, ["--config", config] + arguments,
      environment: ["TZ": "UTC", "HOME": home, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
  }

  @Test(.enabled(if: ICSTest.exists(todomanPath)))
  func todomanListsAnExportedVdirWithTheSameValues() throws {
    let bench = TestBench(environment: ["TZ": "UTC"])
    #expect(bench.run(["import", Repository.path("Samples/json/reminders.json")]).status == .ok)
    let root = bench.directory.file("vdir")
    #expect(bench.run(["export", "--format", "vdir", "-o", root]).status == .ok)
    let config = todomanConfig(in: bench.directory, root: root)
    let listed = try todoman(["--porcelain", "list", "--status", "ANY"], config: config, home: bench.directory.path)
    #expect(listed.status == 0, "\(listed.errors)")
    let todos = try JSONParser.parse(listed.output).arrayValue ?? []
    let sample = try ICSTest.read(path: Repository.path("Samples/ics/reminders.ics"))
    let reminders = sample.reminders
    #expect(todos.count == reminders.count)
    let utc = try #require(TimeZone(identifier: "UTC"))
    for reminder in reminders {
      guard let todo = todos.first(where: { $0["summary"]?.stringValue == reminder.title }) else {
        Issue.record("todoman does not list '\(reminder.title)'")
        continue
      }
      #expect(todo["completed"]?.boolValue == reminder.isDone, "\(reminder.title)")
      #expect(todo["priority"]?.intValue == reminder.priority.iCalendarNumber ?? 0, "\(reminder.title)")
      #expect(todo["list"]?.stringValue == sample.lists.first { $0.id == reminder.listID }?.name, "\(reminder.title)")
      // todoman prints due dates as seconds since 1970: a date at midnight of the local (UTC) day.
      let expectedDue: Int64? = reminder.dueDate.map { due in
        switch due {
        case .date(let date): Int64(date.daysSinceEpoch) * 86400
        case .floating(let time): time.secondsSinceEpoch
        default: due.sortKey(in: utc)
        }
      }
      #expect(todo["due"]?.intValue.map(Int64.init) == expectedDue, "\(reminder.title)")
    }
  }

  @Test(.enabled(if: ICSTest.exists(todomanPath)))
  func itemsMadeByTodomanImport() throws {
    let bench = TestBench(environment: ["TZ": "UTC"])
    let root = bench.directory.file("lists")
    try FileManager.default.createDirectory(atPath: root + "/Errands", withIntermediateDirectories: true)
    let config = todomanConfig(in: bench.directory, root: root)
    let home = bench.directory.path
    #expect(
      try todoman(
        ["new", "-l", "Errands", "--due", "2026-12-01", "--priority", "high", "Buy stamps"], config: config, home: home
      ).status == 0)
    #expect(
      try todoman(
        ["new", "-l", "Errands", "--due", "2026-12-02 09:30", "Call Anna, today"], config: config, home: home
      ).status == 0)
    #expect(try todoman(["new", "-l", "Errands", "Finished already"], config: config, home: home).status == 0)
    let listed = try todoman(["--porcelain", "list"], config: config, home: home)
    let finishedID = try JSONParser.parse(listed.output).arrayValue?.first {
      $0["summary"]?.stringValue == "Finished already"
    }?["id"]?.intValue
    #expect(try todoman(["done", String(try #require(finishedID))], config: config, home: home).status == 0)

    let result = bench.run(["import", root])
    #expect(result.status == .ok, "\(result.errors)")
    let imported = try JSONParser.parse(bench.run(["export", "--format", "json"]).output)
    let list = try #require(imported["lists"]?.arrayValue?.first)
    #expect(list["name"]?.stringValue == "Errands")
    let reminders = list["reminders"]?.arrayValue ?? []
    #expect(reminders.count == 3)
    let stamps = try #require(reminders.first { $0["title"]?.stringValue == "Buy stamps" })
    #expect(stamps["dueDate"]?.stringValue == "2026-12-01")
    #expect(stamps["priority"]?.stringValue == "high")
    #expect(stamps["isDone"]?.boolValue == false)
    let call = try #require(reminders.first { $0["title"]?.stringValue == "Call Anna, today" })
    #expect(call["dueDate"]?.stringValue == "2026-12-02T09:30:00Z")
    #expect(call["priority"]?.stringValue == "none")
    let finished = try #require(reminders.first { $0["title"]?.stringValue == "Finished already" })
    #expect(finished["isDone"]?.boolValue == true)
    #expect(finished["completedAt"]?.stringValue != nil)
    let todomanUID = try #require(stamps["id"]?.stringValue)
    #expect(todomanUID.contains("@"))
  }
}

extension String {
  /// `20261128T162000Z` as `2026-11-28T16:20:00Z`, python's form.
  fileprivate var asExtendedUTC: String {
    let digits = Array(self)
    guard digits.count == 16 else { return self }
    func part(_ range: Range<Int>) -> String { String(digits[range]) }
    return part(0..<4) + "-" + part(4..<6) + "-" + part(6..<8) + "T" + part(9..<11) + ":" + part(11..<13) + ":"
      + part(13..<15) + "Z"
  }
}
