/// The first pass over an input: what a record may need from further on in the file.
///
/// The reading pass yields each VTODO as it reads it, and three things it needs may come after
/// it: the VTIMEZONEs (Apple writes them after the VTODO; a TZID resolves to the first zone of
/// that TZID anywhere in the input), the digest of every VTIMEZONE's lines (part of each
/// VTODO's digest, stored with its row), and the `RELATED-TO;RELTYPE=CHILD` links (a child may
/// come before its parent). The pass also finds broken structure before anything is read, so
/// that bad input gives its error alone, not after the warnings of the records before it.
///
/// Most of a file is neither: the pass reads it as `ICSSkim`, which looks at a line only when
/// its first byte may make it a boundary, a VTODO's UID or RELATED-TO, or a line of a
/// VTIMEZONE, and makes nothing of a VTODO that states no link. What the skim does not judge
/// itself (broken structure, a line that is not UTF-8, a limit reached) sends the input back to
/// the start and through the cutter (`scanByCutting`), which gives the same results and the
/// errors of the reading pass.
enum ICSPrescan {
  /// Reads the VTIMEZONEs and the links; returns a digest of the VTIMEZONEs' lines as text,
  /// for the digests of VTODOs (a VTODO's times mean what the zones say).
  @discardableResult
  static func scan(_ bytes: ByteReader, session: ICSReadSession) throws(RemconvError) -> String {
    var skim = ICSSkim(bytes: bytes, session: session)
    if let zones = try skim.run() { return zones }
    // What the skim added is a prefix of what the cutter adds, in the same order: the first
    // zone and the first link of a name win, so adding them again changes nothing.
    try bytes.rewind()
    return try scanByCutting(bytes, session: session)
  }

  /// The pre-scan through the cutter, as the reading pass cuts: every error it meets is the
  /// reading pass's.
  static func scanByCutting(_ bytes: ByteReader, session: ICSReadSession) throws(RemconvError) -> String {
    var zones = RecordDigest(high: 0, low: 0)
    // Of a VTODO only its own UID and RELATED-TO lines are needed here (not its VALARMs'), and
    // the VTIMEZONEs whole: the reading pass leaves them to this one.
    let cutter = ComponentCutter(
      lines: ContentLineReader(bytes: bytes, file: session.file, diagnostics: nil), file: session.file,
      keeping: ["VTODO", "VTIMEZONE"],
      selecting: ComponentCutter.LineSelection(whole: ["VTIMEZONE"], topLevel: [.uid, .relatedTo]))
    while let event = try cutter.next() {
      guard case .component(let block, _) = event else { continue }
      if block.name == "VTIMEZONE" {
        try session.zones.add(block)
        for line in block.lines { zones = zones.appending(line.text) }
      } else if let parent = block.firstValue(of: .uid) {
        addLinks(
          from: parent, block.topLevelProperties().lazy.map(\.line).filter { $0.known == .relatedTo }, to: session)
      }
    }
    return digestText(zones)
  }

  /// Adds the `RELTYPE=CHILD` links among a VTODO's own RELATED-TO lines; `parent` is its UID.
  static func addLinks(from parent: String, _ relatedLines: some Sequence<ContentLine>, to session: ICSReadSession) {
    guard !parent.isEmpty else { return }
    for line in relatedLines {
      guard let parts = line.parts, parts.parameter("RELTYPE")?.uppercased() == "CHILD" else { continue }
      let child = ICSText.unescape(parts.value).trimmingASCIIWhitespace()
      if !child.isEmpty { session.links.add(child: child, parent: parent, at: session.location(line.line)) }
    }
  }

  static func digestText(_ zones: RecordDigest) -> String { "\(zones.high)-\(zones.low)" }
}

/// The pre-scan's quick reading: the lines `ContentLineReader` would unfold, the same lines
/// passed over unread, but no line made a `ContentLine` unless it is a VTIMEZONE's first of
/// its TZID or a VTODO's RELATED-TO (or the UID of a VTODO that has one), and no block cut.
///
/// It reads the input as far as it is sure of it: `run()` returns nil at the first thing the
/// cutter would refuse or judge by a limit, and at a line that is not UTF-8 (the cutter reads it
/// as ISO-8859-1), leaving the input to the cutter.
struct ICSSkim {
  private let bytes: ByteReader
  private let session: ICSReadSession
  private var physicalLine = 0
  /// The logical line being unfolded; its storage is reused from line to line.
  private var logical: [UInt8] = []

  /// Whether a VCALENDAR is open, and the components open inside it or at the top.
  private var insideCalendar = false
  private var open: [String] = []
  private var outermost = Outermost.other
  private var componentStart = 0
  private var sawContent = false

