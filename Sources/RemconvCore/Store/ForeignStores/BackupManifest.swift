/// The Apple Reminders databases of an unencrypted iPhone or iPad backup (Finder, iTunes).
///
/// A backup keeps each file under the SHA-1 of its domain and path, in a folder named by the
/// hash's first two characters, and lists them in `Manifest.db`:
/// `Files(fileID, domain, relativePath, flags, file)` (dariusf/dariusf.github.io
/// `content/blog/ios-backups.md`; greatvovan/ios-backup-browser). An encrypted backup's
/// `Manifest.db` is encrypted too, and is refused as not a readable database.
enum BackupManifest {
  static let fileName = "Manifest.db"
  /// The Reminders group container's domain.
  static let remindersDomain = "AppDomainGroup-group.com.apple.reminders"

  /// One account's database in the backup.
  struct StoreFile {
    /// Its path in the app's container (`Container_v1/Stores/Data-<UUID>.sqlite`).
    let relativePath: String
    let path: String
    let walPath: String?
  }

  /// The account databases listed by `<folder>/Manifest.db`, in path order.
  static func reminderStores(inBackup folder: String) throws(RemconvError) -> [StoreFile] {
    let manifest = try CoreDataFile(copying: folder + "/" + fileName)
    guard manifest.hasTable("Files"),
      ["fileID", "domain", "relativePath"].allSatisfy({ manifest.hasColumn($0, in: "Files") })
    else {
      throw .invalidInput(
        "\(folder)/\(fileName): not a backup manifest: missing table Files(fileID, domain, relativePath)")
    }
    var fileIDs: [String: String] = [:]
    for row in try manifest.rows(of: "Files", columns: ["fileID", "domain", "relativePath"]) {
      guard row.string("domain") == remindersDomain, let path = row.string("relativePath"),
        path.hasPrefix("Container_v1/Stores/Data-"), let fileID = row.string("fileID"), fileID.count > 2
      else { continue }
      fileIDs[path] = folder + "/" + fileID.prefix(2) + "/" + fileID
    }
    return fileIDs.keys.filter { $0.hasSuffix(".sqlite") }.sorted().compactMap { relativePath in
      fileIDs[relativePath].map {
        StoreFile(relativePath: relativePath, path: $0, walPath: fileIDs[relativePath + "-wal"])
      }
    }
  }
}
