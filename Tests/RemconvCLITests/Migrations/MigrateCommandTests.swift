import Foundation
import RemconvCLI
import RemconvCore
import RemconvTestSupport
import Testing

/// `remconv migrate`, and what every command does with an older, newer or foreign store.
@Suite struct MigrateCommandTests {
  private func bench(with fixture: String) throws -> TestBench {
    let bench = TestBench()
    try FixtureStores.copy(fixture, into: bench.directory)
    return bench
  }

  private func json(_ text: String) throws -> JSONValue { try JSONParser.parse(text) }

  @Test func anyCommandUpgradesAnOlderStoreWithOneLine() throws {
    let bench = try bench(with: "v0002.sqlite")
    let result = bench.run("export --format json")
    #expect(result.status == .ok)
    let lines = result.errors.split(separator: "\n")
    #expect(lines.count == 1)
    #expect(
      lines.first?.hasPrefix(
        "remconv: upgraded store \(bench.storePath) from 0002_notes_and_priority to 0012_leaner_reminder_indexes (backup: \(bench.storePath).backup-0002-to-0012-"
      ) == true)
    let lists = try #require(try json(result.output)["lists"]?.arrayValue)
    #expect(
      lists.compactMap { $0["name"]?.stringValue } == ["Einkäufe", "Arbeit", "Café Ideen", "🏠 Zuhause", "Garten"])
    // Once upgraded, nothing more is said.
    #expect(bench.run("export --format json").errors.isEmpty)
  }

  @Test func noUpgradeRefusesWithItsOwnExitCode() throws {
    let bench = try bench(with: "v0001.sqlite")
    try expectUntouched(bench.storePath) {
      let result = bench.run("export --no-upgrade")
      #expect(result.status == .upgradeRefused && result.status.rawValue == 78)
      #expect(result.errors.contains("--no-upgrade was given") && result.errors.contains("remconv migrate up"))
    }
  }

  @Test func aNewerStoreExportsButRefusesImports() throws {
    let bench = try bench(with: "v9001-newer.sqlite")
    try expectUntouched(bench.storePath) {
      let export = bench.run("export --format json")
      #expect(export.status == .ok && export.errors.isEmpty)
      #expect(export.output.contains("Milch (laktosefrei)"))
      let input = bench.directory.write(
        "new.json", #"{"format":"remconv","version":1,"lists":[{"name":"Neu","reminders":[{"title":"x"}]}]}"#)
      let imported = bench.run(["import", input])
      #expect(imported.status == .storeTooNew && imported.status.rawValue == 77)
      #expect(
        imported.errors.contains("9001_locations_and_attachments") && imported.errors.contains("remconv 0.3.0 or later")
      )
      #expect(bench.run("migrate up").status == .storeTooNew)
    }
    let status = try json(bench.run("migrate status --json").output)
    #expect(status["state"] == .string("newer") && status["neededVersion"] == .string("0.3.0"))
  }

  @Test func anEditedStepStopsEveryCommand() throws {
    let bench = TestBench()
    try FixtureStores.copy(
      "v0003.sqlite", into: bench.directory,
      editing: "UPDATE remconv_migrations SET checksum = 'edited' WHERE id = '0001_lists_and_reminders'")
    let export = bench.run("export")
    #expect(export.status == .upgradeRefused)
    #expect(export.errors.contains("0001_lists_and_reminders does not match"))
    let status = bench.run("migrate status")
    #expect(status.status == .upgradeRefused)
    #expect(status.output.contains("state    tampered"))
  }

  @Test func aFileThatIsNotAStoreIsRefused() throws {
    let bench = TestBench()
    bench.directory.write("store.sqlite", "BEGIN:VCALENDAR\nEND:VCALENDAR\n")
    let result = bench.run("export")
    #expect(result.status == .dataError && result.status.rawValue == 65)
    #expect(result.errors.contains("not a SQLite database (left untouched)"))
    #expect(bench.directory.read("store.sqlite") == "BEGIN:VCALENDAR\nEND:VCALENDAR\n")
  }

  @Test func aDamagedOlderStoreIsRefusedUntouchedByEveryCommand() throws {
    let bench = try bench(with: "v0002.sqlite")
    try FixtureStores.damagePage(of: "reminders", in: bench.storePath)
    try expectUntouched(bench.storePath) {
      for command in ["migrate up", "export", "migrate plan"] {
        let result = bench.run(command)
        #expect(result.status == .dataError, "\(command)")
        #expect(result.errors.contains("damaged"), "\(command): \(result.errors)")
      }
    }
  }

  @Test func statusListsAppliedAndPendingSteps() throws {
    let bench = try bench(with: "v0002.sqlite")
    let text = bench.run("migrate")
    #expect(text.status == .ok)
    #expect(text.output.contains("state    behind: 10 steps pending"))
    #expect(text.output.contains("  0001_lists_and_reminders  2024-03-02T08:14:00Z  remconv 0.0.1"))
    #expect(
      text.output.contains(
        "pending\n  0003_uids_timestamps_due_kind\n  0004_subtasks_tags_url_extra\n  0005_unique_list_names\n  0006_record_digests\n  0007_converge_earlier_releases\n  0008_view_index_columns\n  0009_recurrence_alarms_start\n  0010_sync_state\n  0011_sync_discovery\n  0012_leaner_reminder_indexes"
      ))
    let status = try json(bench.run("migrate status --json").output)
    #expect(status["state"] == .string("behind"))
    #expect(status["version"] == .string("0002_notes_and_priority"))
    #expect(status["userVersion"] == .number(2))
    #expect(status["pending"]?.arrayValue?.count == 10)
    #expect(status["applied"]?.arrayValue?.first?["toolVersion"] == .string("0.0.1"))
    #expect(bench.run("migrate status --store \(bench.directory.file("missing.sqlite"))").status == .noInput)
  }

  @Test func planShowsTheBackupAndThePreflightWithoutChangingAnything() throws {
    let bench = try bench(with: "v0004-duplicate-names.sqlite")
    try expectUntouched(bench.storePath) {
      let plan = try json(bench.run("migrate plan --json --on-duplicate merge").output)
      #expect(
        plan["steps"]
          == .array([
            .string("0005_unique_list_names"), .string("0006_record_digests"),
            .string("0007_converge_earlier_releases"), .string("0008_view_index_columns"),
            .string("0009_recurrence_alarms_start"), .string("0010_sync_state"),
            .string("0011_sync_discovery"), .string("0012_leaner_reminder_indexes"),
          ]))
      #expect(plan["backup"]?.stringValue?.hasPrefix(bench.storePath + ".backup-0004-to-0012-20261129T100000Z") == true)
      #expect(plan["duplicateNames"]?.arrayValue?.map { $0["key"] } == [.string("home"), .string("café")])
      let actions = try #require(plan["preflight"]?.arrayValue)
      #expect(actions.compactMap { $0["action"]?.stringValue } == ["merge", "merge", "merge", "assign-uid"])
      #expect(plan["blockers"] == .array([]))
      let text = bench.run("migrate plan")
      #expect(text.status == .ok)
      #expect(text.output.contains("-> list 3 'home' will be renamed 'home (3)'"))
      let refused = bench.run("migrate plan --on-duplicate fail")
      #expect(refused.status == .findings)
      #expect(refused.output.contains("blocked, the upgrade would change nothing:"))
    }
  }

  @Test func upAppliesOnceAndThenReportsUpToDate() throws {
    let bench = try bench(with: "v0001.sqlite")
    let partial = bench.run("migrate up --to 0003")
    #expect(partial.status == .ok)
    #expect(partial.output.contains("applied 2 steps"))
    let report = try json(bench.run("migrate up --json").output)
    #expect(report["from"] == .string("0003_uids_timestamps_due_kind"))
    #expect(
      report["applied"]
        == .array([
          .string("0004_subtasks_tags_url_extra"), .string("0005_unique_list_names"), .string("0006_record_digests"),
          .string("0007_converge_earlier_releases"), .string("0008_view_index_columns"),
          .string("0009_recurrence_alarms_start"), .string("0010_sync_state"), .string("0011_sync_discovery"),
          .string("0012_leaner_reminder_indexes"),
        ]))
    let backup = try #require(report["backup"]?.stringValue)
    #expect(FileManager.default.fileExists(atPath: backup))
    let again = bench.run("migrate up")
    #expect(again.status == .ok)
    #expect(again.output == "store \(bench.storePath) is up to date (0012_leaner_reminder_indexes)\n")
    #expect(bench.run("migrate up --to 0002").status == .dataError)
  }

  @Test func upWithFailingPreflightChangesNothing() throws {
    let bench = try bench(with: "v0004-duplicate-names.sqlite")
    try expectUntouched(bench.storePath) {
      let result = bench.run("migrate up --on-duplicate fail")
      #expect(result.status == .dataError)
      #expect(result.errors.contains("'Café' (list 6, 1 reminder)"))
    }
  }

  @Test func restoreThroughTheCommandLine() throws {
    let bench = try bench(with: "v0003.sqlite")
    let up = try json(bench.run("migrate up --json").output)
    let backup = try #require(up["backup"]?.stringValue)
    let restored = bench.run(["migrate", "restore", backup])
    #expect(restored.status == .ok)
    #expect(restored.output.contains("restored \(bench.storePath) from \(backup) (at 0003_uids_timestamps_due_kind)"))
    #expect(restored.output.contains("the store as it was is saved as \(bench.storePath).backup-0012-to-0003-"))
    #expect(restored.output.contains("the next command upgrades it"))
    #expect(bench.run("migrate status --json").output.contains(#""state":"behind""#))
    let missing = bench.run(["migrate", "restore", bench.directory.file("nope.sqlite")])
    #expect(missing.status == .noInput)
  }

  @Test func restoreRefusesAForeignDatabaseOrANewerStoreWithTheirExitCodes() throws {
    let bench = try bench(with: "v0003.sqlite")
    let backup = try #require(try json(bench.run("migrate up --json").output)["backup"]?.stringValue)
    let foreign = bench.directory.file("other.sqlite")
    let other = try Database(path: foreign, mode: .create)
    _ = try other.scalar("PRAGMA journal_mode = WAL")
    try other.execute("CREATE TABLE mail (id INTEGER PRIMARY KEY, subject TEXT)")
    other.close()
    try expectUntouched(foreign) {
      let result = bench.run(["migrate", "restore", backup, "--store", foreign])
      #expect(result.status == .dataError && result.status.rawValue == 65, "\(result.errors)")
    }
    let newer = try FixtureStores.copy("v9001-newer.sqlite", into: bench.directory, as: "newer.sqlite")
    try expectUntouched(newer) {
      let result = bench.run(["migrate", "restore", backup, "--store", newer])
      #expect(result.status.rawValue == 77, "\(result.errors)")
    }
    // And as backups: the same codes.
    #expect(bench.run(["migrate", "restore", foreign]).status.rawValue == 65)
    #expect(bench.run(["migrate", "restore", newer]).status.rawValue == 77)
  }

  @Test func restoreOverADamagedStoreSaysWhereTheDamagedFileWent() throws {
    let bench = try bench(with: "v0003.sqlite")
    let backup = try #require(try json(bench.run("migrate up --json").output)["backup"]?.stringValue)
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: bench.storePath))
    try handle.write(contentsOf: Data("garbage garbage!".utf8))
    try handle.close()
    #expect(bench.run("lists").status == .dataError)
    let restored = bench.run(["migrate", "restore", backup])
    #expect(restored.status == .ok, "\(restored.errors)")
    let aside = bench.storePath + ".damaged-20261129T100000Z.sqlite"
    #expect(
      restored.output.contains(
        "the store was damaged (its header is not a SQLite header): moved aside untouched as \(aside)"))
    #expect(try String(contentsOfFile: aside, encoding: .isoLatin1).hasPrefix("garbage garbage!"))
    let report = try json(bench.run(["migrate", "restore", backup, "--json"]).output)
    #expect(report["movedAside"] == .array([]) && report["previousWasDamaged"] == .bool(false))
    #expect(bench.run("lists").status == .ok)
  }

  @Test func restoreLeavesAStoreItCannotReadWhereItIs() throws {
    // Unreadable is not damaged: nothing is moved aside (as root, remconv runs as `nobody`).
    let bench = try bench(with: "v0003.sqlite")
    let backup = try #require(try json(bench.run("migrate up --json").output)["backup"]?.stringValue)
    let folder = bench.directory.file("other")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/store.sqlite"
    try FileManager.default.copyItem(atPath: bench.storePath, toPath: path)
    let user: UInt32? = getuid() == 0 ? 65534 : nil
    if let user { chown(folder, user, user) }
    chmod(path, 0o000)
    defer { chmod(path, 0o600) }
    chmod(backup, 0o644)
    let result = try RemconvProcess.run(
      ["migrate", "restore", backup, "--store", path],
      environment: ["HOME": bench.directory.path, "PATH": "/usr/bin:/bin"],
      scratch: bench.directory.path, user: user)
    #expect(
      result.status == 74 && result.errors.hasPrefix("remconv: error: \(path): permission denied"), "\(result.errors)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["store.sqlite"])
  }

  /// A store whose file cannot be written by the user running remconv (as root the commands
  /// run as `nobody`, who owns the store and its folder: the folder could hold a backup).
  @Test func aReadOnlyStoreThatNeedsAnUpgradeIsReadThroughACopyAndNeverWritten() throws {
    let directory = TemporaryDirectory()
    let folder = directory.file("store")
    let temporary = directory.file("tmp")
    for made in [folder, temporary] {
      try FileManager.default.createDirectory(atPath: made, withIntermediateDirectories: true)
    }
    let path = folder + "/store.sqlite"
    try FileManager.default.copyItem(atPath: FixtureStores.path("v0003.sqlite"), toPath: path)
    let bytes = FileManager.default.contents(atPath: path)
    let user = makeStoreReadOnly(path, in: folder)
    if let user { chown(temporary, user, user) }
    defer { chmod(path, 0o600) }
    let environment = [
      "HOME": directory.path, "PATH": "/usr/bin:/bin", "TZ": "Europe/Berlin", "TMPDIR": temporary,
      "REMCONV_NOW": "2026-11-29T10:00:00Z",
    ]
    func run(_ arguments: [String]) throws -> ProcessOutcome {
      try RemconvProcess.run(
        arguments + ["--store", path], environment: environment, scratch: directory.path, user: user)
    }

    // What a writable copy of the store exports once upgraded: the reference.
    let bench = try bench(with: "v0003.sqlite")
    let expected = bench.run("export --format jsonl").output

    // Twice, as a cron job would: the same output each time, nothing left behind.
    for _ in 0..<2 {
      let exported = try run(["export", "--format", "jsonl"])
      #expect(exported.status == 0, "\(exported.errors)")
      #expect(exported.output == expected)
      #expect(
        exported.errors.contains(
          "remconv: the store \(path) is read-only and at 0003_uids_timestamps_due_kind: reading a copy upgraded to \(Migration.head.id) in a temporary folder, removed afterwards; the store is unchanged"
        ),
        "\(exported.errors)")
    }
    for arguments in [["lists"], ["show", "--scope", "all"], ["search", "Milch"]] {
      let result = try run(arguments)
      #expect(result.status == 0, "\(arguments): \(result.errors)")
      #expect(!result.output.isEmpty, "\(arguments)")
    }
    let validated = try run(["validate"])
    #expect(validated.status == 0 || validated.status == 1, "\(validated.errors)")
    #expect(validated.output.contains("next friday"), "the copy is validated: \(validated.output)")

    // Commands that write are refused before anything, and leave no backup either. The input is
    // a copy the other user can read wherever the clone sits.
    let input = directory.file("reminders.json")
    try FileManager.default.copyItem(atPath: Repository.path("Samples/json/reminders.json"), toPath: input)
    chmod(input, 0o644)
    for arguments in [["import", input], ["validate", "--fix"], ["migrate", "up"]] {
      let result = try run(arguments)
      #expect(result.status == 74, "\(arguments): \(result.errors)")
      #expect(
        result.errors.contains(
          "\(path): the store is read-only and needs an upgrade from 0003_uids_timestamps_due_kind to \(Migration.head.id), which cannot be written; nothing was changed and no backup was taken"
        ),
        "\(arguments): \(result.errors)")
    }
    let plan = try run(["migrate", "plan"])
    #expect(
      plan.status == 1 && plan.output.contains("\(path): the store is read-only: the upgrade cannot be written"),
      "\(plan.output)")
    #expect(try run(["migrate", "status"]).output.contains("state    behind"))

    #expect(MigrationBackup.list(for: path).isEmpty)
    let left = try FileManager.default.contentsOfDirectory(atPath: folder)
    #expect(!left.contains { $0.contains(".backup-") }, "\(left)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty, "the copies are removed")
    #expect(FileManager.default.contents(atPath: path) == bytes)
  }

  @Test func theCommandLineIsChecked() {
    let bench = TestBench()
    #expect(bench.run("migrate sideways").status == .usage)
    #expect(bench.run("migrate restore").status == .usage)
    #expect(bench.run("migrate status --to 3").status == .usage)
    #expect(bench.run("migrate up --no-upgrade").status == .usage)
    let help = bench.run("migrate --help")
    #expect(help.status == .ok && help.output.contains("USAGE: remconv migrate [status|plan|up|restore]"))
    #expect(bench.run("--help").output.contains("migrate"))
  }
}
