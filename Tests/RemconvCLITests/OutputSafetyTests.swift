import Foundation
import RemconvCLI
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// Outputs go only where they may, with the store's mode, whole or not at all, and a lost
/// write is never a success (docs/reliability.md, "Outputs").
@Suite struct OutputSafetyTests {
  static let sample = Repository.path("Samples/json/reminders.json")

  private func sampleBench() -> TestBench {
    let bench = TestBench()
    #expect(bench.run(["import", Self.sample, "--quiet"]).status == .ok)
    return bench
  }

  private func names(in folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
  }

  private func kind(_ path: String) -> FileKind? { FileKind.of(path) }

  // MARK: Targets

  /// `--force` is given only through a link here: run as root by a remconv that replaced what
  /// it was given, `-o /dev/null --force` would replace the machine's /dev/null.
  @Test func aCharacterDeviceIsWrittenIntoWithOrWithoutForceAndNeverReplaced() throws {
    try #require(kind("/dev/null") == .characterDevice, "this machine's /dev/null is not a device")
    let bench = sampleBench()
    let result = bench.run(["export", "-o", "/dev/null"])
    #expect(result.status == .ok, "\(result.errors)")
    #expect(kind("/dev/null") == .characterDevice)
    // A link to a device (as /dev/stdout is) is written through, not replaced.
    let link = bench.directory.file("null-link")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/null")
    #expect(bench.run(["export", "-o", link, "--force"]).status == .ok)
    #expect(kind(link) == .symbolicLink)
    #expect(bench.run(["convert", Self.sample, "--to", "jsonl", "-o", link, "--force"]).status == .ok)
    #expect(kind(link) == .symbolicLink)
    #expect(kind("/dev/null") == .characterDevice)
  }

  @Test func aFIFOIsWrittenIntoAndStaysAFIFO() throws {
    let bench = sampleBench()
    let fifo = bench.directory.file("pipe")
    #expect(mkfifo(fifo, 0o600) == 0)
    let received = ReadAll(path: fifo)
    let result = bench.run(["export", "--format", "jsonl", "-o", fifo])
    #expect(result.status == .ok, "\(result.errors)")
    #expect(received.wait() == bench.run(["export", "--format", "jsonl"]).output)
    #expect(kind(fifo) == .fifo)
    #expect(names(in: bench.directory.path).filter { $0.contains(".remconv-") } == [])
  }

