import Foundation
import RemconvCLI
import Testing
@testable import RemconvCore
import RemconvTestSupport

/// Hostile and broken XML: nothing read from outside the file, bounded time and memory,
/// located errors, nothing written.
@Suite struct OPMLSafetyTests {
  static let binary = Repository.path(".build/debug/remconv")
  private static let secret = "REMCONV-SECRET-7D1F"

  /// The peak resident memory of this process, in KiB.
  private static func peakMemory() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss
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
      ("in-text", "<!DOCTYPE opml [<!ENTITY x SYSTEM \"file://\(secretFile)\">]>\n<opml version=\"2.0\"><head><title>&x;</title></head>" + body, false),
      ("in-attribute", "<!DOCTYPE opml [<!ENTITY x SYSTEM \"file://\(secretFile)\">]>\n<opml version=\"2.0\"><head/><body><outline text=\"&x;\"/></body></opml>\n", false),
      ("parameter-entity", "<!DOCTYPE opml [<!ENTITY % p SYSTEM \"file://\(secretFile)\"> %p;]>\n<opml version=\"2.0\"><head/>" + body, true),
      ("external-dtd", "<!DOCTYPE opml SYSTEM \"file://\(dtd)\">\n<opml version=\"2.0\"><head/>" + body, true),
      ("network-dtd", "<!DOCTYPE opml SYSTEM \"http://127.0.0.1:9/evil.dtd\">\n<opml version=\"2.0\"><head/>" + body, true),
    ]
    for (name, document, imports) in cases {
      let path = bench.directory.write("\(name).opml", "<?xml version=\"1.0\"?>\n" + document)
      let started = Date()
      let result = bench.run(["import", path])
      #expect(Date().timeIntervalSince(started) < 5, "\(name) took too long")
      #expect(result.status == (imports ? .ok : .dataError), "\(name): \(result.errors)")
      let exported = bench.run(["export", "--format", "opml"]).output
      for text in [result.output, result.errors, exported] {
        #expect(!text.contains(Self.secret), "\(name) read the secret")
      }
      if imports { #expect(exported.contains("text=\"Harmless\""), "\(name)") }
    }
  }

  @Test func aBillionLaughsIsRefusedQuicklyWithBoundedMemory() {
    let (bench, before) = Self.populatedBench()
    let memoryBefore = Self.peakMemory()
    let started = Date()
    let result = bench.run(["import", OPMLTest.fixture("billion-laughs.opml")])
    #expect(Date().timeIntervalSince(started) < 2)
    #expect(Self.peakMemory() - memoryBefore < 64 * 1024, "the entity expansion grew memory")
    #expect(result.status == .dataError)
    #expect(result.errors.contains("billion-laughs.opml:19:26: malformed XML: Detected an entity reference loop"))
    #expect(bench.snapshot() == before)
  }

  @Test func aQuadraticBlowupIsRefusedWithoutExpandingIt() {
    let bench = TestBench()
    let big = String(repeating: "a", count: 100_000)
    let references = String(repeating: "&big;", count: 5_000)  // 500 MB if expanded
    let path = bench.directory.write(
      "quadratic.opml",
      "<?xml version=\"1.0\"?>\n<!DOCTYPE opml [<!ENTITY big \"\(big)\">]>\n<opml version=\"2.0\"><head/><body><outline text=\"\(references)\"/></body></opml>\n")
    let memoryBefore = Self.peakMemory()
    let started = Date()
    let result = bench.run(["import", path])
    #expect(Date().timeIntervalSince(started) < 2)
    #expect(Self.peakMemory() - memoryBefore < 64 * 1024)
    #expect(result.status == .dataError)
    #expect(result.errors.contains("quadratic.opml:3: the document uses the entity '&big;'"))
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
      "huge.opml", "<?xml version=\"1.0\"?>\n<opml version=\"2.0\"><head/><body><outline text=\"L\"><outline text=\"\(huge)\"/></outline></body></opml>\n")
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
    #expect(cut.errors.range(of: #"truncated\.opml:\d+:\d+: malformed XML: "#, options: .regularExpression) != nil, "\(cut.errors)")
    let empty = bench.directory.write("empty.opml", "")
    let nothing = bench.run(["import", empty])
    #expect(nothing.status == .dataError)
    #expect(nothing.errors.contains("empty.opml:1: the input is empty (0 bytes)"), "\(nothing.errors)")
    #expect(bench.run(["export", "--format", "jsonl"]).output.isEmpty)
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: binary)))
  func libxml2PrintsNothingOfItsOwn() throws {
    let directory = TemporaryDirectory()
    for fixture in ["malformed.opml", "billion-laughs.opml", "xxe-hostname.opml"] {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: Self.binary)
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
