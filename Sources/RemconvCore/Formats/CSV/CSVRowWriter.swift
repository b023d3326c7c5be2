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
  /// The storage of the rows, kept from row to row (nil while a row is being built).
  private var spareCells: Cells?

  public init(output: ByteWriter, delimiter: UInt8 = UInt8(ascii: ","), excel: Bool = false) throws(RemconvError) {
    self.output = output
    self.delimiter = delimiter
    self.excel = excel
    lineEnd = excel ? [0x0D, 0x0A] : [0x0A]
    spareCells = Cells(delimiter: delimiter, excel: excel)
    if excel { try output.write(bytes: [0xEF, 0xBB, 0xBF]) }
  }

  public convenience init(output: ByteWriter, options: WriterOptions) throws(RemconvError) {
    try self.init(output: output, delimiter: options.delimiter, excel: options.excel)
  }

  /// Writes one row.
  public func writeRow(_ cells: [String?]) throws(RemconvError) {
    try writeRow { row in
      for cell in cells { row.append(cell) }
    }
  }

  /// Writes one row, its cells added by `build` in order, and the whole row in one write. The
  /// cells are encoded in a value of their own rather than in this writer's storage: a class's
  /// storage changed cell by cell is checked for exclusive access at every change.
  public func writeRow(_ build: (inout Cells) -> Void) throws(RemconvError) {
    var cells = spareCells ?? Cells(delimiter: delimiter, excel: excel)
    spareCells = nil
    cells.removeAll()
    build(&cells)
    cells.bytes += lineEnd
    try output.write(bytes: cells.bytes)
    spareCells = cells
  }

  /// `cells` encoded once, for rows that repeat them (`Cells.append(_:)`).
  public func encodedCells(_ cells: [String?]) -> EncodedCells {
    var row = Cells(delimiter: delimiter, excel: excel)
    for cell in cells { row.append(cell) }
    // Each encoded cell starts with its delimiter, the first one too.
    return EncodedCells(bytes: [delimiter] + row.bytes)
  }

  public func flush() throws(RemconvError) { try output.flush() }

  /// Cells as a writer writes them, each after a delimiter.
  public struct EncodedCells: Sendable {
    fileprivate let bytes: [UInt8]
  }

  /// The cells of a row being written, encoded one after another.
  public struct Cells {
    fileprivate var bytes: [UInt8] = []
    /// The bytes of a cell spelled by `append(spelling:)`; the storage is reused.
    private var spelled: [UInt8] = []
    private var hasCell = false
    private let delimiter: UInt8
    private let excel: Bool

    fileprivate init(delimiter: UInt8, excel: Bool) {
      self.delimiter = delimiter
      self.excel = excel
    }

    fileprivate mutating func removeAll() {
      bytes.removeAll(keepingCapacity: true)
      hasCell = false
    }

    /// Adds a cell: nil is a bare empty field.
    public mutating func append(_ text: String?) {
      separate()
      guard var text else { return }
      // The field's bytes in place (no copy, no index arithmetic on String.UTF8View).
      text.withUTF8 { appendField($0) }
    }

    /// Adds the cell whose text's UTF-8 `spell` appends: a value spelled as bytes (JSON, a tag
    /// list) needs no `String`.
    public mutating func append(spelling spell: (inout [UInt8]) -> Void) {
      separate()
      spelled.removeAll(keepingCapacity: true)
      spell(&spelled)
      let field = spelled
      spelled = []
      field.withUnsafeBufferPointer { appendField($0) }
      spelled = field
    }

    /// Adds cells encoded by `encodedCells`.
    public mutating func append(_ encoded: EncodedCells) {
      guard !encoded.bytes.isEmpty else { return }
      // The row's first cell goes without its delimiter.
      bytes += hasCell ? encoded.bytes[...] : encoded.bytes.dropFirst()
      hasCell = true
    }

    private mutating func separate() {
      if hasCell { bytes.append(delimiter) }
      hasCell = true
    }

    private mutating func appendField(_ field: UnsafeBufferPointer<UInt8>) {
      let neutralise = excel && field.first.map(CSVRowWriter.formulaTriggers.contains) == true
      guard needsQuotes(field) else {
        if neutralise { bytes.append(UInt8(ascii: "'")) }
        bytes.append(contentsOf: field)
        return
      }
      bytes.append(UInt8(ascii: "\""))
      if neutralise { bytes.append(UInt8(ascii: "'")) }
      var runStart = 0
      for index in field.indices where field[index] == UInt8(ascii: "\"") {
        // Up to and including the quote, then the quote again.
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: field[runStart...index]))
        bytes.append(UInt8(ascii: "\""))
        runStart = index + 1
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: field[runStart...]))
      bytes.append(UInt8(ascii: "\""))
    }

    private func needsQuotes(_ field: UnsafeBufferPointer<UInt8>) -> Bool {
      guard let first = field.first, let last = field.last else { return true }  // "" is quoted
      if first == 0x20 || first == 0x09 || last == 0x20 || last == 0x09 { return true }
      for byte in field where byte == delimiter || byte == UInt8(ascii: "\"") || byte == 0x0A || byte == 0x0D {
        return true
      }
      return false
    }
  }
}
