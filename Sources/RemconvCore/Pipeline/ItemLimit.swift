/// A reader that stops with an error once its source yields more than `limit` records
/// (`InputLimits.maximumItemCount` for imports and conversions).
final class ItemLimitedReader: ReminderReader {
  private let base: any ReminderReader
  private let source: InputSource
  private let limit: Int
  private var count = 0

  init(_ base: any ReminderReader, source: InputSource, limit: Int) {
    self.base = base
    self.source = source
    self.limit = limit
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
    return record
  }
}
