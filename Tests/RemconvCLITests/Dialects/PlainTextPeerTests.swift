import Foundation
import RemconvCLI
import RemconvCore
import RemconvTestSupport
import Testing

/// A todo.txt folder of its own for `todo.sh` (Debian's `todo-txt`) and `topydo`, with their
/// configuration and HOME in it, so the tests never touch a user's tasks. Both programs come
/// from `Scripts/bootstrap.sh --test`; a test that needs one fails when it is missing.
final class TodoTxtSandbox {
  static let todoSh = Program.find("todo-txt") ?? Program.find("todo.sh")
  static let topydo = Program.find("topydo")

  let directory = TemporaryDirectory()
  var todoFile: String { directory.file("todo.txt") }
  var doneFile: String { directory.file("done.txt") }

  init() {
    directory.write(
      "config",
      """
      export TODO_DIR=\(directory.path)
      export TODO_FILE=\(directory.path)/todo.txt
      export DONE_FILE=\(directory.path)/done.txt
      export REPORT_FILE=\(directory.path)/report.txt
      export TODOTXT_DATE_ON_ADD=1
      export TODOTXT_AUTO_ARCHIVE=0
      export TODOTXT_VERBOSE=0

      """)
    directory.write("topydo.conf", "[topydo]\ncolors = 0\n[add]\nauto_creation_date = 1\n")
    for name in ["todo.txt", "done.txt", "report.txt"]
    where !FileManager.default.fileExists(atPath: directory.file(name)) {
      directory.write(name, "")
    }
  }

  private var environment: [String: String] {
    ["HOME": directory.path, "PATH": "/usr/bin:/bin", "TZ": "Europe/Berlin", "LC_ALL": "C.UTF-8"]
  }

  /// `todo.sh ARGUMENTS` on the sandbox's files.
  @discardableResult
  func todoSh(_ arguments: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> String {
    let program = try #require(
      Self.todoSh, "todo.sh is missing: run Scripts/bootstrap.sh --test", sourceLocation: sourceLocation)
    let outcome = try Program.run(
      program, ["-d", directory.file("config"), "-p", "-f"] + arguments, environment: environment)
    #expect(outcome.status == 0, "todo.sh \(arguments): \(outcome.errors)", sourceLocation: sourceLocation)
    return outcome.output
  }

  /// `topydo ARGUMENTS` on the sandbox's files.
  @discardableResult
  func topydo(_ arguments: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> String {
    let program = try #require(
      Self.topydo, "topydo is missing: run Scripts/bootstrap.sh --test", sourceLocation: sourceLocation)
    let outcome = try Program.run(
      program, ["-c", directory.file("topydo.conf"), "-t", todoFile, "-d", doneFile] + arguments,
      environment: environment)
    #expect(outcome.status == 0, "topydo \(arguments): \(outcome.errors)", sourceLocation: sourceLocation)
    return outcome.output
  }

  /// What topydo makes of every task in the file (`ls -x -f json`), by remconv UID when it has one.
  func topydoTasks() throws -> [JSONValue] {
    try #require(try JSONParser.parse(try topydo(["ls", "-x", "-f", "json"])).arrayValue)
  }
}

/// Issue 25's proof with the todo.txt tools as judges: they list remconv's export with the
/// right priorities, projects, contexts and due dates, and remconv imports what they wrote.
@Suite struct TodoTxtPeerTests {
  /// A store with what todo.txt carries: priorities (one kept letter), projects and contexts,
  /// due dates, a done task, subtasks.
  static let store = """
    {"format":"remconv","version":1,"lists":[
    {"id":"L-1","name":"Family","reminders":[
      {"id":"T-1","title":"Call Mom","priority":"high","tags":["Family","phone"],"dueDate":"2026-11-30",
       "extra":{"todotxt":{"projects":["Family"]}}},
      {"id":"T-2","title":"Post signs around the neighborhood","priority":"low","tags":["GarageSale"],
       "extra":{"todotxt":{"projects":["GarageSale"],"priority":"D"}}},
      {"id":"T-3","parentId":"T-2","title":"Print the signs","priority":"medium","dueDate":"2026-12-02","tags":["office"]},
      {"id":"T-4","title":"Review the pull request","isDone":true,"completedAt":"2026-11-28T00:00:00Z","tags":["github"]}]}]}
    """

