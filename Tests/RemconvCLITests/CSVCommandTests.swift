import Foundation
import RemconvCLI
import RemconvCore
import RemconvTestSupport
import Testing

/// The CSV side of the command line: detection, `--delimiter`, `--excel`, `formats`.
@Suite struct CSVCommandTests {
  static func fixture(_ name: String) -> String { Repository.path("Tests/RemconvCLITests/Fixtures/csv/" + name) }

  @Test func importDetectsRemconvCSVFromItsHeader() {
    let bench = TestBench()
    let file = bench.directory.write("tasks.csv", "title,list\nBuy milk,Groceries\n")
    let result = bench.run(["import", file, "--report", "json"])
    #expect(result.status == .ok, "\(result.errors)")
    #expect(result.output.contains("\"format\":\"csv\""))
    #expect(bench.snapshot().contains("\"Buy milk\""))
  }

  /// A file saved by a spreadsheet in a comma-decimal locale: BOM, `;`, CRLF, quoted line breaks.
  @Test func importsASpreadsheetSavedSemicolonFile() {
    let bench = TestBench()
    let result = bench.run(["import", Self.fixture("excel-semicolon.csv")])
    #expect(result.status == .ok, "\(result.errors)")
    let snapshot = bench.snapshot()
    #expect(snapshot.contains("\"title\":\"Brot kaufen\",\"notes\":\"Vollkorn; 2,5 kg\""))
    #expect(snapshot.contains("\"title\":\"Steuer\\r\\nerklärung\""))
    #expect(snapshot.contains("\"name\": \"Büro\""))
    // Excel's localised FALSCH is not a boolean remconv reads: a warning naming the line.
    #expect(result.errors.contains("excel-semicolon.csv:2: isDone should be true or false (kept in extra.invalid)"))
  }

  @Test func excelConversionWritesBOMAndCRLF() {
    let bench = TestBench()
    let result = bench.run(["convert", Repository.path("Samples/json/reminders.json"), "--to", "csv", "--excel"])
    #expect(result.status == .ok, "\(result.errors)")
    #expect(result.output.hasPrefix("\u{FEFF}id,title,"))
    #expect(result.output.contains(",listExtra,extra\r\n"))
  }

  @Test func exportWithATabDelimiterReadsBack() {
    let bench = TestBench()
    bench.run(["import", Repository.path("Samples/json/reminders.json"), "--quiet"])
    let path = bench.directory.file("reminders.tsv")
    let export = bench.run(["export", "--format", "csv", "--delimiter", "tab", "-o", path])
    #expect(export.status == .ok, "\(export.errors)")
    #expect(bench.directory.read("reminders.tsv").hasPrefix("id\ttitle\tnotes\t"))
    let copy = TestBench()
    #expect(copy.run(["import", path, "--format", "csv", "--quiet"]).status == .ok)
    #expect(copy.snapshot() == bench.snapshot())
  }

  @Test func outputExtensionChoosesRemconvCSV() {
    let bench = TestBench()
    bench.run(["import", Repository.path("Samples/json/reminders.json"), "--quiet"])
    let path = bench.directory.file("out.csv")
    #expect(bench.run(["export", "-o", path]).status == .ok)
    #expect(bench.directory.read("out.csv").hasPrefix("id,title,notes,isDone,"))
  }

  @Test func formatsListsTheDialects() {
    let output = TestBench().run(["formats"]).output
    #expect(output.contains("csv:todoist"))
    #expect(output.contains("csv:ticktick"))
    let ticktick = output.split(separator: "\n").first { $0.hasPrefix("csv:ticktick ") }
    #expect(ticktick?.contains("read ") == true)
    #expect(ticktick?.contains("write") == false)
  }

  @Test func tickTickCannotBeWritten() {
    let bench = TestBench()
    let result = bench.run(["convert", Repository.path("Samples/csv/reminders.csv"), "--to", "csv:ticktick"])
    #expect(result.status == .usage)
  }
}
