import Foundation
import Testing

@testable import RemconvCore

/// The byte-level RFC 4180 parser: records, line ends, quoting, delimiters, limits.
@Suite struct CSVParserTests {
  /// One parser case: the input, the delimiter given (nil to detect), and the records
  /// expected as fields with the physical line each starts on.
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let input: [UInt8]
    let delimiter: UInt8?
    let records: [[String]]
    let lines: [Int]

    init(_ name: String, _ input: String, delimiter: UInt8? = nil, _ records: [[String]], lines: [Int]) {
      self.init(name, bytes: Array(input.utf8), delimiter: delimiter, records, lines: lines)
    }

    init(_ name: String, bytes: [UInt8], delimiter: UInt8? = nil, _ records: [[String]], lines: [Int]) {
      self.name = name
      self.input = bytes
      self.delimiter = delimiter
      self.records = records
      self.lines = lines
    }

    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case("LF line ends", "a,b\nc,d\n", [["a", "b"], ["c", "d"]], lines: [1, 2]),
    Case("CRLF line ends", "a,b\r\nc,d\r\n", [["a", "b"], ["c", "d"]], lines: [1, 2]),
    Case("lone CR line ends (old Mac Excel)", "a,b\rc,d\r", [["a", "b"], ["c", "d"]], lines: [1, 2]),
    Case("mixed line ends", "a\r\nb\rc\nd", [["a"], ["b"], ["c"], ["d"]], lines: [1, 2, 3, 4]),
    Case("no final line end", "a,b\nc,d", [["a", "b"], ["c", "d"]], lines: [1, 2]),
    Case("quoted delimiter", "\"a,b\",c\n", [["a,b", "c"]], lines: [1]),
    Case("LF inside quotes", "\"one\ntwo\",x\nnext,y\n", [["one\ntwo", "x"], ["next", "y"]], lines: [1, 3]),
    Case(
      "CRLF inside quotes is kept", "\"one\r\ntwo\",x\r\nnext,y\r\n", [["one\r\ntwo", "x"], ["next", "y"]],
      lines: [1, 3]),
    Case("lone CR inside quotes", "\"one\rtwo\",x\rnext,y", [["one\rtwo", "x"], ["next", "y"]], lines: [1, 3]),
    Case("blank line inside quotes", "\"a\n\nb\",c\nd,e\n", [["a\n\nb", "c"], ["d", "e"]], lines: [1, 4]),
    Case("doubled quotes", "\"say \"\"hi\"\"\",\"\"\"\"\n", [["say \"hi\"", "\""]], lines: [1]),
    Case("quote inside a bare field is data", "5\" disk,x\n", [["5\" disk", "x"]], lines: [1]),
    Case("empty fields", ",,\n\"\",x,\n", [["", "", ""], ["", "x", ""]], lines: [1, 2]),
    Case("empty line is a blank record", "a,b\n\nc,d\n", [["a", "b"], [""], ["c", "d"]], lines: [1, 2, 3]),
    Case("spaces are data", " a , b \n", [[" a ", " b "]], lines: [1]),
    Case("non-ASCII", "crème brûlée,日本語,🙂\n", [["crème brûlée", "日本語", "🙂"]], lines: [1]),
    Case(
      "UTF-8 BOM is skipped", bytes: [0xEF, 0xBB, 0xBF] + Array("title,x\n1,2\n".utf8), [["title", "x"], ["1", "2"]],
      lines: [1, 2]),
    Case(
      "BOM before a quoted field", bytes: [0xEF, 0xBB, 0xBF] + Array("\"title\",x\n".utf8), [["title", "x"]], lines: [1]
    ),
    Case("semicolon detected", "a;b;c\n1;2,5;3\n", [["a", "b", "c"], ["1", "2,5", "3"]], lines: [1, 2]),
    Case("tab detected", "a\tb\n1\t2\n", [["a", "b"], ["1", "2"]], lines: [1, 2]),
    Case("most frequent delimiter wins", "a;b;c,d\n", [["a", "b", "c,d"]], lines: [1]),
    Case("a tie goes to the comma", "a;b,c\n", [["a;b", "c"]], lines: [1]),
    Case("delimiters inside quotes do not count", "\"a,b,c\";d\n", [["a,b,c", "d"]], lines: [1]),
    Case("given delimiter wins over detection", "a,b;c\n", delimiter: UInt8(ascii: ";"), [["a,b", "c"]], lines: [1]),
    Case("pipe when given", "a|b\n", delimiter: UInt8(ascii: "|"), [["a", "b"]], lines: [1]),
    Case(
      "preamble with a multi-line quoted field before the header",
      "\"Date: 2025\"\n\"Status:\n0 Normal\n1 Done\"\n\"A\",\"B\"\n\"1\",\"2\"\n",
      [["Date: 2025"], ["Status:\n0 Normal\n1 Done"], ["A", "B"], ["1", "2"]], lines: [1, 2, 5, 6]),
    Case("empty input", "", [], lines: []),
    Case("only a line end", "\n", [[""]], lines: [1]),
  ]

  @Test(arguments: cases)
  func parses(_ testCase: Case) throws {
    let records = try Self.parse(testCase.input, delimiter: testCase.delimiter)
    #expect(records.map(\.fields) == testCase.records)
    #expect(records.map(\.line) == testCase.lines)
  }

  @Test func quotedFlagsTellEmptyFromNoValue() throws {
    let records = try Self.parse(Array("\"\",,\"x\",y\n".utf8))
    #expect(records.first?.fields == ["", "", "x", "y"])
    #expect(records.first?.quoted == [true, false, true, false])
  }

  @Test func detectedDelimiterIsKept() throws {
    let parser = CSVParser(reader: ByteReader(bytes: Array("\"only\"\na;b\nc;d\n".utf8), name: "t.csv"))
    #expect(try parser.next()?.fields == ["only"])
    #expect(parser.delimiter == nil)
    #expect(try parser.next()?.fields == ["a", "b"])
    #expect(parser.delimiter == UInt8(ascii: ";"))
    #expect(try parser.next()?.fields == ["c", "d"])
    #expect(try parser.next() == nil)
  }

  @Test func invalidUTF8IsReportedByField() throws {
    let records = try Self.parse([0x61, 0x2C, 0xFF, 0xFE, 0x2C, 0x63, 0x0A])
    let record = try #require(records.first)
    #expect(record.invalidUTF8 == [1])
    #expect(record.fields[0] == "a")
    #expect(record.fields[1].unicodeScalars.allSatisfy { $0 == "\u{FFFD}" })
  }

  /// A delimiter, quote, CR or LF at any offset of a long field ends it there, and a byte that
  /// is not UTF-8 at any offset is found.
  @Test func aFieldEndsAtItsFirstStopWhereverItFallsInAWord() throws {
    let text = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
    for offset in 0..<text.count {
      let head = String(decoding: text[..<offset], as: UTF8.self)
      let tail = String(decoding: text[offset...], as: UTF8.self)
      #expect(try Self.parse(Array("\(head),\(tail)\n".utf8)).map(\.fields) == [[head, tail]])
      #expect(try Self.parse(Array("\(head)\r\n\(tail)\n".utf8)).map(\.fields) == [[head], [tail]])
      #expect(try Self.parse(Array("\(head)\r\(tail)\n".utf8)).map(\.fields) == [[head], [tail]])
      let quoted = try Self.parse(Array("\"\(head)\"\"\(tail)\",x\n".utf8))
      #expect(quoted.map(\.fields) == [["\(head)\"\(tail)", "x"]])
      let spanning = try Self.parse(Array("\"\(head)\n\(tail)\",x\n".utf8))
      #expect(spanning.map(\.fields) == [["\(head)\n\(tail)", "x"]])
      var invalid = Array("x,\(head)".utf8) + [0xFF] + Array("\(tail),y\n".utf8)
      var record = try #require(try Self.parse(invalid).first)
      #expect(record.invalidUTF8 == [1] && record.fields.count == 3)
      invalid = Array("x,\"\(head)".utf8) + [0xC3] + Array("\(tail)\",y\n".utf8)
      record = try #require(try Self.parse(invalid).first)
      #expect(record.invalidUTF8 == [1] && record.fields.count == 3)
      #expect(try Self.parse(Array("x,\(head)é\(tail),y\n".utf8)).first?.invalidUTF8 == [])
    }
  }

  /// The cells at `indexes` of each row of `input`, gathered, and the rows.
  private static func listCells(_ indexes: [Int], of input: String) throws -> ([ListCells], [CSVRow]) {
    let parser = CSVParser(reader: ByteReader(bytes: Array(input.utf8), name: "test.csv"), delimiter: 0x2C)
    var gathered: [ListCells] = []
    var rows: [CSVRow] = []
    var row = CSVRow()
    while try parser.next(into: &row) {
      var cells = ListCells()
      cells.gather(indexes, of: row)
      gathered.append(cells)
      rows.append(row)
    }
    return (gathered, rows)
  }

  /// The list cells of a row name the same list as another row's only when every cell is the
  /// same, byte for byte, and absent where the other's is absent (`ListCells`, compared whole).
  @Test func listCellsAreTheSameOnlyWhenEveryCellIs() throws {
    let input = """
      t,Work,L1,,#FF0000
      u,Work,L1,,#FF0000
      v,Work,L1,"",#FF0000
      w,Work,L2,,#FF0000
      x,Work,L1,,#FF0001
      y,Wor,kL1,,#FF0000
      z,Work,L1,,#FF0000,extra

      """
    let (gathered, rows) = try Self.listCells([1, 2, 3, 4], of: input)
    #expect(gathered.count == 7)
    #expect(gathered[0] == gathered[1] && gathered[0].hashValue == gathered[1].hashValue)
    #expect(gathered[0] == gathered[6], "a cell past the list's columns is not one of them")
    for other in gathered[2...5] { #expect(gathered[0] != other) }
    #expect(Set(gathered).count == 5)
    // A row's cells compared in place with those gathered: the same answer as gathering them.
    for cells in gathered.indices {
      for other in rows.indices {
        #expect(gathered[cells].holds([1, 2, 3, 4], of: rows[other]) == (gathered[cells] == gathered[other]))
      }
    }
  }

  /// A cell with no value is marked where a length goes, with a mark no length can be: a
  /// missing cell and a cell whose length begins with the mark's first byte are told apart.
  @Test func aMissingListCellIsNoCellOfAnyLength() throws {
    let long = String(repeating: "a", count: 255)
    let input = "t,\(long),\n" + "u,,bbb" + long.dropFirst(4) + "\n"
    let (gathered, rows) = try Self.listCells([1, 2], of: input)
    #expect(gathered.count == 2)
    #expect(gathered[0] != gathered[1])
    #expect(!gathered[0].holds([1, 2], of: rows[1]) && !gathered[1].holds([1, 2], of: rows[0]))
    #expect(gathered[0].holds([1, 2], of: rows[0]) && gathered[1].holds([1, 2], of: rows[1]))
  }

  @Test func recordsLargerThanABufferStream() throws {
    // Fields that cross the reader's 64 KiB buffer boundary, read from a file descriptor.
    let long = String(repeating: "x", count: ByteReader.bufferSize + 17)
    let text = "a,\"\(long)\nmore\"\r\n\(long),b\n"
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("csv-\(UUID().uuidString).csv").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    let parser = CSVParser(reader: try ByteReader.open(path: path))
    let first = try #require(try parser.next())
    #expect(first.fields == ["a", long + "\nmore"])
    let second = try #require(try parser.next())
    #expect(second.fields == [long, "b"])
    #expect(second.line == 3)
    #expect(try parser.next() == nil)
  }

  // MARK: Broken input

  @Test(arguments: [
    ("a,b\n\"open,c\nd,e\n", 2, 1),
    ("x,\"never closed\n", 1, 3),
    ("\"first record\n", 1, 1),
    ("h1;h2\n1;\"2\n3", 2, 3),
  ])
  func unterminatedQuoteNamesWhereItOpened(_ input: String, _ line: Int, _ column: Int) throws {
    let error = try #require(throws: RemconvError.self) { try Self.parse(Array(input.utf8)) }
    guard case .malformedInput(let message, let location, _) = error else {
      Issue.record("expected malformed input, got \(error)")
      return
    }
    #expect(message.contains("never closed"))
    #expect(location.file == "test.csv")
    #expect(location.line == line)
    #expect(location.column == column)
  }

  @Test func textAfterAClosingQuoteIsAnError() throws {
    let error = try #require(throws: RemconvError.self) { try Self.parse(Array("a,b\nc,\"d\"e,f\n".utf8)) }
    guard case .malformedInput(let message, let location, _) = error else {
      Issue.record("expected malformed input, got \(error)")
      return
    }
    #expect(message.contains("after the closing quote"))
    #expect(location.line == 2)
    #expect(location.column == 6)
  }

  @Test func fieldSizeLimit() throws {
    let parser = CSVParser(
      reader: ByteReader(bytes: Array("ok,fine\nshort,\"far too long\"\n".utf8), name: "t.csv"), maximumFieldSize: 8)
    #expect(try parser.next()?.fields == ["ok", "fine"])
    let error = try #require(throws: RemconvError.self) { try parser.next() }
    guard case .malformedInput(let message, let location, _) = error else {
      Issue.record("expected malformed input, got \(error)")
      return
    }
    #expect(message.contains("limit of 8 bytes"))
    #expect(location.line == 2)
  }

  @Test func fieldCountLimit() throws {
    let row = String(repeating: ",", count: CSVParser.maximumFieldCount)
    #expect(try Self.parse(Array("a\n\(row.dropLast())\n".utf8)).last?.fields.count == CSVParser.maximumFieldCount)
    let error = try #require(throws: RemconvError.self) { try Self.parse(Array("a\n\(row)\n".utf8)) }
    #expect(error.description == "test.csv:2: a record has more than \(CSVParser.maximumFieldCount) fields")
  }

  @Test func failureIsSticky() throws {
    let parser = CSVParser(reader: ByteReader(bytes: Array("a,b\n\"x\"y\nc,d\n".utf8), name: "t.csv"))
    #expect(try parser.next()?.fields == ["a", "b"])
    let first = try #require(throws: RemconvError.self) { try parser.next() }
    let second = try #require(throws: RemconvError.self) { try parser.next() }
    #expect(first.description == second.description)
  }

  static func parse(_ bytes: [UInt8], delimiter: UInt8? = nil) throws -> [CSVRecord] {
    let parser = CSVParser(reader: ByteReader(bytes: bytes, name: "test.csv"), delimiter: delimiter)
    var records: [CSVRecord] = []
    while let record = try parser.next() { records.append(record) }
    return records
  }
}
