import Foundation

/// `--format vdir`: a folder as vdirsyncer, todoman and khal keep calendars
/// (https://vdirsyncer.pimutils.org/en/stable/vdir.html).
///
/// One subfolder per list, holding the metadata files `displayname` and `color` (and remconv's
/// own `remconv-id`, `remconv-symbol`, `remconv-created`, `remconv-extra`, which other programs
/// ignore), and one `.ics` file per reminder: a VCALENDAR with the VTODO, its RECURRENCE-ID
/// overrides and the VTIMEZONEs they use. A folder whose own `.ics` files are
/// items (a single collection given directly) is read as one list.
public enum VdirFormat {
  public static let descriptor = FormatDescriptor(
    name: "vdir", summary: "vdir folder (vdirsyncer, todoman, khal): a subfolder per list, an .ics per reminder",
    extensions: [], isDirectory: true,
    makeReader: { context in try Reader(context: context) },
    makeWriter: { context in try Writer(context: context) },
    sniff: nil)

  static let displayNameFile = "displayname"
  static let colorFile = "color"
  static let idFile = "remconv-id"
  static let symbolFile = "remconv-symbol"
  static let createdFile = "remconv-created"
  static let extraFile = "remconv-extra"

  /// Reads every collection of a vdir, one item file at a time.
  final class Reader: ReminderReader {
    private let context: ReaderContext
    private let root: String
    private let links = ChildLinks()
    private let derivedIDs = DerivedIDGenerator()
    /// Collections not yet read, in name order.
    private var collections: [String]
    private var currentList: ReminderList?
    private var currentFolder = ""
    private var items: [String] = []
    private var itemReader: ICSReader?
    private var finished = false

    init(context: ReaderContext) throws {
      guard case .directory(let root) = context.source else {
        throw RemconvError.invalidInput("\(context.source.displayName): the vdir format reads a folder")
      }
      self.context = context
      self.root = root
      collections = try Self.collections(in: root)
      try prescanLinks()
    }

    func next() throws -> SourceRecord? {
      while true {
        if let itemReader {
          if let record = try itemReader.next() { return record }
          self.itemReader = nil
        }
        if let list = currentList, !items.isEmpty {
          let name = items.removeFirst()
          itemReader = try openItem(name, in: list)
          continue
        }
        guard !collections.isEmpty else {
          if !finished {
            finished = true
            links.reportMissing(to: context.diagnostics)
          }
          return nil
        }
        let folder = collections.removeFirst()
        let list = try readList(folder)
        currentList = list
        currentFolder = folder
        items = try Self.itemFiles(in: folder)
        for link in try Self.linkedItems(in: folder) {
          context.diagnostics.warning(
            "symbolic-link", "a symbolic link, not an item: it is not followed and not read",
            at: SourceLocation(file: folder + "/" + link),
            uid: nil)
        }
        return .list(list)
      }
    }

    /// The root when it holds items itself, then its subfolders, without hidden ones. A
    /// subfolder that is a symbolic link is not followed: what is read stays inside the folder
    /// given (the writer refuses such a list folder too).
    private static func collections(in root: String) throws(RemconvError) -> [String] {
      var folders: [String] = []
      if try !itemFiles(in: root).isEmpty { folders.append(root) }
      for name in try contents(of: root) where !name.hasPrefix(".") {
        if fileType(root + "/" + name) == S_IFDIR { folders.append(root + "/" + name) }
      }
      return folders
    }

    /// The `.ics` files of a collection, in name order (vdir ignores other files). Symbolic
    /// links are not items: one could point anywhere, and an error would quote what it holds.
    private static func itemFiles(in folder: String) throws(RemconvError) -> [String] {
      try contents(of: folder).filter { name in
        isItemName(name) && fileType(folder + "/" + name) == S_IFREG
      }
    }

    /// The `.ics` names of a collection that are symbolic links (each skipped with a warning).
    private static func linkedItems(in folder: String) throws(RemconvError) -> [String] {
      try contents(of: folder).filter { name in
        isItemName(name) && fileType(folder + "/" + name) == S_IFLNK
      }
    }

    private static func isItemName(_ name: String) -> Bool {
      !name.hasPrefix(".") && name.lowercased().hasSuffix(".ics")
    }

    /// The type bits of `path` itself (a link is a link), or 0 when it cannot be read.
    private static func fileType(_ path: String) -> mode_t {
      var status = stat()
      return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : 0
    }

