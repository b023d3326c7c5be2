import Foundation
import RemconvCLI
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// remconv's own CSV: golden exports, lossless round trips, reading hand-made files.
@Suite struct RemconvCSVFormatTests {
  /// A bench holding the edge-case fixture (notes with newlines and quotes, leading spaces,
  /// non-ASCII, every due kind, tags with `;` and `\`, an empty list, extra data).
  static func edgeCaseBench() throws -> TestBench {
    let bench = TestBench()
    let result = bench.run(["import", CSVFixtures.path("edge-cases.json"), "--quiet"])
    try #require(result.status == .ok, "\(result.errors)")
    return bench
  }

  @Test func exportMatchesTheGoldenFile() throws {
    let bench = try Self.edgeCaseBench()
    let result = bench.run(["export", "--format", "csv"])
    #expect(result.status == .ok)
    CSVFixtures.expectGolden(result.output, "edge-cases.csv")
  }

  @Test func excelExportMatchesTheGoldenFile() throws {
    let bench = try Self.edgeCaseBench()
    let result = bench.run(["export", "--format", "csv", "--excel"])
    #expect(result.status == .ok)
    CSVFixtures.expectGolden(result.output, "edge-cases-excel.csv")
    #expect(result.output.utf8.starts(with: [0xEF, 0xBB, 0xBF]))
    // Every row ends with CRLF; the lone LFs left are inside quoted notes.
    #expect(result.output.hasSuffix("\r\n"))
    #expect(result.output.contains("'=SUM(A1:A2)"))
    #expect(result.output.contains(",'-1 looks like a number,"))
    #expect(result.output.contains(",'@mention starts with an at sign,"))
  }

  @Test func semicolonExportMatchesTheGoldenFile() throws {
    let bench = try Self.edgeCaseBench()
    let result = bench.run(["export", "--format", "csv", "--delimiter", "semicolon"])
    #expect(result.status == .ok)
    CSVFixtures.expectGolden(result.output, "edge-cases-semicolon.csv")
  }

  /// Export then import gives back exactly the same store, for every field.
  @Test(arguments: ["edge-cases.csv", "edge-cases-semicolon.csv"])
  func exportThenImportIsLossless(_ golden: String) throws {
    let original = try Self.edgeCaseBench()
    let copy = TestBench()
    let imported = copy.run(["import", CSVFixtures.path("golden/" + golden)])
    #expect(imported.status == .ok, "\(imported.errors)")
    #expect(copy.snapshot() == original.snapshot())
    // And the copy exports the same bytes again.
    #expect(copy.run(["export", "--format", "csv"]).output == original.run(["export", "--format", "csv"]).output)
  }

  @Test func importingTheSameFileTwiceChangesNothing() throws {
    let bench = TestBench()
    let file = CSVFixtures.path("golden/edge-cases.csv")
    #expect(bench.run(["import", file]).status == .ok)
    let before = bench.snapshot()
    let again = bench.run(["import", file, "--report", "json"])
    #expect(again.output.contains("\"unchanged\":6"))
    #expect(bench.snapshot() == before)
  }

  @Test func sampleIsTheExportOfTheJSONSample() throws {
    let bench = TestBench()
    #expect(bench.run(["import", Repository.path("Samples/json/reminders.json"), "--quiet"]).status == .ok)
    let export = bench.run(["export", "--format", "csv"]).output
    #expect(Array(export.utf8) == Array(Repository.read("Samples/csv/reminders.csv").utf8))
  }

  @Test func convertStreamsBothWays() throws {
    let bench = TestBench()
    let csv = bench.run(["convert", Repository.path("Samples/json/reminders.json"), "--to", "csv"])
    #expect(csv.status == .ok, "\(csv.errors)")
    let file = bench.directory.write("streamed.csv", csv.output)
    let back = bench.run(["convert", file, "--to", "json"])
    #expect(back.status == .ok, "\(back.errors)")
    let direct = TestBench()
    direct.run(["import", Repository.path("Samples/json/reminders.json"), "--quiet"])
    let viaCSV = TestBench()
    viaCSV.run(["import", viaCSV.directory.write("back.json", back.output), "--quiet"])
    #expect(viaCSV.snapshot() == direct.snapshot())
  }

  @Test func rowsMayComeInAnyOrderWithColumnsInAnyOrder() throws {
    let (bench, _, result) = CSVFixtures.importing(
      "hand.csv",
      """
      Title,parentId,id,list,Priority,dueDate,isDone
      Child,P-1,C-1,Errands,LOW,2026-12-01,TRUE
      Grandchild,C-1,G-1,Errands,,,
      Parent,,P-1,Errands,high,2026-12-01T09:00:00Z,false

      """)
    #expect(result.status == .ok, "\(result.errors)")
    let rows = try CSVFixtures.reminders(in: bench)
    #expect(rows.map { $0["title"]?.stringValue } == ["Parent", "Child", "Grandchild"])
    let child = try CSVFixtures.reminder("Child", in: rows)
    #expect(child["parentId"] == .string("P-1"))
    #expect(child["priority"] == .string("low"))
    #expect(child["isDone"] == .bool(true))
    #expect(try CSVFixtures.reminder("Grandchild", in: rows)["parentId"] == .string("C-1"))
    #expect(try CSVFixtures.reminder("Parent", in: rows)["dueDate"] == .string("2026-12-01T09:00:00Z"))
    #expect(rows.allSatisfy { $0["list"] == .string("Errands") })
  }

