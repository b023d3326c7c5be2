/// The queries behind the views, counts and edits of the reminders-app commands.
extension Store {
  /// Calls `body` with the list row and the facts (done, flagged, due) of every reminder,
  /// streamed: counting a million reminders holds one at a time and decodes nothing else.
  /// A due date that does not parse counts as none, as `decodeReminder` reads it.
  public func forEachReminderFacts(_ body: (_ listRowID: Int64, _ facts: ReminderFacts) throws -> Void) throws {
    try forEachFacts(where: "1", [], body)
  }

  private func forEachFacts(
    where condition: String, _ values: [SQLValue], _ body: (_ listRowID: Int64, _ facts: ReminderFacts) throws -> Void
  ) throws {
    let statement = try database.statement(
      "SELECT list_id, is_done, flagged, due, due_tz FROM reminders WHERE \(condition)")
    try statement.bind(values)
    defer { statement.reset() }
    while let row = try statement.step() {
      let due = row.string(3).flatMap { try? DueDate(isoText: $0, timeZone: row.string(4)) }
      try body(row.int(0) ?? 0, ReminderFacts(isDone: row.bool(1), flagged: row.bool(2), dueDate: due))
    }
  }

  /// Every reminder stored with exactly `uid` (a store may hold one UID twice when an old
  /// version wrote it so; callers treat that as ambiguous).
  public func reminders(uid: String) throws -> [StoredReminder] {
    try database.rows(
      "SELECT \(Self.reminderColumns) \(Self.reminderJoins) WHERE \(Self.exactUID) ORDER BY r.id", [.text(uid)]
    ).map(Self.decodeReminder)
  }

  /// For each of `uids` (UIDs of reminders in the store), the shortest prefix length that tells
  /// it apart from every other UID in the store, compared as `reminders(uidPrefix:)` matches (ASCII case-insensitively): a
  /// prefix this long names that reminder alone. Each UID is looked up beside its neighbours
  /// in the index of folded UIDs (a handful of rows however big the store); a view that shows
  /// many asks `UIDPrefixLengths`, which reads the index once in order instead.
  public func uniquePrefixLengths(of uids: Set<String>) throws -> [String: Int] {
    try read {
      var result: [String: Int] = [:]
      var scan = UIDIndexScan()
      for uid in uids { result[uid] = try uniquePrefixLength(of: uid, scan: &scan) }
      return result
    }
  }

  /// The most rows before a UID's own key that one lookup reads from its bound on: past them
  /// the bound was too short, and two seeks cost less than reading on.
  static let uidScanLimit = 16

  /// The prefix length of one UID (a reminder's, so its folded key is in the index): one more
  /// than the most bytes its key shares with the key just before it and the second from its
  /// own on (the next key, or its own again when another row has the same), in the index of
  /// folded UIDs.
  ///
  /// One seek does it mostly: the index is read from the key's first `scan.bound` bytes on,
  /// up to the key after its own. A key before its own that shares that many bytes with it
  /// is among those rows, and the one just before it is the last of them; when there is none,
  /// the key before it shares fewer, which is all that matters when the key after it shares at
  /// least one less than the bound. Otherwise (or past `uidScanLimit` rows) a second seek
  /// finds the key before. The bound is then set to the bytes this key shared: the keys of one
  /// store tend to share about as many (its UIDs are made alike), so the next lookup's rows
  /// before its key are few. A key inside the run of keys the last lookup read (`scan`) has
  /// both its neighbours there and needs no seek. The key is folded on the stack and bound in
  /// place.
  fileprivate func uniquePrefixLength(of uid: String, scan: inout UIDIndexScan) throws -> Int {
    var uid = uid
    // Compared as UTF-8 bytes: a folded key differs from its UID in ASCII case only, so a byte
    // length in the key is the same byte length in the UID.
    let common = try uid.withUTF8 { bytes in
      try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { folded in
        for (offset, byte) in bytes.enumerated() { folded[offset] = Self.asciiUppercased(byte) }
        return try sharedUIDBytes(ofKey: UnsafeBufferPointer(folded), scan: &scan)
      }
    }
    return Self.characterCount(ofPrefixCovering: common + 1, in: uid)
  }

