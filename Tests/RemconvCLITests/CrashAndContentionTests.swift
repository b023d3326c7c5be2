import Foundation
import RemconvCLI
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// The store survives what happens to processes and disks: a kill at any moment, several
/// writers and readers at once, a full disk, a read-only store, paths that are not stores.
///
/// These run the built binary as separate processes (`RemconvBinary`). The default sizes keep
/// the suite to about a minute on a loaded machine; `REMCONV_LONG_TESTS=1` runs the sizes
/// recorded in docs/reliability.md (with `REMCONV_BINARY=.build/release/remconv`).
@Suite(.serialized, .needsRemconvBinary)
struct CrashAndContentionTests {
  static let sample = Repository.path("Samples/json/reminders.json")
  static let sampleLines = Repository.read("Samples/jsonl/reminders.jsonl").split(separator: "\n").map(String.init)

  /// The environment of a child process: nothing from the test runner's.
  static func environment(_ directory: TemporaryDirectory, _ extra: [String: String] = [:]) -> [String: String] {
    ["HOME": directory.path, "PATH": "/usr/bin:/bin", "TZ": "Europe/Berlin"].merging(extra) { _, new in new }
  }

  /// The store at `path` exported as JSON by the binary under test (a release build exports
  /// the long runs' stores many times faster than the tests' debug build).
  static func snapshot(_ path: String) throws -> String {
    let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
    let result = try RemconvProcess.run(
      ["export", "--format", "json", "--store", path], environment: ["HOME": directory, "PATH": "/usr/bin:/bin"],
      scratch: directory)
    #expect(result.status == 0, "\(result.errors)")
    return result.output
  }

  /// Opens the store (recovering its journal) and runs SQLite's integrity check.
  static func integrity(_ path: String) throws -> String {
    let store = try Store(path: path)
    defer { store.close() }
    return try store.database.scalar("PRAGMA integrity_check").textValue ?? "no answer"
  }

  /// A store holding the JSON sample, closed.
  static func makeSeededStore(at path: String, in directory: TemporaryDirectory) throws {
    let result = try RemconvProcess.run(
      ["import", sample, "--store", path, "--quiet"], environment: environment(directory), scratch: directory.path)
    #expect(result.status == 0, "\(result.errors)")
  }

  static func fileSize(_ path: String) -> Int {
    var status = stat()
    return stat(path, &status) == 0 ? Int(status.st_size) : 0
  }

  /// Removes a store and its journals.
  static func removeStore(_ path: String) {
    for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
  }