  static func exportedSandbox() throws -> (TestBench, TodoTxtSandbox) {
    let bench = TestBench()
    #expect(bench.run(["import", "-", "--format", "json"], input: store).status == .ok)
    let sandbox = TodoTxtSandbox()
    let exported = bench.run(["export", "--format", "todotxt", "-o", sandbox.todoFile, "--force"])
    #expect(exported.status == .ok, "\(exported.errors)")
    return (bench, sandbox)
  }

  @Test func todoShListsTheExport() throws {
    let (_, sandbox) = try Self.exportedSandbox()
    let projects = try sandbox.todoSh(["lsprj"]).split(separator: "\n").map(String.init)
    #expect(projects == ["+Family", "+GarageSale"])
    let contexts = try sandbox.todoSh(["lsc"]).split(separator: "\n").map(String.init)
    #expect(contexts == ["@github", "@office", "@phone"])
    // `lsp` lists the open tasks by priority: A, then B, then D.
    let byPriority = try sandbox.todoSh(["lsp"]).split(separator: "\n").filter { $0.contains(") ") }
    #expect(byPriority.count == 3)
    #expect(byPriority[0].contains("(A) Call Mom +Family @phone due:2026-11-30"), "\(byPriority)")
    #expect(byPriority[1].contains("(B) Print the signs @office due:2026-12-02"), "\(byPriority)")
    #expect(byPriority[2].contains("(D) Post signs around the neighborhood +GarageSale"), "\(byPriority)")
    // todo.sh searches the file for words: the due date is a word of its task.
    let due = try sandbox.todoSh(["ls", "due:2026-11-30"])
    #expect(due.contains("Call Mom") && !due.contains("Print the signs"), "\(due)")
    let done = try sandbox.todoSh(["ls", "x"]).split(separator: "\n").filter { $0.contains("Review") }
    #expect(done.count == 1 && done[0].contains("x 2026-11-28 Review the pull request @github"), "\(done)")
  }

