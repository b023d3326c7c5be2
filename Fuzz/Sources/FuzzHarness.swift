import Foundation
import RemconvCore

/// Runs one input through a format's reader and the merge engine into a scratch store, as
/// `remconv import --format NAME FILE` does, then checks what was merged.
///
/// What a user can meet is fine: the input is refused as malformed or over a limit. A finding
/// is anything else:
/// - an error that is not `malformedInput` or `invalidInput` (the command line would report
///   an I/O failure or an internal error for what is a bad input);
/// - the format's writer failing on what its reader produced, or writing what its reader
///   cannot read back;
/// - for remconv's own formats, which carry everything, a re-import of that output that
///   changes anything.
/// Crashes, hangs and runaway memory are caught by libFuzzer around `run`.
///
/// Every run is one transaction that is rolled back, so each input meets the same store.
final class FuzzHarness {
  /// A property violated by an input.
  struct Finding: Error, CustomStringConvertible {
    let description: String
  }

  /// What happened to an input that was not a finding.
  enum Outcome: CustomStringConvertible {
    /// Imported: this many records read, this many diagnostics.
    case imported(records: Int, diagnostics: Int)
    /// Refused with this message.
    case refused(String)

    var description: String {
      switch self {
      case .imported(let records, let diagnostics): "imported \(records) record(s), \(diagnostics) diagnostic(s)"
      case .refused(let message): "refused: \(message)"
      }
    }
  }

  /// Formats that carry everything the model holds: exporting and re-importing changes nothing.
  static let losslessFormats: Set<String> = ["json", "jsonl"]

