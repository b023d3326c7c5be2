import Foundation
import Synchronization

/// The temporary files and folders remconv writes before moving them into place
/// (`.NAME.remconv-PID-RANDOM` beside the target), and what removes them when the run does
/// not get to: SIGINT, SIGTERM and SIGHUP remove the registered ones and then end the process
/// by the same signal; a SIGKILL leaves them, and the next run that writes into the same
/// folder removes those whose process is gone.
///
/// The signal handler may only make async-signal-safe calls, so the registry is a fixed table
/// allocated before the handler is installed (paths as C strings, a state per slot published
/// with release ordering), and a folder is removed with `openat`, `getdents64`, `unlinkat`:
/// no allocation, no lock, nothing Swift's runtime does behind a call.
public enum TemporaryPaths {
  /// How many paths can be registered at once: an output file, a vdir stage and the file being
  /// written in it, a backup. A path that finds the table full is still removed on failure
  /// and by the next run, only not from the signal handler.
  static let capacity = 16
  static let pathCapacity = Int(PATH_MAX)
  /// Folder levels the handler descends into: a vdir stage holds list folders of files.
  static let depthLimit = 4
  static let listingCapacity = 16_384

  /// A claim on a slot of the table; `nil` when the table was full.
  public struct Registration: Sendable {
    let slot: Int
  }

  private static let free: Int32 = 0
  private static let claimed: Int32 = 1
  private static let armed: Int32 = 2

  private typealias DirectoryEntries = @convention(c) (Int32, UnsafeMutableRawPointer?, Int) -> Int

  /// Everything the handler touches, made once before it is installed.
  private final class Table: @unchecked Sendable {
    let states = UnsafeMutablePointer<Atomic<Int32>>.allocate(capacity: TemporaryPaths.capacity)
    let paths = UnsafeMutablePointer<CChar>.allocate(capacity: TemporaryPaths.capacity * TemporaryPaths.pathCapacity)
    let listings = UnsafeMutableRawPointer.allocate(
      byteCount: TemporaryPaths.depthLimit * TemporaryPaths.listingCapacity, alignment: 8)
    /// glibc's `getdents64`, which Swift's Glibc module does not declare.
    let entries: DirectoryEntries?

