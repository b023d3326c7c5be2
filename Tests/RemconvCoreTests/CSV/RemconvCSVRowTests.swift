import RemconvCLI
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// remconv's CSV rows with every column filled: what the writer spells cell by cell (JSON
/// cells, tags, list cells kept from row to row) and what the reader gives back, row after row.
@Suite struct RemconvCSVRowTests {
  /// Reminders with every key, values that need quoting and escaping (delimiters, quotes,
  /// line breaks, tabs, leading and trailing spaces, non-ASCII), a recurrence with dates of
  /// each kind, alarms of both triggers, and rows of two lists alternating.
  static let input = CSVFixtures.path("every-column.jsonl")

  @Test(arguments: [
    ([], "every-column.csv"), (["--delimiter", "semicolon"], "every-column-semicolon.csv"),
    (["--excel"], "every-column-excel.csv"),
  ])
  func everyColumnIsWrittenAsTheGoldenFile(_ options: [String], _ golden: String) throws {
    let result = TestBench().run(["convert", Self.input, "--to", "csv"] + options)
    #expect(result.status == .ok, "\(result.errors)")
    CSVFixtures.expectGolden(result.output, golden)
  }

  @Test func jsonLinesWriteTheRecurrenceAndAlarmsAsTheGoldenFile() throws {
    let result = TestBench().run(["convert", Self.input, "--to", "jsonl"])
    #expect(result.status == .ok, "\(result.errors)")
    CSVFixtures.expectGolden(result.output, "every-column.jsonl")
  }

  @Test(arguments: ["every-column.csv", "every-column-semicolon.csv"])
  func theRowsReadBackAsTheReminders(_ golden: String) throws {
    let bench = TestBench()
    let back = bench.run(["convert", CSVFixtures.path("golden/" + golden), "--to", "jsonl"])
    #expect(back.status == .ok, "\(back.errors)")
    #expect(back.output == bench.run(["convert", Self.input, "--to", "jsonl"]).output)
  }

  /// Each row is decoded on its own: a bare empty or missing cell is no value, whatever the
  /// row before held in that column.
  @Test func aRowKeepsNothingOfTheRowBefore() throws {
    let bench = TestBench()
    let file = bench.directory.write(
      "rows.csv",
      """
      title,notes,dueDate,dueTimeZone,recurrence,alarms,tags,url,flagged,priority,extra,Owner
      Full,n,2026-03-02T09:00:00,Europe/Berlin,"{""rule"":""FREQ=DAILY""}","[{""offset"":-60}]",a;b,https://x,true,high,"{""k"":1}",Sam
      Bare,,,,,,,,,,,
      Full again,n,2026-03-02,,"{""rule"":""FREQ=DAILY""}","[{""offset"":-60}]",a;b,https://x,true,high,"{""k"":1}",Sam
      Short,m

      """)
    let result = bench.run(["convert", file, "--to", "jsonl"])
    #expect(result.status == .ok, "\(result.errors)")
    let lines = try result.output.split(separator: "\n").map { line in
      try #require(try JSONParser.parse(String(line)).objectValue)
    }
    try #require(lines.count == 4)
    let full = lines[0]
    #expect(full["recurrence"]?.objectValue?["rule"] == .string("FREQ=DAILY"))
    #expect(full["alarms"]?.arrayValue?.count == 1)
    #expect(full["tags"] == .array([.string("a"), .string("b")]))
    #expect(full["extra"] == .object(["k": .number("1"), "csv": .object(["Owner": .string("Sam")])]))
    for empty in [lines[1], lines[3]] {
      #expect(empty["notes"] == .string(empty["title"] == .string("Short") ? "m" : ""))
      for key in ["dueDate", "dueTimeZone", "recurrence", "url"] { #expect(empty[key] == .null, "\(key)") }
      #expect(empty["alarms"] == .array([]))
      #expect(empty["tags"] == .array([]))
      #expect(empty["flagged"] == .bool(false))
      #expect(empty["priority"] == .string("none"))
      #expect(empty["extra"] == .object([:]))
    }
    #expect(lines[2]["dueDate"] == .string("2026-03-02"))
    #expect(lines[2]["dueTimeZone"] == .null)
  }

  /// Cells written one by one, and cells encoded once and repeated, give the bytes
  /// `writeRow` gives for the same cells.
  @Test(arguments: [(UInt8(ascii: ","), false), (UInt8(ascii: ";"), false), (UInt8(ascii: ","), true)])
  func cellsAppendedOneByOneAreTheRowWritten(_ delimiter: UInt8, _ excel: Bool) throws {
    let cells: [String?] = ["=1", nil, "", "a,b", "c;d", "say \"hi\"", "two\nlines", " x", "é 🙂", "-"]
    let whole = ByteWriter()
    let rows = try CSVRowWriter(output: whole, delimiter: delimiter, excel: excel)
    try rows.writeRow(cells + cells)
    try rows.writeRow(cells)
    try rows.flush()

    let pieces = ByteWriter()
    let cellByCell = try CSVRowWriter(output: pieces, delimiter: delimiter, excel: excel)
    let encoded = cellByCell.encodedCells(cells)
    try cellByCell.writeRow { row in
      for cell in cells {
        if let cell { row.append { $0 += cell.utf8 } } else { row.append(nil) }
      }
      row.append(encoded)
    }
    // Encoded cells first in a row: the row does not start with a delimiter.
    try cellByCell.writeRow { $0.append(encoded) }
    try cellByCell.flush()
    #expect(pieces.memory == whole.memory)
  }
}
