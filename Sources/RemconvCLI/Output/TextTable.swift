import RemconvCore

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
      let measured = TerminalText.measured(plain)
      self.plain = measured.text
      self.styled = styled ?? measured.text
      width = measured.width
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
    let widths = columnWidths()
    return rows.map { line($0.cells, indent: $0.indent, widths: widths) }
  }

  /// Each column's width: its widest cell's, at most its maximum; 0 for a column blank in
  /// every row.
  func columnWidths() -> [Int] {
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
    return widths
  }

  /// One row as a line laid out in `widths`. A column of width 0 is left out where the row's
  /// cell is blank too (a row laid out in widths decided without it may fill it).
  func line(_ cells: [Cell], indent: String, widths: [Int]) -> String {
    // One string grown in place: a view prints a line per reminder.
    var line = indent
    var first = true
    for index in 0..<max(widths.count, cells.count) {
      let cell = index < cells.count ? cells[index] : .empty
      let width = index < widths.count ? widths[index] : 0
      guard width > 0 || cell.width > 0 else { continue }
      if !first { line.append("  ") }
      first = false
      let padding = max(0, width - cell.width)
      let alignment = index < alignments.count ? alignments[index] : .left
      if alignment == .left {
        line.append(cell.styled)
        Self.appendSpaces(padding, to: &line)
      } else {
        Self.appendSpaces(padding, to: &line)
        line.append(cell.styled)
      }
    }
    while line.utf8.last == 0x20 { line.removeLast() }
    return line
  }

  private static let spaces = String(repeating: " ", count: 64)

  private static func appendSpaces(_ count: Int, to line: inout String) {
    var left = count
    while left > 0 {
      let chunk = min(left, 64)
      line.append(contentsOf: spaces.utf8.count == chunk ? spaces[...] : spaces.prefix(chunk))
      left -= chunk
    }
  }
}
