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
  public func printError(_ line: String) {
    try? errors.write(line)
    try? errors.write(byte: 0x0A)
    try? errors.flush()
  }
}
