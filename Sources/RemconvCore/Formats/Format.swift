import Foundation

/// Something a reader found in its source, in source order.
public enum SourceRecord: Sendable {
  /// A list. Readers emit a list before the reminders that name it in `listID`.
  case list(ReminderList)
  /// A reminder. An empty `listID` means the source names no list: the reminder goes to the
  /// import's default list (`--list`, else the file's base name). Indirect: a record is handed
  /// from reader to stage to boundary to consumer, and a reminder held inline would make every
  /// record, an unchanged one too, some 300 bytes copied at each step.
  indirect case reminder(Reminder, SourceLocation)
  /// A component that is not a reminder (an iCalendar VEVENT, ...): counted, not imported.
  case skipped(kind: String, SourceLocation)
  /// An item the reader could not turn into a reminder. Any rejected item fails the import
  /// (nothing is written), and every one is listed in the report.
  case rejected(reason: String, SourceLocation, uid: String?)
  /// A reminder left undecoded because the store holds it as this record would leave it: the
  /// import stage's decision (`UnchangedRecordSkipper`), which only imports make.
  case unchanged(SourceLocation)
}

/// Reads one source as a stream of records, holding at most one item in memory.
///
/// A reader throws `RemconvError.malformedInput` (with the line) for broken structure and
/// reports recoverable problems as warnings to the context's diagnostics.
public protocol ReminderReader: AnyObject {
  func next() throws -> SourceRecord?
}

/// A reader that yields each reminder it can name a digest for undecoded (`ReadRecord.raw`)
/// and decodes it on request, so that an import decodes only the records its store does not
/// already hold as they are (`UnchangedRecordSkipper`, `RecordDigest`). The decision, the
/// lookup and the bookkeeping are the import's; a reader says what a record is (its digest,
/// the UID it states) and how to decode it. A reader that yields every reminder decoded, as
/// `ReminderReader` alone, is never skipped.
public protocol RawRecordReader: ReminderReader {
  /// The next record, or the next reminder undecoded. A raw reminder is decoded
  /// (`decodeRaw`) or passed over (`passOverRaw`) before this is called again.
  func nextRecord() throws -> ReadRecord?
  /// The digest of the raw reminder: its content as read and everything decoding it depends
  /// on besides (`RecordDigest`).
  func digestOfRaw() -> RecordDigest
  /// Decodes the raw reminder.
  func decodeRaw() throws -> DecodedReminder
  /// Passes over the raw reminder without decoding it: the store holds what it gives.
  func passOverRaw()
}

extension RawRecordReader {
  /// Every record, every reminder decoded: what conversions and any reader of records see.
  public func next() throws -> SourceRecord? {
    switch try nextRecord() {
    case nil: return nil
    case .record(let record): return record
    case .raw(let location):
      let (reminder, _, _) = try decodeRaw()
      return .reminder(reminder, location)
    }
  }
}

/// What a `RawRecordReader` yields.
public enum ReadRecord {
  case record(SourceRecord)
  /// A reminder read but not decoded yet, and where it is.
  case raw(SourceLocation)
}

/// A raw reminder, decoded: the reminder; the UID its record states (nil: none; a reminder whose
/// UID is not the one its record states, a UID derived from the records before, cannot be
/// skipped by its digest); and false in `isSkippable` when the reader knows that skipping the
/// record next time could change what an import reports beyond the diagnostics decoding gave
/// (a warning said once per input, a record that gave a second reminder). A tuple, whose parts
/// the import stage takes without copying the reminder.
public typealias DecodedReminder = (reminder: Reminder, statedUID: String?, isSkippable: Bool)

/// How a writer wants its input.
public enum WriterInputOrder: Sendable {
  /// One list at a time (`beginList` … `endList`), parents before their subtasks.
  case groupedByList
  /// Reminders in any order, each with its list (row formats such as CSV and JSON Lines).
  case anyOrder
}

/// Writes lists and reminders in one format.
public protocol ReminderWriter: AnyObject {
  static var inputOrder: WriterInputOrder { get }
  /// Starts a list (grouped writers; row writers may ignore it).
  func beginList(_ list: ReminderList) throws
  /// Writes a reminder of `list` at `depth` of subtask nesting (0 for top level).
  func write(_ reminder: Reminder, in list: ReminderList, depth: Int) throws
  func endList(_ list: ReminderList) throws
  /// Completes the document. Nothing is final before this returns.
  func finish() throws
  /// How many of the reminders given to `write` the format left out (and reported), so that
  /// the export counts what the file holds.
  var skippedCount: Int { get }
}

