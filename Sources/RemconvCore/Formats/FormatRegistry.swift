import Foundation

/// A format remconv reads or writes.
public struct FormatDescriptor: Sendable {
  /// The name given to `--format`, such as `ics` or `csv:todoist`.
  public let name: String
  /// One line for `--help`.
  public let summary: String
  /// File extensions that select this format when `--format` is absent (lower case).
  public let extensions: [String]
  /// True when the format is a folder (vdir), not a single file.
  public let isDirectory: Bool
  public let makeReader: (@Sendable (ReaderContext) throws -> any ReminderReader)?
  public let makeWriter: (@Sendable (WriterContext) throws -> any ReminderWriter)?
  /// Recognises the format from the first bytes of a file (up to 4 KiB), for detection.
  public let sniff: (@Sendable ([UInt8]) -> Bool)?
  /// When what a document carries depends on the document (an OPML file without remconv's
  /// namespace has none of its attributes): given a source's first bytes, what makes this
  /// format's own writing into what that source can carry; nil when it carries all of it.
  /// A merge compares with the stored item written, so filtered, and read back.
  public var dialect: (@Sendable ([UInt8]) -> (@Sendable ([UInt8]) -> [UInt8])?)? = nil
  /// Whole file names (lower case) that select this format when the extension says nothing
  /// (`todo.txt`: a `.txt` file is any text).
  public var fileNames: [String] = []
  /// For a format whose file may hold more than remconv reads (Markdown prose): given an
  /// existing output file's bytes, why an export must not replace it; nil when it may.
  public var existingFileRefusal: (@Sendable ([UInt8]) -> String?)? = nil

  public var canRead: Bool { makeReader != nil }
  public var canWrite: Bool { makeWriter != nil }
}

/// Every format, and how one is chosen.
public enum FormatRegistry {
  /// In the order detection tries them: dialects before the generic format they resemble.
  public static let all: [FormatDescriptor] = [
    TaskwarriorFormat.descriptor,
    MicrosoftToDoFormat.descriptor,
    GoogleTasksFormat.descriptor,
    JCalFormat.descriptor,
    RemconvJSONFormat.descriptor,
    JSONLinesFormat.descriptor,
    TodoistCSVFormat.descriptor,
    TickTickCSVFormat.descriptor,
    RemconvCSVFormat.descriptor,
    ICSFormat.descriptor,
    VdirFormat.descriptor,
    OPMLFormat.descriptor,
    MarkdownFormat.descriptor,
    TodoTxtFormat.descriptor,
    TodoistBackupFormat.descriptor,
    AppleRemindersFormat.descriptor,
    SwiftDataFormat.descriptor,
  ]

  public static func named(_ name: String) -> FormatDescriptor? {
    all.first { $0.name == name.lowercased() }
  }

  public static var readableNames: [String] { all.filter(\.canRead).map(\.name) }
  public static var writableNames: [String] { all.filter(\.canWrite).map(\.name) }

  /// The format for an input: the extension when it names one format, else the content.
  public static func detect(
    for source: InputSource, preopened: ByteReader? = nil
  ) throws(RemconvError) -> FormatDescriptor {
    if case .directory(let path) = source {
      if !AppleRemindersFormat.storeFiles(in: path).isEmpty || AppleRemindersFormat.isBackup(path) {
        return AppleRemindersFormat.descriptor
      }
      if TodoistBackupFormat.isBackupFolder(path) { return TodoistBackupFormat.descriptor }
      if let folderFormat = all.first(where: { $0.isDirectory && $0.canRead }) { return folderFormat }
      throw .invalidInput("\(source.displayName): is a folder, and no folder format is available")
    }
    let head: [UInt8]
    if let preopened {
      head = try preopened.peekPrefix(4096)
    } else {
      head = try peekHead(of: source)
    }
    // A zip is a Todoist backup, the one archive remconv reads.
    if case .file = source, TodoistBackupFormat.isZip(head) { return TodoistBackupFormat.descriptor }
    // A SQLite file says what it is in its schema, not its first bytes.
    if case .file(let path) = source, CoreDataFile.isSQLite(head),
      let format = try CoreDataDetection.format(ofFileAt: path)
    {
      return format
    }
    let byExtension = all.filter { format in
      format.canRead
        && (source.fileExtension.map { format.extensions.contains($0) } == true
          || source.fileName.map { format.fileNames.contains($0) } == true)
    }
    // A sniffer may refine an extension (a .csv from TickTick, a .json from Taskwarrior).
    if let refined = byExtension.first(where: { $0.sniff?(head) == true }) { return refined }
    if let sniffed = all.first(where: { $0.canRead && !$0.isDirectory && $0.sniff?(head) == true }) {
      return sniffed
    }
    if let generic = byExtension.first { return generic }
    throw .invalidInput(
      "\(source.displayName): cannot tell the format from the name or the content; give --format (one of \(readableNames.joined(separator: ", ")))"
    )
  }

  /// The format for an output path from its extension.
  public static func detect(forOutput path: String) -> FormatDescriptor? {
    let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
    let name = URL(fileURLWithPath: path).lastPathComponent.lowercased()
    if ext == "zip" { return TodoistBackupFormat.descriptor }
    return all.first { $0.canWrite && $0.fileNames.contains(name) }
      ?? all.first { $0.canWrite && $0.extensions.contains(ext) }
  }

  /// The first bytes of a file. Standard input is peeked through its preopened reader.
  private static func peekHead(of source: InputSource) throws(RemconvError) -> [UInt8] {
    switch source {
    case .file(let path):
      return try ByteReader.open(path: path).peekPrefix(4096)
    case .standardInput, .directory:
      return []
    }
  }
}
