import Foundation

/// A vdir folder as a sync remote (vdirsyncer's layout, which todoman and khal read): one
/// subfolder per collection, with `displayname` and `color` files, one `.ics` file per item.
///
/// An item's href is its file name and its ETag is its modification time, size and inode
/// (as vdirsyncer compares them): every editor that saves a file changes one of them, and a
/// listing reads no file. There are no sync tokens: each sync lists every file. Writes go
/// through a hidden temporary file in the collection: a create is a hard link (it fails when
/// the name is taken), an update a rename, so a reader never sees half an item.
public final class VdirEndpoint: SyncEndpoint {
  public let root: String

  /// A vdir at `root`, which must be a folder (created when missing, as vdirsyncer's
  /// `create = true` does).
  public init(root: String) throws(SyncError) {
    self.root = root
    switch FileKind.following(root) {
    case .directory?: break
    case nil:
      guard mkdir(root, 0o700) == 0 else {
        throw .unreachable("\(root): cannot create the folder: \(Self.lastError)")
      }
    default: throw .unreachable("\(root): is not a folder")
    }
  }

  public func collections() throws(SyncError) -> [RemoteCollection] {
    try names(in: root).filter { FileKind.of(root + "/" + $0) == .directory }.map { name in
      let folder = root + "/" + name
      return RemoteCollection(
        href: name, displayName: metadata(VdirFormat.displayNameFile, in: folder),
        color: metadata(VdirFormat.colorFile, in: folder).flatMap(ListColor.normalized))
    }
  }

  public func createCollection(displayName: String, color: String?) throws(SyncError) -> RemoteCollection {
    var name = VdirNames.safe(displayName)
    var suffix = 2
    while FileKind.of(root + "/" + name) != nil {
      name = VdirNames.safe(displayName) + "-\(suffix)"
      suffix += 1
    }
    let folder = root + "/" + name
    guard mkdir(folder, 0o700) == 0 else {
      throw .refused("\(folder): cannot create the collection: \(Self.lastError)")
    }
    try writeFile(folder + "/" + VdirFormat.displayNameFile, Array(displayName.utf8))
    if let color { try writeFile(folder + "/" + VdirFormat.colorFile, Array(color.utf8)) }
    return RemoteCollection(href: name, displayName: displayName, color: color)
  }

  public func updateCollection(_ collection: RemoteCollection, displayName: String?, color: String?) throws(SyncError)
    -> RemoteCollection
  {
    let folder = try folder(of: collection)
    var updated = collection
    if let displayName {
      try replaceFile(folder + "/" + VdirFormat.displayNameFile, Array(displayName.utf8), in: folder)
      updated.displayName = displayName
    }
    if let color {
      try replaceFile(folder + "/" + VdirFormat.colorFile, Array(color.utf8), in: folder)
      updated.color = color
    }
    try Self.synchronize(folder)
    return updated
  }

  public func changes(in collection: RemoteCollection, since token: String?) throws(SyncError) -> RemoteChanges {
    let folder = try folder(of: collection)
    var items: [RemoteItemVersion] = []
    for name in try names(in: folder) where Self.isItemName(name) {
      if let etag = Self.etag(of: folder + "/" + name) { items.append(RemoteItemVersion(href: name, etag: etag)) }
    }
    return .full(items: items, token: nil)
  }

  public func fetch(_ hrefs: [String], in collection: RemoteCollection) throws(SyncError) -> [RemoteItem] {
    let folder = try folder(of: collection)
    var items: [RemoteItem] = []
    for href in hrefs where Self.isItemName(href) {
      let path = folder + "/" + href
      // The ETag first: a change after it is seen at the next sync, never hidden by it.
      guard let etag = Self.etag(of: path) else { continue }
      var status = stat()
      if lstat(path, &status) == 0, Int(status.st_size) > InputLimits.maximumRawItemSize {
        items.append(RemoteItem(href: href, etag: etag, body: [], unread: Self.tooLarge(Int(status.st_size))))
        continue
      }
      do {
        let reader = try ByteReader.open(path: path, followingLinks: false)
        items.append(
          RemoteItem(href: href, etag: etag, body: try reader.readAll(limit: InputLimits.maximumRawItemSize)))
      } catch {
        if FileKind.of(path) == nil { continue }
        throw .malformedResponse("\(path): \(error.description)")
      }
    }
    return items
  }