extension ReminderWriter {
  public func beginList(_ list: ReminderList) throws {}
  public func endList(_ list: ReminderList) throws {}
  public var skippedCount: Int { 0 }
}

/// Options the command line passes to readers.
public struct ReaderOptions: Sendable {
  /// `--delimiter` for CSV.
  public var delimiter: UInt8?
  /// `--strict`: warnings become errors.
  public var strict = false
  /// The zone used to interpret sources that need one (the machine's by default).
  public var timeZone: TimeZone = .current
  /// `--list`: the list every reminder goes to. Readers may use it to name a list.
  public var listName: String?

  public init() {}
}

/// What a reader works with.
public struct ReaderContext {
  public var source: InputSource
  public var diagnostics: DiagnosticLog
  public var options: ReaderOptions

  /// A reader already opened on the source (standard input after format detection peeked it).
  public var preopened: ByteReader?

  public init(
    source: InputSource, diagnostics: DiagnosticLog, options: ReaderOptions = ReaderOptions(),
    preopened: ByteReader? = nil
  ) {
    self.source = source
    self.diagnostics = diagnostics
    self.options = options
    self.preopened = preopened
  }

  /// The digest of the context every record of this source shares, before the format adds its
  /// own: the reader options that change what a record means.
  public func recordDigestContext(format: String, _ parts: [String] = []) -> RecordDigest {
    RecordDigest(
      context: [
        format, RemconvVersion.current, options.timeZone.identifier, options.listName ?? "\u{0}",
        options.delimiter.map { String($0) } ?? "", options.strict ? "strict" : "",
        source.baseName ?? "\u{0}",
      ] + parts)
  }

  /// The bytes of the source.
  public func openByteReader() throws(RemconvError) -> ByteReader {
    if let preopened { return preopened }
    return try source.openReader()
  }

  public func location(line: Int? = nil, column: Int? = nil) -> SourceLocation {
    SourceLocation(file: source.displayName, line: line, column: column)
  }
}

/// Where a writer writes.
public enum OutputTarget {
  case stream(ByteWriter)
  /// A folder, for formats stored as one file per item (vdir).
  case directory(String)

  public var stream: ByteWriter? {
    if case .stream(let writer) = self { return writer }
    return nil
  }
}

/// Options the command line passes to writers.
public struct WriterOptions: Sendable {
  /// The time written where a format wants the time of writing (iCalendar `DTSTAMP`). Fixed in
  /// tests for golden files.
  public var now: Date = Date()
  /// `--excel` for CSV: a BOM, CRLF, and cells that cannot run as formulas.
  public var excel = false
  /// `--delimiter` for CSV.
  public var delimiter: UInt8 = UInt8(ascii: ",")
  /// `--force`: replace existing files (vdir items).
  public var force = false
  /// `--prune`: remove the files of an existing vdir that hold reminders the export does not
  /// write.
  public var prune = false
  /// `--dry-run` (with `--prune`): write nothing, list what `--prune` would remove.
  public var dryRun = false
  /// The export writes only some reminders of each list (`--scope`): files of the others in
  /// an existing vdir are not stale, and are neither reported nor removed.
  public var selectsReminders = false
  /// The zone for formats that must turn a date or a wall time into an instant (Taskwarrior).
  public var timeZone: TimeZone = .current

  public init() {}
}

/// What a writer works with.
public struct WriterContext {
  public var target: OutputTarget
  public var diagnostics: DiagnosticLog
  public var options: WriterOptions

  public init(target: OutputTarget, diagnostics: DiagnosticLog, options: WriterOptions = WriterOptions()) {
    self.target = target
    self.diagnostics = diagnostics
    self.options = options
  }

  /// The stream to write to, or an error for folder targets given to a stream format.
  public func requireStream(_ format: String) throws(RemconvError) -> ByteWriter {
    guard let stream = target.stream else {
      throw .cannotCreateOutput("\(format) writes a single file, not a folder")
    }
    return stream
  }
}

extension ReaderContext {
  /// Warns of a JSON member name met twice where no item keeps the earlier value (a
  /// container's members, a jCal component), with where the name repeats and that value.
  var duplicateKeyWarning: (JSONDuplicateKey) -> Void {
    let diagnostics = self.diagnostics
    return { $0.report(to: diagnostics, uid: nil, keptIn: nil) }
  }
}
