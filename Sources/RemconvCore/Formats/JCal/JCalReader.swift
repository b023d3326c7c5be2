/// Reads jCal by translating it to iCalendar (`JCalTranslation`) and reading that with the
/// iCalendar reader: a VCALENDAR is a list and its VTODOs are reminders by the one mapping of
/// `docs/formats-ics.md`, every other property and component kept as iCalendar keeps it.
///
/// Takes a VCALENDAR (`["vcalendar",[…],[…]]`), a JSON array of VCALENDARs, or a bare VTODO
/// (read as the one VTODO of a calendar without a name). The jCal is read one component at a
/// time into a private temporary file, so a calendar of any size holds one component in
/// memory; messages name the line of the jCal component a property came from.
final class JCalReader: ReminderReader {
  private let reader: ICSReader

  init(context: ReaderContext) throws {
    let session = ICSReadSession(
      file: context.source.displayName, diagnostics: context.diagnostics, options: context.options,
      links: ChildLinks(), derivedIDs: DerivedIDGenerator())
    let parser = JSONParser(reader: try context.openByteReader())
    parser.onDuplicateKey = context.duplicateKeyWarning
    var lineMap = JCalLineMap()
    let inputs = try ICSInput.spool(name: context.source.displayName) { writer throws(RemconvError) in
      var translator = JCalToICalendar(parser: parser, output: writer)
      try translator.translate()
      lineMap = translator.lineMap
    }
    let file = context.source.displayName
    session.sourceLocation = { [lineMap] line in lineMap.source(of: line) ?? SourceLocation(file: file, line: line) }
    try ICSPrescan.scan(inputs.prescan, session: session)
    reader = ICSReader(
      bytes: inputs.main, session: session, itemList: nil, derivation: nil,
      fallbackName: context.options.listName ?? context.source.baseName ?? "Reminders", reportsMissingChildren: true)
  }

  func next() throws -> SourceRecord? { try reader.next() }
}

/// For each line of the translation where a jCal component's lines begin, where in the jCal
/// that component begins.
struct JCalLineMap {
  private var starts: [(translated: Int, source: SourceLocation)] = []

  mutating func add(translated: Int, source: SourceLocation) { starts.append((translated, source)) }

  func source(of translated: Int) -> SourceLocation? {
    guard !starts.isEmpty else { return nil }
    var low = 0
    var high = starts.count
    while low < high {
      let middle = (low + high) / 2
      if starts[middle].translated <= translated { low = middle + 1 } else { high = middle }
    }
    return starts[max(low - 1, 0)].source
  }
}

/// Writes a jCal document as iCalendar lines, one component at a time.
private struct JCalToICalendar {
  let parser: JSONParser
  let output: ByteWriter
  private(set) var lineMap = JCalLineMap()
  private var linesWritten = 0

  init(parser: JSONParser, output: ByteWriter) {
    self.parser = parser
    self.output = output
  }

  /// `[` then either `"vcalendar"` (one calendar), `"vtodo"` (one task) or `[` (several).
  mutating func translate() throws(RemconvError) {
    guard try parser.peekToken() != nil else { throw parser.error("the input is empty") }
    let location = parser.location
    try parser.expect(UInt8(ascii: "["), "a jCal array")
    switch try parser.peekToken() {
    case UInt8(ascii: "\"")?:
      let name = try parser.parseString().lowercased()
      if name == "vcalendar" {
        try calendar(at: location)
      } else if name == "vtodo" {
        try parser.expect(UInt8(ascii: ","), "',' after the component name")
        let properties = try parser.parseValue(depth: 2)
        try parser.expect(UInt8(ascii: ","), "',' after the properties")
        let components = try parser.parseValue(depth: 2)
        try parser.expect(UInt8(ascii: "]"), "']' closing the vtodo")
        guard let todo = JCalComponent(.array([.string(name), properties, components])) else {
          throw RemconvError.malformedInput(
            "malformed jCal: a component must be [name, [properties], [components]]", at: location)
        }
        try write(["BEGIN:VCALENDAR"], at: location)
        try write(todo, at: location)
        try write(["END:VCALENDAR"], at: location)
      } else {
        throw RemconvError.malformedInput("malformed jCal: expected a vcalendar, found '\(name)'", at: location)
      }
    case UInt8(ascii: "[")?, UInt8(ascii: "]")?:
      var calendars = ElementCursor()
      while try calendars.nextElement(parser) {
        _ = try parser.peekToken()
        let location = parser.location
        try parser.expect(UInt8(ascii: "["), "a jCal component")
        let name = try parser.parseString()
        guard name.lowercased() == "vcalendar" else {
          throw RemconvError.malformedInput("malformed jCal: expected a vcalendar, found '\(name)'", at: location)
        }
        try calendar(at: location)
      }
    default:
      throw parser.error("expected a jCal component")
    }
    if try parser.peekToken() != nil { throw parser.error("unexpected text after the jCal document") }
    // No calendar at all (`[]`): an empty one, which is iCalendar that holds nothing.
    if linesWritten == 0 { try write(["BEGIN:VCALENDAR", "END:VCALENDAR"], at: location) }
  }

  /// After a calendar's name: its properties, then its components one at a time.
  private mutating func calendar(at location: SourceLocation) throws(RemconvError) {
    try parser.expect(UInt8(ascii: ","), "',' after the component name")
    _ = try parser.peekToken()
    let propertiesLocation = parser.location
    guard case .array(let properties) = try parser.parseValue(depth: 2) else {
      throw RemconvError.malformedInput(
        "malformed jCal: a vcalendar's properties must be an array", at: propertiesLocation)
    }
    var lines = ["BEGIN:VCALENDAR"]
    for property in properties {
      lines.append(try translated(at: location) { () throws(JCalShapeError) in try JCalTranslation.line(of: property) })
    }
    try write(lines, at: location)
    try parser.expect(UInt8(ascii: ","), "',' after the properties")
    try parser.expect(UInt8(ascii: "["), "the vcalendar's array of components")
    var components = ElementCursor()
    while try components.nextElement(parser) {
      _ = try parser.peekToken()
      let location = parser.location
      let value = try parser.parseValue(depth: 3)
      guard let component = JCalComponent(value) else {
        throw RemconvError.malformedInput(
          "malformed jCal: a component must be [name, [properties], [components]]", at: location)
      }
      try write(component, at: location)
    }
    try parser.expect(UInt8(ascii: "]"), "']' closing the vcalendar")
    try write(["END:VCALENDAR"], at: location)
  }

  private mutating func write(_ component: JCalComponent, at location: SourceLocation) throws(RemconvError) {
    try write(
      try translated(at: location) { () throws(JCalShapeError) in try JCalTranslation.lines(of: component) },
      at: location)
  }

  private func translated<Value>(
    at location: SourceLocation, _ translate: () throws(JCalShapeError) -> Value
  ) throws(RemconvError) -> Value {
    do {
      return try translate()
    } catch {
      throw RemconvError.malformedInput(error.message, at: location)
    }
  }

  /// Writes lines (folded: a line is read back as it was) and notes where they came from.
  private mutating func write(_ lines: [String], at location: SourceLocation) throws(RemconvError) {
    lineMap.add(translated: linesWritten + 1, source: location)
    var buffer: [UInt8] = []
    for line in lines { ICSText.appendFolded(line, to: &buffer) }
    try output.write(bytes: buffer)
    linesWritten += buffer.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
  }
}