  /// The most bytes the folded key `key` (a reminder's) shares with another key in the index
  /// of folded UIDs, found as `uniquePrefixLength(of:scan:)` tells.
  fileprivate func sharedUIDBytes(ofKey key: UnsafeBufferPointer<UInt8>, scan: inout UIDIndexScan) throws -> Int {
    let common: Int
    if let shared = scan.sharedWithNeighbours(of: key) {
      common = shared
    } else {
      let bound = min(scan.bound, key.count)
      if let scanned = try keysBesideUID(key, from: bound, into: &scan),
        scanned.previous != nil || scanned.next + 1 >= bound
      {
        common = max(scanned.previous ?? 0, scanned.next)
      } else {
        common = try max(sharedWithKeyBeforeUID(key), keysBesideUID(key, from: key.count, into: &scan)?.next ?? 0)
      }
    }
    scan.bound = common
    return common
  }

  /// Reads the index of folded UIDs from `key`'s first `bound` bytes on, up to the key after
  /// `key` itself and `scan.readAhead` more, kept in `scan`: how many bytes `key` shares with
  /// the key just before it, if that one was read, and with the next. Nil when `key` is not
  /// among the first `uidScanLimit` rows.
  private func keysBesideUID(_ key: UnsafeBufferPointer<UInt8>, from bound: Int, into scan: inout UIDIndexScan) throws
    -> (previous: Int?, next: Int)?
  {
    let from = try database.statement(HotQuery.uidFrom) {
      "SELECT upper(uid) FROM reminders WHERE upper(uid) >= ?1 ORDER BY upper(uid)"
    }
    scan.startRun()
    return try from.withText(UnsafeBufferPointer(rebasing: key.prefix(bound)), at: 1) {
      var previous: Int?
      var next: Int?
      var before = 0
      var after = 0
      var reached = false
      while let row = try from.step() {
        let shared = row.withTextBytes(0) { read in
          scan.append(read)
          return (Self.sharedBytes(key, read), read.count)
        }
        if next != nil {
          after += 1
          if after >= scan.readAhead { break }
        } else if reached {
          next = shared.0
          if scan.readAhead == 0 { break }
        } else if shared == (key.count, key.count) {
          reached = true
        } else {
          before += 1
          guard before <= Self.uidScanLimit else { return nil }
          previous = shared.0
        }
      }
      return reached ? (previous, next ?? 0) : nil
    }
  }

  /// How many bytes `key` shares with the key just before it in the index of folded UIDs.
  private func sharedWithKeyBeforeUID(_ key: UnsafeBufferPointer<UInt8>) throws -> Int {
    let before = try database.statement(HotQuery.uidBefore) {
      "SELECT upper(uid) FROM reminders WHERE upper(uid) < ?1 ORDER BY upper(uid) DESC LIMIT 1"
    }
    return try before.withText(key, at: 1) { try before.step()?.withTextBytes(0) { Self.sharedBytes(key, $0) } ?? 0 }
  }

