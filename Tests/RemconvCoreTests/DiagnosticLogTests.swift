import Testing

@testable import RemconvCore

@Suite struct DiagnosticLogTests {
  @Test func keepsTheFirstDiagnosticsAndCountsTheRestExactly() {
    let log = DiagnosticLog(retainedLimit: 3)
    var shown = 0
    log.onReport = { _ in shown += 1 }
    for index in 0..<5 { log.warning("tag-space", "tag \(index)", uid: "t\(index)") }
    log.report(Diagnostic(.error, code: "bad-date", "no date"))
    #expect(log.entries.map(\.message) == ["tag 0", "tag 1", "tag 2"])
    #expect(log.omitted == ["tag-space": 2, "bad-date": 1])
    #expect(log.warningCount == 5)
    #expect(log.errorCount == 1)
    #expect(shown == 6, "every diagnostic is shown as it comes, kept or not")
  }

  @Test func anImportReportCarriesTheTotalsAndTheOmittedCounts() throws {
    let log = DiagnosticLog(retainedLimit: 1)
    log.warning("tag-space", "first")
    log.warning("tag-space", "second")
    var report = ImportReport(source: "tasks.json", format: "taskwarrior")
    report.record(log)
    #expect(report.diagnostics.count == 1)
    #expect(report.warningCount == 2)
    #expect(report.summary.hasSuffix("; 2 warnings"))
    #expect(report.json["omittedDiagnostics"] == .object(["tag-space": .number(1)]))
  }
}
