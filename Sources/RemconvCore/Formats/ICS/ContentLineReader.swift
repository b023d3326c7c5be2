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
  /// A physical line read ahead to see whether it continues the current one.
  private var lookahead: [UInt8]?
  private var physicalLine = 0
  private var lookaheadLine = 0

  /// `diagnostics` nil reads silently (the pre-scan reads a file a second time).
  init(bytes: ByteReader, file: String, diagnostics: DiagnosticLog?) {
    self.bytes = bytes
    self.file = file
    self.diagnostics = diagnostics
  }

  func next() throws(RemconvError) -> ContentLine? {
    while true {
      let first: [UInt8]
      let start: Int
      if let pending = lookahead {
        first = pending
        start = lookaheadLine
        lookahead = nil
      } else {
        guard let read = try readPhysical() else { return nil }
        first = read
        start = physicalLine
      }
      if first.isEmpty { continue }
      var logical = first.first == 0x20 || first.first == 0x09 ? Array(first.dropFirst()) : first
      while let following = try readPhysical() {
        if let lead = following.first, lead == 0x20 || lead == 0x09 {
          logical.append(contentsOf: following.dropFirst())
          if logical.count > InputLimits.maximumFieldSize {
            throw .invalidInput(
              "a content line is longer than the limit of \(InputLimits.maximumFieldSize) bytes",
              at: SourceLocation(file: file, line: start))
          }
        } else {
          lookahead = following
          lookaheadLine = physicalLine
          break
        }
      }
      if logical.isEmpty { continue }
      return ContentLine(text: decode(logical, line: start), line: start)
    }
  }

  private func readPhysical() throws(RemconvError) -> [UInt8]? {
    guard var line = try bytes.readLine() else { return nil }
    physicalLine += 1
    if physicalLine == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
    return line
  }

  private func decode(_ bytes: [UInt8], line: Int) -> String {
    if let text = String(validating: bytes, as: UTF8.self) { return text }
    diagnostics?.warning(
      "encoding", "the line is not UTF-8; it is read as ISO-8859-1", at: SourceLocation(file: file, line: line))
    return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
  }
}
