import Foundation
import RemconvCore

/// Where a format's files live in the repository: `Samples/NAME/`, `Fixtures/NAME/`,
/// `Fixtures/malformed/NAME/`. A dialect's `:` may be spelled `-` or `_` in a folder name, or
/// the folder may carry only the part after it (`csv:todoist` → `csv-todoist`, `todoist`).
public enum FormatFolders {
  public static func candidates(for format: String) -> [String] {
    var names = [
      format, format.replacingOccurrences(of: ":", with: "-"), format.replacingOccurrences(of: ":", with: "_"),
    ]
    if let colon = format.firstIndex(of: ":") { names.append(String(format[format.index(after: colon)...])) }
    var seen = Set<String>()
    return names.filter { seen.insert($0).inserted }
  }

  /// The registered readable format a folder name stands for.
  public static func format(forFolder folder: String) -> FormatDescriptor? {
    FormatRegistry.all.first { $0.canRead && candidates(for: $0.name).contains(folder) }
  }

  /// The first existing folder `parent/NAME` for the format.
  public static func existing(in parent: String, for format: String) -> String? {
    for name in candidates(for: format) {
      var isDirectory: ObjCBool = false
      let path = Repository.path(parent + "/" + name)
      if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { return path }
    }
    return nil
  }
}

/// The hostile inputs that apply to every format, generated at test time for any registered
/// format: from what the format's own writer makes of a fixed model, or, for a format that
/// cannot write, from its first sample in `Samples/`.
public enum HostileCase: String, CaseIterable, Sendable {
  /// Zero bytes.
  case empty
  /// A folder given where a file is expected (a file where a folder-format expects a folder).
  case wrongKindOfPath = "directory-as-file"
  /// Cut in the middle of the longest line.
  case truncated
  /// The document in ISO 8859-1 (Latin-1), which is not UTF-8 once it has an accent.
  case latin1
  /// The document in UTF-16 with a byte order mark.
  case utf16
  /// A NUL byte in the middle of the longest line.
  case nulByte = "nul-byte"
  /// 50 MB of one letter in the middle of the longest line, on a single line.
  case hugeLine = "50mb-line"
  /// A chain of 10,000 subtasks, each the parent of the next.
  case deepSubtasks = "10000-deep-subtasks"
  /// Two items with one UID.
  case duplicateUIDs = "duplicate-uids"
  /// The first date of the document made month 13, day 99 (`20261399`).
  case impossibleDate = "date-20261399"
  /// The first date of the document given the year 99999.
  case yearOutOfRange = "year-99999"

  /// Cases that must be refused. The others must be refused cleanly or imported whole: a
  /// chain of subtasks is data, not syntax, in a format that writes subtasks flat.
  public var mustBeRefused: Bool { self != .deepSubtasks }

  /// Whether the refusal names a line (a path of the wrong kind has none).
  public var namesALine: Bool { self != .wrongKindOfPath }

  /// The base the case is made from.
  enum Base {
    /// The format's writer output for the standard model.
    case standard
    /// The writer output for a model with two reminders sharing a UID.
    case duplicateUIDs
    /// The writer output for a 10,000-deep chain of subtasks.
    case deepChain
  }

  var base: Base {
    switch self {
    case .duplicateUIDs: .duplicateUIDs
    case .deepSubtasks: .deepChain
    default: .standard
    }
  }
}

/// One generated input: where it is and what it is.
public struct HostileInput {
  public let path: String
  public let format: FormatDescriptor
  public let hostileCase: HostileCase
}

/// Why a case cannot be made for a format (the format cannot carry what the case needs).
public struct NotApplicable: Error, CustomStringConvertible {
  public let description: String
}

/// Builds `HostileCase`s in a folder.
public struct HostileInputGenerator {
  public let format: FormatDescriptor
  public let folder: String

  public init(format: FormatDescriptor, folder: String) {
    self.format = format
    self.folder = folder
  }

  /// The date of the standard model's all-day reminder, and how formats spell it.
  static let sentinelDates = ["2026-11-17", "20261117"]

  static let list = ReminderList(id: "hostile-list", name: "Errands")

  /// A small model with a non-ASCII title, an all-day due date, notes over two lines and a subtask.
  static func standardModel() throws -> [Reminder] {
    [
      Reminder(
        id: "hostile-1", listID: list.id, title: "Café crème for Zoë", notes: "Line one\nLine two",
        dueDate: try DueDate(isoText: sentinelDates[0], timeZone: nil)),
      Reminder(id: "hostile-2", listID: list.id, title: "Post the letters", priority: .high),
      Reminder(id: "hostile-3", listID: list.id, parentID: "hostile-2", title: "Buy stamps"),
    ]
  }

