import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// Random records, written as RFC 4180 says, read back as they were made: every field's bytes,
/// whether it was quoted, which are not UTF-8, and the line each record starts on. Read from
/// memory (every record whole in the buffer) and from a file (records across the reader's
/// 64 KiB buffers, which the parser reads byte by byte), so both ways of reading agree.
@Suite struct CSVParserRecordsPropertyTests {
  struct Field {
    var bytes: [UInt8]
    var quoted: Bool
  }

  struct Record {
    var fields: [Field]
    var line: Int
  }

  /// Pieces a field is made of: ASCII, two-byte UTF-8, a byte that is not UTF-8, and every
  /// byte the parser stops at.
  private static let pieces: [[UInt8]] = [
    Array("a".utf8), Array("Word ".utf8), Array("é".utf8), Array("Straße".utf8), [0xC3], Array(",".utf8),
    Array(";".utf8), Array("\"".utf8), Array("\r".utf8), Array("\n".utf8), Array("\r\n".utf8), Array("\t".utf8),
  ]

  private static func makeRecords(count: Int, seed: UInt64) -> (bytes: [UInt8], records: [Record]) {
    var random = SeededGenerator(seed: seed)
    var bytes: [UInt8] = []
    var records: [Record] = []
    var line = 1
    for _ in 0..<count {
      var fields: [Field] = []
      let start = line
      for index in 0..<Int.random(in: 2...7, using: &random) {
        var content: [UInt8] = []
        for _ in 0..<Int.random(in: 0...12, using: &random) {
          content += pieces.randomElement(using: &random)!
        }
        let special = content.contains { [0x2C, 0x22, 0x0D, 0x0A].contains($0) }
        let quoted = special || Bool.random(using: &random)
        if index > 0 { bytes.append(0x2C) }
        if quoted {
          bytes.append(0x22)
          for byte in content {
            bytes.append(byte)
            if byte == 0x22 { bytes.append(0x22) }
          }
          bytes.append(0x22)
          var position = 0
          while position < content.count {
            if content[position] == 0x0D {
              line += 1
              if position + 1 < content.count, content[position + 1] == 0x0A { position += 1 }
            } else if content[position] == 0x0A {
              line += 1
            }
            position += 1
          }
        } else {
          bytes += content
        }
        fields.append(Field(bytes: content, quoted: quoted))
      }
      bytes += [[0x0A], [0x0D, 0x0A], [0x0D]].randomElement(using: &random)!
      line += 1
      records.append(Record(fields: fields, line: start))
    }
    return (bytes, records)
  }

  private static func read(_ reader: ByteReader) throws -> [Record] {
    let parser = CSVParser(reader: reader, delimiter: 0x2C)
    var row = CSVRow()
    var records: [Record] = []
    while try parser.next(into: &row) {
      let invalid = Set(row.invalidUTF8)
      var fields: [Field] = []
      for index in 0..<row.count {
        let bytes = Array(row.bytes[row.range(of: index)])
        #expect(invalid.contains(index) == (String(validating: bytes, as: UTF8.self) == nil))
        fields.append(Field(bytes: bytes, quoted: row.quoted[index]))
      }
      records.append(Record(fields: fields, line: row.line))
    }
    return records
  }

  private static func expectSame(_ read: [Record], _ made: [Record]) {
    #expect(read.count == made.count)
    for (got, want) in zip(read, made) {
      #expect(got.line == want.line)
      #expect(got.fields.map(\.bytes) == want.fields.map(\.bytes), "record on line \(want.line)")
      #expect(got.fields.map(\.quoted) == want.fields.map(\.quoted), "record on line \(want.line)")
    }
  }

  @Test(arguments: [1, 2, 3, 4] as [UInt64])
  func recordsReadFromMemoryAndFromAFileAreTheRecordsWritten(seed: UInt64) throws {
    let (bytes, records) = Self.makeRecords(count: 4000, seed: seed)
    #expect(bytes.count > 3 * ByteReader.bufferSize)
    Self.expectSame(try Self.read(ByteReader(bytes: bytes, name: "memory.csv")), records)

    let directory = TemporaryDirectory()
    let path = directory.file("records.csv")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    Self.expectSame(try Self.read(try ByteReader.open(path: path)), records)
  }

  /// The last record without a line end, and one that ends on a quote: read as at the end of
  /// the input, where the buffer holds no line end after them.
  @Test func theLastRecordNeedsNoLineEnd() throws {
    for (text, last) in [("a,b\nc,\"d\"", ["c", "d"]), ("a,b\r\nc,d", ["c", "d"]), ("a,b\r", ["a", "b"])] {
      let reader = ByteReader(bytes: Array(text.utf8), name: "end.csv")
      let records = try Self.read(reader)
      #expect(records.last?.fields.map { String(decoding: $0.bytes, as: UTF8.self) } == last, "\(text)")
    }
  }
}
