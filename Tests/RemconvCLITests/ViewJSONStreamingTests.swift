import Foundation
import RemconvTestSupport
import Testing

/// `show --json` and `search --json` write their rows as SQLite finds them: the built binary,
/// run as a child process whose peak memory is the kernel's accounting of that child alone
/// (`MeasuredProcess`), needs no more memory for a view of eight times as many reminders. A
/// view collected before it is written holds every reminder shown (each with a note of a
/// kilobyte here): tens of megabytes more for the bigger store.
@Suite(.serialized, .needsRemconvBinary) struct ViewJSONStreamingTests {
  static let smallCount = 3_000
  static let bigCount = 24_000
  /// What the bigger store may add to the peak: SQLite's page cache filling up (2 MB) and
  /// the allocator's slack. The rows the bigger view would hold take more than 20 MB.
  static let allowedGrowthMegabytes = 8.0
  static let note = String(repeating: "forecast notes ", count: 70)

  /// A store of `count` reminders in one list (none a subtask), every fourth done, each with
  /// a note of about a kilobyte, imported by the binary.
  static func makeStore(count: Int, in directory: TemporaryDirectory) throws -> String {
    var lines = ""
    for index in 0..<count {
      let done = index % 4 == 0
      lines +=
        #"{"list":"Inbox","listId":"LIST-1","id":"R-\#(index)","title":"Forecast \#(index)","notes":"\#(note)","#
        + #""isDone":\#(done),"completedAt":\#(done ? "\"2026-01-02T00:00:00Z\"" : "null"),"flagged":false,"#
        + #""dueDate":"2027-01-0\#(index % 9 + 1)","priority":"none","tags":[],"extra":{}}"# + "\n"
    }
    let input = directory.path + "/r\(count).jsonl"
    try lines.write(toFile: input, atomically: true, encoding: .utf8)
    let store = directory.path + "/s\(count).sqlite"
    let imported = try MeasuredProcess.run(
      ["import", input, "--store", store, "--quiet"], scratch: directory.path, timeLimit: 300)
    try #require(imported.status == 0, "import: \(imported.summary)")
    return store
  }

  static func peak(_ arguments: [String], store: String, expecting count: Int, in directory: TemporaryDirectory)
    throws -> Double
  {
    let outcome = try MeasuredProcess.run(
      arguments + ["--json", "--store", store], scratch: directory.path, timeLimit: 300)
    try #require(outcome.status == 0, "\(arguments): \(outcome.summary)")
    let object = try JSONOutput.object(outcome.output)
    let members = try JSONOutput.array(object, "reminders").count
    let completed = try JSONOutput.array(object, "completed").count
    #expect(members + completed == count, "\(arguments)")
    #expect(object["count"] as? Int == members)
    #expect(object["completedCount"] as? Int == completed)
    return outcome.peakMegabytes
  }

  @Test(arguments: [["show", "Inbox"], ["show", "--scope", "all"], ["search", "forecast"]])
  func peakMemoryDoesNotGrowWithTheStore(_ command: [String]) throws {
    let directory = TemporaryDirectory()
    let small = try Self.makeStore(count: Self.smallCount, in: directory)
    let big = try Self.makeStore(count: Self.bigCount, in: directory)
    let smallPeak = try Self.peak(command, store: small, expecting: Self.smallCount, in: directory)
    let bigPeak = try Self.peak(command, store: big, expecting: Self.bigCount, in: directory)
    #expect(
      bigPeak - smallPeak < Self.allowedGrowthMegabytes,
      "\(command): \(smallPeak) MB for \(Self.smallCount) reminders, \(bigPeak) MB for \(Self.bigCount)")
  }
}
