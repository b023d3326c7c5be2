import Foundation
import RemconvCLI
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// `remconv sync` with a vdir folder (issue 23): the scenarios of the issue without a server.
@Suite struct SyncVdirTests {
  /// A store and a vdir remote `v` on a scratch folder.
  final class Setup {
    let bench = TestBench()
    var vdir: String { bench.directory.file("vdir") }

    init() {
      #expect(bench.run(["remote", "add", "v", vdir]).status == .ok)
    }

    @discardableResult
    func add(_ title: String, list: String, _ more: [String] = []) -> String {
      if bench.run(["lists", "--names"]).output.split(separator: "\n").contains(Substring(list)) == false {
        bench.run(["list", "create", list])
      }
      let result = bench.run(["add", title, "--list", list] + more)
      #expect(result.status == .ok, "\(result.errors)")
      return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs `sync v --report json` and returns the report.
    func sync(_ more: [String] = [], sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> JSONValue {
      let result = bench.run(["sync", "v", "--report", "json"] + more)
      #expect(result.status == .ok, "\(result.errors)", sourceLocation: sourceLocation)
      return try JSONParser.parse(result.output)
    }

    /// Writes an item file into a collection (made with a `displayname` when new).
    func writeRemote(_ collection: String, _ name: String, _ lines: [String]) {
      let folder = vdir + "/" + collection
      if !FileManager.default.fileExists(atPath: folder) {
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: folder + "/displayname", contents: Data(collection.utf8))
      }
      let path = folder + "/" + name
      // Replaced by a new file, as editors and todoman save.
      try? FileManager.default.removeItem(atPath: path)
      FileManager.default.createFile(atPath: path, contents: Data((lines.joined(separator: "\r\n") + "\r\n").utf8))
    }

    /// Rewrites a collection's `displayname` and `color` files (nil leaves one as it is).
    func writeMetadata(_ collection: String, name: String?, color: String?) {
      for (file, value) in [("displayname", name), ("color", color)] {
        guard let value else { continue }
        let path = vdir + "/" + collection + "/" + file
        try? FileManager.default.removeItem(atPath: path)
        FileManager.default.createFile(atPath: path, contents: Data(value.utf8))
      }
    }

    func remoteFile(_ collection: String, _ name: String) -> String {
      (try? String(contentsOfFile: vdir + "/" + collection + "/" + name, encoding: .utf8)) ?? ""
    }

    /// The `.ics` file names of a collection.
    func remoteItems(_ collection: String) -> [String] {
      ((try? FileManager.default.contentsOfDirectory(atPath: vdir + "/" + collection)) ?? []).filter {
        $0.hasSuffix(".ics")
      }.sorted()
    }

    /// The SUMMARY of every item of a collection, sorted.
    func remoteTitles(_ collection: String) -> [String] {
      remoteItems(collection).compactMap { name in
        remoteFile(collection, name).components(separatedBy: "\r\n").first { $0.hasPrefix("SUMMARY:") }.map {
          String($0.dropFirst("SUMMARY:".count))
        }
      }.sorted()
    }

    /// Every reminder of the store as JSON Lines objects.
    func reminders() throws -> [JSONValue] {
      try bench.run(["export", "--format", "jsonl"]).output.split(separator: "\n").map {
        try JSONParser.parse(String($0))
      }
    }

    func titles(in list: String) throws -> [String] {
      try reminders().filter { $0["list"]?.stringValue == list }.compactMap { $0["title"]?.stringValue }.sorted()
    }

    func reminder(titled title: String) throws -> JSONValue? {
      try reminders().first { $0["title"]?.stringValue == title }
    }

    /// A digest of the vdir (every path, its bytes and its modification time) and of the
    /// store (its SQL dump): what "nothing changed on either side" compares.
    func fingerprint() throws -> String {
      var text = ""
      let enumerator = FileManager.default.enumerator(atPath: vdir)
      var paths: [String] = []
      while let path = enumerator?.nextObject() as? String { paths.append(path) }
      for path in paths.sorted() {
        var status = stat()
        lstat(vdir + "/" + path, &status)
        let bytes = FileManager.default.contents(atPath: vdir + "/" + path) ?? Data()
        text +=
          "\(path) \(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec) \(SHA256.hex(of: String(decoding: bytes, as: UTF8.self)))\n"
      }
      let sqlite = try #require(Program.find("sqlite3"), "sqlite3 is not installed")
      let dump = try Program.run(sqlite, [bench.storePath, ".dump"])
      return text + SHA256.hex(of: dump.output)
    }
  }

