import Foundation
import RemconvCLI
import RemconvCore
import RemconvTestSupport
import Testing

/// Every format that can both write and read carries the sample store there and back: the
/// store that comes back is the one that went out, for every field the format can carry.
@Suite struct CrossFormatRoundTripTests {
  /// Formats that write a single file and read it back. (Taskwarrior has projects, not lists:
  /// a list's colour, symbol and creation time are reported as `cannot-carry`; its reminder
  /// fields round-trip, as TaskwarriorTests prove against the real `task`.)
  static let fileFormats = ["json", "jsonl", "csv", "ics", "opml", "jcal"]

  static func sampleBench() -> TestBench {
    let bench = TestBench()
    let result = bench.run(["import", Repository.path("Samples/json/reminders.json"), "--quiet"])
    #expect(result.status == .ok, "\(result.errors)")
    return bench
  }

  /// JSON Lines cannot carry an empty list; everything else must come back identical.
  static func expectedSnapshot(after format: String, from original: String) -> String {
    guard format == "jsonl" else { return original }
    return original.replacingOccurrences(
      of: #"""
        ,
            {
              "id": "6F1C2B0E-5D7A-4C55-9F1E-3A1B2C3D4E04",
              "name": "Someday",
              "symbol": "sparkles",
              "color": "#AF52DE",
              "createdAt": "2026-07-04T10:00:00Z",
              "extra": {},
              "reminders": []
            }
        """#, with: "")
  }

  @Test(arguments: fileFormats)
  func theSampleStoreSurvivesARoundTrip(format: String) throws {
    let original = Self.sampleBench()
    let file = original.directory.file("export.\(format)")
    let exported = original.run(["export", "--format", format, "-o", file])
    #expect(exported.status == .ok, "\(exported.errors)")
    let copy = TestBench()
    let imported = copy.run(["import", file, "--format", format])
    #expect(imported.status == .ok, "\(imported.errors)")
    #expect(copy.snapshot() == Self.expectedSnapshot(after: format, from: original.snapshot()), "\(format)")
    // A second import of the same file changes nothing.
    let again = copy.run(["import", file, "--format", format, "--report", "json"])
    let report = try JSONParser.parse(again.output)
    #expect(report["added"] == .number(0) && report["updated"] == .number(0), "\(format): \(again.output)")
  }

  /// A vdir is a folder of folders: it keeps every list (empty ones too) and reminder, but not
  /// the order of the lists, which come back in folder-name order.
  @Test func vdirFoldersRoundTrip() {
    let original = Self.sampleBench()
    let folder = original.directory.file("vdir")
    #expect(original.run(["export", "--format", "vdir", "-o", folder]).status == .ok)
    let copy = TestBench()
    #expect(copy.run(["import", folder, "--format", "vdir"]).status == .ok)
    func lines(_ bench: TestBench) -> [String] {
      bench.run(["export", "--format", "jsonl"]).output.split(separator: "\n").map(String.init).sorted()
    }
    #expect(lines(copy) == lines(original))
    for list in ["Groceries", "Work", "Home", "Someday"] {
      let one = { (bench: TestBench) in bench.run(["export", "--format", "json", "--list", list]).output }
      #expect(one(copy) == one(original), "\(list)")
    }
  }

  /// jCal is the iCalendar model as JSON: iCalendar → jCal → iCalendar gives the same
  /// calendar, and both sides import to the same store.
  @Test func jCalAndICalendarCarryTheSameModel() throws {
    let original = Self.sampleBench()
    let ics = original.directory.file("a.ics")
    #expect(original.run(["export", "--format", "ics", "-o", ics]).status == .ok)
    let viaJCal = original.run(["convert", ics, "--to", "jcal"])
    #expect(viaJCal.status == .ok, "\(viaJCal.errors)")
    let jcal = original.directory.write("b.jcal", viaJCal.output)
    let back = original.run(["convert", jcal, "--from", "jcal", "--to", "ics"])
    #expect(back.status == .ok, "\(back.errors)")
    let fromICS = TestBench()
    let fromJCal = TestBench()
    #expect(fromICS.run(["import", ics]).status == .ok)
    #expect(fromJCal.run(["import", jcal]).status == .ok)
    #expect(fromICS.snapshot() == fromJCal.snapshot())
    #expect(fromICS.snapshot() == original.snapshot())
    // The iCalendar written after the trip has the same to-dos (DTSTAMP aside).
    func todos(_ text: String) -> [String] {
      text.components(separatedBy: "\r\n").filter { !$0.hasPrefix("DTSTAMP:") && !$0.hasPrefix("PRODID:") }
    }
    #expect(todos(back.output) == todos(try String(contentsOfFile: ics, encoding: .utf8)))
  }
}
