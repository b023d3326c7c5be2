import Foundation
import RemconvCLI
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// Hostile and broken XML: nothing read from outside the file, bounded time and memory,
/// located errors, nothing written.
///
/// Time and memory are measured on the built binary run as a child process (`MeasuredProcess`):
/// its own CPU time and peak memory, which neither the suites running beside it in this
/// process nor other builds on the machine change, under limits the kernel enforces on the
/// child alone. An entity expansion that runs away is stopped by them (`SIGXCPU`, a failed
/// allocation) and the test fails on the status, whatever the load.
@Suite(.needsRemconvBinary) struct OPMLSafetyTests {
  private static let secret = "REMCONV-SECRET-7D1F"

  /// What a refused hostile document may cost: a few hundredths of a second and some 35 MB
  /// are what a debug build takes; expanding the entities takes gigabytes.
  static let cpuSeconds = 5.0
  static let peakMegabytes = 100.0
  static let limits = MeasuredProcess.Limits(cpuSeconds: 30, addressSpaceMegabytes: 1024)
  /// A run still going after this is killed: a hang (a network fetch) fails instead of waiting.
  static let timeLimit = 60.0

  /// `remconv import --store STORE PATH` as a measured child process.
  private static func measuredImport(_ path: String, into bench: TestBench) throws -> MeasuredOutcome {
    try MeasuredProcess.run(
      ["import", "--store", bench.storePath, path], scratch: bench.directory.path, timeLimit: timeLimit, limits: limits)
  }

  /// A bench holding the sample, and its snapshot: what must not change.
  private static func populatedBench() -> (TestBench, String) {
    let bench = TestBench()
    bench.run(["import", Repository.path("Samples/json/reminders.json")])
    return (bench, bench.snapshot())
  }

