internal import CSQLite

/// A prepared statement. Owned by its `Database`; finalized when released.
public final class Statement {
  let raw: OpaquePointer
  public let sql: String
  private unowned let database: Database
  /// The buffer the texts and blobs of the last `execute(binding: inout ParameterRow)` are
  /// bound to in place: held until those bindings are replaced or the statement is finalized.
  private var boundBytes: [UInt8] = []

  init(raw: OpaquePointer, database: Database, sql: String) {
    self.raw = raw
    self.database = database
    self.sql = sql
  }

  deinit { sqlite3_finalize(raw) }

  /// Resets the statement and clears its bindings.
  public func reset() {
    sqlite3_reset(raw)
    sqlite3_clear_bindings(raw)
  }

  /// Resets the statement and leaves its bindings: for a statement only ever run by
  /// `execute(binding: inout ParameterRow)`, which binds every parameter.
  func resetKeepingBindings() {
    sqlite3_reset(raw)
  }

  /// Binds `values` to parameters `first`...`first + n - 1` (1...n by default).
  public func bind(_ values: [SQLValue], from first: Int32 = 1) throws(SQLiteError) {
    for (offset, value) in values.enumerated() {
      try bind(value, at: first + Int32(offset))
    }
  }

  public func bind(_ value: SQLValue, at index: Int32) throws(SQLiteError) {
    let code: Int32
    switch value {
    case .null: code = sqlite3_bind_null(raw, index)
    case .integer(let number): code = sqlite3_bind_int64(raw, index, number)
    case .real(let number): code = sqlite3_bind_double(raw, index, number)
    case .text(var text): code = text.withUTF8 { bindText($0, at: index, csqlite_transient()) }
    case .blob(let bytes): code = bytes.withUnsafeBytes { bindBlob($0, at: index, csqlite_transient()) }
    }
    guard code == SQLITE_OK else { throw database.lastError(code: code, sql: sql) }
  }

  /// Binds UTF-8 bytes as text. `destructor` is SQLITE_TRANSIENT (SQLite copies them) or nil,
  /// SQLITE_STATIC (the caller holds them until the step). With its length in bytes: as a C
  /// string, text would end at its first NUL character (valid in JSON as \u0000) and the rest
  /// would be lost without a word.
  private func bindText(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int32, _ destructor: sqlite3_destructor_type?)
    -> Int32
  {
    bytes.withMemoryRebound(to: CChar.self) { characters in
      // An empty text must stay text: a nil pointer would bind NULL.
      guard let base = characters.baseAddress, !characters.isEmpty else {
        return sqlite3_bind_text(raw, index, "", 0, destructor)
      }
      return sqlite3_bind_text64(raw, index, base, sqlite3_uint64(characters.count), destructor, UInt8(SQLITE_UTF8))
    }
  }

  /// Binds `bytes` as text to parameter `index` in place (SQLITE_STATIC) while `body` runs,
  /// then resets the statement and clears the binding: for a statement run once per row with a
  /// key the caller builds on the stack, which copying into SQLite would cost more than the key.
  func withText<Result>(
    _ bytes: UnsafeBufferPointer<UInt8>, at index: Int32, _ body: () throws -> Result
  ) throws -> Result {
    defer {
      sqlite3_reset(raw)
      sqlite3_clear_bindings(raw)
    }
    let code = bindText(bytes, at: index, nil)
    guard code == SQLITE_OK else { throw database.lastError(code: code, sql: sql) }
    return try body()
  }

  /// Binds bytes as a blob, with `destructor` as for `bindText`.
  private func bindBlob(_ bytes: UnsafeRawBufferPointer, at index: Int32, _ destructor: sqlite3_destructor_type?)
    -> Int32
  {
    sqlite3_bind_blob(raw, index, bytes.baseAddress, Int32(bytes.count), destructor)
  }

  /// Binds `values` to parameters `first`... and runs the statement to its end: an INSERT or
  /// UPDATE, which does all its work in one step. Texts and blobs are bound in place, not
  /// copied (SQLITE_STATIC): the step runs while every value's bytes are held, and the
  /// bindings are cleared before they are let go. Copying each text into SQLite and freeing
  /// it again was a tenth of an import's SQLite time.
  public func execute(binding values: [SQLValue], from first: Int32 = 1) throws(SQLiteError) {
    if let failure = bindInPlace(values, from: 0, first: first) {
      // A bind that failed leaves the ones before it in place: cleared (set to NULL, which
      // reads none of them) so that no later step sees bytes no longer held.
      sqlite3_clear_bindings(raw)
      throw failure
    }
  }

