import Foundation

/// `--format csv`: remconv's own CSV, one row per reminder with its list, lossless.
///
/// The columns are the keys of `--format json` (values written as there: ISO dates, priority
/// as a word, `true`/`false`), then the list's columns of `--format jsonl`, then `extra` (JSON
/// text). Tags are one cell separated by `;` (see `CSVTagList`). A bare empty field is no
/// value (JSON `null`), a quoted one (`""`) is the empty string. A row whose reminder columns
/// are all empty describes a list with no reminders, so an export of a store with an empty
/// list imports back to the same store.
///
/// Reading finds columns by name in any order; `title` is the only column required. Columns
/// it does not know are kept in the reminder's `extra.csv`, keyed by their header names.
/// Rows may come in any order (a subtask before its parent).
public enum RemconvCSVFormat {
  /// The reminder columns: the JSON keys but `extra`.
  static let reminderColumns = ReminderJSON.reminderKeys.filter { $0 != "extra" }
  /// The columns of the list each row belongs to: `list`, `listId`, … as in JSON Lines.
  static let listColumns = JSONLinesFormat.listKeys
  /// Every column, in the order written.
  public static let columns = reminderColumns + listColumns + ["extra"]
  /// The list columns and the key of `ReminderJSON.decodeList` each one fills.
  private static let listMemberKeys: [(column: String, key: ListKey)] = [
    ("list", .name), ("listId", .id), ("listSymbol", .symbol), ("listColor", .color),
    ("listCreatedAt", .createdAt), ("listExtra", .extra),
  ]
  /// The key under which unknown columns are kept in `extra`.
  static let extraKey = "csv"

  public static let descriptor = FormatDescriptor(
    name: "csv", summary: "remconv's CSV: one row per reminder with its list (lossless)", extensions: ["csv"],
    isDirectory: false,
    makeReader: { context in try Reader(context: context) },
    makeWriter: { context in try Writer(context: context) },
    sniff: { head in
      // A `title` column, unless the header is TickTick's (`Title` with `List Name`), which a
      // backup cut down to its table starts with.
      guard let header = CSVParser.records(inHead: head, limit: 1).first else { return false }
      return CSVHeader.recordNames(header, contain: ["title"])
        && !CSVHeader.recordNames(header, contain: TickTickCSVFormat.headerMarkers)
    })

  final class Reader: RawRecordReader {
    private let context: ReaderContext
    private let rows: CSVRowStream<ReadRecord>
    private let derivedIDs = DerivedIDGenerator()
    /// The reminder columns present (with `extra`), and their indexes.
    private var reminderIndexes: [(key: ReminderKey, index: Int)] = []
    /// The list columns present, with the `ReminderJSON.decodeList` key each fills.
    private var listIndexes: [(key: ListKey, index: Int)] = []
    /// Their indexes alone.
    private var listColumnIndexes: [Int] = []
    /// Indexes of the columns kept in `extra.csv`.
    private var unknownIndexes: [Int] = []
    /// What a row's digest depends on besides its cells: the options and the header.
    private var digestContext = RecordDigest(high: 0, low: 0)
    /// The list of the raw reminder, whose row is the stream's last (`rows.row`).
    private var rawListID = ""
    /// The list cells met (`ListCells`), and what they gave: the rows of a list repeat its
    /// cells, which then name a list already announced. Bounded: past the bound, cells not met
    /// yet are decoded every time.
    private var listsByCells: [ListCells: (id: String, named: Bool)] = [:]
    private static let listsByCellsLimit = 4096
    private var listCells = ListCells()
    /// The list `listCells` names, once known: rows of one list mostly come one after another,
    /// so a row whose cells are those is answered without gathering or hashing them.
    private var listOfCells: (id: String, named: Bool)?
    /// The members a row is decoded from, kept for the next row: freeing the slots (an array
    /// of optional values) took a call per slot, a tenth of a conversion's reading.
    private var spareMembers: ObjectMembers<ReminderKey>?

    init(context: ReaderContext) throws {
      self.context = context
      rows = try CSVRowStream(context: context)
    }

    func nextRecord() throws -> ReadRecord? {
      try rows.next(findHeader: readHeader) { record, header in try read(record, header: header, decodingAtOnce: false)
      }
    }

