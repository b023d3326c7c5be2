import Foundation

/// Reads an iCalendar stream as lists and reminders, one VTODO (with its overrides) at a time.
///
/// A first pass (the pre-scan) collects the few things that may come after what needs them:
/// VTIMEZONEs (Apple writes them after the VTODO) and `RELATED-TO;RELTYPE=CHILD` links (a
/// child may come before its parent). Standard input is spooled to an unlinked temporary file
/// for this. The second pass cuts the stream at component boundaries: each VCALENDAR becomes a
/// list, each VTODO a reminder, VEVENT, VJOURNAL and other components are counted as skipped.
final class ICSReader: RawRecordReader {
  private let session: ICSReadSession
  private let cutter: ComponentCutter
  /// Set when reading one vdir item: every reminder goes to this list, calendars make none.
  private let itemList: ReminderList?
  /// What identifies a UID-less item (a vdir file's name), instead of its title and due date.
  private let derivation: [String]?
  /// The name of a list for a calendar that names none.
  private let fallbackName: String
  /// A reader of a whole input reports the children its parents name but it lacks, once the
  /// last reminder is decoded or passed over.
  private var reportsMissingChildren: Bool

  private var queue: [ReadRecord] = []
  private var calendarProperties: [ContentLine] = [] {
    didSet { calendarWrittenByRemconv = nil }
  }
  /// Whether the calendar's PRODID is remconv's, found once per calendar (each VTODO asks).
  private var calendarWrittenByRemconv: Bool?
  private var calendarList: ReminderList?
  private var propertiesAfterList = false
  private var strayList: ReminderList?
  /// VTODOs with one UID, next to each other: a master and its RECURRENCE-ID overrides.
  private var group: [ComponentBlock] = []
  /// The UID of the held group (nil when its first VTODO has none).
  private var groupUID: String?
  /// The bytes of the held group's lines: one reminder, bounded as one item.
  private var groupSize = 0
  private var groupListID = ""
  private var groupWrittenByRemconv = false
  private var finished = false
  /// What the digests of VTODOs depend on besides their lines (the options, every VTIMEZONE
  /// of the input); nil for a reader of one vdir item, whose VTODOs are always decoded.
  private let digestContext: RecordDigest?
  /// The raw reminder: a group with a UID, cut from the input and not decoded yet.
  private var raw = RawGroup()

  /// A master VTODO with its overrides, and what decoding them depends on besides their lines.
  private struct RawGroup {
    /// In the order read: masters (VTODOs without RECURRENCE-ID) and their overrides.
    var blocks: [ComponentBlock] = []
    var uid = ""
    var listID = ""
    var writtenByRemconv = false
    var digestContext = RecordDigest(high: 0, low: 0)
  }

  /// The components whose lines the reader needs; others are only counted. The VTIMEZONEs
  /// are the pre-scan's (`ICSPrescan`), which every reader of a file follows: reading their
  /// lines again was a sixth of the lines of a calendar whose zones carry their history.
  static let keptComponents: Set<String> = ["VTODO"]

  /// A reader of a whole `.ics` input.
  convenience init(context: ReaderContext) throws {
    let session = ICSReadSession(
      file: context.source.displayName, diagnostics: context.diagnostics, options: context.options,
      links: ChildLinks(), derivedIDs: DerivedIDGenerator())
    let inputs = try ICSInput.openTwice(context)
    let zones = try ICSPrescan.scan(inputs.prescan, session: session)
    self.init(
      bytes: inputs.main, session: session, itemList: nil, derivation: nil,
      fallbackName: context.source.baseName ?? "Reminders", reportsMissingChildren: true,
      digestContext: context.recordDigestContext(format: "ics", [zones]))
  }

  init(
    bytes: ByteReader, session: ICSReadSession, itemList: ReminderList?, derivation: [String]?, fallbackName: String,
    reportsMissingChildren: Bool, digestContext: RecordDigest? = nil
  ) {
    self.digestContext = digestContext
    self.session = session
    self.cutter = ComponentCutter(
      lines: ContentLineReader(bytes: bytes, file: session.file, diagnostics: session.diagnostics), file: session.file,
      keeping: Self.keptComponents)
    self.itemList = itemList
    self.derivation = derivation
    self.fallbackName = fallbackName
    self.reportsMissingChildren = reportsMissingChildren
  }

  func nextRecord() throws -> ReadRecord? {
    while queue.isEmpty {
      if finished {
        if reportsMissingChildren {
          reportsMissingChildren = false
          session.links.reportMissing(to: session.diagnostics)
        }
        return nil
      }
      guard let event = try cutter.next() else {
        finished = true
        try flushGroup()
        continue
      }
      try handle(event)
    }
    return queue.removeFirst()
  }

