import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// A `remconv` child process with its output captured.
private final class Child {
  let process = Process()
  private let errorPipe = Pipe()
  private let outputPipe = Pipe()
  private var errorBytes = Data()

  init(_ arguments: [String], environment: [String: String] = [:]) throws {
    let executable = try RemconvBinary.required()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    var merged = ProcessInfo.processInfo.environment
    merged.removeValue(forKey: "REMCONV_TEST_PAUSE_AT_STEP")
    process.environment = merged.merging(environment) { _, new in new }
    process.standardError = errorPipe
    process.standardOutput = outputPipe
    try process.run()
  }

  /// Reads standard error until `line` appears; false when the process ended first.
  func waitForError(_ line: String) -> Bool {
    while true {
      if String(decoding: errorBytes, as: UTF8.self).contains(line) { return true }
      let chunk = errorPipe.fileHandleForReading.availableData
      if chunk.isEmpty { return false }
      errorBytes.append(chunk)
    }
  }

  /// Waits, until `deadline` seconds have passed, for the observable state of a process
  /// waiting for the store's lock: it has the store at `path` open (a descriptor in
  /// `/proc/PID/fd`) and sleeps in SQLite's busy handler between two attempts (its current
  /// system call, `/proc/PID/syscall`, is `nanosleep` or `clock_nanosleep`). False when the
  /// process ended first or never got there.
  func waitUntilWaitingForLock(on path: String, deadline seconds: Double = 30) -> Bool {
    let pid = process.processIdentifier
    let deadline = Date().addingTimeInterval(seconds)
    // The numbers of nanosleep and clock_nanosleep.
    #if arch(x86_64)
      let sleeps: Set<String> = ["35", "230"]
    #else
      let sleeps: Set<String> = ["101", "115"]
    #endif
    while Date() < deadline, process.isRunning {
      let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
      let holdsStore = descriptors.contains { descriptor in
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(descriptor)")) == path
      }
      let call = (try? String(contentsOfFile: "/proc/\(pid)/syscall", encoding: .utf8))?.split(separator: " ").first
      if holdsStore, let call, sleeps.contains(String(call)) { return true }
      usleep(1_000)
    }
    return false
  }

  func kill() {
    Foundation.kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  /// Waits for the end; returns the status and both outputs.
  func finish() -> (status: Int32, output: String, errors: String) {
    let output = outputPipe.fileHandleForReading.readDataToEndOfFile()
    errorBytes.append(errorPipe.fileHandleForReading.readDataToEndOfFile())
    process.waitUntilExit()
    return (
      process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errorBytes, as: UTF8.self)
    )
  }
}

/// Real processes against one store: killed mid-upgrade, racing, waiting for the lock.
@Suite(.serialized, .needsRemconvBinary) struct MigrationProcessTests {
  /// The pause points of REMCONV_TEST_PAUSE_AT_STEP for an upgrade from 0001: after the
  /// backup, after each step, after COMMIT.
  static let killPoints = ["0", "2", "3", "4", "5", "6", "7", "commit"]