  static func sharedBytes(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Int {
    let count = min(left.count, right.count)
    guard count > 0, let leftStart = left.baseAddress, let rightStart = right.baseAddress else { return 0 }
    let leftBytes = UnsafeRawPointer(leftStart)
    let rightBytes = UnsafeRawPointer(rightStart)
    // Eight bytes a step: the first that differs is the lowest set byte of the words' XOR,
    // read little-endian.
    var shared = 0
    while shared + 8 <= count {
      let difference =
        (leftBytes.loadUnaligned(fromByteOffset: shared, as: UInt64.self)
        ^ rightBytes.loadUnaligned(fromByteOffset: shared, as: UInt64.self)).littleEndian
      if difference != 0 { return shared + difference.trailingZeroBitCount / 8 }
      shared += 8
    }
    while shared < count, leftStart[shared] == rightStart[shared] { shared += 1 }
    return shared
  }

  /// `text` with ASCII letters upper-cased, as SQLite's upper() and LIKE fold.
  static func asciiUppercased(_ text: String) -> String {
    String(decoding: text.utf8.map(asciiUppercased), as: UTF8.self)
  }

  /// `byte` upper-cased when it is an ASCII letter, as SQLite's upper() folds.
  static func asciiUppercased(_ byte: UInt8) -> UInt8 {
    byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte
  }

  /// The least text greater than every text that starts with `prefix` (its last character
  /// one code point higher), or nil when there is none: the end of a prefix's index range.
  static func prefixRangeEnd(_ prefix: String) -> String? {
    var scalars = Array(prefix.unicodeScalars)
    while let last = scalars.popLast() {
      var next = last.value + 1
      if next == 0xD800 { next = 0xE000 }
      if let scalar = Unicode.Scalar(next) {
        var end = String.UnicodeScalarView()
        end.append(contentsOf: scalars)
        end.append(scalar)
        return String(end)
      }
    }
    return nil
  }

  /// How many characters of `text` it takes to cover its first `bytes` UTF-8 bytes.
  static func characterCount(ofPrefixCovering bytes: Int, in text: String) -> Int {
    // ASCII bytes are a character each, but for a carriage return before a line feed.
    var text = text
    let ascii = text.withUTF8 { utf8 in
      utf8.prefix(bytes + 1).allSatisfy { $0 < 0x80 && $0 != 0x0D } ? min(bytes, utf8.count) : nil
    }
    if let ascii { return ascii }
    var covered = 0
    var characters = 0
    for character in text {
      guard covered < bytes else { break }
      covered += character.utf8.count
      characters += 1
    }
    return characters
  }

  /// The row ids of a reminder and all its subtasks, nested ones too, in no particular order.
  /// A parent cycle stops the walk where it closes.
  public func subtreeRowIDs(of rowID: Int64) throws -> [Int64] {
    try database.rows(
      """
      WITH RECURSIVE tree(id) AS (SELECT ? UNION SELECT r.id FROM reminders r JOIN tree ON r.parent_id = tree.id)
      SELECT id FROM tree
      """, [.integer(rowID)]
    ).compactMap { $0.int(0) }
  }
}

/// Which rows a view, count or export reads: SQLite narrows by the derived columns and
/// indexes of migration 0008, and the caller applies the exact rule (`ReminderScope`,
/// `ReminderSearch`) to what it finds. Every row the rule would keep is among them.
public struct ReminderCandidates: Sendable {
  /// The condition a view's reminders meet, done state aside.
  public enum Condition: Sendable {
    /// A scope's own condition (`ReminderScope.matchesIgnoringCompletion`) on `Today`.
    case scope(ReminderScope, Today)
    /// Title or notes contain the search's query.
    case search(ReminderSearch)
  }

  /// The done states read.
  public enum Completion: Sendable {
    case open, done, either
  }

  public var condition: Condition
  public var completion: Completion
  /// Only this list's rows, or every list's.
  public var listRowID: Int64?

  public init(_ condition: Condition, completion: Completion, listRowID: Int64? = nil) {
    self.condition = condition
    self.completion = completion
    self.listRowID = listRowID
  }