    private static func contents(of folder: String) throws(RemconvError) -> [String] {
      do {
        return try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
      } catch {
        throw .inputMissing("\(folder): cannot list the folder: \(error.localizedDescription)")
      }
    }

    /// A collection's list: its `displayname` (else the folder's name), `color` and symbol.
    private func readList(_ folder: String) throws(RemconvError) -> ReminderList {
      let folderName = URL(fileURLWithPath: folder).lastPathComponent
      let name =
        try metadata(displayNameFile, in: folder).flatMap { $0.isEmpty ? nil : $0 }
        ?? VdirNames.decoded(folderName)
      let id = try metadata(idFile, in: folder).flatMap { $0.isEmpty ? nil : $0 }
      var list = ReminderList(id: id ?? StableID.derived(["list", ListName.key(for: name)]), name: name)
      if let symbol = try metadata(symbolFile, in: folder), !symbol.isEmpty { list.symbol = symbol }
      if let created = try metadata(createdFile, in: folder), !created.isEmpty {
        if let timestamp = Timestamp(iso: created) {
          list.createdAt = timestamp
        } else {
          invalidMetadata(createdFile, created, in: folder, list: &list, "is not an ISO 8601 instant")
        }
      }
      if let extra = try metadata(extraFile, in: folder), !extra.isEmpty {
        if let object = ICSPassThrough.decode(extra) {
          list.extra.merge(object) { _, new in new }
        } else {
          invalidMetadata(extraFile, extra, in: folder, list: &list, "is not a JSON object")
        }
      }
      if let color = try metadata(colorFile, in: folder), !color.isEmpty {
        if let normalized = ListColor.normalized(color) {
          list.color = normalized
        } else {
          invalidMetadata(colorFile, color, in: folder, list: &list, "is not a #RRGGBB colour")
        }
      }
      return list
    }

    /// Warns about a metadata file that cannot be read and keeps its text in
    /// `extra["vdir"]["invalid"]`, from where the writer puts it back.
    private func invalidMetadata(
      _ file: String, _ text: String, in folder: String, list: inout ReminderList, _ reason: String
    ) {
      context.diagnostics.warning(
        "invalid-value", "'\(text)' \(reason); it is kept in the list's extra.vdir.invalid",
        at: SourceLocation(file: folder + "/" + file), uid: list.id)
      var invalid = list.extra["vdir"]?["invalid"]?.objectValue ?? [:]
      invalid[file] = .string(text)
      list.extra["vdir"] = .object(["invalid": .object(invalid)])
    }

    /// A metadata file's text, trimmed; nil when there is none. At most the file's limit plus
    /// one byte is read: a larger file is refused, not loaded. A symbolic link is not followed.
    private func metadata(_ name: String, in folder: String) throws(RemconvError) -> String? {
      let path = folder + "/" + name
      let limit = name == extraFile ? InputLimits.maximumItemSize : InputLimits.maximumVdirMetadataSize
      switch Self.fileType(path) {
      case S_IFREG: break
      case S_IFLNK:
        context.diagnostics.warning(
          "symbolic-link", "a symbolic link, not a metadata file: it is not followed and not read",
          at: SourceLocation(file: path),
          uid: nil)
        return nil
      default: return nil
      }
      let reader = try ByteReader.open(path: path, followingLinks: false)
      let bytes = try limit < ByteReader.bufferSize ? reader.peekPrefix(limit + 1) : reader.readAll(limit: limit)
      guard bytes.count <= limit else {
        throw .invalidInput(
          "larger than the limit of \(limit) bytes for a vdir metadata file", at: SourceLocation(file: path))
      }
      return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func openItem(_ name: String, in list: ReminderList) throws -> ICSReader {
      let path = currentFolder + "/" + name
      let bytes = try ByteReader.open(path: path, followingLinks: false).readAll(limit: InputLimits.maximumRawItemSize)
      let session = ICSReadSession(
        file: path, diagnostics: context.diagnostics, options: context.options, links: links, derivedIDs: derivedIDs)
      try ICSPrescan.scan(ByteReader(bytes: bytes, name: path), session: session)
      return ICSReader(
        bytes: ByteReader(bytes: bytes, name: path), session: session, itemList: list,
        derivation: ["vdir", list.id, name], fallbackName: list.name, reportsMissingChildren: false)
    }

    /// Collects `RELTYPE=CHILD` links of every item first: a child's file may come before its
    /// parent's.
    private func prescanLinks() throws {
      let quiet = DiagnosticLog()
      for folder in collections {
        for name in try Self.itemFiles(in: folder) {
          let path = folder + "/" + name
          let session = ICSReadSession(
            file: path, diagnostics: quiet, options: context.options, links: links, derivedIDs: derivedIDs)
          try ICSPrescan.scan(ByteReader.open(path: path, followingLinks: false), session: session)
        }
      }
    }
  }