  @Test func topydoListsTheExport() throws {
    let (_, sandbox) = try Self.exportedSandbox()
    var byUID: [String: JSONValue] = [:]
    for task in try sandbox.topydoTasks() {
      let tags = task["tags"]?.arrayValue ?? []
      let uid = tags.first { $0.arrayValue?.first == .string("uid") }?.arrayValue?.last?.stringValue
      byUID[try #require(uid)] = task
    }
    #expect(byUID["T-1"]?["priority"] == .string("A"))
    #expect(byUID["T-1"]?["projects"] == .array([.string("Family")]))
    #expect(byUID["T-1"]?["contexts"] == .array([.string("phone")]))
    #expect(byUID["T-1"]?["text"]?.stringValue?.hasPrefix("Call Mom") == true)
    #expect(byUID["T-2"]?["priority"] == .string("D"))
    #expect(byUID["T-3"]?["priority"] == .string("B"))
    func due(_ uid: String) -> JSONValue? {
      byUID[uid]?["tags"]?.arrayValue?.first { $0.arrayValue?.first == .string("due") }?.arrayValue?.last
    }
    #expect(due("T-1") == .string("2026-11-30"))
    #expect(due("T-3") == .string("2026-12-02"))
    #expect(byUID["T-4"]?["completed"] == .bool(true))
    #expect(byUID["T-4"]?["completion_date"] == .string("2026-11-28"))
  }

  /// The reminders of a store's JSON export, by title.
  static func reminders(_ bench: TestBench) throws -> [String: JSONValue] {
    let document = try JSONParser.parse(bench.snapshot())
    var byTitle: [String: JSONValue] = [:]
    for list in document["lists"]?.arrayValue ?? [] {
      for reminder in list["reminders"]?.arrayValue ?? [] {
        if let title = reminder["title"]?.stringValue { byTitle[title] = reminder }
      }
    }
    return byTitle
  }

  @Test func remconvImportsWhatTodoShWrote() throws {
    let sandbox = TodoTxtSandbox()
    try sandbox.todoSh(["add", "Call Mom +Family @phone due:2026-11-30"])
    try sandbox.todoSh(["add", "Review the pull request +TodoTxtTouch @github"])
    try sandbox.todoSh(["add", "Buy stamps"])
    try sandbox.todoSh(["pri", "1", "A"])
    try sandbox.todoSh(["pri", "3", "C"])
    try sandbox.todoSh(["do", "2"])
    let written = try String(contentsOfFile: sandbox.todoFile, encoding: .utf8)
    let bench = TestBench()
    let imported = bench.run(["import", sandbox.todoFile])
    #expect(imported.status == .ok, "\(imported.errors)")
    let reminders = try Self.reminders(bench)
    let mom = try #require(reminders["Call Mom"], "\(written)")
    #expect(mom["priority"] == .string("high"))
    #expect(mom["tags"] == .array([.string("Family"), .string("phone")]))
    #expect(mom["dueDate"] == .string("2026-11-30"))
    #expect(mom["isDone"] == .bool(false))
    let stamps = try #require(reminders["Buy stamps"])
    #expect(stamps["priority"] == .string("low"))
    let review = try #require(reminders["Review the pull request"])
    #expect(review["isDone"] == .bool(true))
    // The completion day todo.sh wrote (today, for it) is the day remconv keeps.
    let doneLine = try #require(written.split(separator: "\n").first { $0.hasPrefix("x ") })
    let completionDay = String(doneLine.dropFirst(2).prefix(10))
    let berlinMidnight = try #require(LocalDate(iso: completionDay))
    #expect(review["completedAt"] == .string(Self.berlinMidnightUTC(berlinMidnight)))
    // Importing again adds nothing.
    let again = try JSONParser.parse(bench.run(["import", sandbox.todoFile, "--report", "json"]).output)
    #expect(again["added"] == .number(0) && again["updated"] == .number(0))
  }

  /// Midnight of `day` in Europe/Berlin (the test bench's zone) as remconv writes an instant.
  static func berlinMidnightUTC(_ day: LocalDate) -> String {
    let zone = TimeZone(identifier: "Europe/Berlin")!
    var components = DateComponents()
    components.year = day.year
    components.month = day.month
    components.day = day.day
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    let date = calendar.date(from: components)!
    return Timestamp(date).description
  }

  @Test func remconvImportsWhatTopydoWrote() throws {
    let sandbox = TodoTxtSandbox()
    try sandbox.topydo(["add", "Water the garden +Garden @home due:2026-12-01 t:2026-11-28 rec:1w"])
    try sandbox.topydo(["add", "(A) Pay rent +Flat due:2026-12-01 rec:+1m"])
    try sandbox.topydo(["add", "Call Mom @phone"])
    try sandbox.topydo(["pri", "3", "B"])
    // Completing a recurring task makes topydo write its next one, with new dates.
    try sandbox.topydo(["do", "1"])
    let judged = try sandbox.topydoTasks()
    let bench = TestBench()
    let imported = bench.run(["import", sandbox.todoFile, "--format", "todotxt"])
    #expect(imported.status == .ok, "\(imported.errors)")
    let reminders = try Self.reminders(bench)
    #expect(reminders.count == judged.count)
    var thresholds: [String: (String?, String?)] = [:]
    for task in judged {
      let text = try #require(task["text"]?.stringValue)
      let title = text.split(separator: " ").filter { !$0.hasPrefix("+") && !$0.hasPrefix("@") }.joined(separator: " ")
      let reminder = try #require(reminders[title], "\(title) in \(reminders.keys)")
      let letter = task["priority"]?.stringValue
      let expected = letter.map { $0 == "A" ? "high" : $0 == "B" ? "medium" : "low" } ?? "none"
      #expect(reminder["priority"] == .string(expected), "\(title)")
      let names = ((task["projects"]?.arrayValue ?? []) + (task["contexts"]?.arrayValue ?? [])).compactMap(
        \.stringValue)
      #expect(Set((reminder["tags"]?.arrayValue ?? []).compactMap(\.stringValue)) == Set(names), "\(title)")
      var tags: [String: String] = [:]
      for pair in task["tags"]?.arrayValue ?? [] {
        if let key = pair.arrayValue?.first?.stringValue, let value = pair.arrayValue?.last?.stringValue {
          tags[key] = value
        }
      }
      #expect((reminder["dueDate"] ?? .null) == (tags["due"].map(JSONValue.string) ?? .null), "\(title)")
      if let creation = task["creation_date"]?.stringValue {
        #expect(reminder["createdAt"] == .string(Self.berlinMidnightUTC(try #require(LocalDate(iso: creation)))))
      }
      thresholds[title] = (tags["t"], tags["rec"])
    }
    // Threshold and recurrence, as topydo reads them, are the store's start date and rule: the
    // store's todo.txt export writes them back as topydo wrote them.
    let exported = bench.run(["export", "--format", "todotxt"])
    #expect(exported.status == .ok, "\(exported.errors)")
    for (title, (threshold, rule)) in thresholds {
      let line = try #require(exported.output.split(separator: "\n").first { $0.contains(title) }, "\(title)")
      let words = Set(line.split(separator: " ").map(String.init))
      #expect(threshold.map { words.contains("t:" + $0) } ?? !line.contains(" t:"), "\(line)")
      #expect(rule.map { words.contains("rec:" + $0) } ?? !line.contains(" rec:"), "\(line)")
      #expect(!line.contains("extra"), "\(line)")
    }
    #expect(thresholds["Water the garden"]?.1 == "1w" && thresholds["Pay rent"]?.1 == "+1m")
  }
}

/// Issue 25's proof with a Markdown parser as judge: markdown-it-py with its task-list plugin
/// (from PyPI, installed by `Scripts/bootstrap.sh --test` into `.build/test-venv`) sees every
/// task-list item of remconv's Markdown export, checked as the reminder is done, nested as
/// subtasks are.
@Suite struct MarkdownParserPeerTests {
  static let python = Repository.path(".build/test-venv/bin/python3")

