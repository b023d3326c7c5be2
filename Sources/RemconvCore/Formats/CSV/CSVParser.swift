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
  /// The bytes of the field being read, kept between records for their capacity.
  private var fieldBuffer: [UInt8] = []
  /// The number of fields of the last record read.
  private var lastFieldCount = 0

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

  /// The next record, or nil at the end of the input.
  public func next() throws(RemconvError) -> CSVRecord? {
    if let failure { throw failure }
    do {
      if !startedReading {
        startedReading = true
        if reader.offset == 0, try reader.peekPrefix(3) == [0xEF, 0xBB, 0xBF] {
          for _ in 0..<3 { _ = try reader.next() }
          lineStart = reader.offset
        }
      }
      guard try reader.peek() != nil else { return nil }
      if let delimiter { return try parseRecord(from: reader, delimiter: delimiter) }
      return try detectAndParseRecord()
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
  private func detectAndParseRecord() throws(RemconvError) -> CSVRecord {
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
    let record = try parseRecord(from: source, delimiter: delimiter ?? Self.lineFeed, columnBase: columnBase)
    if try source.peek() != nil {
      throw .malformedInput(
        "cannot tell the delimiter of this record (a quote after a delimiter that is not the record's); "
          + "give --delimiter",
        at: SourceLocation(file: fileName, line: recordLine))
    }
    lineStart = reader.offset
    try consumeLineEnd()
    return record
  }

  /// Consumes a CRLF, LF or CR at the reader's position, counting the line.
  private func consumeLineEnd() throws(RemconvError) {
    guard let byte = try reader.peek(), byte == Self.lineFeed || byte == Self.carriageReturn else { return }
    _ = try reader.next()
    if byte == Self.carriageReturn, try reader.peek() == Self.lineFeed { _ = try reader.next() }
    line += 1
    lineStart = reader.offset
  }

  /// Parses one record from `source`, consuming its line end. `columnBase` is added to
  /// columns on the record's first line when `source` does not start where that line does.
  private func parseRecord(
    from source: ByteReader, delimiter: UInt8, columnBase: Int = 0
  ) throws(RemconvError) -> CSVRecord {
    var fields: [String] = []
    var quoted: [Bool] = []
    // Records of a file have one width: reserved at once, the arrays are not grown by doubling.
    fields.reserveCapacity(lastFieldCount)
    quoted.reserveCapacity(lastFieldCount)
    var invalid: [Int] = []
    var recordSize = 0
    let recordLine = line
    // A local buffer: appending to a stored property costs an exclusivity check per byte.
    var field = fieldBuffer
    fieldBuffer = []
    defer { fieldBuffer = field }
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
      field.removeAll(keepingCapacity: true)
      var highBits: UInt8 = 0
      let isQuoted = try source.peek() == Self.quote
      if isQuoted {
        let opening = location(source.offset)
        _ = try source.next()
        quotedField: while true {
          try appendRun(from: source, to: &field, highBits: &highBits, stoppingAt: Self.quote)
          if field.count > maximumFieldSize { throw fieldTooLong(at: opening) }
          guard let byte = try source.next() else {
            throw .malformedInput(
              "a quoted field opened on line \(opening.line ?? line) is never closed (a missing \")", at: opening)
          }
          switch byte {
          case Self.quote:
            guard try source.peek() == Self.quote else { break quotedField }
            _ = try source.next()
            field.append(Self.quote)
          case Self.lineFeed, Self.carriageReturn:
            field.append(byte)
            if byte == Self.carriageReturn, try source.peek() == Self.lineFeed {
              _ = try source.next()
              field.append(Self.lineFeed)
            }
            line += 1
            lineStart = source.offset
          default:
            field.append(byte)
            highBits |= byte
          }
          if field.count > maximumFieldSize { throw fieldTooLong(at: opening) }
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
          try appendRun(from: source, to: &field, highBits: &highBits, stoppingAt: delimiter)
          if field.count > maximumFieldSize { throw fieldTooLong(at: location(source.offset)) }
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
          field.append(byte)
          highBits |= byte
          if field.count > maximumFieldSize { throw fieldTooLong(at: location(source.offset)) }
        }
      }
      if highBits & 0x80 == 0 {
        fields.append(String(decoding: field, as: UTF8.self))
      } else if let text = String(validUTF8: field) {
        fields.append(text)
      } else {
        invalid.append(fields.count)
        fields.append(String(decoding: field, as: UTF8.self))
      }
      quoted.append(isQuoted)
      recordSize += field.count
      if recordSize > Self.maximumRecordSize {
        throw .malformedInput(
          "a record is larger than the limit of \(Self.maximumRecordSize) bytes",
          at: SourceLocation(file: fileName, line: recordLine))
      }
      if fields.count > Self.maximumFieldCount {
        throw .malformedInput(
          "a record has more than \(Self.maximumFieldCount) fields",
          at: SourceLocation(file: fileName, line: recordLine))
      }
    }
    lastFieldCount = fields.count
    return CSVRecord(fields: fields, quoted: quoted, line: recordLine, invalidUTF8: invalid)
  }

  /// Appends the bytes up to the next `stop`, CR or LF (not consumed) to `field`, scanning the
  /// reader's buffer in bulk, and at most one byte past `maximumFieldSize`, so that a field
  /// too long is caught at the byte where it was before.
  private func appendRun(
    from source: ByteReader, to field: inout [UInt8], highBits: inout UInt8, stoppingAt stop: UInt8
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
      let taken = min(end, limit + 1 - min(field.count, limit + 1))
      field.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<taken]))
      highBits |= bits
      return (taken, taken < bytes.count || field.count > limit)
    }
  }

  private func fieldTooLong(at location: SourceLocation) -> RemconvError {
    .malformedInput("a field is longer than the limit of \(maximumFieldSize) bytes", at: location)
  }
}
