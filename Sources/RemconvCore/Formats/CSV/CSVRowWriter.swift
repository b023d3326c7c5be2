/// Writes CSV rows as bytes: RFC 4180 quoting only where a field needs it.
///
/// A cell is `String?`: nil is written as a bare empty field (no value), `""` as a quoted one
/// (the empty string), so readers that care (remconv's own CSV) can tell them apart.
///
/// A field is quoted when it holds the delimiter, a quote, CR or LF, or starts or ends with a
/// space or tab (which some spreadsheets trim from bare fields). Rows end with LF by default.
///
/// With `excel` (`--excel`), for spreadsheets: the file starts with a UTF-8 byte order mark (so
/// Excel reads UTF-8), rows end with CRLF, and a cell starting with `=`, `+`, `-`, `@`, a tab or
/// a CR gets a `'` in front, so that a spreadsheet shows it as text instead of running it as a
/// formula (CSV injection, OWASP). Such a file is meant for reading, not for importing back: the
/// added `'` stays in the text.
public final class CSVRowWriter {
  /// First bytes of cells a spreadsheet would evaluate as a formula.
  public static let formulaTriggers: Set<UInt8> = [
    UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D,
  ]

  private let output: ByteWriter
  private let delimiter: UInt8
  private let excel: Bool
  private let lineEnd: [UInt8]

  public init(output: ByteWriter, delimiter: UInt8 = UInt8(ascii: ","), excel: Bool = false) throws(RemconvError) {
    self.output = output
    self.delimiter = delimiter
    self.excel = excel
    lineEnd = excel ? [0x0D, 0x0A] : [0x0A]
    if excel { try output.write(bytes: [0xEF, 0xBB, 0xBF]) }
  }

  public convenience init(output: ByteWriter, options: WriterOptions) throws(RemconvError) {
    try self.init(output: output, delimiter: options.delimiter, excel: options.excel)
  }

  /// Writes one row.
  public func writeRow(_ cells: [String?]) throws(RemconvError) {
    for (index, cell) in cells.enumerated() {
      if index > 0 { try output.write(byte: delimiter) }
      guard let cell else { continue }
      try writeField(cell)
    }
    try output.write(bytes: lineEnd)
  }

  public func flush() throws(RemconvError) { try output.flush() }

  private func writeField(_ text: String) throws(RemconvError) {
    var text = text
    // The field's bytes in place (no copy, no index arithmetic on String.UTF8View).
    try text.withUTF8 { bytes in Result { () throws(RemconvError) in try writeField(bytes) } }.get()
  }

  private func writeField(_ bytes: UnsafeBufferPointer<UInt8>) throws(RemconvError) {
    let neutralise = excel && bytes.first.map(Self.formulaTriggers.contains) == true
    guard needsQuotes(bytes) else {
      if neutralise { try output.write(byte: UInt8(ascii: "'")) }
      try output.write(bytes: bytes)
      return
    }
    try output.write(byte: UInt8(ascii: "\""))
    if neutralise { try output.write(byte: UInt8(ascii: "'")) }
    var runStart = 0
    for index in bytes.indices where bytes[index] == UInt8(ascii: "\"") {
      // Write up to and including the quote, then the quote again.
      try output.write(bytes: UnsafeBufferPointer(rebasing: bytes[runStart...index]))
      try output.write(byte: UInt8(ascii: "\""))
      runStart = index + 1
    }
    try output.write(bytes: UnsafeBufferPointer(rebasing: bytes[runStart...]))
    try output.write(byte: UInt8(ascii: "\""))
  }

  private func needsQuotes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let first = bytes.first, let last = bytes.last else { return true }  // "" is quoted
    if first == 0x20 || first == 0x09 || last == 0x20 || last == 0x09 { return true }
    for byte in bytes where byte == delimiter || byte == UInt8(ascii: "\"") || byte == 0x0A || byte == 0x0D {
      return true
    }
    return false
  }
}
