import Foundation

/// A file written safely: into a temporary file beside the target, moved into place only when
/// everything was written. A failed export leaves no half-written file, an existing file is
/// replaced only with `force`, and a symbolic link planted at the target is never followed.
public final class OutputFile {
  public let path: String
  public let writer: ByteWriter
  private let temporaryPath: String
  private let descriptor: Int32
  private let force: Bool
  private var isFinished = false

  public init(path: String, force: Bool) throws(RemconvError) {
    self.path = path
    self.force = force
    var status = stat()
    if lstat(path, &status) == 0 {
      if (status.st_mode & S_IFMT) == S_IFDIR {
        throw .cannotCreateOutput("\(path): is a directory")
      }
      if !force {
        throw .cannotCreateOutput("\(path): already exists (use --force to replace it)")
      }
    }
    let url = URL(fileURLWithPath: path)
    let directory = url.deletingLastPathComponent().path
    let temporary = directory + "/." + url.lastPathComponent + ".remconv-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      let reason = String(cString: strerror(errno)).lowercased()
      throw .cannotCreateOutput("\(path): cannot create: \(reason)")
    }
    self.temporaryPath = temporary
    self.descriptor = descriptor
    self.writer = ByteWriter(fileDescriptor: descriptor, name: path)
  }

  deinit {
    if !isFinished {
      close(descriptor)
      unlink(temporaryPath)
    }
  }

  /// Flushes, syncs and moves the file into place.
  public func commit() throws(RemconvError) {
    try writer.flush()
    guard fsync(descriptor) == 0 else {
      let reason = String(cString: strerror(errno)).lowercased()
      throw .ioFailure("\(path): sync failed: \(reason)")
    }
    close(descriptor)
    isFinished = true
    if force {
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