  /// `NAME COLOR` of every list of the store, sorted.
  static func lists(_ setup: Setup) throws -> [String] {
    let sqlite = try #require(Program.find("sqlite3"), "sqlite3 is not installed")
    let rows = try Program.run(sqlite, [setup.bench.storePath, "SELECT name || ' ' || ifnull(color, '-') FROM lists"])
    return rows.output.split(separator: "\n").map(String.init).sorted()
  }

  static func counts(_ report: JSONValue) -> [String: String] {
    var counts: [String: String] = [:]
    for key in ["uploaded", "downloaded", "deletedRemote", "deletedLocal", "conflicts"] {
      counts[key] = report[key]?.numberText
    }
    return counts
  }

  static func expected(
    uploaded: Int = 0, downloaded: Int = 0, deletedRemote: Int = 0, deletedLocal: Int = 0, conflicts: Int = 0
  ) -> [String: String] {
    [
      "uploaded": String(uploaded), "downloaded": String(downloaded), "deletedRemote": String(deletedRemote),
      "deletedLocal": String(deletedLocal), "conflicts": String(conflicts),
    ]
  }

  /// A VTODO as another client writes it, with a property remconv does not model.
  static func foreignItem(uid: String, summary: String, extra: [String] = []) -> [String] {
    [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Other client//EN", "BEGIN:VTODO", "UID:\(uid)",
      "DTSTAMP:20261101T080000Z", "SUMMARY:\(summary)", "X-OTHER-CLIENT-COLOR;X-P=1:teal",
    ] + extra + ["END:VTODO", "END:VCALENDAR"]
  }

  /// Both sides have something the other lacks.
  static func populated() -> Setup {
    let setup = Setup()
    let milk = setup.add("Buy milk", list: "Groceries")
    setup.add("Skimmed", list: "Groceries", ["--parent", milk])
    setup.add("Call mum", list: "Home", ["--due", "2026-12-24"])
    setup.writeRemote("Groceries", "bread.ics", foreignItem(uid: "bread@other", summary: "Bread"))
    setup.writeRemote("Work", "report.ics", foreignItem(uid: "report@other", summary: "Write report"))
    setup.writeRemote(
      "Work", "slides.ics", foreignItem(uid: "slides@other", summary: "Slides", extra: ["RELATED-TO:report@other"]))
    return setup
  }

  @Test func aFirstSyncGoesBothWaysAndARepeatTransfersNothing() throws {
    let setup = Self.populated()
    let report = try setup.sync()
    #expect(Self.counts(report) == Self.expected(uploaded: 3, downloaded: 3))
    #expect(report["collectionsCreated"]?.arrayValue == [.string("Home")])
    #expect(report["listsCreated"]?.arrayValue == [.string("Work")])
    #expect(setup.remoteTitles("Groceries") == ["Bread", "Buy milk", "Skimmed"])
    #expect(setup.remoteTitles("Home") == ["Call mum"])
    #expect(try setup.titles(in: "Groceries") == ["Bread", "Buy milk", "Skimmed"])
    #expect(try setup.titles(in: "Work") == ["Slides", "Write report"])
    // Subtasks cross both ways.
    let skimmed = setup.remoteItems("Groceries").map { setup.remoteFile("Groceries", $0) }.first {
      $0.contains("SUMMARY:Skimmed")
    }
    let milkUID = try #require(try setup.reminder(titled: "Buy milk")?["id"]?.stringValue)
    #expect(skimmed?.contains("RELATED-TO;RELTYPE=PARENT:\(milkUID)") == true)
    #expect(try setup.reminder(titled: "Slides")?["parentId"]?.stringValue == "report@other")
    // The remote's own items were only read.
    #expect(setup.remoteFile("Work", "report.ics").contains("PRODID:-//Other client//EN"))

    let before = try setup.fingerprint()
    #expect(Self.counts(try setup.sync()) == Self.expected())
    #expect(try setup.fingerprint() == before)
  }

