import Foundation

/// Reads unfolded content lines from a byte stream (RFC 5545 §3.1), one at a time.
///
/// Accepts CRLF, bare LF and bare CR endings, a missing final line break, a UTF-8 byte order
/// mark, blank lines, and continuation lines that start with a space or a tab. A line that is
/// not UTF-8 is read as ISO-8859-1 (older Outlook and ical4android's latin1 sample) with a
/// warning, and NUL bytes, which no C library can carry, are removed with a warning.
final class ContentLineReader {
  private let bytes: ByteReader
  private let file: String
  private let diagnostics: DiagnosticLog?
  private var physicalLine = 0
  /// The logical line being unfolded; its storage is reused from line to line.
  private var logical: [UInt8] = []

  /// `diagnostics` nil reads silently (the pre-scan reads a file a second time).
  init(bytes: ByteReader, file: String, diagnostics: DiagnosticLog?) {
    self.bytes = bytes
    self.file = file
    self.diagnostics = diagnostics
  }

  func next() throws(RemconvError) -> ContentLine? {
    while true {
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
        if logical.count > InputLimits.maximumFieldSize {
          throw .invalidInput(
            "a content line is longer than the limit of \(InputLimits.maximumFieldSize) bytes",
            at: SourceLocation(file: file, line: start))
        }
      }
      if logical.isEmpty { continue }
      return ContentLine(text: decode(logical, line: start), line: start)
    }
  }

  private func decode(_ bytes: [UInt8], line: Int) -> String {
    var bytes = bytes
    if bytes.contains(0) {
      bytes.removeAll { $0 == 0 }
      diagnostics?.warning(
        "encoding", "the line holds NUL bytes; they are removed", at: SourceLocation(file: file, line: line))
    }
    if let text = Self.validUTF8(bytes) { return text }
    diagnostics?.warning(
      "encoding", "the line is not UTF-8; it is read as ISO-8859-1", at: SourceLocation(file: file, line: line))
    return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
  }

  /// The text when `bytes` are UTF-8, else nil. `String(validating:)` is generic code the
  /// compiler does not specialise; decoding (which repairs) and comparing is several times
  /// faster, and exact: a repair writes U+FFFD where the input has bytes that are not UTF-8.
  static func validUTF8(_ bytes: [UInt8]) -> String? {
    var text = String(decoding: bytes, as: UTF8.self)
    let same = text.withUTF8 { decoded in
      guard decoded.count == bytes.count else { return false }
      return bytes.withUnsafeBufferPointer { original in
        guard let first = original.baseAddress, let second = decoded.baseAddress else { return original.isEmpty }
        return memcmp(first, second, original.count) == 0
      }
    }
    return same ? text : nil
  }
}
