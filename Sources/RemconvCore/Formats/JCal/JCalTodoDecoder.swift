/// Turns jCal VTODOs and VCALENDAR properties into reminders and lists.
///
/// What the model does not carry is kept, as raw jCal arrays, under `extra.jcal`:
/// `properties` (in order), `components` (VALARMs, …), `invalid` (a property whose value could
/// not be read, by name: written back only while the model has no value for it), and the
/// details that pick one of several iCalendar spellings of a model value (`status`,
/// `percent`, `priority`).
struct JCalDecoder {
  let diagnostics: DiagnosticLog
  let derivedIDs: DerivedIDGenerator

  /// Collects what a component's reader does not map.
  private struct Kept {
    var properties: [JSONValue] = []
    var invalid: [String: JSONValue] = [:]
    var details: [String: JSONValue] = [:]
    var passedThrough: [String: JSONValue] = [:]

    func extra(components: [JSONValue]) -> [String: JSONValue] {
      var jcal = details
      if !properties.isEmpty { jcal["properties"] = .array(properties) }
      if !components.isEmpty { jcal["components"] = .array(components) }
      if !invalid.isEmpty { jcal["invalid"] = .object(invalid) }
      var extra = passedThrough
      if !jcal.isEmpty { extra[JCalFormat.extraKey] = .object(jcal) }
      return extra
    }
  }

  /// The VTODO properties read into the model; a second one of these is kept as it is.
  private static let todoProperties: Set<String> = [
    "uid", "dtstamp", "summary", "description", "status", "completed", "percent-complete", "priority", "due",
    "url", "related-to", "created", "last-modified", "x-remconv-flagged", "x-remconv-extra",
  ]

  func reminder(
    _ component: JCalComponent, listID: String, at location: SourceLocation
  ) throws(RemconvError) -> Reminder {
    var kept = Kept()
    var seen: Set<String> = []
    var uid: String?
    var title = ""
    var notes = ""
    var status: String?
    var completedAt: Timestamp?
    var percent: Int?
    var priority = Priority.none
    var due: DueDate?
    var tags: [String] = []
    var url: String?
    var parentID: String?
    var createdAt: Timestamp?
    var editedAt: Timestamp?
    var flagged = false

    let properties = try component.properties.map { raw throws(RemconvError) in
      guard let property = JCalProperty(raw) else {
        throw RemconvError.malformedInput(
          "malformed jCal: a property must be [name, {parameters}, type, value, …], not \(JSONText.encode(raw))",
          at: location)
      }
      return (property, raw)
    }
    // The UID first, so that every warning can name it.
    uid = properties.first { $0.0.name == "uid" }?.0.text.flatMap { $0.isEmpty ? nil : $0 }

    func invalid(_ property: JCalProperty, _ raw: JSONValue, _ reason: String) {
      diagnostics.warning(
        "invalid-value", "\(property.name.uppercased()): \(reason) (kept in extra.jcal.invalid)", at: location, uid: uid
      )
      if kept.invalid[property.name] == nil { kept.invalid[property.name] = raw } else { kept.properties.append(raw) }
    }
    func text(_ property: JCalProperty, _ raw: JSONValue) -> String? {
      if let text = property.text, property.values.count == 1 { return text }
      invalid(property, raw, "the value should be one text")
      return nil
    }
    func instant(_ property: JCalProperty, _ raw: JSONValue) -> Timestamp? {
      switch JCalTime.timestamp(property) {
      case .success(let value): return value
      case .failure(let error):
        invalid(property, raw, error.description)
        return nil
      }
    }

    for (property, raw) in properties {
      let name = property.name
      if name == "categories" {
        let values = property.values.compactMap(\.stringValue)
        if values.count == property.values.count {
          tags += values.filter { !$0.isEmpty }
        } else {
          invalid(property, raw, "the values should be texts")
        }
        continue
      }
      guard Self.todoProperties.contains(name), seen.insert(name).inserted else {
        kept.properties.append(raw)
        continue
      }
      switch name {
      case "uid": if uid == nil { kept.properties.append(raw) }
      case "dtstamp": break  // the time of writing: the writer writes its own
      case "summary": title = text(property, raw) ?? ""
      case "description": notes = text(property, raw) ?? ""
      case "status": status = text(property, raw)
      case "completed": completedAt = instant(property, raw)
      case "created": createdAt = instant(property, raw)
      case "last-modified": editedAt = instant(property, raw)
      case "percent-complete":
        if let value = property.values.first?.intValue, (0...100).contains(value) {
          percent = value
        } else {
          invalid(property, raw, "the value should be an integer from 0 to 100")
        }
      case "priority":
        if let value = property.values.first?.intValue, (0...9).contains(value) {
          priority = Priority(iCalendarNumber: value)
          if priority.iCalendarNumber != value, value != 0 { kept.details["priority"] = .number(value) }
        } else {
          invalid(property, raw, "the value should be an integer from 0 to 9")
        }
      case "due":
        switch JCalTime.dueDate(property) {
        case .success(let (value, note)):
          due = value
          if let note { diagnostics.warning("time-zone", note, at: location, uid: uid) }
        case .failure(let error):
          invalid(property, raw, error.description)
        }
      case "url": url = text(property, raw)
      case "related-to":
        let relation = property.parameter("reltype")?.uppercased() ?? "PARENT"
        if relation == "PARENT", let parent = text(property, raw) {
          parentID = parent
        } else if relation != "PARENT" {
          kept.properties.append(raw)
        }
      case "x-remconv-flagged":
        switch property.values.first {
        case .bool(let flag)?: flagged = flag
        case .string(let text)? where ["TRUE", "FALSE"].contains(text.uppercased()):
          flagged = text.uppercased() == "TRUE"
        default: invalid(property, raw, "the value should be true or false")
        }
      case "x-remconv-extra":
        if let text = property.text, let object = try? JSONParser.parse(text).objectValue {
          kept.passedThrough.merge(object) { _, new in new }
        } else {
          invalid(property, raw, "the value should be a JSON object in a text")
        }
      default:
        kept.properties.append(raw)
      }
    }

    var isDone = false
    switch status?.uppercased() {
    case "COMPLETED"?: isDone = true
    case "CANCELLED"?:
      isDone = true
      kept.details["status"] = .string("CANCELLED")
    case "NEEDS-ACTION"?: break
    case "IN-PROCESS"?: kept.details["status"] = .string("IN-PROCESS")
    case nil: isDone = completedAt != nil || percent == 100
    case let other?:
      diagnostics.warning(
        "invalid-value", "STATUS: '\(other)' is not a VTODO status; read as not done (kept in extra.jcal.status)",
        at: location, uid: uid)
      kept.details["status"] = .string(other)
    }
    if let percent, (1...99).contains(percent) { kept.details["percent"] = .number(percent) }

    let id: String
    if let uid {
      id = uid
    } else {
      id = derivedIDs.next(["jcal", listID, parentID ?? "", title, due?.description ?? ""])
      diagnostics.warning("missing-uid", "the VTODO has no UID; it gets the derived UID \(id)", at: location)
    }
    var reminder = Reminder(
      id: id, listID: listID, parentID: parentID, title: title, notes: notes, isDone: isDone,
      completedAt: completedAt, flagged: flagged, dueDate: due, priority: priority, tags: tags, url: url,
      createdAt: createdAt, editedAt: editedAt)
    reminder.extra = kept.extra(components: component.components)
    return reminder
  }

