import Foundation

/// What a path names, from the mode `stat` or `lstat` gives: outputs and stores behave
/// differently for each (a FIFO is written into, a device is never replaced).
public enum FileKind: Equatable, Sendable, CustomStringConvertible {
  case regular, directory, symbolicLink, fifo, characterDevice, blockDevice, socket, unknown

  public init(mode: mode_t) {
    switch mode & S_IFMT {
    case S_IFREG: self = .regular
    case S_IFDIR: self = .directory
    case S_IFLNK: self = .symbolicLink
    case S_IFIFO: self = .fifo
    case S_IFCHR: self = .characterDevice
    case S_IFBLK: self = .blockDevice
    case S_IFSOCK: self = .socket
    default: self = .unknown
    }
  }

  /// The kind of `path` itself (a link is not followed), or nil when there is nothing there.
  public static func of(_ path: String) -> FileKind? {
    var status = stat()
    return lstat(path, &status) == 0 ? FileKind(mode: status.st_mode) : nil
  }

  /// The kind of what `path` leads to, through links, or nil when that does not exist.
  public static func following(_ path: String) -> FileKind? {
    var status = stat()
    return stat(path, &status) == 0 ? FileKind(mode: status.st_mode) : nil
  }

  /// A FIFO or a character device (a terminal, `/dev/null`): written into, never replaced.
  public var isStream: Bool { self == .fifo || self == .characterDevice }

  public var description: String {
    switch self {
    case .regular: "regular file"
    case .directory: "directory"
    case .symbolicLink: "symbolic link"
    case .fifo: "FIFO"
    case .characterDevice: "character device"
    case .blockDevice: "block device"
    case .socket: "socket"
    case .unknown: "special file"
    }
  }
}
