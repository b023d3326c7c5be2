import Foundation
import RemconvCLI
import RemconvCore
import RemconvTestSupport
import Testing

/// `import --format apple-reminders` and `--format swiftdata` (issue 24), on databases built by
/// `CoreDataFixtures` after the documented layouts.
@Suite struct AppleRemindersImportTests {
  static let accountA = "A1111111-1111-4111-8111-111111111111"
  static let accountB = "B2222222-2222-4222-8222-222222222222"

  /// A `Stores` folder with a current-layout account (rows in its `-wal`) and an older one.
  final class Stores {
    let directory = TemporaryDirectory()
    let holders: [CoreDataFixtures.WALHolder]
    var folder: String { directory.file("Stores") }
    var current: String { folder + "/Data-\(AppleRemindersImportTests.accountA).sqlite" }
    var older: String { folder + "/Data-\(AppleRemindersImportTests.accountB).sqlite" }

    init() throws {
      try FileManager.default.createDirectory(atPath: directory.file("Stores"), withIntermediateDirectories: true)
      let folder = directory.file("Stores")
      holders = [
        try CoreDataFixtures.appleReminders(
          at: folder + "/Data-\(accountA).sqlite", layout: .current, storeUUID: accountA),
        try CoreDataFixtures.appleReminders(
          at: folder + "/Data-\(accountB).sqlite", layout: .older, storeUUID: accountB),
      ]
    }

