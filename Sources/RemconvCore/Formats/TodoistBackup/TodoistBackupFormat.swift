import Foundation

/// `--format todoist-backup`: a Todoist backup, the zip of one project template CSV per
/// project, or the same unzipped as a folder; each project a list named after its file.
///
/// Each CSV is read by the `csv:todoist` reader and written by its writer. The zip is read and
/// written through libarchive (`LibArchive/`); nothing is unpacked to disk, and archives whose
/// entries would land outside a folder when unpacked (zip-slip) or that unpack to more than
/// `ZipLimits` allow (zip bombs) are refused. See `docs/formats-text.md`.
public enum TodoistBackupFormat {
  public static let descriptor = FormatDescriptor(
    name: "todoist-backup", summary: "Todoist backup: a zip (or folder) of one project CSV per list",
    extensions: [], isDirectory: true,
    makeReader: { context in try TodoistBackupReader(context: context) },
    makeWriter: { context in try TodoistBackupWriter(context: context) },
    sniff: nil)

  /// A zip's first bytes: a local file header, or the end record of an empty archive.
  static func isZip(_ head: [UInt8]) -> Bool {
    head.starts(with: [0x50, 0x4B, 0x03, 0x04]) || head.starts(with: [0x50, 0x4B, 0x05, 0x06])
  }

  /// True for a folder of Todoist project CSVs (and nothing a vdir has).
  public static func isBackupFolder(_ path: String) -> Bool {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    let csvFiles = names.filter { $0.lowercased().hasSuffix(".csv") }
    guard !csvFiles.isEmpty, !names.contains(where: { $0.lowercased().hasSuffix(".ics") }) else { return false }
    return csvFiles.contains { name in
      guard let head = try? ByteReader.open(path: path + "/" + name).peekPrefix(4096) else { return false }
      return TodoistCSVFormat.descriptor.sniff?(head) == true
    }
  }

  /// The project a file name stands for: the name without `.csv`, and without the ` [id]`
  /// some backups add.
  static func projectName(fileName: String) -> String {
    var name = URL(fileURLWithPath: fileName).lastPathComponent
    if name.lowercased().hasSuffix(".csv") { name.removeLast(4) }
    if name.hasSuffix("]"), let open = name.range(of: " [", options: .backwards),
      name[open.upperBound..<name.index(before: name.endIndex)].allSatisfy(\.isNumber),
      open.upperBound < name.index(before: name.endIndex)
    {
      name = String(name[..<open.lowerBound])
    }
    return name
  }

  /// The file name of a list's CSV: `/` and control characters, which no file name holds,
  /// become `_`, as does a leading dot.
  static func fileName(forList name: String) -> String {
    var safe = String(
      name.map { $0 == "/" || $0 == "\\" || $0.isNewline || $0.asciiValue.map { $0 < 0x20 } == true ? "_" : $0 })
    if safe.hasPrefix(".") || safe.isEmpty { safe = "_" + safe }
    return safe + ".csv"
  }
}

/// The limits that keep a hostile archive from exhausting memory or disk.
enum ZipLimits {
  static let maximumEntryCount = 10_000
  /// Per entry: a project template of a hundred thousand tasks is far below.
  static let maximumEntrySize = 64 << 20
  static let maximumTotalSize = 512 << 20
  /// How many times its size an archive may unpack to, once it unpacks to more than
  /// `ratioThreshold` bytes (CSV deflates some 5 to 20 times; a bomb a thousand and more).
  static let maximumRatio: Int64 = 100
  static let ratioThreshold: Int64 = 1 << 20

  /// Why an entry name would be unpacked outside the archive's folder, or nil.
  static func escapeReason(_ name: String) -> String? {
    if name.hasPrefix("/") || name.hasPrefix("\\") { return "has an absolute path" }
    if name.count >= 2, name.dropFirst().first == ":" { return "names a drive" }
    let parts = name.split(whereSeparator: { $0 == "/" || $0 == "\\" })
    if parts.contains("..") { return "climbs out of the folder with '..'" }
    return nil
  }
}

/// Reads a backup: every project CSV of the zip or folder, one after another. In a folder, a
/// zip is a backup too, read in its place.
final class TodoistBackupReader: ReminderReader {
  private let context: ReaderContext
  /// The folder's files still to read, last first.
  private var remainingFiles: [String] = []
  /// The zip being read, and its path.
  private var archive: (reader: ZipArchiveReader, path: String)?
  private var current: (any ReminderReader)?
  private var projectCount = 0

  init(context: ReaderContext) throws {
    self.context = context
    switch context.source {
    case .directory(let path):
      remainingFiles = try Self.files(in: path).reversed()
    case .file(let path):
      let head = try ByteReader.open(path: path).peekPrefix(4)
      guard TodoistBackupFormat.isZip(head) else {
        throw RemconvError.malformedInput(
          "not a zip archive (a Todoist backup is a zip of project CSVs, or a folder of them)",
          at: SourceLocation(file: path, line: 1))
      }
      archive = (try ZipArchiveReader(path: path), path)
    case .standardInput:
      throw RemconvError.invalidInput("a Todoist backup is a zip file or a folder; it cannot come from standard input")
    }
  }

