import Foundation
import RemconvCLI
import RemconvCore
import RemconvTestSupport
import Testing

/// todoman (https://todoman.readthedocs.io) with its own configuration, cache and vdir, so
/// tests never touch a user's tasks.
final class TodomanSandbox {
  /// The `todoman` program (`Scripts/bootstrap.sh --test` installs it).
  static let executable = Program.find("todoman")

  let directory = TemporaryDirectory()
  /// The vdir: a folder of collections, `work` among them.
  var root: String { directory.file("calendars") }

  init() {
    try? FileManager.default.createDirectory(atPath: root + "/work", withIntermediateDirectories: true)
    // No default due: a task made without one has none (todoman's default is a day from now).
    directory.write(
      "config.py",
      """
      path = "\(root)/*"
      cache_path = "\(directory.file("cache.sqlite3"))"
      date_format = "%Y-%m-%d"
      time_format = "%H:%M"
      default_list = "work"
      default_due = 0

      """)
  }

  /// Runs `todoman ARGUMENTS` on the sandbox's vdir; its standard output.
  @discardableResult
  func run(_ arguments: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> String {
    let executable = try #require(Self.executable, "todoman is not installed", sourceLocation: sourceLocation)
    let outcome = try Program.run(
      executable, ["--config", directory.file("config.py")] + arguments,
      environment: [
        "HOME": directory.path, "PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8",
        "XDG_CONFIG_HOME": directory.path, "XDG_CACHE_HOME": directory.path,
      ])
    #expect(outcome.status == 0, "todoman \(arguments): \(outcome.errors)", sourceLocation: sourceLocation)
    return outcome.output
  }

  /// The summaries `todoman --porcelain list` shows, sorted.
  func summaries(sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [String] {
    let text = try run(["--porcelain", "list", "--status", "ANY"], sourceLocation: sourceLocation)
    let tasks = try #require(try JSONParser.parse(text).arrayValue, sourceLocation: sourceLocation)
    return tasks.compactMap { $0["summary"]?.stringValue }.sorted()
  }
}

/// `export --format vdir` into a folder that already holds items: each reminder goes into the
/// file that holds its UID, new files are named as todoman names them, and files of reminders
/// the export does not write are reported, or removed with `--prune` (issue 21, point 5).
@Suite struct VdirExistingFolderTests {
  private func itemFiles(_ folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".ics") }.sorted()
  }

  /// A store holding the sample, exported as a vdir into a new folder.
  private func exportedSample() -> (TestBench, String) {
    let bench = TestBench()
    #expect(bench.run(["import", Repository.path("Samples/json/reminders.json")]).status == .ok)
    let root = bench.directory.file("vdir")
    #expect(bench.run(["export", "--format", "vdir", "-o", root]).status == .ok)
    return (bench, root)
  }

