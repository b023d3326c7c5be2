/// Reads jCal one component at a time: a VCALENDAR (`["vcalendar",[…],[…]]`), a JSON array of
/// VCALENDARs, or a bare VTODO.
///
/// A VCALENDAR's properties are read whole (they are few); its components are streamed, so a
/// calendar of any size holds one VTODO in memory at a time.
final class JCalReader: ReminderReader {
  private let context: ReaderContext
  private let parser: JSONParser
  private let decoder: JCalDecoder

  private enum State {
    case start
    /// Inside a top-level array of VCALENDARs, before one or `]`.
    case calendars(ElementCursor)
    /// Inside a VCALENDAR's components array, before one or `]`; `outer` is the top-level
    /// array of VCALENDARs around it, if any.
    case components(ElementCursor, outer: ElementCursor?)
    case finished
  }
  private var state = State.start
  private var pending: [SourceRecord] = []
  /// The current VCALENDAR: its list, where it began, and the components kept for it.
  private var calendar: (list: ReminderList, location: SourceLocation, kept: [JSONValue])?

  init(context: ReaderContext) throws {
    self.context = context
    parser = JSONParser(reader: try context.openByteReader())
    parser.onDuplicateKey = context.duplicateKeyWarning
    decoder = JCalDecoder(diagnostics: context.diagnostics, derivedIDs: DerivedIDGenerator())
  }

  private var fallbackName: String { context.options.listName ?? context.source.baseName ?? "Reminders" }

  func next() throws -> SourceRecord? {
    while pending.isEmpty {
      switch state {
      case .start:
        try readStart()
      case .calendars(var cursor):
        guard try cursor.nextElement(parser) else {
          try finishDocument()
          continue
        }
        state = .calendars(cursor)
        _ = try parser.peekToken()
        let location = parser.location
        try parser.expect(UInt8(ascii: "["), "a jCal component")
        let name = try parser.parseString()
        guard name.lowercased() == "vcalendar" else {
          throw RemconvError.malformedInput("malformed jCal: expected a vcalendar, found '\(name)'", at: location)
        }
        try beginCalendar(at: location, outer: cursor)
      case .components(var cursor, let outer):
        guard try cursor.nextElement(parser) else {
          try endCalendar(outer: outer)
          continue
        }
        state = .components(cursor, outer: outer)
        _ = try parser.peekToken()
        let location = parser.location
        let value = try parser.parseValue(depth: 3)
        guard let component = JCalComponent(value) else {
          throw RemconvError.malformedInput(
            "malformed jCal: a component must be [name, [properties], [components]]", at: location)
        }
        try take(component, at: location)
      case .finished:
        return nil
      }
    }
    return pending.removeFirst()
  }

  /// `[` then either `"vcalendar"` (one calendar), `"vtodo"` (one task) or `[` (several).
  private func readStart() throws {
    guard try parser.peekToken() != nil else { throw parser.error("the input is empty") }
    let location = parser.location
    try parser.expect(UInt8(ascii: "["), "a jCal array")
    switch try parser.peekToken() {
    case UInt8(ascii: "\"")?:
      let name = try parser.parseString().lowercased()
      if name == "vcalendar" {
        try beginCalendar(at: location, outer: nil)
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
        pending.append(.reminder(try decoder.reminder(todo, listID: "", at: location), location))
        try finishDocument()
      } else {
        throw RemconvError.malformedInput("malformed jCal: expected a vcalendar, found '\(name)'", at: location)
      }
    case UInt8(ascii: "[")?, UInt8(ascii: "]")?:
      state = .calendars(ElementCursor())
    default:
      throw parser.error("expected a jCal component")
    }
  }

  /// After a calendar's name: its properties become a list, then its components are streamed.
  private func beginCalendar(at location: SourceLocation, outer: ElementCursor?) throws {
    try parser.expect(UInt8(ascii: ","), "',' after the component name")
    _ = try parser.peekToken()
    let propertiesLocation = parser.location
    guard case .array(let properties) = try parser.parseValue(depth: 2) else {
      throw RemconvError.malformedInput(
        "malformed jCal: a vcalendar's properties must be an array", at: propertiesLocation)
    }
    let list = try decoder.list(properties: properties, components: [], fallbackName: fallbackName, at: location)
    calendar = (list, location, [])
    pending.append(.list(list))
    try parser.expect(UInt8(ascii: ","), "',' after the properties")
    try parser.expect(UInt8(ascii: "["), "the vcalendar's array of components")
    state = .components(ElementCursor(), outer: outer)
  }

  /// A component of the current calendar: a VTODO is a reminder, a VEVENT or VJOURNAL is
  /// counted and skipped, anything else (VTIMEZONE, …) is kept with the list.
  private func take(_ component: JCalComponent, at location: SourceLocation) throws {
    switch component.name {
    case "vtodo":
      let listID = calendar?.list.id ?? ""
      pending.append(.reminder(try decoder.reminder(component, listID: listID, at: location), location))
    case "vevent", "vjournal", "vfreebusy":
      pending.append(.skipped(kind: component.name.uppercased(), location))
    default:
      calendar?.kept.append(component.json)
    }
  }

  /// After a calendar's components: `]` closes it; kept components complete its list.
  private func endCalendar(outer: ElementCursor?) throws {
    try parser.expect(UInt8(ascii: "]"), "']' closing the vcalendar")
    if let (list, _, kept) = calendar, !kept.isEmpty {
      var completed = list
      var jcal = completed.extra[JCalFormat.extraKey]?.objectValue ?? [:]
      jcal["components"] = .array(kept)
      completed.extra[JCalFormat.extraKey] = .object(jcal)
      pending.append(.list(completed))
    }
    calendar = nil
    if let outer {
      state = .calendars(outer)
    } else {
      try finishDocument()
    }
  }

  private func finishDocument() throws {
    if try parser.peekToken() != nil { throw parser.error("unexpected text after the jCal document") }
    state = .finished
  }
}
