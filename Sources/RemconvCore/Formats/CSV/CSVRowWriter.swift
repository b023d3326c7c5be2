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
  /// The row being written: its cells are encoded here and the row goes out in one write.
  /// Its storage is reused from row to row.
  private var row: [UInt8] = []
  /// Whether the row being written has a cell yet (each cell after the first follows a delimiter).
  private var rowHasCell = false

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
    for cell in cells { appendCell(cell) }
    try endRow()
  }

  /// Adds a cell to the row being written: nil is a bare empty field.
  public func appendCell(_ text: String?) {
    separateCell()
    guard let text else { return }
    Self.appendField(text, delimiter: delimiter, excel: excel, to: &row)
  }

  /// Adds a cell holding the text whose UTF-8 is `bytes` to the row being written: what a writer
  /// that spells a value as bytes (JSON, a tag list) adds without making a `String` of it.
  public func appendCell(utf8 bytes: [UInt8]) {
    separateCell()
    bytes.withUnsafeBufferPointer { Self.appendField($0, delimiter: delimiter, excel: excel, to: &row) }
  }

  /// Adds cells as `encodedCells` wrote them: cells that repeat from row to row are quoted once.
  public func appendCells(_ encoded: EncodedCells) {
    guard !encoded.bytes.isEmpty else { return }
    // Each encoded cell starts with its delimiter, which the row's first cell does without.
    row += rowHasCell ? encoded.bytes[...] : encoded.bytes.dropFirst()
    rowHasCell = true
  }

  /// Ends the row being written and writes it.
  public func endRow() throws(RemconvError) {
    row += lineEnd
    try output.write(bytes: row)
    row.removeAll(keepingCapacity: true)
    rowHasCell = false
  }

  /// Cells as this writer writes them, each after a delimiter, for `appendCells`.
  public struct EncodedCells: Sendable {
    fileprivate let bytes: [UInt8]
  }

  /// `cells` encoded for `appendCells`.
  public func encodedCells(_ cells: [String?]) -> EncodedCells {
    var bytes: [UInt8] = []
    for cell in cells {
      bytes.append(delimiter)
      if let cell { Self.appendField(cell, delimiter: delimiter, excel: excel, to: &bytes) }
    }
    return EncodedCells(bytes: bytes)
  }

  public func flush() throws(RemconvError) { try output.flush() }

  private func separateCell() {
    if rowHasCell { row.append(delimiter) }
    rowHasCell = true
  }

  private static func appendField(_ text: String, delimiter: UInt8, excel: Bool, to row: inout [UInt8]) {
    var text = text
    // The field's bytes in place (no copy, no index arithmetic on String.UTF8View).
    text.withUTF8 { appendField($0, delimiter: delimiter, excel: excel, to: &row) }
  }

  private static func appendField(
    _ bytes: UnsafeBufferPointer<UInt8>, delimiter: UInt8, excel: Bool, to row: inout [UInt8]
  ) {
    let neutralise = excel && bytes.first.map(formulaTriggers.contains) == true
    guard needsQuotes(bytes, delimiter: delimiter) else {
      if neutralise { row.append(UInt8(ascii: "'")) }
      row.append(contentsOf: bytes)
      return
    }
    row.append(UInt8(ascii: "\""))
    if neutralise { row.append(UInt8(ascii: "'")) }
    var runStart = 0
    for index in bytes.indices where bytes[index] == UInt8(ascii: "\"") {
      // Up to and including the quote, then the quote again.
      row.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...index]))
      row.append(UInt8(ascii: "\""))
      runStart = index + 1
    }
    row.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
    row.append(UInt8(ascii: "\""))
  }

  private static func needsQuotes(_ bytes: UnsafeBufferPointer<UInt8>, delimiter: UInt8) -> Bool {
    guard let first = bytes.first, let last = bytes.last else { return true }  // "" is quoted
    if first == 0x20 || first == 0x09 || last == 0x20 || last == 0x09 { return true }
    for byte in bytes where byte == delimiter || byte == UInt8(ascii: "\"") || byte == 0x0A || byte == 0x0D {
      return true
    }
    return false
  }
}
