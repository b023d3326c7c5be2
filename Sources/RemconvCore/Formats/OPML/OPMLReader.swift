import Foundation

/// Reads an OPML document as lists and reminders, one outline at a time.
///
/// A stack holds one frame per open outline, so subtasks nest to any depth the XML layer
/// allows (`InputLimits.maximumNestingDepth` elements) without recursion.
///
/// Which top-level outline is a list:
/// 1. `remconv:kind="list"` says so (remconv's own files mark every list, empty ones too);
///    any other `remconv:kind` makes it a reminder.
/// 2. An outline that looks like a task is a reminder: it has a completion attribute
///    (`_complete`, `complete`, `_status`), a `_note`, a Logseq task marker or any remconv
///    attribute.
/// 3. Otherwise an outline with child outlines is a list, one without is a reminder.
/// Top-level reminders go to the default list: `--list`, else the document's `<head><title>`,
/// else the file's name.
///
/// Below the top level every outline is a reminder; nesting makes subtasks.
final class OPMLReader: RawRecordReader {
  private enum Frame {
    case list(id: String)
    case reminder(id: String, listID: String)
  }

  private enum Section {
    case prolog, document, head, headTitle, body, finished
  }

  private let context: ReaderContext
  private let xml: XMLStreamReader
  private let derivedIDs = DerivedIDGenerator()
  private var section = Section.prolog
  private var pending: [ReadRecord] = []
  /// An event read ahead to see whether a top-level outline has children.
  private var lookahead: XMLEvent?
  /// Open outlines of `<body>`, outermost first.
  private var frames: [Frame] = []
  /// How many elements deep the reader is inside an element it skips (0: not skipping).
  private var skipping = 0
  private var headTitle = ""
  private var sawBody = false
  /// The line of the `<opml>` start tag, where a missing `<body>` is reported.
  private var rootLine: Int?
  /// The id of the list top-level reminders go to, once decided ("" for the import's default).
  private var defaultListID: String?
  /// What derived UIDs use for the import's default list, which has no id in the source.
  private lazy var defaultListKey =
    "name:" + ListName.key(for: context.options.listName ?? context.source.baseName ?? "")
  /// What an outline's digest depends on besides its attributes (see `RecordDigest`).
  private lazy var digestContext = context.recordDigestContext(format: "opml")
  /// The outline of the raw reminder: one that states its UID. The next one replaces it.
  private var raw = RawOutline(
    tagAttributes: [], attributes: OutlineAttributes(XMLStartTag(localName: "", attributes: [], depth: 0)), uid: "",
    listID: "", parentID: nil, location: SourceLocation(file: ""))

  private struct RawOutline {
    /// As read, for the digest.
    var tagAttributes: [XMLAttribute]
    var attributes: OutlineAttributes
    var uid: String
    var listID: String
    var parentID: String?
    var location: SourceLocation
  }

  init(context: ReaderContext) throws {
    self.context = context
    xml = try XMLStreamReader(bytes: try context.openByteReader(), documentName: context.source.displayName)
    let diagnostics = context.diagnostics
    xml.onWarning = { message, location in diagnostics.warning("xml-error", message, at: location) }
  }

  func nextRecord() throws -> ReadRecord? {
    while pending.isEmpty {
      guard let event = try nextEvent() else {
        guard sawBody else {
          throw RemconvError.malformedInput(
            "the OPML document has no <body>", at: context.location(line: rootLine ?? 1))
        }
        return nil
      }
      try handle(event)
    }
    return pending.removeFirst()
  }

  private func nextEvent() throws(RemconvError) -> XMLEvent? {
    if let event = lookahead {
      lookahead = nil
      return event
    }
    return try xml.next()
  }

  // MARK: Document structure