  @Test func editsAdditionsAndDeletionsOnEachSideCross() throws {
    let setup = Self.populated()
    _ = try setup.sync()
    let milk = try #require(try setup.reminder(titled: "Buy milk")?["id"]?.stringValue)
    let mum = try #require(try setup.reminder(titled: "Call mum")?["id"]?.stringValue)
    let report = try #require(try setup.reminder(titled: "Write report")?["id"]?.stringValue)
    // Here: an edit, a deletion, an addition, and an edit of an item another client wrote.
    #expect(setup.bench.run(["edit", milk, "--title", "Buy oat milk"]).status == .ok)
    #expect(setup.bench.run(["delete", mum]).status == .ok)
    setup.add("Plan trip", list: "Home")
    #expect(setup.bench.run(["edit", report, "--notes", "by Friday"]).status == .ok)
    // There: an edit, a deletion, an addition.
    setup.writeRemote("Groceries", "bread.ics", Self.foreignItem(uid: "bread@other", summary: "Bread (rye)"))
    try FileManager.default.removeItem(atPath: setup.vdir + "/Work/slides.ics")
    setup.writeRemote("Work", "mail.ics", Self.foreignItem(uid: "mail@other", summary: "Answer mail"))

    #expect(
      Self.counts(try setup.sync()) == Self.expected(uploaded: 3, downloaded: 2, deletedRemote: 1, deletedLocal: 1))
    #expect(setup.remoteTitles("Groceries") == ["Bread (rye)", "Buy oat milk", "Skimmed"])
    #expect(setup.remoteTitles("Home") == ["Plan trip"])
    #expect(setup.remoteTitles("Work") == ["Answer mail", "Write report"])
    #expect(try setup.titles(in: "Groceries") == ["Bread (rye)", "Buy oat milk", "Skimmed"])
    #expect(try setup.titles(in: "Home") == ["Plan trip"])
    #expect(try setup.titles(in: "Work") == ["Answer mail", "Write report"])
    // What remconv does not model travels byte for byte in the item it rewrote.
    let written = setup.remoteFile("Work", "report.ics")
    #expect(written.contains("DESCRIPTION:by Friday"))
    #expect(written.contains("X-OTHER-CLIENT-COLOR;X-P=1:teal"))
    #expect(Self.counts(try setup.sync()) == Self.expected())
  }

  @Test func aConflictKeepsTheRemoteValueAndTheLocalVersionAsACopyOnBothSides() throws {
    let setup = Self.populated()
    _ = try setup.sync()
    let bread = try #require(try setup.reminder(titled: "Bread")?["id"]?.stringValue)
    #expect(setup.bench.run(["edit", bread, "--title", "Bread (white)", "--notes", "from the baker"]).status == .ok)
    setup.writeRemote(
      "Groceries", "bread.ics", Self.foreignItem(uid: "bread@other", summary: "Bread (rye)", extra: ["PRIORITY:1"]))

    let report = try setup.sync()
    #expect(Self.counts(report)["conflicts"] == "1")
    let conflict = try #require(report["conflictList"]?.arrayValue?.first)
    #expect(conflict["uid"]?.stringValue == "bread@other")
    #expect(conflict["fields"]?.arrayValue == [.string("title")])
    let copyUID = try #require(conflict["copyUid"]?.stringValue)
    // The merge: the remote's title and priority, the local notes.
    let merged = try #require(try setup.reminder(titled: "Bread (rye)"))
    #expect(merged["id"]?.stringValue == "bread@other")
    #expect(merged["notes"]?.stringValue == "from the baker")
    #expect(merged["priority"]?.stringValue == "high")
    let copy = try #require(try setup.reminder(titled: "Bread (white) (conflict copy)"))
    #expect(copy["id"]?.stringValue == copyUID)
    #expect(copy["notes"]?.stringValue == "from the baker")
    // Both reach the remote, the merge in the item's own file.
    #expect(setup.remoteFile("Groceries", "bread.ics").contains("DESCRIPTION:from the baker"))
    #expect(setup.remoteTitles("Groceries") == ["Bread (rye)", "Bread (white) (conflict copy)", "Buy milk", "Skimmed"])
    #expect(Self.counts(try setup.sync()) == Self.expected())
  }

