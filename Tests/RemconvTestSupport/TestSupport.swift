import Foundation
import RemconvCLI
import RemconvCore

/// A temporary folder removed when the value goes away.
public final class TemporaryDirectory {
  public let path: String

  public init() {
    path =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("remconv-test-\(UUID().uuidString)").path
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// A path inside the folder.
  public func file(_ name: String) -> String { path + "/" + name }

  /// Writes `contents` to `name` and returns its path.
  @discardableResult
  public func write(_ name: String, _ contents: String) -> String {
    let target = file(name)
    try? FileManager.default.createDirectory(
      atPath: URL(fileURLWithPath: target).deletingLastPathComponent().path, withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: target, contents: Data(contents.utf8))
    return target
  }

  public func read(_ name: String) -> String {
    (try? String(contentsOfFile: file(name), encoding: .utf8)) ?? ""
  }
}

/// The result of one in-process run of the command line.
public struct CLIResult: Sendable {
  public let status: ExitStatus
  public let output: String
  public let errors: String
}

/// The repository's folders, found from this file's location.
public enum Repository {
  public static let root: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
  }()

  public static func path(_ relative: String) -> String { root + "/" + relative }

  public static func read(_ relative: String) -> String {
    (try? String(contentsOfFile: path(relative), encoding: .utf8)) ?? ""
  }
}

/// A scratch store and a way to run `remconv` against it in-process.
public final class TestBench {
  public let directory = TemporaryDirectory()
  public var environment: [String: String]

  public init(environment: [String: String] = [:]) {
    self.environment = [
      "HOME": directory.path, "TZ": "Europe/Berlin", "REMCONV_NOW": "2026-11-29T10:00:00Z",
    ].merging(environment) { _, new in new }
    self.environment["REMCONV_STORE"] = environment["REMCONV_STORE"] ?? directory.file("store.sqlite")
  }

  public var storePath: String { environment["REMCONV_STORE"] ?? "" }

  /// Runs `remconv ARGUMENTS` with `input` on standard input.
  @discardableResult
  public func run(_ arguments: [String], input: String = "") -> CLIResult {
    let io = ConsoleIO.capturing(input: input)
    let status = CLI.run(arguments, io: io, environment: environment)
    return CLIResult(status: status, output: io.outputText, errors: io.errorText)
  }

  /// Runs a whitespace-separated command line (no quoting).
  @discardableResult
  public func run(_ line: String, input: String = "") -> CLIResult {
    run(line.split(separator: " ").map(String.init), input: input)
  }

  /// The store exported as remconv JSON: what "logically identical" compares.
  public func snapshot() -> String {
    run(["export", "--format", "json"]).output
  }
}
