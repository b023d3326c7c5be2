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
    let projected = lose(
      stored, Reminder.fields, as: Reminder(id: stored.id, listID: stored.listID, title: stored.title))
    return carriage.carried?(projected) ?? projected
  }

  func list(_ stored: ReminderList) throws -> ReminderList? {
    lose(stored, ReminderList.fields, as: ReminderList(id: stored.id, name: stored.name))
  }

  /// Each declared field the format does not carry reads back as it is in an item that says
  /// nothing; of a lost `extra`, the format's own key stays.
  private func lose<Item>(_ stored: Item, _ fields: [ModelField<Item>], as empty: Item) -> Item {
    var projected = stored
    for field in fields where carriage.keeps(field.name) == .lost {
      if let object = field.object {
        projected[keyPath: object] = ownExtra(stored[keyPath: object])
      } else {
        field.copy(empty, &projected)
      }
    }
    return projected
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