  @Test(arguments: ["wal", "delete"], killPoints)
  func aKilledUpgradeLeavesExactlyTheOldOrTheNewStore(journalMode: String, point: String) throws {
    let directory = TemporaryDirectory()
    let path = try FixtureStores.copy("v0001.sqlite", into: directory)
    let setup = try Database(path: path)
    _ = try setup.scalar("PRAGMA journal_mode = \(journalMode)")
    setup.close()
    let originalReminders = try FixtureStores.rows(of: "reminders", inFile: path)
    let originalLists = try FixtureStores.rows(of: "lists", inFile: path)

    let child = try Child(
      ["export", "--store", path, "--output", directory.file("out.json")],
      environment: ["REMCONV_TEST_PAUSE_AT_STEP": point])
    #expect(child.waitForError("remconv-test: paused at \(point)\n"), "the child reached \(point)")
    child.kill()
    #expect(child.process.terminationReason == .uncaughtSignal)

    // A read-write connection lets SQLite recover from the hot journal or the WAL.
    let database = try Database(path: path)
    defer { database.close() }
    #expect(try database.rows("PRAGMA integrity_check").compactMap { $0.string(0) } == ["ok"])
    let history = try database.scalar("SELECT count(*) FROM remconv_migrations")
    let userVersion = try database.scalar("PRAGMA user_version")
    if point == "commit" {
      #expect(history == .integer(12) && userVersion == .integer(12), "committed: the new version")
      let reminders = try FixtureStores.rows(of: "reminders", in: database)
      #expect(reminders.mapValues { $0["title"] } == originalReminders.mapValues { $0["title"] })
    } else {
      #expect(history == .integer(1) && userVersion == .integer(1), "not committed: the old version")
      #expect(try FixtureStores.rows(of: "reminders", in: database) == originalReminders)
      #expect(try FixtureStores.rows(of: "lists", in: database) == originalLists)
      let columns = try database.rows("SELECT name FROM pragma_table_info('reminders')").compactMap { $0.string(0) }
      #expect(columns == ["id", "list_id", "title", "is_done", "due", "flagged"])
    }
    // The backup was complete and verified before the first step.
    let backups = MigrationBackup.list(for: path)
    #expect(backups.count == 1)
    let backup = try #require(backups.first)
    #expect(try FixtureStores.rows(of: "reminders", inFile: backup.path) == originalReminders)
    database.close()

    // And the store upgrades normally afterwards.
    let store = try Store(path: path)
    defer { store.close() }
    #expect(try store.database.scalar("PRAGMA user_version") == .integer(12))
    #expect(try store.reminderCount() == originalReminders.count)
  }

  @Test func twoProcessesUpgradingAtOnceApplyEachStepOnce() throws {
    for round in 1...20 {
      let directory = TemporaryDirectory()
      let path = try FixtureStores.copy("v0001.sqlite", into: directory)
      let first = try Child(["migrate", "up", "--store", path])
      let second = try Child(["migrate", "up", "--store", path])
      let results = [first.finish(), second.finish()]
      #expect(results.map(\.status) == [0, 0], "round \(round): \(results.map(\.errors))")
      #expect(results.allSatisfy { $0.errors.isEmpty }, "round \(round): \(results.map(\.errors))")
      let applied = results.filter { $0.output.hasPrefix("upgraded store \(path) from 0001_lists_and_reminders") }
      let upToDate = results.filter { $0.output == "store \(path) is up to date (0012_leaner_reminder_indexes)\n" }
      #expect(applied.count == 1 && upToDate.count == 1, "round \(round): \(results.map(\.output))")
      let status = try Store.migrationStatus(at: path)
      #expect(status.state == .current && status.applied.count == 12, "round \(round)")
      #expect(MigrationBackup.list(for: path).count == 1, "round \(round): one upgrade, one backup")
    }
  }

  @Test func aSecondProcessWaitsForTheLockOrSaysTheStoreIsBeingUpgraded() throws {
    let directory = TemporaryDirectory()
    let path = try FixtureStores.copy("v0001.sqlite", into: directory)
    let holder = try Child(["migrate", "up", "--store", path], environment: ["REMCONV_TEST_PAUSE_AT_STEP": "3"])
    #expect(holder.waitForError("remconv-test: paused at 3\n"))

    let impatient = try Child(["export", "--store", path], environment: ["REMCONV_BUSY_TIMEOUT_MS": "300"])
    let refused = impatient.finish()
    #expect(refused.status == 75)
    #expect(
      refused.errors.contains("being upgraded or written by another remconv (waited 300 ms)"), "\(refused.errors)")

    let patient = try Child(["migrate", "up", "--store", path], environment: ["REMCONV_BUSY_TIMEOUT_MS": "30000"])
    #expect(patient.waitUntilWaitingForLock(on: path), "it waits for the lock")
    #expect(patient.process.isRunning, "it waits for the lock")
    holder.kill()
    let waited = patient.finish()
    #expect(waited.status == 0, "\(waited.errors)")
    #expect(
      waited.output.hasPrefix("upgraded store \(path) from 0001_lists_and_reminders to 0012_leaner_reminder_indexes"))
    #expect(try Store.migrationStatus(at: path).state == .current)
  }
}
