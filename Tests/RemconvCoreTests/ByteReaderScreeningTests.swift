import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// `ByteReader` refuses what is not UTF-8 text (a NUL byte, a UTF-16 byte order mark) where the
/// format reaches it, naming the line and column, and bounds a line.
@Suite struct ByteReaderScreeningTests {
  /// Reads every line of `path` until the end or an error.
  static func readLines(of path: String) -> (lines: [[UInt8]], error: RemconvError?) {
    var lines: [[UInt8]] = []
    do {
      let reader = try ByteReader.open(path: path)
      while let line = try reader.readLine() { lines.append(line) }
      return (lines, nil)
    } catch {
      return (lines, error)
    }
  }

  @Test func everyLineEndingIsFoundAcrossBuffersInAnyMix() throws {
    // Lines of every length around the buffer's, ended by LF, CRLF and a lone CR in turn, so
    // that endings fall on, before and after every buffer boundary; a CRLF split by one too.
    let directory = TemporaryDirectory()
    let endings: [[UInt8]] = [[0x0A], [0x0D, 0x0A], [0x0D]]
    var bytes: [UInt8] = []
    for index in 0..<600 {
      bytes += Array(repeating: UInt8(ascii: "a") + UInt8(index % 26), count: (index * 7919) % 700) + endings[index % 3]
    }
    let split = ByteReader.bufferSize - 1
    bytes.replaceSubrange(split..<split, with: [0x0D, 0x0A])
    // The lines as RFC 5545 and RFC 4180 readers see them, byte by byte.
    var expected: [[UInt8]] = []
    var current: [UInt8] = []
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x0A || byte == 0x0D {
        expected.append(current)
        current = []
        if byte == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
      } else {
        current.append(byte)
      }
      index += 1
    }
    if !current.isEmpty { expected.append(current) }
    let path = directory.file("endings.txt")
    #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
    let (lines, error) = Self.readLines(of: path)
    #expect(error.map(String.init(describing:)) == nil)
    #expect(lines == expected)
    #expect(lines.count > 600)
    var fromMemory: [[UInt8]] = []
    let reader = ByteReader(bytes: bytes, name: "endings.txt")
    while let line = try reader.readLine() { fromMemory.append(line) }
    #expect(fromMemory == expected)
  }

  @Test func aNULByteFarIntoAFileIsRefusedWithItsLineAndColumn() throws {
    let directory = TemporaryDirectory()
    // 3000 lines of 40 bytes: the NUL sits in the second 64 KiB buffer.
    var text = ""
    for index in 0..<3000 { text += String(repeating: "x", count: 35) + String(format: "%04d", index) + "\n" }
    var bytes = Array(text.utf8)
    bytes.insert(contentsOf: Array("abc".utf8) + [0] + Array("def\n".utf8), at: 2000 * 40)
    let path = directory.file("nul.txt")
    #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
    let (lines, error) = Self.readLines(of: path)
    #expect(lines.count == 2000)
    guard case .malformedInput(let message, let location, _) = error else {
      Issue.record("expected malformed input, got \(String(describing: error))")
      return
    }
    #expect(message.contains("a NUL byte"))
    #expect(location == SourceLocation(file: path, line: 2001, column: 4))
  }

  @Test func bytesBeforeANULAreServedAndTheNULIsNot() throws {
    let reader = ByteReader(bytes: Array("ab\ncd".utf8) + [0, 0x65], name: "memory")
    #expect(try reader.readLine() == Array("ab".utf8))
    #expect(try reader.next() == UInt8(ascii: "c"))
    #expect(try reader.next() == UInt8(ascii: "d"))
    #expect(throws: RemconvError.self) { try reader.peek() }
    do {
      _ = try reader.next()
      Issue.record("the NUL byte was served")
    } catch {
      #expect("\(error)" == "memory:2:3: a NUL byte: this is not UTF-8 text (UTF-16, or a binary file?)")
    }
  }

  @Test(arguments: [[0xFF, 0xFE, 0x7B, 0x00], [0xFE, 0xFF, 0x00, 0x7B]] as [[UInt8]])
  func aUTF16ByteOrderMarkIsNamed(bytes: [UInt8]) throws {
    let directory = TemporaryDirectory()
    let path = directory.file("utf16.json")
    #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
    let reader = try ByteReader.open(path: path)
    do {
      _ = try reader.readAll()
      Issue.record("UTF-16 was read as UTF-8")
    } catch {
      #expect("\(error)".hasPrefix("\(path):1:1: the input is UTF-16 or UTF-32"))
    }
  }

  @Test func peekingTheHeadForDetectionStillRefusesItLater() throws {
    let reader = ByteReader(bytes: [0x7B, 0x00, 0x7D], name: "<stdin>")
    #expect(try reader.peekPrefix(4096) == [0x7B, 0x00, 0x7D])
    #expect(try reader.next() == 0x7B)
    #expect(throws: RemconvError.self) { try reader.next() }
  }

  @Test func aUTF8ByteOrderMarkAndNonASCIITextPass() throws {
    let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("crème brûlée\n✓".utf8)
    let reader = ByteReader(bytes: bytes, name: "memory")
    #expect(try reader.readAll() == bytes)
  }

  @Test func aDocumentOverTheLimitIsRefusedNotRead() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("large.ics")
    #expect(FileManager.default.createFile(atPath: path, contents: Data(repeating: 0x41, count: 300_000)))
    let reader = try ByteReader.open(path: path)
    do {
      _ = try reader.readAll(limit: 100_000)
      Issue.record("the document was read")
    } catch {
      #expect("\(error)" == "\(path): larger than the limit of 100000 bytes")
    }
  }

  @Test func aLineOverTheLimitNamesItsLine() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("long.txt")
    let bytes = Array("one\ntwo\n".utf8) + [UInt8](repeating: 0x61, count: 200_000)
    #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
    let reader = try ByteReader.open(path: path)
    #expect(try reader.readLine(limit: 100_000) == Array("one".utf8))
    #expect(try reader.readLine(limit: 100_000) == Array("two".utf8))
    do {
      _ = try reader.readLine(limit: 100_000)
      Issue.record("the long line was read")
    } catch {
      #expect("\(error)".hasPrefix("\(path):3:"))
      #expect("\(error)".contains("a line is longer than the limit of 100000 bytes"))
    }
  }
}

/// An empty input is refused by the command line for every format; what has content is not.
@Suite struct EmptyInputTests {
  @Test func anEmptyFileIsMalformedAtLineOne() throws {
    let directory = TemporaryDirectory()
    let path = directory.write("empty.jsonl", "")
    do {
      try InputSource.file(path).requireContent(preopened: nil)
      Issue.record("an empty file was accepted")
    } catch {
      #expect("\(error)" == "\(path):1: the input is empty (0 bytes)")
    }
    let blank = directory.write("blank.jsonl", "\n")
    try InputSource.file(blank).requireContent(preopened: nil)
  }

  @Test func emptyStandardInputIsRefusedAndAPipeIsNotMistakenForEmpty() throws {
    #expect(throws: RemconvError.self) {
      try InputSource.standardInput.requireContent(preopened: ByteReader(bytes: [], name: "<stdin>"))
    }
    try InputSource.standardInput.requireContent(preopened: ByteReader(bytes: [0x7B], name: "<stdin>"))
    // A character device (and a named pipe) reports size 0 before it is read.
    try InputSource.file("/dev/zero").requireContent(preopened: nil)
  }
}
