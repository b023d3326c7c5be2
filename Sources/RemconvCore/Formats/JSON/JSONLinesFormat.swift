/// `--format jsonl`: one reminder per line, each carrying its list, for streaming pipelines.
///
/// A line is a reminder object (the keys of `--format json`) plus `list` (the list's name) and
/// `listId`, `listSymbol`, `listColor`, `listCreatedAt`. An empty list has no line to ride on:
/// the writer reports it.
public enum JSONLinesFormat {
  /// The list's keys on every line, in the order they are written.
  static let listKeys = ["list", "listId", "listSymbol", "listColor", "listCreatedAt", "listExtra"]

  public static let descriptor = FormatDescriptor(
    name: "jsonl", summary: "JSON Lines: one reminder per line with its list", extensions: ["jsonl", "ndjson"],
    isDirectory: false,
    makeReader: { context in try Reader(context: context) },
    makeWriter: { context in try Writer(context: context) },
    sniff: { head in
      let text = String(decoding: head, as: UTF8.self)
      guard let firstLine = text.split(separator: "\n").first else { return false }
      return firstLine.hasPrefix("{") && firstLine.contains("\"list\"") && firstLine.contains("\"title\"")
    })

  /// The keys of a line's list, each with a slot in `LineMembers`.
  enum LineListKey: Int, MemberKey {
    case list, listId, listSymbol, listColor, listCreatedAt, listExtra
    var name: String { JSONLinesFormat.listKeys[rawValue] }
    static let byName = makeIndex()
    static let byLength = makeLengthIndex()
  }

  /// A line's members, each put in its slot as the line is parsed: the reminder's (others
  /// among them, which its `extra.json` keeps) and its list's.
  struct LineMembers {
    var reminder = ObjectMembers<ReminderKey>()
    var list = ObjectMembers<LineListKey>()

    /// False when the line had a member of that name already.
    mutating func add(_ name: String, _ value: JSONValue) -> Bool {
      if let key = LineListKey.named(name) { return list.add(key, value) }
      return reminder.add(name, value)
    }

    mutating func removeAll() {
      reminder.removeAll()
      list.removeAll()
    }
  }

  final class Reader: RawRecordReader {
    private let context: ReaderContext
    private let bytes: ByteReader
    private let derivedIDs = DerivedIDGenerator()
    private var lineNumber = 0
    private var knownLists: [String: String] = [:]  // list key → list id
    private var pending: ReadRecord?
    /// What a line's digest depends on besides its bytes.
    private let digestContext: RecordDigest
    /// The line of the raw reminder: its list is read from every line, so a line the store
    /// holds unchanged still announces its list; only the reminder waits. Its members are the
    /// last line's, in `lineMembers`.
    private var raw = RawLine()
    /// The members of the line read last. Kept for the next line: freeing the slots (arrays of
    /// optional values) took a call per slot.
    private var lineMembers: LineMembers? = LineMembers()

    private struct RawLine {
      var bytes: [UInt8] = []
      var duplicates: [JSONDuplicateKey] = []
      var listID = ""
      var location = SourceLocation(file: "")
    }

    init(context: ReaderContext) throws {
      self.context = context
      bytes = try context.openByteReader()
      digestContext = context.recordDigestContext(format: "jsonl")
    }

    func nextRecord() throws -> ReadRecord? { try read(decodingAtOnce: false) }

    /// Every record with its reminder decoded at once, the line never kept raw: what a
    /// conversion reads, with nothing to skip.
    func next() throws -> SourceRecord? {
      switch try read(decodingAtOnce: true) {
      case nil: return nil
      case .record(let record): return record
      case .raw: preconditionFailure("a line read to be decoded at once was kept raw")
      }
    }

