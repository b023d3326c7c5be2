import Foundation
import RemconvCLI
import RemconvTestSupport
import Testing

@testable import RemconvCore

@Suite struct OPMLRoundTripTests {
  static let producerFixtures = [
    "workflowy.opml", "omnioutliner.opml", "dynalist.opml", "logseq.opml", "todoist.opml", "flat.opml",
  ]
  /// The shared corpus sits beside the repository (`../shared/corpus`); a worktree is one or
  /// two folders deeper.
  static let corpusFiles: [String] = {
    var folder = URL(fileURLWithPath: Repository.root)
    for _ in 0..<3 {
      folder.deleteLastPathComponent()
      let corpus = folder.appendingPathComponent("shared/corpus/opml").path
      if let names = try? FileManager.default.contentsOfDirectory(atPath: corpus) {
        return names.filter { $0.hasSuffix(".opml") }.sorted().map { corpus + "/" + $0 }
      }
    }
    return []
  }()

  /// Imports `path`, exports OPML, imports that into a fresh store: both stores must be equal,
  /// and exporting the second gives the same OPML again. Returns the first export.
  @discardableResult
  private func roundTrip(_ path: String) throws -> String {
    let first = TestBench()
    #expect(first.run(["import", path]).status == .ok)
    let exported = first.run(["export", "--format", "opml"])
    #expect(exported.status == .ok)
    let file = first.directory.write("exported.opml", exported.output)
    let second = TestBench()
    let reimport = second.run(["import", file])
    #expect(reimport.status == .ok, "\(reimport.errors)")
    #expect(second.snapshot() == first.snapshot(), "\(path) changed on its way through OPML")
    #expect(second.run(["export", "--format", "opml"]).output == exported.output)
    return exported.output
  }

  @Test func remconvOPMLRoundTripsLosslessly() throws {
    let exported = try roundTrip(Repository.path("Samples/opml/reminders.opml"))
    #expect(exported == Repository.read("Samples/opml/reminders.opml"))
  }

  @Test(arguments: producerFixtures)
  func producerFilesRoundTripThroughTheStore(_ name: String) throws {
    try roundTrip(OPMLTest.fixture(name))
  }

  @Test func outlinersTextAndAttributesSurviveTheRoundTrip() throws {
    let exported = try roundTrip(OPMLTest.fixture("omnioutliner.opml"))
    #expect(
      exported.contains(
        #"<outline text="Plant tulip bulbs" _note="Before the first frost&#10;Red and yellow" _complete="true" _status="checked""#
      ))
    #expect(exported.contains(#"Priority="High""#))
    #expect(exported.contains(#"<outline text="Prune the roses""#) && exported.contains(#"_status="indeterminate""#))
    let workflowy = try roundTrip(OPMLTest.fixture("workflowy.opml"))
    #expect(workflowy.contains(#"text="Buy &lt;b&gt;white&lt;/b&gt; paint for the &lt;i&gt;fence&lt;/i&gt;""#))
  }

  @Test func jsonToOPMLToJSONKeepsEverything() {
    let direct = TestBench()
    direct.run(["import", Repository.path("Samples/json/reminders.json")])
    let throughOPML = TestBench()
    let opml = throughOPML.directory.file("sample.opml")
    #expect(
      throughOPML.run(["convert", Repository.path("Samples/json/reminders.json"), "--to", "opml", "-o", opml]).status
        == .ok)
    let json = throughOPML.directory.file("back.json")
    #expect(throughOPML.run(["convert", opml, "--to", "json", "-o", json]).status == .ok)
    #expect(throughOPML.run(["import", json]).status == .ok)
    #expect(throughOPML.snapshot() == direct.snapshot())
  }

  @Test func opmlToJSONToOPMLKeepsEverything() {
    let bench = TestBench()
    let json = bench.directory.file("workflowy.json")
    #expect(bench.run(["convert", OPMLTest.fixture("workflowy.opml"), "--to", "json", "-o", json]).status == .ok)
    let opml = bench.directory.file("workflowy.opml")
    #expect(bench.run(["convert", json, "--to", "opml", "-o", opml]).status == .ok)
    let viaJSON = TestBench()
    viaJSON.run(["import", opml])
    let direct = TestBench()
    direct.run(["import", OPMLTest.fixture("workflowy.opml")])
    #expect(viaJSON.snapshot() == direct.snapshot())
  }

  @Test func subtasksNestToTheDocumentedLimit() throws {
    // <opml> and <body> take two of the element levels: 254 outlines are a list, a reminder
    // and 252 levels of subtasks.
    let outlines = InputLimits.maximumNestingDepth - 2
    var document = "<?xml version=\"1.0\"?>\n<opml version=\"2.0\"><head><title>Deep</title></head><body>\n"
    for level in 0..<outlines { document += "<outline text=\"level \(level)\">\n" }
    document += String(repeating: "</outline>\n", count: outlines) + "</body></opml>\n"
    let bench = TestBench()
    let path = bench.directory.write("deep.opml", document)
    try roundTrip(path)
    let records = try OPMLTest.read(file: path)
    #expect(records.lists.map(\.name) == ["level 0"])
    #expect(records.reminders.count == outlines - 1)
    #expect(records.reminders.last?.parentID == records.reminders.dropLast().last?.id)
  }

  @Test(.enabled(if: !OPMLRoundTripTests.corpusFiles.isEmpty, "the shared corpus is not on this machine"))
  func everyCorpusFileImports() {
    for file in Self.corpusFiles {
      let bench = TestBench()
      let result = bench.run(["import", file])
      #expect(result.status == .ok, "\(file): \(result.errors)")
      #expect(!bench.run(["export", "--format", "jsonl"]).output.isEmpty, "\(file) imported no reminders")
    }
  }
}