    init() {
      for slot in 0..<TemporaryPaths.capacity { (states + slot).initialize(to: Atomic(TemporaryPaths.free)) }
      entries = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "getdents64").map {
        unsafeBitCast($0, to: DirectoryEntries.self)
      }
    }
  }

  private static let table = Table()
  private static let installed = Mutex(false)
  private static let cleanedFolders = Mutex(Set<String>())

  // MARK: Names

  /// A fresh temporary name beside `path`: `.NAME.remconv-PID-RANDOM` in its folder.
  public static func name(beside path: String) -> String {
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent().path
    return folder + "/." + url.lastPathComponent + ".remconv-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
  }

  /// The process id in a temporary name made by `name(beside:)`, or nil when `name` is not one.
  static func owner(ofTemporaryName name: String) -> pid_t? {
    guard name.hasPrefix("."), let marker = name.range(of: ".remconv-", options: .backwards),
      marker.lowerBound > name.index(after: name.startIndex)
    else { return nil }
    let fields = name[marker.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
    guard fields.count == 2, fields.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
      let pid = pid_t(fields[0]), pid > 0, UInt32(fields[1]) != nil
    else { return nil }
    return pid
  }

  // MARK: Registry

  /// Registers `path` (a file or a folder) for removal should a signal end the run, installing
  /// the handlers on first use.
  public static func register(_ path: String) -> Registration? {
    installHandlers()
    let bytes = Array(path.utf8)
    guard bytes.count < pathCapacity, !bytes.contains(0) else { return nil }
    let table = table
    for slot in 0..<capacity {
      guard table.states[slot].compareExchange(expected: free, desired: claimed, ordering: .acquiring).exchanged else {
        continue
      }
      let destination = table.paths + slot * pathCapacity
      bytes.withUnsafeBufferPointer { source in
        source.withMemoryRebound(to: CChar.self) { (destination).update(from: $0.baseAddress!, count: $0.count) }
      }
      destination[bytes.count] = 0
      table.states[slot].store(armed, ordering: .releasing)
      return Registration(slot: slot)
    }
    return nil
  }

  /// Forgets a registration: its path was moved into place or removed.
  public static func unregister(_ registration: Registration?) {
    guard let registration else { return }
    table.states[registration.slot].store(free, ordering: .releasing)
  }

  private static func installHandlers() {
    installed.withLock { done in
      guard !done else { return }
      done = true
      _ = table
      for signal in [SIGINT, SIGTERM, SIGHUP] {
        var previous = sigaction()
        guard sigaction(signal, nil, &previous) == 0 else { continue }
        // A signal the parent set to be ignored (nohup, a background job) stays ignored.
        if unsafeBitCast(previous.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
        {
          continue
        }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in
          TemporaryPaths.removeRegistered()
          // Blocked while the handler runs: delivered, with the default action, on return,
          // so the process ends as the signal says (a shell sees 128 + its number).
          Glibc.signal(signal, SIG_DFL)
          raise(signal)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(signal, &action, nil)
      }
    }
  }

  /// Removes every armed path. Async-signal-safe.
  private static func removeRegistered() {
    let table = table
    for slot in 0..<capacity where table.states[slot].load(ordering: .acquiring) == armed {
      let path = table.paths + slot * pathCapacity
      if unlink(path) != 0, errno == EISDIR || errno == EPERM {
        removeTree(at: AT_FDCWD, path, depth: 0)
      }
    }
  }

  /// Removes a folder and what it holds without following a link (a link is removed itself).
  /// Async-signal-safe: only system calls, into buffers allocated beforehand.
  private static func removeTree(at parent: Int32, _ name: UnsafePointer<CChar>, depth: Int) {
    let table = table
    guard depth < depthLimit, let entries = table.entries else { return }
    let folder = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard folder >= 0 else { return }
    let buffer = table.listings + depth * listingCapacity
    // Removing entries while listing may make the listing skip some: list again until a pass
    // removes nothing more.
    for _ in 0..<8 {
      _ = lseek(folder, 0, SEEK_SET)
      var removed = 0
      while true {
        let count = entries(folder, buffer, listingCapacity)
        guard count > 0 else { break }
        var offset = 0
        while offset < count {
          let length = Int(buffer.load(fromByteOffset: offset + 16, as: UInt16.self))
          let type = buffer.load(fromByteOffset: offset + 18, as: UInt8.self)
          let entry = (buffer + offset + 19).assumingMemoryBound(to: CChar.self)
          offset += length
          if entry[0] == 0x2E && (entry[1] == 0 || (entry[1] == 0x2E && entry[2] == 0)) { continue }
          if type == UInt8(DT_DIR) {
            removeTree(at: folder, entry, depth: depth + 1)
            removed += 1
          } else if unlinkat(folder, entry, 0) == 0 {
            removed += 1
          } else if errno == EISDIR {
            removeTree(at: folder, entry, depth: depth + 1)
            removed += 1
          }
        }
      }
      if removed == 0 { break }
    }
    close(folder)
    unlinkat(parent, name, AT_REMOVEDIR)
  }

  /// Removes a folder and its contents without following links (failure cleanup).
  public static func removeFolder(_ path: String) {
    path.withCString { removeTreeLocked($0) }
  }

  /// The handler's buffers are shared; outside the handler one removal runs at a time.
  private static let removal = Mutex(())

  private static func removeTreeLocked(_ path: UnsafePointer<CChar>) {
    removal.withLock { _ in removeTree(at: AT_FDCWD, path, depth: 0) }
  }

  // MARK: Leftovers

  /// Removes, once per run and folder, the temporary files and folders a killed run left in
  /// `folder`: names made by `name(beside:)` exactly, owned by this user, whose process no
  /// longer exists.
  public static func removeLeftovers(in folder: String) {
    let isFirst = cleanedFolders.withLock { $0.insert(folder).inserted }
    guard isFirst, let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
    let me = getpid()
    for name in names {
      guard let pid = owner(ofTemporaryName: name), pid != me, kill(pid, 0) != 0, errno == ESRCH else { continue }
      let path = folder + "/" + name
      var status = stat()
      guard lstat(path, &status) == 0, status.st_uid == geteuid() else { continue }
      switch FileKind(mode: status.st_mode) {
      case .regular: unlink(path)
      case .directory: removeFolder(path)
      default: continue
      }
    }
  }
}
