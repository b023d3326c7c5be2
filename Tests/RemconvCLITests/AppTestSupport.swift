import Foundation
import RemconvCLI
import RemconvCore
import RemconvTestSupport
import Testing

/// The store behind the reminders-app tests: `Fixtures/app/store.json`, imported into a
/// scratch store with the clock at 2026-11-29T10:00:00Z (11:00 in Europe/Berlin).
///
/// Its reminders sit on both sides of the day's edges: an all-day due today and yesterday, a
/// floating time today, a UTC time that is today in Berlin but yesterday in UTC (Report) and
/// one that is tomorrow in Berlin (Stand-up), a New York time that is late today in Berlin and
/// a Tokyo time that is midnight tomorrow there. In Berlin: Today 4, Scheduled 7, Flagged 2,
/// All 9 (Groceries 4, Work 5, Someday 0), Completed 2.
enum AppFixture {
  static let path = Repository.path("Tests/RemconvCLITests/Fixtures/app/store.json")

  static func bench(environment: [String: String] = [:]) throws -> TestBench {
    let bench = TestBench(environment: environment)
    let result = bench.run(["import", path])
    try #require(result.status == .ok, "import failed: \(result.errors)")
    return bench
  }

  // The reminders, by the first block of their UIDs.
  static let oatMilk = "10000001-AAAA-4000-8000-000000000001"
  static let bread = "10000002-AAAA-4000-8000-000000000002"
  static let eggs = "10000003-AAAA-4000-8000-000000000003"
  static let freeRange = "10000004-AAAA-4000-8000-000000000004"
  static let cafeBeans = "10000005-AAAA-4000-8000-000000000005"
  static let standUp = "20000001-BBBB-4000-8000-000000000001"
  static let report = "20000002-BBBB-4000-8000-000000000002"
  static let callNewYork = "20000003-BBBB-4000-8000-000000000003"
  static let callTokyo = "20000004-BBBB-4000-8000-000000000004"
  static let sendNumbers = "20000005-BBBB-4000-8000-000000000005"
  static let submitExpenses = "20000006-BBBB-4000-8000-000000000006"
}

/// Reading `--json` output in tests.
enum JSONOutput {
  static func object(_ text: String) throws -> [String: Any] {
    let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
    return try #require(value as? [String: Any], "not a JSON object: \(text)")
  }

  /// The `reminders` (or another array key) of a view's JSON, as objects.
  static func array(_ object: [String: Any], _ key: String) throws -> [[String: Any]] {
    try #require(object[key] as? [[String: Any]], "no array '\(key)' in \(object)")
  }

  /// The `id`s of the reminders in a view's JSON array.
  static func ids(_ text: String, _ key: String = "reminders") throws -> [String] {
    try array(object(text), key).compactMap { $0["id"] as? String }
  }

  /// One reminder of the store, from `export --format jsonl`.
  static func reminder(_ id: String, in bench: TestBench) throws -> [String: Any] {
    let lines = bench.run(["export", "--format", "jsonl"]).output.split(separator: "\n")
    for line in lines {
      let object = try object(String(line))
      if object["id"] as? String == id { return object }
    }
    Issue.record("no reminder \(id) in the store")
    return [:]
  }
}

extension TestBench {
  /// Runs a command line on a console that says it is a terminal (for colour and prompts).
  func runOnTerminal(_ arguments: [String], input: String = "") -> (
    status: RemconvCLI.ExitStatus, output: String, errors: String
  ) {
    let io = ConsoleIO.capturing(input: input, terminal: true)
    let status = CLI.run(arguments, io: io, environment: environment)
    return (status, io.outputText, io.errorText)
  }
}
