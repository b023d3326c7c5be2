/// What writes reminders and lists into the store for an import and a sync alike: one merge
/// engine over the store, the checks of every row it writes, and, once it is finished, the
/// same checks as `remconv validate` on what it wrote. Runs inside the caller's transaction.
///
/// Records reach it through the model boundary (`Importer.records`), so the limits, the text
/// rule, parent resolution and cycle breaking are the same whichever path a record comes by.
public final class StoreMerge {
  private let store: Store
  private let engine: MergeEngine
  private let writtenValues: WrittenValueChecks
  private let listsBefore: Int64
  public let diagnostics: DiagnosticLog

  public init(
    store: Store, options: MergeEngine.Options, diagnostics: DiagnosticLog, report: ImportReport,
    knownRecords: KnownRecords? = nil
  ) throws {
    self.store = store
    self.diagnostics = diagnostics
    listsBefore = try store.lastListRowID()
    writtenValues = WrittenValueChecks(watching: store)
    do {
      engine = try MergeEngine(
        repository: store, options: options, diagnostics: diagnostics, report: report, knownRecords: knownRecords)
    } catch {
      writtenValues.stop()
      throw error
    }
  }

  deinit { writtenValues.stop() }

  /// What the merge did so far.
  public var report: ImportReport { engine.report }

  /// Merges one record (`MergeEngine.consume`); returns the UID a reminder is kept under.
  @discardableResult
  public func consume(_ record: consuming SourceRecord) throws -> String? { try engine.consume(record) }

  /// Merges one list and returns it as the store keeps it.
  public func merge(_ list: ReminderList) throws -> RepositoryList { try engine.merge(list) }

  /// Removes a reminder of `list` (`MergeEngine.remove`).
  public func remove(uid: String, from list: ListHandle, with uids: Set<String>) throws -> [String]? {
    try engine.remove(uid: uid, from: list, with: uids)
  }

  /// Resolves the parents left for later (`MergeEngine.finish`).
  public func finish() throws -> ImportReport { try engine.finish() }

  /// Runs the checks of `remconv validate` on what the merge wrote; findings are warnings, and
  /// the report then carries them. Call after `finish()`.
  public func check(_ report: ImportReport) throws -> ImportReport {
    writtenValues.stop()
    var result = report
    let findings = try store.withSortingPageCache {
      try ImportValidation.check(
        store: store, engine: engine, writtenValues: writtenValues, listsAddedAfter: listsBefore,
        diagnostics: diagnostics)
    }
    if findings > 0 { result.record(diagnostics) }
    return result
  }
}

/// Records already read, handed on in order: what a sync downloaded, for the model boundary.
final class SourceRecordList: ReminderReader {
  private var records: [SourceRecord]
  private var index = 0

  init(_ records: [SourceRecord]) { self.records = records }

  func next() throws -> SourceRecord? {
    guard index < records.count else { return nil }
    defer { index += 1 }
    return records[index]
  }
}
