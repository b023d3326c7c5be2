import Foundation
import RemconvCLI
import RemconvCore
import RemconvTestSupport
import Testing

@Suite struct JSONFormatTests {
  static let sample = Repository.path("Samples/json/reminders.json")
  static let edgeCases = Repository.path("Tests/RemconvCLITests/Fixtures/json/edge-cases.json")

  @Test func exportOfTheSampleIsByteIdenticalToIt() {
    let bench = TestBench()
    #expect(bench.run(["import", Self.sample]).status == .ok)
    #expect(bench.snapshot() == Repository.read("Samples/json/reminders.json"))
  }

  @Test func importExportImportGivesTheSameStore() {
    let first = TestBench()
    first.run(["import", Self.edgeCases])
    let exported = first.snapshot()
    let path = first.directory.write("exported.json", exported)
    let second = TestBench()
    #expect(second.run(["import", path]).status == .ok)
    #expect(second.snapshot() == exported)
  }

  @Test func exportMatchesTheGoldenFile() {
    let bench = TestBench()
    let result = bench.run(["import", Self.edgeCases])
    #expect(result.status == .ok)
    #expect(bench.snapshot() == Repository.read("Tests/RemconvCLITests/Fixtures/json/edge-cases.golden.json"))
  }

  @Test func badValuesAreWarnedAboutWithTheirLineAndKept() {
    let bench = TestBench()
    let result = bench.run(["import", Self.edgeCases])
    #expect(result.errors.contains("edge-cases.json:24:9: 'urgent' is not a priority"))
    #expect(result.errors.contains("(UID bad-values) [invalid-value]"))
    #expect(
      bench.snapshot().contains(
        #""invalid":{"completedAt":"yesterday","dueDate":"2026-13-45","priority":"urgent","tags":"not-an-array"}"#))
  }

  @Test func reimportAddsNothing() throws {
    let bench = TestBench()
    bench.run(["import", Self.sample])
    let result = bench.run(["import", Self.sample, "--report", "json"])
    let report = try JSONParser.parse(result.output)
    #expect(report["added"] == .number(0))
    #expect(report["updated"] == .number(0))
    #expect(report["unchanged"] == .number(11))
  }

  @Test func identicalItemsWithoutUIDsStayDistinctAcrossReimports() {
    let bench = TestBench()
    bench.run(["import", Self.edgeCases])
    let before = bench.snapshot()
    bench.run(["import", Self.edgeCases])
    #expect(bench.snapshot() == before)
    #expect(before.components(separatedBy: "No id: derived").count == 3)
  }

  @Test func dryRunReportsButLeavesTheStoreUnchanged() throws {
    let bench = TestBench()
    bench.run(["import", Self.edgeCases])
    let before = bench.snapshot()
    let result = bench.run(["import", Self.sample, "--dry-run", "--report", "json"])
    #expect(result.status == .ok)
    let report = try JSONParser.parse(result.output)
    #expect(report["added"] == .number(11))
    #expect(report["dryRun"] == .bool(true))
    #expect(report["committed"] == .bool(false))
    #expect(bench.snapshot() == before)
  }

  @Test func malformedJSONExits65NamingTheLineAndWritesNothing() {
    let bench = TestBench()
    bench.run(["import", Self.sample])
    let before = bench.snapshot()
    let broken = bench.directory.write(
      "broken.json",
      """
      {"format": "remconv", "version": 1, "lists": [
        {"name": "Errands", "reminders": [
          {"title": "fine"},
          {"title": "missing quote}
        ]}
      ]}
      """)
    let result = bench.run(["import", broken])
    #expect(result.status == .dataError)
    #expect(result.errors.contains("broken.json:4:"))
    #expect(result.errors.hasPrefix("remconv: error: "))
    #expect(bench.snapshot() == before)
  }

  @Test(arguments: [
    ("", "the input is empty"),
    ("[1, 2]", "expected a JSON object"),
    (#"{"format": "todo"}"#, #""format" is "todo""#),
    (#"{"format": "remconv", "version": 9, "lists": []}"#, "newer than this remconv"),
    (#"{"format": "remconv", "lists": [{"name": "x", "reminders": [1]}]}"#, "a reminder must be a JSON object"),
    (#"{"format": "remconv", "lists": []} trailing"#, "unexpected text after the document"),
    (
      "{\"format\": \"remconv\", \"lists\": [{\"name\": \"x\", \"reminders\": [{\"title\": \"a\u{01}\"}]}]}",
      "control character"
    ),
  ])
  func structuralProblemsAreDataErrors(input: String, message: String) {
    let bench = TestBench()
    let path = bench.directory.write("input.json", input)
    let result = bench.run(["import", path, "--format", "json"])
    #expect(result.status == .dataError, "\(input)")
    #expect(result.errors.contains(message), "\(result.errors)")
  }

  @Test func exportsValidateAgainstThePublishedSchemas() throws {
    let validator = try SchemaValidator(folder: Repository.path("docs/schema"))
    let bench = TestBench()
    bench.run(["import", Self.sample])
    bench.run(["import", Self.edgeCases])
    let document = try JSONParser.parse(bench.snapshot())
    #expect(validator.validate(document, against: "remconv.schema.json") == [])
    let lines = bench.run(["export", "--format", "jsonl"]).output.split(separator: "\n")
    #expect(lines.count == 21)
    for line in lines {
      let record = try JSONParser.parse(String(line))
      #expect(validator.validate(record, against: "remconv-line.schema.json") == [])
    }
    var broken = document
    if case .object(var members) = broken {
      members["surprise"] = .bool(true)
      broken = .object(members)
    }
    #expect(validator.validate(broken, against: "remconv.schema.json") == ["$: unexpected property surprise"])
  }

  @Test func jsonLinesRoundTripsEveryReminder() {
    let bench = TestBench()
    bench.run(["import", Self.sample])
    let lines = bench.run(["export", "--format", "jsonl"])
    #expect(lines.errors.contains("cannot carry the empty list 'Someday'"))
    let second = TestBench()
    #expect(second.run(["import", "-", "--format", "jsonl"], input: lines.output).status == .ok)
    let withoutEmptyList = bench.snapshot().replacingOccurrences(
      of: #"""
        ,
            {
              "id": "6F1C2B0E-5D7A-4C55-9F1E-3A1B2C3D4E04",
              "name": "Someday",
              "symbol": "sparkles",
              "color": "#AF52DE",
              "createdAt": "2026-07-04T10:00:00Z",
              "extra": {},
              "reminders": []
            }
        """#, with: "")
    #expect(second.snapshot() == withoutEmptyList)
  }

  @Test func standardInputIsDetectedFromItsContent() {
    let bench = TestBench()
    let result = bench.run(["import", "-"], input: Repository.read("Samples/json/reminders.json"))
    #expect(result.status == .ok)
    #expect(result.errors.contains("imported <stdin>: 11 added"))
  }

  @Test func convertWithoutAStoreRoundTrips() {
    let bench = TestBench()
    let lines = bench.run(["convert", Self.sample, "--to", "jsonl"])
    #expect(lines.status == .ok)
    let back = bench.run(["convert", "-", "--from", "jsonl", "--to", "json"], input: lines.output)
    #expect(back.status == .ok)
    #expect(back.output.contains(#""title":"Ingredients for crème brûlée""#))
    #expect(!FileManager.default.fileExists(atPath: bench.storePath), "convert must not create the store")
  }
}

@Suite struct MergeTests {
  @Test func aListNamedDifferentlyOnlyInCaseOrSpacingLandsInTheExistingList() {
    let bench = TestBench()
    bench.run(["import", Repository.path("Samples/json/reminders.json")])
    let input = bench.directory.write(
      "more.jsonl", #"{"list":" groceries ","id":"new-1","title":"Bread"}"# + "\n")
    let result = bench.run(["import", input, "--report", "json"])
    #expect(result.output.contains(#""listsAdded":0"#))
    let lists = bench.run(["export", "--format", "jsonl"]).output.split(separator: "\n")
    #expect(lists.filter { $0.contains(#""id":"new-1""#) }.allSatisfy { $0.contains(#""list":"Groceries""#) })
  }

  @Test func listOptionOverridesTheSourceAndTheFileName() {
    let bench = TestBench()
    bench.run(["import", Repository.path("Samples/json/reminders.json"), "--list", "Inbox"])
    let output = bench.run(["export", "--format", "jsonl"]).output
    #expect(output.split(separator: "\n").allSatisfy { $0.contains(#""list":"Inbox""#) })
    #expect(output.split(separator: "\n").count == 11)
  }

  @Test func sourcesWithoutAListUseTheFileName() {
    let bench = TestBench()
    let input = bench.directory.write("Weekend Plans.jsonl", #"{"title":"Hike"}"# + "\n")
    bench.run(["import", input])
    #expect(bench.run(["export", "--format", "jsonl"]).output.contains(#""list":"Weekend Plans""#))
  }

  @Test func aChangedItemIsUpdatedInPlace() throws {
    let bench = TestBench()
    bench.run(["import", Repository.path("Samples/json/reminders.json")])
    let changed = Repository.read("Samples/json/reminders.json").replacingOccurrences(
      of: "Barista edition", with: "Any brand")
    let path = bench.directory.write("changed.json", changed)
    let report = try JSONParser.parse(bench.run(["import", path, "--report", "json"]).output)
    #expect(report["updated"] == .number(1))
    #expect(report["unchanged"] == .number(10))
    #expect(bench.snapshot() == changed)
  }

  @Test func anotherAppsImportKeepsWhatTheFirstAppCarried() {
    let bench = TestBench()
    let first = bench.directory.write(
      "first.jsonl",
      #"{"list":"A","id":"x","title":"Water plants","extra":{"ical":{"components":["BEGIN:VALARM"]},"invalid":{"priority":"urgent"}}}"#
        + "\n")
    let second = bench.directory.write(
      "second.jsonl",
      #"{"list":"A","id":"x","title":"Water the plants","extra":{"taskwarrior":{"urgency":4.2}}}"# + "\n")
    bench.run(["import", first])
    bench.run(["import", second])
    let output = bench.run(["export", "--format", "jsonl"]).output
    #expect(output.contains(#""title":"Water the plants""#))
    #expect(output.contains(#""extra":{"ical":{"components":["BEGIN:VALARM"]},"taskwarrior":{"urgency":4.2}}"#))
    // Re-importing the second file is now a no-op.
    #expect(bench.run(["import", second, "--report", "json"]).output.contains(#""unchanged":1"#))
  }

  @Test func aUIDRepeatedInOneSourceKeepsBothItems() {
    let bench = TestBench()
    let input = bench.directory.write(
      "twice.jsonl",
      #"{"list":"A","id":"same","title":"First"}"# + "\n" + #"{"list":"A","id":"same","title":"Second"}"# + "\n")
    let result = bench.run(["import", input])
    #expect(result.status == .ok)
    #expect(result.errors.contains("[duplicate-uid]"))
    let output = bench.run(["export", "--format", "jsonl"]).output
    #expect(output.contains(#""title":"First""#))
    #expect(output.contains(#""title":"Second""#))
    #expect(output.contains(#""originalId":"same""#))
  }

  @Test func aParentThatNeverComesIsReportedAndKept() {
    let bench = TestBench()
    let input = bench.directory.write(
      "orphan.jsonl", #"{"list":"A","id":"child","title":"Child","parentId":"ghost"}"# + "\n")
    let result = bench.run(["import", input])
    #expect(result.status == .ok)
    #expect(result.errors.contains("orphan.jsonl:1: warning") || result.errors.contains("[missing-parent]"))
    #expect(bench.snapshot().contains(#""missingParent":"ghost""#))
  }

  @Test func strictTurnsWarningsIntoAFailureThatWritesNothing() {
    let bench = TestBench()
    let input = bench.directory.write("warn.jsonl", #"{"list":"A","id":"x","title":"X","priority":"urgent"}"# + "\n")
    let result = bench.run(["import", input, "--strict"])
    #expect(result.status == .dataError)
    #expect(bench.snapshot().contains(#""lists": []"#))
  }

  @Test func progressIsDrawnOnlyOnATerminal() {
    let lines = (0..<5000).map { #"{"list":"Bulk","id":"bulk-\#($0)","title":"Item \#($0)"}"# }.joined(separator: "\n")
    let bench = TestBench()
    let io = ConsoleIO.capturing(input: lines, terminal: true)
    #expect(CLI.run(["import", "-", "--format", "jsonl"], io: io, environment: bench.environment) == .ok)
    #expect(io.errorText.contains("\rimporting ") || io.errorText.contains("importing "))
    let quiet = ConsoleIO.capturing(input: lines, terminal: true)
    #expect(
      CLI.run(["import", "-", "--format", "jsonl", "--quiet"], io: quiet, environment: TestBench().environment) == .ok)
    #expect(quiet.errorText.isEmpty)
  }
}
