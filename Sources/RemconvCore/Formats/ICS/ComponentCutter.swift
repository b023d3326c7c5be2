/// A component cut from the stream: its content lines from `BEGIN` to `END`.
struct ComponentBlock: Sendable {
  /// The component name in upper case (`VTODO`, `VTIMEZONE`, `VEVENT`).
  let name: String
  /// Every line from `BEGIN:` to the matching `END:`; empty for components read only to skip.
  let lines: [ContentLine]
  /// The line of `BEGIN:`.
  let startLine: Int
  /// The indices in `lines` of the component's own properties (not its sub-components').
  let topLevel: [Int]

  init(name: String, lines: [ContentLine], startLine: Int) {
    self.name = name
    self.lines = lines
    self.startLine = startLine
    var topLevel: [Int] = []
    var depth = 0
    for (index, line) in lines.enumerated() {
      switch line.boundary {
      case .begin: depth += 1
      case .end: depth -= 1
      case nil: if depth == 1 { topLevel.append(index) }
      }
    }
    self.topLevel = topLevel
  }

  /// The component's own properties, with their indices.
  func topLevelProperties() -> [(index: Int, line: ContentLine)] {
    topLevel.map { ($0, lines[$0]) }
  }

  /// Whether the component has a property `name` of its own.
  func has(_ name: ICSName) -> Bool {
    topLevel.contains { lines[$0].known == name }
  }

  /// The value of the first top-level property `name`, unescaped.
  func firstValue(of name: ICSName) -> String? {
    for index in topLevel where lines[index].known == name {
      return lines[index].parts.map { ICSText.unescape($0.value) }
    }
    return nil
  }

  /// The text libical parses: the lines joined by CRLF.
  var text: [UInt8] {
    var bytes: [UInt8] = []
    for line in lines {
      bytes.append(contentsOf: line.text.utf8)
      bytes.append(0x0D)
      bytes.append(0x0A)
    }
    return bytes
  }
}

/// What the cutter finds, in stream order.
enum CutterEvent {
  case calendarBegin(line: Int)
  /// A property of the VCALENDAR (`NAME`, `X-WR-CALNAME`, `PRODID`, ...).
  case calendarProperty(ContentLine)
  /// A component. `insideCalendar` is false for components found outside any VCALENDAR.
  case component(ComponentBlock, insideCalendar: Bool)
  case calendarEnd(line: Int)
}

/// Cuts an iCalendar stream at component boundaries, so that a reader holds one component at
/// a time however large the file.
///
/// Broken structure throws `malformedInput` with the line: input that is not iCalendar, an
/// `END` that closes nothing or the wrong component, a component never closed, a property
/// outside any component, nesting beyond `InputLimits.maximumNestingDepth`.
final class ComponentCutter {
  /// The lines of the kept components a reader needs, when not all of them: the pre-scan
  /// needs few. A component's `BEGIN` line is always kept; keeping no sub-component boundaries
  /// keeps the depth of every line kept at 1 (`ComponentBlock.topLevel`).
  struct LineSelection {
    /// Kept components whose every line is kept.
    let whole: Set<String>
    /// Of the other kept components, the names of their own lines (depth 1) that are kept.
    let topLevel: Set<ICSName>
    /// What a line that is neither kept nor a boundary cannot start with: other lines are
    /// passed over unread (`ContentLineReader.nextHead(readingOnly:)`), which is most of a
    /// pre-scan's lines. Names are ASCII and case-insensitive (RFC 5545 §3.1).
    fileprivate let boundaryBytes: ByteSet
    fileprivate let topLevelBytes: ByteSet

    init(whole: Set<String>, topLevel: Set<ICSName>) {
      self.whole = whole
      self.topLevel = topLevel
      let firsts = { (names: [ICSName]) in ByteSet(names.compactMap(\.rawValue.utf8.first).flatMap { [$0, $0 | 0x20] })
      }
      boundaryBytes = firsts([.begin, .end])
      topLevelBytes = firsts([.begin, .end] + topLevel)
    }

    /// Whether a line of a kept component not kept whole is kept. Depth is 1 for the
    /// component's own lines and its sub-components' `BEGIN` and `END`, more inside those.
    fileprivate func keeps(_ line: ContentLineReader.Head, depth: Int) -> Bool {
      depth == 1 && line.known.map(topLevel.contains) == true
    }

    /// The first bytes of the lines worth reading at this depth of a component that is kept
    /// but not whole, or not kept.
    fileprivate func firstBytes(kept: Bool, depth: Int) -> ByteSet {
      kept && depth == 1 ? topLevelBytes : boundaryBytes
    }
  }