  /// What the scratch store holds before every input: lists and reminders with the UIDs of
  /// `Samples/`, so mutated samples take the update path of the merge engine, not only inserts.
  static let baseDocument = #"""
    {"format":"remconv","version":1,"lists":[
      {"id":"6F1C2B0E-5D7A-4C55-9F1E-3A1B2C3D4E01","name":"Groceries","symbol":"cart","color":"#34C759","reminders":[
        {"id":"B1A7E0C2-0001-4F00-8000-000000000001","title":"Oat milk","dueDate":"2026-11-29","priority":"high","tags":["errands"]},
        {"id":"B1A7E0C2-0001-4F00-8000-000000000002","title":"Ingredients","dueDate":"2026-12-05T18:00:00","dueTimeZone":"Europe/Berlin"},
        {"id":"B1A7E0C2-0001-4F00-8000-000000000003","title":"Vanilla pods","parentId":"B1A7E0C2-0001-4F00-8000-000000000002","isDone":true,"completedAt":"2026-11-28T16:20:00Z"}]},
      {"id":"6F1C2B0E-5D7A-4C55-9F1E-3A1B2C3D4E02","name":"Work","reminders":[
        {"id":"B1A7E0C2-0002-4F00-8000-000000000001","title":"Quarterly report","dueDate":"2026-12-01T09:00:00Z","notes":"Line one\nLine two","extra":{"ical":{"X-KEEP":"yes"}}}]}]}
    """#

  let format: FormatDescriptor
  private let makeReader: @Sendable (ReaderContext) throws -> any ReminderReader
  private let folder: String
  private let store: Store
  /// Where each input is written: a file, or one item in a folder for folder formats.
  private let source: InputSource
  private let inputPath: String

  init(format: FormatDescriptor) throws {
    guard let makeReader = format.makeReader else {
      throw Finding(description: "the format \(format.name) cannot be read")
    }
    self.format = format
    self.makeReader = makeReader
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("remconv-fuzz-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    if format.isDirectory {
      // One item in one list's folder; vdir declares no extension, its items are .ics files.
      try FileManager.default.createDirectory(atPath: folder + "/input/Fuzz", withIntermediateDirectories: true)
      source = .directory(folder + "/input")
      inputPath = folder + "/input/Fuzz/item." + (format.extensions.first ?? "ics")
    } else {
      source = .file(folder + "/input." + (format.extensions.first ?? "txt"))
      inputPath = folder + "/input." + (format.extensions.first ?? "txt")
    }
    // The store is scratch: nothing must survive a power cut, and each run is rolled back.
    var options = Store.Options()
    options.syncsToDisk = false
    store = try Store(path: folder + "/store.sqlite", options: options)
    let base = ByteReader(bytes: Array(Self.baseDocument.utf8), name: "base.json")
    let baseSource = InputSource.file("base.json")
    let diagnostics = DiagnosticLog()
    let baseReader = try RemconvJSONFormat.descriptor.makeReader?(
      ReaderContext(source: baseSource, diagnostics: diagnostics, preopened: base))
    if let baseReader {
      _ = try Importer.run(
        reader: baseReader, into: store, source: baseSource, format: "json", options: Importer.Options(),
        diagnostics: diagnostics)
    }
  }

  deinit {
    store.close()
    try? FileManager.default.removeItem(atPath: folder)
  }

  /// Runs one input. Throws a `Finding` when a property is violated.
  func run(_ bytes: [UInt8]) throws(Finding) -> Outcome {
    try writeInput(bytes)
    let diagnostics = DiagnosticLog()
    var records = 0
    do {
      try source.requireContent(preopened: nil)
      // Format detection runs the sniffers on the same hostile bytes; its answer is not used.
      _ = try? FormatRegistry.detect(for: source)
      try store.write(commit: false) {
        let reader = try makeReader(ReaderContext(source: source, diagnostics: diagnostics))
        let report = try merge(reader, from: source, diagnostics: diagnostics) { records += 1 }
        guard report.rejected == 0 else { return }
        try checkRoundTrip()
      }
    } catch let finding as Finding {
      throw finding
    } catch let error as RemconvError {
      switch error {
      case .malformedInput, .invalidInput: return .refused(error.description)
      default: throw Finding(description: "an input error was reported as something else: \(error)")
      }
    } catch {
      throw Finding(description: "an error the command line reports as internal (exit 70): \(error)")
    }
    return .imported(records: records, diagnostics: diagnostics.entries.count)
  }

  /// Replaces the input file's content in place: no new file, no sync, so that an execution
  /// costs what the reader and the store cost.
  private func writeInput(_ bytes: [UInt8]) throws(Finding) {
    let descriptor = open(inputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw Finding(description: "cannot write \(inputPath): \(String(cString: strerror(errno)))")
    }
    defer { close(descriptor) }
    var written = 0
    while written < bytes.count {
      let result = bytes.withUnsafeBytes { raw in
        write(descriptor, raw.baseAddress.map { $0 + written }, raw.count - written)
      }
      guard result > 0 else {
        throw Finding(description: "cannot write \(inputPath): \(String(cString: strerror(errno)))")
      }
      written += result
    }
  }

  /// Merges every record of `reader` into the store, as an import does.
  private func merge(
    _ reader: any ReminderReader, from source: InputSource, diagnostics: DiagnosticLog, onRecord: () -> Void = {}
  ) throws -> ImportReport {
    let engine = try MergeEngine(
      repository: store, options: MergeEngine.Options(defaultList: "Fuzz"), diagnostics: diagnostics,
      report: ImportReport(source: source.displayName, format: format.name))
    let records = Importer.records(from: reader, source: source, diagnostics: diagnostics)
    while let record = try records.next() {
      try engine.consume(record)
      onRecord()
    }
    return try engine.finish()
  }

  /// Writes the store in the input's format, reads that back, and for lossless formats merges
  /// it again expecting no change. Runs inside the input's transaction.
  private func checkRoundTrip() throws {
    guard let makeWriter = format.makeWriter, !format.isDirectory else { return }
    let output = ByteWriter()
    do {
      let writer = try makeWriter(WriterContext(target: .stream(output), diagnostics: DiagnosticLog()))
      try Exporter.run(from: store, to: writer, options: Exporter.Options())
      try output.flush()
    } catch {
      throw Finding(description: "the \(format.name) writer failed on what its reader produced: \(error)")
    }
    let written = output.memory
    let diagnostics = DiagnosticLog()
    let rereadSource = InputSource.file("exported." + (format.extensions.first ?? "txt"))
    let report: ImportReport
    do {
      let reader = try makeReader(
        ReaderContext(
          source: rereadSource, diagnostics: diagnostics,
          preopened: ByteReader(bytes: written, name: rereadSource.displayName)))
      if Self.losslessFormats.contains(format.name) {
        report = try merge(reader, from: rereadSource, diagnostics: diagnostics)
      } else {
        while try reader.next() != nil {}
        return
      }
    } catch {
      throw Finding(
        description: "the \(format.name) reader cannot read back what its writer wrote: \(error)\n--- written ---\n"
          + String(decoding: written, as: UTF8.self))
    }
    if report.added != 0 || report.updated != 0 || report.listsAdded != 0 || report.listsUpdated != 0 {
      throw Finding(
        description:
          "re-importing the \(format.name) export changed the store (\(report.added) added, \(report.updated) updated, \(report.listsAdded) lists added, \(report.listsUpdated) lists updated)\n--- written ---\n"
          + String(decoding: written, as: UTF8.self))
    }
  }
}