  /// The lines of the VTIMEZONE being read, unfolded, one after another.
  private var zoneBytes: [UInt8] = []
  private var zoneLines: [ZoneLine] = []
  /// The VTODO being read: its first UID line and its RELATED-TO lines.
  private var uidBytes: [UInt8]?
  private var uidLine = 0
  private var relatedLines: [ContentLine] = []
  private var zones = RecordDigest(high: 0, low: 0)

  private enum Outermost { case todo, zone, other }

  private struct ZoneLine {
    var end: Int
    var line: Int
    var known: ICSName?
    var boundary: ComponentBoundary?
    var isOwn: Bool
  }

  /// What a line may be that starts with a byte outside the set: nothing the skim needs.
  private static let boundaryBytes = ByteSet(Array("BEbe".utf8))
  private static let todoOwnBytes = ByteSet(Array("BEURbeur".utf8))
  /// A line passed over this long or longer is left to the cutter, which reads some such lines
  /// and limits them (`InputLimits.maximumLineLength`); no iCalendar producer writes one.
  private static let longestSkippedLine = 1 << 20

  init(bytes: ByteReader, session: ICSReadSession) {
    self.bytes = bytes
    self.session = session
  }

  /// The digest of the VTIMEZONEs as `ICSPrescan.scan` returns it, with the zones and links
  /// added to the session; nil when the cutter must read the input. Throws only what adding a
  /// zone throws, which is the cutter's error too: the skim read every line before the zone.
  mutating func run() throws(RemconvError) -> String? {
    while true {
      guard let step = nextLine(reading: readingSet) else { return nil }
      switch step {
      case .skipped:
        continue
      case .end:
        guard sawContent, !insideCalendar, open.isEmpty else { return nil }
        return ICSPrescan.digestText(zones)
      case .line(let start):
        guard try take(start) else { return nil }
      }
    }
  }

  /// The first bytes of the lines the skim reads where it is; nil reads every line.
  private var readingSet: ByteSet? {
    if open.isEmpty { return insideCalendar ? Self.boundaryBytes : nil }
    switch outermost {
    case .zone: return nil
    case .todo: return open.count == 1 ? Self.todoOwnBytes : Self.boundaryBytes
    case .other: return Self.boundaryBytes
    }
  }

  private enum Step {
    case line(start: Int)
    case skipped
    case end
  }

  /// Unfolds the next line into `logical` as `ContentLineReader` does, or passes over it (and
  /// its continuation lines) when its first byte is not in `firstBytes`; nil where the reader
  /// throws.
  private mutating func nextLine(reading firstBytes: ByteSet?) -> Step? {
    var logical = self.logical
    self.logical = []
    defer { self.logical = logical }
    do {
      while true {
        if let firstBytes, physicalLine > 0, let lead = try bytes.peek(),
          lead != 0x20, lead != 0x09, lead != 0x0A, lead != 0x0D, !firstBytes.contains(lead)
        {
          let from = bytes.offset
          _ = try bytes.skipLine()
          physicalLine += 1
          while let lead = try bytes.peek(), lead == 0x20 || lead == 0x09 {
            _ = try bytes.skipLine()
            physicalLine += 1
          }
          return bytes.offset - from < Self.longestSkippedLine ? .skipped : nil
        }
        logical.removeAll(keepingCapacity: true)
        guard try bytes.appendLine(to: &logical) else { return .end }
        physicalLine += 1
        if physicalLine == 1, logical.starts(with: [0xEF, 0xBB, 0xBF]) { logical.removeFirst(3) }
        let start = physicalLine
        if logical.isEmpty { continue }
        if logical[0] == 0x20 || logical[0] == 0x09 { logical.removeFirst() }
        while let lead = try bytes.peek(), lead == 0x20 || lead == 0x09 {
          _ = try bytes.next()
          _ = try bytes.appendLine(to: &logical, limit: InputLimits.maximumLineLength - 1)
          physicalLine += 1
          if logical.count > InputLimits.maximumRawItemSize { return nil }
        }
        if logical.isEmpty { continue }
        return .line(start: start)
      }
    } catch {
      return nil
    }
  }

  /// Takes the line in `logical`; false where the cutter must judge.
  private mutating func take(_ start: Int) throws(RemconvError) -> Bool {
    let known: ICSName?
    let boundary: ComponentBoundary?
    if logical.withUnsafeBufferPointer(ContentLineReader.isPlainASCII) {
      (known, boundary) = logical.withUnsafeBufferPointer(ContentLine.nameAndBoundary)
    } else {
      guard let text = String(validUTF8: logical) else { return false }
      let line = ContentLine(text: text, line: start)
      (known, boundary) = (line.known, line.boundary)
    }
    sawContent = true
    guard !open.isEmpty else { return takeOutside(boundary, start: start) }
    let depth = open.count
    if outermost == .zone {
      zoneBytes.append(contentsOf: logical)
      zoneLines.append(
        ZoneLine(end: zoneBytes.count, line: start, known: known, boundary: boundary, isOwn: depth == 1))
    }
    switch boundary {
    case .begin(let inner):
      open.append(inner)
      return open.count <= InputLimits.maximumNestingDepth
    case .end(let inner):
      guard inner == open.last else { return false }
      open.removeLast()
      return open.isEmpty ? try finishComponent() : true
    case nil:
      if outermost == .todo, depth == 1 {
        if known == .uid, uidBytes == nil {
          uidBytes = logical
          uidLine = start
        } else if known == .relatedTo {
          relatedLines.append(ContentLine(text: String(decoding: logical, as: UTF8.self), line: start))
        }
      }
      return true
    }
  }