    /// Every record with its reminder decoded at once, the row never kept raw: what a
    /// conversion reads, with nothing to skip.
    func next() throws -> SourceRecord? {
      let row = try rows.next(findHeader: readHeader) { record, header in
        try read(record, header: header, decodingAtOnce: true)
      }
      switch row {
      case nil: return nil
      case .record(let record): return record
      case .raw: preconditionFailure("a row read to be decoded at once was kept raw")
      }
    }

    /// Reads the header row (the first row that is not blank). Nil for an empty input.
    private func readHeader() throws -> CSVHeader? {
      while let record = try rows.parser.next() {
        if record.isBlank { continue }
        let header = try CSVHeader(record, context: context)
        try header.require(["title"], format: "remconv CSV", context: context)
        let known = Set(RemconvCSVFormat.columns.map(CSVHeader.key))
        reminderIndexes = ReminderKey.allCases.compactMap { key in header.index(of: key.name).map { (key, $0) } }
        listIndexes = RemconvCSVFormat.listMemberKeys.compactMap { column, key in
          header.index(of: column).map { (key, $0) }
        }
        listColumnIndexes = listIndexes.map(\.index)
        unknownIndexes = header.names.indices.filter { !known.contains(CSVHeader.key(header.names[$0])) }
        digestContext = context.recordDigestContext(format: "csv", header.names)
        return header
      }
      return nil
    }

    /// Reads a row's list, and yields its reminder, raw or decoded (after its list when the list
    /// is new); a list-only row gives its list, once; nil for a list-only row of a list already seen.
    private func read(_ row: CSVRow, header: CSVHeader, decodingAtOnce: Bool) throws -> ReadRecord? {
      let location = context.location(line: row.line)
      header.reportInvalidUTF8(in: row, context: context)
      let (listID, newList, namesList) = list(of: row, at: location)
      let extraIndexes = header.names.count..<max(header.names.count, row.count)
      if namesList, reminderIndexes.allSatisfy({ row.isAbsent($0.index) }),
        unknownIndexes.allSatisfy(row.isAbsent), extraIndexes.allSatisfy(row.isAbsent)
      {
        if !extraIndexes.isEmpty { warnOfExtraFields(in: row, header: header, at: location, uid: nil) }
        return newList.map { .record(.list($0)) }
      }
      let listRecord = newList.map { ReadRecord.record(.list($0)) }
      if decodingAtOnce {
        let reminder = try decode(row, listID: listID, header: header).reminder
        return rows.emit(.record(.reminder(reminder, location)), after: listRecord)
      }
      rawListID = listID
      return rows.emit(.raw(location), after: listRecord)
    }

    private func warnOfExtraFields(in row: CSVRow, header: CSVHeader, at location: SourceLocation, uid: String?) {
      context.diagnostics.warning(
        "extra-fields",
        "the row has \(row.count) fields but the header \(header.names.count); "
          + "the others are kept in extra.csv",
        at: location, uid: uid)
    }

    /// The digest of the raw row: every cell as read, and whether it was quoted (a quoted
    /// empty cell is the empty string, a bare one no value). A cell is hashed from its bytes,
    /// which are its text's UTF-8, but for a cell that is not UTF-8: its text as decoded.
    func digestOfRaw() -> RecordDigest {
      // The row whole, in three runs over contiguous memory rather than one a cell: its bytes
      // as read, where each field ends in them, and which fields were quoted. Equal digests
      // mean equal cells, bytes that are not UTF-8 included.
      let row = rows.row
      return row.bytes.withUnsafeBytes { bytes in
        row.ends.withUnsafeBytes { ends in
          row.quoted.withUnsafeBytes { quoted in
            RecordDigest(of: quoted, seed: RecordDigest(of: ends, seed: RecordDigest(of: bytes, seed: digestContext)))
          }
        }
      }
    }

    /// Nothing to let go of: the next row replaces the raw one.
    func passOverRaw() {}

    /// Turns the raw row into a reminder.
    func decodeRaw() throws -> DecodedReminder {
      guard let header = rows.header else { preconditionFailure("a raw row before the header") }
      return try decode(rows.row, listID: rawListID, header: header)
    }