  /// The sample's reminders with a changed title: an import that updates as well as adds.
  static func sampleUpdates(_ label: String, only index: Int? = nil) -> String {
    sampleLines.enumerated().filter { index == nil || $0.offset == index }.map {
      $0.element.replacingOccurrences(of: #""title":""#, with: #""title":"\#(label): "#)
    }.joined(separator: "\n") + "\n"
  }

  // MARK: Kill at random moments

  @Test func aKilledImportLeavesEverythingOrNothing() throws {
    let runs = RemconvBinary.longRuns ? 200 : 50
    let count = RemconvBinary.longRuns ? 20_000 : 1_000
    let seed = UInt64(ProcessInfo.processInfo.environment["REMCONV_TEST_SEED"] ?? "") ?? 0x5EED_0010
    let directory = TemporaryDirectory()
    let pristine = directory.file("pristine.sqlite")
    try Self.makeSeededStore(at: pristine, in: directory)
    let input = directory.write(
      "large.jsonl", GeneratedReminders.jsonLines(count: count, prefix: "kill") + Self.sampleUpdates("Changed"))
    let before = try Self.snapshot(pristine)

    // The whole import three times: what "everything" looks like, how long it takes (the
    // median, on this shared machine) and how large its write-ahead log grows (the commit
    // writes it).
    let reference = directory.file("reference.sqlite")
    var durations: [Double] = []
    var logSize = 0
    for _ in 0..<3 {
      Self.removeStore(reference)
      try FileManager.default.copyItem(atPath: pristine, toPath: reference)
      let started = Date()
      let process = try RemconvProcess(
        ["import", input, "--store", reference, "--quiet"], environment: Self.environment(directory),
        scratch: directory.path)
      while process.process.isRunning {
        logSize = max(logSize, Self.fileSize(reference + "-wal"))
        usleep(100)
      }
      durations.append(Date().timeIntervalSince(started))
      let full = process.wait()
      #expect(full.status == 0, "\(full.errors)")
    }
    let duration = durations.sorted()[1]
    let after = try Self.snapshot(reference)
    #expect(after != before)
    #expect(logSize > 0)

    var generator = SeededGenerator(seed: seed)
    var nothing = 0
    var everything = 0
    var finishedBeforeTheKill = 0
    let target = directory.file("killed.sqlite")
    for run in 0..<runs {
      Self.removeStore(target)
      try FileManager.default.copyItem(atPath: pristine, toPath: target)
      // Half the kills at a moment of the import, half once the log has reached a size in its
      // second half: the commit writes what the page cache still holds (all of a small
      // import's log, the last 2 MB or so of a large one), so these land in the commit.
      let delay = Double.random(in: 0...duration, using: &generator)
      let logBytes = Int.random(in: (logSize / 2)...logSize, using: &generator)
      let process = try RemconvProcess(
        ["import", input, "--store", target, "--quiet"], environment: Self.environment(directory),
        scratch: directory.path)
      if run % 2 == 0 {
        usleep(UInt32(delay * 1_000_000))
      } else {
        while process.process.isRunning, Self.fileSize(target + "-wal") < logBytes { usleep(50) }
      }
      kill(process.identifier, SIGKILL)
      let outcome = process.wait()
      if !outcome.signaled { finishedBeforeTheKill += 1 }
      let moment = run % 2 == 0 ? "after \(delay) s" : "at \(logBytes) bytes of log"
      #expect(try Self.integrity(target) == "ok", "run \(run) (seed \(seed), killed \(moment))")
      let state = try Self.snapshot(target)
      if state == before {
        nothing += 1
      } else if state == after {
        everything += 1
      } else {
        Issue.record("run \(run) (seed \(seed), killed \(moment)) left part of the import")
      }
    }
    #expect(nothing + everything == runs)
    print(
      "kill: \(runs) runs over \(count + Self.sampleLines.count) items (import \(String(format: "%.2f", duration)) s, log \(logSize) bytes, seed \(seed)): \(nothing) nothing, \(everything) everything, \(finishedBeforeTheKill) finished before the kill"
    )
  }

  // MARK: Several processes at once

  @Test func concurrentImportsAllLandAndExportsSeeWholeImports() throws {
    let writers = 4
    let perImport = RemconvBinary.longRuns ? 5_000 : 300
    let directory = TemporaryDirectory()
    let store = directory.file("shared.sqlite")
    try Self.makeSeededStore(at: store, in: directory)
    // The long run's imports queue for longer than the default 10 s.
    let environment = Self.environment(
      directory, RemconvBinary.longRuns ? ["REMCONV_BUSY_TIMEOUT_MS": "300000"] : [:])
    var inputs: [String] = []
    for writer in 0..<writers {
      inputs.append(
        directory.write(
          "batch\(writer).jsonl",
          GeneratedReminders.jsonLines(count: perImport, prefix: "batch\(writer)", lists: 2)
            + Self.sampleUpdates("Updated by batch \(writer)", only: writer)))
    }
    let imports = try inputs.map { input in
      try RemconvProcess(
        ["import", input, "--store", store, "--quiet"], environment: environment, scratch: directory.path)
    }
    var exports: [ProcessOutcome] = []
    repeat {
      exports.append(
        try RemconvProcess.run(
          ["export", "--format", "jsonl", "--store", store], environment: environment, scratch: directory.path))
    } while imports.contains { $0.process.isRunning }
    for (writer, process) in imports.enumerated() {
      let outcome = process.wait()
      #expect(outcome.status == 0, "import \(writer): \(outcome.errors)")
    }

    /// The number of reminders of each batch, and which batches' updates, a JSON Lines export shows.
    func census(_ text: String) -> (counts: [Int], updated: [Bool]) {
      var counts = [Int](repeating: 0, count: writers)
      var updated = [Bool](repeating: false, count: writers)
      for line in text.split(separator: "\n") {
        for writer in 0..<writers {
          if line.contains(#""id":"batch\#(writer)-"#) { counts[writer] += 1 }
          if line.contains(#""title":"Updated by batch \#(writer): "#) { updated[writer] = true }
        }
      }
      return (counts, updated)
    }
    for (index, export) in exports.enumerated() {
      #expect(export.status == 0, "export \(index): \(export.errors)")
      let (counts, updated) = census(export.output)
      for writer in 0..<writers {
        // All or nothing of each import, its update with its additions.
        #expect(
          counts[writer] == 0 || counts[writer] == perImport, "export \(index) saw \(counts[writer]) of batch \(writer)"
        )
        #expect(
          updated[writer] == (counts[writer] == perImport),
          "export \(index): batch \(writer)'s update without its additions")
      }
    }
    let final = try RemconvProcess.run(
      ["export", "--format", "jsonl", "--store", store], environment: environment, scratch: directory.path)
    let (counts, updated) = census(final.output)
    #expect(counts == [Int](repeating: perImport, count: writers))
    #expect(updated == [Bool](repeating: true, count: writers))
    #expect(try Self.integrity(store) == "ok")
    print("contention: \(writers) imports of \(perImport) items at once, \(exports.count) exports during them")
  }

  @Test func aWriterBusyBeyondTheTimeoutIsExit75AndChangesNothing() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("busy.sqlite")
    try Self.makeSeededStore(at: path, in: directory)
    let before = try Self.snapshot(path)
    let holder = try Database(path: path)
    try holder.execute("BEGIN IMMEDIATE")
    let result = try RemconvProcess.run(
      ["import", Repository.path("Samples/jsonl/reminders.jsonl"), "--store", path],
      environment: Self.environment(directory, ["REMCONV_BUSY_TIMEOUT_MS": "300"]), scratch: directory.path)
    try holder.execute("ROLLBACK")
    holder.close()
    #expect(result.status == 75)
    #expect(result.errors.contains("\(path): the store is busy with another remconv"))
    #expect(try Self.snapshot(path) == before)
  }