  /// Writes a vdir: a subfolder per list, a file per reminder.
  ///
  /// Everything is written into a stage first, a hidden folder (`.NAME.remconv-PID-RANDOM`)
  /// beside the target when the target does not exist, inside it when it does (so that the
  /// moves stay on its file system). `finish` moves the stage into place: the whole folder
  /// when the target is new, else each new list folder, and each file of a list folder that
  /// already exists. A failed export removes its stage and leaves the target as it was, so a
  /// retry needs no `--force`. What exists is checked while staging, against the target, so a
  /// refusal (a file without `--force`, a linked list folder) comes before anything is moved.
  final class Writer: ReminderWriter {
    static let inputOrder = WriterInputOrder.groupedByList
    private let root: String
    private let options: WriterOptions
    private let encoder: VTodoEncoder
    private let timezones: VTimezoneSource
    private let diagnostics: DiagnosticLog
    private let stage: String
    private let stageRegistration: TemporaryPaths.Registration?
    /// Whether the target folder existed: the stage then holds its new contents, else it is it.
    private let rootExists: Bool
    /// The list folder being written: its name, and whether it exists in the target.
    private var folder: (name: String, exists: Bool)?
    /// The list folders staged, in order, with whether each exists in the target.
    private var staged: [(name: String, exists: Bool)] = []
    /// The item files found in list folders that exist in the target, by folder name.
    private var existingItems: [String: VdirItems] = [:]
    private var usedFolders: Set<String> = []
    private var isFinished = false

    /// The mode of the folders written: the store's files are 0600, its folder 0700.
    static let folderMode: mode_t = 0o700

    init(context: WriterContext) throws {
      guard case .directory(let root) = context.target else {
        throw RemconvError.cannotCreateOutput("the vdir format writes a folder: give -o FOLDER")
      }
      self.root = root
      options = context.options
      encoder = VTodoEncoder(now: context.options.now, diagnostics: context.diagnostics)
      timezones = VTimezoneSource(diagnostics: context.diagnostics)
      diagnostics = context.diagnostics
      // The folder the user named may be a link to one: it is followed, the list folders never.
      switch FileKind.following(root) {
      case nil:
        rootExists = false
        stage = TemporaryPaths.name(beside: root)
      case .directory:
        rootExists = true
        stage = TemporaryPaths.name(beside: root + "/" + URL(fileURLWithPath: root).lastPathComponent)
      default:
        throw RemconvError.cannotCreateOutput("\(root): exists and is not a folder")
      }
      TemporaryPaths.removeLeftovers(in: URL(fileURLWithPath: stage).deletingLastPathComponent().path)
      stageRegistration = TemporaryPaths.register(stage)
      guard mkdir(stage, Self.folderMode) == 0 else {
        TemporaryPaths.unregister(stageRegistration)
        let target = rootExists ? stage : root
        throw RemconvError.cannotCreateOutput(
          "\(target): cannot create the folder: \(String(cString: strerror(errno)).lowercased())")
      }
    }

    deinit {
      if !isFinished {
        TemporaryPaths.removeFolder(stage)
        TemporaryPaths.unregister(stageRegistration)
      }
    }

