/// A component cut from the stream: its content lines from `BEGIN` to `END`.
struct ComponentBlock: Sendable {
  /// The component name in upper case (`VTODO`, `VTIMEZONE`, `VEVENT`).
  var name: String
  /// Every line from `BEGIN:` to the matching `END:`; empty for components read only to skip.
  var lines: [ContentLine]
  /// The line of `BEGIN:`.
  var startLine: Int

  /// The properties of the component itself (not of its sub-components), with their indices.
  func topLevelProperties() -> [(index: Int, line: ContentLine)] {
    var result: [(Int, ContentLine)] = []
    var depth = 0
    for (index, line) in lines.enumerated() {
      switch line.boundary {
      case .begin: depth += 1
      case .end: depth -= 1
      case nil: if depth == 1 { result.append((index, line)) }
      }
    }
    return result
  }

  /// The value of the first top-level property `name`, unescaped.
  func firstValue(of name: String) -> String? {
    for (_, line) in topLevelProperties() where line.name == name {
      return line.parts.map { ICSText.unescape($0.value) }
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
  private let lines: ContentLineReader
  private let file: String
  /// Components whose lines are kept; others are read and dropped.
  private let kept: Set<String>
  private var calendarStart: Int?
  private var sawContent = false

  init(lines: ContentLineReader, file: String, keeping kept: Set<String>) {
    self.lines = lines
    self.file = file
    self.kept = kept
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
      throw malformed("the VCALENDAR that begins here is never closed (no END:VCALENDAR before the end of the input)", start)
    }
    if !sawContent { throw malformed("the input is empty, not iCalendar", nil) }
    return nil
  }

  /// Reads from `first` (a `BEGIN:`) to its matching `END:`.
  private func readComponent(_ name: String, first: ContentLine) throws(RemconvError) -> ComponentBlock {
    let keep = kept.contains(name)
    var block = ComponentBlock(name: name, lines: keep ? [first] : [], startLine: first.line)
    var open: [(name: String, line: Int)] = [(name, first.line)]
    var size = first.text.utf8.count
    while let line = try lines.next() {
      if keep {
        block.lines.append(line)
        size += line.text.utf8.count
        if size > InputLimits.maximumDocumentSize {
          throw RemconvError.invalidInput(
            "the \(name) is larger than the limit of \(InputLimits.maximumDocumentSize) bytes",
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
        if open.isEmpty { return block }
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