  /// The SQL condition on `reminders r` and its parameters: the scope rule, as SQLite reads
  /// it. A done state reads as `Row.bool` does (any integer but 0 is done, a text or a real
  /// reads as its integer), so the open and done conditions keep every row that may be one.
  var sql: (text: String, values: [SQLValue]) {
    var terms: [String] = []
    var values: [SQLValue] = []
    switch condition {
    case .scope(.today, let today):
      let days = ReminderIndexValues.todayCandidateDays(today)
      terms.append("r.due_day BETWEEN ? AND ?")
      values += [.integer(days.lowerBound), .integer(days.upperBound)]
    case .scope(.scheduled, _): terms.append("r.due_day IS NOT NULL")
    case .scope(.flagged, _): terms.append("r.flagged IS NOT 0")
    case .scope(.all, _), .scope(.completed, _): break
    case .search(let search):
      terms.append("instr(r.search_text, ?) > 0")
      values.append(.text(ReminderIndexValues.fold(search.query)))
    }
    switch completion {
    case .open: terms.append("r.is_done IS NOT 1")
    case .done: terms.append("r.is_done IS NOT 0")
    case .either: break
    }
    if let listRowID {
      terms.append("r.list_id = ?")
      values.append(.integer(listRowID))
    }
    return (terms.isEmpty ? "1" : terms.joined(separator: " AND "), values)
  }
}

extension Store {
  /// Calls `body` with each candidate reminder in list row order, then row order.
  public func forEachCandidate(
    _ candidates: ReminderCandidates, _ body: (consuming StoredReminder) throws -> Void
  ) throws {
    let (condition, values) = candidates.sql
    let statement = try database.statement(
      "SELECT \(Self.reminderColumns) \(Self.reminderJoins) WHERE \(condition) ORDER BY r.list_id, r.id")
    try statement.bind(values)
    defer { statement.reset() }
    while let row = try statement.step() { try body(Self.decodeReminder(row)) }
  }

  /// How many reminders have each combination of the facts the scopes other than Today look
  /// at, by list: one pass over the index `reminders_by_due_day_state`, which holds the four
  /// columns (named: without statistics SQLite would rather read the narrower list index and
  /// every row of the table behind it, about twice the CPU time at 1M). A done or flagged state reads
  /// as `Row.bool` does; a reminder has a due date when `due_day` is set (its due parses).
  public func forEachFactCount(
    _ body: (_ listRowID: Int64, _ isDone: Bool, _ flagged: Bool, _ hasDue: Bool, _ count: Int) throws -> Void
  ) throws {
    let statement = try database.statement(Self.factCountQuery)
    defer { statement.reset() }
    while let row = try statement.step() {
      try body(row.int(0) ?? 0, row.bool(1), row.bool(2), row.bool(3), Int(row.int(4) ?? 0))
    }
  }

  static let factCountQuery = """
    SELECT list_id, CAST(is_done AS INTEGER) <> 0, CAST(flagged AS INTEGER) <> 0, due_day IS NOT NULL, count(*)
    FROM reminders INDEXED BY reminders_by_due_day_state GROUP BY 1, 2, 3, 4
    """

  /// Calls `body` with the facts of each reminder that may be due on `today` (see
  /// `ReminderCandidates`), as `forEachReminderFacts` reads them.
  public func forEachTodayCandidateFacts(
    _ today: Today, _ body: (_ listRowID: Int64, _ facts: ReminderFacts) throws -> Void
  ) throws {
    let days = ReminderIndexValues.todayCandidateDays(today)
    try forEachFacts(
      where: "due_day BETWEEN ? AND ?", [.integer(days.lowerBound), .integer(days.upperBound)], body)
  }
}

extension Store {
  /// Whether a reminder of the list row `listRowID` has a parent (is a subtask, or points at
  /// a row as one).
  public func hasSubtasks(inListRow listRowID: Int64) throws -> Bool {
    try database.scalar(
      "SELECT EXISTS (SELECT 1 FROM reminders WHERE list_id = ? AND parent_id IS NOT NULL)", [.integer(listRowID)])
      == .integer(1)
  }