  /// A line outside any component: the calendar's boundaries, its properties, a component's
  /// `BEGIN`.
  private mutating func takeOutside(_ boundary: ComponentBoundary?, start: Int) -> Bool {
    switch boundary {
    case .begin("VCALENDAR"):
      guard !insideCalendar else { return false }
      insideCalendar = true
    case .begin(let name):
      open = [name]
      outermost = name == "VTODO" ? .todo : name == "VTIMEZONE" ? .zone : .other
      // Its `BEGIN` line counts too (`finishComponent`).
      componentStart = bytes.offset - logical.count
      if outermost == .zone {
        zoneBytes = logical
        zoneLines = [ZoneLine(end: zoneBytes.count, line: start, known: .begin, boundary: boundary, isOwn: false)]
      } else if outermost == .todo {
        uidBytes = nil
        relatedLines = []
      }
    case .end("VCALENDAR"):
      guard insideCalendar else { return false }
      insideCalendar = false
    case .end:
      return false
    case nil:
      // A calendar's property; outside a calendar (or first in the input) the cutter refuses it.
      return insideCalendar
    }
    return true
  }

  /// Adds what the component just closed holds; false where the cutter must judge its size.
  private mutating func finishComponent() throws(RemconvError) -> Bool {
    // The cutter limits a kept component's decoded lines, which are at most twice its bytes.
    guard outermost == .other || 2 * (bytes.offset - componentStart) <= InputLimits.maximumRawItemSize else {
      return false
    }
    switch outermost {
    case .zone: try finishZone()
    case .todo: finishTodo()
    case .other: break
    }
    return true
  }

  private mutating func finishZone() throws(RemconvError) {
    defer {
      zoneBytes = []
      zoneLines = []
    }
    if !isKeptAlready() {
      var lines: [ContentLine] = []
      lines.reserveCapacity(zoneLines.count)
      forEachZoneLine { text, line in
        lines.append(
          ContentLine(
            text: String(decoding: text, as: UTF8.self), line: line.line, known: line.known, boundary: line.boundary))
      }
      try session.zones.add(ComponentBlock(name: "VTIMEZONE", lines: lines, startLine: zoneLines[0].line))
    }
    var zones = self.zones
    forEachZoneLine { text, _ in zones = RecordDigest(of: UnsafeRawBufferPointer(text), seed: zones) }
    self.zones = zones
  }

  /// Whether the VTIMEZONE read is, byte for byte, the one the session keeps for its TZID:
  /// adding it would change nothing (`TimeZoneBook.add`), and a calendar per list repeats the
  /// same zones.
  private func isKeptAlready() -> Bool {
    var tzid: String?
    var found = false
    forEachZoneLine { text, line in
      guard !found, line.isOwn, line.boundary == nil, line.known == .tzid else { return }
      found = true
      tzid = ContentLine(text: String(decoding: text, as: UTF8.self), line: line.line).parts.map {
        ICSText.unescape($0.value)
      }
    }
    guard let tzid, let kept = session.zones.blocks[tzid], kept.lines.count == zoneLines.count else { return false }
    var index = 0
    var equal = true
    forEachZoneLine { text, _ in
      if equal { equal = kept.lines[index].text.utf8.elementsEqual(text) }
      index += 1
    }
    return equal
  }

  /// Each line of the VTIMEZONE read, as its bytes.
  private func forEachZoneLine(_ body: (UnsafeBufferPointer<UInt8>, ZoneLine) -> Void) {
    zoneBytes.withUnsafeBufferPointer { all in
      var start = 0
      for line in zoneLines {
        body(UnsafeBufferPointer(rebasing: all[start..<line.end]), line)
        start = line.end
      }
    }
  }

  private mutating func finishTodo() {
    defer { relatedLines = [] }
    guard !relatedLines.isEmpty, let uidBytes else { return }
    let uidLine = ContentLine(text: String(decoding: uidBytes, as: UTF8.self), line: uidLine)
    guard let parent = uidLine.parts.map({ ICSText.unescape($0.value) }) else { return }
    ICSPrescan.addLinks(from: parent, relatedLines, to: session)
  }
}
