import Foundation
import Testing

/// The built products the tests run as separate processes: `remconv`, as a user or a pipeline
/// would, and the fuzz harness's input replayer.
///
/// `swift build` (and `swift test`, which builds every product first) puts the products in one
/// folder with the test bundle, so they are looked for beside the running test bundle first,
/// then in `.build/debug`. `$REMCONV_BINARY` points the tests at another build
/// (`.build/release/remconv` for the long runs). A test that needs a product that is not there
/// fails, naming what to build (`.needsBuiltProducts`): it never passes by skipping.
public enum RemconvBinary {
  public static let path: String =
    ProcessInfo.processInfo.environment["REMCONV_BINARY"] ?? BuiltProduct.locate("remconv")

  public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: path) }

  /// A copy of the binary that another user can run wherever the clone sits (a 0700 home, a
  /// `mktemp -d` folder): in the temporary folder, one per test process (two test runs at once
  /// each have their own), removed when the process exits; copies of processes that are gone
  /// are removed first.
  public static let pathForOtherUsers: String = {
    let temporary = FileManager.default.temporaryDirectory.path
    for old in (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []
    where old.hasPrefix("remconv-binary-") {
      guard let pid = Int32(old.dropFirst("remconv-binary-".count)), kill(pid, 0) != 0, errno == ESRCH else {
        continue
      }
      try? FileManager.default.removeItem(atPath: temporary + "/" + old)
    }
    let folder = temporary + "/remconv-binary-\(getpid())"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    chmod(folder, 0o755)
    let copy = folder + "/remconv"
    try? FileManager.default.copyItem(atPath: path, toPath: copy)
    chmod(copy, 0o755)
    atexit { try? FileManager.default.removeItem(atPath: RemconvBinary.otherUsersFolder) }
    return copy
  }()

  private static var otherUsersFolder: String {
    FileManager.default.temporaryDirectory.path + "/remconv-binary-\(getpid())"
  }

  /// The fuzz harness's input replayer, beside the binary the tests run.
  public static let fuzzReplayer = BuiltProduct.locate("remconv-fuzz")

  /// Whether the long runs are asked for (`REMCONV_LONG_TESTS=1`).
  public static var longRuns: Bool { ProcessInfo.processInfo.environment["REMCONV_LONG_TESTS"] == "1" }

  /// The binary's path; throws, naming the path and the command to build it, when it is not
  /// there.
  public static func required() throws -> String {
    try BuiltProduct.require(path, product: "remconv")
  }
}

/// Where `swift build` put a product of this package, and the error of one that is missing.
public enum BuiltProduct {
  /// The folders a product is looked for in: the test bundle's own (the products of the same
  /// `swift build`), then `.build/debug`.
  public static let folders: [String] = {
    let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    let debug = URL(fileURLWithPath: Repository.path(".build/debug")).resolvingSymlinksInPath()
    var folders = [bundle.deletingLastPathComponent().path]
    if !folders.contains(debug.path) { folders.append(debug.path) }
    return folders
  }()

  /// The first folder's `name` that is an executable; the first folder's path when none is,
  /// so that the error names where it was expected.
  public static func locate(_ name: String) -> String {
    let candidates = folders.map { $0 + "/" + name }
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[0]
  }

  public struct Missing: Error, CustomStringConvertible {
    public let path: String
    public let product: String
    public var description: String {
      "the built product '\(product)' is not at \(path) (nor in \(BuiltProduct.folders.joined(separator: ", "))): "
        + "run `swift build --build-tests` (or `swift test`, which builds every product) first; "
        + "a test that needs it fails rather than skip"
    }
  }

  public static func require(_ path: String, product: String) throws -> String {
    guard FileManager.default.isExecutableFile(atPath: path) else { throw Missing(path: path, product: product) }
    return path
  }
}

/// A trait for a test or suite that runs built products: each of its tests fails with
/// `BuiltProduct.Missing` when one of them is not there, instead of being skipped.
public struct NeedsBuiltProducts: SuiteTrait, TestTrait, TestScoping {
  let products: [(path: String, name: String)]

  public var isRecursive: Bool { true }

  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    for product in products { _ = try BuiltProduct.require(product.path, product: product.name) }
    try await function()
  }
}

extension Trait where Self == NeedsBuiltProducts {
  /// The test needs the built `remconv` (`RemconvBinary.path`).
  public static var needsRemconvBinary: Self { NeedsBuiltProducts(products: [(RemconvBinary.path, "remconv")]) }

  /// The test needs the fuzz harness's input replayer (`RemconvBinary.fuzzReplayer`).
  public static var needsFuzzReplayer: Self {
    NeedsBuiltProducts(products: [(RemconvBinary.fuzzReplayer, "remconv-fuzz")])
  }
}