  /// Prints one line per task-list item: its nesting depth, `x` or `-`, and its text.
  static let script = """
    import sys
    from markdown_it import MarkdownIt
    from mdit_py_plugins.tasklists import tasklists_plugin
    md = MarkdownIt("commonmark").use(tasklists_plugin)
    tokens = md.parse(open(sys.argv[1], encoding="utf-8").read())
    depth = 0
    pending = None
    for token in tokens:
        if token.type == "bullet_list_open":
            depth += 1
        elif token.type == "bullet_list_close":
            depth -= 1
        elif token.type == "list_item_open":
            pending = "task-list-item" in (token.attrGet("class") or "")
        elif token.type == "inline" and pending is not None:
            children = token.children or []
            boxes = [i for i, c in enumerate(children) if c.type == "html_inline" and "task-list-item-checkbox" in c.content]
            if pending and boxes:
                box = boxes[0]
                text = children[box + 1].content.strip() if box + 1 < len(children) else ""
                print(depth - 1, "x" if 'checked="checked"' in children[box].content else "-", text)
            pending = None
    """

  @Test func markdownItSeesEveryTaskOfTheExport() throws {
    try #require(
      FileManager.default.isExecutableFile(atPath: Self.python),
      "markdown-it-py is missing: run Scripts/bootstrap.sh --test (it installs it from PyPI into .build/test-venv)")
    let bench = TestBench()
    #expect(bench.run(["import", Repository.path("Samples/json/reminders.json")]).status == .ok)
    let file = bench.directory.file("reminders.md")
    #expect(bench.run(["export", "--format", "markdown", "-o", file]).status == .ok)
    let script = bench.directory.write("tasks.py", Self.script)
    let outcome = try Program.run(Self.python, [script, file])
    #expect(outcome.status == 0, "\(outcome.errors)")
    let items = outcome.output.split(separator: "\n").map { line in
      let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
      return (depth: Int(parts[0]) ?? -1, done: parts[1] == "x", text: parts.count > 2 ? String(parts[2]) : "")
    }
    let document = try JSONParser.parse(bench.snapshot())
    let reminders = (document["lists"]?.arrayValue ?? []).flatMap { $0["reminders"]?.arrayValue ?? [] }
    #expect(items.count == reminders.count, "\(outcome.output)")
    for reminder in reminders {
      let title = try #require(reminder["title"]?.stringValue)
      let item = items.first { $0.text.hasPrefix(title) }
      #expect(item != nil, "markdown-it-py does not see \(title): \(outcome.output)")
      #expect(item?.done == (reminder["isDone"] == .bool(true)), "\(title)")
      #expect(item?.depth == (reminder["parentId"] == nil || reminder["parentId"] == .null ? 0 : 1), "\(title)")
    }
  }
}
