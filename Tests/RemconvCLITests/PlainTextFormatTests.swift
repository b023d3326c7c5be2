import Foundation
import RemconvCLI
import RemconvCore
import RemconvTestSupport
import Testing

/// `todotxt`, `markdown` and `todoist-backup` through the command line: detection, the
/// Markdown export that will not destroy prose, Todoist backups as zips and folders.
@Suite struct PlainTextFormatTests {
  static func sampleBench() -> TestBench {
    let bench = TestBench()
    #expect(bench.run(["import", Repository.path("Samples/json/reminders.json"), "--quiet"]).status == .ok)
    return bench
  }

  static func report(_ result: CLIResult) throws -> JSONValue {
    #expect(result.status == .ok, "\(result.errors)")
    return try JSONParser.parse(result.output)
  }

  @Test func detectionByNameExtensionAndContent() throws {
    let bench = TestBench()
    let cases: [(name: String, content: String, format: String)] = [
      ("todo.txt", "Buy milk\n", "todotxt"),
      ("DONE.TXT", "x Filed taxes\n", "todotxt"),
      ("tasks.txt", "(A) 2026-11-20 Call Mom +Family\n", "todotxt"),
      ("notes.md", "Just prose, no tasks yet.\n", "markdown"),
      ("tasks.text", "# Work\n\n- [ ] Report\n", "markdown"),
    ]
    for (name, content, format) in cases {
      let path = bench.directory.write(name, content)
      let detected = try FormatRegistry.detect(for: .file(path))
      #expect(detected.name == format, "\(name)")
    }
    let prose = bench.directory.write("letter.txt", "Dear Ada,\nthanks for the tea.\n")
    #expect(throws: RemconvError.self) { try FormatRegistry.detect(for: .file(prose)) }
    #expect(FormatRegistry.detect(forOutput: "out/todo.txt")?.name == "todotxt")
    #expect(FormatRegistry.detect(forOutput: "tasks.md")?.name == "markdown")
    #expect(FormatRegistry.detect(forOutput: "backup.zip")?.name == "todoist-backup")
    #expect(FormatRegistry.detect(forOutput: "notes.txt") == nil)
  }

  @Test func aMarkdownExportWillNotReplaceAFileWithProse() throws {
    let bench = Self.sampleBench()
    let notes = bench.directory.write(
      "notes.md", "# Groceries\n\nWe shop on Saturdays.\n\n- [ ] Oat milk\n")
    let refused = bench.run(["export", "--format", "markdown", "-o", notes, "--force"])
    #expect(refused.status == .cannotCreate, "\(refused.errors)")
    #expect(refused.errors.contains("\(notes): line 3 is prose (not a task-list item)"), "\(refused.errors)")
    #expect(bench.directory.read("notes.md") == "# Groceries\n\nWe shop on Saturdays.\n\n- [ ] Oat milk\n")
    // A file of tasks only, such as remconv's own export, is replaced.
    let tasks = bench.directory.file("tasks.md")
    #expect(bench.run(["export", "--format", "markdown", "-o", tasks]).status == .ok)
    let again = bench.run(["export", "--format", "markdown", "-o", tasks, "--force"])
    #expect(again.status == .ok, "\(again.errors)")
  }

  @Test func exportsImportBackAddingNothing() throws {
    for format in ["todotxt", "markdown"] {
      let bench = Self.sampleBench()
      let file = bench.directory.file("export." + format)
      #expect(bench.run(["export", "--format", format, "-o", file]).status == .ok)
      let again = try Self.report(bench.run(["import", file, "--format", format, "--report", "json"]))
      #expect(again["added"] == .number(0) && again["updated"] == .number(0), "\(format): \(again)")
      // Into an empty store and out again: the same file.
      let copy = TestBench()
      #expect(copy.run(["import", file, "--format", format]).status == .ok)
      let second = copy.directory.file("second." + format)
      #expect(copy.run(["export", "--format", format, "-o", second]).status == .ok)
      #expect(copy.directory.read("second." + format) == bench.directory.read("export." + format), "\(format)")
    }
  }

  @Test func aTodoistBackupZipHoldsOneProjectPerList() throws {
    let bench = Self.sampleBench()
    let zip = bench.directory.file("backup.zip")
    let exported = bench.run(["export", "--format", "csv:todoist", "-o", zip])
    #expect(exported.status == .ok, "\(exported.errors)")
    // Python's zipfile, another zip reader, sees one template per list, each a Todoist header.
    let listing = try Program.run(
      "/usr/bin/python3",
      [
        "-c",
        "import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is None\n"
          + "for n in z.namelist(): print(n, z.read(n).decode().splitlines()[0])",
        zip,
      ])
    #expect(listing.status == 0, "\(listing.errors)")
    let header =
      "TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE,DURATION,DURATION_UNIT,DEADLINE,DEADLINE_LANG"
    #expect(
      listing.output.split(separator: "\n").map(String.init)
        == ["Groceries.csv", "Work.csv", "Home.csv", "Someday.csv"].map { $0 + " " + header })
    // Imported into an empty store: every open reminder, each in its list.
    let copy = TestBench()
    let imported = try Self.report(copy.run(["import", zip, "--report", "json"]))
    #expect(imported["format"] == .string("todoist-backup") && imported["listsAdded"] == .number(4))
    let lists = try JSONParser.parse(copy.snapshot())["lists"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
    #expect(lists == ["Groceries", "Work", "Home", "Someday"])
    let again = try Self.report(bench.run(["import", zip, "--report", "json"]))
    #expect(again["added"] == .number(0) && again["updated"] == .number(0), "\(again)")
  }

  @Test func anUnzippedBackupIsAFolderOfProjects() throws {
    let bench = Self.sampleBench()
    let folder = bench.directory.file("Todoist")
    #expect(bench.run(["export", "--format", "todoist-backup", "-o", folder]).status == .ok)
    let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    #expect(files == ["Groceries.csv", "Home.csv", "Someday.csv", "Work.csv"])
    // Todoist's own file names carry the project's id, which is not part of its name.
    try FileManager.default.moveItem(atPath: folder + "/Work.csv", toPath: folder + "/Work [2203306141].csv")
    let copy = TestBench()
    let imported = try Self.report(copy.run(["import", folder, "--report", "json"]))
    #expect(imported["format"] == .string("todoist-backup"))
    let lists = try JSONParser.parse(copy.snapshot())["lists"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
    #expect(Set(lists ?? []) == ["Groceries", "Home", "Someday", "Work"])
  }

  @Test func aZipOfTooManyEntriesIsRefused() throws {
    let bench = Self.sampleBench()
    let before = bench.snapshot()
    let zip = bench.directory.file("many.zip")
    let made = try Program.run(
      "/usr/bin/python3",
      [
        "-c",
        "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'w') as z:\n"
          + "    for i in range(10001): z.writestr('p%d.csv' % i, 'TYPE,CONTENT\\r\\ntask,x\\r\\n')",
        zip,
      ])
    #expect(made.status == 0, "\(made.errors)")
    let result = bench.run(["import", zip])
    Refusal.check(
      result, path: zip, message: "more than 10000 entries: refused as a possible zip bomb", bench: bench,
      before: before)
  }
}