    /// Turns a row of list `listID` into a reminder.
    private func decode(_ row: CSVRow, listID: String, header: CSVHeader) throws -> DecodedReminder {
      let location = context.location(line: row.line)
      // Every column present sets its slot, so the last row's values are all replaced.
      var members = spareMembers ?? ObjectMembers()
      spareMembers = nil
      defer { spareMembers = members }
      for (key, index) in reminderIndexes { members[key] = Self.value(of: row, at: index, kind: CellKind(key)) }
      var kept: [String: JSONValue] = [:]
      for index in unknownIndexes {
        if let value = Self.value(of: row, at: index, kind: .text) { kept[header.name(at: index)] = value }
      }
      if row.count > header.names.count {
        warnOfExtraFields(in: row, header: header, at: location, uid: members[.id]?.stringValue)
        for index in header.names.count..<row.count {
          if let value = Self.value(of: row, at: index, kind: .text) { kept[header.name(at: index)] = value }
        }
      }
      var reminder = ReminderJSON.decodeReminder(
        members, listID: listID, at: location, diagnostics: context.diagnostics, derivedIDs: derivedIDs)
      if !kept.isEmpty {
        var bag = reminder.extra[RemconvCSVFormat.extraKey]?.objectValue ?? [:]
        bag.merge(kept) { _, column in column }
        reminder.extra[RemconvCSVFormat.extraKey] = .object(bag)
      }
      return (reminder, members[.id]?.stringValue, true)
    }

    /// The id of the row's list, the list itself the first time it is named, and whether the
    /// row has any list cell. List cells met before name the same list, already announced:
    /// they are not decoded again.
    private func list(of row: CSVRow, at location: SourceLocation) -> (String, ReminderList?, namesList: Bool) {
      if let last = listOfCells, listCells.holds(listColumnIndexes, of: row) { return (last.id, nil, last.named) }
      listCells.gather(listColumnIndexes, of: row)
      if let known = listsByCells[listCells] {
        listOfCells = known
        return (known.id, nil, known.named)
      }
      var listMembers = ObjectMembers<ListKey>()
      for (key, index) in listIndexes {
        if let value = Self.value(of: row, at: index, kind: key == .extra ? .json : .text) {
          listMembers[key] = value
        }
      }
      let (id, newList) = list(for: listMembers, at: location)
      listOfCells = (id, !listMembers.isEmpty)
      if listsByCells.count < Self.listsByCellsLimit { listsByCells[listCells] = (id, !listMembers.isEmpty) }
      return (id, newList, !listMembers.isEmpty)
    }

    /// The id of the list `members` describe, and the list itself the first time it is named. A
    /// row that names no list goes to the import's default list (empty id).
    private func list(for members: ObjectMembers<ListKey>, at location: SourceLocation) -> (String, ReminderList?) {
      guard members[.name] != nil || members[.id] != nil else { return ("", nil) }
      let key = members[.id]?.stringValue ?? members[.name]?.stringValue.map { "name:" + ListName.key(for: $0) } ?? ""
      return rows.list(key: key) {
        ReminderJSON.decodeList(
          members, fallbackName: context.source.baseName ?? "Reminders", at: location, diagnostics: context.diagnostics)
      }
    }

    /// How a column's cells are read.
    enum CellKind {
      case text, boolean, tags, json

      init(_ key: ReminderKey) {
        switch key {
        case .isDone, .flagged: self = .boolean
        case .tags: self = .tags
        case .extra, .recurrence, .alarms: self = .json
        default: self = .text
        }
      }
    }

    /// The JSON value of a cell: nil for a missing or bare empty field (no value); booleans,
    /// tags and JSON columns decoded, anything else as text. A value that does not parse stays
    /// text, so the JSON decoder reports it and keeps it in `extra.invalid`.
    static func value(of row: CSVRow, at index: Int, kind: CellKind) -> JSONValue? {
      guard !row.isAbsent(index) else { return nil }
      switch kind {
      case .boolean:
        // `true`, `1`, `false` or `0` in any case: no other text lowers to them.
        let range = row.range(of: index)
        if range.count <= 5 {
          var lowered = 0
          for byte in row.bytes[range] { lowered = lowered << 8 | Int(byte | (byte &>> 1 & 0x20)) }
          switch (range.count, lowered) {
          case (4, 0x7472_7565), (1, 0x31): return .bool(true)
          case (5, 0x66_616c_7365), (1, 0x30): return .bool(false)
          default: break
          }
        }
        return .string(row.string(at: index))
      case .tags:
        return .array(CSVTagList.decode(row.string(at: index)).map(JSONValue.string))
      case .json:
        // A cell that is UTF-8 is parsed from its bytes, which are its text's.
        if !row.invalidUTF8.contains(index),
          let value = try? JSONParser.parse(bytes: Array(row.bytes[row.range(of: index)]), name: "<json>")
        {
          return value
        }
        return .string(row.string(at: index))
      case .text:
        return .string(row.string(at: index))
      }
    }
  }