  /// A reminder row's parent row and list row, for placing reminders in an outline; nil when
  /// there is no such row.
  public func outlineLink(ofReminderRow rowID: Int64) throws -> (parentRowID: Int64?, listRowID: Int64)? {
    let statement = try database.statement(HotQuery.outlineLink) {
      "SELECT parent_id, list_id FROM reminders WHERE id = ?"
    }
    try statement.bind(.integer(rowID), at: 1)
    defer { statement.reset() }
    return try statement.step().map { ($0.int(0), $0.int(1) ?? 0) }
  }
}

/// A reminder as a view shows it: the columns its rule, its order and its text look at, and
/// nothing else (no tags, timestamps or `extra` to decode).
public struct ViewReminder: Sendable {
  /// Nil for a reminder read by the full walk of a list, which does not give it.
  public let rowID: Int64?
  public let listRowID: Int64
  public let parentRowID: Int64?
  public let uid: String
  public let title: String
  /// Empty unless the view was read with its notes (a search).
  public let notes: String
  public let isDone: Bool
  public let flagged: Bool
  public let dueDate: DueDate?
  public let priority: Priority
  /// It repeats (`show` marks it).
  public var isRepeating = false
  /// It has alarms (`show` marks it).
  public var hasAlarms = false
  /// How many characters of its UID name it alone (its short ID), where the view has looked
  /// them up (`UIDPrefixLengths`).
  public internal(set) var shortIDLength: Int?
  /// Whether its title holds the query, for a row of a search that has looked (nil where
  /// not known): a row whose title does not shows the matching line of its notes.
  public internal(set) var titleHoldsQuery: Bool?

  public var facts: ReminderFacts { ReminderFacts(isDone: isDone, flagged: flagged, dueDate: dueDate) }
}

extension ViewReminder {
  /// The view's columns of a full reminder (a view held whole, grouped by day), whose row
  /// is `rowID` where known.
  init(_ reminder: Reminder, rowID: Int64?) {
    self.init(
      rowID: rowID, listRowID: 0, parentRowID: nil, uid: reminder.id,
      title: reminder.title, notes: reminder.notes, isDone: reminder.isDone, flagged: reminder.flagged,
      dueDate: reminder.dueDate, priority: reminder.priority, isRepeating: reminder.recurrence != nil,
      hasAlarms: !reminder.alarms.isEmpty)
  }
}

extension Store {
  /// Calls `body` with each candidate in list row order, then row order, read as a view shows
  /// it: done state, flag, due date and priority as `decodeReminder` reads them, notes only
  /// when `withNotes`.
  public func forEachViewReminder(
    _ candidates: ReminderCandidates, withNotes: Bool, _ body: (consuming ViewReminder) throws -> Void
  ) throws {
    let (condition, values) = candidates.sql
    let statement = try database.statement(
      """
      SELECT r.id, r.list_id, r.parent_id, r.uid, r.title, \(withNotes ? "r.notes" : "''"), r.is_done, r.flagged,
        r.due, r.due_tz, r.priority, r.recurrence IS NOT NULL, r.alarms <> '[]'
      FROM reminders r WHERE \(condition) ORDER BY r.list_id, r.id
      """)
    try statement.bind(values)
    defer { statement.reset() }
    var zones = SeenZones()
    while let row = try statement.step() {
      // The due date is read from its bytes in place; its zone, one of a few, is made a string
      // and checked once.
      var due: DueDate?
      if !row.isNull(8) {
        let zone = zones.zone(row, 9)
        due = row.withTextBytes(8) {
          try? DueDate(isoBytes: $0, timeZone: zone.name, zoneIsKnown: { _ in zone.isKnown })
        }
      }
      try body(
        ViewReminder(
          rowID: row.integer(0), listRowID: row.integer(1), parentRowID: row.int(2), uid: row.string(3) ?? "",
          title: row.string(4) ?? "", notes: row.string(5) ?? "", isDone: row.bool(6), flagged: row.bool(7),
          dueDate: due, priority: Priority(storedValue: Int(row.integer(10))) ?? .none, isRepeating: row.bool(11),
          hasAlarms: row.bool(12)))
    }
  }

  /// The zones a view's rows name (a store holds a few), each made a string and checked once
  /// when first met, found again by its bytes.
  struct SeenZones {
    private var seen: [(bytes: [UInt8], zone: Zone)] = []
    /// A zone's name, and whether it is known (`TimeZoneNames.isKnownWithoutTheList`).
    typealias Zone = (name: String?, isKnown: Bool)
    /// Past these many zones, each row's zone is made a string of its own.
    static let limit = 16