    func beginList(_ list: ReminderList) throws {
      var name = VdirNames.safe(list.name)
      var suffix = 2
      while usedFolders.contains(name.lowercased()) {
        name = VdirNames.safe(list.name) + "-\(suffix)"
        suffix += 1
      }
      usedFolders.insert(name.lowercased())
      var exists = false
      if rootExists {
        // A link is refused, not followed, so nothing is written outside the target.
        switch FileKind.of(root + "/" + name) {
        case nil: break
        case .directory: exists = true
        default: throw RemconvError.cannotCreateOutput("\(root)/\(name): exists and is not a folder")
        }
      }
      guard mkdir(stage + "/" + name, Self.folderMode) == 0 else {
        throw RemconvError.cannotCreateOutput(
          "\(root)/\(name): cannot create the folder: \(String(cString: strerror(errno)).lowercased())")
      }
      folder = (name, exists)
      staged.append((name, exists))
      if exists { existingItems[name] = VdirItems(folder: root + "/" + name) }
      // What could not be read goes back where the list has no value of its own.
      var metadata = list.extra["vdir"]?["invalid"]?.objectValue?.compactMapValues(\.stringValue) ?? [:]
      metadata[displayNameFile] = list.name
      metadata[idFile] = list.id
      if let color = list.color { metadata[colorFile] = color }
      if list.symbol != ReminderList.defaultSymbol { metadata[symbolFile] = list.symbol }
      if let created = list.createdAt { metadata[createdFile] = created.description }
      var extra = list.extra
      extra["vdir"] = nil
      if let json = ICSPassThrough.encode(extra) { metadata[extraFile] = json }
      for (file, value) in metadata.sorted(by: { $0.key < $1.key }) {
        // A metadata file that already holds the same text is left alone.
        if exists, let existing = FileManager.default.contents(atPath: root + "/" + name + "/" + file),
          existing == Data(value.utf8)
        {
          continue
        }
        try writeFile(file, in: name, exists: exists) { try $0.write(value) }
      }
    }

    func write(_ reminder: Reminder, in list: ReminderList, depth: Int) throws {
      guard let folder else { throw RemconvError.cannotCreateOutput("\(root): a reminder came before its list") }
      let lines = ICSItemCodec.itemLines(reminder, encoder: encoder, timezones: timezones)
      // The reminder's own file where the folder has one, whatever it is called; else a new
      // name, as todoman and vdirsyncer name items.
      let file =
        existingItems[folder.name]?.claim(reminder.id, preferring: VdirNames.item(reminder.id) + ".ics")
        ?? newItemName(for: reminder.id, in: folder)
      try writeFile(file, in: folder.name, exists: folder.exists) { output in
        var writer = FoldingLineWriter(output: output)
        try writer.write(lines)
      }
    }

    /// A new item's file name. In a folder that exists, a name some other file has (another
    /// reminder's item, an event) gets a suffix: that file is never written over.
    private func newItemName(for uid: String, in folder: (name: String, exists: Bool)) -> String {
      let base = VdirNames.item(uid)
      var name = base + ".ics"
      var suffix = 2
      while folder.exists, FileKind.of(root + "/" + folder.name + "/" + name) != nil {
        name = base + "-\(suffix).ics"
        suffix += 1
      }
      return name
    }

    func finish() throws {
      if options.dryRun {
        for (name, exists) in staged where exists { handleStaleItems(in: name) }
        isFinished = true
        TemporaryPaths.removeFolder(stage)
        TemporaryPaths.unregister(stageRegistration)
        return
      }
      if !rootExists {
        try Self.synchronize(stage)
        guard rename(stage, root) == 0 else {
          throw RemconvError.cannotCreateOutput(
            "\(root): cannot move the export into place: \(String(cString: strerror(errno)).lowercased())")
        }
        isFinished = true
        TemporaryPaths.unregister(stageRegistration)
        try Self.synchronize(URL(fileURLWithPath: root).deletingLastPathComponent().path)
        return
      }
      for (name, exists) in staged {
        let source = stage + "/" + name
        let target = root + "/" + name
        if !exists, FileKind.of(target) == nil {
          try Self.synchronize(source)
          guard rename(source, target) == 0 else {
            throw RemconvError.cannotCreateOutput(
              "\(target): cannot move the folder into place: \(String(cString: strerror(errno)).lowercased())")
          }
          continue
        }
        guard FileKind.of(target) == .directory else {
          throw RemconvError.cannotCreateOutput("\(target): exists and is not a folder")
        }
        for file in try FileManager.default.contentsOfDirectory(atPath: source).sorted() {
          try place(source + "/" + file, at: target + "/" + file)
        }
        handleStaleItems(in: name)
        try Self.synchronize(target)
      }
      isFinished = true
      TemporaryPaths.removeFolder(stage)
      TemporaryPaths.unregister(stageRegistration)
      try Self.synchronize(root)
    }