  /// A FIFO another user planted where an export was to go would hand them the export.
  @Test(.enabled(if: geteuid() == 0, "needs root to give a FIFO to another user"))
  func aFIFOOfAnotherUserIsNeverWrittenInto() throws {
    let bench = sampleBench()
    let fifo = bench.directory.file("planted.json")
    #expect(mkfifo(fifo, 0o666) == 0)
    #expect(chown(fifo, 65_534, 65_534) == 0)
    let result = bench.run(["export", "-o", fifo, "--force"])
    #expect(result.status == .cannotCreate)
    #expect(
      result.errors.contains("\(fifo): a FIFO owned by another user; refusing to write into it"), "\(result.errors)")
    #expect(kind(fifo) == .fifo)
  }

  @Test func aSocketIsNeverReplacedEvenWithForce() throws {
    let bench = sampleBench()
    let path = bench.directory.file("socket.json")
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    #expect(descriptor >= 0)
    defer { close(descriptor) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (index, byte) in path.utf8.enumerated() where index < raw.count - 1 { raw[index] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    #expect(bound == 0)
    let result = bench.run(["export", "-o", path, "--force"])
    #expect(result.status == .cannotCreate)
    #expect(
      result.errors.contains("\(path): is a socket, not a regular file: never replaced, even with --force"),
      "\(result.errors)")
    #expect(kind(path) == .socket)
  }

  @Test func outputsAreCreatedWithTheStoresMode() throws {
    let bench = sampleBench()
    let file = bench.directory.file("export.json")
    #expect(bench.run(["export", "-o", file]).status == .ok)
    #expect(try permissions(of: file) == 0o600)
    let converted = bench.directory.file("converted.csv")
    #expect(bench.run(["convert", Self.sample, "-o", converted]).status == .ok)
    #expect(try permissions(of: converted) == 0o600)
    let vdir = bench.directory.file("vdir")
    #expect(bench.run(["export", "--format", "vdir", "-o", vdir]).status == .ok)
    #expect(try permissions(of: vdir + "/Work/displayname") == 0o600)
    #expect(try permissions(of: vdir + "/Work") == 0o700)
  }

  @Test func theStoreItsLogsAndBackupsAreNeverAnOutput() throws {
    let bench = sampleBench()
    let store = bench.storePath
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    let snapshot = bench.snapshot()
    let folder = bench.directory.path
    let link = bench.directory.file("store-link.json")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: store)
    let hardLink = bench.directory.file("hard-link.json")
    #expect(Foundation.link(store, hardLink) == 0)
    let targets = [
      store, folder + "/./store.sqlite",
      folder + "/../" + URL(fileURLWithPath: folder).lastPathComponent + "/store.sqlite",
      store + "-wal", store + "-shm", store + "-journal", link, hardLink,
      store + ".backup-0005-to-0006-20261129T100000Z.sqlite", store + ".pre-validate-fix-20261129T100000Z.sqlite",
    ]
    for target in targets {
      for arguments in [
        ["export", "-o", target, "--force"], ["export", "--format", "csv", "-o", target],
        ["convert", Self.sample, "--to", "jsonl", "-o", target, "--force"],
      ] {
        let result = bench.run(arguments)
        #expect(result.status == .cannotCreate, "\(arguments)")
        #expect(result.errors.contains("refusing to write there"), "\(arguments): \(result.errors)")
      }
    }
    #expect(bench.run(["export", "--format", "vdir", "-o", store]).status == .cannotCreate)
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    #expect(kind(link) == .symbolicLink)
    #expect(!FileManager.default.fileExists(atPath: store + ".backup-0005-to-0006-20261129T100000Z.sqlite"))
    #expect(bench.snapshot() == snapshot)
  }

  // MARK: vdir staging

  @Test func aFailedVdirExportLeavesTheTargetAsItWasAndARetryNeedsNoForce() throws {
    let bench = sampleBench()
    let root = bench.directory.file("vdir")
    let outside = bench.directory.file("outside")
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
    // The last list exported (the sample's order: Groceries, Work, Home, Someday).
    try FileManager.default.createSymbolicLink(atPath: root + "/Someday", withDestinationPath: outside)
    let failed = bench.run(["export", "--format", "vdir", "-o", root])
    #expect(failed.status == .cannotCreate)
    #expect(failed.errors.contains("\(root)/Someday: exists and is not a folder"), "\(failed.errors)")
    #expect(names(in: root) == ["Someday"])
    #expect(names(in: outside) == [])
    try FileManager.default.removeItem(atPath: root + "/Someday")
    let retried = bench.run(["export", "--format", "vdir", "-o", root])
    #expect(retried.status == .ok, "\(retried.errors)")
    #expect(names(in: root) == ["Groceries", "Home", "Someday", "Work"])
  }

  @Test func aVdirExportIntoANewFolderAppearsWholeAndMergesIntoAnExistingOne() throws {
    let bench = sampleBench()
    let root = bench.directory.file("calendars/remconv")
    try FileManager.default.createDirectory(
      atPath: bench.directory.file("calendars"), withIntermediateDirectories: true)
    #expect(bench.run(["export", "--format", "vdir", "-o", root]).status == .ok)
    #expect(names(in: bench.directory.file("calendars")) == ["remconv"])
    // Into an existing folder: a list added since goes in beside what is there; what exists
    // needs --force, and the metadata that did not change is left alone.
    #expect(bench.run(["list", "create", "Errands"]).status == .ok)
    let refused = bench.run(["export", "--format", "vdir", "-o", root])
    #expect(refused.status == .cannotCreate)
    #expect(!FileManager.default.fileExists(atPath: root + "/Errands"))
    #expect(names(in: root) == ["Groceries", "Home", "Someday", "Work"])
    #expect(bench.run(["export", "--format", "vdir", "-o", root, "--force"]).status == .ok)
    #expect(names(in: root) == ["Errands", "Groceries", "Home", "Someday", "Work"])
    let second = TestBench()
    #expect(second.run(["import", root, "--quiet"]).status == .ok)
    // A vdir does not keep the order of its lists.
    let listed = { (bench: TestBench) in bench.run(["lists", "--names"]).output.split(separator: "\n").sorted() }
    #expect(listed(second) == listed(bench))
  }

  // MARK: Leftovers

  @Test func leftoversOfADeadRunAreRemovedAndThoseOfALiveOneKept() throws {
    let bench = sampleBench()
    let dead = try deadProcessID()
    let leftover = bench.directory.write(".export.json.remconv-\(dead)-123", "half an export")
    let stage = bench.directory.write(".vdir.remconv-\(dead)-77/Work/a.ics", "half a vdir")
    let alive = bench.directory.write(".export.json.remconv-\(getpid())-5", "being written")
    let lookalike = bench.directory.write(".export.json.remconv-\(dead)-x5", "not ours")
    #expect(bench.run(["export", "-o", bench.directory.file("export.json")]).status == .ok)
    #expect(!FileManager.default.fileExists(atPath: leftover))
    #expect(
      !FileManager.default.fileExists(
        atPath: URL(fileURLWithPath: stage).deletingLastPathComponent().deletingLastPathComponent().path))
    #expect(FileManager.default.fileExists(atPath: alive))
    #expect(FileManager.default.fileExists(atPath: lookalike))
  }

  // MARK: Invalid UTF-8

  @Test func aTitleThatIsNotUTF8IsReportedWhenExported() throws {
    let bench = sampleBench()
    let store = try Store(path: bench.storePath)
    try store.database.execute(
      "UPDATE reminders SET title = CAST(X'4F6174FF6D696C6B' AS BLOB) WHERE uid = 'B1A7E0C2-0001-4F00-8000-000000000001'"
    )
    store.close()
    let result = bench.run(["export", "--format", "jsonl"])
    #expect(result.status == .ok)
    #expect(result.output.contains("Oat\u{FFFD}milk"))
    #expect(result.errors.contains("the stored title is not UTF-8 text"), "\(result.errors)")
    #expect(result.errors.contains("(UID B1A7E0C2-0001-4F00-8000-000000000001) [invalid-utf8]"))
  }

  // MARK: Stores read, never created

  @Test(arguments: [
    ["export"], ["export", "-o", "OUT"], ["export", "--format", "vdir", "-o", "OUT"], ["lists"],
    ["show", "--scope", "all"],
    ["search", "milk"], ["validate"], ["validate", "--fix"], ["migrate", "status"], ["migrate", "plan"],
  ])
  func aReadCommandOnAMissingStoreIsExit66AndCreatesNothing(_ arguments: [String]) {
    let bench = TestBench()
    let store = bench.directory.file("typo/store.sqlite")
    let output = bench.directory.file("out")
    let result = bench.run(["--store", store] + arguments.map { $0 == "OUT" ? output : $0 })
    #expect(result.status == .noInput, "\(result.errors)")
    #expect(result.errors.contains("\(store): no store here"), "\(result.errors)")
    #expect(names(in: bench.directory.path) == [])
  }

  @Test func commandsThatWriteStillCreateTheStore() {
    let bench = TestBench()
    #expect(bench.run(["list", "create", "Errands"]).status == .ok)
    #expect(FileManager.default.fileExists(atPath: bench.storePath))
  }

  @Test func aFIFOOrADeviceAsTheStoreIsRefusedUpFront() throws {
    let bench = TestBench()
    let fifo = bench.directory.file("store.fifo")
    #expect(mkfifo(fifo, 0o600) == 0)
    try #require(kind("/dev/null") == .characterDevice, "this machine's /dev/null is not a device")
    let device = bench.directory.file("null-link")
    try FileManager.default.createSymbolicLink(atPath: device, withDestinationPath: "/dev/null")
    // Only commands that read on the real /dev/null, so that nothing could ever write it.
    for (store, commands) in [
      (fifo, [["export"], ["import", Self.sample], ["lists"]]), ("/dev/null", [["export"], ["lists"]]),
      (device, [["export"], ["lists"]]),
    ] {
      for arguments in commands {
        let result = bench.run(["--store", store] + arguments)
        #expect(result.status == .dataError, "\(store) \(arguments): \(result.errors)")
        #expect(result.errors.contains("\(store): not a regular file"), "\(result.errors)")
      }
    }
    #expect(kind(fifo) == .fifo)
    #expect(kind("/dev/null") == .characterDevice)
  }

  // MARK: Helpers

  /// The id of a process that has ended.
  private func deadProcessID() throws -> pid_t {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/true")
    try process.run()
    process.waitUntilExit()
    return process.processIdentifier
  }

  private func permissions(of path: String) throws -> Int {
    var status = stat()
    guard lstat(path, &status) == 0 else { throw CocoaError(.fileNoSuchFile) }
    return Int(status.st_mode & 0o777)
  }
}

