import CLibArchive
import Foundation

/// A zip file read through libarchive, one entry at a time: the only code that calls it.
///
/// Nothing is extracted to disk: each entry's bytes are read into memory, counted as they come
/// (the sizes a zip declares are not trusted), and refused past the limits of
/// `ZipLimits`. Entry names that would lead outside a folder if extracted (zip-slip) are
/// refused too, so an archive remconv accepts is safe to unpack with any tool.
final class ZipArchiveReader {
  struct Entry {
    /// The entry's name in the archive.
    let path: String
    let isRegularFile: Bool
  }

  private let archive: OpaquePointer
  private let path: String
  private let fileSize: Int64
  private var entryCount = 0
  private var totalBytes: Int64 = 0

  /// Opens the zip at `path` after a first pass over its entries' names (no data is
  /// unpacked): an archive with too many entries, or one that escapes its folder, is refused
  /// before anything of it is imported.
  init(path: String) throws(RemconvError) {
    self.path = path
    var status = stat()
    guard stat(path, &status) == 0 else { throw .inputMissing("\(path): no such file") }
    fileSize = Int64(status.st_size)
    let scan = try Self.open(path)
    defer { archive_read_free(scan) }
    var scanned = 0
    while try Self.nextEntry(of: scan, path: path, count: &scanned) != nil {}
    archive = try Self.open(path)
  }

  private static func open(_ path: String) throws(RemconvError) -> OpaquePointer {
    guard let archive = archive_read_new() else { throw .ioFailure("\(path): libarchive could not start") }
    archive_read_support_format_zip(archive)
    guard archive_read_open_filename(archive, path, 1 << 16) == ARCHIVE_OK else {
      let reason = Self.message(archive)
      archive_read_free(archive)
      throw .malformedInput("not a zip archive: \(reason)", at: SourceLocation(file: path))
    }
    return archive
  }

  deinit { archive_read_free(archive) }

  /// The next entry, or nil at the end. Names that escape the archive's folder are refused.
  func nextEntry() throws(RemconvError) -> Entry? {
    try Self.nextEntry(of: archive, path: path, count: &entryCount)
  }

  private static func nextEntry(of archive: OpaquePointer, path: String, count: inout Int) throws(RemconvError)
    -> Entry?
  {
    var entry: OpaquePointer?
    let result = archive_read_next_header(archive, &entry)
    if result == ARCHIVE_EOF { return nil }
    guard result == ARCHIVE_OK || result == ARCHIVE_WARN, let entry else {
      throw .malformedInput("a broken zip entry: \(Self.message(archive))", at: SourceLocation(file: path))
    }
    count += 1
    guard count <= ZipLimits.maximumEntryCount else {
      throw .malformedInput(
        "more than \(ZipLimits.maximumEntryCount) entries: refused as a possible zip bomb",
        at: SourceLocation(file: path))
    }
    let name =
      archive_entry_pathname_utf8(entry).map { String(cString: $0) }
      ?? archive_entry_pathname(entry).map { String(cString: $0) } ?? ""
    if let reason = ZipLimits.escapeReason(name) {
      throw .malformedInput(
        "the entry '\(name)' \(reason): refused (zip-slip)", at: SourceLocation(file: path + "/" + name))
    }
    let type = archive_entry_filetype(entry)
    if type == UInt32(S_IFLNK) {
      throw .malformedInput(
        "the entry '\(name)' is a symbolic link: refused (zip-slip)", at: SourceLocation(file: path + "/" + name))
    }
    return Entry(path: name, isRegularFile: type == UInt32(S_IFREG))
  }