  /// A VCALENDAR's properties as a list. Name from `name` (RFC 7986), else `x-wr-calname`;
  /// colour from `x-apple-calendar-color`, else `color`; `x-remconv-symbol`,
  /// `x-remconv-created`; the UID from `uid`. `prodid` and `version` are the writer's own.
  func list(
    properties raw: [JSONValue], components: [JSONValue], fallbackName: String, at location: SourceLocation
  ) throws(RemconvError) -> ReminderList {
    var kept = Kept()
    var names: [String: String] = [:]
    var color: String?
    var symbol: String?
    var createdAt: Timestamp?
    var uid: String?
    var seen: Set<String> = []
    let interpreted: Set<String> = [
      "name", "x-wr-calname", "x-apple-calendar-color", "color", "x-remconv-symbol", "x-remconv-created", "uid",
      "x-remconv-extra",
    ]
    for item in raw {
      guard let property = JCalProperty(item) else {
        throw RemconvError.malformedInput(
          "malformed jCal: a property must be [name, {parameters}, type, value, …], not \(JSONText.encode(item))",
          at: location)
      }
      let name = property.name
      if name == "prodid" || name == "version" { continue }
      guard interpreted.contains(name), seen.insert(name).inserted, let text = property.text else {
        kept.properties.append(item)
        continue
      }
      switch name {
      case "name", "x-wr-calname": names[name] = text
      case "x-apple-calendar-color", "color":
        if let normalized = ListColor.normalized(text) {
          if name == "x-apple-calendar-color" || color == nil { color = normalized }
        } else {
          kept.properties.append(item)
        }
      case "x-remconv-symbol": symbol = text.isEmpty ? nil : text
      case "x-remconv-created":
        if case .success(let value) = JCalTime.timestamp(property) {
          createdAt = value
        } else {
          diagnostics.warning(
            "invalid-value", "X-REMCONV-CREATED: '\(text)' is not an instant (kept in extra.jcal.invalid)", at: location
          )
          kept.invalid[name] = item
        }
      case "uid": uid = text.isEmpty ? nil : text
      case "x-remconv-extra":
        if let object = try? JSONParser.parse(text).objectValue {
          kept.passedThrough.merge(object) { _, new in new }
        } else {
          kept.invalid[name] = item
        }
      default: kept.properties.append(item)
      }
    }
    let name = [names["name"], names["x-wr-calname"]].compactMap { $0 }.first { !$0.isEmpty } ?? fallbackName
    return ReminderList(
      id: uid ?? StableID.derived(["list", ListName.key(for: name)]), name: name,
      symbol: symbol ?? ReminderList.defaultSymbol, color: color, createdAt: createdAt,
      extra: kept.extra(components: components))
  }
}