  @Test func aDryRunReportsWhatASyncWouldDoAndChangesNothingOnEitherSide() throws {
    let setup = Self.populated()
    let before = try setup.fingerprint()
    let report = try setup.sync(["--dry-run"])
    #expect(report["dryRun"] == .bool(true))
    #expect(Self.counts(report) == Self.expected(uploaded: 3, downloaded: 3))
    #expect(try setup.fingerprint() == before)
    // Then the same after a sync, with changes on both sides.
    _ = try setup.sync()
    let milk = try #require(try setup.reminder(titled: "Buy milk")?["id"]?.stringValue)
    #expect(setup.bench.run(["edit", milk, "--title", "Buy oat milk"]).status == .ok)
    try FileManager.default.removeItem(atPath: setup.vdir + "/Work/slides.ics")
    let changed = try setup.fingerprint()
    #expect(Self.counts(try setup.sync(["--dry-run"])) == Self.expected(uploaded: 1, deletedLocal: 1))
    #expect(try setup.fingerprint() == changed)
  }

  @Test func aRemoteDeletionOfAParentKeepsTheSubtaskTheRemoteKept() throws {
    let setup = Self.populated()
    _ = try setup.sync()
    try FileManager.default.removeItem(atPath: setup.vdir + "/Work/report.ics")
    #expect(Self.counts(try setup.sync()) == Self.expected(deletedLocal: 1))
    #expect(try setup.titles(in: "Work") == ["Slides"])
    #expect(try setup.reminder(titled: "Slides")?["parentId"] == .null)
    // The remote's item is left as it is, and nothing is left to do.
    #expect(setup.remoteFile("Work", "slides.ics").contains("RELATED-TO:report@other"))
    #expect(Self.counts(try setup.sync()) == Self.expected())
  }

  @Test func anItemMovedBetweenCollectionsOnTheRemoteMovesBetweenListsAndIsNotDeleted() throws {
    let setup = Self.populated()
    _ = try setup.sync()
    let uid = try #require(try setup.reminder(titled: "Slides")?["id"]?.stringValue)
    try FileManager.default.moveItem(
      atPath: setup.vdir + "/Work/slides.ics", toPath: setup.vdir + "/Groceries/slides.ics")
    #expect(Self.counts(try setup.sync()) == Self.expected(downloaded: 1))
    #expect(try setup.reminder(titled: "Slides")?["id"]?.stringValue == uid)
    #expect(try setup.titles(in: "Groceries") == ["Bread", "Buy milk", "Skimmed", "Slides"])
    #expect(try setup.titles(in: "Work") == ["Write report"])
    #expect(setup.remoteTitles("Groceries") == ["Bread", "Buy milk", "Skimmed", "Slides"])
    #expect(Self.counts(try setup.sync()) == Self.expected())
  }

  @Test func deletedHereAndEditedThereComesBack() throws {
    let setup = Self.populated()
    _ = try setup.sync()
    let bread = try #require(try setup.reminder(titled: "Bread")?["id"]?.stringValue)
    #expect(setup.bench.run(["delete", bread]).status == .ok)
    setup.writeRemote("Groceries", "bread.ics", Self.foreignItem(uid: "bread@other", summary: "Bread (rye)"))
    let report = try setup.sync()
    #expect(report["conflictList"]?.arrayValue?.first?["kind"]?.stringValue == "deleted-locally-edited-remotely")
    #expect(try setup.titles(in: "Groceries") == ["Bread (rye)", "Buy milk", "Skimmed"])
    #expect(setup.remoteTitles("Groceries") == ["Bread (rye)", "Buy milk", "Skimmed"])
  }

