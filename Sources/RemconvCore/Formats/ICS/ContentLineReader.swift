/// A set of bytes: the first bytes of the lines a reader wants.
struct ByteSet {
  private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

  init(_ bytes: some Sequence<UInt8>) {
    for byte in bytes {
      let bit = UInt64(1) << (byte & 63)
      switch byte >> 6 {
      case 0: words.0 |= bit
      case 1: words.1 |= bit
      case 2: words.2 |= bit
      default: words.3 |= bit
      }
    }
  }

  @inline(__always)
  func contains(_ byte: UInt8) -> Bool {
    let word: UInt64
    switch byte >> 6 {
    case 0: word = words.0
    case 1: word = words.1
    case 2: word = words.2
    default: word = words.3
    }
    return word & (UInt64(1) << (byte & 63)) != 0
  }
}

/// Reads unfolded content lines from a byte stream (RFC 5545 §3.1), one at a time.
///
/// Accepts CRLF, bare LF and bare CR endings, a missing final line break, a UTF-8 byte order
/// mark, blank lines, and continuation lines that start with a space or a tab. A line that is
/// not UTF-8 is read as ISO-8859-1 (older Outlook and ical4android's latin1 sample) with a
/// warning. NUL bytes never get here: `ByteReader` refuses them (docs/reliability.md), as no
/// C library could carry them and they mark UTF-16 or binary input.
final class ContentLineReader {
  private let bytes: ByteReader
  private let file: String
  private let diagnostics: DiagnosticLog?
  /// The physical lines read or passed over.
  private(set) var physicalLine = 0
  /// The logical line being unfolded; its storage is reused from line to line.
  private var logical: [UInt8] = []
  /// The current line decoded, when it was not plain ASCII (decoding decides its name).
  private var decoded: ContentLine?

  /// `diagnostics` nil reads silently (the pre-scan reads a file a second time).
  init(bytes: ByteReader, file: String, diagnostics: DiagnosticLog?) {
    self.bytes = bytes
    self.file = file
    self.diagnostics = diagnostics
  }

  /// The next line in full.
  func next() throws(RemconvError) -> ContentLine? {
    guard try nextHead() != nil else { return nil }
    return materialize()
  }

  /// What is known of a line before its text is decoded.
  struct Head {
    let known: ICSName?
    let boundary: ComponentBoundary?
    let line: Int
  }

  /// Reads the next line and its known name and boundary, leaving its text undecoded until
  /// `materialize()`: a reader that drops most lines (the pre-scan, skipped components) need
  /// not make a string of each.
  ///
  /// With `readingOnly`, a line whose first byte is not in the set is passed over with its
  /// continuation lines, without copying, naming or decoding it (nor checking its length: the
  /// reading pass checks every line).
  func nextHead(readingOnly firstBytes: ByteSet? = nil) throws(RemconvError) -> Head? {
    decoded = nil
    guard let start = try unfold(readingOnly: firstBytes) else { return nil }
    let head: Head
    if logical.withUnsafeBufferPointer(Self.isPlainASCII) {
      // Plain ASCII: the name is read from the bytes, the text made only if asked for.
      let (known, boundary) = logical.withUnsafeBufferPointer(ContentLine.nameAndBoundary)
      head = Head(known: known, boundary: boundary, line: start)
    } else {
      // Decoding may change the bytes (NULs, Latin-1) and warns, in line order as ever.
      let line = ContentLine(text: decode(logical, line: start), line: start)
      decoded = line
      head = Head(known: line.known, boundary: line.boundary, line: start)
    }
    current = head
    return head
  }

  /// The line of the last `nextHead()`, decoded.
  func materialize() -> ContentLine {
    if let decoded { return decoded }
    return ContentLine(
      text: String(decoding: logical, as: UTF8.self), line: current.line, known: current.known,
      boundary: current.boundary)
  }

