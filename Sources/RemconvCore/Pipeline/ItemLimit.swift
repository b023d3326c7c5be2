/// A reader that stops with an error once its source yields more than `limit` records
/// (`InputLimits.maximumItemCount` for imports and conversions), or a reminder larger than one
/// item (`InputLimits.maximumItemSize`).
///
/// A reminder's size is the length of the line remconv's JSON Lines writes for it, its list's
/// members included: every reader bounds the bytes it reads for one item by the same limit,
/// but a source may spell a value shorter than JSON does (a control character is one byte in
/// CSV and six in JSON), so the decoded reminder is measured too. What an import accepts then
/// exports as a line the JSON Lines reader reads back, and as a CSV record within the CSV
/// reader's limit (its cells, decoded, are never longer than their JSON).
final class ItemLimitedReader: ReminderReader {
  private let base: any ReminderReader
  private let source: InputSource
  private let limit: Int
  private let maximumItemSize: Int
  private var count = 0
  /// The length of the JSON Lines prefix of each list read, by list UID.
  private var prefixLengths: [String: Int] = [:]
  private var scratch: [UInt8] = []

  init(_ base: any ReminderReader, source: InputSource, limit: Int, maximumItemSize: Int = InputLimits.maximumItemSize)
  {
    self.base = base
    self.source = source
    self.limit = limit
    self.maximumItemSize = maximumItemSize
  }

  func next() throws -> SourceRecord? {
    guard let record = try base.next() else { return nil }
    count += 1
    if count > limit {
      var location = SourceLocation(file: source.displayName)
      switch record {
      case .reminder(_, let at), .skipped(_, let at), .rejected(_, let at, _), .unchanged(let at): location = at
      case .list: break
      }
      throw RemconvError.invalidInput(
        "more than \(limit) items: the limit of one import or conversion (split the input)", at: location)
    }
    switch record {
    case .list(let list):
      prefixLengths[list.id] = JSONLinesFormat.linePrefix(of: list).count
    case .reminder(let reminder, let at):
      // A reminder of no list read here goes to the default list, whose members fit in
      // `defaultListPrefixLength`.
      let prefix = prefixLengths[reminder.listID] ?? Self.defaultListPrefixLength
      guard JSONLinesFormat.lineLengthBound(of: reminder, prefixLength: prefix) > maximumItemSize else { break }
      let length = JSONLinesFormat.lineLength(of: reminder, prefixLength: prefix, scratch: &scratch)
      if length > maximumItemSize {
        throw RemconvError.invalidInput(
          "the reminder is larger than the limit of \(maximumItemSize) bytes of one item (\(length) bytes as a JSON Lines line)",
          at: at)
      }
    case .skipped, .rejected, .unchanged:
      break
    }
    return record
  }

  /// Room for the default list's members (its name, UID, symbol, colour, creation time).
  private static let defaultListPrefixLength = 1 << 10
}
