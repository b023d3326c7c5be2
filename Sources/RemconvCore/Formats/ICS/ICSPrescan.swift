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

/// The pre-scan's quick reading: the lines `ContentLineReader` unfolds, passing over the
/// lines the cutter passes over (and a calendar's properties), but no line made a
/// `ContentLine` unless it is a VTIMEZONE's that is not the first of its TZID again, or a
/// VTODO's RELATED-TO (or the UID of a VTODO that has one), and no block cut.
///
/// It reads the input as far as it is sure of it: `run()` returns nil at the first thing the
/// cutter would refuse or judge by a limit, leaving the input to the cutter.
struct ICSSkim {
  private let bytes: ByteReader
  private let lines: ContentLineReader
  private let session: ICSReadSession

  /// Whether a VCALENDAR is open, and the components open inside it or at the top.
  private var insideCalendar = false
  private var open: [String] = []
  private var outermost = Outermost.other
  private var componentStart = 0
  private var sawContent = false

  /// The lines of the VTIMEZONE being read, decoded, one after another.
  private var zoneBytes: [UInt8] = []
  private var zoneLines: [ZoneLine] = []
  /// The VTODO being read: its first UID line and its RELATED-TO lines.
  private var uidBytes: [UInt8]?
  private var uidLine = 0
  private var relatedLines: [ContentLine] = []
  private var zones = RecordDigest(high: 0, low: 0)
  /// Where the lines of the VTIMEZONE being read begin, after its `BEGIN` line.
  private var zoneRawStart = 0
  private var zoneRawStartLine = 0
  /// VTIMEZONEs read and added, as they were written: a calendar per list repeats the same
  /// zones, and a repetition is passed over by comparing its bytes.
  private var seenZones: [SeenZone] = []

  private struct SeenZone {
    /// The `BEGIN` line, decoded.
    var begin: [UInt8]
    /// The physical lines after it, to the end of its `END` line, as written.
    var raw: [UInt8]
    var physicalLines: Int
    /// Every line decoded, one after another, and where each ends: the digest's input.
    var decoded: [UInt8]
    var lineEnds: [Int]
  }

  /// How many zones, of how many bytes each at the most, are kept to be recognised again.
  private static let seenZoneLimit = 32
  private static let seenZoneSize = 1 << 18

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
  /// The cutter reads every property of a calendar and limits its length
  /// (`InputLimits.maximumLineLength`); the skim passes over them, and leaves to the cutter a
  /// calendar whose properties between two lines it reads take this many bytes or more.
  private static let longestPassedOver = 1 << 20

  init(bytes: ByteReader, session: ICSReadSession) {
    self.bytes = bytes
    self.lines = ContentLineReader(bytes: bytes, file: session.file, diagnostics: nil)
    self.session = session
  }

  /// The digest of the VTIMEZONEs as `ICSPrescan.scan` returns it, with the zones and links
  /// added to the session; nil when the cutter must read the input. Throws only what adding a
  /// zone throws, which is the cutter's error too: the skim read every line before the zone.
  mutating func run() throws(RemconvError) -> String? {
    while true {
      let passingOverProperties = open.isEmpty && insideCalendar
      let from = bytes.offset
      let head: ContentLineReader.Head?
      do {
        head = try lines.nextHead(readingOnly: readingSet)
      } catch {
        return nil
      }
      if passingOverProperties, bytes.offset - from >= Self.longestPassedOver { return nil }
      guard let head else {
        guard sawContent, !insideCalendar, open.isEmpty else { return nil }
        return ICSPrescan.digestText(zones)
      }
      guard try take(head) else { return nil }
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

  /// Takes the line just read; false where the cutter must judge.
  private mutating func take(_ head: ContentLineReader.Head) throws(RemconvError) -> Bool {
    sawContent = true
    guard !open.isEmpty else { return takeOutside(head) }
    let depth = open.count
    if outermost == .zone {
      lines.withDecodedBytes { zoneBytes.append(contentsOf: $0) }
      zoneLines.append(
        ZoneLine(end: zoneBytes.count, line: head.line, known: head.known, boundary: head.boundary, isOwn: depth == 1))
    }
    switch head.boundary {
    case .begin(let inner):
      open.append(inner)
      return open.count <= InputLimits.maximumNestingDepth
    case .end(let inner):
      guard inner == open.last else { return false }
      open.removeLast()
      return open.isEmpty ? try finishComponent() : true
    case nil:
      if outermost == .todo, depth == 1 {
        if head.known == .uid, uidBytes == nil {
          uidBytes = lines.withDecodedBytes(Array.init)
          uidLine = head.line
        } else if head.known == .relatedTo {
          relatedLines.append(lines.materialize())
        }
      }
      return true
    }
  }

  /// A line outside any component: the calendar's boundaries, its properties, a component's
  /// `BEGIN`.
  private mutating func takeOutside(_ head: ContentLineReader.Head) -> Bool {
    switch head.boundary {
    case .begin("VCALENDAR"):
      guard !insideCalendar else { return false }
      insideCalendar = true
    case .begin(let name):
      if name == "VTIMEZONE", passOverSeenZone() { return true }
      open = [name]
      outermost = name == "VTODO" ? .todo : name == "VTIMEZONE" ? .zone : .other
      // Its `BEGIN` line counts too (`finishComponent`).
      componentStart = bytes.offset - lines.decodedLength
      if outermost == .zone {
        zoneRawStart = bytes.offset
        zoneRawStartLine = lines.physicalLine
        zoneBytes = lines.withDecodedBytes(Array.init)
        zoneLines = [
          ZoneLine(end: zoneBytes.count, line: head.line, known: head.known, boundary: head.boundary, isOwn: false)
        ]
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
    if seenZones.count < Self.seenZoneLimit, bytes.offset - zoneRawStart <= Self.seenZoneSize,
      let raw = bytes.bufferedBytes(since: zoneRawStart)
    {
      seenZones.append(
        SeenZone(
          begin: Array(zoneBytes[..<zoneLines[0].end]), raw: raw, physicalLines: lines.physicalLine - zoneRawStartLine,
          decoded: zoneBytes, lineEnds: zoneLines.map(\.end)))
    }
  }

  /// Passes over a VTIMEZONE whose `BEGIN` line was just read when it repeats one read before
  /// byte for byte, adding its lines to the digest: adding it to the session again would change
  /// nothing (the first of a TZID wins; it passed the checks already).
  private mutating func passOverSeenZone() -> Bool {
    for seen in seenZones where lines.withDecodedBytes({ $0.elementsEqual(seen.begin) }) {
      guard seen.raw.withUnsafeBufferPointer({ lines.passOver(repeated: $0, lineCount: seen.physicalLines) }) else {
        continue
      }
      var zones = self.zones
      seen.decoded.withUnsafeBytes { decoded in
        var start = 0
        for end in seen.lineEnds {
          zones = RecordDigest(of: UnsafeRawBufferPointer(rebasing: decoded[start..<end]), seed: zones)
          start = end
        }
      }
      self.zones = zones
      return true
    }
    return false
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
      if equal {
        var keptText = kept.lines[index].text
        equal = keptText.withUTF8 { $0.elementsEqual(text) }
      }
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
