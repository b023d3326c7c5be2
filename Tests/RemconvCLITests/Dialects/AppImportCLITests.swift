import Foundation
import RemconvCLI
import RemconvCore
import RemconvTestSupport
import Testing

/// Microsoft To Do and Google Tasks through `remconv import`: goldens, refusals, the corpus.
@Suite struct AppImportCLITests {
  /// The store after importing `path` in `zone`, exported as remconv JSON.
  private func imported(_ path: String, zone: String) -> (
    status: RemconvCLI.ExitStatus, snapshot: String, errors: String
  ) {
    let bench = TestBench(environment: ["TZ": zone])
    let result = bench.run(["import", path])
    return (result.status, bench.snapshot(), result.errors)
  }

  @Test func microsoftToDoPageMatchesItsGolden() {
    let result = imported(DialectCLI.fixture("mstodo", "page.json"), zone: "America/Chicago")
    #expect(result.status == .ok, "\(result.errors)")
    #expect(result.snapshot == Repository.read("Tests/RemconvCoreTests/Fixtures/mstodo/page.expected.json"))
  }

  @Test func googleTakeoutMatchesItsGolden() {
    let result = imported(DialectCLI.fixture("googletasks", "Tasks.json"), zone: "America/Chicago")
    #expect(result.status == .ok, "\(result.errors)")
    #expect(result.snapshot == Repository.read("Tests/RemconvCoreTests/Fixtures/googletasks/Tasks.expected.json"))
  }

  @Test func samplesImportWithoutWarningsAndOnlyOnce() throws {
    for (sample, count) in [("Samples/mstodo/tasks.json", 6), ("Samples/googletasks/Tasks.json", 5)] {
      let bench = TestBench()
      let first = bench.run(["import", Repository.path(sample), "--strict", "--report", "json"])
      #expect(first.status == .ok, "\(sample): \(first.errors)")
      #expect(try DialectCLI.reportCounts(first.output).added == count, "\(sample)")
      let second = try DialectCLI.reportCounts(
        bench.run(["import", Repository.path(sample), "--report", "json"]).output)
      #expect(second.added == 0 && second.updated == 0 && second.unchanged == count, "\(sample)")
    }
  }

  @Test func brokenStructureIsRefusedWithItsLocation() {
    DialectCLI.expectRefused(
      DialectCLI.fixture("mstodo", "bad-truncated.json"), format: "mstodo", located: "bad-truncated.json:6:1")
    DialectCLI.expectRefused(
      DialectCLI.fixture("mstodo", "bad-not-object.json"), format: nil, located: "bad-not-object.json:4:5")
    DialectCLI.expectRefused(
      DialectCLI.fixture("googletasks", "bad-truncated.json"), format: "googletasks", located: "bad-truncated.json:9:1")
    DialectCLI.expectRefused(
      DialectCLI.fixture("googletasks", "bad-not-object.json"), format: nil, located: "bad-not-object.json:5:5")
  }

  @Test func badValuesImportWithLocatedWarningsButFailUnderStrict() throws {
    for (format, name, warnings) in [("mstodo", "bad-values.json", 8), ("googletasks", "bad-values.json", 5)] {
      let path = DialectCLI.fixture(format, name)
      let bench = TestBench(environment: ["TZ": "America/Chicago"])
      let lenient = bench.run(["import", path])
      #expect(lenient.status == .ok, "\(lenient.errors)")
      let located = lenient.errors.split(separator: "\n").filter { $0.contains("warning:") && $0.contains("\(name):") }
      #expect(located.count == warnings, "\(lenient.errors)")
      let strict = TestBench(environment: ["TZ": "America/Chicago"])
      // An export never creates the store it reads: the one compared exists, empty.
      try Store(path: strict.storePath).close()
      let before = strict.snapshot()
      #expect(strict.run(["import", path, "--strict"]).status == .dataError)
      #expect(strict.snapshot() == before)
    }
  }

  @Test(.enabled(if: DialectCLI.corpusJSON != nil, "needs the shared corpus"))
  func everyCorpusJSONFileImportsByItsContent() throws {
    let folder = try #require(DialectCLI.corpusJSON)
    for name in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() {
      let bench = TestBench(environment: ["TZ": "America/Chicago"])
      let result = bench.run(["import", folder + "/" + name, "--strict", "--report", "json"])
      #expect(result.status == .ok, "\(name): \(result.errors)")
      #expect(result.output.contains("\"format\":\"mstodo\""), "\(name)")
      #expect(try DialectCLI.reportCounts(result.output).added >= 1, "\(name)")
    }
  }
}

extension DialectCLI {
  /// The corpus's `json/` folder, when the shared corpus is on this machine.
  static let corpusJSON: String? = {
    var candidates = [Repository.path("../shared/corpus"), Repository.path("../../shared/corpus")]
    if let configured = ProcessInfo.processInfo.environment["REMCONV_CORPUS"] { candidates.insert(configured, at: 0) }
    return candidates.map { $0 + "/json" }.first { FileManager.default.fileExists(atPath: $0) }
  }()
}
