import Foundation

/// Runs a conversion without the user's store: file to file, pipe to pipe.
///
/// Writers that take reminders in any order (CSV, JSON Lines) get them as they are read, so
/// memory stays flat. Writers that need lists one at a time with parents first (JSON,
/// iCalendar, OPML) get them through a temporary store in a private folder, removed after:
/// the same merge and ordering rules as import and export, on disk instead of in memory.
public enum Converter {
  public static func run(
    reader: any ReminderReader, writer: any ReminderWriter, writerType: any ReminderWriter.Type,
    source: InputSource, diagnostics: DiagnosticLog, targetList: String? = nil,
    maximumItems: Int = InputLimits.maximumItemCount
  ) throws -> Int {
    let reader = ModelBoundaryReader(reader, source: source, limit: maximumItems, diagnostics: diagnostics)
    switch writerType.inputOrder {
    case .anyOrder:
      return try stream(
        reader: reader, writer: writer, source: source, diagnostics: diagnostics, targetList: targetList)
    case .groupedByList:
      return try staged(
        reader: reader, writer: writer, source: source, diagnostics: diagnostics, targetList: targetList)
    }
  }

  private static func stream(
    reader: ModelBoundaryReader, writer: any ReminderWriter, source: InputSource,
    diagnostics: DiagnosticLog, targetList: String?
  ) throws -> Int {
    let fallbackName = targetList ?? source.baseName ?? "Reminders"
    let fallback = ReminderList(id: StableID.derived(["list", ListName.key(for: fallbackName)]), name: fallbackName)
    var lists: [String: ReminderList] = [:]
    var announcedFallback = false
    var count = 0
    var rejected = 0
    while let record = try reader.next() {
      switch record {
      case .list(let list):
        guard targetList == nil else { continue }
        lists[list.id] = list
        try writer.beginList(list)
      case .reminder(var reminder, _):
        var list = lists[reminder.listID] ?? fallback
        if targetList != nil { list = fallback }
        if list == fallback, !announcedFallback {
          announcedFallback = true
          try writer.beginList(fallback)
        }
        reminder.listID = list.id
        try writer.write(reminder, in: list, depth: 0)
        count += 1
      case .skipped, .unchanged:
        // Only an import's stage passes over records (`UnchangedRecordSkipper`): nothing comes unchanged.
        break
      case .rejected(let reason, let location, let uid):
        rejected += 1
        diagnostics.report(Diagnostic(.error, code: "rejected", reason, at: location, uid: uid))
      }
    }
    if rejected > 0 {
      throw RemconvError.invalidInput("\(source.displayName): \(rejected) item(s) could not be converted")
    }
    try writer.finish()
    return count
  }

  private static func staged(
    reader: ModelBoundaryReader, writer: any ReminderWriter, source: InputSource,
    diagnostics: DiagnosticLog, targetList: String?
  ) throws -> Int {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("remconv-convert-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var storeOptions = Store.Options()
    storeOptions.busyTimeoutMilliseconds = 0
    storeOptions.syncsToDisk = false
    let store = try Store(path: folder + "/staging.sqlite", options: storeOptions)
    defer { store.close() }
    var importOptions = Importer.Options()
    importOptions.targetList = targetList
    _ = try Importer.run(
      reader: reader, into: store, source: source, format: "convert", options: importOptions, diagnostics: diagnostics)
    return try Exporter.run(from: store, to: writer, options: Exporter.Options())
  }
}
