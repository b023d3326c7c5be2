import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// Paths of the CSV fixtures, golden-file checks and small helpers shared by the CSV suites.
enum CSVFixtures {
  static func path(_ name: String) -> String { Repository.path("Tests/RemconvCoreTests/Fixtures/csv/" + name) }

  static func read(_ name: String) -> String { Repository.read("Tests/RemconvCoreTests/Fixtures/csv/" + name) }

  /// The CSV folder of the shared corpus of real files (`$REMCONV_CORPUS/csv`, else a `shared/corpus`
  /// beside the checkout or beside its parent folder, as for worktrees), when there is one.
  static let corpus: String? = {
    let environment = ProcessInfo.processInfo.environment["REMCONV_CORPUS"].map { [$0 + "/csv"] } ?? []
    let candidates = environment + ["../shared/corpus/csv", "../../shared/corpus/csv"].map(Repository.path)
    return candidates.first { FileManager.default.fileExists(atPath: $0) }
  }()
  static var hasCorpus: Bool { corpus != nil }

  /// A file of the corpus's CSV folder.
  static func corpusFile(_ name: String) throws -> String { try #require(corpus) + "/" + name }

  /// Compares `actual` byte for byte with a golden file. `REMCONV_UPDATE_GOLDEN=1` rewrites the
  /// file instead (then review the diff before committing).
  static func expectGolden(
    _ actual: String, _ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    let file = path("golden/" + name)
    if ProcessInfo.processInfo.environment["REMCONV_UPDATE_GOLDEN"] == "1" {
      #expect(FileManager.default.createFile(atPath: file, contents: Data(actual.utf8)), sourceLocation: sourceLocation)
      return
    }
    guard let data = try? Data(contentsOf: URL(fileURLWithPath: file)) else {
      Issue.record("missing golden file \(name)", sourceLocation: sourceLocation)
      return
    }
    let expected = [UInt8](data)
    let written = Array(actual.utf8)
    guard written != expected else { return }
    // Name the first line that differs, showing both versions with their control bytes.
    let expectedLines = expected.split(separator: 0x0A, omittingEmptySubsequences: false)
    let writtenLines = written.split(separator: 0x0A, omittingEmptySubsequences: false)
    let common = min(expectedLines.count, writtenLines.count)
    let line = (0..<common).first { expectedLines[$0] != writtenLines[$0] } ?? common
    func show(_ lines: [ArraySlice<UInt8>]) -> String {
      line < lines.count ? String(reflecting: String(decoding: lines[line], as: UTF8.self)) : "(end of file)"
    }
    Issue.record(
      "\(name) differs at line \(line + 1): expected \(show(expectedLines)), written \(show(writtenLines))",
      sourceLocation: sourceLocation)
  }

  /// Writes `contents` as `name` in a fresh bench and imports it with `arguments`.
  static func importing(
    _ name: String, _ contents: String, _ arguments: [String] = []
  ) -> (bench: TestBench, file: String, result: CLIResult) {
    let bench = TestBench()
    let file = bench.directory.write(name, contents)
    return (bench, file, bench.run(["import", file] + arguments))
  }

  /// The store's reminders as JSON Lines objects, for field-by-field checks.
  static func reminders(in bench: TestBench) throws -> [[String: JSONValue]] {
    try bench.run(["export", "--format", "jsonl"]).output.split(separator: "\n").map { line in
      try #require(try JSONParser.parse(String(line)).objectValue)
    }
  }

  /// The reminder titled `title`.
  static func reminder(_ title: String, in rows: [[String: JSONValue]]) throws -> [String: JSONValue] {
    try #require(rows.first { $0["title"]?.stringValue == title }, "no reminder titled '\(title)'")
  }
}
