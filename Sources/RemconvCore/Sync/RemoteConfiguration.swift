import Foundation

/// A remote as `remconv remote add` records it: never the password, only where to get it.
public struct RemoteConfiguration: Sendable, Equatable {
  /// The user's name for the remote (`remconv sync NAME`).
  public var name: String
  /// The URL given: a CalDAV server root, principal, calendar home or collection (http, https),
  /// or a local folder (a path or `file://`), which makes a vdir remote.
  public var url: String
  public var user: String?
  public var password: PasswordSource?

  public init(name: String, url: String, user: String?, password: PasswordSource?) {
    self.name = name
    self.url = url
    self.user = user
    self.password = password
  }

  /// What kind of endpoint `url` makes.
  public var kind: RemoteKind { RemoteKind(url: url) }
}

/// Which endpoint a remote's URL makes.
public enum RemoteKind: Sendable, Equatable {
  /// A local folder of vdir collections, at this absolute or relative path.
  case vdir(path: String)
  /// A CalDAV server (http or https).
  case caldav(URL)

  public init(url: String) {
    let lowered = url.lowercased()
    if lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), let parsed = URL(string: url) {
      self = .caldav(parsed)
    } else if lowered.hasPrefix("file://"), let parsed = URL(string: url) {
      self = .vdir(path: parsed.path)
    } else {
      self = .vdir(path: url)
    }
  }
}

extension RemoteKind {
  /// Whether a CalDAV URL holds a user name or a password (`https://ana:secret@host/`): a
  /// password there would be stored and printed, so such a URL is never taken.
  public var holdsCredentials: Bool {
    guard case .caldav(let url) = self else { return false }
    return url.user != nil || url.password != nil
  }
}

extension RemoteConfiguration {
  /// The URL as it may be shown: a password an earlier remconv kept in it replaced by `***`.
  public var shownURL: String {
    guard kind.holdsCredentials, var components = URLComponents(string: url) else { return url }
    if components.password != nil { components.password = "***" }
    return components.string ?? url
  }
}

/// Where the password of a remote comes from at each sync. The password itself is never
/// stored, printed, logged, or passed on a command line.
public enum PasswordSource: Sendable, Equatable {
  /// The environment variable of this name.
  case environment(String)
  /// The standard output of this shell command (its last newline removed), as `pass show dav`.
  case command(String)

  /// The kind as the store records it (`env`, `command`).
  public var kind: String {
    switch self {
    case .environment: "env"
    case .command: "command"
    }
  }

  /// The variable's name or the command.
  public var reference: String {
    switch self {
    case .environment(let name), .command(let name): name
    }
  }

  public init?(kind: String, reference: String) {
    switch kind {
    case "env": self = .environment(reference)
    case "command": self = .command(reference)
    default: return nil
    }
  }
}
