import Foundation

/// What a format makes of stored items: each is written by the format's writer and read back
/// by its reader, so the merge compares a source's record with exactly what that format would
/// carry of the stored one (`SourceProjection`), and no table of what each format keeps can
/// drift from what its writer and reader do.
///
/// Only the merge of a record that differs from the stored one asks, so a re-import of an
/// unchanged source costs nothing more.
final class FormatProjection: SourceProjection {
  private let format: FormatDescriptor
  private let source: InputSource
  private let readerOptions: ReaderOptions
  private let writerOptions: WriterOptions

  /// Nil for a format that cannot write or cannot read.
  init?(format: FormatDescriptor, source: InputSource, readerOptions: ReaderOptions) {
    guard format.canRead, format.canWrite else { return nil }
    self.format = format
    self.source = source
    var reading = readerOptions
    reading.strict = false
    self.readerOptions = reading
    var writing = WriterOptions()
    // The time of writing only reaches what a writer stamps (`DTSTAMP`), never a field read back.
    writing.now = Date(timeIntervalSince1970: 0)
    writing.timeZone = readerOptions.timeZone
    if let delimiter = readerOptions.delimiter { writing.delimiter = delimiter }
    writerOptions = writing
    if let dialect = format.dialect, case .file(let path) = source,
      let head = try? ByteReader.open(path: path).peekPrefix(4096)
    {
      sourceDialect = dialect(head)
    } else {
      sourceDialect = nil
    }
  }

  /// What makes the format's writing into what this source carries (`FormatDescriptor.dialect`).
  private let sourceDialect: (@Sendable ([UInt8]) -> [UInt8])?

  func reminder(_ stored: Reminder, in list: ReminderList) throws -> Reminder? {
    // Alone, a subtask is written top-level: its link is the merge's to compare, not a field.
    var lone = stored
    lone.parentID = nil
    lone.listID = list.id
    return roundTrip(list, [lone]).lazy.compactMap { record -> Reminder? in
      if case .reminder(let reminder, _) = record { return reminder }
      return nil
    }.first
  }

  func list(_ stored: ReminderList) throws -> ReminderList? {
    // Formats of rows carry a list only on its reminders.
    let placeholder = Reminder(id: StableID.derived(["projection", stored.id]), listID: stored.id, title: "projection")
    return roundTrip(stored, [placeholder]).lazy.compactMap { record -> ReminderList? in
      if case .list(let list) = record { return list }
      return nil
    }.first
  }

  /// The records the format's reader makes of `reminders` in `list` as its writer writes them;
  /// none when either refuses them (a value the format cannot hold).
  private func roundTrip(_ list: ReminderList, _ reminders: [Reminder]) -> [SourceRecord] {
    let diagnostics = DiagnosticLog()
    do {
      if format.isDirectory { return try roundTripThroughFolder(list, reminders, diagnostics: diagnostics) }
      let output = ByteWriter()
      try write(
        list, reminders, to: WriterContext(target: .stream(output), diagnostics: diagnostics, options: writerOptions))
      try output.flush()
      let written = sourceDialect.map { $0(output.memory) } ?? output.memory
      let bytes = ByteReader(bytes: written, name: source.displayName)
      return try read(
        ReaderContext(source: source, diagnostics: diagnostics, options: readerOptions, preopened: bytes))
    } catch {
      return []
    }
  }

  private func roundTripThroughFolder(
    _ list: ReminderList, _ reminders: [Reminder], diagnostics: DiagnosticLog
  ) throws -> [SourceRecord] {
    let folder = NSTemporaryDirectory() + "/remconv-projection-" + StableID.make()
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { TemporaryPaths.removeFolder(folder) }
    try write(
      list, reminders, to: WriterContext(target: .directory(folder), diagnostics: diagnostics, options: writerOptions))
    return try read(ReaderContext(source: .directory(folder), diagnostics: diagnostics, options: readerOptions))
  }

  private func write(_ list: ReminderList, _ reminders: [Reminder], to context: WriterContext) throws {
    guard let makeWriter = format.makeWriter else { return }
    let writer = try makeWriter(context)
    try writer.beginList(list)
    for reminder in reminders { try writer.write(reminder, in: list, depth: 0) }
    try writer.endList(list)
    try writer.finish()
  }

  private func read(_ context: ReaderContext) throws -> [SourceRecord] {
    guard let makeReader = format.makeReader else { return [] }
    let reader = try makeReader(context)
    var records: [SourceRecord] = []
    while let record = try reader.next() { records.append(record) }
    return records
  }
}

/// What a format remconv only reads makes of stored items, from what it declares it carries
/// (`FormatCarriage`): a field it has no place for reads back as the model's default, and of
/// `extra` it carries its own key alone.
final class DeclaredProjection: SourceProjection {
  private let carriage: FormatCarriage

  init(_ carriage: FormatCarriage) { self.carriage = carriage }

  func reminder(_ stored: Reminder, in list: ReminderList) throws -> Reminder? {
    let empty = Reminder(id: stored.id, listID: stored.listID, title: stored.title)
    var projected = stored
    lose(\.notes, "notes", of: &projected, as: empty)
    lose(\.isDone, "isDone", of: &projected, as: empty)
    lose(\.completedAt, "completedAt", of: &projected, as: empty)
    lose(\.flagged, "flagged", of: &projected, as: empty)
    lose(\.dueDate, "dueDate", of: &projected, as: empty)
    lose(\.startDate, "startDate", of: &projected, as: empty)
    lose(\.recurrence, "recurrence", of: &projected, as: empty)
    lose(\.alarms, "alarms", of: &projected, as: empty)
    lose(\.priority, "priority", of: &projected, as: empty)
    lose(\.tags, "tags", of: &projected, as: empty)
    lose(\.url, "url", of: &projected, as: empty)
    lose(\.createdAt, "createdAt", of: &projected, as: empty)
    lose(\.editedAt, "editedAt", of: &projected, as: empty)
    if carriage.keeps("extra") == .lost { projected.extra = ownExtra(stored.extra) }
    return projected
  }

  func list(_ stored: ReminderList) throws -> ReminderList? {
    let empty = ReminderList(id: stored.id, name: stored.name)
    var projected = stored
    lose(\.symbol, "list.symbol", of: &projected, as: empty)
    lose(\.color, "list.color", of: &projected, as: empty)
    lose(\.createdAt, "list.createdAt", of: &projected, as: empty)
    if carriage.keeps("list.extra") == .lost { projected.extra = ownExtra(stored.extra) }
    return projected
  }

  /// A field the format does not carry reads back as it is in an item that says nothing.
  private func lose<Item, Value>(
    _ path: WritableKeyPath<Item, Value>, _ field: String, of item: inout Item, as empty: Item
  ) {
    if carriage.keeps(field) == .lost { item[keyPath: path] = empty[keyPath: path] }
  }

  private func ownExtra(_ extra: [String: JSONValue]) -> [String: JSONValue] {
    extra.filter { $0.key == carriage.extraKey || $0.key == "invalid" }
  }
}

extension FormatDescriptor {
  /// What this format makes of stored items: written and read back when it can do both, else
  /// what it declares it carries; nil when neither is known.
  func projection(source: InputSource, readerOptions: ReaderOptions) -> (any SourceProjection)? {
    if let roundTrip = FormatProjection(format: self, source: source, readerOptions: readerOptions) {
      return roundTrip
    }
    return FormatCarriage.of(name).map(DeclaredProjection.init)
  }
}