  private func contents(_ path: String) -> String {
    (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
  }

  private func reminderIDs(_ bench: TestBench) throws -> [String] {
    var ids: [String] = []
    for list in try #require(try JSONParser.parse(bench.snapshot())["lists"]?.arrayValue) {
      ids += (list["reminders"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
    }
    return ids.sorted()
  }

  /// todoman makes tasks, remconv imports the folder, adds one, exports into the same folder:
  /// todoman lists each task once, and importing the folder again adds nothing.
  @Test func todomanListsAVdirRemconvExportedIntoWithoutDuplicates() throws {
    let todoman = TodomanSandbox()
    try todoman.run(["new", "--list", "work", "Buy milk"])
    try todoman.run(["new", "--list", "work", "--due", "2026-12-24", "Call Ada"])
    let made = itemFiles(todoman.root + "/work")
    #expect(made.count == 2 && made.allSatisfy { $0.contains("@") }, "todoman names items <uid>.ics: \(made)")

    let bench = TestBench()
    #expect(bench.run(["import", todoman.root]).status == .ok)
    #expect(bench.run(["add", "Water plants", "--list", "work"]).status == .ok)
    let milk = try #require(
      try JSONParser.parse(bench.snapshot())["lists"]?.arrayValue?.first?["reminders"]?.arrayValue?.first {
        $0["title"] == .string("Buy milk")
      }?["id"]?.stringValue)
    #expect(bench.run(["edit", milk, "--title", "Buy oat milk"]).status == .ok)
    let exported = bench.run(["export", "--format", "vdir", "-o", todoman.root, "--force"])
    #expect(exported.status == .ok, "\(exported.errors)")
    #expect(!exported.errors.contains("stale-item"), "\(exported.errors)")

    let files = itemFiles(todoman.root + "/work")
    #expect(files.count == 3, "\(files)")
    #expect(made.allSatisfy(files.contains), "todoman's files are updated in place: \(files)")
    #expect(!files.contains { $0.contains("%40") })
    #expect(contents(todoman.root + "/work/" + milk + ".ics").contains("SUMMARY:Buy oat milk"))
    #expect(try todoman.summaries() == ["Buy oat milk", "Call Ada", "Water plants"])

    let again = bench.run(["import", todoman.root, "--report", "json"])
    let report = try JSONParser.parse(again.output.trimmingCharacters(in: .whitespacesAndNewlines))
    #expect(report["added"]?.intValue == 0, "\(again.output)")
  }

  /// A reminder's file is found by the UID inside it, whatever it is called.
  @Test func aReminderIsWrittenIntoTheFileHoldingItsUIDWhateverItsName() throws {
    let (bench, root) = exportedSample()
    let id = "B1A7E0C2-0001-4F00-8000-000000000001"
    let renamed = root + "/Groceries/renamed-by-another-app.ics"
    #expect(rename(root + "/Groceries/\(id).ics", renamed) == 0)
    #expect(bench.run(["edit", id, "--title", "Soy milk"]).status == .ok)
    #expect(bench.run(["export", "--format", "vdir", "-o", root, "--force"]).status == .ok)
    #expect(contents(renamed).contains("SUMMARY:Soy milk"))
    #expect(!FileManager.default.fileExists(atPath: root + "/Groceries/\(id).ics"))
  }

  /// Files of reminders deleted or moved since: reported and left without `--prune`, listed
  /// and left with `--prune --dry-run`, removed with `--prune`; then the folder imports to
  /// exactly the store's reminders.
  @Test func pruneRemovesFilesOfRemindersNoLongerExported() throws {
    let (bench, root) = exportedSample()
    let deleted = "B1A7E0C2-0001-4F00-8000-000000000001"
    let moved = "B1A7E0C2-0001-4F00-8000-000000000004"
    #expect(bench.run(["delete", deleted]).status == .ok)
    #expect(bench.run(["edit", moved, "--list", "Work"]).status == .ok)
    let deletedFile = root + "/Groceries/\(deleted).ics"
    let movedFile = root + "/Groceries/\(moved).ics"

    let reported = bench.run(["export", "--format", "vdir", "-o", root, "--force"])
    #expect(reported.status == .ok)
    for file in [deletedFile, movedFile] {
      #expect(reported.errors.contains("\(file): this export does not write the reminder it holds; left in place"))
      #expect(FileManager.default.fileExists(atPath: file))
    }
    #expect(FileManager.default.fileExists(atPath: root + "/Work/\(moved).ics"))

    let before = itemFiles(root + "/Groceries")
    let dryRun = bench.run(["export", "--format", "vdir", "-o", root, "--force", "--prune", "--dry-run"])
    #expect(dryRun.status == .ok)
    #expect(dryRun.errors.contains("\(deletedFile): would be removed by --prune"))
    #expect(dryRun.errors.contains("\(movedFile): would be removed by --prune"))
    #expect(dryRun.errors.contains("dry run: nothing written"))
    #expect(itemFiles(root + "/Groceries") == before)

    let pruned = bench.run(["export", "--format", "vdir", "-o", root, "--force", "--prune"])
    #expect(pruned.status == .ok, "\(pruned.errors)")
    #expect(pruned.errors.contains("\(deletedFile): removed"))
    #expect(!FileManager.default.fileExists(atPath: deletedFile))
    #expect(!FileManager.default.fileExists(atPath: movedFile))
    #expect(FileManager.default.fileExists(atPath: root + "/Work/\(moved).ics"))

    let copy = TestBench()
    #expect(copy.run(["import", root]).status == .ok)
    #expect(try reminderIDs(copy) == reminderIDs(bench))
  }

  /// A folder an older remconv doubled (`a1b2%40host.ics` beside todoman's `a1b2@host.ics`,
  /// both holding one UID): the export writes todoman's file and `--prune` removes the other.
  @Test func pruneRemovesTheSecondFileOfAUID() throws {
    let bench = TestBench()
    let calendar = bench.directory.write(
      "Home.ics",
      "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//y//EN\r\nBEGIN:VTODO\r\nUID:a1b2@host\r\n"
        + "SUMMARY:Fix the tap\r\nEND:VTODO\r\nEND:VCALENDAR\r\n")
    #expect(bench.run(["import", calendar]).status == .ok)
    let root = bench.directory.file("vdir")
    #expect(bench.run(["export", "--format", "vdir", "-o", root]).status == .ok)
    #expect(itemFiles(root + "/Home") == ["a1b2@host.ics"])
    let doubled = root + "/Home/a1b2%40host.ics"
    #expect(
      FileManager.default.createFile(atPath: doubled, contents: Data(contents(root + "/Home/a1b2@host.ics").utf8)))
    let pruned = bench.run(["export", "--format", "vdir", "-o", root, "--force", "--prune"])
    #expect(pruned.status == .ok, "\(pruned.errors)")
    #expect(pruned.errors.contains("\(doubled): removed"))
    #expect(itemFiles(root + "/Home") == ["a1b2@host.ics"])
  }