  final class Writer: ReminderWriter {
    static let inputOrder = WriterInputOrder.anyOrder
    private let rows: CSVRowWriter
    /// Lists announced with `beginList`, in order, and those that got a row.
    private var announced: [ReminderList] = []
    private var written: Set<String> = []
    /// The list columns of each list met, by its id, encoded once: a conversion's rows come in
    /// the input's order, where lists may alternate from row to row.
    private var listCellsByID: [String: (list: ReminderList, cells: CSVRowWriter.EncodedCells)] = [:]

    init(context: WriterContext) throws {
      rows = try CSVRowWriter(output: try context.requireStream("csv"), options: context.options)
      try rows.writeRow(RemconvCSVFormat.columns)
    }

    func beginList(_ list: ReminderList) throws { announced.append(list) }

    /// Writes the row cell by cell, in `columns` order: no array of cells, no `String` for a
    /// value spelled as bytes (recurrence, alarms, tags, extra).
    func write(_ reminder: Reminder, in list: ReminderList, depth: Int) throws {
      if written.count < announced.count { written.insert(list.id) }
      let listCells = listCells(list)
      try rows.writeRow { row in
        row.append(reminder.id)
        row.append(reminder.title.isEmpty ? nil : reminder.title)
        row.append(reminder.notes.isEmpty ? nil : reminder.notes)
        row.append(reminder.isDone ? "true" : "false")
        row.append(reminder.completedAt?.description)
        row.append(reminder.flagged ? "true" : "false")
        row.append(reminder.dueDate?.isoText)
        row.append(reminder.dueDate?.timeZoneIdentifier)
        row.append(reminder.startDate?.isoText)
        row.append(reminder.startDate?.timeZoneIdentifier)
        if let recurrence = reminder.recurrence {
          row.append { ScheduleJSON.append(recurrence, to: &$0) }
        } else {
          row.append(nil)
        }
        if reminder.alarms.isEmpty {
          row.append(nil)
        } else {
          row.append { ScheduleJSON.append(reminder.alarms, to: &$0) }
        }
        row.append(reminder.priority.rawValue)
        row.append(reminder.parentID)
        if reminder.tags.isEmpty {
          row.append(nil)
        } else {
          row.append { CSVTagList.append(reminder.tags, to: &$0) }
        }
        row.append(reminder.url)
        row.append(reminder.createdAt?.description)
        row.append(reminder.editedAt?.description)
        row.append(listCells)
        if reminder.extra.isEmpty {
          row.append(nil)
        } else {
          row.append { JSONText.append(.object(reminder.extra), to: &$0) }
        }
      }
    }

    private func listCells(_ list: ReminderList) -> CSVRowWriter.EncodedCells {
      if let known = listCellsByID[list.id], known.list == list { return known.cells }
      let cells = rows.encodedCells(Self.listCells(list))
      listCellsByID[list.id] = (list, cells)
      return cells
    }

    /// A list that got no reminder gets a row of its own where it ends (export), so lists
    /// keep their order.
    func endList(_ list: ReminderList) throws {
      if !written.contains(list.id) { try writeListRow(list) }
    }

    func finish() throws {
      // Streamed conversions announce lists without ending them.
      for list in announced where !written.contains(list.id) { try writeListRow(list) }
      try rows.flush()
    }

    /// A row with empty reminder columns: a list with no reminders.
    private func writeListRow(_ list: ReminderList) throws {
      written.insert(list.id)
      try rows.writeRow(
        [String?](repeating: nil, count: RemconvCSVFormat.reminderColumns.count) + Self.listCells(list) + [nil])
    }

    private static func listCells(_ list: ReminderList) -> [String?] {
      [list.name, list.id, list.symbol, list.color, list.createdAt?.description, json(list.extra)]
    }

    private static func json(_ object: [String: JSONValue]) -> String? {
      object.isEmpty ? nil : JSONText.encode(.object(object))
    }
  }
}

