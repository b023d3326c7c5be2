import Foundation

/// Makes the endpoint a remote's URL names: the one place that knows every kind of remote.
public enum SyncEndpoints {
  /// Whether this build can sync with a remote of `kind`. CalDAV comes with the CalDAV
  /// client (issue 23); until then an http(s) URL is refused when the remote is added.
  public static func supports(_ kind: RemoteKind) -> Bool {
    switch kind {
    case .vdir: true
    case .caldav: false
    }
  }

  /// The endpoint for `remote`, or nil when this build has none for its kind (`supports`).
  /// `password` is the one `remote.password` gave for this sync; nothing keeps it.
  public static func endpoint(for remote: RemoteConfiguration, password: String?) throws(SyncError) -> (
    any SyncEndpoint
  )? {
    switch remote.kind {
    case .vdir(let path): try VdirEndpoint(root: path)
    case .caldav: nil
    }
  }
}

extension PasswordSource {
  /// The password, from the environment variable or the command's standard output (its
  /// trailing newline removed). It is never stored, printed or passed on a command line.
  public func resolve(environment: [String: String]) throws(SyncError) -> String {
    switch self {
    case .environment(let name):
      guard let value = environment[name], !value.isEmpty else {
        throw .authenticationRefused("the password variable $\(name) is not set")
      }
      return value
    case .command(let command):
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = ["-c", command]
      let output = Pipe()
      process.standardOutput = output
      do {
        try process.run()
      } catch {
        throw .authenticationRefused("the password command cannot be run: \(error.localizedDescription)")
      }
      let bytes = output.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      guard process.terminationStatus == 0 else {
        throw .authenticationRefused("the password command failed (exit status \(process.terminationStatus))")
      }
      var text = String(decoding: bytes, as: UTF8.self)
      if text.hasSuffix("\n") { text.removeLast() }
      return text
    }
  }
}
