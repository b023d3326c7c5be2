import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// The import stage (`UnchangedRecordSkipper`) decides for every format which records to
/// decode: a format that yields its reminders raw gets skipping without code of its own, one
/// that yields them decoded is never skipped, and a skipped record is never decoded.
@Suite struct ImportStageTests {
  /// A format whose reminders come raw: it counts what the import stage asks of it.
  final class RawTitles: RawRecordReader {
    /// Each reminder's stated UID (nil: none, the reminder's UID is derived) and title.
    let items: [(uid: String?, title: String)]
    /// Titles whose decoding warns.
    let warnsOn: Set<String>
    let diagnostics: DiagnosticLog
    private var position = -1
    private(set) var decoded: [String] = []
    private(set) var passedOver: [String] = []
    private(set) var digestsAsked = 0

    init(_ items: [(uid: String?, title: String)], warnsOn: Set<String> = [], diagnostics: DiagnosticLog) {
      self.items = items
      self.warnsOn = warnsOn
      self.diagnostics = diagnostics
    }

    func nextRecord() throws -> ReadRecord? {
      position += 1
      if position == 0 { return .record(.list(ReminderList(id: "L1", name: "Work"))) }
      guard position <= items.count else { return nil }
      return .raw(SourceLocation(file: "titles", line: position))
    }

    private var item: (uid: String?, title: String) { items[position - 1] }

    func digestOfRaw() -> RecordDigest {
      digestsAsked += 1
      return RecordDigest(context: ["titles"]).appending(item.uid ?? "").appending(item.title)
    }

    func decodeRaw() throws -> DecodedReminder {
      decoded.append(item.title)
      if warnsOn.contains(item.title) {
        diagnostics.warning("odd-title", "an odd title", at: SourceLocation(file: "titles", line: position))
      }
      let uid = item.uid ?? StableID.derived(["titles", item.title])
      return (Reminder(id: uid, listID: "L1", title: item.title), item.uid, true)
    }

    func passOverRaw() { passedOver.append(item.title) }
  }

  /// A format that opts out: it yields every reminder decoded.
  final class DecodedTitles: ReminderReader {
    let titles: [String]
    private var position = -1

    init(_ titles: [String]) { self.titles = titles }

    func next() throws -> SourceRecord? {
      position += 1
      if position == 0 { return .list(ReminderList(id: "L1", name: "Work")) }
      guard position <= titles.count else { return nil }
      let title = titles[position - 1]
      return .reminder(
        Reminder(id: "uid-" + title, listID: "L1", title: title), SourceLocation(file: "titles", line: position))
    }
  }

  let directory = TemporaryDirectory()

  /// Imports `reader` into the store `name` as `remconv import` does (with `KnownRecords`).
  func importing(
    _ reader: any ReminderReader, into name: String = "store.sqlite", diagnostics: DiagnosticLog = DiagnosticLog()
  ) throws -> (report: ImportReport, skipped: Int) {
    let store = try Store(path: directory.file(name))
    defer { store.close() }
    let known = KnownRecords()
    let report = try Importer.run(
      reader: reader, into: store, source: .file("titles.txt"), format: "titles", options: Importer.Options(),
      diagnostics: diagnostics, knownRecords: known)
    return (report, known.skippedCount)
  }

  func titles(in name: String = "store.sqlite") throws -> [String] {
    let store = try Store(path: directory.file(name))
    defer { store.close() }
    return try store.database.rows("SELECT title FROM reminders ORDER BY title").map { $0.string(0) ?? "" }
  }

  @Test func aSkippedRawRecordIsNeverDecoded() throws {
    let items: [(uid: String?, title: String)] = [("a", "A"), ("b", "B"), ("c", "C")]
    let first = RawTitles(items, diagnostics: DiagnosticLog())
    let firstImport = try importing(first)
    #expect(first.decoded == ["A", "B", "C"] && first.passedOver.isEmpty)
    #expect(firstImport.report.added == 3 && firstImport.skipped == 0)

    let again = RawTitles(items, diagnostics: DiagnosticLog())
    let second = try importing(again)
    #expect(again.decoded.isEmpty, "a record the store holds unchanged is not decoded")
    #expect(again.passedOver == ["A", "B", "C"])
    #expect(second.report.unchanged == 3 && second.report.added == 0 && second.report.updated == 0)
    #expect(second.skipped == 3)
    #expect(try titles() == ["A", "B", "C"])
  }

  @Test func aChangedRecordIsDecodedAndTheRestSkipped() throws {
    _ = try importing(RawTitles([("a", "A"), ("b", "B")], diagnostics: DiagnosticLog()))
    let changed = RawTitles([("a", "A"), ("b", "B2")], diagnostics: DiagnosticLog())
    let result = try importing(changed)
    #expect(changed.decoded == ["B2"] && changed.passedOver == ["A"])
    #expect(result.report.updated == 1 && result.report.unchanged == 1)
    #expect(try titles() == ["A", "B2"])
  }

  @Test func aRecordThatWarnedOrHadNoUIDIsDecodedEveryTime() throws {
    let items: [(uid: String?, title: String)] = [("a", "A"), ("w", "Warns"), (nil, "NoUID")]
    let diagnostics = DiagnosticLog()
    _ = try importing(RawTitles(items, warnsOn: ["Warns"], diagnostics: diagnostics), diagnostics: diagnostics)
    let againLog = DiagnosticLog()
    let again = RawTitles(items, warnsOn: ["Warns"], diagnostics: againLog)
    let result = try importing(again, diagnostics: againLog)
    // Skipping the warning record would silence its warning; the UID-less one's UID is derived.
    #expect(again.decoded == ["Warns", "NoUID"] && again.passedOver == ["A"])
    #expect(result.report.warningCount == 1)
    #expect(result.report.unchanged == 3)
  }

  @Test func aFormatThatYieldsDecodedRemindersImportsAndIsNeverSkipped() throws {
    let first = try importing(DecodedTitles(["A", "B"]))
    #expect(first.report.added == 2)
    let second = try importing(DecodedTitles(["A", "B", "C"]))
    #expect(second.skipped == 0)
    #expect(second.report.added == 1 && second.report.unchanged == 2 && second.report.updated == 0)
    #expect(try titles() == ["A", "B", "C"])
  }

  @Test func anImportWithoutKnownRecordsAndAConversionDecodeEveryRawRecord() throws {
    let store = try Store(path: directory.file("plain.sqlite"))
    defer { store.close() }
    let items: [(uid: String?, title: String)] = [("a", "A"), ("b", "B")]
    for _ in 0..<2 {
      let reader = RawTitles(items, diagnostics: DiagnosticLog())
      _ = try Importer.run(
        reader: reader, into: store, source: .file("titles.txt"), format: "titles", options: Importer.Options(),
        diagnostics: DiagnosticLog())
      #expect(reader.decoded == ["A", "B"] && reader.digestsAsked == 0)
    }
    // A reader of records (`next()`) gets every reminder decoded.
    let reader = RawTitles(items, diagnostics: DiagnosticLog())
    var reminders: [String] = []
    while let record = try reader.next() {
      if case .reminder(let reminder, _) = record { reminders.append(reminder.id) }
    }
    #expect(reminders == ["a", "b"] && reader.digestsAsked == 0)
  }
}