  /// Binds `row`'s values to every parameter and runs the statement to its end, as
  /// `execute(binding:)` does, texts and blobs bound in place from the row's buffer.
  ///
  /// The bindings are left in place, not cleared: the statement keeps the buffer they point
  /// into (and hands `row` the one it kept before, which nothing is bound to any more), so
  /// the bytes stay valid and unchanged until every parameter is bound again by the next run
  /// or the statement is finalized. Clearing two dozen bindings per row cost SQLite a
  /// thousand instructions for nothing a later run would read.
  func execute(binding row: inout ParameterRow) throws(SQLiteError) {
    // A parameter left out would keep the previous row's value; one too many has no place.
    let parameters = Int(sqlite3_bind_parameter_count(raw))
    guard row.slots.count == parameters else {
      throw SQLiteError(
        extendedCode: SQLITE_RANGE, message: "\(row.slots.count) values for \(parameters) parameters", sql: sql)
    }
    let failure: SQLiteError? = row.bytes.withUnsafeBufferPointer { buffer in
      defer { sqlite3_reset(raw) }
      for (offset, slot) in row.slots.enumerated() {
        let index = Int32(offset + 1)
        let code: Int32
        switch slot.kind {
        case .null: code = sqlite3_bind_null(raw, index)
        case .integer: code = sqlite3_bind_int64(raw, index, slot.value)
        case .text, .blob:
          let bytes = UnsafeBufferPointer(rebasing: buffer[slot.start..<slot.start + Int(slot.value)])
          code =
            slot.kind == .text
            ? bindText(bytes, at: index, nil) : bindBlob(UnsafeRawBufferPointer(bytes), at: index, nil)
        }
        guard code == SQLITE_OK else { return database.lastError(code: code, sql: sql) }
      }
      let code = sqlite3_step(raw)
      return code == SQLITE_DONE || code == SQLITE_ROW ? nil : database.lastError(code: code, sql: sql)
    }
    if let failure {
      // The parameters bound before the failure point into the row's buffer, not the kept one.
      sqlite3_clear_bindings(raw)
      throw failure
    }
    row.exchangeBytes(with: &boundBytes)
  }

  /// Binds `values[position...]` in place, then steps and clears the bindings: nested, so
  /// that every text's and blob's bytes stay valid until then. Returns the error, if any.
  private func bindInPlace(_ values: [SQLValue], from position: Int, first: Int32) -> SQLiteError? {
    guard position < values.count else {
      defer {
        sqlite3_reset(raw)
        sqlite3_clear_bindings(raw)
      }
      let code = sqlite3_step(raw)
      return code == SQLITE_DONE || code == SQLITE_ROW ? nil : database.lastError(code: code, sql: sql)
    }
    let index = first + Int32(position)
    func bindRest(after code: Int32) -> SQLiteError? {
      guard code == SQLITE_OK else { return database.lastError(code: code, sql: sql) }
      return bindInPlace(values, from: position + 1, first: first)
    }
    switch values[position] {
    case .text(var text):
      return text.withUTF8 { bindRest(after: bindText($0, at: index, nil)) }
    case .blob(let bytes):
      return bytes.withUnsafeBytes { bindRest(after: bindBlob($0, at: index, nil)) }
    case let scalar:
      do {
        try bind(scalar, at: index)
      } catch {
        return error
      }
      return bindRest(after: SQLITE_OK)
    }
  }

  /// Steps once: the current row, or nil when the statement is done (it is then reset).
  public func step() throws(SQLiteError) -> Row? {
    let code = sqlite3_step(raw)
    switch code {
    case SQLITE_ROW: return Row(statement: self)
    case SQLITE_DONE:
      sqlite3_reset(raw)
      return nil
    default:
      let error = database.lastError(code: code, sql: sql)
      sqlite3_reset(raw)
      throw error
    }
  }