  private func handle(_ event: CutterEvent) throws {
    switch event {
    case .calendarBegin:
      try flushGroup()
      calendarProperties = []
      calendarList = nil
      propertiesAfterList = false
    case .calendarProperty(let line):
      calendarProperties.append(line)
      if calendarList != nil { propertiesAfterList = true }
    case .component(let block, let insideCalendar):
      if !insideCalendar, itemList == nil, block.name != "VTIMEZONE" {
        session.warn(
          "stray-component", "BEGIN:\(block.name) outside any VCALENDAR; it is read as if it were inside one",
          line: block.startLine, uid: nil)
      }
      switch block.name {
      case "VTIMEZONE":
        break  // the pre-scan has added it to `session.zones`
      case "VTODO":
        try add(block, listID: listID(insideCalendar: insideCalendar))
      default:
        queue.append(.record(.skipped(kind: block.name, session.location(block.startLine))))
      }
    case .calendarEnd:
      try flushGroup()
      guard itemList == nil else { return }
      if calendarList == nil, VCalendarDecoder.hasName(calendarProperties) {
        queue.append(.record(.list(decodeCalendar())))
      } else if let list = calendarList, propertiesAfterList {
        var updated = decodeCalendar()
        updated.id = list.id
        if updated != list { queue.append(.record(.list(updated))) }
      }
      calendarProperties = []
      calendarList = nil
    }
  }

  /// The list for a VTODO, announcing it before its first reminder.
  private func listID(insideCalendar: Bool) -> String {
    if let itemList { return itemList.id }
    if insideCalendar {
      if let calendarList { return calendarList.id }
      let list = decodeCalendar()
      calendarList = list
      queue.append(.record(.list(list)))
      return list.id
    }
    if let strayList { return strayList.id }
    let list = ReminderList(id: StableID.derived(["list", ListName.key(for: fallbackName)]), name: fallbackName)
    strayList = list
    queue.append(.record(.list(list)))
    return list.id
  }

  private func decodeCalendar() -> ReminderList {
    VCalendarDecoder(session: session).decode(calendarProperties, fallbackName: fallbackName)
  }

  private func add(_ block: ComponentBlock, listID: String) throws {
    let uid = block.firstValue(of: .uid)
    let size = block.lines.reduce(0) { $0 + $1.text.utf8.count }
    if let uid, !uid.isEmpty, !group.isEmpty, listID == groupListID, groupUID == uid {
      groupSize += size
      if groupSize > InputLimits.maximumRawItemSize {
        throw RemconvError.invalidInput(
          "the VTODO \(uid) with its overrides is larger than the limit of \(InputLimits.maximumRawItemSize) bytes of one item as iCalendar",
          at: session.location(group[0].startLine))
      }
      group.append(block)
      return
    }
    try flushGroup()
    groupSize = size
    group = [block]
    groupUID = uid
    groupListID = listID
    if calendarWrittenByRemconv == nil {
      calendarWrittenByRemconv = calendarProperties.contains { line in
        line.known == .prodid && line.parts?.value == ICSFormat.productID
      }
    }
    groupWrittenByRemconv = calendarWrittenByRemconv ?? false
  }

  /// Yields the held group: raw when it has a UID and may be skipped, else decoded.
  private func flushGroup() throws {
    guard !group.isEmpty else { return }
    defer { group = [] }
    let held = RawGroup(
      blocks: group, uid: groupUID ?? "", listID: groupListID, writtenByRemconv: groupWrittenByRemconv,
      digestContext: digestContext ?? RecordDigest(high: 0, low: 0))
    // Where its reminder is: its first master's line (a group of several may start with an
    // override; a group of one is its own master, or an orphan override read as one).
    let master = group.count == 1 ? group[0] : group.first { !Self.isOverride($0) } ?? group[0]
    let location = session.location(master.startLine)
    if digestContext != nil, !held.uid.isEmpty {
      raw = held
      queue.append(.raw(location))
    } else {
      let index = queue.count
      let decoded = decode(held, queueingOtherMastersAt: index)
      queue.insert(.record(.reminder(decoded.reminder, location)), at: index)
    }
  }

  /// The digest of the raw group: its lines, and what decoding them depends on beyond them
  /// (its list, whether remconv wrote the calendar, the parent that names it as a child).
  func digestOfRaw() -> RecordDigest {
    var digest = raw.digestContext.appending(raw.listID).appending(marker: raw.writtenByRemconv ? 1 : 0)
    digest = session.links.parent(of: raw.uid).map { digest.appending($0.parent) } ?? digest.appending(marker: 2)
    for block in raw.blocks {
      for line in block.lines { digest = digest.appending(line.text) }
    }
    return digest
  }

