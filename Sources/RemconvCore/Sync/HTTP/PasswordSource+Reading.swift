import Foundation

/// Reading the password at the start of a sync: it lives in memory for one run and appears in
/// no message.
extension PasswordSource {
  /// The password, read now: the variable's value, or the first line the command prints on
  /// standard output (run by `/bin/sh -c`, its standard error left to the terminal).
  ///
  /// - Throws: `SyncError.authenticationRefused` when the variable is unset or empty, or the
  ///   command fails or prints nothing (a sync without the password cannot authenticate).
  public func password(environment: [String: String] = ProcessInfo.processInfo.environment) throws(SyncError)
    -> String
  {
    switch self {
    case .environment(let name):
      guard let value = environment[name], !value.isEmpty else {
        throw .authenticationRefused("the password variable $\(name) is not set")
      }
      return value
    case .command(let command):
      return try Self.run(command)
    }
  }

  private static func run(_ command: String) throws(SyncError) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    let output = Pipe()
    process.standardOutput = output
    process.standardInput = FileHandle.nullDevice
    do { try process.run() } catch {
      throw .authenticationRefused("the password command could not be started: \(error.localizedDescription)")
    }
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    // The command's own words go to the user's terminal (its standard error is not captured);
    // what it printed on standard output is the secret and appears in no message.
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      throw .authenticationRefused("the password command failed (exit status \(process.terminationStatus))")
    }
    let firstLine =
      String(decoding: printed, as: UTF8.self)
      .split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
    let password = firstLine.hasSuffix("\r") ? String(firstLine.dropLast()) : firstLine
    guard !password.isEmpty else { throw .authenticationRefused("the password command printed no password") }
    return password
  }
}
