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