    /// The next record, its reminder raw or decoded (after its list when the list is new).
    private func read(decodingAtOnce: Bool) throws -> ReadRecord? {
      if let pending {
        self.pending = nil
        return pending
      }
      while var line = try bytes.readLine() {
        lineNumber += 1
        // A UTF-8 byte order mark before the first record is not part of it (RFC 8259 §8.1).
        if lineNumber == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
        let location = context.location(line: lineNumber)
        var members = lineMembers ?? LineMembers()
        lineMembers = nil
        defer { lineMembers = members }
        var duplicates: [JSONDuplicateKey] = []
        try parse(line, into: &members, duplicates: &duplicates, at: location)
        let listName = members.list[.list]?.stringValue ?? context.source.baseName ?? "Reminders"
        let listKey = members.list[.listId]?.stringValue ?? "name:" + ListName.key(for: listName)
        var newList: ReminderList?
        let listID: String
        if let known = knownLists[listKey] {
          listID = known
        } else {
          // A `list` that is not a string is reported and kept by the list decoder, not dropped.
          var listMembers = ObjectMembers<ListKey>()
          listMembers[.name] = members.list[.list] ?? .string(listName)
          listMembers[.id] = members.list[.listId]
          listMembers[.symbol] = members.list[.listSymbol]
          listMembers[.color] = members.list[.listColor]
          listMembers[.createdAt] = members.list[.listCreatedAt]
          listMembers[.extra] = members.list[.listExtra]
          let list = ReminderJSON.decodeList(
            listMembers, fallbackName: listName, at: location, diagnostics: context.diagnostics)
          knownLists[listKey] = list.id
          listID = list.id
          newList = list
        }
        let reminder: ReadRecord
        if decodingAtOnce {
          reminder = .record(
            .reminder(decode(members, duplicates: duplicates, listID: listID, at: location), location))
        } else {
          raw = RawLine(bytes: line, duplicates: duplicates, listID: listID, location: location)
          reminder = .raw(location)
        }
        guard let newList else { return reminder }
        pending = reminder
        return .record(.list(newList))
      }
      return nil
    }

    /// Parses a line into `members`, its members put in their slots as they are read. A line
    /// with a name twice, at its top or inside, is parsed again as a whole value, which tells
    /// each such name and the value it replaced.
    private func parse(
      _ line: [UInt8], into members: inout LineMembers, duplicates: inout [JSONDuplicateKey],
      at location: SourceLocation
    ) throws {
      members.removeAll()
      var namedTwice = false
      let nestedDuplicate = try JSONParser.parseMembers(
        ofObject: line, name: context.source.displayName, firstLine: lineNumber
      ) { name, value in
        if !members.add(name, value) { namedTwice = true }
      }
      if nestedDuplicate == false, !namedTwice { return }
      let value = try JSONParser.parse(
        bytes: line, name: context.source.displayName, firstLine: lineNumber, duplicates: &duplicates)
      guard case .object(let object) = value else {
        throw RemconvError.malformedInput("a JSON Lines record must be an object", at: location)
      }
      members.removeAll()
      for (name, value) in object { _ = members.add(name, value) }
    }

    func digestOfRaw() -> RecordDigest { RecordDigest(of: raw.bytes, seed: digestContext) }

    func decodeRaw() throws -> DecodedReminder {
      defer { raw = RawLine() }
      guard let members = lineMembers else { preconditionFailure("a raw line without its members") }
      let reminder = decode(members, duplicates: raw.duplicates, listID: raw.listID, at: raw.location)
      return (reminder, members.reminder[.id]?.stringValue, true)
    }

    /// The reminder of a line's members.
    private func decode(
      _ members: LineMembers, duplicates: [JSONDuplicateKey], listID: String, at location: SourceLocation
    ) -> Reminder {
      // The line's earlier values of a repeated name, its list's members among them, stay
      // with the reminder the line carries.
      ReminderJSON.decodeReminder(
        members.reminder, listID: listID, at: location, diagnostics: context.diagnostics, derivedIDs: derivedIDs,
        duplicates: duplicates)
    }

    func passOverRaw() { raw = RawLine() }
  }

  /// `{` and a list's members with a trailing comma: how every line of a reminder of `list`
  /// starts.
  static func linePrefix(of list: ReminderList) -> [UInt8] {
    var prefix: [UInt8] = [UInt8(ascii: "{")]
    ReminderJSON.appendMembers(
      [
        ("list", JSONText.quoted(list.name)),
        ("listId", JSONText.quoted(list.id)),
        ("listSymbol", JSONText.quoted(list.symbol)),
        ("listColor", ReminderJSON.string(list.color)),
        ("listCreatedAt", ReminderJSON.string(list.createdAt?.description)),
      ] + (list.extra.isEmpty ? [] : [("listExtra", JSONText.encode(.object(list.extra)))]), to: &prefix)
    prefix.append(UInt8(ascii: ","))
    return prefix
  }