  /// Steps to the end (the statement is then reset), calling `body` with each row's column 0
  /// as an integer and the bytes of column 1 read as text (valid only inside `body`): for
  /// reading a whole index without a `Row` and its checks per row.
  func forEachIntegerAndText(_ body: (Int64, UnsafeBufferPointer<UInt8>) -> Void) throws(SQLiteError) {
    while true {
      let code = sqlite3_step(raw)
      guard code == SQLITE_ROW else {
        let error = code == SQLITE_DONE ? nil : database.lastError(code: code, sql: sql)
        sqlite3_reset(raw)
        if let error { throw error }
        return
      }
      let pointer = sqlite3_column_text(raw, 1)
      body(
        sqlite3_column_int64(raw, 0),
        UnsafeBufferPointer(start: pointer, count: pointer == nil ? 0 : Int(sqlite3_column_bytes(raw, 1))))
    }
  }

  var columnCount: Int32 { sqlite3_column_count(raw) }

  func value(at index: Int32) -> SQLValue {
    switch sqlite3_column_type(raw, index) {
    case SQLITE_INTEGER: return .integer(sqlite3_column_int64(raw, index))
    case SQLITE_FLOAT: return .real(sqlite3_column_double(raw, index))
    case SQLITE_TEXT: return .text(text(at: index) ?? "")
    case SQLITE_BLOB:
      let count = Int(sqlite3_column_bytes(raw, index))
      guard count > 0, let pointer = sqlite3_column_blob(raw, index) else { return .blob([]) }
      return .blob(Array(UnsafeRawBufferPointer(start: pointer, count: count)))
    default: return .null
    }
  }

  func text(at index: Int32) -> String? {
    guard let pointer = sqlite3_column_text(raw, index) else { return nil }
    let count = Int(sqlite3_column_bytes(raw, index))
    // Copy the bytes now: SQLite reuses the buffer on the next step.
    let bytes = UnsafeBufferPointer(start: pointer, count: count)
    if let text = String(validUTF8: bytes) { return text }
    invalidTextColumns.append(index)
    return String(decoding: bytes, as: UTF8.self)
  }

  func withTextBytes<Result>(at index: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
    -> Result
  {
    let pointer = sqlite3_column_text(raw, index)
    return try body(
      UnsafeBufferPointer(start: pointer, count: pointer == nil ? 0 : Int(sqlite3_column_bytes(raw, index))))
  }

  /// The columns read since `clearInvalidText()` whose bytes were not UTF-8 (a BLOB an older
  /// store holds as a title): their text has U+FFFD in place of the bad bytes.
  public private(set) var invalidTextColumns: [Int32] = []

  public func clearInvalidText() {
    if !invalidTextColumns.isEmpty { invalidTextColumns.removeAll(keepingCapacity: true) }
  }

  /// The names of `invalidTextColumns`, as the query gives them.
  public var invalidTextColumnNames: [String] { invalidTextColumns.map(columnName) }

  func columnName(_ index: Int32) -> String {
    sqlite3_column_name(raw, index).map { String(cString: $0) } ?? ""
  }

  func integer(at index: Int32) -> Int64 { sqlite3_column_int64(raw, index) }
  func isNull(at index: Int32) -> Bool { sqlite3_column_type(raw, index) == SQLITE_NULL }
  func isText(at index: Int32) -> Bool { sqlite3_column_type(raw, index) == SQLITE_TEXT }
  func isInteger(at index: Int32) -> Bool { sqlite3_column_type(raw, index) == SQLITE_INTEGER }
}

/// A column of a query's select list, by name: its position is said once, where the select
/// list is made, and rows are read by the name.
protocol RowColumn {
  var index: Int32 { get }
}

/// The current row of a stepping statement, valid until the next step. `copy()` keeps it.
public struct Row {
  fileprivate let statement: Statement?
  private let copied: [SQLValue]

  init(statement: Statement) {
    self.statement = statement
    self.copied = []
  }

  private init(values: [SQLValue]) {
    self.statement = nil
    self.copied = values
  }

  /// A row that owns its values, usable after the statement moves on.
  public func copy() -> Row {
    guard let statement else { return self }
    return Row(values: (0..<statement.columnCount).map { statement.value(at: $0) })
  }

  public var count: Int { statement.map { Int($0.columnCount) } ?? copied.count }

  public func value(at index: Int) -> SQLValue {
    if let statement { return statement.value(at: Int32(index)) }
    return copied[index]
  }

  public func string(_ index: Int) -> String? {
    if let statement { return statement.text(at: Int32(index)) }
    if case .text(let text) = copied[index] { return text }
    if case .integer(let number) = copied[index] { return String(number) }
    return nil
  }