  @Test func unknownColumnsAreKeptInExtra() throws {
    let (bench, _, result) = CSVFixtures.importing(
      "extra.csv", "title,Estimate,Owner,\nPaint the fence,2h,\"\",\nMow,,Sam,stray\n")
    #expect(result.status == .ok, "\(result.errors)")
    let rows = try CSVFixtures.reminders(in: bench)
    // A quoted empty cell is kept as the empty string; a bare empty one is no value.
    #expect(
      try CSVFixtures.reminder("Paint the fence", in: rows)["extra"]
        == .object(["csv": .object(["Estimate": .string("2h"), "Owner": .string("")])]))
    #expect(
      try CSVFixtures.reminder("Mow", in: rows)["extra"]
        == .object(["csv": .object(["Owner": .string("Sam"), "column 4": .string("stray")])]))
    // Written back, the kept columns ride in `extra` and come back the same.
    let copy = TestBench()
    copy.run(["import", copy.directory.write("again.csv", bench.run(["export", "--format", "csv"]).output), "--quiet"])
    #expect(copy.snapshot() == bench.snapshot())
  }

  @Test func rowsLongerThanTheHeaderWarnAndKeepTheirCells() throws {
    let (bench, _, result) = CSVFixtures.importing("long.csv", "title,notes\nA,n,surplus\n")
    #expect(result.status == .ok)
    #expect(result.errors.contains("long.csv:2: the row has 3 fields but the header 2"))
    let row = try CSVFixtures.reminder("A", in: try CSVFixtures.reminders(in: bench))
    #expect(row["extra"] == .object(["csv": .object(["column 3": .string("surplus")])]))
  }

  @Test func badValuesWarnWithTheLineAndAreKept() throws {
    let (bench, file, result) = CSVFixtures.importing(
      "bad.csv", "title,isDone,priority,dueDate\n\"multi\nline\",ok,urgent,2026-13-01\n")
    #expect(result.status == .ok)
    #expect(result.errors.contains("bad.csv:2: isDone should be true or false"))
    #expect(result.errors.contains("bad.csv:2: 'urgent' is not a priority"))
    #expect(result.errors.contains("bad.csv:2: dueDate: '2026-13-01'"))
    let row = try CSVFixtures.reminder("multi\nline", in: try CSVFixtures.reminders(in: bench))
    #expect(
      row["extra"]?["invalid"]
        == .object(["isDone": .string("ok"), "priority": .string("urgent"), "dueDate": .string("2026-13-01")]))
    #expect(
      bench.run(["import", file, "--strict", "--store", bench.directory.file("strict.sqlite")]).status == .dataError)
  }

  @Test func missingTitleColumnIsNamed() throws {
    let (bench, _, result) = CSVFixtures.importing("notitle.csv", "name,notes\nA,b\n", ["--format", "csv"])
    #expect(result.status == .dataError)
    #expect(
      result.errors.contains("notitle.csv:1: the remconv CSV header has no 'title' column (its columns: name, notes)"))
    #expect(bench.run(["export", "--format", "json"]).output.contains("\"lists\": []"))
  }

  @Test func unterminatedQuoteFailsWithItsLineAndWritesNothing() throws {
    let (bench, _, result) = CSVFixtures.importing("broken.csv", "title,notes\nfine,ok\n\"broken,notes\nmore\n")
    #expect(result.status == .dataError)
    #expect(result.errors.contains("broken.csv:3:1: a quoted field opened on line 3 is never closed"))
    #expect(!bench.snapshot().contains("fine"))
  }

  @Test func duplicateColumnIsAnError() throws {
    let (_, _, result) = CSVFixtures.importing("dup.csv", "title,notes,Title\nA,b,c\n")
    #expect(result.status == .dataError)
    #expect(result.errors.contains("the column 'Title' appears twice in the header (columns 1 and 3)"))
  }

  @Test func delimiterOptionOverridesDetection() throws {
    let bench = TestBench()
    // Detection would choose the comma (two against one).
    let file = bench.directory.write("semi.csv", "title;notes\nTea, green, loose;kept\n")
    #expect(bench.run(["import", file, "--delimiter", "semicolon"]).status == .ok)
    let row = try CSVFixtures.reminder("Tea, green, loose", in: try CSVFixtures.reminders(in: bench))
    #expect(row["notes"] == .string("kept"))
  }

  @Test func tagCellsRoundTrip() {
    let cases: [[String]] = [
      ["a"], ["a", "b"], ["semi;colon", "back\\slash", "both\\;"], [""], ["", ""], [" spaced "],
    ]
    for tags in cases {
      var cell: [UInt8] = []
      CSVTagList.append(tags, to: &cell)
      #expect(CSVTagList.decode(String(decoding: cell, as: UTF8.self)) == tags)
    }
    #expect(CSVTagList.decode("errands;weekend") == ["errands", "weekend"])
    #expect(CSVTagList.decode("trailing\\") == ["trailing\\"])
  }

  @Test func detectionPicksRemconvCSVByHeader() throws {
    #expect(RemconvCSVFormat.descriptor.sniff?(Array("\u{FEFF}id,Title,notes\n".utf8)) == true)
    #expect(RemconvCSVFormat.descriptor.sniff?(Array("name;notes\n".utf8)) == false)
    let bench = TestBench()
    let result = bench.run(["import", "-", "--list", "Piped"], input: "title;notes\nFrom a pipe;x\n")
    #expect(result.status == .ok, "\(result.errors)")
    #expect(
      try CSVFixtures.reminder("From a pipe", in: try CSVFixtures.reminders(in: bench))["list"] == .string("Piped"))
  }
}