  public func apply(_ writes: [RemoteWrite], in collection: RemoteCollection) throws(SyncError) -> [RemoteWriteResult] {
    let folder = try folder(of: collection)
    var results: [RemoteWriteResult] = []
    for write in writes {
      switch write {
      case .create(let name, let body):
        guard Self.isItemName(name) else {
          results.append(.rejected(href: name, reason: "not an item file name"))
          continue
        }
        let path = folder + "/" + name
        let temporary = try stage(body, in: folder)
        let linked = link(temporary, path) == 0
        let failure = errno
        unlink(temporary)
        if linked {
          results.append(.created(href: name, etag: Self.etag(of: path)))
        } else if failure == EEXIST {
          results.append(.preconditionFailed(href: name))
        } else {
          throw .unreachable("\(path): cannot create: \(String(cString: strerror(failure)).lowercased())")
        }
      case .update(let href, let etag, let body):
        let path = folder + "/" + href
        guard Self.isItemName(href), Self.etag(of: path) == etag else {
          results.append(.preconditionFailed(href: href))
          continue
        }
        try replaceFile(path, body, in: folder)
        results.append(.updated(href: href, etag: Self.etag(of: path)))
      case .delete(let href, let etag):
        let path = folder + "/" + href
        guard let current = Self.etag(of: path) else {
          results.append(.deleted(href: href))
          continue
        }
        guard Self.isItemName(href), current == etag else {
          results.append(.preconditionFailed(href: href))
          continue
        }
        guard unlink(path) == 0 || errno == ENOENT else {
          throw .unreachable("\(path): cannot delete: \(Self.lastError)")
        }
        results.append(.deleted(href: href))
      }
    }
    try Self.synchronize(folder)
    return results
  }

  // MARK: Files

  private func folder(of collection: RemoteCollection) throws(SyncError) -> String {
    let folder = root + "/" + collection.href
    guard !collection.href.contains("/"), collection.href != "..", FileKind.of(folder) == .directory else {
      throw .malformedResponse("\(folder): the collection is gone or not a folder")
    }
    return folder
  }

  private func names(in folder: String) throws(SyncError) -> [String] {
    do {
      return try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
    } catch {
      throw .unreachable("\(folder): cannot list the folder: \(error.localizedDescription)")
    }
  }

  /// A metadata file's text, trimmed; nil when there is none or it is empty. Links are not
  /// followed, and the file is read up to the limit of a vdir metadata file.
  private func metadata(_ name: String, in folder: String) -> String? {
    guard let reader = try? ByteReader.open(path: folder + "/" + name, followingLinks: false),
      let bytes = try? reader.peekPrefix(InputLimits.maximumVdirMetadataSize)
    else { return nil }
    let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    return text.isEmpty ? nil : text
  }

  static func isItemName(_ name: String) -> Bool {
    !name.hasPrefix(".") && !name.contains("/") && name.lowercased().hasSuffix(".ics")
  }

  /// Modification time (nanoseconds), size and inode of a regular file; nil for anything else.
  static func etag(of path: String) -> String? {
    var status = stat()
    guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
    return "\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec);\(status.st_size);\(status.st_ino)"
  }

  public func cannotReadBack(_ body: [UInt8]) -> String? {
    body.count > InputLimits.maximumRawItemSize ? Self.tooLarge(body.count) : nil
  }

  static func tooLarge(_ size: Int) -> String {
    "\(size) bytes, more than the \(InputLimits.maximumRawItemSize) bytes an item may have"
  }

  static let stagePrefix = ".remconv-sync-"

  /// Staged files of syncs whose process is gone (stopped by TERM, INT or KILL between staging
  /// and renaming): a process still running, another sync's, keeps its own.
  public func removeLeftovers(in collection: RemoteCollection) throws(SyncError) {
    let folder = try folder(of: collection)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    for name in names where name.hasPrefix(Self.stagePrefix) && name.hasSuffix(".tmp") {
      let process = name.dropFirst(Self.stagePrefix.count).prefix { $0 != "-" }
      guard let pid = Int32(process), pid > 0, kill(pid, 0) != 0, errno == ESRCH else { continue }
      unlink(folder + "/" + name)
    }
  }

  /// Writes `body` to a new hidden file in `folder`, flushed to disk, and returns its path.
  private func stage(_ body: [UInt8], in folder: String) throws(SyncError) -> String {
    let path = folder + "/" + Self.stagePrefix + "\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
    try writeFile(path, body)
    return path
  }

  /// Replaces `path` with `body` at once, through a staged file: a reader sees the old bytes
  /// or the new ones.
  private func replaceFile(_ path: String, _ body: [UInt8], in folder: String) throws(SyncError) {
    let temporary = try stage(body, in: folder)
    guard rename(temporary, path) == 0 else {
      let reason = Self.lastError
      unlink(temporary)
      throw .unreachable("\(path): cannot replace: \(reason)")
    }
  }

  private func writeFile(_ path: String, _ body: [UInt8]) throws(SyncError) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, OutputFile.mode)
    guard descriptor >= 0 else { throw .unreachable("\(path): cannot create: \(Self.lastError)") }
    defer { close(descriptor) }
    var written = 0
    while written < body.count {
      let count = body[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else { throw .unreachable("\(path): cannot write: \(Self.lastError)") }
      written += count
    }
    guard fsync(descriptor) == 0 else { throw .unreachable("\(path): sync failed: \(Self.lastError)") }
  }

  private static func synchronize(_ folder: String) throws(SyncError) {
    let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    guard fsync(descriptor) == 0 else { throw .unreachable("\(folder): sync failed: \(lastError)") }
  }

  private static var lastError: String { String(cString: strerror(errno)).lowercased() }
}