  /// The length of the line `Writer` writes for `reminder` in a list whose `linePrefix` is
  /// `prefixLength` bytes long, without its line break; `scratch` is reused storage.
  static func lineLength(of reminder: Reminder, prefixLength: Int, scratch: inout [UInt8]) -> Int {
    scratch.removeAll(keepingCapacity: true)
    ReminderJSON.appendMembers(of: reminder, to: &scratch)
    return prefixLength + scratch.count + 1
  }

  /// A bound on `lineLength` without writing the line: every text at its longest escaped
  /// (six bytes a byte, `\u0001`), and room for the member names and the values that are not
  /// text. Writing the line took a tenth of an import; this takes the texts' lengths.
  static func lineLengthBound(of reminder: Reminder, prefixLength: Int) -> Int {
    var length =
      prefixLength + fixedMembersBound + textBound(reminder.id) + textBound(reminder.title) + textBound(reminder.notes)
    if let parent = reminder.parentID { length += textBound(parent) }
    if let url = reminder.url { length += textBound(url) }
    if case .zoned(_, let zone) = reminder.dueDate { length += 2 * textBound(zone) }
    if case .zoned(_, let zone) = reminder.startDate { length += 2 * textBound(zone) }
    if let recurrence = reminder.recurrence { length += ScheduleJSON.lengthBound(recurrence) }
    if !reminder.alarms.isEmpty { length += ScheduleJSON.lengthBound(reminder.alarms) }
    for tag in reminder.tags { length += textBound(tag) + 1 }
    for (key, value) in reminder.extra { length += textBound(key) + 2 + valueBound(value) }
    return length
  }

  /// Member names, punctuation, flags, the priority, dates and timestamps.
  private static let fixedMembersBound = 1 << 10

  private static func textBound(_ text: String) -> Int { 6 * text.utf8.count + 2 }

  private static func valueBound(_ value: JSONValue) -> Int {
    switch value {
    case .null, .bool: 5
    case .number(let digits): digits.utf8.count
    case .string(let text): textBound(text)
    case .array(let items): items.reduce(2) { $0 + valueBound($1) + 1 }
    case .object(let members): members.reduce(2) { $0 + textBound($1.key) + 2 + valueBound($1.value) }
    }
  }

  final class Writer: ReminderWriter {
    static let inputOrder = WriterInputOrder.anyOrder
    private let output: ByteWriter
    private let diagnostics: DiagnosticLog
    /// Lists announced with `beginList`, in order, and those that got a line.
    private var announced: [ReminderList] = []
    private var written: Set<String> = []
    /// Each list's line prefix by the list's id, made once: a list's reminders need not
    /// follow each other, and remaking the prefix for each took a tenth of a conversion.
    private var prefixes: [String: (list: ReminderList, prefix: [UInt8])] = [:]
    /// The line being written; its storage is reused.
    private var line: [UInt8] = []

    init(context: WriterContext) throws {
      output = try context.requireStream("jsonl")
      diagnostics = context.diagnostics
    }

    func beginList(_ list: ReminderList) throws { announced.append(list) }

    func write(_ reminder: Reminder, in list: ReminderList, depth: Int) throws {
      if written.count < announced.count { written.insert(list.id) }
      line.removeAll(keepingCapacity: true)
      line += listPrefix(list)
      ReminderJSON.appendMembers(of: reminder, to: &line)
      line += "}\n".utf8
      try output.write(bytes: line)
    }

    /// `{` and the list's members with a trailing comma, made again only when a list comes
    /// back changed under the same id.
    private func listPrefix(_ list: ReminderList) -> [UInt8] {
      if let known = prefixes[list.id], known.list == list { return known.prefix }
      let prefix = JSONLinesFormat.linePrefix(of: list)
      prefixes[list.id] = (list, prefix)
      return prefix
    }

    func finish() throws {
      for list in announced where !written.contains(list.id) {
        diagnostics.warning(
          "cannot-carry", "JSON Lines cannot carry the empty list '\(list.name)': it is not written", uid: list.id)
      }
      try output.flush()
    }
  }
}
