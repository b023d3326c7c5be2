import Foundation

/// The files that make up a store: the database, SQLite's `-wal`, `-shm` and `-journal` beside
/// it, and its backups (`<store>.backup-….sqlite` of upgrades, `<store>.pre-validate-fix-….sqlite`
/// of repairs, and their partial copies). An output must never be written over any of them:
/// `export -o STORE --force` would replace the live store with its own export.
///
/// A target is recognised however it is spelt: by device and inode when it exists (another
/// path, a link, a hard link), and by its resolved folder and name when it does not yet.
public struct StoreFiles: Sendable {
  public let storePath: String

  public init(storePath: String) {
    self.storePath = storePath
  }

  /// Why `target` must not be written, or nil when it is none of the store's files.
  public func refusal(for target: String) -> String? {
    let places = locations()
    var targetStatus = stat()
    if stat(target, &targetStatus) == 0 {
      for (folder, name) in places {
        for entry in Self.candidates(in: folder, storeName: name) {
          var status = stat()
          if stat(folder + "/" + entry, &status) == 0, status.st_dev == targetStatus.st_dev,
            status.st_ino == targetStatus.st_ino
          {
            return describe(entry, storeName: name)
          }
        }
      }
    }
    guard let (folder, name) = Self.resolved(target) else { return nil }
    for (storeFolder, storeName) in places where storeFolder == folder {
      if let role = Self.role(of: name, storeName: storeName) { return "is \(role) (\(storePath))" }
    }
    return nil
  }

  private func describe(_ entry: String, storeName: String) -> String {
    "is \(Self.role(of: entry, storeName: storeName) ?? "a file of the store") (\(storePath))"
  }

  /// What `name` is to the store named `storeName` in the same folder.
  static func role(of name: String, storeName: String) -> String? {
    if name == storeName { return "the store in use" }
    if name == storeName + "-wal" { return "the store's write-ahead log" }
    if name == storeName + "-shm" { return "the store's shared-memory index" }
    if name == storeName + "-journal" { return "the store's journal" }
    if name.hasPrefix(storeName + "."), name.hasSuffix(".sqlite") || name.hasSuffix(".sqlite.partial") {
      return "a backup of the store"
    }
    return nil
  }

  /// The folder and name of the store as given and, when it exists, as resolved through links
  /// (SQLite puts `-wal` and `-shm` beside the resolved file, backups go beside the path given).
  private func locations() -> [(String, String)] {
    var places: [(String, String)] = []
    if let given = Self.resolved(storePath) { places.append(given) }
    if let real = realpath(storePath, nil) {
      defer { free(real) }
      let url = URL(fileURLWithPath: String(cString: real))
      let place = (url.deletingLastPathComponent().path, url.lastPathComponent)
      if !places.contains(where: { $0 == place }) { places.append(place) }
    }
    return places
  }

  /// The store's files present in `folder`.
  private static func candidates(in folder: String, storeName: String) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { role(of: $0, storeName: storeName) != nil }
  }

  /// The real folder of `path` (links resolved) and its last name, the path itself not
  /// followed: where a file of that name is or would be.
  static func resolved(_ path: String) -> (String, String)? {
    let url = URL(fileURLWithPath: path)
    let name = url.lastPathComponent
    guard let real = realpath(url.deletingLastPathComponent().path, nil) else { return nil }
    defer { free(real) }
    return (String(cString: real), name)
  }
}