  // MARK: Full disk

  @Test func aFileSizeLimitMidImportIsExit74AndChangesNothing() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("store.sqlite")
    try Self.makeSeededStore(at: path, in: directory)
    let before = try Self.snapshot(path)
    let input = directory.write("large.jsonl", GeneratedReminders.jsonLines(count: 2_000, prefix: "full"))
    let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    // Room for the store and 64 KiB more; SIGXFSZ ignored, so writes fail with EFBIG.
    let result = try RemconvProcess.run(
      ["import", input, "--store", path], environment: Self.environment(directory), scratch: directory.path,
      preamble: "ulimit -f \(size / 512 + 128); trap '' XFSZ")
    #expect(result.status == 74, "\(result.errors)")
    // SQLite gives the system's reason ("file too large") when the failed write was its last
    // call to the system, not when a rollback came after it.
    // Warnings about the data come before it, as they are found.
    #expect(result.errors.contains("remconv: error: \(path): disk I/O error"), "\(result.errors)")
    #expect(try Self.integrity(path) == "ok")
    #expect(try Self.snapshot(path) == before)
  }

  @Test func anExportThatRunsOutOfSpaceLeavesNoFile() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("store.sqlite")
    try Self.makeSeededStore(at: path, in: directory)
    let input = directory.write("more.jsonl", GeneratedReminders.jsonLines(count: 2_000, prefix: "more"))
    #expect(
      try RemconvProcess.run(
        ["import", input, "--store", path, "-q"], environment: Self.environment(directory), scratch: directory.path
      ).status == 0)
    let output = directory.file("exports/all.json")
    try FileManager.default.createDirectory(atPath: directory.file("exports"), withIntermediateDirectories: true)
    let result = try RemconvProcess.run(
      ["export", "-o", output, "--store", path], environment: Self.environment(directory), scratch: directory.path,
      preamble: "ulimit -f 64; trap '' XFSZ")
    #expect(result.status == 74, "\(result.errors)")
    #expect(result.errors.contains("\(output): write failed: file too large"), "\(result.errors)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.file("exports")) == [])
  }

  /// A real full disk: a 512 KiB tmpfs, when the tests may mount one (root in a container).
  @Test func aFullFilesystemIsExit74AndChangesNothing() throws {
    let directory = TemporaryDirectory()
    let mountPoint = directory.file("small-disk")
    try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
    guard getuid() == 0, Self.system("/bin/mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", mountPoint) == 0 else {
      // Not permitted here: the file-size limit tests above stand in for it.
      return
    }
    defer { _ = Self.system("/bin/umount", mountPoint) }
    let path = mountPoint + "/store.sqlite"
    try Self.makeSeededStore(at: path, in: directory)
    let before = try Self.snapshot(path)
    let input = directory.write("large.jsonl", GeneratedReminders.jsonLines(count: 3_000, prefix: "disk"))
    let result = try RemconvProcess.run(
      ["import", input, "--store", path], environment: Self.environment(directory), scratch: directory.path)
    #expect(result.status == 74, "\(result.errors)")
    #expect(result.errors.contains("remconv: error: \(path): database or disk is full"), "\(result.errors)")
    #expect(try Self.integrity(path) == "ok")
    #expect(try Self.snapshot(path) == before)
  }

  static func system(_ arguments: String...) -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: arguments[0])
    process.arguments = Array(arguments.dropFirst())
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return -1 }
    process.waitUntilExit()
    return process.terminationStatus
  }

  // MARK: Stores that cannot be written

  /// A sync of a store it cannot write stops before it writes anything on the remote: no
  /// collection is created for the store's lists (issue 41, finding 7).
  @Test(arguments: [false, true])
  func aSyncOfAReadOnlyStoreWritesNothingOnTheRemote(folderReadOnly: Bool) throws {
    let directory = TemporaryDirectory()
    let folder = directory.file("store")
    let vdir = directory.file("vdir")
    for made in [folder, vdir] {
      try FileManager.default.createDirectory(atPath: made, withIntermediateDirectories: true)
    }
    let path = folder + "/store.sqlite"
    try Self.makeSeededStore(at: path, in: directory)
    let added = try RemconvProcess.run(
      ["remote", "add", "v", vdir, "--store", path], environment: Self.environment(directory), scratch: directory.path)
    #expect(added.status == 0, "\(added.errors)")
    let bytes = FileManager.default.contents(atPath: path)
    let user = makeStoreReadOnly(path, in: folder)
    if let user { chown(vdir, user, user) }
    if folderReadOnly { chmod(folder, 0o500) }
    defer { chmod(folder, 0o700) }
    let result = try RemconvProcess.run(
      ["sync", "v", "--store", path], environment: Self.environment(directory), scratch: directory.path, user: user)
    #expect(result.status == 74, "\(result.errors)")
    #expect(result.errors.contains("\(path): the store is read-only"), "\(result.errors)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: vdir).isEmpty, "a collection was created")
    #expect(FileManager.default.contents(atPath: path) == bytes)
  }

  /// A store whose file (and, second, whose folder too) cannot be written by the user running
  /// remconv: as root the child runs as `nobody`, who owns the store, since root writes anyway.
  @Test(arguments: [false, true])
  func aReadOnlyStoreIsExit74AndChangesNothing(folderReadOnly: Bool) throws {
    let directory = TemporaryDirectory()
    let folder = directory.file("store")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/store.sqlite"
    try Self.makeSeededStore(at: path, in: directory)
    let before = try Self.snapshot(path)
    let bytes = FileManager.default.contents(atPath: path)
    let user = makeStoreReadOnly(path, in: folder)
    if folderReadOnly { chmod(folder, 0o500) }
    defer { chmod(folder, 0o700) }
    let input = directory.write("changes.jsonl", Self.sampleUpdates("Changed"))
    let result = try RemconvProcess.run(
      ["import", input, "--store", path], environment: Self.environment(directory), scratch: directory.path, user: user)
    #expect(result.status == 74, "\(result.errors)")
    #expect(result.errors.contains("remconv: error: \(path): the store is read-only"), "\(result.errors)")
    #expect(FileManager.default.contents(atPath: path) == bytes)
    chmod(folder, 0o700)
    chmod(path, 0o600)
    #expect(try Self.snapshot(path) == before)
  }

  @Test(arguments: [["import", Repository.path("Samples/json/reminders.json")], ["export"]])
  func aStorePathThatIsAFolderIsExit65(arguments: [String]) throws {
    let bench = TestBench()
    let folder = bench.directory.file("a-folder.sqlite")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let result = bench.run(arguments + ["--store", folder])
    #expect(result.status == .dataError)
    #expect(result.errors == "remconv: error: \(folder): is a directory, not a store\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [])
  }

  /// A damaged store and another application's database are refused and left byte for byte.
  @Test func aDamagedStoreOrAnotherDatabaseIsRefusedAndLeftUntouched() throws {
    let bench = TestBench()
    bench.run(["import", Self.sample])
    var damaged = try #require(FileManager.default.contents(atPath: bench.storePath))
    for index in stride(from: 100, to: damaged.count, by: 7) { damaged[index] = 0xA5 }
    let damagedPath = bench.directory.file("damaged.sqlite")
    #expect(FileManager.default.createFile(atPath: damagedPath, contents: damaged))

    let other = bench.directory.file("other.sqlite")
    let database = try Database(path: other, mode: .create)
    try database.execute("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')")
    database.close()
    let otherBytes = FileManager.default.contents(atPath: other)

    for (path, original) in [(damagedPath, damaged), (other, otherBytes)] {
      for arguments in [["import", Self.sample], ["export"]] {
        let result = bench.run(arguments + ["--store", path])
        #expect(result.status == .dataError, "\(arguments): \(result.errors)")
        #expect(result.errors.hasPrefix("remconv: error: \(path): "), "\(result.errors)")
        #expect(result.errors.contains("not a remconv store"), "\(result.errors)")
        #expect(FileManager.default.contents(atPath: path) == original)
      }
    }
  }
}