  /// The current entry's bytes, refused past the per-entry, total and ratio limits.
  func readData(of entry: Entry) throws(RemconvError) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    let location = SourceLocation(file: path + "/" + entry.path)
    while true {
      let count = chunk.withUnsafeMutableBytes { archive_read_data(archive, $0.baseAddress, $0.count) }
      if count == 0 { break }
      guard count > 0 else {
        throw .malformedInput("the entry cannot be read: \(Self.message(archive))", at: location)
      }
      bytes.append(contentsOf: chunk[0..<count])
      totalBytes += Int64(count)
      if bytes.count > ZipLimits.maximumEntrySize {
        throw .malformedInput(
          "the entry unpacks to more than \(ZipLimits.maximumEntrySize >> 20) MiB: refused as a possible zip bomb",
          at: location)
      }
      if totalBytes > ZipLimits.maximumTotalSize {
        throw .malformedInput(
          "the archive unpacks to more than \(ZipLimits.maximumTotalSize >> 20) MiB: refused as a possible zip bomb",
          at: location)
      }
      if totalBytes > ZipLimits.ratioThreshold, totalBytes > fileSize * ZipLimits.maximumRatio {
        throw .malformedInput(
          "the archive unpacks to more than \(ZipLimits.maximumRatio) times its size: refused as a possible zip bomb",
          at: location)
      }
    }
    return bytes
  }

  private static func message(_ archive: OpaquePointer) -> String {
    archive_error_string(archive).map { String(cString: $0) } ?? "unknown error"
  }
}

/// Writes a zip archive in memory through libarchive: deflated regular files, one a call.
final class ZipArchiveWriter {
  /// Where libarchive's write callback puts the archive's bytes.
  private final class Sink {
    var bytes: [UInt8] = []
  }

  private let archive: OpaquePointer
  private let sink = Sink()
  private let modificationTime: time_t
  private var isClosed = false

  init(modificationTime: Date) throws(RemconvError) {
    guard let archive = archive_write_new() else { throw .ioFailure("libarchive could not start a zip") }
    self.archive = archive
    self.modificationTime = time_t(modificationTime.timeIntervalSince1970)
    archive_write_set_format_zip(archive)
    archive_write_set_bytes_in_last_block(archive, 1)
    let opened = archive_write_open(
      archive, Unmanaged.passUnretained(sink).toOpaque(), nil,
      { _, client, buffer, length in
        guard let client, let buffer else { return -1 }
        let sink = Unmanaged<Sink>.fromOpaque(client).takeUnretainedValue()
        sink.bytes.append(contentsOf: UnsafeRawBufferPointer(start: buffer, count: length))
        return length
      }, nil)
    guard opened == ARCHIVE_OK else {
      throw .ioFailure("libarchive could not open a zip: \(Self.message(archive))")
    }
  }

  deinit {
    if !isClosed { archive_write_close(archive) }
    archive_write_free(archive)
  }

  /// Adds a regular file.
  func add(name: String, bytes: [UInt8]) throws(RemconvError) {
    guard let entry = archive_entry_new() else { throw .ioFailure("libarchive could not make a zip entry") }
    defer { archive_entry_free(entry) }
    archive_entry_set_pathname_utf8(entry, name)
    archive_entry_set_size(entry, Int64(bytes.count))
    archive_entry_set_filetype(entry, UInt32(S_IFREG))
    archive_entry_set_perm(entry, 0o644)
    archive_entry_set_mtime(entry, Int(modificationTime), 0)
    guard archive_write_header(archive, entry) == ARCHIVE_OK else {
      throw .ioFailure("libarchive could not write the zip entry '\(name)': \(Self.message(archive))")
    }
    let written = bytes.withUnsafeBytes { archive_write_data(archive, $0.baseAddress, $0.count) }
    guard written == bytes.count else {
      throw .ioFailure("libarchive could not write the zip entry '\(name)': \(Self.message(archive))")
    }
  }

  /// Ends the archive and gives its bytes.
  func finish() throws(RemconvError) -> [UInt8] {
    isClosed = true
    guard archive_write_close(archive) == ARCHIVE_OK else {
      throw .ioFailure("libarchive could not finish the zip: \(Self.message(archive))")
    }
    return sink.bytes
  }

  private static func message(_ archive: OpaquePointer) -> String {
    archive_error_string(archive).map { String(cString: $0) } ?? "unknown error"
  }
}
