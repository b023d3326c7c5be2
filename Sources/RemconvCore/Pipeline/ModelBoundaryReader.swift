import Foundation

/// The model boundary of every import and conversion: each record a reader gives is measured
/// against the limits, then cleaned by `TextRule`; a list name the model trims is reported.
/// One reader, one call a record: every record of a conversion or import crosses it, so it is
/// one step, not a chain of readers each handing the record on.
///
/// Limits: the reader stops with an error once its source yields more than `limit` records
/// (`InputLimits.maximumItemCount` for imports and conversions), or a reminder larger than one
/// item (`InputLimits.maximumItemSize`). A reminder's size is the length of the line remconv's
/// JSON Lines writes for it, its list's members included: every reader bounds the bytes it
/// reads for one item by the same limit, but a source may spell a value shorter than JSON does
/// (a control character is one byte in CSV and six in JSON), so the decoded reminder is
/// measured too, as read, before the text rule cleans it. What an import accepts then exports
/// as a line the JSON Lines reader reads back, and as a CSV record within the CSV reader's
/// limit (its cells, decoded, are never longer than their JSON).
public final class ModelBoundaryReader: ReminderReader {
  private let base: any ReminderReader
  /// The import stage that reads `base`, when an import skips what the store holds: called
  /// directly (a class, not any reader), so a skipped record is handed on once, not twice.
  private let importStage: UnchangedRecordSkipper?
  private let source: InputSource
  private let limit: Int
  private let maximumItemSize: Int
  private let diagnostics: DiagnosticLog
  private var count = 0
  /// The length of the JSON Lines prefix of each list read, by list UID.
  private var prefixLengths: [String: Int] = [:]
  private var scratch: [UInt8] = []

  init(
    _ base: any ReminderReader, importStage: UnchangedRecordSkipper? = nil, source: InputSource, limit: Int,
    maximumItemSize: Int = InputLimits.maximumItemSize, diagnostics: DiagnosticLog
  ) {
    self.base = base
    self.importStage = importStage
    self.source = source
    self.limit = limit
    self.maximumItemSize = maximumItemSize
    self.diagnostics = diagnostics
  }

  public func next() throws -> SourceRecord? {
    let read: SourceRecord?
    if let importStage { read = try importStage.next() } else { read = try base.next() }
    guard let record = read else { return nil }
    count += 1
    if count > limit { throw tooManyRecords(at: record) }
    switch record {
    case .reminder(let read, let location):
      try measure(read, at: location)
      // A file an earlier remconv wrote may hold a start, recurrence or alarms in `extra`.
      let lifted = ExtraScheduleLifting.lifted(read)
      let cleaned = if let lifted { TextRule.cleaned(lifted) } else { TextRule.cleaned(read) }
      // A reminder neither lifted nor cleaned is handed on in its record, not copied out of it.
      guard let cleaned else { return lifted.map { .reminder($0, location) } ?? record }
      diagnostics.warning(
        "control-character", TextRule.message(cleaned.fields, of: "reminder", "removed"), at: location,
        uid: lifted?.id ?? read.id)
      return .reminder(cleaned.0, location)
    case .list(var list):
      prefixLengths[list.id] = JSONLinesFormat.linePrefix(of: list).count
      if let cleaned = TextRule.cleaned(list) {
        diagnostics.warning(
          "control-character", TextRule.message(cleaned.fields, of: "list", "removed"), uid: list.id)
        list = cleaned.0
      }
      // The store keeps a list name trimmed (`ListName.normalized`): said, not done silently.
      let trimmed = list.name.trimmingCharacters(in: .whitespacesAndNewlines)
      if !trimmed.isEmpty, !ListName.sameScalars(trimmed, list.name) {
        diagnostics.warning(
          "list-name",
          "the list name \(JSONText.quoted(list.name)) has white space at an end; it is stored trimmed, as \(JSONText.quoted(trimmed))",
          uid: list.id)
      }
      return .list(list)
    case .skipped, .rejected, .unchanged:
      return record
    }
  }

  /// The error of the record past the limit of records.
  private func tooManyRecords(at record: SourceRecord) -> RemconvError {
    var location = SourceLocation(file: source.displayName)
    switch record {
    case .reminder(_, let at), .skipped(_, let at), .rejected(_, let at, _), .unchanged(let at): location = at
    case .list: break
    }
    return RemconvError.invalidInput(
      "more than \(limit) items: the limit of one import or conversion (split the input)", at: location)
  }

  /// Measures a reminder as read; throws past the limit of one item.
  private func measure(_ reminder: Reminder, at location: SourceLocation) throws {
    // A reminder of no list read here goes to the default list, whose members fit in
    // `defaultListPrefixLength`.
    let prefix = prefixLengths[reminder.listID] ?? Self.defaultListPrefixLength
    guard JSONLinesFormat.lineLengthBound(of: reminder, prefixLength: prefix) > maximumItemSize else { return }
    let length = JSONLinesFormat.lineLength(of: reminder, prefixLength: prefix, scratch: &scratch)
    if length > maximumItemSize {
      throw RemconvError.invalidInput(
        "the reminder is larger than the limit of \(maximumItemSize) bytes of one item (\(length) bytes as a JSON Lines line)",
        at: location)
    }
  }

  /// Room for the default list's members (its name, UID, symbol, colour, creation time).
  private static let defaultListPrefixLength = 1 << 10
}