    /// The zone of `row`'s column `index` (a nil name for NULL).
    mutating func zone(_ row: Row, _ index: Int) -> Zone {
      if row.isNull(index) { return (nil, true) }
      let found = row.withTextBytes(index) { bytes in
        seen.first { $0.bytes.withUnsafeBufferPointer { $0.elementsEqual(bytes) } }?.zone
      }
      if let found { return found }
      let name = row.string(index) ?? ""
      let zone = (name: Optional(name), isKnown: TimeZoneNames.isKnownWithoutTheList(name))
      if seen.count < Self.limit { seen.append((row.withTextBytes(index) { Array($0) }, zone)) }
      return zone
    }
  }

  /// How many reminders meet `candidates`, counted by SQLite (from the index that holds the
  /// state columns, for a scope's condition) without a row decoded.
  func countCandidates(_ candidates: ReminderCandidates) throws -> Int {
    let (condition, values) = candidates.sql
    let statement = try database.statement("SELECT count(*) FROM reminders r WHERE \(condition)")
    try statement.bind(values)
    defer { statement.reset() }
    return Int(try statement.step()?.integer(0) ?? 0)
  }

  /// The short IDs of the reminders a streamed view shows, asked one at a time as its rows come
  /// (`UIDPrefixLengths`).
  public func uidPrefixLengths() throws -> UIDPrefixLengths {
    // A lookup costs about as much as reading twelve UIDs in order (some 15,000 instructions
    // at 100k, 7,000 where consecutive UIDs answer from one run, against 1,250 a UID read in
    // order): switching after a sixteenth of the store keeps a view of a few thousand rows
    // of a big store (a list) on lookups and reads the index once for a bigger one. The
    // highest row id stands for the number of rows (counting them would read them all).
    guard case .integer(let highest) = try database.scalar("SELECT max(id) FROM reminders") else {
      return UIDPrefixLengths(store: self, lookupLimit: 0, highestRowID: 0)
    }
    return UIDPrefixLengths(store: self, lookupLimit: Int(highest / 16), highestRowID: highest)
  }

  /// For each row, the most bytes its folded UID shares with another row's, from one read of
  /// the folded-UID index in order (a key shares most with a neighbour), without a `String`
  /// per row.
  fileprivate func commonUIDBytesByRow(highestRowID: Int64) throws -> CommonBytesByRow {
    var result = CommonBytesByRow(highestRowID: highestRowID)
    let statement = try database.statement("SELECT id, upper(uid) FROM reminders ORDER BY upper(uid)")
    defer { statement.reset() }
    // A key is settled when the next one arrives. The key before is compared in place with
    // the one SQLite hands over, then overwritten by it: one buffer for the whole read.
    var previous = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 64)
    defer { previous.deallocate() }
    var previousCount = -1
    var previousRow: Int64 = 0
    var previousCommon = 0
    try statement.forEachIntegerAndText { rowID, key in
      var common = 0
      if previousCount >= 0 {
        common = Self.sharedBytes(key, UnsafeBufferPointer(rebasing: previous[..<previousCount]))
        result.set(max(previousCommon, common), ofRow: previousRow)
      }
      if key.count > previous.count {
        previous.deallocate()
        previous = .allocate(capacity: key.count * 2)
      }
      if let start = key.baseAddress, let target = previous.baseAddress { target.update(from: start, count: key.count) }
      previousCount = key.count
      previousRow = rowID
      previousCommon = common
    }
    if previousCount >= 0 { result.set(previousCommon, ofRow: previousRow) }
    return result
  }
}

/// For each row id, how many bytes its folded UID shares with another row's: a flat array for
/// the row ids a store hands out (dense from 1), a dictionary past 16 million.
struct CommonBytesByRow {
  private var dense: [UInt32]
  private var sparse: [Int64: Int] = [:]

