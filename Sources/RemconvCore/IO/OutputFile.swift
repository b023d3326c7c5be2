import Foundation

/// A file written safely: into a temporary file beside the target, moved into place only when
/// everything was written. A failed export leaves no half-written file, an existing file is
/// replaced only with `force`, and a symbolic link planted at the target is never followed.
///
/// What the target is decides what happens:
/// - nothing: created (mode 0600, like the store);
/// - a regular file: replaced, only with `force`;
/// - a FIFO or a character device (`/dev/null`, a terminal), or a link to one (`/dev/stdout`):
///   written into, with or without `force`, never replaced;
/// - a symbolic link to anything else: the link itself is replaced with `force`, its target
///   never touched;
/// - a folder, a block device, a socket: refused, even with `force`.
public final class OutputFile {
  public let path: String
  public let writer: ByteWriter
  private let descriptor: Int32
  private let force: Bool
  /// The file written before it is moved into place; nil when writing into a stream.
  private let temporaryPath: String?
  private let registration: TemporaryPaths.Registration?
  private var isFinished = false

  /// The mode of a created file: the store's, since an export holds all the store holds.
  public static let mode: mode_t = 0o600

  public init(path: String, force: Bool, protecting store: StoreFiles? = nil) throws(RemconvError) {
    self.path = path
    self.force = force
    if let store, let refusal = store.refusal(for: path) {
      throw .cannotCreateOutput("\(path): \(refusal); refusing to write there")
    }
    if let kind = FileKind.of(path) {
      let target = kind == .symbolicLink ? FileKind.following(path) : kind
      if let target, target.isStream {
        descriptor = try Self.openStream(path)
        temporaryPath = nil
        registration = nil
        writer = ByteWriter(fileDescriptor: descriptor, name: path)
        return
      }
      try Self.requireReplaceable(path, kind: kind, force: force)
    }
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    TemporaryPaths.removeLeftovers(in: folder)
    let temporary = TemporaryPaths.name(beside: path)
    let registration = TemporaryPaths.register(temporary)
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, Self.mode)
    guard descriptor >= 0 else {
      let reason = String(cString: strerror(errno)).lowercased()
      TemporaryPaths.unregister(registration)
      throw .cannotCreateOutput("\(path): cannot create: \(reason)")
    }
    self.temporaryPath = temporary
    self.registration = registration
    self.descriptor = descriptor
    self.writer = ByteWriter(fileDescriptor: descriptor, name: path)
  }

  deinit {
    if !isFinished {
      close(descriptor)
      if let temporaryPath { unlink(temporaryPath) }
      TemporaryPaths.unregister(registration)
    }
  }

  /// Whether the output goes into an existing FIFO or device rather than a file of its own.
  public var isStream: Bool { temporaryPath == nil }

  /// Refuses a target that may not be replaced: anything without `force`, and with it
  /// anything but a regular file or a link (the link itself is replaced).
  private static func requireReplaceable(_ path: String, kind: FileKind, force: Bool) throws(RemconvError) {
    switch kind {
    case .directory:
      throw .cannotCreateOutput("\(path): is a directory")
    case .regular, .symbolicLink:
      if !force { throw .cannotCreateOutput("\(path): already exists (use --force to replace it)") }
    default:
      throw .cannotCreateOutput("\(path): is a \(kind), not a regular file: never replaced, even with --force")
    }
  }

  /// Opens a FIFO or a device to write into it, as a shell's `>` does (a FIFO waits for its
  /// reader). Only one owned by this user or by root: a FIFO another user planted where an
  /// export was to go (in /tmp) would hand them the export. What was opened is checked again:
  /// a regular file swapped in since the check would be written over in place.
  private static func openStream(_ path: String) throws(RemconvError) -> Int32 {
    var found = stat()
    if stat(path, &found) == 0, found.st_uid != geteuid(), found.st_uid != 0 {
      throw .cannotCreateOutput(
        "\(path): a \(FileKind(mode: found.st_mode)) owned by another user; refusing to write into it")
    }
    var descriptor: Int32
    repeat {
      descriptor = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)
    } while descriptor < 0 && errno == EINTR
    guard descriptor >= 0 else {
      throw .cannotCreateOutput("\(path): cannot open: \(String(cString: strerror(errno)).lowercased())")
    }
    var status = stat()
    guard fstat(descriptor, &status) == 0, FileKind(mode: status.st_mode).isStream,
      status.st_dev == found.st_dev, status.st_ino == found.st_ino
    else {
      close(descriptor)
      throw .cannotCreateOutput("\(path): changed while it was opened; nothing was written")
    }
    return descriptor
  }

  /// Flushes, syncs and moves the file into place (or, for a stream, flushes and closes it).
  public func commit() throws(RemconvError) {
    try writer.flush()
    guard let temporaryPath else {
      isFinished = true
      close(descriptor)
      return
    }
    guard fsync(descriptor) == 0 else {
      let reason = String(cString: strerror(errno)).lowercased()
      throw .ioFailure("\(path): sync failed: \(reason)")
    }
    close(descriptor)
    isFinished = true
    defer { TemporaryPaths.unregister(registration) }
    if force {
      // The target may have changed since it was checked; it must still be replaceable.
      if let kind = FileKind.of(path) {
        do {
          try Self.requireReplaceable(path, kind: kind, force: true)
        } catch {
          unlink(temporaryPath)
          throw error
        }
      }
      // rename() replaces a symbolic link itself, never the file it points to.
      guard rename(temporaryPath, path) == 0 else {
        let reason = String(cString: strerror(errno)).lowercased()
        unlink(temporaryPath)
        throw .cannotCreateOutput("\(path): cannot replace: \(reason)")
      }
    } else {
      // link() fails when anything, a planted link included, appeared at the target meanwhile.
      guard link(temporaryPath, path) == 0 else {
        let reason = String(cString: strerror(errno)).lowercased()
        unlink(temporaryPath)
        throw .cannotCreateOutput("\(path): cannot create: \(reason)")
      }
      unlink(temporaryPath)
    }
  }
}