  /// The length in bytes of the last `nextHead()`'s line once decoded.
  var decodedLength: Int { decoded?.text.utf8.count ?? logical.count }

  /// Passes over `raw`, `lineCount` physical lines read before, when the input continues
  /// with them (`ByteReader.consume(ifBufferedNext:)`); false, with nothing passed over,
  /// otherwise.
  func passOver(repeated raw: UnsafeBufferPointer<UInt8>, lineCount: Int) -> Bool {
    guard bytes.consume(ifBufferedNext: raw) else { return false }
    physicalLine += lineCount
    return true
  }

  /// The last `nextHead()`'s line once decoded, as bytes, without making a string of it.
  func withDecodedBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    if var text = decoded?.text { return text.withUTF8(body) }
    return logical.withUnsafeBufferPointer(body)
  }

  private var current = Head(known: nil, boundary: nil, line: 0)

  /// Unfolds the next logical line into `logical`; returns the physical line it starts on.
  private func unfold(readingOnly firstBytes: ByteSet?) throws(RemconvError) -> Int? {
    // The buffer is moved out of the property for the loop: a local needs no exclusivity
    // checks at run time, a stored property of a class does on every access.
    var logical = self.logical
    self.logical = []
    defer { self.logical = logical }
    while true {
      // Blank lines and lines that start with a space or a tab are read as below, whatever
      // the set (a continuation after a blank line is a line of its own there), and so is the
      // first line, which may start with a byte order mark.
      if let firstBytes, physicalLine > 0, let lead = try bytes.peek(),
        lead != 0x20, lead != 0x09, lead != 0x0A, lead != 0x0D, !firstBytes.contains(lead)
      {
        _ = try bytes.skipLine()
        physicalLine += 1
        while let lead = try bytes.peek(), lead == 0x20 || lead == 0x09 {
          _ = try bytes.skipLine()
          physicalLine += 1
        }
        continue
      }
      logical.removeAll(keepingCapacity: true)
      guard try bytes.appendLine(to: &logical) else { return nil }
      physicalLine += 1
      if physicalLine == 1, logical.starts(with: [0xEF, 0xBB, 0xBF]) { logical.removeFirst(3) }
      let start = physicalLine
      if logical.isEmpty { continue }
      if logical[0] == 0x20 || logical[0] == 0x09 { logical.removeFirst() }
      // A following physical line that starts with a space or a tab continues this one.
      while let lead = try bytes.peek(), lead == 0x20 || lead == 0x09 {
        _ = try bytes.next()
        _ = try bytes.appendLine(to: &logical, limit: InputLimits.maximumLineLength - 1)
        physicalLine += 1
        if logical.count > InputLimits.maximumRawItemSize {
          throw .invalidInput(
            "a content line is longer than the limit of \(InputLimits.maximumRawItemSize) bytes",
            at: SourceLocation(file: file, line: start))
        }
      }
      if logical.isEmpty { continue }
      return start
    }
  }

  /// No NUL and no byte with the high bit set, tested eight bytes at a time: a byte-by-byte
  /// test was a tenth of the cutting of a file of long notes.
  private static func isPlainASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = UnsafeRawPointer(bytes.baseAddress) else { return true }
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    var offset = 0
    while offset + 8 <= bytes.count {
      let word = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      // A high bit set, or a zero byte (its borrow sets the high bit of `word &- ones`).
      if word & highs != 0 || (word &- ones) & ~word & highs != 0 { return false }
      offset += 8
    }
    while offset < bytes.count {
      if bytes[offset] == 0 || bytes[offset] >= 0x80 { return false }
      offset += 1
    }
    return true
  }

  private func decode(_ bytes: [UInt8], line: Int) -> String {
    if let text = String(validUTF8: bytes) { return text }
    diagnostics?.warning(
      "encoding", "the line is not UTF-8; it is read as ISO-8859-1", at: SourceLocation(file: file, line: line))
    return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
  }
}
