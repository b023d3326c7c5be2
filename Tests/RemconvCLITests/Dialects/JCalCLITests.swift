import Foundation
import RemconvCLI
import RemconvCore
import RemconvTestSupport
import Testing

@Suite struct JCalCLITests {
  /// `Samples/jcal/reminders.jcal` is the jCal export of `Samples/json/reminders.json`.
  @Test func sampleIsTheExportOfTheJSONSample() {
    let bench = TestBench()
    #expect(bench.run(["import", Repository.path("Samples/json/reminders.json")]).status == .ok)
    let result = bench.run(["export", "--format", "jcal"])
    #expect(result.status == .ok, "\(result.errors)")
    #expect(
      withoutTimeZoneBodies(result.output) == withoutTimeZoneBodies(Repository.read("Samples/jcal/reminders.jcal")))
  }

  /// The jCal with each VTIMEZONE cut to its TZID: their observances come from the system's
  /// time-zone database, which changes with its releases (as `ICSTest.withoutTimeZoneBodies`).
  private func withoutTimeZoneBodies(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      guard line.hasPrefix("[\"vtimezone\","), let end = line.range(of: "]")?.upperBound else { return String(line) }
      return String(line[..<end])
    }.joined(separator: "\n")
  }

  /// remconv → jCal → remconv gives the same store: lists (name, colour, symbol, creation time,
  /// UID) and reminders, field for field.
  @Test func aTripThroughJCalChangesNothing() throws {
    let source = TestBench()
    #expect(source.run(["import", Repository.path("Samples/json/reminders.json")]).status == .ok)
    let target = TestBench()
    let path = target.directory.write("out.jcal", source.run(["export", "--format", "jcal"]).output)
    let imported = target.run(["import", path, "--strict"])
    #expect(imported.status == .ok, "\(imported.errors)")
    #expect(target.snapshot() == source.snapshot())
    let again = try DialectCLI.reportCounts(target.run(["import", path, "--report", "json"]).output)
    #expect(again.added == 0 && again.updated == 0 && again.unchanged == 11)
  }

  @Test func brokenStructureIsRefusedWithItsLocation() {
    DialectCLI.expectRefused(
      DialectCLI.fixture("jcal", "bad-truncated.json"), format: nil, located: "bad-truncated.json:2:63")
    DialectCLI.expectRefused(
      DialectCLI.fixture("jcal", "bad-property.json"), format: nil, located: "bad-property.json:3:1")
    DialectCLI.expectRefused(
      DialectCLI.fixture("jcal", "bad-component.json"), format: "jcal", located: "bad-component.json:2:1")
  }
}