/// Reads a FIFO to its end on another thread (opening it waits for the writer).
final class ReadAll: @unchecked Sendable {
  private let done = DispatchSemaphore(value: 0)
  private var data = Data()

  init(path: String) {
    Thread.detachNewThread { [self] in
      if let handle = FileHandle(forReadingAtPath: path) {
        data = handle.readDataToEndOfFile()
        try? handle.close()
      }
      done.signal()
    }
  }

  func wait() -> String {
    done.wait()
    return String(decoding: data, as: UTF8.self)
  }
}

/// The output rules that need a process of their own: standard output that cannot be
/// written, `-o /dev/stdout`, signals, a kill during a backup, a full disk under a vdir.
@Suite(.serialized, .needsRemconvBinary)
struct OutputProcessTests {
  static let sample = Repository.path("Samples/json/reminders.json")

  static func environment(_ directory: TemporaryDirectory) -> [String: String] {
    [
      "HOME": directory.path, "PATH": "/usr/bin:/bin", "TZ": "Europe/Berlin",
      "REMCONV_STORE": directory.file("store.sqlite"),
    ]
  }

  static func seeded() throws -> TemporaryDirectory {
    let directory = TemporaryDirectory()
    let result = try RemconvProcess.run(
      ["import", sample, "--quiet"], environment: environment(directory), scratch: directory.path)
    #expect(result.status == 0, "\(result.errors)")
    return directory
  }

