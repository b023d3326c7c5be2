/// One record (row) of a CSV file.
public struct CSVRecord: Sendable, Equatable {
  /// The fields, decoded as UTF-8.
  public var fields: [String]
  /// Whether each field was quoted. remconv's own CSV tells a bare empty field (no value) from
  /// a quoted one (`""`, the empty string), as PostgreSQL's `COPY … CSV` does.
  public var quoted: [Bool]
  /// The physical line the record starts on (1-based). A record with a quoted line break spans
  /// several lines; messages name the first.
  public var line: Int
  /// Indexes of fields whose bytes were not valid UTF-8 (decoded with U+FFFD in their place).
  public var invalidUTF8: [Int] = []

  public init(fields: [String], quoted: [Bool], line: Int, invalidUTF8: [Int] = []) {
    self.fields = fields
    self.quoted = quoted
    self.line = line
    self.invalidUTF8 = invalidUTF8
  }

  /// True for an empty line and for a row of empty fields (`,,,,`): a row without data.
  public var isBlank: Bool { fields.allSatisfy(\.isEmpty) }

  /// The field at `index`, or nil past the end of a short row.
  public subscript(index: Int) -> String? {
    index < fields.count ? fields[index] : nil
  }
}

/// One record (row) of a CSV file as bytes: its fields one after another in one buffer, and
/// where each ends. What a reader that needs only some cells, or their bytes, reads
/// (`CSVParser.next(into:)`): no `String` is made for a cell nobody asks for. Reused from row to
/// row for its capacity.
public struct CSVRow: Sendable {
  /// The fields' bytes, as read (a quoted field's doubled quotes once), one after another.
  public private(set) var bytes: [UInt8] = []
  /// The end of each field in `bytes`; a field starts where the one before ends.
  public private(set) var ends: [Int] = []
  /// Whether each field was quoted (see `CSVRecord.quoted`).
  public private(set) var quoted: [Bool] = []
  /// Indexes of fields whose bytes are not valid UTF-8.
  public private(set) var invalidUTF8: [Int] = []
  /// The physical line the record starts on (1-based).
  public internal(set) var line = 0

  public init() {}

  /// The number of fields.
  public var count: Int { ends.count }

  /// True for an empty line and for a row of empty fields (`,,,,`): a row without data.
  public var isBlank: Bool { bytes.isEmpty }

  /// The byte range of field `index` in `bytes`.
  public func range(of index: Int) -> Range<Int> { (index == 0 ? 0 : ends[index - 1])..<ends[index] }

  /// Whether field `index` is missing (past the end of a short row) or a bare empty field: no value.
  public func isAbsent(_ index: Int) -> Bool {
    index >= ends.count || (range(of: index).isEmpty && !quoted[index])
  }

  /// The text of field `index`, decoded as UTF-8 (U+FFFD for bytes that are not).
  public func string(at index: Int) -> String {
    bytes.withUnsafeBufferPointer {
      String(decoding: UnsafeBufferPointer(rebasing: $0[range(of: index)]), as: UTF8.self)
    }
  }

  /// The record with a `String` per field.
  public var record: CSVRecord {
    CSVRecord(fields: ends.indices.map(string(at:)), quoted: quoted, line: line, invalidUTF8: invalidUTF8)
  }

  /// Empties the row, keeping its capacity, for the record that starts on `line`.
  mutating func start(line: Int, fieldCapacity: Int) {
    bytes.removeAll(keepingCapacity: true)
    ends.removeAll(keepingCapacity: true)
    quoted.removeAll(keepingCapacity: true)
    invalidUTF8.removeAll(keepingCapacity: true)
    ends.reserveCapacity(fieldCapacity)
    quoted.reserveCapacity(fieldCapacity)
    self.line = line
  }

  /// Appends `byte` to the field being read.
  mutating func append(_ byte: UInt8) { bytes.append(byte) }

