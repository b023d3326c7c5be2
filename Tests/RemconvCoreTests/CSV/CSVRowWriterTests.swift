import Testing

@testable import RemconvCore

/// The CSV row writer: quoting only where needed, nil against "", --excel, delimiters.
@Suite struct CSVRowWriterTests {
  static let quoting: [(String?, String)] = [
    (nil, ""),
    ("", "\"\""),
    ("plain", "plain"),
    ("a,b", "\"a,b\""),
    ("say \"hi\"", "\"say \"\"hi\"\"\""),
    ("two\nlines", "\"two\nlines\""),
    ("cr\rhere", "\"cr\rhere\""),
    (" leading", "\" leading\""),
    ("trailing\t", "\"trailing\t\""),
    ("inner space", "inner space"),
    ("semi;colon", "semi;colon"),
    ("crème 🙂", "crème 🙂"),
    ("=1+2", "=1+2"),
  ]

  @Test(arguments: quoting)
  func quotesOnlyWhenNeeded(_ cell: String?, _ written: String) throws {
    #expect(try Self.write([[cell, "x"]]) == written + ",x\n")
  }

  @Test func semicolonDelimiterQuotesSemicolonsNotCommas() throws {
    let text = try Self.write([["a,b", "c;d"]], delimiter: UInt8(ascii: ";"))
    #expect(text == "a,b;\"c;d\"\n")
  }

  static let formulas: [(String, String)] = [
    ("=SUM(A1:A9)", "'=SUM(A1:A9)"),
    ("+49 30 1234", "'+49 30 1234"),
    ("-2", "'-2"),
    ("@mention", "'@mention"),
    ("\tindented", "\"'\tindented\""),
    ("\rreturn", "\"'\rreturn\""),
    ("=\"quoted\",x", "\"'=\"\"quoted\"\",x\""),
    ("a=b", "a=b"),
    ("'already", "'already"),
  ]

  @Test(arguments: formulas)
  func excelNeutralisesFormulaCells(_ cell: String, _ written: String) throws {
    let bytes = try Self.writeBytes([[cell]], excel: true)
    #expect(Array(bytes.prefix(3)) == [0xEF, 0xBB, 0xBF])
    #expect(String(decoding: bytes.dropFirst(3), as: UTF8.self) == written + "\r\n")
  }

  @Test func defaultOutputHasNoBOMAndLFLineEnds() throws {
    let bytes = try Self.writeBytes([["a"], ["b"]])
    #expect(bytes == Array("a\nb\n".utf8))
  }

  /// Whatever the writer writes, the parser reads back the same cells.
  @Test func parserReadsBackWhatTheWriterWrites() throws {
    let rows: [[String?]] = [
      ["", nil, "x"], ["\"", "\"\"", "a\r\nb"], ["\r", "\n", "\r\n\r\n"], [" ", "\t", ";"], ["é,ü", "日本", ""],
    ]
    for delimiter in [UInt8(ascii: ","), UInt8(ascii: ";"), 0x09] {
      let bytes = try Self.writeBytes(rows, delimiter: delimiter)
      let parser = CSVParser(reader: ByteReader(bytes: bytes, name: "t.csv"), delimiter: delimiter)
      for row in rows {
        let record = try #require(try parser.next())
        #expect(record.fields == row.map { $0 ?? "" })
        // An empty cell is quoted exactly when it is the empty string, not "no value".
        for (index, cell) in row.enumerated() where cell?.isEmpty ?? true {
          #expect(record.quoted[index] == (cell != nil))
        }
      }
      #expect(try parser.next() == nil)
    }
  }

  static func writeBytes(_ rows: [[String?]], delimiter: UInt8 = UInt8(ascii: ","), excel: Bool = false) throws
    -> [UInt8]
  {
    let output = ByteWriter()
    let writer = try CSVRowWriter(output: output, delimiter: delimiter, excel: excel)
    for row in rows { try writer.writeRow(row) }
    try writer.flush()
    return output.memory
  }

  static func write(_ rows: [[String?]], delimiter: UInt8 = UInt8(ascii: ",")) throws -> String {
    String(decoding: try writeBytes(rows, delimiter: delimiter), as: UTF8.self)
  }
}