  @Test(arguments: [
    ["validate", "--json"], ["import", sample, "--report", "json"], ["lists"], ["lists", "--json"],
    ["show", "--scope", "all"], ["search", "milk"], ["migrate", "status", "--json"], ["migrate", "status"],
    ["migrate", "plan", "--json"], ["add", "Buy bread", "--list", "Groceries"], ["man"], ["completions", "bash"],
    ["formats"], ["help"],
    ["help", "export"], ["export", "--help"], ["--help"], ["--version"], ["export"],
    ["convert", sample, "--to", "jsonl"],
  ])
  func everyCommandFailsWhenStandardOutputCannotBeWritten(_ arguments: [String]) throws {
    let directory = try Self.seeded()
    let result = try RemconvProcess.run(
      arguments, environment: Self.environment(directory), scratch: directory.path, preamble: "exec >/dev/full")
    #expect(result.status == 74, "\(arguments): \(result.errors)")
    #expect(result.errors.contains("<stdout>: write failed: no space left on device"), "\(arguments): \(result.errors)")
  }

  @Test func devStdoutIsStandardOutputWithoutForce() throws {
    let directory = try Self.seeded()
    let expected = try RemconvProcess.run(
      ["export", "--format", "jsonl"], environment: Self.environment(directory), scratch: directory.path)
    let result = try RemconvProcess.run(
      ["export", "--format", "jsonl", "-o", "/dev/stdout"], environment: Self.environment(directory),
      scratch: directory.path)
    #expect(result.status == 0, "\(result.errors)")
    #expect(result.output == expected.output)
    // --force only through a link of the test's own: a remconv that replaced what it was
    // given would replace the machine's /dev/stdout.
    let link = directory.file("stdout-link")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/stdout")
    let forced = try RemconvProcess.run(
      ["convert", Self.sample, "--to", "jsonl", "-o", link, "--force"], environment: Self.environment(directory),
      scratch: directory.path)
    #expect(forced.status == 0, "\(forced.errors)")
    #expect(forced.output == expected.output)
    #expect(FileKind.of(link) == .symbolicLink)
    // Standard error redirected to a file is that stream too: written into, never replaced.
    let errorLink = directory.file("stderr-link")
    try FileManager.default.createSymbolicLink(atPath: errorLink, withDestinationPath: "/dev/stderr")
    let toErrors = try RemconvProcess.run(
      ["export", "--format", "jsonl", "-o", errorLink, "--force", "--quiet"], environment: Self.environment(directory),
      scratch: directory.path)
    #expect(toErrors.status == 0)
    #expect(toErrors.errors == expected.output)
    #expect(FileKind.of(errorLink) == .symbolicLink)
  }

