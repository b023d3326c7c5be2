/// Columns aligned by display width, for plain terminal output with or without colour.
///
/// Each cell keeps its plain text (measured) apart from its styled text (printed), so ANSI
/// escapes never count towards a column's width, and a row with colour lines up with one
/// without.
struct TextTable {
  struct Cell {
    let plain: String
    let styled: String
    /// The display width of `plain`, measured once.
    let width: Int

    init(_ plain: String, styled: String? = nil) {
      let printable = TerminalText.printable(plain)
      self.plain = printable
      self.styled = styled ?? printable
      width = TerminalText.width(printable)
    }

    static let empty = Cell("")
  }

  enum Alignment {
    case left, right
  }

  var alignments: [Alignment]
  /// Columns wider than this are not padded beyond it: a very long title overflows on its own
  /// line instead of pushing every other row to the right.
  var maximumWidths: [Int?]
  private(set) var rows: [(indent: String, cells: [Cell])] = []

  init(alignments: [Alignment], maximumWidths: [Int?] = []) {
    self.alignments = alignments
    self.maximumWidths = maximumWidths
  }

  mutating func add(_ cells: [Cell], indent: String = "") {
    rows.append((indent, cells))
  }

  /// The rows as lines: columns separated by two spaces, trailing blanks trimmed, empty
  /// columns (blank in every row) left out.
  func lines() -> [String] {
    let columnCount = rows.map(\.cells.count).max() ?? 0
    var widths = [Int](repeating: 0, count: columnCount)
    for row in rows {
      for (index, cell) in row.cells.enumerated() {
        widths[index] = max(widths[index], cell.width)
      }
    }
    for (index, limit) in maximumWidths.enumerated() where index < columnCount {
      if let limit { widths[index] = min(widths[index], limit) }
    }
    return rows.map { row in
      var parts: [String] = []
      for index in 0..<columnCount where widths[index] > 0 {
        let cell = index < row.cells.count ? row.cells[index] : .empty
        let padding = String(repeating: " ", count: max(0, widths[index] - cell.width))
        let alignment = index < alignments.count ? alignments[index] : .left
        parts.append(alignment == .left ? cell.styled + padding : padding + cell.styled)
      }
      var line = row.indent + parts.joined(separator: "  ")
      while line.last == " " { line.removeLast() }
      return line
    }
  }
}
