/// The import stage between a reader and the merge engine: the one place that decides which
/// records to decode. For each raw reminder of a `RawRecordReader` it asks the store, through
/// `KnownRecords`, whether the record's digest names a reminder held unchanged since; if so
/// the record is passed over undecoded (`SourceRecord.unchanged`). Otherwise it is decoded,
/// and its digest is handed on to be stored with its reminder when decoding it was clean: the
/// reminder has the UID the record states (a UID derived from the records before depends on
/// more than the record) and nothing was reported (skipping the record next time would
/// silence it).
final class UnchangedRecordSkipper: ReminderReader {
  private let reader: any RawRecordReader
  private let known: KnownRecords
  private let diagnostics: DiagnosticLog

  init(_ reader: any RawRecordReader, known: KnownRecords, diagnostics: DiagnosticLog) {
    self.reader = reader
    self.known = known
    self.diagnostics = diagnostics
  }

  func next() throws -> SourceRecord? {
    switch try reader.nextRecord() {
    case nil:
      return nil
    case .record(let record):
      return record
    case .raw(let location):
      let digest = reader.digestOfRaw()
      if try known.holdsUnchanged(digest) {
        reader.passOverRaw()
        return .unchanged(location)
      }
      let reportedBefore = diagnostics.reportedCount
      let (reminder, statedUID, isSkippable) = try reader.decodeRaw()
      if isSkippable, let statedUID, reminder.id == statedUID, diagnostics.reportedCount == reportedBefore {
        known.note(digest, forUID: statedUID)
      }
      return .reminder(reminder, location)
    }
  }
}