  /// Decodes the raw group; a second master's reminder comes next.
  func decodeRaw() throws -> DecodedReminder {
    defer { raw = RawGroup() }
    let decoded = decode(raw, queueingOtherMastersAt: 0)
    return (decoded.reminder, raw.uid, decoded.isSkippable)
  }

  /// The store holds the group unchanged; it still counts as read for the links parents
  /// state (`missing-child`).
  func passOverRaw() {
    session.links.markSeen(raw.uid)
    raw = RawGroup()
  }

  /// Decodes a group: its first master with the overrides. Another master with the same UID is
  /// a reminder of its own (the merge engine reports the duplicate), queued at `index`. Not
  /// skippable next time: a group of two masters, nor one that asked for a warning said once
  /// per input, said or not (skipping it could move that warning to another).
  private func decode(_ held: RawGroup, queueingOtherMastersAt index: Int) -> (reminder: Reminder, isSkippable: Bool) {
    var masters = held.blocks.filter { !Self.isOverride($0) }
    var overrides = held.blocks.filter(Self.isOverride)
    if masters.isEmpty {
      let first = overrides.removeFirst()
      session.warn(
        "orphan-override",
        "this VTODO overrides one occurrence (RECURRENCE-ID) of a VTODO that is not next to it; it is imported as a reminder of its own",
        line: first.startLine, uid: first.firstValue(of: .uid))
      masters = [first]
    }
    let decoder = VTodoDecoder(session: session)
    let onceWarnings = session.onceWarningsAsked
    let reminder = decoder.decode(
      master: masters[0], overrides: overrides, listID: held.listID, derivation: derivation,
      stampIsEditTime: !held.writtenByRemconv)
    for (offset, master) in masters.dropFirst().enumerated() {
      let other = decoder.decode(
        master: master, overrides: [], listID: held.listID, derivation: derivation,
        stampIsEditTime: !held.writtenByRemconv)
      queue.insert(.record(.reminder(other, session.location(master.startLine))), at: index + offset)
    }
    return (reminder, masters.count == 1 && session.onceWarningsAsked == onceWarnings)
  }

  private static func isOverride(_ block: ComponentBlock) -> Bool { block.has(.recurrenceID) }
}

/// Opens an input twice, for the pre-scan and the reading pass.
enum ICSInput {
  static func openTwice(_ context: ReaderContext) throws(RemconvError) -> (prescan: ByteReader, main: ByteReader) {
    if case .file(let path) = context.source, context.preopened == nil, isRegularFile(path) {
      return (try ByteReader.open(path: path), try ByteReader.open(path: path))
    }
    return try spool(context.openByteReader(), name: context.source.displayName)
  }

  static func isRegularFile(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
  }

  /// Copies a stream (standard input, a pipe) to a private temporary file, line by line, and
  /// opens it twice.
  private static func spool(_ input: ByteReader, name: String) throws(RemconvError) -> (
    prescan: ByteReader, main: ByteReader
  ) {
    try spool(name: name) { writer throws(RemconvError) in
      while let line = try input.readLine() {
        try writer.write(bytes: line)
        try writer.write(byte: 0x0A)
      }
    }
  }

  /// What `write` writes, in a private temporary file opened twice. The file is unlinked at
  /// once: nothing is left behind.
  static func spool(name: String, _ write: (ByteWriter) throws(RemconvError) -> Void) throws(RemconvError) -> (
    prescan: ByteReader, main: ByteReader
  ) {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("remconv-spool-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).ics").path
    let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw .ioFailure("\(name): cannot spool to a temporary file: \(String(cString: strerror(errno)).lowercased())")
    }
    let second = open(path, O_RDONLY | O_CLOEXEC)
    unlink(path)
    guard second >= 0 else {
      close(descriptor)
      throw .ioFailure("\(name): cannot reopen the spooled input: \(String(cString: strerror(errno)).lowercased())")
    }
    let writer = ByteWriter(fileDescriptor: descriptor, name: name)
    do {
      try write(writer)
      try writer.flush()
    } catch {
      close(descriptor)
      close(second)
      throw error
    }
    lseek(descriptor, 0, SEEK_SET)
    return (
      ByteReader(fileDescriptor: descriptor, name: name, ownsDescriptor: true),
      ByteReader(fileDescriptor: second, name: name, ownsDescriptor: true)
    )
  }
}
