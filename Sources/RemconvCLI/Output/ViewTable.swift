import RemconvCore

/// A reminder's line of a view, measured: the texts its cells show and their widths, kept
/// as the reminder's own strings (no cell is made as a string of its own) and written straight
/// into the output's bytes.
///
/// The cells are those of `ReminderRenderer`: ID, check box indented by depth with the title,
/// due date, priority marks, flag, repeat and alarm marks, and the list's name where a section
/// mixes lists.
struct ViewTextRow {
  static let columnCount = 7

  let id: Substring
  let idWidth: Int
  let depth: Int
  let isDone: Bool
  let title: String
  let titleWidth: Int
  let due: DueDate?
  let dueWidth: Int
  let isOverdue: Bool
  let priority: Priority
  let flagged: Bool
  let schedule: ScheduleMarks
  /// The row's list's colour, which its priority marks and list name take.
  let listColor: String?
  /// The list's name as the last cell shows it, or nil when the row does not show it.
  let listName: String?
  let listNameWidth: Int
  /// A line under the row (a search's matching line of notes), styled already.
  let note: String?

  /// The repeat and alarm marks a row shows.
  enum ScheduleMarks: Int {
    case none, repeating, alarms, both

    init(repeating: Bool, alarms: Bool) { self.init(rawValue: (repeating ? 1 : 0) + (alarms ? 2 : 0))! }

    var text: String { Self.texts[rawValue] }
    var width: Int { Self.widths[rawValue] }

    private static let texts = ["", "↻", "⏰", "↻⏰"]
    private static let widths = texts.map(TerminalText.width)
  }

  /// The width of the cell in `column`.
  func width(_ column: Int) -> Int {
    switch column {
    case 0: idWidth
    case 1: 2 * depth + 4 + titleWidth
    case 2: dueWidth
    case 3: Self.priorityWidth(priority)
    case 4: flagged ? 1 : 0
    case 5: schedule.width
    default: listNameWidth
    }
  }

  static func priorityWidth(_ priority: Priority) -> Int { max(0, priority.storedValue) }

  /// The columns of a due date as `ReminderRenderer.text(of:)` writes it.
  static func width(of due: DueDate) -> Int {
    func time(_ value: LocalDateTime) -> Int {
      guard (0...9999).contains(value.date.year) else { return ReminderRenderer.text(of: due).utf8.count }
      return value.second == 0 ? 16 : 19
    }
    switch due {
    case .date(let date): return (0...9999).contains(date.year) ? 10 : date.description.utf8.count
    case .floating(let value): return time(value)
    case .utc(let value): return time(value) + 4
    case .zoned(let value, let zone): return time(value) + 1 + TerminalText.width(zone)
    }
  }
}

/// The bytes of one line as it is made: spaces are held back until something follows them, so
/// a line ends without trailing blanks, as `TextTable` trims its lines.
///
/// The bytes go into a buffer the line owns and reuses, not an array: an array's append checks
/// and grows its storage byte by byte, which cost more than all else a row's cells do.
final class LineBytes {
  private var buffer: UnsafeMutableBufferPointer<UInt8>
  private var count = 0
  private var pendingSpaces = 0

  init() { buffer = .allocate(capacity: 256) }

  deinit { buffer.deallocate() }

  func spaces(_ count: Int) { pendingSpaces += max(0, count) }

  func text(_ text: some StringProtocol) {
    let copied: Void? = text.utf8.withContiguousStorageIfAvailable { append($0) }
    if copied == nil { Array(text.utf8).withUnsafeBufferPointer { append($0) } }
  }

  /// Appends `text`'s bytes; its trailing spaces are held back.
  private func append(_ text: UnsafeBufferPointer<UInt8>) {
    var end = text.count
    while end > 0, text[end - 1] == 0x20 { end -= 1 }
    let trailing = text.count - end
    guard end > 0, let source = text.baseAddress else {
      pendingSpaces += trailing
      return
    }
    flushSpaces()
    reserve(end)
    (buffer.baseAddress! + count).initialize(from: source, count: end)
    count += end
    pendingSpaces = trailing
  }

  func ascii(_ byte: UInt8) {
    flushSpaces()
    reserve(1)
    buffer[count] = byte
    count += 1
  }

  /// Two digits of `value` (0 to 99).
  func twoDigits(_ value: Int) {
    flushSpaces()
    reserve(2)
    buffer[count] = 0x30 &+ UInt8(truncatingIfNeeded: value / 10)
    buffer[count + 1] = 0x30 &+ UInt8(truncatingIfNeeded: value % 10)
    count += 2
  }

  private func flushSpaces() {
    guard pendingSpaces > 0 else { return }
    reserve(pendingSpaces)
    (buffer.baseAddress! + count).initialize(repeating: 0x20, count: pendingSpaces)
    count += pendingSpaces
    pendingSpaces = 0
  }

  /// Makes room for `more` bytes past those written.
  private func reserve(_ more: Int) {
    guard count + more > buffer.count else { return }
    let larger = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(2 * buffer.count, count + more))
    (larger.baseAddress! as UnsafeMutablePointer<UInt8>).initialize(from: buffer.baseAddress!, count: count)
    buffer.deallocate()
    buffer = larger
  }

  /// Writes the line and a line feed, and starts the next.
  func finish(to output: ByteWriter) throws {
    reserve(1)
    buffer[count] = 0x0A
    count += 1
    try output.write(buffer: UnsafeBufferPointer(rebasing: buffer[..<count]))
    count = 0
    pendingSpaces = 0
  }
}

