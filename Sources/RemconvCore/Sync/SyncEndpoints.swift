import Foundation

/// Makes the endpoint a remote's URL names: the one place that knows every kind of remote.
public enum SyncEndpoints {
  /// The endpoint for `remote`: a `VdirEndpoint` for a folder, a `CalDAVEndpoint` for an http
  /// or https URL. `password` is the one `remote.password` gave for this sync; nothing keeps it.
  /// `discoveredHome` is where an earlier sync found the collections (`SyncEndpoint.discoveredHome`);
  /// `storedTokens` the token the store holds for each of the remote's collections
  /// (`SyncCollectionState.syncToken`), which tell what the remote gives.
  public static func endpoint(
    for remote: RemoteConfiguration, password: String?, discoveredHome: String? = nil, storedTokens: [String?] = [],
    policy: HTTPPolicy = .standard
  ) throws(SyncError) -> any SyncEndpoint {
    switch remote.kind {
    case .vdir(let path): return try VdirEndpoint(root: path)
    case .caldav(let url):
      // A remote an earlier remconv added with its password in the URL.
      guard !remote.kind.holdsCredentials else {
        throw .authenticationRefused(
          "the remote's URL holds a user name or password, which are never used from a URL: "
            + "add the remote again with its user and where its password comes from")
      }
      return try CalDAVEndpoint(
        url: url, user: remote.user, password: password, policy: policy,
        knownHome: discoveredHome.flatMap { URL(string: $0) }, storedTokens: storedTokens)
    }
  }
}

extension PasswordSource {
  /// The password, read now: the variable's value, or the first line the command prints on
  /// standard output (run by `/bin/sh -c`, its standard error left to the terminal). It is
  /// never stored, printed or passed on a command line, and appears in no message.
  ///
  /// - Throws: `SyncError.authenticationRefused` when the variable is unset or empty, or the
  ///   command fails or prints nothing (a sync without the password cannot authenticate).
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
      process.standardInput = FileHandle.nullDevice
      do {
        try process.run()
      } catch {
        throw .authenticationRefused("the password command cannot be run: \(error.localizedDescription)")
      }
      let bytes = output.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      guard process.terminationReason == .exit, process.terminationStatus == 0 else {
        throw .authenticationRefused("the password command failed (exit status \(process.terminationStatus))")
      }
      // The first line: `pass show` prints the password there and other fields after it.
      var password = String(String(decoding: bytes, as: UTF8.self).prefix { $0 != "\n" })
      if password.hasSuffix("\r") { password.removeLast() }
      guard !password.isEmpty else { throw .authenticationRefused("the password command printed no password") }
      return password
    }
  }
}
