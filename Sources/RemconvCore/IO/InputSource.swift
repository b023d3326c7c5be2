import Foundation

/// Where an import or conversion reads from.
public enum InputSource: Sendable {
  case file(String)
  case standardInput
  /// A folder, for formats stored as one file per item (vdir).
  case directory(String)

  /// `-` is standard input; a folder is a directory source; anything else is a file.
  public static func resolve(_ argument: String) throws(RemconvError) -> InputSource {
    if argument == "-" { return .standardInput }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else {
      throw .inputMissing("\(argument): no such file or directory")
    }
    return isDirectory.boolValue ? .directory(argument) : .file(argument)
  }

  /// The name used in messages.
  public var displayName: String {
    switch self {
    case .file(let path), .directory(let path): path
    case .standardInput: "<stdin>"
    }
  }

  /// The file's base name without extension: the default list name for sources without one.
  public var baseName: String? {
    switch self {
    case .file(let path), .directory(let path):
      let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
      return name.isEmpty ? nil : name
    case .standardInput: return nil
    }
  }

  /// The lower-cased file name, for formats known by a whole name (`todo.txt`).
  public var fileName: String? {
    guard case .file(let path) = self else { return nil }
    return URL(fileURLWithPath: path).lastPathComponent.lowercased()
  }

  /// The lower-cased extension, if any.
  public var fileExtension: String? {
    guard case .file(let path) = self else { return nil }
    let ext = URL(fileURLWithPath: path).pathExtension.lowercased()
    return ext.isEmpty ? nil : ext
  }

  /// Refuses an input of zero bytes: it is almost always a failed download or a pipeline whose
  /// producer died, and importing "nothing" would hide that. Only regular files and standard
  /// input are checked (a named pipe reports size 0 before it is read); a folder is its
  /// format's business.
  public func requireContent(preopened: ByteReader?) throws(RemconvError) {
    let isEmpty: Bool
    switch self {
    case .file(let path):
      var status = stat()
      isEmpty = stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG && status.st_size == 0
    case .standardInput:
      isEmpty = try preopened?.peekPrefix(1).isEmpty ?? false
    case .directory:
      isEmpty = false
    }
    if isEmpty {
      throw .malformedInput("the input is empty (0 bytes)", at: SourceLocation(file: displayName, line: 1))
    }
  }

  /// A byte reader over a file or standard input.
  public func openReader() throws(RemconvError) -> ByteReader {
    switch self {
    case .standardInput:
      return ByteReader(fileDescriptor: 0, name: displayName, ownsDescriptor: false)
    case .file(let path):
      return try ByteReader.open(path: path)
    case .directory(let path):
      throw .invalidInput("\(path): is a directory; this format reads a single file")
    }
  }
}