  private let lines: ContentLineReader
  private let file: String
  /// Components whose lines are kept; others are read and dropped.
  private let kept: Set<String>
  private let selection: LineSelection?
  private var calendarStart: Int?
  private var sawContent = false

  init(lines: ContentLineReader, file: String, keeping kept: Set<String>, selecting selection: LineSelection? = nil) {
    self.lines = lines
    self.file = file
    self.kept = kept
    self.selection = selection
  }

  func next() throws(RemconvError) -> CutterEvent? {
    while let line = try lines.next() {
      let boundary = line.boundary
      if !sawContent, boundary == nil {
        throw malformed("this is not iCalendar: expected BEGIN:VCALENDAR, found '\(line.text.prefix(40))'", line.line)
      }
      sawContent = true
      if let start = calendarStart {
        switch boundary {
        case .begin("VCALENDAR"):
          throw malformed("BEGIN:VCALENDAR inside the VCALENDAR that begins at line \(start)", line.line)
        case .begin(let name):
          return .component(try readComponent(name, first: line), insideCalendar: true)
        case .end("VCALENDAR"):
          calendarStart = nil
          return .calendarEnd(line: line.line)
        case .end(let name):
          throw malformed("END:\(name) does not close the VCALENDAR that begins at line \(start)", line.line)
        case nil:
          return .calendarProperty(line)
        }
      }
      switch boundary {
      case .begin("VCALENDAR"):
        calendarStart = line.line
        return .calendarBegin(line: line.line)
      case .begin(let name):
        return .component(try readComponent(name, first: line), insideCalendar: false)
      case .end(let name):
        throw malformed("END:\(name) without a BEGIN:\(name)", line.line)
      case nil:
        throw malformed("a property outside any component: '\(line.text.prefix(40))'", line.line)
      }
    }
    if let start = calendarStart {
      throw malformed(
        "the VCALENDAR that begins here is never closed (no END:VCALENDAR before the end of the input)", start)
    }
    // Line 1, where the content should have begun: a located error, like every other.
    if !sawContent { throw malformed("the input is empty, not iCalendar", 1) }
    return nil
  }

  /// Reads from `first` (a `BEGIN:`) to its matching `END:`.
  private func readComponent(_ name: String, first: ContentLine) throws(RemconvError) -> ComponentBlock {
    let keep = kept.contains(name)
    // The selection, for a component it does not keep whole (decided once, not per line).
    let partial = selection.flatMap { keep && $0.whole.contains(name) ? nil : $0 }
    let ownLineBytes = partial?.firstBytes(kept: keep, depth: 1)
    let innerLineBytes = partial?.firstBytes(kept: keep, depth: 2)
    var lines = keep ? [first] : []
    var open: [(name: String, line: Int)] = [(name, first.line)]
    var size = first.text.utf8.count
    // Lines are decoded only when kept, and with a selection not even read unless they may be.
    while let line = try self.lines.nextHead(readingOnly: open.count == 1 ? ownLineBytes : innerLineBytes) {
      if keep {
        if partial?.keeps(line, depth: open.count) ?? true { lines.append(self.lines.materialize()) }
        size += self.lines.decodedLength
        if size > InputLimits.maximumRawItemSize {
          throw RemconvError.invalidInput(
            "the \(name) is larger than the limit of \(InputLimits.maximumRawItemSize) bytes of one item as iCalendar",
            at: SourceLocation(file: file, line: first.line))
        }
      }
      switch line.boundary {
      case .begin(let inner):
        open.append((inner, line.line))
        if open.count > InputLimits.maximumNestingDepth {
          throw malformed("components nest deeper than \(InputLimits.maximumNestingDepth) levels", line.line)
        }
      case .end(let inner):
        guard let innermost = open.last else { break }
        guard inner == innermost.name else {
          throw malformed("END:\(inner) does not match BEGIN:\(innermost.name) at line \(innermost.line)", line.line)
        }
        open.removeLast()
        if open.isEmpty { return ComponentBlock(name: name, lines: lines, startLine: first.line) }
      case nil:
        break
      }
    }
    let innermost = open.last ?? (name, first.line)
    throw malformed(
      "BEGIN:\(innermost.name) is never closed (no END:\(innermost.name) before the end of the input)", innermost.line)
  }

  private func malformed(_ message: String, _ line: Int?) -> RemconvError {
    .malformedInput(message, at: SourceLocation(file: file, line: line))
  }
}