/// A view's table printed as its rows come, with lines of text between them (headings): the
/// first rows are held and decide the columns' widths (each column as wide as its widest cell,
/// the title's at most `titleColumnLimit`), then they and every later row are written at once
/// in those widths. A column blank in every held row is left out where a row's cell is blank.
struct ViewTable {
  private enum Item {
    case text(String)
    case row(ViewTextRow)
  }

  private let style: TextStyle
  private let today: Today
  private let firstPageRows: Int
  private let titleColumnLimit: Int
  private let output: ByteWriter
  private var page: [Item] = []
  private var heldRows = 0
  private var widths: [Int]?
  private let line = LineBytes()
  /// Where a row's note starts: past the indent, the ID column and the check box.
  private var noteIndent = ""

  init(style: TextStyle, today: Today, firstPageRows: Int, titleColumnLimit: Int, output: ByteWriter) {
    self.style = style
    self.today = today
    self.firstPageRows = firstPageRows
    self.titleColumnLimit = titleColumnLimit
    self.output = output
  }

  mutating func add(text: String) throws {
    if widths == nil { page.append(.text(text)) } else { try write(text) }
  }

  mutating func add(_ row: ViewTextRow) throws {
    guard let widths else {
      page.append(.row(row))
      heldRows += 1
      if heldRows == firstPageRows { try finish() }
      return
    }
    try write(row, widths: widths)
  }

  /// Prints what is held.
  mutating func finish() throws {
    guard widths == nil else { return }
    var widths = [Int](repeating: 0, count: heldRows == 0 ? 0 : ViewTextRow.columnCount)
    for case .row(let row) in page {
      for column in widths.indices { widths[column] = max(widths[column], row.width(column)) }
    }
    if widths.count > 1 { widths[1] = min(widths[1], titleColumnLimit) }
    self.widths = widths
    noteIndent = String(repeating: " ", count: (widths.first ?? 0) + 8)
    for item in page {
      switch item {
      case .text(let text): try write(text)
      case .row(let row): try write(row, widths: widths)
      }
    }
    page = []
  }

  private func write(_ text: String) throws {
    try output.write(text)
    try output.write(byte: 0x0A)
  }

  private mutating func write(_ row: ViewTextRow, widths: [Int]) throws {
    line.spaces(2)
    var first = true
    for column in 0..<max(widths.count, ViewTextRow.columnCount) {
      let cellWidth = row.width(column)
      let width = column < widths.count ? widths[column] : 0
      guard width > 0 || cellWidth > 0 else { continue }
      if !first { line.spaces(2) }
      first = false
      writeCell(column, of: row)
      line.spaces(width - cellWidth)
    }
    try line.finish(to: output)
    if let note = row.note { try write(noteIndent + note) }
  }

  private mutating func writeCell(_ column: Int, of row: ViewTextRow) {
    switch column {
    case 0:
      if style.enabled { line.text(style.dim(String(row.id))) } else { line.text(row.id) }
    case 1:
      if style.enabled, row.isDone {
        line.text(style.dim(String(repeating: "  ", count: row.depth) + "[x] " + row.title))
        return
      }
      line.spaces(2 * row.depth)
      line.ascii(0x5B)
      line.ascii(row.isDone ? 0x78 : 0x20)
      line.ascii(0x5D)
      line.spaces(1)
      line.text(row.title)
    case 2:
      guard let due = row.due else { return }
      if style.enabled, row.isOverdue { return line.text(style.red(ReminderRenderer.text(of: due))) }
      writeDue(due)
    case 3:
      let marks = ReminderRenderer.marks(for: row.priority)
      guard !marks.isEmpty else { return }
      line.text(style.enabled ? style.color(marks, hex: row.listColor) : marks)
    case 4:
      guard row.flagged else { return }
      line.text(style.enabled ? style.orange("⚑") : "⚑")
    case 5:
      guard row.schedule != .none else { return }
      line.text(style.enabled ? style.dim(row.schedule.text) : row.schedule.text)
    default:
      guard let name = row.listName else { return }
      line.text(style.enabled ? style.color(name, hex: row.listColor) : name)
    }
  }

  /// A due date as `ReminderRenderer.text(of:)` writes it, digit by digit.
  private mutating func writeDue(_ due: DueDate) {
    func date(_ value: LocalDate) -> Bool {
      guard (0...9999).contains(value.year) else { return false }
      line.twoDigits(value.year / 100)
      line.twoDigits(value.year % 100)
      line.ascii(0x2D)
      line.twoDigits(value.month)
      line.ascii(0x2D)
      line.twoDigits(value.day)
      return true
    }
    func time(_ value: LocalDateTime) -> Bool {
      guard date(value.date) else { return false }
      line.spaces(1)
      line.twoDigits(value.hour)
      line.ascii(0x3A)
      line.twoDigits(value.minute)
      if value.second != 0 {
        line.ascii(0x3A)
        line.twoDigits(value.second)
      }
      return true
    }
    let written: Bool
    switch due {
    case .date(let value): written = date(value)
    case .floating(let value): written = time(value)
    case .utc(let value):
      written = time(value)
      if written { line.text(" UTC") }
    case .zoned(let value, let zone):
      written = time(value)
      if written {
        line.spaces(1)
        line.text(zone)
      }
    }
    if !written { line.text(ReminderRenderer.text(of: due)) }
  }
}