  private func handle(_ event: XMLEvent) throws {
    if skipping > 0 {
      if case .start = event { skipping += 1 }
      if case .end = event { skipping -= 1 }
      return
    }
    switch (section, event) {
    case (.prolog, .start(let tag)):
      guard tag.localName == "opml", tag.namespace == nil else {
        throw RemconvError.malformedInput(
          "not an OPML document: the root element is <\(tag.localName)>, not <opml>",
          at: context.location(line: tag.line))
      }
      section = .document
      rootLine = tag.line
    case (.document, .start(let tag)):
      switch tag.localName {
      case "head": section = .head
      case "body":
        section = .body
        sawBody = true
      default: skipping = 1
      }
    case (.document, .end):
      section = .finished
    case (.head, .start(let tag)):
      if tag.localName == "title" { section = .headTitle } else { skipping = 1 }
    case (.head, .end):
      section = .document
    case (.headTitle, .text(let text, _)):
      headTitle += text
    case (.headTitle, .start):
      skipping = 1
    case (.headTitle, .end):
      headTitle = headTitle.trimmingCharacters(in: .whitespacesAndNewlines)
      section = .head
    case (.body, .start(let tag)):
      if tag.localName == "outline", tag.namespace == nil {
        try openOutline(tag)
      } else {
        context.diagnostics.warning(
          "ignored-element", "<\(tag.localName)> is not an OPML outline; it is ignored with its content",
          at: context.location(line: tag.line))
        skipping = 1
      }
    case (.body, .end):
      if frames.popLast() == nil { section = .document }
    case (.body, .text(let text, let line)):
      if !text.allSatisfy(\.isWhitespace) {
        let shown = text.trimmingCharacters(in: .whitespacesAndNewlines).prefix(40)
        context.diagnostics.warning(
          "ignored-text", "text between outlines is not part of OPML; it is ignored: '\(shown)'",
          at: context.location(line: line))
      }
    default:
      break  // white space and text outside the body, the end of a skipped element
    }
  }

  private func openOutline(_ tag: XMLStartTag) throws {
    let attributes = OutlineAttributes(tag)
    let location = context.location(line: tag.line)
    switch frames.last {
    case .list(let listID):
      try emitReminder(tag, attributes, listID: listID, parentID: nil, at: location)
    case .reminder(let parentID, let listID):
      if attributes.peekRemconv(OPMLName.Remconv.kind) == OPMLName.listKind {
        context.diagnostics.warning(
          "nested-list", "a list cannot nest inside another outline; this one is read as a reminder",
          at: location, uid: attributes.peekRemconv(OPMLName.Remconv.id))
      }
      try emitReminder(tag, attributes, listID: listID, parentID: parentID, at: location)
    case nil:
      if try isList(attributes) {
        let list = decodeList(attributes, at: location)
        pending.append(.record(.list(list)))
        frames.append(.list(id: list.id))
      } else {
        try emitReminder(tag, attributes, listID: defaultList(), parentID: nil, at: location)
      }
    }
  }

  /// The rule for top-level outlines, in the type's documentation.
  private func isList(_ attributes: OutlineAttributes) throws -> Bool {
    if let kind = attributes.peekRemconv(OPMLName.Remconv.kind) { return kind == OPMLName.listKind }
    if attributes.looksLikeTask { return false }
    // Read ahead past white space: a child outline makes this a list.
    while let event = try xml.next() {
      if case .text(let text, _) = event, text.allSatisfy(\.isWhitespace) { continue }
      lookahead = event
      if case .start(let child) = event { return child.localName == "outline" && child.namespace == nil }
      return false
    }
    return false
  }

  /// The list for top-level reminders: `--list` and the file's name are the import's default
  /// (""); a document title names a list of its own, unless it is Logseq's placeholder
  /// `untitled`, which Logseq writes into every export.
  private func defaultList() -> String {
    if let defaultListID { return defaultListID }
    var id = ""
    if context.options.listName == nil, !headTitle.isEmpty, headTitle.lowercased() != "untitled" {
      let list = ReminderList(id: StableID.derived(["list", ListName.key(for: headTitle)]), name: headTitle)
      pending.append(.record(.list(list)))
      id = list.id
    }
    defaultListID = id
    return id
  }

  // MARK: Outlines to lists and reminders

  /// An outline that states its UID comes raw (its subtasks find it by that UID whether it is
  /// decoded or not); any other is decoded at once.
  private func emitReminder(
    _ tag: XMLStartTag, _ attributes: OutlineAttributes, listID: String, parentID: String?, at location: SourceLocation
  ) throws {
    if let uid = attributes.peekRemconv(OPMLName.Remconv.id) {
      raw = RawOutline(
        tagAttributes: tag.attributes, attributes: attributes, uid: uid, listID: listID, parentID: parentID,
        location: location)
      pending.append(.raw(location))
    } else {
      pending.append(
        .record(.reminder(decodeOutline(attributes, listID: listID, parentID: parentID, at: location), location)))
    }
  }

