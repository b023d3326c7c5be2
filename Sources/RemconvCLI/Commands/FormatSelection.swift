import Foundation
import RemconvCore

/// Choosing formats and opening readers and writers, shared by import, export and convert.
enum FormatSelection {
  static let formatHelp = "The format (detected from the extension or content when absent)."

  /// The reader for `input`, with `--format` or detection.
  static func reader(
    for input: String, format: String?, options: ReaderOptions, diagnostics: DiagnosticLog, io: ConsoleIO
  ) throws -> (any ReminderReader, FormatDescriptor, InputSource) {
    let source = try InputSource.resolve(input)
    let preopened: ByteReader? = source.isStandardInput ? io.standardInput() : nil
    try source.requireContent(preopened: preopened)
    let descriptor: FormatDescriptor
    if let format {
      guard let named = FormatRegistry.named(format), named.canRead else {
        throw UsageError.invalidValue(format, option: "--format", allowed: FormatRegistry.readableNames)
      }
      descriptor = named
    } else {
      descriptor = try FormatRegistry.detect(for: source, preopened: preopened)
    }
    guard let makeReader = descriptor.makeReader else {
      throw UsageError.invalidValue(descriptor.name, option: "--format", allowed: FormatRegistry.readableNames)
    }
    let context = ReaderContext(
      source: source, diagnostics: diagnostics, options: options, preopened: preopened)
    return (try makeReader(context), descriptor, source)
  }

  /// The writer format from `--format`/`--to`, else the output's extension, else `fallback`.
  static func writerFormat(_ name: String?, output: String?, fallback: String?) throws -> FormatDescriptor {
    if let name {
      guard let named = FormatRegistry.named(name), named.canWrite else {
        throw UsageError.invalidValue(name, option: "--format", allowed: FormatRegistry.writableNames)
      }
      // Todoist templates into a zip: a backup, one template per list.
      if named.name == TodoistCSVFormat.descriptor.name, output?.lowercased().hasSuffix(".zip") == true {
        return TodoistBackupFormat.descriptor
      }
      return named
    }
    if let output, output != "-", let detected = FormatRegistry.detect(forOutput: output) { return detected }
    if let fallback, let named = FormatRegistry.named(fallback) { return named }
    throw UsageError.invalid(
      "Cannot tell the output format; give --format (one of \(FormatRegistry.writableNames.joined(separator: ", ")))")
  }

  /// Reader options from the shared command-line options.
  static func readerOptions(_ arguments: ParsedArguments, context: CommandContext) throws(UsageError) -> ReaderOptions {
    var options = ReaderOptions()
    options.strict = arguments.flag("strict")
    options.listName = arguments.value("list")
    options.timeZone = context.timeZone
    if let delimiter = arguments.value("delimiter") { options.delimiter = try parseDelimiter(delimiter) }
    return options
  }

  static func parseDelimiter(_ text: String) throws(UsageError) -> UInt8 {
    switch text {
    case ",", "comma": return UInt8(ascii: ",")
    case ";", "semicolon": return UInt8(ascii: ";")
    case "\t", "\\t", "tab": return 0x09
    case "|", "pipe": return UInt8(ascii: "|")
    default: throw .invalidValue(text, option: "--delimiter", allowed: ["comma", "semicolon", "tab", "pipe"])
    }
  }
}

/// Where an export or conversion writes: standard output, a file (written safely), a folder.
final class OutputDestination {
  let target: OutputTarget
  private let file: OutputFile?

  /// `store` is the store the command line names: its files are never an output.
  init(path: String?, format: FormatDescriptor, force: Bool, io: ConsoleIO, store: StoreFiles) throws {
    if format.isDirectory {
      guard let path, path != "-" else {
        throw UsageError.invalid("The \(format.name) format writes a folder: give -o FOLDER")
      }
      if let refusal = store.refusal(for: path) {
        throw RemconvError.cannotCreateOutput("\(path): \(refusal); refusing to write there")
      }
      target = .directory(path)
      file = nil
    } else if let path, path != "-", let stream = try io.standardStream(at: path) {
      file = nil
      target = .stream(stream)
    } else if let path, path != "-" {
      if force, let refusal = format.existingFileRefusal, FileKind.of(path) == .regular,
        let existing = FileManager.default.contents(atPath: path), let reason = refusal(Array(existing))
      {
        throw RemconvError.cannotCreateOutput("\(path): \(reason); refusing to replace it")
      }
      let created = try OutputFile(path: path, force: force, protecting: store)
      file = created
      target = .stream(created.writer)
    } else {
      file = nil
      target = .stream(io.output)
    }
  }

  /// Moves a written file into place (a folder format's writer moves its own at `finish`).
  func commit() throws {
    try file?.commit()
  }
}

extension InputSource {
  var isStandardInput: Bool {
    if case .standardInput = self { return true }
    return false
  }
}