  /// The files of a backup folder and its subfolders, in name order; links are not followed.
  private static func files(in root: String) throws -> [String] {
    guard let enumerator = FileManager.default.enumerator(atPath: root) else {
      throw RemconvError.inputMissing("\(root): cannot list the folder")
    }
    var files: [String] = []
    while let relative = enumerator.nextObject() as? String {
      if enumerator.fileAttributes?[.type] as? FileAttributeType == .typeRegular { files.append(root + "/" + relative) }
    }
    return files.sorted()
  }

  func next() throws -> SourceRecord? {
    while true {
      if let current, let record = try current.next() { return record }
      current = nil
      guard try openNextProject() else {
        if projectCount == 0 {
          throw RemconvError.malformedInput(
            "the backup holds no project CSV (.csv)", at: SourceLocation(file: context.source.displayName, line: 1))
        }
        return nil
      }
    }
  }

  /// Opens the reader of the next project CSV; false when there is none.
  private func openNextProject() throws -> Bool {
    while true {
      if let (reader, path) = archive {
        guard let entry = try reader.nextEntry() else {
          archive = nil
          continue
        }
        guard entry.isRegularFile else { continue }
        let name = path + "/" + entry.path
        guard entry.path.lowercased().hasSuffix(".csv") else {
          context.diagnostics.warning(
            "not-a-project", "not a project CSV (.csv): not imported", at: SourceLocation(file: name))
          continue
        }
        try open(ByteReader(bytes: try reader.readData(of: entry), name: name), displayName: name, fileName: entry.path)
        return true
      }
      guard let path = remainingFiles.popLast() else { return false }
      let bytes = try ByteReader.open(path: path, followingLinks: false)
      if path.lowercased().hasSuffix(".csv") {
        try open(bytes, displayName: path, fileName: path)
        return true
      }
      if TodoistBackupFormat.isZip(try bytes.peekPrefix(4)) {
        archive = (try ZipArchiveReader(path: path), path)
        continue
      }
      context.diagnostics.warning(
        "not-a-project", "not a project CSV (.csv): not imported", at: SourceLocation(file: path))
    }
  }

  private func open(_ bytes: ByteReader, displayName: String, fileName: String) throws {
    projectCount += 1
    var options = context.options
    if options.listName == nil { options.listName = TodoistBackupFormat.projectName(fileName: fileName) }
    let projectContext = ReaderContext(
      source: .file(displayName), diagnostics: context.diagnostics, options: options, preopened: bytes)
    current = try TodoistCSVFormat.Reader(context: projectContext)
  }
}

/// Writes a backup: one project CSV per list (`csv:todoist`'s writer), into a zip when the
/// output ends in `.zip`, else into a folder.
final class TodoistBackupWriter: ReminderWriter {
  static let inputOrder = WriterInputOrder.groupedByList

  private let path: String
  private let context: WriterContext
  private var files: [(name: String, bytes: [UInt8])] = []
  private var usedNames: Set<String> = []
  private var current: (writer: TodoistCSVFormat.Writer, output: ByteWriter)?
  private(set) var skippedCount = 0

  init(context: WriterContext) throws {
    guard case .directory(let path) = context.target else {
      throw RemconvError.cannotCreateOutput("todoist-backup writes a zip or a folder: give -o backup.zip or -o FOLDER")
    }
    self.path = path
    self.context = context
  }

  private var writesZip: Bool { path.lowercased().hasSuffix(".zip") }

  func beginList(_ list: ReminderList) throws {
    let output = ByteWriter()
    let writer = try TodoistCSVFormat.Writer(
      context: WriterContext(target: .stream(output), diagnostics: context.diagnostics, options: context.options))
    current = (writer, output)
    try writer.beginList(list)
  }

  func write(_ reminder: Reminder, in list: ReminderList, depth: Int) throws {
    if current == nil { try beginList(list) }
    try current?.writer.write(reminder, in: list, depth: depth)
  }

  func endList(_ list: ReminderList) throws {
    guard let current else { return }
    self.current = nil
    try current.writer.endList(list)
    try current.writer.finish()
    skippedCount += current.writer.skippedCount
    var name = TodoistBackupFormat.fileName(forList: list.name)
    var number = 2
    while !usedNames.insert(name.lowercased()).inserted {
      name = String(TodoistBackupFormat.fileName(forList: list.name).dropLast(4)) + " (\(number)).csv"
      number += 1
    }
    if TodoistBackupFormat.projectName(fileName: name) != list.name {
      context.diagnostics.warning(
        "cannot-carry",
        "the list '\(list.name)' is written as '\(name)', whose name reads back as '\(TodoistBackupFormat.projectName(fileName: name))'",
        uid: list.id)
    }
    files.append((name, current.output.memory))
  }

  func finish() throws {
    if writesZip {
      let zip = try ZipArchiveWriter(modificationTime: context.options.now)
      for file in files { try zip.add(name: file.name, bytes: file.bytes) }
      let output = try OutputFile(path: path, force: context.options.force)
      try output.writer.write(bytes: try zip.finish())
      try output.commit()
      return
    }
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    for file in files {
      let output = try OutputFile(path: path + "/" + file.name, force: context.options.force)
      try output.writer.write(bytes: file.bytes)
      try output.commit()
    }
  }
}