  /// Appends `run` to the field being read.
  mutating func append(contentsOf run: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: run) }

  /// Ends a field whose bytes are the last of `pending`, from `start` on: bytes the row does not
  /// hold yet, which `append(contentsOf:)` adds once the record's last field is ended. A record
  /// parsed whole is copied into the row at once, not a run at a time.
  mutating func endField(
    inPending pending: UnsafeBufferPointer<UInt8>, startingAt start: Int, quoted isQuoted: Bool, highBits: UInt8
  ) {
    if highBits & 0x80 != 0, !UTF8Bytes.areValid(UnsafeBufferPointer(rebasing: pending[start...])) {
      invalidUTF8.append(ends.count)
    }
    ends.append(bytes.count + pending.count)
    quoted.append(isQuoted)
  }

  /// Ends the field being read (it started at `start`), checking its UTF-8 when `highBits`
  /// says it holds a byte above 0x7F.
  mutating func endField(startingAt start: Int, quoted isQuoted: Bool, highBits: UInt8) {
    if highBits & 0x80 != 0 {
      let valid = bytes.withUnsafeBufferPointer { row in
        UTF8Bytes.areValid(UnsafeBufferPointer(rebasing: row[start...]))
      }
      if !valid { invalidUTF8.append(ends.count) }
    }
    ends.append(bytes.count)
    quoted.append(isQuoted)
  }
}

