import Foundation
import RemconvCLI
import RemconvCore
import RemconvTestSupport
import Testing

/// Values of the JSON formats that used to be dropped or refused without need.
@Suite struct JSONHostileValueTests {
  @Test(arguments: ["json", "jsonl"])
  func aUTF8ByteOrderMarkIsIgnored(format: String) {
    let sample = Repository.read("Samples/\(format)/reminders.\(format)")
    let plain = TestBench()
    #expect(plain.run(["import", plain.directory.write("plain.\(format)", sample)]).status == .ok)
    let marked = TestBench()
    let result = marked.run(["import", marked.directory.write("plain.\(format)", "\u{FEFF}" + sample)])
    #expect(result.status == .ok, "\(result.errors)")
    #expect(marked.snapshot() == plain.snapshot())
  }

  @Test func aJSONLinesListThatIsNotAStringIsWarnedAboutAndKept() {
    let bench = TestBench()
    let input = bench.directory.write("home.jsonl", #"{"list": 42, "id": "r9", "title": "x"}"# + "\n")
    let result = bench.run(["import", input])
    #expect(result.status == .ok)
    #expect(result.errors.contains("home.jsonl:1: name should be a string (kept in extra.invalid)"))
    #expect(bench.snapshot().contains(#""extra": {"invalid":{"name":42}}"#))
  }

  /// `jq -S` and `json.dumps(sort_keys=True)` put a list's `symbol` after its `reminders`.
  /// Found by the fuzz harness (Fuzz/regressions/jsonl/empty-list-id.jsonl): a list stored
  /// under an empty UID could not be named again, so re-importing the export moved its
  /// reminders to the default list.
  @Test func anEmptyListIDIsNoIdentifierAndAReimportChangesNothing() throws {
    let bench = TestBench()
    let input = bench.directory.write(
      "in.jsonl",
      """
      {"list": "Home", "listId": "", "id": "a", "title": "A"}
      {"list": "Home", "id": "b", "title": "B"}

      """)
    let first = bench.run(["import", input, "--format", "jsonl"])
    #expect(first.status == .ok, "\(first.errors)")
    #expect(first.errors.contains("the list 'Home' has an empty UID"), "\(first.errors)")
    let exported = bench.directory.file("out.jsonl")
    #expect(bench.run(["export", "--format", "jsonl", "-o", exported]).status == .ok)
    let lines = try String(contentsOfFile: exported, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.allSatisfy { $0.contains(#""list":"Home""#) && !$0.contains(#""listId":"""#) }, "\(lines)")
    let again = bench.run(["import", exported, "--format", "jsonl", "--report", "json"])
    #expect(again.output.range(of: #""updated"\s*:\s*0\b"#, options: .regularExpression) != nil, "\(again.output)")
    #expect(again.output.range(of: #""unchanged"\s*:\s*2\b"#, options: .regularExpression) != nil, "\(again.output)")
  }

  @Test func listMembersAfterTheRemindersAreKept() throws {
    let bench = TestBench()
    let input = bench.directory.write(
      "sorted.json",
      #"""
      {"format": "remconv", "lists": [
        {"color": "not a colour", "id": "L1", "name": "Sorted", "reminders": [{"id": "r1", "title": "one"}], "symbol": "cart"},
        {"id": "L2", "reminders": [{"id": "r2", "title": "two"}], "name": "Named late", "createdAt": "2026-01-02T03:04:05Z"}
      ], "version": 1}
      """#)
    let result = bench.run(["import", input, "--report", "json"])
    #expect(result.status == .ok, "\(result.errors)")
    #expect(
      result.errors.components(separatedBy: "is not a #RRGGBB colour").count == 2, "warned once: \(result.errors)")
    let lists = try #require(try JSONParser.parse(bench.snapshot())["lists"]?.arrayValue)
    #expect(lists.map { $0["symbol"]?.stringValue } == ["cart", "list.bullet"])
    #expect(lists.map { $0["name"]?.stringValue } == ["Sorted", "Named late"])
    #expect(lists[1]["createdAt"]?.stringValue == "2026-01-02T03:04:05Z")
    #expect(lists.map { $0["reminders"]?.arrayValue?.count } == [1, 1])
    let before = bench.snapshot()
    let again = try JSONParser.parse(bench.run(["import", input, "--report", "json"]).output)
    #expect(again["unchanged"] == .number("2"))
    #expect(bench.snapshot() == before)
  }

  @Test func aListIDAfterItsRemindersIsRefused() {
    let bench = TestBench()
    let input = bench.directory.write(
      "late-id.json", #"{"format": "remconv", "lists": [{"name": "L", "reminders": [{"title": "x"}], "id": "L9"}]}"#)
    let result = bench.run(["import", input])
    #expect(result.status == .dataError)
    #expect(
      result.errors.contains("late-id.json:1:33: a list's \"id\" must come before its \"reminders\""),
      "\(result.errors)")
    #expect(bench.snapshot().contains(#""lists": []"#))
  }

  @Test func remindersWaitingForTheirListsNameAreBounded() {
    let bench = TestBench()
    let waiting = String(repeating: "{},", count: 100_000)
    let input = bench.directory.write(
      "nameless.json", #"{"format": "remconv", "lists": [{"reminders": ["# + waiting + #"{}], "name": "Late"}]}"#)
    let result = bench.run(["import", input])
    #expect(result.status == .dataError)
    #expect(
      result.errors.contains("nameless.json:1:33: more than 100000 reminders before their list's \"name\""),
      "\(result.errors)")
  }

  /// A value over the field limit, and a JSON Lines record over the line limit, are refused
  /// where they are, after reading no more than the limit.
  @Test func valuesAndLinesOverTheLimitsAreRefusedWithTheirLine() {
    let (bench, before) = Refusal.seededBench()
    let huge = String(repeating: "x", count: InputLimits.maximumFieldSize + 1)
    let document = bench.directory.write(
      "huge.json",
      "{\"format\": \"remconv\", \"lists\": [\n{\"name\": \"L\", \"reminders\": [\n{\"title\": \"\(huge)\"}]}]}\n")
    Refusal.check(
      bench.run(["import", document]), path: document, location: "3:",
      message: "a string is longer than the limit of \(InputLimits.maximumFieldSize) bytes", bench: bench,
      before: before)
    let lines = bench.directory.write(
      "huge.jsonl", #"{"list": "L", "title": "fine"}"# + "\n" + #"{"list": "L", "title": ""# + huge + "\"}\n")
    Refusal.check(
      bench.run(["import", lines]), path: lines, location: "2:",
      message: "a line is longer than the limit of \(InputLimits.maximumLineLength) bytes", bench: bench, before: before
    )
  }

  @Test func theVersionIsAWholeNumberFromOne() {
    let bench = TestBench()
    for version in ["1", "1.0", "1e0"] {
      let input = bench.directory.write("v.json", #"{"format": "remconv", "version": \#(version), "lists": []}"#)
      #expect(bench.run(["import", input]).status == .ok, "version \(version)")
    }
    for version in ["0", "-1", "0.5", "1.5", "\"1\"", "null", "1e999"] {
      let input = bench.directory.write("v.json", #"{"format": "remconv", "version": \#(version), "lists": []}"#)
      let result = bench.run(["import", input])
      #expect(result.status == .dataError, "version \(version)")
      #expect(result.errors.contains("not a version number"), "\(result.errors)")
    }
  }
}
