import Foundation
import Testing
import RemconvCLI
import RemconvCore
import RemconvTestSupport

/// The CSV options of the command line: `--delimiter`, `--excel`, detection.
@Suite struct CSVCommandTests {
  @Test func importDetectsRemconvCSVFromItsHeader() {
    let bench = TestBench()
    let file = bench.directory.write("tasks.csv", "title,list\nBuy milk,Groceries\n")
    let result = bench.run(["import", file])
    #expect(result.status == .ok, "\(result.errors)")
    #expect(bench.snapshot().contains("\"Buy milk\""))
  }
}