    /// The to-do items of an existing list folder that this export did not write (reminders
    /// deleted or moved to another list since, or a second file of one UID): removed with
    /// `--prune`, listed with `--prune --dry-run`, else reported and left. Files without a
    /// VTODO (a calendar's events) are never touched.
    private func handleStaleItems(in name: String) {
      guard !options.selectsReminders, let items = existingItems[name] else { return }
      for (file, uid) in items.unclaimed {
        let path = root + "/" + name + "/" + file
        if options.dryRun {
          diagnostics.warning(
            "prune", "would be removed by --prune: this export does not write the reminder it holds",
            at: SourceLocation(file: path), uid: uid)
        } else if options.prune {
          guard FileKind.of(path) == .regular, unlink(path) == 0 else {
            diagnostics.warning(
              "prune", "cannot remove: \(String(cString: strerror(errno)).lowercased())",
              at: SourceLocation(file: path), uid: uid)
            continue
          }
          diagnostics.warning(
            "prune", "removed: this export does not write the reminder it held", at: SourceLocation(file: path),
            uid: uid)
        } else {
          diagnostics.warning(
            "stale-item",
            "this export does not write the reminder it holds; left in place, so an import brings it back "
              + "(--prune removes such files, --prune --dry-run lists them)",
            at: SourceLocation(file: path), uid: uid)
        }
      }
    }

    /// Moves one staged file into an existing list folder: beside nothing without `--force`
    /// (`link` fails on anything that appeared meanwhile), over a regular file or a link with it.
    private func place(_ source: String, at target: String) throws {
      if options.force {
        if let kind = FileKind.of(target), kind != .regular, kind != .symbolicLink {
          throw RemconvError.cannotCreateOutput(
            "\(target): is a \(kind), not a regular file: never replaced, even with --force")
        }
        guard rename(source, target) == 0 else {
          throw RemconvError.cannotCreateOutput(
            "\(target): cannot replace: \(String(cString: strerror(errno)).lowercased())")
        }
      } else {
        guard link(source, target) == 0 else {
          let reason =
            errno == EEXIST
            ? "already exists (use --force to replace it)" : String(cString: strerror(errno)).lowercased()
          throw RemconvError.cannotCreateOutput("\(target): \(reason)")
        }
      }
    }

    /// Writes a file of the list folder `name` into the stage, after checking that the target
    /// allows it: a file there is replaced only with `--force`, and only a regular file or a link.
    private func writeFile(_ file: String, in name: String, exists: Bool, _ body: (ByteWriter) throws -> Void) throws {
      let target = root + "/" + name + "/" + file
      if exists, let kind = FileKind.of(target) {
        if kind == .directory { throw RemconvError.cannotCreateOutput("\(target): is a directory") }
        if !options.force {
          throw RemconvError.cannotCreateOutput("\(target): already exists (use --force to replace it)")
        }
        if kind != .regular, kind != .symbolicLink {
          throw RemconvError.cannotCreateOutput(
            "\(target): is a \(kind), not a regular file: never replaced, even with --force")
        }
      }
      let path = stage + "/" + name + "/" + file
      // Two reminders whose UIDs make one file name: the second replaces the first only with --force.
      let flags = O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | (options.force ? O_TRUNC : O_EXCL)
      let descriptor = open(path, flags, OutputFile.mode)
      guard descriptor >= 0 else {
        let reason =
          errno == EEXIST
          ? "already exists (use --force to replace it)"
          : "cannot create: " + String(cString: strerror(errno)).lowercased()
        throw RemconvError.cannotCreateOutput("\(target): \(reason)")
      }
      defer { close(descriptor) }
      let writer = ByteWriter(fileDescriptor: descriptor, name: target)
      try body(writer)
      try writer.flush()
      guard fsync(descriptor) == 0 else {
        throw RemconvError.ioFailure("\(target): sync failed: \(String(cString: strerror(errno)).lowercased())")
      }
    }

    /// Flushes a folder's entries to disk, so what was moved into place survives a power cut.
    private static func synchronize(_ folder: String) throws {
      let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
      guard descriptor >= 0 else { return }
      defer { close(descriptor) }
      guard fsync(descriptor) == 0 else {
        throw RemconvError.ioFailure("\(folder): sync failed: \(String(cString: strerror(errno)).lowercased())")
      }
    }
  }
}

/// File and folder names for a vdir, safe on every file system and for vdirsyncer.
///
/// vdirsyncer uses a UID as a file name only when every character is in `a-zA-Z0-9_.-+`
/// (`SAFE_UID_CHARS`); every other byte is written as `%XX`, which also rules out `/`, `..`,
/// control characters and a leading dot. Very long names are shortened with a hash, so two
/// UIDs never share a file.
enum VdirNames {
  static let maximumLength = 200