  /// `convert -o` of a refused input fails and leaves no output file behind.
  private static func expectConvertWritesNothing(_ input: String, _ bench: TestBench) {
    let output = bench.directory.file("converted.json")
    #expect(bench.run(["convert", input, "--to", "json", "-o", output]).status == .dataError)
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  @Test func anExternalEntityOnALocalFileIsRefusedAndNothingIsWritten() {
    let (bench, before) = Self.populatedBench()
    let result = bench.run(["import", OPMLTest.fixture("xxe-hostname.opml")])
    #expect(result.status == .dataError)
    #expect(result.errors.contains("xxe-hostname.opml:7: the document uses the entity '&host;' declared in its DTD"))
    #expect(bench.snapshot() == before)
  }

  @Test func noExternalEntityOrDTDIsEverRead() throws {
    let bench = TestBench()
    let secretFile = bench.directory.write("secret.txt", Self.secret)
    let dtd = bench.directory.write("evil.dtd", "<!ENTITY leak \"\(Self.secret)\">")
    let body = "<body><outline text=\"Inbox\"><outline text=\"Harmless\"/></outline></body></opml>\n"
    let cases: [(name: String, document: String, imports: Bool)] = [
      (
        "in-text",
        "<!DOCTYPE opml [<!ENTITY x SYSTEM \"file://\(secretFile)\">]>\n<opml version=\"2.0\"><head><title>&x;</title></head>"
          + body, false
      ),
      (
        "in-attribute",
        "<!DOCTYPE opml [<!ENTITY x SYSTEM \"file://\(secretFile)\">]>\n<opml version=\"2.0\"><head/><body><outline text=\"&x;\"/></body></opml>\n",
        false
      ),
      (
        "parameter-entity",
        "<!DOCTYPE opml [<!ENTITY % p SYSTEM \"file://\(secretFile)\"> %p;]>\n<opml version=\"2.0\"><head/>" + body,
        true
      ),
      ("external-dtd", "<!DOCTYPE opml SYSTEM \"file://\(dtd)\">\n<opml version=\"2.0\"><head/>" + body, true),
      (
        "network-dtd", "<!DOCTYPE opml SYSTEM \"http://127.0.0.1:9/evil.dtd\">\n<opml version=\"2.0\"><head/>" + body,
        true
      ),
    ]
    for (name, document, imports) in cases {
      let path = bench.directory.write("\(name).opml", "<?xml version=\"1.0\"?>\n" + document)
      let result = try Self.measuredImport(path, into: bench)
      #expect(!result.timedOut && result.cpuSeconds < Self.cpuSeconds, "\(name): \(result.summary)")
      #expect(result.status == (imports ? 0 : 65), "\(name): \(result.summary)")
      let exported = bench.run(["export", "--format", "opml"]).output
      for text in [result.output, result.errors, exported] {
        #expect(!text.contains(Self.secret), "\(name) read the secret")
      }
      if imports { #expect(exported.contains("text=\"Harmless\""), "\(name)") }
    }
  }

  @Test func aBillionLaughsIsRefusedQuicklyWithBoundedMemory() throws {
    let (bench, before) = Self.populatedBench()
    let result = try Self.measuredImport(OPMLTest.fixture("billion-laughs.opml"), into: bench)
    #expect(result.cpuSeconds < Self.cpuSeconds, "\(result.summary)")
    #expect(result.peakMegabytes < Self.peakMegabytes, "the entity expansion grew memory: \(result.summary)")
    #expect(result.status == 65, "\(result.summary)")
    #expect(
      result.errors.contains("billion-laughs.opml:19:26: malformed XML: Detected an entity reference loop"),
      "\(result.summary)")
    #expect(bench.snapshot() == before)
  }

  @Test func aQuadraticBlowupIsRefusedWithoutExpandingIt() throws {
    let bench = TestBench()
    let big = String(repeating: "a", count: 100_000)
    let references = String(repeating: "&big;", count: 5_000)  // 500 MB if expanded
    let path = bench.directory.write(
      "quadratic.opml",
      "<?xml version=\"1.0\"?>\n<!DOCTYPE opml [<!ENTITY big \"\(big)\">]>\n<opml version=\"2.0\"><head/><body><outline text=\"\(references)\"/></body></opml>\n"
    )
    let result = try Self.measuredImport(path, into: bench)
    #expect(result.cpuSeconds < Self.cpuSeconds, "\(result.summary)")
    #expect(result.peakMegabytes < Self.peakMegabytes, "the entity was expanded: \(result.summary)")
    #expect(result.status == 65, "\(result.summary)")
    #expect(result.errors.contains("quadratic.opml:3: the document uses the entity '&big;'"), "\(result.summary)")
  }

  @Test func tenThousandLevelsOfNestingAreAnErrorNotACrash() {
    let (bench, before) = Self.populatedBench()
    let depth = 10_000
    let document =
      "<?xml version=\"1.0\"?>\n<opml version=\"2.0\"><head><title>Deep</title></head><body>\n"
      + String(repeating: "<outline text=\"x\">\n", count: depth) + String(repeating: "</outline>\n", count: depth)
      + "</body></opml>\n"
    let path = bench.directory.write("deep.opml", document)
    let result = bench.run(["import", path])
    #expect(result.status == .dataError)
    #expect(result.errors.contains("deep.opml:258:18: elements are nested deeper than the limit of 256 levels"))
    #expect(bench.snapshot() == before)
    Self.expectConvertWritesNothing(path, bench)
  }

  @Test func aValueOverLibxml2sTenMegabyteLimitIsRefused() {
    let bench = TestBench()
    let huge = String(repeating: "a", count: 10_000_001)
    let path = bench.directory.write(
      "huge.opml",
      "<?xml version=\"1.0\"?>\n<opml version=\"2.0\"><head/><body><outline text=\"L\"><outline text=\"\(huge)\"/></outline></body></opml>\n"
    )
    let result = bench.run(["import", path])
    #expect(result.status == .dataError)
    #expect(result.errors.contains("huge.opml:2:"))
    #expect(result.errors.contains("a text or attribute value is longer than the limit of 10000000 bytes"))
  }

  @Test func malformedXMLExits65WithLineAndColumnAndWritesNothing() {
    let (bench, before) = Self.populatedBench()
    let result = bench.run(["import", OPMLTest.fixture("malformed.opml")])
    #expect(result.status == .dataError)
    #expect(result.errors.contains("malformed.opml:9:5: malformed XML: Unescaped '<' not allowed in attributes values"))
    #expect(bench.snapshot() == before)
    Self.expectConvertWritesNothing(OPMLTest.fixture("malformed.opml"), bench)
  }

  @Test func truncatedAndEmptyDocumentsAreLocatedErrors() {
    let bench = TestBench()
    let sample = Repository.read("Samples/opml/reminders.opml")
    let truncated = bench.directory.write("truncated.opml", String(sample.prefix(sample.utf8.count / 2)))
    let cut = bench.run(["import", truncated])
    #expect(cut.status == .dataError)
    #expect(
      cut.errors.range(of: #"truncated\.opml:\d+:\d+: malformed XML: "#, options: .regularExpression) != nil,
      "\(cut.errors)")
    let empty = bench.directory.write("empty.opml", "")
    let nothing = bench.run(["import", empty])
    #expect(nothing.status == .dataError)
    #expect(nothing.errors.contains("empty.opml:1: the input is empty (0 bytes)"), "\(nothing.errors)")
    #expect(bench.run(["export", "--format", "jsonl"]).output.isEmpty)
  }

  @Test func libxml2PrintsNothingOfItsOwn() throws {
    let directory = TemporaryDirectory()
    for fixture in ["malformed.opml", "billion-laughs.opml", "xxe-hostname.opml"] {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: try RemconvBinary.required())
      process.arguments = ["import", OPMLTest.fixture(fixture)]
      process.environment = ["HOME": directory.path, "REMCONV_STORE": directory.file("store.sqlite")]
      let errors = Pipe()
      process.standardError = errors
      process.standardOutput = Pipe()
      try process.run()
      process.waitUntilExit()
      let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      #expect(process.terminationStatus == 65)
      #expect(text.split(separator: "\n").count == 1, "\(fixture): \(text)")
      #expect(text.hasPrefix("remconv: error: "), "\(fixture): \(text)")
    }
  }
}
