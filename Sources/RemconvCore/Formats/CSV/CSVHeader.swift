import Foundation

/// The header row of a CSV file: which column holds what.
///
/// Columns are found by name in any order. Names match after trimming spaces and ignoring
/// case (`Title`, ` title ` and `TITLE` are one column), so hand-made and spreadsheet-saved
/// files work; a name given twice is an error, since either choice could lose data.
struct CSVHeader {
  /// The names as written (trimmed); an empty name becomes `column N`.
  let names: [String]
  /// The physical line of the header row.
  let line: Int
  private let indexByKey: [String: Int]

  init(_ record: CSVRecord, context: ReaderContext) throws(RemconvError) {
    var names: [String] = []
    var indexByKey: [String: Int] = [:]
    for (index, field) in record.fields.enumerated() {
      let trimmed = field.trimmingCharacters(in: .whitespaces)
      let name = trimmed.isEmpty ? "column \(index + 1)" : trimmed
      let key = Self.key(name)
      if let earlier = indexByKey[key] {
        throw .malformedInput(
          "the column '\(name)' appears twice in the header (columns \(earlier + 1) and \(index + 1))",
          at: context.location(line: record.line, column: nil))
      }
      indexByKey[key] = index
      names.append(name)
    }
    self.names = names
    self.line = record.line
    self.indexByKey = indexByKey
  }

  static func key(_ name: String) -> String { name.trimmingCharacters(in: .whitespaces).lowercased() }

  /// True when the record holds every one of `names` (a header sniffers recognise).
  static func recordNames(_ record: CSVRecord, contain names: [String]) -> Bool {
    let keys = Set(record.fields.map(key))
    return names.allSatisfy { keys.contains(key($0)) }
  }

  /// The index of the column named `name`.
  func index(of name: String) -> Int? { indexByKey[Self.key(name)] }

  /// The name of column `index`, also past the header's end (`column N`).
  func name(at index: Int) -> String { index < names.count ? names[index] : "column \(index + 1)" }

  /// Fails naming the first of `required` the header lacks.
  func require(_ required: [String], format: String, context: ReaderContext) throws(RemconvError) {
    for name in required where index(of: name) == nil {
      throw .malformedInput(
        "the \(format) header has no '\(name)' column (its columns: \(names.joined(separator: ", ")))",
        at: context.location(line: line))
    }
  }

  /// Warns about the fields of `record` that are not valid UTF-8, naming their columns.
  func reportInvalidUTF8(in record: CSVRecord, context: ReaderContext) {
    reportInvalidUTF8(record.invalidUTF8, line: record.line, context: context)
  }

  /// Warns about the fields of `row` that are not valid UTF-8, naming their columns.
  func reportInvalidUTF8(in row: CSVRow, context: ReaderContext) {
    reportInvalidUTF8(row.invalidUTF8, line: row.line, context: context)
  }

  private func reportInvalidUTF8(_ indexes: [Int], line: Int, context: ReaderContext) {
    for index in indexes {
      context.diagnostics.warning(
        "invalid-utf8", "column '\(name(at: index))' is not valid UTF-8; the bad bytes read as U+FFFD",
        at: context.location(line: line))
    }
  }
}

extension CSVParser {
  /// A parser for a reader's source, with `--delimiter` when given.
  convenience init(context: ReaderContext) throws(RemconvError) {
    self.init(
      reader: try context.openByteReader(), delimiter: context.options.delimiter, fileName: context.source.displayName)
  }

  /// The records that start in `head` (the first bytes of a file, for format detection). A
  /// record cut off by the end of `head` may be incomplete; parsing stops at anything broken.
  static func records(inHead head: [UInt8], limit: Int) -> [CSVRecord] {
    let parser = CSVParser(reader: ByteReader(bytes: head, name: "<head>"))
    var records: [CSVRecord] = []
    while records.count < limit, let record = try? parser.next() { records.append(record) }
    return records
  }
}

/// What the row-per-reminder CSV readers (`csv`, `csv:ticktick`) share: the header comes
/// first, blank rows are skipped, and a reminder whose list is new comes right after that list.
/// `Record` is what the reader yields: `SourceRecord`, or `ReadRecord` for a `RawRecordReader`.
final class CSVRowStream<Record> {
  let parser: CSVParser
  private(set) var header: CSVHeader?
  /// The row read last, as bytes: reused from row to row, so a reader that keeps a row raw
  /// until it is decoded or passed over reads it here rather than holding a copy (which
  /// would make the next row copy the buffer).
  private(set) var row = CSVRow()
  private var pending: Record?
  /// List key → list id, for the lists already announced.
  private var knownLists: [String: String] = [:]

  init(context: ReaderContext) throws(RemconvError) {
    parser = try CSVParser(context: context)
  }

  /// The next record: `findHeader` reads the header (nil for an empty input) the first time,
  /// then `decode` turns each row that is not blank into a record (nil: nothing to emit).
  func next(
    findHeader: () throws -> CSVHeader?, decode: (CSVRow, CSVHeader) throws -> Record?
  ) throws -> Record? {
    if let pending {
      self.pending = nil
      return pending
    }
    if header == nil {
      guard let found = try findHeader() else { return nil }
      header = found
    }
    guard let header else { return nil }
    while try parser.next(into: &row) {
      if row.isBlank { continue }
      if let result = try decode(row, header) { return result }
    }
    return nil
  }

  /// The id of the list `key` stands for, and the list (built by `make`) the first time.
  func list(key: String, make: () -> ReminderList) -> (id: String, new: ReminderList?) {
    if let known = knownLists[key] { return (known, nil) }
    let list = make()
    knownLists[key] = list.id
    return (list.id, list)
  }

  /// The record of a reminder, after its list's record when the list is new.
  func emit(_ reminder: Record, after newList: Record?) -> Record {
    guard let newList else { return reminder }
    pending = reminder
    return newList
  }
}