/// A streaming RFC 4180 parser that works on bytes.
///
/// Swift treats `"\r\n"` as one `Character`, so a parser comparing Characters misses CRLF;
/// this one reads UTF-8 bytes from a `ByteReader` and holds one record at a time.
///
/// - Records end at CRLF, LF or a lone CR (old Mac Excel); the same line ends inside a quoted
///   field are data, kept byte for byte. Every one of them counts as one physical line.
/// - A quoted field doubles its quotes (`""`). A quote inside an unquoted field is data
///   (`5" disk`), as spreadsheets read it; text after a closing quote (`"a"b`) is an error.
/// - A UTF-8 byte order mark at the start is skipped.
/// - The delimiter is given, or detected from the first record that holds an unquoted `,`,
///   `;` or tab: the most frequent of the three wins, ties in that order. Records before it
///   (a TickTick preamble) have a single field whatever the delimiter is.
/// - A field longer than `maximumFieldSize` bytes, a record with more than
///   `maximumFieldCount` fields or `maximumRecordSize` bytes, and a quote never closed are
///   errors naming the line.
///
/// After an error the parser stays failed: every later call throws the same error.
public final class CSVParser {
  /// The delimiters detection chooses from, in the order that breaks ties.
  public static let detectableDelimiters: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), 0x09]
  /// More fields than this in one record is refused (a hostile row of commas).
  public static let maximumFieldCount = 10_000
  /// The most bytes one record may hold, all fields together (a record is held whole).
  /// A record is one item (its cells as decoded; a quoted cell's doubled quotes count once).
  public static let maximumRecordSize = InputLimits.maximumItemSize

  /// The delimiter in use: given, detected, or nil while no record has shown one.
  public private(set) var delimiter: UInt8?
  private let reader: ByteReader
  private let fileName: String
  private let maximumFieldSize: Int
  /// The physical line the next byte is on.
  private var line = 1
  /// The reader offset at which the current physical line starts, for columns in messages.
  private var lineStart = 0
  private var startedReading = false
  private var failure: RemconvError?
  /// The row `next()` reads into, kept between records for its capacity.
  private var rowBuffer = CSVRow()
  /// The number of fields of the last record read.
  private var lastFieldCount = 0
  /// Where a record parsed whole gathers its fields' bytes before they are copied into the row:
  /// as large as the reader's buffer, which holds the record.
  private var pending = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)

  private static let quote = UInt8(ascii: "\"")
  private static let carriageReturn: UInt8 = 0x0D
  private static let lineFeed: UInt8 = 0x0A

  public init(
    reader: ByteReader, delimiter: UInt8? = nil, fileName: String? = nil,
    maximumFieldSize: Int = InputLimits.maximumFieldSize
  ) {
    self.reader = reader
    self.delimiter = delimiter
    self.fileName = fileName ?? reader.name
    self.maximumFieldSize = maximumFieldSize
  }

  deinit {
    pending.deallocate()
  }

  /// The next record, or nil at the end of the input.
  public func next() throws(RemconvError) -> CSVRecord? {
    var row = rowBuffer
    rowBuffer = CSVRow()
    defer { rowBuffer = row }
    return try next(into: &row) ? row.record : nil
  }

  /// Reads the next record into `row` (its earlier content replaced); false at the end of the
  /// input, `row` then unchanged. The same records and errors as `next()`, with no `String`.
  public func next(into row: inout CSVRow) throws(RemconvError) -> Bool {
    if let failure { throw failure }
    do {
      if !startedReading {
        startedReading = true
        if reader.offset == 0, try reader.peekPrefix(3) == [0xEF, 0xBB, 0xBF] {
          for _ in 0..<3 { _ = try reader.next() }
          lineStart = reader.offset
        }
      }
      guard try reader.peek() != nil else { return false }
      if let delimiter {
        try parseRecord(from: reader, delimiter: delimiter, into: &row)
      } else {
        try detectAndParseRecord(into: &row)
      }
      return true
    } catch {
      failure = error
      throw error
    }
  }

  /// Reads one record's raw bytes to count candidate delimiters outside quotes, fixes the
  /// delimiter when one occurs, then parses those bytes with it.
  ///
  /// While the delimiter is unknown, a quote opens a quoted section only at the start of the
  /// record or after one of the candidates; the record ends at a line end outside one.
  private func detectAndParseRecord(into row: inout CSVRow) throws(RemconvError) {
    let recordLine = line
    let columnBase = reader.offset - lineStart
    var raw: [UInt8] = []
    var counts = [Int](repeating: 0, count: Self.detectableDelimiters.count)
    var inQuotes = false
    var atFieldStart = true
    while let byte = try reader.peek() {
      if !inQuotes, byte == Self.lineFeed || byte == Self.carriageReturn { break }
      _ = try reader.next()
      raw.append(byte)
      if raw.count > Self.maximumRecordSize {
        throw .malformedInput(
          "a record is larger than the limit of \(Self.maximumRecordSize) bytes",
          at: SourceLocation(file: fileName, line: recordLine))
      }
      if inQuotes {
        if byte == Self.quote {
          if try reader.peek() == Self.quote {
            raw.append(try reader.next() ?? Self.quote)
          } else {
            inQuotes = false
          }
        }
        continue
      }
      if let index = Self.detectableDelimiters.firstIndex(of: byte) {
        counts[index] += 1
        atFieldStart = true
      } else {
        inQuotes = byte == Self.quote && atFieldStart
        atFieldStart = false
      }
    }
    if let best = counts.indices.max(by: { counts[$0] < counts[$1] || (counts[$0] == counts[$1] && $0 > $1) }),
      counts[best] > 0
    {
      delimiter = Self.detectableDelimiters[best]
    }
    // Parse the bytes read with the same state machine. Line and column bookkeeping is
    // relative to the record's bytes; `columnBase` places its first line.
    let source = ByteReader(bytes: raw, name: fileName)
    lineStart = 0
    try parseRecord(from: source, delimiter: delimiter ?? Self.lineFeed, columnBase: columnBase, into: &row)
    if try source.peek() != nil {
      throw .malformedInput(
        "cannot tell the delimiter of this record (a quote after a delimiter that is not the record's); "
          + "give --delimiter",
        at: SourceLocation(file: fileName, line: recordLine))
    }
    lineStart = reader.offset
    try consumeLineEnd()
  }

  /// Consumes a CRLF, LF or CR at the reader's position, counting the line.
  private func consumeLineEnd() throws(RemconvError) {
    guard let byte = try reader.peek(), byte == Self.lineFeed || byte == Self.carriageReturn else { return }
    _ = try reader.next()
    if byte == Self.carriageReturn, try reader.peek() == Self.lineFeed { _ = try reader.next() }
    line += 1
    lineStart = reader.offset
  }

  /// Parses one record from `source` into `row`, consuming its line end. `columnBase` is added
  /// to columns on the record's first line when `source` does not start where that line does.
  private func parseRecord(
    from source: ByteReader, delimiter: UInt8, columnBase: Int = 0, into row: inout CSVRow
  ) throws(RemconvError) {
    let recordLine = line
    // Records of a file have one width: reserved at once, the arrays are not grown by doubling.
    row.start(line: recordLine, fieldCapacity: lastFieldCount)
    if source === reader, columnBase == 0 {
      if try parseBufferedRecord(delimiter: delimiter, into: &row) {
        lastFieldCount = row.count
        return
      }
      row.start(line: recordLine, fieldCapacity: lastFieldCount)
    }
    /// The location of the byte at `offset` of `source`.
    func location(_ offset: Int) -> SourceLocation {
      let base = line == recordLine ? columnBase : 0
      return SourceLocation(file: fileName, line: line, column: offset - lineStart + 1 + base)
    }
    /// Counts a line end whose first byte was just read.
    func countLineEnd(_ byte: UInt8) throws(RemconvError) {
      if byte == Self.carriageReturn, try source.peek() == Self.lineFeed { _ = try source.next() }
      line += 1
      lineStart = source.offset
    }
    var endOfRecord = false
    while !endOfRecord {
      let fieldStart = row.bytes.count
      /// The bytes of the field so far.
      var fieldSize: Int { row.bytes.count - fieldStart }
      var highBits: UInt8 = 0
      let isQuoted = try source.peek() == Self.quote
      if isQuoted {
        let opening = location(source.offset)
        _ = try source.next()
        quotedField: while true {
          try appendRun(from: source, to: &row, fieldStart: fieldStart, highBits: &highBits, stoppingAt: Self.quote)
          if fieldSize > maximumFieldSize { throw fieldTooLong(at: opening) }
          guard let byte = try source.next() else {
            throw .malformedInput(
              "a quoted field opened on line \(opening.line ?? line) is never closed (a missing \")", at: opening)
          }
          switch byte {
          case Self.quote:
            guard try source.peek() == Self.quote else { break quotedField }
            _ = try source.next()
            row.append(Self.quote)
          case Self.lineFeed, Self.carriageReturn:
            row.append(byte)
            if byte == Self.carriageReturn, try source.peek() == Self.lineFeed {
              _ = try source.next()
              row.append(Self.lineFeed)
            }
            line += 1
            lineStart = source.offset
          default:
            row.append(byte)
            highBits |= byte
          }
          if fieldSize > maximumFieldSize { throw fieldTooLong(at: opening) }
        }
        // After the closing quote: a delimiter, a line end or the end of input.
        let closing = source.offset
        switch try source.next() {
        case nil:
          endOfRecord = true
        case let byte? where byte == delimiter:
          break
        case let byte? where byte == Self.lineFeed || byte == Self.carriageReturn:
          try countLineEnd(byte)
          endOfRecord = true
        default:
          throw .malformedInput(
            "unexpected text after the closing quote of a field (a quote inside a quoted field is written \"\")",
            at: location(closing))
        }
      } else {
        while true {
          try appendRun(from: source, to: &row, fieldStart: fieldStart, highBits: &highBits, stoppingAt: delimiter)
          if fieldSize > maximumFieldSize { throw fieldTooLong(at: location(source.offset)) }
          guard let byte = try source.next() else {
            endOfRecord = true
            break
          }
          if byte == delimiter { break }
          if byte == Self.lineFeed || byte == Self.carriageReturn {
            try countLineEnd(byte)
            endOfRecord = true
            break
          }
          row.append(byte)
          highBits |= byte
          if fieldSize > maximumFieldSize { throw fieldTooLong(at: location(source.offset)) }
        }
      }
      row.endField(startingAt: fieldStart, quoted: isQuoted, highBits: highBits)
      if row.bytes.count > Self.maximumRecordSize {
        throw .malformedInput(
          "a record is larger than the limit of \(Self.maximumRecordSize) bytes",
          at: SourceLocation(file: fileName, line: recordLine))
      }
      if row.count > Self.maximumFieldCount {
        throw .malformedInput(
          "a record has more than \(Self.maximumFieldCount) fields",
          at: SourceLocation(file: fileName, line: recordLine))
      }
    }
    lastFieldCount = row.count
  }

  /// Parses, in one pass over the reader's buffer, a record that lies whole in it: most do. It
  /// reads the same fields, bytes and lines as the byte-by-byte parse below, which takes over
  /// from the record's start for anything else (a record running past the buffer or to the end
  /// of the input without a line end, a limit passed, text after a closing quote) and is the one
  /// that reports errors. True when the record was parsed and consumed.
  private func parseBufferedRecord(delimiter: UInt8, into row: inout CSVRow) throws(RemconvError) -> Bool {
    var lineEnds = 0
    var parsed = false
    _ = try reader.scan { bytes in
      if pending.count < bytes.count {
        pending.deallocate()
        pending = .allocate(capacity: bytes.count)
      }
      guard
        let end = Self.parseWhole(
          bytes, delimiter: delimiter, maximumFieldSize: maximumFieldSize, pending: pending, into: &row)
      else { return (0, true) }
      lineEnds = end.lineEnds
      parsed = true
      return (end.length, true)
    }
    guard parsed else { return false }
    line += lineEnds
    lineStart = reader.offset
    return true
  }

  /// The record at the start of `bytes` read into `row`: its length with its line end, and the
  /// line ends it holds (its own included); nil when `bytes` do not hold all of it, or it would
  /// be refused. The fields' bytes are gathered in `pending` (at least as long as `bytes`) and
  /// copied into the row once the record is whole.
  private static func parseWhole(
    _ bytes: UnsafeBufferPointer<UInt8>, delimiter: UInt8, maximumFieldSize: Int,
    pending: UnsafeMutableBufferPointer<UInt8>, into row: inout CSVRow
  ) -> (length: Int, lineEnds: Int)? {
    let count = bytes.count
    guard let source = bytes.baseAddress, let target = pending.baseAddress else { return nil }
    var index = 0
    var written = 0
    var lineEnds = 0
    /// Adds the bytes from `start` up to `end` to the pending field.
    func take(from start: Int, upTo end: Int) {
      (target + written).update(from: source + start, count: end - start)
      written += end - start
    }
    while true {
      let fieldStart = written
      var highBits: UInt8 = 0
      let isQuoted = index < count && bytes[index] == quote
      if isQuoted {
        index += 1
        var runStart = index
        quotedField: while true {
          guard index < count else { return nil }
          let byte = bytes[index]
          if byte == quote {
            guard index + 1 < count else { return nil }
            if bytes[index + 1] == quote {
              // The run and one quote of the two.
              take(from: runStart, upTo: index + 1)
              index += 2
              runStart = index
              continue
            }
            take(from: runStart, upTo: index)
            index += 1
            break quotedField
          }
          if byte == carriageReturn {
            // A line end inside quotes is data, and counts one line (CRLF too).
            guard index + 1 < count else { return nil }
            index += bytes[index + 1] == lineFeed ? 2 : 1
            lineEnds += 1
          } else {
            if byte == lineFeed { lineEnds += 1 }
            highBits |= byte
            index += 1
          }
        }
      } else {
        let runStart = index
        while index < count {
          let byte = bytes[index]
          if byte == delimiter || byte == lineFeed || byte == carriageReturn { break }
          highBits |= byte
          index += 1
        }
        take(from: runStart, upTo: index)
      }
      guard index < count, written - fieldStart <= maximumFieldSize else { return nil }
      let fields = UnsafeBufferPointer(rebasing: pending[..<written])
      row.endField(inPending: fields, startingAt: fieldStart, quoted: isQuoted, highBits: highBits)
      guard row.bytes.count + written <= maximumRecordSize, row.count <= maximumFieldCount else { return nil }
      let recordEnd: Int
      switch bytes[index] {
      case delimiter:
        index += 1
        continue
      case lineFeed:
        recordEnd = index + 1
      case carriageReturn:
        guard index + 1 < count else { return nil }
        recordEnd = index + (bytes[index + 1] == lineFeed ? 2 : 1)
      default:
        return nil
      }
      row.append(contentsOf: fields)
      return (recordEnd, lineEnds + 1)
    }
  }

  /// Appends the bytes up to the next `stop`, CR or LF (not consumed) to the field of `row`
  /// that starts at `fieldStart`, scanning the reader's buffer in bulk, and at most one byte
  /// past `maximumFieldSize`, so that a field too long is caught at the byte where it was before.
  private func appendRun(
    from source: ByteReader, to row: inout CSVRow, fieldStart: Int, highBits: inout UInt8, stoppingAt stop: UInt8
  ) throws(RemconvError) {
    let limit = maximumFieldSize
    _ = try source.scan { bytes in
      var end = 0
      var bits: UInt8 = 0
      while end < bytes.count {
        let byte = bytes[end]
        if byte == stop || byte == Self.lineFeed || byte == Self.carriageReturn { break }
        bits |= byte
        end += 1
      }
      let fieldSize = row.bytes.count - fieldStart
      let taken = min(end, limit + 1 - min(fieldSize, limit + 1))
      row.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<taken]))
      highBits |= bits
      return (taken, taken < bytes.count || fieldSize + taken > limit)
    }
  }

  private func fieldTooLong(at location: SourceLocation) -> RemconvError {
    .malformedInput("a field is longer than the limit of \(maximumFieldSize) bytes", at: location)
  }
}