/// The list cells of a row, gathered to be compared with another row's: each cell's length
/// and its bytes, or a mark for no value in the place of a length (no cell is that long), so
/// that two rows gather the same bytes only when every cell is the same.
struct ListCells: Hashable {
  /// The cells' bytes, one after another.
  private var bytes: [UInt8] = []
  /// Each cell's length in `bytes`, or `absent`: kept apart from the bytes, so a cell is one
  /// copy of its bytes and one length appended.
  private var lengths: [UInt32] = []
  private static let absent = UInt32.max

  /// The bytes and lengths hashed at once (an array's own hashing feeds the hasher one element
  /// at a time).
  func hash(into hasher: inout Hasher) {
    bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    lengths.withUnsafeBytes { hasher.combine(bytes: $0) }
  }

  /// The bytes compared at once (an array's own comparison goes one element at a time): every
  /// row's cells are compared with those of the list they name.
  static func == (left: ListCells, right: ListCells) -> Bool {
    left.lengths == right.lengths && left.bytes.count == right.bytes.count
      && left.bytes.withUnsafeBytes { leftBytes in
        right.bytes.withUnsafeBytes { rightBytes in
          leftBytes.count == 0 || memcmp(leftBytes.baseAddress!, rightBytes.baseAddress!, leftBytes.count) == 0
        }
      }
  }

  /// Gathers the cells at `indexes`, each copied from the row's buffer in one piece.
  mutating func gather(_ indexes: [Int], of row: CSVRow) {
    bytes.removeAll(keepingCapacity: true)
    lengths.removeAll(keepingCapacity: true)
    row.bytes.withUnsafeBufferPointer { cells in
      for index in indexes {
        if row.isAbsent(index) {
          lengths.append(Self.absent)
          continue
        }
        let range = row.range(of: index)
        lengths.append(UInt32(truncatingIfNeeded: range.count))
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: cells[range]))
      }
    }
  }

  /// Whether `gather(indexes, of: row)` would gather these bytes: compared in place, cell by cell.
  func holds(_ indexes: [Int], of row: CSVRow) -> Bool {
    guard lengths.count == indexes.count else { return false }
    return bytes.withUnsafeBytes { gathered in
      row.bytes.withUnsafeBytes { cells in
        var position = 0
        for (cell, index) in indexes.enumerated() {
          let length = lengths[cell]
          if row.isAbsent(index) {
            guard length == Self.absent else { return false }
            continue
          }
          let range = row.range(of: index)
          guard length == UInt32(truncatingIfNeeded: range.count), position + range.count <= gathered.count,
            range.isEmpty
              || memcmp(gathered.baseAddress! + position, cells.baseAddress! + range.lowerBound, range.count) == 0
          else { return false }
          position += range.count
        }
        return position == gathered.count
      }
    }
  }
}

/// The tags cell of remconv's CSV: tags joined with `;`, a `;` or `\` inside a tag escaped
/// with a backslash (`\;`, `\\`).
///
/// A separator rather than a JSON array, so the cell stays readable and editable in a
/// spreadsheet (`errands;weekend`); the escape keeps any tag text intact. Spaces belong to the
/// tag. A bare empty cell is no tags; a quoted empty cell (`""`) is one empty tag.
enum CSVTagList {
  static let separator = UInt8(ascii: ";")
  static let escape = UInt8(ascii: "\\")

  /// Appends the cell of `tags`, as bytes.
  static func append(_ tags: [String], to bytes: inout [UInt8]) {
    for (index, tag) in tags.enumerated() {
      if index > 0 { bytes.append(separator) }
      for byte in tag.utf8 {
        if byte == separator || byte == escape { bytes.append(escape) }
        bytes.append(byte)
      }
    }
  }

  /// Splits a cell into tags. A backslash takes the next byte literally; a trailing one is
  /// kept as itself.
  static func decode(_ text: String) -> [String] {
    var tags: [String] = []
    var current: [UInt8] = []
    var escaped = false
    for byte in text.utf8 {
      if escaped {
        current.append(byte)
        escaped = false
      } else if byte == escape {
        escaped = true
      } else if byte == separator {
        tags.append(String(decoding: current, as: UTF8.self))
        current.removeAll(keepingCapacity: true)
      } else {
        current.append(byte)
      }
    }
    if escaped { current.append(escape) }
    tags.append(String(decoding: current, as: UTF8.self))
    return tags
  }
}