  init(highestRowID: Int64) {
    dense = highestRowID >= 0 && highestRowID < 1 << 24 ? Array(repeating: .max, count: Int(highestRowID) + 1) : []
  }

  subscript(rowID: Int64) -> Int? {
    if rowID >= 0, rowID < dense.count, dense[Int(rowID)] != .max { return Int(dense[Int(rowID)]) }
    return sparse[rowID]
  }

  /// Records a row's count (without an Optional: the read of the whole index sets every row).
  mutating func set(_ common: Int, ofRow rowID: Int64) {
    if rowID >= 0, rowID < dense.count, common < Int(UInt32.max) {
      dense[Int(rowID)] = UInt32(common)
    } else {
      sparse[rowID] = common
    }
  }
}

/// The shortest prefix length that tells each UID apart from every other UID in the store,
/// as `Store.uniquePrefixLengths(of:)` gives it, for views that learn their UIDs as their rows
/// come: the first ones are looked up beside their neighbours in the index; past a sixteenth of
/// the store the index is read once in order and every later row is answered from that.
///
/// A view that holds some of its rows before it shows them (a list's, to be placed in its
/// outline) looks them up together (`lengths(ofUIDs:rowIDs:)`): in the order of their keys, so
/// that rows whose keys are neighbours in the index are answered from one read of it.
public final class UIDPrefixLengths {
  private let store: Store
  private let lookupLimit: Int
  private let highestRowID: Int64
  private var lookups = 0
  /// What the last lookup read (`Store.uniquePrefixLength(of:scan:)`).
  private var scan = UIDIndexScan()
  private var commonByRow: CommonBytesByRow?

  init(store: Store, lookupLimit: Int, highestRowID: Int64) {
    self.store = store
    self.lookupLimit = lookupLimit
    self.highestRowID = highestRowID
  }

  /// The prefix length, in characters, of the UID `uid` of row `rowID` (looked up when the
  /// row is not known).
  public func length(of uid: String, rowID: Int64?) throws -> Int {
    if commonByRow == nil, lookups >= lookupLimit { try readWholeIndex() }
    if let rowID, let common = commonByRow?[rowID] {
      return Store.characterCount(ofPrefixCovering: common + 1, in: uid)
    }
    lookups += 1
    return try store.read { try store.uniquePrefixLength(of: uid, scan: &scan) }
  }

  /// The prefix lengths of the UIDs `uids` of rows `rowIDs` (one each), looked up in the
  /// order of their folded keys. Rows that would take the lookups past the limit have the
  /// whole index read at once instead, before any of them is looked up.
  public func lengths(ofUIDs uids: [String], rowIDs: [Int64]) throws -> [Int] {
    if commonByRow == nil, lookups + uids.count > lookupLimit { try readWholeIndex() }
    if commonByRow != nil { return try zip(uids, rowIDs).map { try length(of: $0, rowID: $1) } }
    lookups += uids.count
    let keys = FoldedUIDs(uids)
    var lengths = [Int](repeating: 0, count: uids.count)
    var scan = scan
    try store.read {
      for index in keys.keyOrder() {
        let common = try keys.withKey(index) { try store.sharedUIDBytes(ofKey: $0, scan: &scan) }
        lengths[index] = Store.characterCount(ofPrefixCovering: common + 1, in: uids[index])
      }
    }
    self.scan = scan
    return lengths
  }

  /// Readies the lookups for a view that will show about `rows` rows: one that would take them
  /// past the limit has the whole index read now, before lookups it would then have wasted.
  func expect(rows: Int) throws {
    if commonByRow == nil, lookups + rows > lookupLimit { try readWholeIndex() }
  }

  private func readWholeIndex() throws {
    commonByRow = try store.read { try store.commonUIDBytesByRow(highestRowID: highestRowID) }
  }
}

/// UIDs folded as the index of folded UIDs holds them (ASCII letters upper-cased), one after
/// another in one buffer: a key each without an array each.
struct FoldedUIDs {
  private var bytes: [UInt8] = []
  /// Where each key ends in `bytes`.
  private var ends: [Int] = []