  /// A file without a VTODO (a calendar's event) is no reminder's: never pruned.
  @Test func pruneLeavesFilesThatHoldNoToDo() throws {
    let (bench, root) = exportedSample()
    let event = root + "/Groceries/event.ics"
    #expect(
      FileManager.default.createFile(
        atPath: event,
        contents: Data(
          "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//y//EN\r\nBEGIN:VEVENT\r\nUID:ev1\r\nDTSTART:20261201T090000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            .utf8)))
    let pruned = bench.run(["export", "--format", "vdir", "-o", root, "--force", "--prune"])
    #expect(pruned.status == .ok)
    #expect(FileManager.default.fileExists(atPath: event))
    #expect(!pruned.errors.contains("event.ics"))
  }

  /// `--scope` leaves reminders out that still exist: their files are not stale, so nothing
  /// is reported, and `--prune` is refused with it.
  @Test func aScopedExportLeavesTheOtherFilesAlone() throws {
    let (bench, root) = exportedSample()
    let before = itemFiles(root + "/Groceries")
    let scoped = bench.run(["export", "--format", "vdir", "-o", root, "--force", "--scope", "flagged"])
    #expect(scoped.status == .ok, "\(scoped.errors)")
    #expect(!scoped.errors.contains("stale-item"))
    let pruned = bench.run(["export", "--format", "vdir", "-o", root, "--force", "--scope", "flagged", "--prune"])
    #expect(pruned.status == .usage)
    #expect(pruned.errors.contains("'--prune' cannot go with '--scope'"))
    #expect(itemFiles(root + "/Groceries") == before)
  }

  @Test func pruneAndDryRunAreRefusedWhereTheyMeanNothing() {
    let bench = TestBench()
    #expect(bench.run(["import", Repository.path("Samples/json/reminders.json")]).status == .ok)
    let dryRun = bench.run(["export", "--format", "vdir", "-o", bench.directory.file("v"), "--dry-run"])
    #expect(dryRun.status == .usage)
    #expect(dryRun.errors.contains("'--dry-run' needs '--prune'"))
    let json = bench.run(["export", "--format", "json", "-o", bench.directory.file("a.json"), "--prune"])
    #expect(json.status == .usage)
    #expect(json.errors.contains("'--prune' is for a folder format"))
  }
}