  /// Writes the case and returns it; throws `NotApplicable` when the format cannot carry it.
  public func make(_ hostileCase: HostileCase) throws -> HostileInput {
    let name = hostileCase.rawValue + "." + (format.extensions.first ?? "txt")
    let path = folder + "/" + name
    switch hostileCase {
    case .empty:
      try writeDocument([], named: name)
    case .wrongKindOfPath:
      if format.isDirectory {
        _ = FileManager.default.createFile(atPath: path, contents: Data("not a folder\n".utf8))
      } else {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
      }
    default:
      let document = try base(for: hostileCase, named: name)
      try writeDocument(try mutate(document, for: hostileCase), named: name)
    }
    return HostileInput(path: path, format: format, hostileCase: hostileCase)
  }

  // MARK: Bases

  /// The bytes the case starts from (for a folder format: of its largest file).
  private func base(for hostileCase: HostileCase, named name: String) throws -> [UInt8] {
    switch hostileCase.base {
    case .standard:
      if format.canWrite { return try written(try Self.standardModel(), named: name) }
      return try sampleDocument(copiedTo: name)
    case .duplicateUIDs:
      guard format.canWrite else {
        throw NotApplicable(description: "\(format.name) cannot write: no document with duplicate UIDs")
      }
      var model = try Self.standardModel()
      model.append(Reminder(id: "hostile-1", listID: Self.list.id, title: "Another reminder with the same UID"))
      let bytes = try written(model, named: name)
      guard String(decoding: bytes, as: UTF8.self).components(separatedBy: "hostile-1").count > 2 else {
        throw NotApplicable(description: "\(format.name) does not write UIDs")
      }
      return bytes
    case .deepChain:
      guard format.canWrite else { throw NotApplicable(description: "\(format.name) cannot write: no deep chain") }
      let chain = (0..<10_000).map { level in
        Reminder(
          id: "deep-\(level)", listID: Self.list.id, parentID: level == 0 ? nil : "deep-\(level - 1)",
          title: "Level \(level)")
      }
      return try written(chain, named: name)
    }
  }

  /// What the format's writer makes of `reminders` (for a folder format, written as a folder
  /// at `name`; the bytes are those of its largest file). A writer that refuses the model (a
  /// folder format cannot hold two files for one UID) makes the case not applicable.
  private func written(_ reminders: [Reminder], named name: String) throws -> [UInt8] {
    do {
      return try writing(reminders, named: name)
    } catch let error as RemconvError {
      throw NotApplicable(description: "the \(format.name) writer refuses the case's model: \(error)")
    }
  }

  private func writing(_ reminders: [Reminder], named name: String) throws -> [UInt8] {
    guard let makeWriter = format.makeWriter else { throw NotApplicable(description: "\(format.name) cannot write") }
    let diagnostics = DiagnosticLog()
    let output = ByteWriter()
    let target: OutputTarget = format.isDirectory ? .directory(folder + "/" + name) : .stream(output)
    let writer = try makeWriter(WriterContext(target: target, diagnostics: diagnostics))
    // Outline order: a parent before its subtasks, with their depth.
    var depth: [String: Int] = [:]
    try writer.beginList(Self.list)
    for reminder in reminders {
      let level = reminder.parentID.flatMap { depth[$0].map { $0 + 1 } } ?? 0
      depth[reminder.id] = level
      try writer.write(reminder, in: Self.list, depth: level)
    }
    try writer.endList(Self.list)
    try writer.finish()
    if format.isDirectory { return try largestFile(in: folder + "/" + name).bytes }
    try output.flush()
    return output.memory
  }

  /// The first sample of a format that cannot write (copied, for a folder format).
  private func sampleDocument(copiedTo name: String) throws -> [UInt8] {
    guard let samples = FormatFolders.existing(in: "Samples", for: format.name) else {
      throw NotApplicable(description: "\(format.name) cannot write and has no Samples/ folder to start from")
    }
    if format.isDirectory {
      try FileManager.default.copyItem(atPath: samples, toPath: folder + "/" + name)
      return try largestFile(in: folder + "/" + name).bytes
    }
    let files = try FileManager.default.contentsOfDirectory(atPath: samples).sorted()
    guard let first = files.first, let data = FileManager.default.contents(atPath: samples + "/" + first) else {
      throw NotApplicable(description: "Samples/ holds no file for \(format.name)")
    }
    return Array(data)
  }