  public func int(_ index: Int) -> Int64? {
    if let statement {
      return statement.isNull(at: Int32(index)) ? nil : statement.integer(at: Int32(index))
    }
    if case .integer(let number) = copied[index] { return number }
    return nil
  }

  /// The column as an integer, NULL as 0: `int(index) ?? 0` without asking a stepped row's
  /// column its type first (SQLite reads NULL as 0).
  public func integer(_ index: Int) -> Int64 {
    if let statement { return statement.integer(at: Int32(index)) }
    return int(index) ?? 0
  }

  public func bool(_ index: Int) -> Bool { integer(index) != 0 }

  func isNull(_ index: Int) -> Bool {
    if let statement { return statement.isNull(at: Int32(index)) }
    return copied[index] == .null
  }

  func value(_ column: some RowColumn) -> SQLValue { value(at: Int(column.index)) }
  func string(_ column: some RowColumn) -> String? { string(Int(column.index)) }
  func int(_ column: some RowColumn) -> Int64? { int(Int(column.index)) }

  func isNull(_ column: some RowColumn) -> Bool {
    if let statement { return statement.isNull(at: column.index) }
    return copied[Int(column.index)] == .null
  }

  /// Whether the column holds text (not a number, a blob or NULL).
  func holdsText(_ column: some RowColumn) -> Bool {
    if let statement { return statement.isText(at: column.index) }
    if case .text = copied[Int(column.index)] { return true }
    return false
  }

  /// Whether the column holds an integer (not text, a real, a blob or NULL).
  func holdsInteger(_ column: some RowColumn) -> Bool {
    if let statement { return statement.isInteger(at: column.index) }
    if case .integer = copied[Int(column.index)] { return true }
    return false
  }
}

extension Row {
  /// Calls `body` with the UTF-8 bytes of a column read as text (empty for NULL), without
  /// making a `String` of a row being stepped; the bytes are valid only inside `body`.
  func withTextBytes<Result>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
    if let statement { return try statement.withTextBytes(at: Int32(index), body) }
    var text = string(index) ?? ""
    return try text.withUTF8(body)
  }
}

/// The parameters of one run of a statement, gathered without a `SQLValue` per value:
/// integers as they are, the bytes of texts and blobs one after another in one buffer. Kept
/// from row to row and emptied (`removeAll`), so writing a row allocates nothing once the
/// buffer has grown: building an array of `SQLValue`s and letting it go again cost more per
/// reminder than binding it.
struct ParameterRow {
  enum Kind: UInt8 { case null, integer, text, blob }

  /// A parameter: an integer's value, or where a text's or blob's bytes are and how many.
  struct Slot {
    var kind: Kind
    var start = 0
    var value: Int64 = 0
  }

  private(set) var bytes: [UInt8] = []
  private(set) var slots: [Slot] = []

  /// Gives the row `other`'s buffer and `other` the row's: a statement keeps what it is bound to.
  mutating func exchangeBytes(with other: inout [UInt8]) {
    swap(&bytes, &other)
  }

  /// Empties the row, keeping its capacity.
  mutating func removeAll() {
    bytes.removeAll(keepingCapacity: true)
    slots.removeAll(keepingCapacity: true)
  }

  mutating func appendNull() { slots.append(Slot(kind: .null)) }

  mutating func append(_ integer: Int64?) {
    guard let integer else { return appendNull() }
    slots.append(Slot(kind: .integer, value: integer))
  }

  mutating func append(_ text: String?) {
    guard var text else { return appendNull() }
    appendText { bytes in text.withUTF8 { bytes.append(contentsOf: $0) } }
  }

  mutating func append(_ text: TimestampText?) {
    guard let text else { return appendNull() }
    appendText { text.append(to: &$0) }
  }

  /// A text whose UTF-8 `write` appends to the buffer it is given.
  mutating func appendText(_ write: (inout [UInt8]) -> Void) {
    let start = bytes.count
    write(&bytes)
    slots.append(Slot(kind: .text, start: start, value: Int64(bytes.count - start)))
  }

  /// A blob whose bytes `write` appends to the buffer it is given.
  mutating func appendBlob(_ write: (inout [UInt8]) -> Void) {
    let start = bytes.count
    write(&bytes)
    slots.append(Slot(kind: .blob, start: start, value: Int64(bytes.count - start)))
  }
}