  /// The digest of the raw outline: its attributes as read, its list and its parent.
  func digestOfRaw() -> RecordDigest {
    var outline = digestContext.appending(raw.listID)
    outline = raw.parentID.map { outline.appending($0) } ?? outline.appending(marker: 0)
    for attribute in raw.tagAttributes {
      outline = attribute.namespace.map { outline.appending($0) } ?? outline.appending(marker: 1)
      outline = outline.appending(attribute.localName).appending(attribute.value)
    }
    return outline
  }

  func decodeRaw() throws -> DecodedReminder {
    let reminder = decodeOutline(raw.attributes, listID: raw.listID, parentID: raw.parentID, at: raw.location)
    return (reminder, raw.uid, true)
  }

  func passOverRaw() {
    frames.append(.reminder(id: raw.uid, listID: raw.listID))
  }

  /// Decodes an outline into a reminder, whose subtasks follow.
  private func decodeOutline(
    _ attributes: OutlineAttributes, listID: String, parentID: String?, at location: SourceLocation
  ) -> Reminder {
    let reminder = decodeReminder(attributes, listID: listID, enclosingID: parentID, at: location)
    frames.append(.reminder(id: reminder.id, listID: listID))
    return reminder
  }

  private func decodeList(_ attributes: OutlineAttributes, at location: SourceLocation) -> ReminderList {
    var fields = FieldReader(attributes: attributes, location: location, diagnostics: context.diagnostics)
    _ = fields.remconv(OPMLName.Remconv.kind)
    let text = fields.plain(OPMLName.text) ?? fields.plain(OPMLName.title) ?? ""
    var name = text
    if fields.remconv(OPMLName.Remconv.literal) != "true" {
      name = HTMLText.plain(text).text
      if name != text { fields.keep(OPMLName.text, text) }
    }
    let id = fields.remconv(OPMLName.Remconv.id) ?? StableID.derived(["list", ListName.key(for: name)])
    fields.uid = id
    var color: String?
    if let text = fields.remconv(OPMLName.Remconv.color) {
      color = ListColor.normalized(text)
      if color == nil { fields.invalid("remconv:color", text, "'\(text)' is not a #RRGGBB colour") }
    }
    return ReminderList(
      id: id, name: name, symbol: fields.remconv(OPMLName.Remconv.symbol) ?? ReminderList.defaultSymbol,
      color: color, createdAt: fields.createdAt(), extra: fields.finish())
  }

  private func decodeReminder(
    _ attributes: OutlineAttributes, listID: String, enclosingID: String?, at location: SourceLocation
  ) -> Reminder {
    var fields = FieldReader(attributes: attributes, location: location, diagnostics: context.diagnostics)
    let explicitID = fields.remconv(OPMLName.Remconv.id)
    _ = fields.remconv(OPMLName.Remconv.kind)
    let text = fields.plain(OPMLName.text) ?? fields.plain(OPMLName.title) ?? ""
    let meaning: OutlineText
    if fields.remconv(OPMLName.Remconv.literal) == "true" {
      meaning = OutlineText(literal: text)
    } else {
      meaning = OutlineText(interpreting: text, taskMarkers: true)
      if meaning.title != text { fields.keep(OPMLName.text, text) }
    }
    let parentID = fields.remconv(OPMLName.Remconv.parentID) ?? enclosingID
    let id =
      explicitID
      ?? derivedIDs.next(["reminder", listID.isEmpty ? defaultListKey : listID, parentID ?? "", meaning.title])
    fields.uid = id
    var isDone = meaning.isDone ?? false
    for name in [OPMLName.complete, OPMLName.dynalistComplete] {
      if let flag = fields.bool(plain: name) { isDone = isDone || flag }
    }
    if let status = fields.plain(OPMLName.status) {
      switch status.lowercased() {
      case "checked": isDone = true
      case "unchecked": break
      default: fields.keep(OPMLName.status, status)  // OmniOutliner's `indeterminate`: not done
      }
    }
    let due = fields.date(OPMLName.Remconv.dueDate, zone: OPMLName.Remconv.dueTimeZone) ?? meaning.due
    let start = fields.date(OPMLName.Remconv.startDate, zone: OPMLName.Remconv.startTimeZone)
    return Reminder(
      id: id, listID: listID, parentID: parentID, title: meaning.title, notes: fields.plain(OPMLName.note) ?? "",
      isDone: isDone, completedAt: fields.timestamp(remconv: OPMLName.Remconv.completedAt),
      flagged: fields.bool(remconv: OPMLName.Remconv.flagged) ?? false, dueDate: due, startDate: start,
      recurrence: fields.json(OPMLName.Remconv.recurrence, ScheduleJSON.recurrence),
      alarms: fields.json(OPMLName.Remconv.alarms, ScheduleJSON.alarms) ?? [],
      priority: fields.priority() ?? meaning.priority ?? .none, tags: fields.tags(),
      url: fields.remconv(OPMLName.Remconv.url) ?? fields.plain(OPMLName.url) ?? meaning.link,
      createdAt: fields.createdAt(), editedAt: fields.timestamp(remconv: OPMLName.Remconv.editedAt),
      extra: fields.finish())
  }
}