  /// A conversion whose input is a FIFO nobody writes: it has created its temporary output and
  /// waits in `open` until it is signalled.
  private func blockedConversion(in directory: TemporaryDirectory, preamble: String? = nil) throws -> (
    RemconvProcess, String
  ) {
    let fifo = directory.file("input.jsonl")
    #expect(mkfifo(fifo, 0o600) == 0)
    let output = directory.file("out/converted.json")
    try FileManager.default.createDirectory(atPath: directory.file("out"), withIntermediateDirectories: true)
    let process = try startWithTerminationSignals(
      ["convert", fifo, "--from", "jsonl", "--to", "json", "-o", output], in: directory, preamble: preamble)
    return (process, output)
  }

  /// Starts `remconv ARGUMENTS` with SIGINT, SIGTERM and SIGHUP deliverable, and waits until its
  /// temporary output appears in `out/`. A child inherits the signal mask of the thread that
  /// starts it, and the test runner's threads block these: a shell's child would not.
  private func startWithTerminationSignals(
    _ arguments: [String], in directory: TemporaryDirectory, preamble: String? = nil
  ) throws -> RemconvProcess {
    var signals = sigset_t()
    sigemptyset(&signals)
    for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&signals, signal) }
    pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    let process = try RemconvProcess(
      arguments, environment: Self.environment(directory), scratch: directory.path, preamble: preamble)
    let deadline = Date().addingTimeInterval(20)
    while temporaryFiles(in: directory.file("out")).isEmpty, Date() < deadline { usleep(2_000) }
    #expect(temporaryFiles(in: directory.file("out")).count == 1)
    return process
  }

  /// Whether `process` ends within `seconds`; unless `killing` is off it is killed if not, so
  /// the test never hangs.
  private func endsWithin(_ process: RemconvProcess, seconds: Double, killing: Bool = true) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while process.process.isRunning, Date() < deadline { usleep(5_000) }
    guard process.process.isRunning else { return true }
    if killing { kill(process.identifier, SIGKILL) }
    return false
  }

  private func temporaryFiles(in folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.contains(".remconv-") }
  }

  @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
  func aSignalRemovesTheTemporaryOutputAndEndsTheRunBySignal(_ signal: Int32) throws {
    let directory = TemporaryDirectory()
    let (process, _) = try blockedConversion(in: directory)
    kill(process.identifier, signal)
    let ended = endsWithin(process, seconds: 10)
    #expect(ended, "the signal did not end the run")
    let outcome = process.wait()
    #expect(outcome.signaled)
    #expect(outcome.status == signal)
    #expect(temporaryFiles(in: directory.file("out")) == [])
    #expect(((try? FileManager.default.contentsOfDirectory(atPath: directory.file("out"))) ?? []) == [])
  }

  /// `nohup` and background jobs ignore signals for their children; remconv keeps them ignored.
  @Test func aSignalTheParentIgnoresStaysIgnored() throws {
    let directory = TemporaryDirectory()
    let (process, _) = try blockedConversion(in: directory, preamble: "trap '' HUP")
    kill(process.identifier, SIGHUP)
    #expect(!endsWithin(process, seconds: 1, killing: false), "an ignored SIGHUP ended the run")
    #expect(temporaryFiles(in: directory.file("out")).count == 1)
    kill(process.identifier, SIGTERM)
    #expect(endsWithin(process, seconds: 10), "the signal did not end the run")
    let outcome = process.wait()
    #expect(outcome.signaled && outcome.status == SIGTERM)
    #expect(temporaryFiles(in: directory.file("out")) == [])
  }

  @Test(arguments: [SIGINT, SIGTERM])
  func aSignalRemovesTheVdirStage(_ signal: Int32) throws {
    let directory = TemporaryDirectory()
    let fifo = directory.file("input.jsonl")
    #expect(mkfifo(fifo, 0o600) == 0)
    // Held open for reading and writing: the conversion opens its input at once and then
    // waits for lines that never come, its stage made.
    let held = open(fifo, O_RDWR | O_CLOEXEC)
    #expect(held >= 0)
    defer { close(held) }
    let line = Array(#"{"list":"Errands","id":"e-1","title":"Post"}"#.utf8) + [0x0A]
    #expect(write(held, line, line.count) == line.count)
    try FileManager.default.createDirectory(atPath: directory.file("out"), withIntermediateDirectories: true)
    let process = try startWithTerminationSignals(
      ["convert", fifo, "--from", "jsonl", "--to", "vdir", "-o", directory.file("out/vdir")], in: directory)
    kill(process.identifier, signal)
    #expect(endsWithin(process, seconds: 10), "the signal did not end the run")
    let outcome = process.wait()
    #expect(outcome.signaled && outcome.status == signal)
    #expect(((try? FileManager.default.contentsOfDirectory(atPath: directory.file("out"))) ?? ["?"]) == [])
  }

  @Test func theNextRunRemovesWhatAKilledRunLeft() throws {
    let directory = TemporaryDirectory()
    let (process, output) = try blockedConversion(in: directory)
    kill(process.identifier, SIGKILL)
    _ = process.wait()
    #expect(temporaryFiles(in: directory.file("out")).count == 1)
    let next = try RemconvProcess.run(
      ["convert", Self.sample, "--to", "json", "-o", output], environment: Self.environment(directory),
      scratch: directory.path)
    #expect(next.status == 0, "\(next.errors)")
    #expect(temporaryFiles(in: directory.file("out")) == [])
  }

  @Test func aFullDiskUnderAVdirExportLeavesNothing() throws {
    let directory = try Self.seeded()
    // A reminder too large for the file-size limit, in the list exported last.
    let notes = String(repeating: "All work and no play. ", count: 3_000)
    let big = directory.write("big.jsonl", #"{"list":"Someday","id":"big-1","title":"Big","notes":"\#(notes)"}"# + "\n")
    let imported = try RemconvProcess.run(
      ["import", big, "--quiet"], environment: Self.environment(directory), scratch: directory.path)
    #expect(imported.status == 0, "\(imported.errors)")
    let root = directory.file("exports/vdir")
    try FileManager.default.createDirectory(atPath: directory.file("exports"), withIntermediateDirectories: true)
    let failed = try RemconvProcess.run(
      ["export", "--format", "vdir", "-o", root], environment: Self.environment(directory), scratch: directory.path,
      preamble: "ulimit -f 64; trap '' XFSZ")
    #expect(failed.status == 74, "\(failed.errors)")
    #expect(failed.errors.contains("write failed: file too large"), "\(failed.errors)")
    #expect(((try? FileManager.default.contentsOfDirectory(atPath: directory.file("exports"))) ?? ["?"]) == [])
    let retried = try RemconvProcess.run(
      ["export", "--format", "vdir", "-o", root], environment: Self.environment(directory), scratch: directory.path)
    #expect(retried.status == 0, "\(retried.errors)")
  }

  /// A kill while `validate --fix` copies the store must never leave a file named like a
  /// backup that is not one: whenever such a name appears, its file is whole and verified.
  @Test func aKillDuringTheRepairBackupNeverLeavesAFalseBackup() throws {
    let directory = TemporaryDirectory()
    let store = directory.file("store.sqlite")
    let input = directory.write("many.jsonl", GeneratedReminders.jsonLines(count: 4_000, prefix: "many"))
    let imported = try RemconvProcess.run(
      ["import", input, "--quiet"], environment: Self.environment(directory), scratch: directory.path)
    #expect(imported.status == 0, "\(imported.errors)")
    do {
      let opened = try Store(path: store)
      defer { opened.close() }
      try DefectStores.breakStore(opened, with: "UPDATE reminders SET list_id = 999 WHERE uid = 'many-0'")
    }
    let process = try RemconvProcess(
      ["validate", "--fix"], environment: Self.environment(directory), scratch: directory.path)
    let deadline = Date().addingTimeInterval(30)
    var seen = false
    while Date() < deadline, process.process.isRunning {
      if backups(in: directory).isEmpty == false {
        seen = true
        break
      }
      usleep(500)
    }
    kill(process.identifier, SIGKILL)
    _ = process.wait()
    #expect(seen)
    for backup in backups(in: directory) {
      let copy = try Store(
        path: directory.file(backup),
        options: {
          var options = Store.Options()
          options.readOnly = true
          return options
        }())
      defer { copy.close() }
      #expect(try copy.database.scalar("PRAGMA integrity_check").textValue == "ok")
      #expect(try copy.reminderCount() == 4_000)
    }
    // What the killed run left under a temporary name goes with the next repair.
    let next = try RemconvProcess.run(
      ["validate", "--fix", "--quiet"], environment: Self.environment(directory), scratch: directory.path)
    #expect(next.status == 0, "\(next.errors)")
    #expect(
      ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.contains(".remconv-") }
        == [])
  }

  private func backups(in directory: TemporaryDirectory) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter {
      $0.hasPrefix("store.sqlite.pre-validate-fix-")
    }
  }
}
