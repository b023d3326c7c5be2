/// Runs an import: one reader into the store, in one transaction.
public enum Importer {
  public struct Options: Sendable {
    public var targetList: String?
    public var dryRun = false
    /// Warnings fail the import.
    public var strict = false
    /// More records than this fail the import (`InputLimits.maximumItemCount`).
    public var maximumItems = InputLimits.maximumItemCount
    /// The options the source is read with: a stored item is compared with what the format,
    /// read this way, would make of it (`FormatProjection`).
    public var readerOptions = ReaderOptions()

    public init() {}
  }

  /// The records of `reader` as an import merges them: unchanged raw reminders skipped (with
  /// `knownRecords`), the item limits checked on each record as read, and the text rule applied
  /// to what the model keeps. Everything that merges a source goes through this one chain.
  public static func records(
    from reader: any ReminderReader, source: InputSource, maximumItems: Int = InputLimits.maximumItemCount,
    knownRecords: KnownRecords? = nil, diagnostics: DiagnosticLog
  ) -> ModelBoundaryReader {
    var importStage: UnchangedRecordSkipper?
    if let knownRecords, let raw = reader as? any RawRecordReader {
      importStage = UnchangedRecordSkipper(raw, known: knownRecords, diagnostics: diagnostics)
    }
    return ModelBoundaryReader(
      reader, importStage: importStage, source: source, limit: maximumItems, diagnostics: diagnostics)
  }

  /// Reads every record of `reader` into `store`. Any error, a rejected item, or a warning
  /// under `strict` rolls the whole import back; `dryRun` always rolls back. The report says
  /// what was (or would have been) done. With `knownRecords`, the raw reminders of a
  /// `RawRecordReader` the store holds unchanged are not decoded (`UnchangedRecordSkipper`).
  public static func run(
    reader: any ReminderReader, into store: Store, source: InputSource, format: String,
    options: Options, diagnostics: DiagnosticLog, knownRecords: KnownRecords? = nil, progress: ((Int) -> Void)? = nil
  ) throws -> ImportReport {
    var report = ImportReport(source: source.displayName, format: format)
    report.dryRun = options.dryRun
    let descriptor = FormatRegistry.named(format)
    let engineOptions = MergeEngine.Options(
      targetList: options.targetList, defaultList: source.baseName ?? "Reminders",
      projection: descriptor?.projection(source: source, readerOptions: options.readerOptions),
      identity: FormatCarriage.mergeIdentity(of: format))
    do {
      report = try store.withPageCache(mebibytes: importPageCacheMebibytes) {
        try store.write(commit: !options.dryRun) {
          let merge = try StoreMerge(
            store: store, options: engineOptions, diagnostics: diagnostics, report: report,
            knownRecords: knownRecords)
          defer { knownRecords?.lookup = nil }
          let reader = records(
            from: reader, source: source, maximumItems: options.maximumItems, knownRecords: knownRecords,
            diagnostics: diagnostics)
          let merged = try store.buildingReadIndexesAfter {
            var count = 0
            while let record = try reader.next() {
              try merge.consume(record)
              count += 1
              if count & 1023 == 0 { progress?(count) }
            }
            return try merge.finish()
          }
          let result = try merge.check(merged)
          if result.rejected > 0 {
            throw ImportFailure(
              report: result, reason: "\(result.rejected) item(s) could not be imported; nothing was written")
          }
          if options.strict, result.warningCount > 0 {
            throw ImportFailure(
              report: result, reason: "\(result.warningCount) warning(s) with --strict; nothing was written")
          }
          return result
        }
      }
    } catch let failure as ImportFailure {
      throw failure
    } catch {
      var failed = report
      failed.record(diagnostics)
      throw ImportFailure(report: failed, underlying: error)
    }
    report.committed = !options.dryRun
    return report
  }
}

/// The page cache of an import. Its writes go all over the indexes of random keys (UIDs,
/// record digests); with SQLite's default of 2 MB their pages are evicted and read back from
/// the OS over and over: a 1M-row CSV import spent 7.9 s of system time that way, 2.7 s with
/// 16 MiB (docs/benchmarks.md, findings). Fixed, so memory stays flat at any size.
let importPageCacheMebibytes = 16

/// An import that wrote nothing, with the report of what was found.
public struct ImportFailure: Error {
  public var report: ImportReport
  public var reason: String?
  public var underlying: (any Error)?

  init(report: ImportReport, reason: String) {
    self.report = report
    self.reason = reason
  }

  init(report: ImportReport, underlying: any Error) {
    self.report = report
    self.underlying = underlying
  }
}