extension SQLValue {
  var textValue: String? {
    if case .text(let text) = self { return text }
    return nil
  }
}

/// The fuzz harness's properties hold for every sample and fixture of every readable format:
/// `remconv-fuzz FORMAT FILES` (the replayer of a normal build) runs each through the reader,
/// the merge engine, the store and the writer round trip, as libFuzzer does with its inputs.
@Suite(.needsFuzzReplayer)
struct FuzzReplayTests {
  /// Samples, fixtures, malformed fixtures and saved fuzz findings of a format: the seeds
  /// Scripts/fuzz.sh gives libFuzzer.
  static func seeds(for format: String) -> [String] {
    var folders = [
      FormatFolders.existing(in: "Samples", for: format), FormatFolders.existing(in: "Fuzz/regressions", for: format),
    ]
    for target in (try? FileManager.default.contentsOfDirectory(atPath: Repository.path("Tests"))) ?? [] {
      folders.append(FormatFolders.existing(in: "Tests/\(target)/Fixtures", for: format))
      folders.append(FormatFolders.existing(in: "Tests/\(target)/Fixtures/malformed", for: format))
      // A dialect's own fixtures sit in its family's folder (Fixtures/csv/ticktick), as
      // Scripts/fuzz.sh finds them.
      if let colon = format.firstIndex(of: ":") {
        folders.append(FormatFolders.existing(in: "Tests/\(target)/Fixtures/\(format[..<colon])", for: format))
      }
    }
    return folders.compactMap { $0 }.flatMap { folder in
      ((try? FileManager.default.subpathsOfDirectory(atPath: folder)) ?? []).map { folder + "/" + $0 }.filter { path in
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
          && !path.hasSuffix(".tsv")
      }.sorted()
    }
  }

  @Test(arguments: FormatRegistry.readableNames)
  func everySeedReplaysWithoutAFinding(format: String) throws {
    let seeds = Self.seeds(for: format)
    // A format with no sample and no fixture folder of its own has nothing to replay here
    // (libFuzzer then starts it from an empty corpus).
    guard !seeds.isEmpty else { return }
    let directory = TemporaryDirectory()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: RemconvBinary.fuzzReplayer)
    process.arguments = [format] + seeds
    process.environment = ["HOME": directory.path, "TMPDIR": directory.path, "PATH": "/usr/bin:/bin"]
    let output = directory.file("replay.txt")
    #expect(FileManager.default.createFile(atPath: output, contents: nil))
    process.standardOutput = FileHandle(forWritingAtPath: output)
    process.standardError = FileHandle(forWritingAtPath: output)
    try process.run()
    process.waitUntilExit()
    let report = directory.read("replay.txt")
    #expect(process.terminationStatus == 0, "\(report)")
    #expect(report.split(separator: "\n").count >= seeds.count)
    #expect(!report.contains("FINDING"))
  }
}
