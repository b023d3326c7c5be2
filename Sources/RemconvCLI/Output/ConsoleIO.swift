import Foundation
import RemconvCore

/// The streams a command uses. `standard` is the process's; `capturing` keeps everything in
/// memory so tests run commands in-process.
public final class ConsoleIO {
  public let output: ByteWriter
  public let errors: ByteWriter
  private let inputBytes: [UInt8]?
  public let isOutputTerminal: Bool
  public let isErrorTerminal: Bool
  public let isInputTerminal: Bool

  init(
    output: ByteWriter, errors: ByteWriter, input: [UInt8]?, isOutputTerminal: Bool, isErrorTerminal: Bool,
    isInputTerminal: Bool
  ) {
    self.output = output
    self.errors = errors
    self.inputBytes = input
    self.isOutputTerminal = isOutputTerminal
    self.isErrorTerminal = isErrorTerminal
    self.isInputTerminal = isInputTerminal
  }

  public static func standard() -> ConsoleIO {
    ConsoleIO(
      output: .standardOutput(), errors: ByteWriter(fileDescriptor: 2, name: "<stderr>"), input: nil,
      isOutputTerminal: isatty(1) == 1, isErrorTerminal: isatty(2) == 1, isInputTerminal: isatty(0) == 1)
  }

  /// In-memory streams; `input` is what standard input holds.
  public static func capturing(input: String = "", terminal: Bool = false) -> ConsoleIO {
    ConsoleIO(
      output: ByteWriter(), errors: ByteWriter(), input: Array(input.utf8), isOutputTerminal: terminal,
      isErrorTerminal: terminal, isInputTerminal: terminal)
  }

  /// The stream `path` names when it is one of this process's standard streams under another
  /// name (`/dev/stdout`, `/dev/fd/2`, or the file the shell redirected it to): written
  /// through that stream, so that an output redirected with `>>` is appended to, and a link
  /// such as `/dev/stdout` is never replaced. Standard input is refused.
  func standardStream(at path: String) throws(RemconvError) -> ByteWriter? {
    guard !isCapturing else { return nil }
    var target = stat()
    guard stat(path, &target) == 0 else { return nil }
    for descriptor: Int32 in [0, 1, 2] {
      var stream = stat()
      guard fstat(descriptor, &stream) == 0, stream.st_dev == target.st_dev, stream.st_ino == target.st_ino else {
        continue
      }
      switch descriptor {
      case 1: return output
      case 2: return errors
      default:
        // A terminal is one device for all three streams: written into like any device.
        if FileKind(mode: target.st_mode).isStream { continue }
        throw .cannotCreateOutput("\(path): is standard input; refusing to write there")
      }
    }
    return nil
  }

  private var isCapturing: Bool { inputBytes != nil }

  /// A reader over standard input.
  public func standardInput() -> ByteReader {
    if let inputBytes { return ByteReader(bytes: inputBytes, name: "<stdin>") }
    return ByteReader(fileDescriptor: 0, name: "<stdin>", ownsDescriptor: false)
  }

  /// Everything written to standard output so far (capturing streams).
  public var outputText: String {
    try? output.flush()
    return output.text
  }

  public var errorText: String {
    try? errors.flush()
    return errors.text
  }

  /// Writes a line to standard output.
  public func print(_ line: String) {
    try? output.write(line)
    try? output.write(byte: 0x0A)
  }

  /// Writes a line to standard error and flushes it, so it shows while work goes on.
  /// Prints a line on stderr. What a message quotes from outside (a server's error body, a zip
  /// entry's name, a file's text) cannot move the cursor or start an escape sequence: control
  /// characters but line breaks and tabs are written as `\u{1B}`.
  public func printError(_ line: String) {
    try? errors.write(TerminalText.escapingControls(line))
    try? errors.write(byte: 0x0A)
    try? errors.flush()
  }
}