/// An outline's attributes, sorted by namespace.
struct OutlineAttributes {
  /// Attributes without a namespace, by name.
  var plain: [String: String] = [:]
  /// remconv's attributes, by local name.
  var remconv: [String: String] = [:]
  /// Attributes of other namespaces, by `{uri}name`.
  var foreign: [String: String] = [:]

  init(_ tag: XMLStartTag) {
    for attribute in tag.attributes {
      switch attribute.namespace {
      case nil: plain[attribute.qualifiedName] = attribute.value
      case OPMLFormat.namespace: remconv[attribute.localName] = attribute.value
      case let namespace?: foreign[OPMLName.clark(attribute.localName, namespace: namespace)] = attribute.value
      }
    }
  }

  func peekRemconv(_ name: String) -> String? { remconv[name] }

  /// A completion attribute, a note, a Logseq marker or a remconv attribute.
  var looksLikeTask: Bool {
    if !remconv.isEmpty { return true }
    if [OPMLName.complete, OPMLName.dynalistComplete, OPMLName.status, OPMLName.note].contains(where: {
      plain[$0] != nil
    }) {
      return true
    }
    guard let text = plain[OPMLName.text], let firstWord = text.split(separator: " ").first else { return false }
    return OutlineText.markers[String(firstWord)] != nil && text.contains(" ")
  }
}

/// Takes typed values out of an outline's attributes; what is left is kept in `extra.opml`,
/// and values that do not parse are warnings, kept in `extra.invalid`.
private struct FieldReader {
  private var attributes: OutlineAttributes
  let location: SourceLocation
  let diagnostics: DiagnosticLog
  var uid: String?
  private var kept: [String: JSONValue] = [:]
  private var invalidValues: [String: JSONValue] = [:]
  private var extra: [String: JSONValue] = [:]

  init(attributes: OutlineAttributes, location: SourceLocation, diagnostics: DiagnosticLog) {
    self.attributes = attributes
    self.location = location
    self.diagnostics = diagnostics
  }

  mutating func plain(_ name: String) -> String? { attributes.plain.removeValue(forKey: name) }
  mutating func remconv(_ name: String) -> String? { attributes.remconv.removeValue(forKey: name) }

  /// Keeps a value in `extra.opml` under `name`, to be written back.
  mutating func keep(_ name: String, _ value: String) { kept[name] = .string(value) }

  mutating func invalid(_ name: String, _ value: String, _ message: String) {
    invalidValues[name] = .string(value)
    diagnostics.warning("invalid-value", "\(name): \(message) (kept in extra.invalid)", at: location, uid: uid)
  }

  mutating func bool(plain name: String) -> Bool? {
    guard let text = plain(name) else { return nil }
    return boolean(text, name: name)
  }

  mutating func bool(remconv name: String) -> Bool? {
    guard let text = remconv(name) else { return nil }
    return boolean(text, name: "remconv:" + name)
  }

