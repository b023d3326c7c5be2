import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCLI

/// The progress line of long imports and exports (drawn only on a terminal, see
/// `JSONFormatTests.progressIsDrawnOnlyOnATerminal`).
@Suite struct ProgressLineTests {
  @Test func tellsTheShareDoneAndTheTimeLeftWhenTheTotalIsKnown() {
    let line = ProgressLine.text(verb: "importing", count: 5000, elapsed: 2, fraction: 0.5)
    #expect(line == "importing 5000 items (2500/s), 50%, about 2 s left")
  }

  @Test func leavesTheEstimateOutWithoutATotalOrTooEarly() {
    #expect(
      ProgressLine.text(verb: "exporting", count: 300, elapsed: 0.5, fraction: nil) == "exporting 300 items (600/s)")
    #expect(
      ProgressLine.text(verb: "exporting", count: 300, elapsed: 0.5, fraction: 0.01) == "exporting 300 items (600/s)")
  }

  @Test func writesDurationsInTheirLargestUnits() {
    #expect(ProgressLine.duration(4.4) == "4 s")
    #expect(ProgressLine.duration(125) == "2 min 5 s")
    #expect(ProgressLine.duration(3780) == "1 h 3 min")
  }

  @Test func readsHowFarThisProcessHasReadAFile() throws {
    let folder = TemporaryDirectory()
    let path = folder.write("input.ics", String(repeating: "x", count: 1000))
    let position = try #require(InputPosition(path: path))
    #expect(position.size == 1000)
    #expect(position.fraction() == nil)
    let descriptor = open(path, O_RDONLY)
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 250)
    #expect(read(descriptor, &buffer, 250) == 250)
    #expect(position.fraction() == 0.25)
    #expect(InputPosition(path: folder.path) == nil)
    #expect(InputPosition(path: folder.write("empty.ics", "")) == nil)
  }
}
