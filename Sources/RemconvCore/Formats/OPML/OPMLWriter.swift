import Foundation

/// Writes OPML 2.0: one top-level outline per list, its reminders as children, subtasks nested.
///
/// The writer streams: it keeps only the ids of the open outlines. Each start tag stays open
/// until the next call shows whether the outline has children (`>`) or not (`/>`).
///
/// Attributes other tools read come first (`text`, `_note`, `_complete` and `_status`,
/// `created`, `category`); what OPML has no attribute for follows in remconv's namespace; the
/// attributes of other producers kept in `extra.opml` come last, as they were read.
final class OPMLWriter: ReminderWriter {
  static let inputOrder = WriterInputOrder.groupedByList

  private let output: ByteWriter
  private let diagnostics: DiagnosticLog
  /// The open outlines, outermost first: nil for the list, else the reminder's id.
  private var openOutlines: [String?] = []
  /// The last start tag is written up to its attributes; `>` or `/>` comes next.
  private var startTagIsOpen = false

  init(context: WriterContext) throws {
    output = try context.requireStream("opml")
    diagnostics = context.diagnostics
    try output.write(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <opml version="2.0" xmlns:\(OPMLFormat.prefix)="\(OPMLFormat.namespace)">
        <head>
          <title>\(OPMLFormat.documentTitle)</title>
        </head>
        <body>

      """)
  }

  func beginList(_ list: ReminderList) throws {
    try closeOutlines(downTo: 0)
    try openOutline(listAttributes(list), uid: list.id)
    openOutlines.append(nil)
  }

  func write(_ reminder: Reminder, in list: ReminderList, depth: Int) throws {
    if openOutlines.isEmpty { try beginList(list) }
    // A subtask sits at most one level below the deepest open outline.
    let level = min(depth + 1, openOutlines.count)
    try closeOutlines(downTo: level)
    try openOutline(reminderAttributes(reminder, enclosingID: openOutlines[level - 1]), uid: reminder.id)
    openOutlines.append(reminder.id)
  }

  func endList(_ list: ReminderList) throws {
    try closeOutlines(downTo: 0)
  }

  func finish() throws {
    try closeOutlines(downTo: 0)
    try output.write("  </body>\n</opml>\n")
    try output.flush()
  }

  // MARK: Tags

  private func openOutline(_ attributes: StartTagAttributes, uid: String) throws {
    if startTagIsOpen { try output.write(">\n") }
    let indent = String(repeating: "  ", count: openOutlines.count + 2)
    let values = attributes.entries.map { (name: $0.0, bytes: escaped($0.1, attribute: $0.0, uid: uid)) }
    // libxml2 reads a start tag in one look-ahead of at most XML_MAX_LOOKUP_LIMIT bytes: a longer
    // tag would make an export that no OPML reader, remconv's included, reads back.
    let length = values.reduce(indent.utf8.count + "<outline/>".utf8.count) {
      $0 + $1.name.utf8.count + $1.bytes.count + 4
    }
    if length > XMLStreamReader.maximumStartTagLength {
      throw RemconvError.invalidInput(
        "reminder \(uid): its outline is \(length) bytes as XML, more than the "
          + "\(XMLStreamReader.maximumStartTagLength) bytes an OPML reader (libxml2) accepts in one element; "
          + "export it as json, jsonl or csv, which carry it")
    }
    try output.write(indent + "<outline")
    for (name, bytes) in values {
      try output.write(" \(name)=\"")
      try output.write(bytes: bytes)
      try output.write(byte: UInt8(ascii: "\""))
    }
    startTagIsOpen = true
  }

  private func closeOutlines(downTo level: Int) throws {
    while openOutlines.count > level {
      if startTagIsOpen {
        try output.write("/>\n")
        startTagIsOpen = false
      } else {
        try output.write(String(repeating: "  ", count: openOutlines.count + 1) + "</outline>\n")
      }
      openOutlines.removeLast()
    }
  }

  /// `value` escaped for a double-quoted attribute. Line breaks and tabs become
  /// character references, which no parser normalises to spaces. Characters XML 1.0 cannot
  /// carry at all (most control characters, U+FFFE, U+FFFF) become U+FFFD, reported.
  private func escaped(_ value: String, attribute: String, uid: String) -> [UInt8] {
    let bytes = Array(value.utf8)
    if !bytes.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0xEF }) {
      return bytes
    }
    let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
    var escaped: [UInt8] = []
    escaped.reserveCapacity(bytes.count + 32)
    var replaced = 0
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "&"): escaped.append(contentsOf: "&amp;".utf8)
      case UInt8(ascii: "<"): escaped.append(contentsOf: "&lt;".utf8)
      case UInt8(ascii: ">"): escaped.append(contentsOf: "&gt;".utf8)
      case UInt8(ascii: "\""): escaped.append(contentsOf: "&quot;".utf8)
      case 0x0A: escaped.append(contentsOf: "&#10;".utf8)
      case 0x0D: escaped.append(contentsOf: "&#13;".utf8)
      case 0x09: escaped.append(contentsOf: "&#9;".utf8)
      case 0x00..<0x20:
        escaped.append(contentsOf: replacement)
        replaced += 1
      case 0xEF where index + 2 < bytes.count && bytes[index + 1] == 0xBF && bytes[index + 2] >= 0xBE:
        escaped.append(contentsOf: replacement)  // U+FFFE, U+FFFF
        replaced += 1
        index += 2
      default: escaped.append(byte)
      }
      index += 1
    }
    if replaced > 0 {
      diagnostics.warning(
        "cannot-carry",
        "OPML (XML 1.0) cannot carry \(replaced) control character(s) of \(attribute); each is written as U+FFFD",
        uid: uid)
    }
    return escaped
  }

  // MARK: Attributes

  private func listAttributes(_ list: ReminderList) -> StartTagAttributes {
    var attributes = StartTagAttributes()
    let kept = KeptAttributes(list.extra)
    if let original = kept.text, HTMLText.plain(original).text == list.name {
      attributes.add(OPMLName.text, original)
    } else {
      attributes.add(OPMLName.text, list.name)
      if HTMLText.plain(list.name).text != list.name { attributes.addRemconv(OPMLName.Remconv.literal, "true") }
    }
    let createdInRFC822 = Self.fitsRFC822(list.createdAt)
    if createdInRFC822 { attributes.add(OPMLName.created, list.createdAt.map(RFC822Date.format)) }
    attributes.addRemconv(OPMLName.Remconv.kind, OPMLName.listKind)
    attributes.addRemconv(OPMLName.Remconv.id, list.id)
    if list.symbol != ReminderList.defaultSymbol { attributes.addRemconv(OPMLName.Remconv.symbol, list.symbol) }
    attributes.addRemconv(OPMLName.Remconv.color, list.color)
    if !createdInRFC822 { attributes.addRemconv(OPMLName.Remconv.createdAt, list.createdAt?.description) }
    attributes.addRest(of: list.extra, kept: kept)
    return attributes
  }

  private func reminderAttributes(_ reminder: Reminder, enclosingID: String?) -> StartTagAttributes {
    var attributes = StartTagAttributes()
    let kept = KeptAttributes(reminder.extra)
    var literal = false
    if let original = kept.text, Self.says(original, sameAs: reminder) {
      attributes.add(OPMLName.text, original)
    } else {
      attributes.add(OPMLName.text, reminder.title)
      literal = OutlineText(interpreting: reminder.title, taskMarkers: true) != OutlineText(literal: reminder.title)
    }
    if !reminder.notes.isEmpty { attributes.add(OPMLName.note, reminder.notes) }
    if reminder.isDone {
      attributes.add(OPMLName.complete, "true")
      attributes.add(OPMLName.status, "checked")
    }
    let createdInRFC822 = Self.fitsRFC822(reminder.createdAt)
    if createdInRFC822 { attributes.add(OPMLName.created, reminder.createdAt.map(RFC822Date.format)) }
    let tagsAsCategory =
      !reminder.tags.isEmpty
      && reminder.tags.allSatisfy { tag in
        !tag.isEmpty && !tag.contains(",") && tag.trimmingCharacters(in: .whitespaces) == tag
      }
    if tagsAsCategory { attributes.add(OPMLName.category, reminder.tags.joined(separator: ",")) }
    let urlAsLink = kept.isLink && reminder.url != nil
    if urlAsLink { attributes.add(OPMLName.url, reminder.url) }

    if literal { attributes.addRemconv(OPMLName.Remconv.literal, "true") }
    attributes.addRemconv(OPMLName.Remconv.id, reminder.id)
    if reminder.parentID != enclosingID { attributes.addRemconv(OPMLName.Remconv.parentID, reminder.parentID) }
    attributes.addRemconv(OPMLName.Remconv.dueDate, reminder.dueDate?.isoText)
    attributes.addRemconv(OPMLName.Remconv.dueTimeZone, reminder.dueDate?.timeZoneIdentifier)
    attributes.addRemconv(OPMLName.Remconv.startDate, reminder.startDate?.isoText)
    attributes.addRemconv(OPMLName.Remconv.startTimeZone, reminder.startDate?.timeZoneIdentifier)
    attributes.addRemconv(
      OPMLName.Remconv.recurrence, reminder.recurrence.map(ScheduleJSON.text))
    if !reminder.alarms.isEmpty {
      attributes.addRemconv(OPMLName.Remconv.alarms, ScheduleJSON.text(reminder.alarms))
    }
    if reminder.priority != .none { attributes.addRemconv(OPMLName.Remconv.priority, reminder.priority.rawValue) }
    if reminder.flagged { attributes.addRemconv(OPMLName.Remconv.flagged, "true") }
    if !tagsAsCategory, !reminder.tags.isEmpty {
      attributes.addRemconv(OPMLName.Remconv.tags, JSONText.encode(.array(reminder.tags.map(JSONValue.string))))
    }
    if !urlAsLink { attributes.addRemconv(OPMLName.Remconv.url, reminder.url) }
    if !createdInRFC822 { attributes.addRemconv(OPMLName.Remconv.createdAt, reminder.createdAt?.description) }
    attributes.addRemconv(OPMLName.Remconv.editedAt, reminder.editedAt?.description)
    attributes.addRemconv(OPMLName.Remconv.completedAt, reminder.completedAt?.description)
    attributes.addRest(of: reminder.extra, kept: kept)
    return attributes
  }

  /// True for a time OPML's `created` can hold: RFC 822 has whole seconds only.
  private static func fitsRFC822(_ timestamp: Timestamp?) -> Bool {
    timestamp.map { $0.millisecondsSinceEpoch % 1000 == 0 } ?? false
  }

  /// True when `original` (an outliner's text) still reads as the reminder: same title, and
  /// any state it encodes (a Logseq marker, a priority, a date, a link) still holds.
  static func says(_ original: String, sameAs reminder: Reminder) -> Bool {
    let meaning = OutlineText(interpreting: original, taskMarkers: true)
    return meaning.title == reminder.title && (meaning.isDone ?? reminder.isDone) == reminder.isDone
      && (meaning.priority ?? reminder.priority) == reminder.priority
      && (meaning.due == nil || meaning.due == reminder.dueDate)
      && (meaning.link == nil || meaning.link == reminder.url)
  }
}

/// The attributes of one start tag, in writing order, each name once.
private struct StartTagAttributes {
  private(set) var entries: [(name: String, value: String)] = []
  private var names: Set<String> = []
  /// Prefixes declared on this element for other producers' namespaces.
  private var declaredPrefixes: [String: String] = [:]

  mutating func add(_ name: String, _ value: String?) {
    guard let value, names.insert(name).inserted else { return }
    entries.append((name, value))
  }

  mutating func addRemconv(_ localName: String, _ value: String?) {
    add("\(OPMLFormat.prefix):\(localName)", value)
  }

  /// `remconv:extra` (without the `opml` attributes) and the kept attributes, by name. Kept
  /// attributes the writer wrote itself are superseded; those that cannot be written as
  /// attributes (a non-string value, a name XML does not allow) stay in `remconv:extra`.
  mutating func addRest(of extra: [String: JSONValue], kept: KeptAttributes) {
    var remaining = extra
    remaining.removeValue(forKey: OPMLFormat.extraKey)
    var unwritable: [String: JSONValue] = [:]
    for (key, value) in kept.members.sorted(by: { $0.key < $1.key }) where key != OPMLName.text {
      guard let text = value.stringValue, let name = qualifiedName(forKept: key) else {
        unwritable[key] = value
        continue
      }
      add(name, text)
    }
    if !unwritable.isEmpty { remaining[OPMLFormat.extraKey] = .object(unwritable) }
    if !remaining.isEmpty { addRemconv(OPMLName.Remconv.extra, JSONText.encode(.object(remaining))) }
  }

  /// The name to write a kept attribute under, declaring its namespace when needed.
  private mutating func qualifiedName(forKept key: String) -> String? {
    guard key.hasPrefix("{"), let close = key.firstIndex(of: "}") else {
      return Self.isNCName(key) ? key : nil
    }
    let namespace = String(key[key.index(after: key.startIndex)..<close])
    let localName = String(key[key.index(after: close)...])
    guard Self.isNCName(localName), !namespace.isEmpty else { return nil }
    switch namespace {
    case OPMLFormat.namespace: return "\(OPMLFormat.prefix):\(localName)"
    case OPMLName.xmlNamespace: return "xml:\(localName)"
    default:
      if let prefix = declaredPrefixes[namespace] { return "\(prefix):\(localName)" }
      let prefix = "ns\(declaredPrefixes.count + 1)"
      declaredPrefixes[namespace] = prefix
      add("xmlns:\(prefix)", namespace)
      return "\(prefix):\(localName)"
    }
  }

  /// An XML name without a colon (`_note`, `expanded`), and not a namespace declaration.
  private static func isNCName(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, name.lowercased() != "xmlns" else { return false }
    func isStart(_ scalar: Unicode.Scalar) -> Bool {
      (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || scalar == "_" || scalar.value >= 0xC0
    }
    return isStart(first)
      && name.unicodeScalars.allSatisfy { scalar in
        isStart(scalar) || (scalar >= "0" && scalar <= "9") || scalar == "-" || scalar == "."
          || (scalar.value == 0xB7)
      }
  }
}

/// The attributes of other producers a reader kept in `extra.opml`.
private struct KeptAttributes {
  let members: [String: JSONValue]

  init(_ extra: [String: JSONValue]) { members = extra[OPMLFormat.extraKey]?.objectValue ?? [:] }

  /// The outliner's original `text`, when it differed from the title.
  var text: String? { members[OPMLName.text]?.stringValue }
  /// True for an outline of `type="link"`, whose URL belongs in `url`.
  var isLink: Bool { members[OPMLName.type]?.stringValue?.lowercased() == "link" }
}