  /// The largest regular file under `root`: the item a folder format's case changes.
  private func largestFile(in root: String) throws -> (path: String, bytes: [UInt8]) {
    var best: (path: String, bytes: [UInt8])?
    let enumerator = FileManager.default.enumerator(atPath: root)
    while let relative = enumerator?.nextObject() as? String {
      let path = root + "/" + relative
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
        let data = FileManager.default.contents(atPath: path)
      else { continue }
      if data.count > (best?.bytes.count ?? -1) { best = (path, Array(data)) }
    }
    guard let best else { throw NotApplicable(description: "\(root) holds no file") }
    return best
  }

  /// Puts `bytes` where the case's document goes: the file, or a folder format's largest file.
  private func writeDocument(_ bytes: [UInt8], named name: String) throws {
    var path = folder + "/" + name
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
      path = try largestFile(in: path).path
    } else if format.isDirectory {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
      path += "/item." + (format.extensions.first ?? "ics")
    }
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
      throw NotApplicable(description: "cannot write \(path)")
    }
  }

  // MARK: Mutations

  private func mutate(_ document: [UInt8], for hostileCase: HostileCase) throws -> [UInt8] {
    switch hostileCase {
    case .empty, .wrongKindOfPath, .deepSubtasks, .duplicateUIDs:
      return document
    case .truncated:
      let line = Self.longestLine(document)
      return Array(document[0..<(line.lowerBound + line.count / 2)])
    case .latin1:
      let text = String(decoding: document, as: UTF8.self)
      if text.unicodeScalars.contains(where: { $0.value > 0x7F }) {
        return text.unicodeScalars.map { $0.value <= 0xFF ? UInt8($0.value) : UInt8(ascii: "?") }
      }
      return Self.inserting([0xE9], intoLongestLineOf: document)
    case .utf16:
      let text = String(decoding: document, as: UTF8.self)
      return [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    case .nulByte:
      return Self.inserting([0], intoLongestLineOf: document)
    case .hugeLine:
      return Self.inserting([UInt8](repeating: UInt8(ascii: "x"), count: 50 << 20), intoLongestLineOf: document)
    case .impossibleDate:
      return try Self.replacingFirstDate(in: document) { year, _, _, extended in
        extended ? "\(year)-13-99" : "\(year)1399"
      }
    case .yearOutOfRange:
      return try Self.replacingFirstDate(in: document) { _, month, day, extended in
        extended ? "99999-\(month)-\(day)" : "99999\(month)\(day)"
      }
    }
  }

  /// The byte range of the longest line (without its terminator).
  static func longestLine(_ bytes: [UInt8]) -> Range<Int> {
    var best = 0..<0
    var start = 0
    for index in 0...bytes.count where index == bytes.count || bytes[index] == 0x0A || bytes[index] == 0x0D {
      if index - start > best.count { best = start..<index }
      start = index + 1
    }
    return best
  }

  static func inserting(_ inserted: [UInt8], intoLongestLineOf bytes: [UInt8]) -> [UInt8] {
    let line = longestLine(bytes)
    var result = bytes
    result.insert(contentsOf: inserted, at: line.lowerBound + line.count / 2)
    return result
  }

  /// Replaces the first date (`YYYY-MM-DD` or `YYYYMMDD`, preferring the standard model's) with
  /// what `replacement(year, month, day, extended)` returns.
  static func replacingFirstDate(
    in bytes: [UInt8], _ replacement: (String, String, String, Bool) -> String
  ) throws -> [UInt8] {
    let text = String(decoding: bytes, as: UTF8.self)
    let date = #"(?<![0-9])[12][0-9]{3}-?[01][0-9]-?[0-3][0-9](?![0-9])"#
    var found: Range<String.Index>?
    for sentinel in sentinelDates {
      if let range = text.range(of: sentinel) {
        found = range
        break
      }
    }
    // In a sample, the first date after a "due" key (dueDate, due, DUE, Due Date, …), which a
    // reader must check, rather than a time stamp it may keep as it is.
    if found == nil, let due = text.range(of: #"(?i)due[^\n]{0,24}?"# + date, options: .regularExpression) {
      found = text[due].range(of: date, options: .regularExpression)
    }
    if found == nil { found = text.range(of: date, options: .regularExpression) }
    guard let range = found else { throw NotApplicable(description: "the document holds no date") }
    let digits = text[range].filter(\.isNumber)
    let characters = Array(digits)
    let year = String(characters[0..<4])
    let month = String(characters[4..<6])
    let day = String(characters[6..<8])
    let extended = text[range].contains("-")
    return Array((text.replacingCharacters(in: range, with: replacement(year, month, day, extended))).utf8)
  }
}