/// Any program run to its end (a shell, a peer, a copied binary), with `input` on its
/// standard input. Output and errors go to files, not pipes: a program that fills one pipe
/// while the test reads the other would never end.
public enum Program {
  /// The path of an installed program, looked up in `PATH` and then `/usr/bin`; nil when it
  /// is not installed. A peer test requires it (`#require`), so it fails rather than skips.
  public static func find(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    let candidates = path.split(separator: ":").map { "\($0)/\(name)" } + ["/usr/bin/\(name)"]
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  public static func run(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil, input: String? = nil
  ) throws -> ProcessOutcome {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("remconv-program-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let outputPath = scratch.appendingPathComponent("stdout").path
    let errorPath = scratch.appendingPathComponent("stderr").path
    guard FileManager.default.createFile(atPath: outputPath, contents: nil),
      FileManager.default.createFile(atPath: errorPath, contents: nil)
    else { throw CocoaError(.fileWriteUnknown) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    process.standardOutput = FileHandle(forWritingAtPath: outputPath)
    process.standardError = FileHandle(forWritingAtPath: errorPath)
    let stdin = Pipe()
    process.standardInput = stdin
    try process.run()
    if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
    try stdin.fileHandleForWriting.close()
    process.waitUntilExit()
    return ProcessOutcome(
      status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
      output: (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "",
      errors: (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "")
  }
}

/// How a process ended.
public struct ProcessOutcome: Sendable {
  /// The exit status, or the signal number when `signaled`.
  public let status: Int32
  public let signaled: Bool
  public let output: String
  public let errors: String
}

/// A `remconv` process started in the background, its output going to files (a pipe would
/// block a process that writes more than the pipe holds while nobody reads).
public final class RemconvProcess {
  public let process = Process()
  private let outputPath: String
  private let errorPath: String

  /// Starts `remconv ARGUMENTS` in `directory`'s environment. A `preamble` runs in `/bin/sh`
  /// first (`ulimit -f 64`), and `user` runs it as that user id (tests running as root).
  public init(
    _ arguments: [String], environment: [String: String], scratch: String, preamble: String? = nil, user: UInt32? = nil
  ) throws {
    let name = UUID().uuidString
    outputPath = scratch + "/.stdout-" + name
    errorPath = scratch + "/.stderr-" + name
    guard FileManager.default.createFile(atPath: outputPath, contents: nil),
      FileManager.default.createFile(atPath: errorPath, contents: nil)
    else { throw CocoaError(.fileWriteUnknown) }
    // Another user may not enter the folder the clone sits in.
    var command = [user == nil ? RemconvBinary.path : RemconvBinary.pathForOtherUsers] + arguments
    if let preamble { command = ["/bin/sh", "-c", preamble + "; exec \"$0\" \"$@\""] + command }
    if let user { command = ["/usr/bin/setpriv", "--reuid=\(user)", "--regid=\(user)", "--clear-groups"] + command }
    process.executableURL = URL(fileURLWithPath: command[0])
    process.arguments = Array(command.dropFirst())
    process.environment = environment
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle(forWritingAtPath: outputPath)
    process.standardError = FileHandle(forWritingAtPath: errorPath)
    try process.run()
  }

  public var identifier: Int32 { process.processIdentifier }

  /// Waits for the end and collects the output.
  public func wait() -> ProcessOutcome {
    process.waitUntilExit()
    defer {
      try? FileManager.default.removeItem(atPath: outputPath)
      try? FileManager.default.removeItem(atPath: errorPath)
    }
    let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    let errors = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
    return ProcessOutcome(
      status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal, output: output,
      errors: errors)
  }

  /// Runs `remconv ARGUMENTS` to its end.
  public static func run(
    _ arguments: [String], environment: [String: String], scratch: String, preamble: String? = nil, user: UInt32? = nil
  ) throws -> ProcessOutcome {
    try RemconvProcess(arguments, environment: environment, scratch: scratch, preamble: preamble, user: user).wait()
  }
}

/// Makes the store at `path` in `folder` read-only for the remconv processes a test starts:
/// the file becomes 0400 and, when the tests run as root (who writes anyway), the folder and
/// the file are given to `nobody`. Returns the user to run remconv as (`RemconvProcess(user:)`).
public func makeStoreReadOnly(_ path: String, in folder: String) -> UInt32? {
  let user: UInt32? = getuid() == 0 ? 65534 : nil
  if let user {
    chown(folder, user, user)
    chown(path, user, user)
  }
  chmod(path, 0o400)
  return user
}

/// A deterministic random number generator (SplitMix64): the same seed gives the same runs.
public struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }
}

/// JSON Lines of generated reminders, for imports large enough to be interrupted.
public enum GeneratedReminders {
  /// `count` reminders in `lists` lists, with notes, due dates, tags, every tenth a subtask of
  /// the one before, UIDs `PREFIX-N`.
  public static func jsonLines(count: Int, prefix: String, lists: Int = 5, titlePrefix: String = "Item") -> String {
    var lines: [String] = []
    lines.reserveCapacity(count)
    for index in 0..<count {
      let parent = index % 10 == 9 ? #""\#(prefix)-\#(index - 1)""# : "null"
      let day = 1 + index % 28
      lines.append(
        #"{"list":"\#(prefix) list \#(index % lists)","id":"\#(prefix)-\#(index)","title":"\#(titlePrefix) \#(index) — crème brûlée","notes":"Line one\nLine two of \#(index)","dueDate":"2026-12-\#(day < 10 ? "0" : "")\#(day)","tags":["generated","batch"],"parentId":\#(parent)}"#
      )
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