  init(_ uids: [String]) {
    ends.reserveCapacity(uids.count)
    bytes.reserveCapacity(uids.reduce(0) { $0 + $1.utf8.count })
    for var uid in uids {
      uid.withUTF8 { bytes.append(contentsOf: $0) }
      ends.append(bytes.count)
    }
    bytes.withUnsafeMutableBufferPointer { buffer in
      for offset in buffer.indices { buffer[offset] = Store.asciiUppercased(buffer[offset]) }
    }
  }

  /// Calls `body` with the key at `index` (valid only inside `body`).
  func withKey<Result>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
    try bytes.withUnsafeBufferPointer { try body(Self.key(index, in: $0, ends: ends)) }
  }

  /// The keys' positions in the index's order (SQLite's BINARY collation: bytes compared as
  /// unsigned, a key before the longer keys it begins). Keys that come in that order already
  /// (a list's rows whose UIDs were made in sequence) are not sorted.
  func keyOrder() -> [Int] {
    bytes.withUnsafeBufferPointer { buffer in
      func precedes(_ left: Int, _ right: Int) -> Bool {
        let leftKey = Self.key(left, in: buffer, ends: ends)
        let rightKey = Self.key(right, in: buffer, ends: ends)
        let shared = Store.sharedBytes(leftKey, rightKey)
        guard shared < leftKey.count, shared < rightKey.count else { return leftKey.count < rightKey.count }
        return leftKey[shared] < rightKey[shared]
      }
      let positions = Array(ends.indices)
      if positions.indices.dropFirst().allSatisfy({ !precedes($0, $0 - 1) }) { return positions }
      return positions.sorted(by: precedes)
    }
  }

  private static func key(_ index: Int, in buffer: UnsafeBufferPointer<UInt8>, ends: [Int]) -> UnsafeBufferPointer<
    UInt8
  > {
    UnsafeBufferPointer(rebasing: buffer[(index == 0 ? 0 : ends[index - 1])..<ends[index]])
  }
}

/// What one short-ID lookup leaves for the next (`Store.uniquePrefixLength(of:scan:)`): how
/// many bytes of its key to read the index from, and the run of consecutive folded keys it
/// read, in which a key with a neighbour on both sides is answered without a seek.
struct UIDIndexScan {
  /// The bytes the last key looked up shared with a neighbour.
  var bound = 0
  /// The run's keys, one after another, and where each ends.
  private var keys: [UInt8] = []
  private var ends: [Int] = []
  /// Runs read, and keys answered from a run: a lookup reads `readAhead` keys past its own
  /// next while at least one in four runs has answered a later key (UIDs made in sequence,
  /// looked up in order), none once they do not (random UIDs, whose next lookup is elsewhere).
  private var runs = 0
  private var answered = 0

  var readAhead: Int { (answered + 1) * 4 > runs ? 2 : 0 }

  mutating func startRun() {
    runs += 1
    keys.removeAll(keepingCapacity: true)
    ends.removeAll(keepingCapacity: true)
  }

  mutating func append(_ key: UnsafeBufferPointer<UInt8>) {
    keys.append(contentsOf: key)
    ends.append(keys.count)
  }

  /// The most bytes `key` shares with its neighbours in the index, when it is inside the run
  /// (read with the keys just before and after it).
  mutating func sharedWithNeighbours(of key: UnsafeBufferPointer<UInt8>) -> Int? {
    guard ends.count > 2 else { return nil }
    let shared = keys.withUnsafeBufferPointer { keys -> Int? in
      func runKey(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: keys[(index == 0 ? 0 : ends[index - 1])..<ends[index]])
      }
      for index in 1..<(ends.count - 1) where runKey(index).elementsEqual(key) {
        return max(Store.sharedBytes(key, runKey(index - 1)), Store.sharedBytes(key, runKey(index + 1)))
      }
      return nil
    }
    if shared != nil { answered += 1 }
    return shared
  }
}