    /// Every file of the folder by name, with its digest.
    func digests() throws -> [String: String] {
      var result: [String: String] = [:]
      for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
        result[name] = try FixtureStores.digest(folder + "/" + name)
      }
      return result
    }
  }

  struct Snapshot {
    let lists: [String: JSONValue]
    let reminders: [String: JSONValue]

    init(_ bench: TestBench) throws {
      let document = try JSONParser.parse(bench.snapshot())
      let lists = try #require(document["lists"]?.arrayValue)
      self.lists = Dictionary(uniqueKeysWithValues: lists.map { ($0["name"]?.stringValue ?? "", $0) })
      var reminders: [String: JSONValue] = [:]
      for list in lists {
        for reminder in list["reminders"]?.arrayValue ?? [] {
          var entry = reminder
          if case .object(var fields) = entry {
            fields["list"] = list["name"]
            entry = .object(fields)
          }
          reminders[reminder["id"]?.stringValue ?? ""] = entry
        }
      }
      self.reminders = reminders
    }
  }

  @Test func everyMappedColumnOfEveryAccountIsImported() throws {
    let stores = try Stores()
    let bench = TestBench()
    let result = bench.run(["import", stores.folder, "--format", "apple-reminders"])
    #expect(result.status == .ok, "\(result.errors)")
    let snapshot = try Snapshot(bench)

    // Lists: the group, the smart list and the list marked for deletion are not lists; the
    // second account's "Groceries" is kept apart.
    #expect(
      Set(snapshot.lists.keys) == ["Groceries", "Work", "Groceries (\(Self.accountB))", "Errands"])
    let groceries = try #require(snapshot.lists["Groceries"])
    #expect(groceries["id"]?.stringValue == "LIST-GROCERIES")
    #expect(groceries["symbol"]?.stringValue == "cart")
    #expect(groceries["color"]?.stringValue == "#FF2968")
    #expect(groceries["createdAt"]?.stringValue == "2026-10-02T08:15:00Z")
    #expect(groceries["extra"]?["apple"]?["group"]?.stringValue == "Home & Work")
    #expect(groceries["extra"]?["apple"]?["account"]?.stringValue == Self.accountA)
    let work = try #require(snapshot.lists["Work"])
    #expect(work["symbol"]?.stringValue == ReminderList.defaultSymbol)
    #expect(work["color"]?.stringValue == "#1BADF8")
    #expect(work["extra"]?["apple"]?["colorName"]?.stringValue == "blue")
    #expect(work["extra"]?["apple"]?["sections"]?.arrayValue?.first?["ZDISPLAYNAME"]?.stringValue == "Q4")
    #expect(snapshot.lists["Errands"]?["symbol"]?.stringValue == "car")
    #expect(snapshot.lists["Groceries (\(Self.accountB))"]?["id"]?.stringValue == "OLD-LIST-GROCERIES")

    // Every mapped reminder column.
    let oat = try #require(snapshot.reminders["UID-OAT"])
    #expect(oat["title"]?.stringValue == "Oat milk")
    #expect(oat["notes"]?.stringValue == "Barista edition")
    #expect(oat["list"]?.stringValue == "Groceries")
    #expect(oat["flagged"]?.boolValue == true)
    #expect(oat["isDone"]?.boolValue == false)
    #expect(oat["priority"]?.stringValue == "high")
    #expect(oat["dueDate"]?.stringValue == "2026-11-29")
    #expect(oat["dueTimeZone"] == .null)
    #expect(oat["tags"]?.arrayValue?.compactMap(\.stringValue) == ["errands", "weekend"])
    #expect(oat["createdAt"]?.stringValue == "2026-11-27T18:02:11Z")
    #expect(oat["editedAt"]?.stringValue == "2026-11-28T07:45:00.250Z")
    let oatExtra = try #require(oat["extra"]?["apple"])
    #expect(oatExtra["identifier"]?.stringValue == "CK-OAT")
    // Its alarm and recurrence rule are fields (issue 22), no longer rows kept in extra.
    #expect(oatExtra["objects"] == nil)
    let standUpObjects = try #require(snapshot.reminders["UID-STANDUP"]?["extra"]?["apple"]?["objects"]?.arrayValue)
    #expect(
      standUpObjects.contains {
        $0["entity"] == .string("REMCDAlarmLocationTrigger") && $0["ZTITLE"] == .string("Office")
      })

    // No UID: EventKit's identifier; neither: derived from the store's UUID and Z_PK.
    let ingredients = try #require(snapshot.reminders["CK-INGREDIENTS"])
    #expect(ingredients["priority"]?.stringValue == "medium")
    let vanillaID = StableID.derived([Self.accountA, "reminder", "3"])
    let vanilla = try #require(snapshot.reminders[vanillaID])
    #expect(vanilla["parentId"]?.stringValue == "CK-INGREDIENTS")
    #expect(vanilla["isDone"]?.boolValue == true)
    #expect(vanilla["completedAt"]?.stringValue == "2026-11-28T16:20:00Z")
    #expect(vanilla["priority"]?.stringValue == "low")

    let forecast = try #require(snapshot.reminders["UID-FORECAST"])
    #expect(forecast["dueDate"]?.stringValue == "2026-11-30T09:00:00")
    #expect(forecast["dueTimeZone"]?.stringValue == "Europe/Berlin")
    #expect(forecast["priority"]?.stringValue == "none")
    #expect(forecast["list"]?.stringValue == "Work")
    #expect(forecast["extra"]?["apple"]?["columns"]?["ZICSURL"]?.stringValue == "https://example.com/ics")
    // An alarm marked for deletion is not kept.
    #expect(forecast["extra"]?["apple"]?["objects"] == nil)

    let standUp = try #require(snapshot.reminders["UID-STANDUP"])
    #expect(standUp["dueDate"]?.stringValue == "2026-11-29T14:30:00Z")
    #expect(standUp["priority"]?.stringValue == "high")
    #expect(standUp["extra"]?["apple"]?["priority"] == .number("3"))

    #expect(snapshot.reminders["UID-DELETED"] == nil)
    #expect(!snapshot.reminders.values.contains { $0["title"]?.stringValue == "Deleted in Reminders" })

    // Rows only in the -wal.
    let walOnly = try #require(snapshot.reminders["UID-WAL"])
    #expect(walOnly["title"]?.stringValue == "Added after the checkpoint")
    #expect(walOnly["tags"]?.arrayValue?.compactMap(\.stringValue) == ["weekend"])

    // The older layout: lists in ZREMCDOBJECT, no zone, all-day flag or UID.
    let bread = try #require(snapshot.reminders["OLD-CK-BREAD"])
    #expect(bread["list"]?.stringValue == "Groceries (\(Self.accountB))")
    #expect(bread["dueDate"]?.stringValue == "2026-12-01T10:00:00Z")
    #expect(bread["priority"]?.stringValue == "medium")
    #expect(bread["extra"]?["apple"]?["objects"]?.arrayValue?.first?["entity"]?.stringValue == "REMCDAlarm")
    let postOffice = try #require(snapshot.reminders[StableID.derived([Self.accountB, "reminder", "2"])])
    #expect(postOffice["list"]?.stringValue == "Errands")
    #expect(snapshot.reminders.count == 8)
  }

  @Test func aSecondImportAddsNothingAndTheSourceIsUntouched() throws {
    let stores = try Stores()
    // The last rows are still only in the -wal.
    let walSize = try FileManager.default.attributesOfItem(atPath: stores.current + "-wal")[.size] as? Int
    #expect((walSize ?? 0) > 0)
    let before = try stores.digests()
    #expect(before.keys.contains("Data-\(Self.accountA).sqlite-shm"))
    let bench = TestBench()
    #expect(bench.run(["import", stores.folder, "--format", "apple-reminders"]).status == .ok)
    let first = bench.snapshot()
    let again = bench.run(["import", stores.folder, "--format", "apple-reminders", "--report", "json"])
    #expect(again.status == .ok, "\(again.errors)")
    #expect(bench.snapshot() == first)
    let report = try JSONParser.parse(again.output)
    #expect(report["added"] == .number("0") && report["updated"] == .number("0"), "\(again.output)")
    #expect(try stores.digests() == before)
  }

  @Test func aDatabaseIsDetectedFromItsSchema() throws {
    let stores = try Stores()
    let bench = TestBench()
    let result = bench.run(["import", stores.current])
    #expect(result.status == .ok, "\(result.errors)")
    #expect(try Snapshot(bench).reminders["UID-WAL"] != nil)
    // The Stores folder too, and the folder above it.
    for folder in [stores.folder, stores.directory.path] {
      let folderBench = TestBench()
      #expect(folderBench.run(["import", folder]).status == .ok)
      #expect(try Snapshot(folderBench).reminders.count == 8)
    }
  }

  /// An unencrypted device backup: files under hashed names, listed in `Manifest.db`
  /// (`Files(fileID, domain, relativePath, flags, file)`, see `BackupManifest`).
  @Test func anIPhoneBackupIsReadThroughItsManifest() throws {
    let stores = try Stores()
    let backup = stores.directory.file("Backup")
    let domain = "AppDomainGroup-group.com.apple.reminders"
    let files = [
      (
        "3a", "3a1f0000000000000000000000000000000000aa", domain, "Container_v1/Stores/Data-\(Self.accountA).sqlite",
        stores.current
      ),
      (
        "3a", "3a1f0000000000000000000000000000000000bb", domain,
        "Container_v1/Stores/Data-\(Self.accountA).sqlite-wal", stores.current + "-wal"
      ),
      ("7c", "7c2e0000000000000000000000000000000000cc", "HomeDomain", "Library/Notes/notes.sqlite", stores.older),
    ]
    for (folder, fileID, _, _, source) in files {
      try FileManager.default.createDirectory(atPath: backup + "/" + folder, withIntermediateDirectories: true)
      try FileManager.default.copyItem(atPath: source, toPath: backup + "/" + folder + "/" + fileID)
    }
    let manifest = try Database(path: backup + "/Manifest.db", mode: .create)
    try manifest.execute(
      "CREATE TABLE Files (fileID TEXT PRIMARY KEY, domain TEXT, relativePath TEXT, flags INTEGER, file BLOB)")
    for (_, fileID, fileDomain, relativePath, _) in files {
      try manifest.run(
        "INSERT INTO Files VALUES (?, ?, ?, 1, NULL)", [.text(fileID), .text(fileDomain), .text(relativePath)])
    }
    manifest.close()
    // Every file of the backup with its digest.
    let contents = {
      try FileManager.default.subpathsOfDirectory(atPath: backup).sorted().map { name in
        var isDirectory: ObjCBool = false
        FileManager.default.fileExists(atPath: backup + "/" + name, isDirectory: &isDirectory)
        return isDirectory.boolValue ? name : name + " " + (try FixtureStores.digest(backup + "/" + name))
      }
    }
    let before = try contents()
    let bench = TestBench()
    let result = bench.run(["import", backup])
    #expect(result.status == .ok, "\(result.errors)")
    let snapshot = try Snapshot(bench)
    #expect(Set(snapshot.lists.keys) == ["Groceries", "Work"])
    #expect(snapshot.lists["Work"]?["extra"]?["apple"]?["account"]?.stringValue == Self.accountA)
    #expect(snapshot.reminders["UID-WAL"] != nil, "the -wal kept under its own hash is read")
    #expect(snapshot.reminders.count == 6)
    #expect(try contents() == before)
  }

  @Test func aSQLiteFileThatIsNotRemindersIsRefused() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("notes.sqlite")
    let database = try Database(path: path, mode: .create)
    try database.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes VALUES (1, 'x')")
    database.close()
    let bench = TestBench()
    let before = bench.snapshot()
    let named = bench.run(["import", path, "--format", "apple-reminders"])
    #expect(named.status == .dataError)
    #expect(named.errors.contains(path))
    #expect(named.errors.contains("missing table Z_PRIMARYKEY, table ZREMCDREMINDER"), "\(named.errors)")
    let detected = bench.run(["import", path])
    #expect(detected.status == .dataError)
    #expect(detected.errors.contains(path))
    #expect(bench.run(["import", path, "--format", "swiftdata"]).status == .dataError)
    #expect(bench.snapshot() == before)
  }

  @Test func aTruncatedDatabaseIsRefused() throws {
    let stores = try Stores()
    let path = stores.directory.file("Data-truncated.sqlite")
    // The committed file alone (its -wal rows are not needed), cut after its third page.
    let bytes = try Data(contentsOf: URL(fileURLWithPath: stores.current))
    #expect(bytes.count > 3 * 4096)
    try bytes.prefix(3 * 4096).write(to: URL(fileURLWithPath: path))
    let bench = TestBench()
    let result = bench.run(["import", path, "--format", "apple-reminders"])
    #expect(result.status == .dataError)
    #expect(result.errors.contains(path), "\(result.errors)")
    #expect(result.errors.contains("truncated or damaged"), "\(result.errors)")
  }

  @Test func aFolderWithoutAccountsAndAStreamAreRefused() throws {
    let directory = TemporaryDirectory()
    directory.write("notes.txt", "not a store")
    let bench = TestBench()
    let folder = bench.run(["import", directory.path, "--format", "apple-reminders"])
    #expect(folder.status == .dataError)
    #expect(folder.errors.contains("\(directory.path): holds no Data-*.sqlite file"), "\(folder.errors)")
    let stream = bench.run(["import", "-", "--format", "apple-reminders"], input: "SQLite format 3")
    #expect(stream.status == .dataError)
    #expect(stream.errors.contains("not a stream"), "\(stream.errors)")
  }

  @Test func aLayoutMissingWhatTheMappingNeedsIsNamed() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("Data-odd.sqlite")
    let database = try Database(path: path, mode: .create)
    try database.execute(
      """
      CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
      INSERT INTO Z_PRIMARYKEY VALUES (1, 'REMCDReminder', 0, 0);
      CREATE TABLE ZREMCDREMINDER (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, ZTITLE VARCHAR)
      """)
    database.close()
    let result = TestBench().run(["import", path])
    #expect(result.status == .dataError)
    #expect(result.errors.contains(path))
    #expect(result.errors.contains("column ZREMCDREMINDER.ZLIST"), "\(result.errors)")
    #expect(result.errors.contains("table ZREMCDBASELIST"), "\(result.errors)")
  }

  @Test func aDatabaseBeingWrittenIsRefusedWithAClearMessage() throws {
    let stores = try Stores()
    let sqlite = "/usr/bin/sqlite3"
    try #require(FileManager.default.isExecutableFile(atPath: sqlite), "sqlite3 (a test dependency) is missing")
    let writer = Process()
    writer.executableURL = URL(fileURLWithPath: sqlite)
    writer.arguments = [stores.current]
    let input = Pipe()
    let output = Pipe()
    writer.standardInput = input
    writer.standardOutput = output
    try writer.run()
    // The writer says when it holds the write lock; it keeps it until its input closes.
    input.fileHandleForWriting.write(
      Data("BEGIN IMMEDIATE;\nUPDATE ZREMCDREMINDER SET ZTITLE = 'x';\n.print locked\n".utf8))
    var said = Data()
    while !String(decoding: said, as: UTF8.self).contains("locked") {
      let chunk = output.fileHandleForReading.availableData
      try #require(!chunk.isEmpty, "sqlite3 ended before taking the lock")
      said.append(chunk)
    }
    let bench = TestBench()
    let result = bench.run(["import", stores.current, "--format", "apple-reminders"])
    // Detection says so too, rather than "cannot tell the format".
    let detected = bench.run(["import", stores.current])
    input.fileHandleForWriting.write(Data("ROLLBACK;\n".utf8))
    try input.fileHandleForWriting.close()
    writer.waitUntilExit()
    #expect(result.status == .busy)
    #expect(result.errors.contains(stores.current))
    #expect(result.errors.contains("being written by another program"), "\(result.errors)")
    #expect(detected.status == .busy)
    #expect(detected.errors.contains("being written by another program"), "\(detected.errors)")
  }

  @Test(arguments: [true, false])
  func aSwiftDataStoreIsImported(priorityAsText: Bool) throws {
    let directory = TemporaryDirectory()
    let path = directory.file("default.store")
    let uuid = "C3333333-3333-4333-8333-333333333333"
    let holder = try CoreDataFixtures.swiftData(at: path, storeUUID: uuid, priorityAsText: priorityAsText)
    let before = try [path, path + "-wal", path + "-shm"].map(FixtureStores.digest)
    let bench = TestBench()
    let result = bench.run(["import", path])
    #expect(result.status == .ok, "\(result.errors)")
    let snapshot = try Snapshot(bench)
    let work = try #require(snapshot.lists["Work"])
    #expect(work["id"]?.stringValue == StableID.derived([uuid, "ZREMINDERLIST", "1"]))
    #expect(work["symbol"]?.stringValue == "briefcase")
    #expect(work["color"]?.stringValue == "#007AFF")
    #expect(work["createdAt"]?.stringValue == "2026-09-14T09:00:00Z")
    let forecast = try #require(snapshot.reminders[StableID.derived([uuid, "ZREMINDER", "1"])])
    #expect(forecast["title"]?.stringValue == "Send the forecast")
    #expect(forecast["notes"]?.stringValue == "With the Forecast tab")
    #expect(forecast["flagged"]?.boolValue == true)
    #expect(forecast["priority"]?.stringValue == "high")
    #expect(forecast["dueDate"]?.stringValue == "2026-11-30T08:00:00Z")
    #expect(forecast["list"]?.stringValue == "Work")
    // Only in the -wal.
    let report = try #require(snapshot.reminders[StableID.derived([uuid, "ZREMINDER", "2"])])
    #expect(report["isDone"]?.boolValue == true)
    #expect(report["priority"]?.stringValue == "low")

    let first = bench.snapshot()
    let again = bench.run(["import", path, "--format", "swiftdata", "--report", "json"])
    let secondReport = try JSONParser.parse(again.output)
    #expect(secondReport["added"] == .number("0") && secondReport["updated"] == .number("0"), "\(again.output)")
    #expect(bench.snapshot() == first)
    #expect(try [path, path + "-wal", path + "-shm"].map(FixtureStores.digest) == before)
    withExtendedLifetime(holder) {}
  }
}