  private mutating func boolean(_ text: String, name: String) -> Bool? {
    switch text.lowercased() {
    case "true": return true
    case "false": return false
    default:
      invalid(name, text, "'\(text)' is not true or false")
      return nil
    }
  }

  mutating func timestamp(remconv name: String) -> Timestamp? {
    guard let text = remconv(name) else { return nil }
    if let value = Timestamp(iso: text) { return value }
    invalid("remconv:" + name, text, "'\(text)' is not an ISO 8601 instant with a zone")
    return nil
  }

  /// `remconv:createdAt` (ISO 8601, to the millisecond), else OPML's `created` (RFC 822).
  mutating func createdAt() -> Timestamp? {
    if attributes.remconv[OPMLName.Remconv.createdAt] != nil { return timestamp(remconv: OPMLName.Remconv.createdAt) }
    guard let text = plain(OPMLName.created) else { return nil }
    if let value = RFC822Date.parse(text) { return value }
    invalid(OPMLName.created, text, "'\(text)' is not an RFC 822 date-time")
    return nil
  }

  /// `remconv:dueDate` and `remconv:dueTimeZone`, or the start's pair.
  mutating func date(_ name: String, zone zoneName: String) -> DueDate? {
    let zone = remconv(zoneName)
    guard let text = remconv(name) else {
      if let zone { invalid("remconv:" + zoneName, zone, "a time zone without remconv:" + name) }
      return nil
    }
    do {
      return try DueDate(isoText: text, timeZone: zone)
    } catch {
      invalid("remconv:" + name, text, error.description)
      if let zone { invalidValues["remconv:" + zoneName] = .string(zone) }
      return nil
    }
  }

  /// A `remconv:` attribute holding JSON (`recurrence`, `alarms`), read by `decode`.
  mutating func json<Value>(_ name: String, _ decode: (JSONValue) throws(ScheduleJSONError) -> Value) -> Value? {
    guard let text = remconv(name) else { return nil }
    do {
      return try decode(try JSONParser.parse(text))
    } catch {
      invalid("remconv:" + name, text, "\(error)")
      return nil
    }
  }

  mutating func priority() -> Priority? {
    guard let text = remconv(OPMLName.Remconv.priority) else { return nil }
    if let value = Priority(rawValue: text.lowercased()) { return value }
    invalid("remconv:priority", text, "'\(text)' is not a priority (none, low, medium, high)")
    return nil
  }

  /// `remconv:tags` (a JSON array), else OPML's comma-separated `category`.
  mutating func tags() -> [String] {
    if let text = remconv(OPMLName.Remconv.tags) {
      let items = (try? JSONParser.parse(text))?.arrayValue
      if let items, items.allSatisfy({ $0.stringValue != nil }) { return items.compactMap(\.stringValue) }
      invalid("remconv:tags", text, "not a JSON array of strings")
      return []
    }
    guard let text = plain(OPMLName.category) else { return [] }
    return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
  }

  /// `extra`: remconv's own `extra`, the attributes nobody read under `opml`, invalid values.
  mutating func finish() -> [String: JSONValue] {
    var result: [String: JSONValue] = [:]
    if let text = remconv(OPMLName.Remconv.extra) {
      if let object = (try? JSONParser.parse(text))?.objectValue {
        result = object
      } else {
        invalid("remconv:extra", text, "not a JSON object")
      }
    }
    for (name, value) in attributes.plain { kept[name] = .string(value) }
    for (name, value) in attributes.remconv {
      kept[OPMLName.clark(name, namespace: OPMLFormat.namespace)] = .string(value)
    }
    for (name, value) in attributes.foreign { kept[name] = .string(value) }
    if !kept.isEmpty {
      var bag = result[OPMLFormat.extraKey]?.objectValue ?? [:]
      bag.merge(kept) { _, new in new }
      result[OPMLFormat.extraKey] = .object(bag)
    }
    if !invalidValues.isEmpty {
      var bag = result["invalid"]?.objectValue ?? [:]
      bag.merge(invalidValues) { _, new in new }
      result["invalid"] = .object(bag)
    }
    return result
  }
}