  /// An item's file name (without `.ics`) for a UID: as `safe`, but `@` is kept, as todoman
  /// names its items (`<uid>.ics`, and its UIDs are `<hex>@<host>`), so a UID todoman made
  /// gets the file name todoman gives it.
  static func item(_ uid: String) -> String {
    safe(uid, keeping: UInt8(ascii: "@"))
  }

  static func safe(_ text: String, keeping kept: UInt8? = nil) -> String {
    var pieces: [String] = []
    for (index, byte) in text.utf8.enumerated() {
      let isSafe =
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
        || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
        || (byte == UInt8(ascii: ".") && index > 0) || byte == kept
      pieces.append(isSafe ? String(UnicodeScalar(byte)) : "%" + hex(byte))
    }
    if pieces.isEmpty { return "%00" }
    let joined = pieces.joined()
    guard joined.utf8.count > maximumLength else { return joined }
    var prefix = ""
    for piece in pieces {
      if prefix.utf8.count + piece.utf8.count > maximumLength - 17 { break }
      prefix += piece
    }
    return prefix + "-" + SHA256.hex(of: text).prefix(16)
  }

  /// Undoes `safe` for a folder name that has no `displayname` file.
  static func decoded(_ name: String) -> String {
    guard name.contains("%") else { return name }
    var bytes: [UInt8] = []
    var utf8 = Array(name.utf8)[...]
    while let byte = utf8.first {
      if byte == UInt8(ascii: "%"), utf8.count >= 3,
        let value = UInt8(String(decoding: utf8.dropFirst().prefix(2), as: UTF8.self), radix: 16)
      {
        bytes.append(value)
        utf8 = utf8.dropFirst(3)
      } else {
        bytes.append(byte)
        utf8 = utf8.dropFirst()
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return byte < 16 ? "0" + digits : digits
  }
}

/// The `.ics` files of a list folder that exists in the target, each with the UID of the
/// VTODO it holds, so an export writes a reminder into its own file whatever it is called.
struct VdirItems {
  /// File name and VTODO UID of each item holding one, in name order.
  private var items: [(file: String, uid: String)] = []
  private var claimed: Set<String> = []

  /// Reads the UID of the first VTODO of each regular `.ics` file. A file that cannot be
  /// read, is larger than an item may be, or holds no VTODO is not a reminder's: never chosen,
  /// never removed.
  init(folder: String) {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder).sorted()) ?? []
    for name in names where !name.hasPrefix(".") && name.lowercased().hasSuffix(".ics") {
      let path = folder + "/" + name
      guard FileKind.of(path) == .regular, let uid = Self.todoUID(in: path) else { continue }
      items.append((name, uid))
    }
  }

  private static func todoUID(in path: String) -> String? {
    guard let reader = try? ByteReader.open(path: path, followingLinks: false),
      let bytes = try? reader.readAll(limit: InputLimits.maximumRawItemSize)
    else { return nil }
    let lines = ContentLineReader(bytes: ByteReader(bytes: bytes, name: path), file: path, diagnostics: nil)
    var depth = 0
    var inTodo = false
    while let line = try? lines.next() {
      switch line.boundary {
      case .begin(let name)?:
        depth += 1
        if depth == 2, name == "VTODO" { inTodo = true }
      case .end?:
        if depth == 2 { inTodo = false }
        depth -= 1
      case nil:
        if inTodo, depth == 2, line.known == .uid, let parts = ContentLineParts(line.text) {
          let uid = ICSText.unescape(parts.value)
          return uid.isEmpty ? nil : uid
        }
      }
    }
    return nil
  }

  /// The file holding `uid`; nil when none does. When several do (an older remconv's `%40`
  /// name beside todoman's `@`), the one named as remconv names it now, else the first by name.
  mutating func claim(_ uid: String, preferring name: String) -> String? {
    let holding = items.filter { $0.uid == uid && !claimed.contains($0.file) }.map(\.file)
    guard let file = holding.first(where: { $0 == name }) ?? holding.first else { return nil }
    claimed.insert(file)
    return file
  }

  /// The items no reminder of the export was written into.
  var unclaimed: [(file: String, uid: String)] {
    items.filter { !claimed.contains($0.file) }
  }
}