  @Test(.needsRemconvBinary) func aSyncKilledAfterAnyRemoteWriteConvergesWhenRunAgain() throws {
    for killPoint in [1, 2, 3, 5] {
      let setup = Self.populated()
      _ = try setup.sync()
      let milk = try #require(try setup.reminder(titled: "Buy milk")?["id"]?.stringValue)
      let mum = try #require(try setup.reminder(titled: "Call mum")?["id"]?.stringValue)
      let bread = try #require(try setup.reminder(titled: "Bread")?["id"]?.stringValue)
      #expect(setup.bench.run(["edit", milk, "--title", "Buy oat milk"]).status == .ok)
      #expect(setup.bench.run(["delete", mum]).status == .ok)
      setup.add("Plan trip", list: "Home")
      setup.add("Pack", list: "Home")
      #expect(setup.bench.run(["edit", bread, "--title", "Bread (white)"]).status == .ok)
      setup.writeRemote("Groceries", "bread.ics", Self.foreignItem(uid: "bread@other", summary: "Bread (rye)"))
      setup.writeRemote("Work", "mail.ics", Self.foreignItem(uid: "mail@other", summary: "Answer mail"))

      var environment = setup.bench.environment
      environment["REMCONV_TEST_SYNC_KILL_AFTER_WRITES"] = String(killPoint)
      let killed = try RemconvProcess.run(
        ["sync", "v"], environment: environment, scratch: setup.bench.directory.path)
      #expect(killed.signaled && killed.status == SIGKILL, "kill point \(killPoint): \(killed.errors)")

      let rerun = try setup.sync()
      #expect(rerun["conflicts"]?.intValue ?? 0 <= 1, "kill point \(killPoint)")
      #expect(
        try setup.titles(in: "Groceries") == [
          "Bread (rye)", "Bread (white) (conflict copy)", "Buy oat milk", "Skimmed",
        ], "kill point \(killPoint)")
      #expect(try setup.titles(in: "Home") == ["Pack", "Plan trip"], "kill point \(killPoint)")
      #expect(try setup.titles(in: "Work") == ["Answer mail", "Slides", "Write report"], "kill point \(killPoint)")
      for list in ["Groceries", "Home", "Work"] {
        #expect(setup.remoteTitles(list) == (try setup.titles(in: list)), "kill point \(killPoint), \(list)")
      }
      let uids = try setup.reminders().compactMap { $0["id"]?.stringValue }
      #expect(Set(uids).count == uids.count, "kill point \(killPoint)")
      #expect(Self.counts(try setup.sync()) == Self.expected(), "kill point \(killPoint)")
    }
  }

  @Test func todomanReadsTheSyncedFolderAndItsEditsComeBack() throws {
    let todoman = TodomanSandbox()
    let bench = TestBench()
    #expect(bench.run(["remote", "add", "tm", todoman.root]).status == .ok)
    #expect(bench.run(["list", "create", "work"]).status == .ok)
    #expect(bench.run(["add", "Renew passport", "--list", "work", "--due", "2026-12-10"]).status == .ok)
    #expect(bench.run(["sync", "tm"]).status == .ok)
    #expect(try todoman.summaries() == ["Renew passport"])

    try todoman.run(["new", "-l", "work", "Book dentist"])
    let listed = try todoman.run(["--porcelain", "list"])
    let passport = try #require(
      try JSONParser.parse(listed).arrayValue?.first { $0["summary"]?.stringValue == "Renew passport" })
    try todoman.run(["done", try #require(passport["id"]?.numberText)])
    let synced = bench.run(["sync", "tm", "--report", "json"])
    #expect(Self.counts(try JSONParser.parse(synced.output)) == Self.expected(downloaded: 2))
    let exported = bench.run(["export", "--format", "jsonl"]).output.split(separator: "\n").map {
      try? JSONParser.parse(String($0))
    }
    #expect(exported.compactMap { $0?["title"]?.stringValue }.sorted() == ["Book dentist", "Renew passport"])
    #expect(exported.first { $0?["title"]?.stringValue == "Renew passport" }??["isDone"] == .bool(true))
    #expect(Self.counts(try JSONParser.parse(bench.run(["sync", "tm", "--report", "json"]).output)) == Self.expected())
  }

  @Test func remotesAreAddedListedAndRemovedWithoutAPassword() throws {
    let bench = TestBench()
    let folder = bench.directory.file("vdir")
    #expect(bench.run(["remote", "add", "v", folder, "--user", "ana", "--password-env", "DAV_PASSWORD"]).status == .ok)
    #expect(bench.run(["remote", "add", "v", folder]).status == .dataError)
    let listed = try JSONParser.parse(bench.run(["remote", "list", "--json"]).output)
    let remote = try #require(listed.arrayValue?.first)
    #expect(remote["name"]?.stringValue == "v" && remote["kind"]?.stringValue == "vdir")
    #expect(remote["password"]?["source"]?.stringValue == "env")
    #expect(remote["password"]?["reference"]?.stringValue == "DAV_PASSWORD")
    #expect(
      bench.run(["remote", "add", "w", folder, "--password-env", "A", "--password-command", "pass dav"]).status
        == .usage)
    #expect(bench.run(["remote", "add", "dav", "https://dav.example.org/"]).status == .ok)
    let dav = try JSONParser.parse(bench.run(["remote", "list", "--json"]).output).arrayValue?.first {
      $0["name"]?.stringValue == "dav"
    }
    #expect(dav?["kind"]?.stringValue == "caldav")
    #expect(bench.run(["remote", "remove", "dav"]).status == .ok)
    #expect(bench.run(["sync", "nowhere"]).status == .noInput)
    #expect(bench.run(["remote", "remove", "v"]).status == .ok)
    #expect(try JSONParser.parse(bench.run(["remote", "list", "--json"]).output).arrayValue == [])
    #expect(bench.run(["remote", "remove", "v"]).status == .noInput)
  }

  @Test func aBusyStoreIsExit75AndNothingChangesOnEitherSide() throws {
    let setup = Self.populated()
    setup.bench.environment["REMCONV_BUSY_TIMEOUT_MS"] = "50"
    let before = try setup.fingerprint()
    let holder = try Database(path: setup.bench.storePath)
    try holder.execute("BEGIN IMMEDIATE")
    let result = setup.bench.run(["sync", "v"])
    try holder.execute("ROLLBACK")
    holder.close()
    #expect(result.status == .busy, "\(result.errors)")
    #expect(try setup.fingerprint() == before)
  }

  @Test func aRemoteThatCannotBeReachedIsExit69() throws {
    let bench = TestBench()
    let file = bench.directory.write("not-a-folder", "x")
    #expect(bench.run(["remote", "add", "v", file]).status == .ok)
    let result = bench.run(["sync", "v"])
    #expect(result.status == .unavailable && result.errors.contains("not-a-folder: is not a folder"))
  }

  // MARK: Lists, subtasks stated by parents, fractions of a second, mass deletions

  @Test func aListRenamedOrRecolouredOnEitherSideIsCarriedToTheOther() throws {
    let setup = Setup()
    setup.add("Buy milk", list: "Groceries")
    _ = try setup.sync()
    #expect(setup.remoteFile("Groceries", "displayname") == "Groceries")
    #expect(!FileManager.default.fileExists(atPath: setup.vdir + "/Groceries/color"))

    // Here: renamed and coloured (the collection has no colour: it takes the list's).
    #expect(setup.bench.run(["list", "edit", "Groceries", "--name", "Shopping", "--color", "#FF9500"]).status == .ok)
    var report = try setup.sync()
    #expect(report["collectionsUpdated"]?.arrayValue == [.string("Shopping")])
    #expect(setup.remoteFile("Groceries", "displayname") == "Shopping")
    #expect(setup.remoteFile("Groceries", "color") == "#FF9500")
    #expect(try Self.lists(setup) == ["Shopping #FF9500"])
    let agreed = try setup.fingerprint()
    #expect(try setup.sync()["collectionsUpdated"]?.arrayValue == [])
    #expect(try setup.fingerprint() == agreed)

    // There: renamed and recoloured, as khal or vdirsyncer's metasync write the files.
    setup.writeMetadata("Groceries", name: "Errands", color: "#34C759")
    report = try setup.sync()
    #expect(report["listsUpdated"]?.arrayValue == [.string("Errands")])
    #expect(try Self.lists(setup) == ["Errands #34C759"])
    #expect(try setup.titles(in: "Errands") == ["Buy milk"])
    #expect(Self.counts(try setup.sync()) == Self.expected())

    // Renamed on both sides: the remote's name wins, as a field does.
    #expect(setup.bench.run(["list", "edit", "Errands", "--name", "Chores"]).status == .ok)
    setup.writeMetadata("Groceries", name: "Jobs", color: nil)
    _ = try setup.sync()
    #expect(try Self.lists(setup) == ["Jobs #34C759"])
    #expect(setup.remoteFile("Groceries", "displayname") == "Jobs")
    let settled = try setup.fingerprint()
    _ = try setup.sync()
    #expect(try setup.fingerprint() == settled)
  }

  @Test func aSubtaskThatOnlyItsParentNamesKeepsItsParentAndIsNotRewritten() throws {
    let setup = Setup()
    setup.writeRemote(
      "Work", "a-kid.ics", Self.foreignItem(uid: "kid@other", summary: "Kid"))
    setup.writeRemote(
      "Work", "b-parent.ics",
      Self.foreignItem(uid: "parent@other", summary: "Parent", extra: ["RELATED-TO;RELTYPE=CHILD:kid@other"]))
    #expect(Self.counts(try setup.sync()) == Self.expected(downloaded: 2))
    #expect(try setup.reminder(titled: "Kid")?["parentId"]?.stringValue == "parent@other")
    let kidFile = setup.remoteFile("Work", "a-kid.ics")
    #expect(Self.counts(try setup.sync()) == Self.expected())
    #expect(setup.remoteFile("Work", "a-kid.ics") == kidFile)

    // The kid edited there, still naming no parent: it keeps the one its parent gives it.
    setup.writeRemote("Work", "a-kid.ics", Self.foreignItem(uid: "kid@other", summary: "Kid (renamed)"))
    #expect(Self.counts(try setup.sync()) == Self.expected(downloaded: 1))
    #expect(try setup.reminder(titled: "Kid (renamed)")?["parentId"]?.stringValue == "parent@other")
    #expect(Self.counts(try setup.sync()) == Self.expected())

    // A parent that names an existing reminder its child later: the link is taken, the
    // child's item is left as it is.
    setup.writeRemote("Work", "c-other.ics", Self.foreignItem(uid: "other@other", summary: "Other"))
    _ = try setup.sync()
    let otherFile = setup.remoteFile("Work", "c-other.ics")
    setup.writeRemote(
      "Work", "b-parent.ics",
      Self.foreignItem(
        uid: "parent@other", summary: "Parent",
        extra: ["RELATED-TO;RELTYPE=CHILD:kid@other", "RELATED-TO;RELTYPE=CHILD:other@other"]))
    _ = try setup.sync()
    #expect(try setup.reminder(titled: "Other")?["parentId"]?.stringValue == "parent@other")
    #expect(setup.remoteFile("Work", "c-other.ics") == otherFile)
    #expect(Self.counts(try setup.sync()) == Self.expected())
  }

  @Test func timesWithFractionsOfASecondAreReportedOncePerSyncAndNotAgainOnceCut() throws {
    let setup = Setup()
    let lines = (1...3).map { index in
      #"{"id": "f\#(index)@x", "title": "Item \#(index)", "list": "Inbox", "createdAt": "2026-11-01T08:00:00.250Z"}"#
    }
    let file = setup.bench.directory.write("items.jsonl", lines.joined(separator: "\n") + "\n")
    #expect(setup.bench.run(["import", file]).status == .ok)
    var result = setup.bench.run(["sync", "v"])
    #expect(result.status == .ok)
    let warnings = result.errors.components(separatedBy: "\n").filter { $0.contains("fractions of a second") }
    #expect(warnings.count == 1)
    #expect(warnings.first?.contains("3 reminders") == true)
    // An edit uploads the reminder again: its creation time was cut before, so nothing is new.
    #expect(setup.bench.run(["edit", "f1@x", "--title", "Item one"]).status == .ok)
    result = setup.bench.run(["sync", "v"])
    #expect(result.status == .ok)
    #expect(setup.remoteTitles("Inbox").contains("Item one"))
    #expect(!result.errors.contains("fractions of a second"), "\(result.errors)")
  }

  @Test func aSyncThatWouldDeleteMostOfASideIsRefusedUnlessAllowed() throws {
    for direction in ["store", "remote"] {
      let setup = Setup()
      var ids: [String] = []
      for index in 1...8 { ids.append(setup.add("Chore \(index)", list: "Chores")) }
      _ = try setup.sync()
      if direction == "store" {
        for id in ids.prefix(6) { #expect(setup.bench.run(["delete", id]).status == .ok) }
      } else {
        for name in setup.remoteItems("Chores").prefix(6) {
          try FileManager.default.removeItem(atPath: setup.vdir + "/Chores/" + name)
        }
      }
      let before = try setup.fingerprint()
      let refused = setup.bench.run(["sync", "v"])
      #expect(refused.status == .dataError, "\(direction): \(refused.errors)")
      #expect(refused.errors.contains("would delete 6 of the 8"), "\(refused.errors)")
      #expect(refused.errors.contains("--allow-mass-delete"))
      #expect(try setup.fingerprint() == before, "\(direction): nothing changes on either side")
      let dryRun = setup.bench.run(["sync", "v", "--dry-run"])
      #expect(dryRun.status == .dataError)

      let report = try setup.sync(["--allow-mass-delete"])
      #expect(
        Self.counts(report)
          == (direction == "store" ? Self.expected(deletedRemote: 6) : Self.expected(deletedLocal: 6)))
      #expect(setup.remoteItems("Chores").count == 2)
      #expect(try setup.titles(in: "Chores").count == 2)
    }
  }

  /// Twenty lists of five emptied on either side: no list alone passes the guard, the remote
  /// as a whole does (issue 41, finding 2).
  @Test func deletionsAreCountedAcrossEveryListOfTheRemoteToo() throws {
    for direction in ["store", "remote"] {
      let setup = Setup()
      var ids: [String] = []
      for list in 1...20 {
        for index in 1...5 { ids.append(setup.add("Chore \(list).\(index)", list: "List-\(list)")) }
      }
      _ = try setup.sync()
      if direction == "store" {
        for id in ids { #expect(setup.bench.run(["delete", id]).status == .ok) }
      } else {
        for list in 1...20 {
          for name in setup.remoteItems("List-\(list)") {
            try FileManager.default.removeItem(atPath: setup.vdir + "/List-\(list)/" + name)
          }
        }
      }
      let before = try setup.fingerprint()
      for arguments in [["sync", "v"], ["sync", "v", "--dry-run"]] {
        let refused = setup.bench.run(arguments)
        #expect(refused.status == .dataError, "\(direction): \(refused.errors)")
        #expect(refused.errors.contains("would delete 100 of the 100 items"), "\(refused.errors)")
        #expect(
          refused.errors.contains("in 20 lists (") && refused.errors.contains("'List-20' 5"), "\(refused.errors)")
      }
      #expect(try setup.fingerprint() == before, "\(direction): nothing changes on either side")
      let report = try setup.sync(["--allow-mass-delete"])
      #expect(
        Self.counts(report)
          == (direction == "store" ? Self.expected(deletedRemote: 100) : Self.expected(deletedLocal: 100)))
    }
  }

  @Test func aHandfulOfDeletionsIsNoMassDeletion() throws {
    let setup = Setup()
    var ids: [String] = []
    for index in 1...6 { ids.append(setup.add("Chore \(index)", list: "Chores")) }
    _ = try setup.sync()
    for id in ids.prefix(5) { #expect(setup.bench.run(["delete", id]).status == .ok) }
    #expect(Self.counts(try setup.sync()) == Self.expected(deletedRemote: 5))
  }
}
