import Foundation

/// `--format ics`: iCalendar (RFC 5545) VTODOs, one VCALENDAR per list.
///
/// The mapping is documented in `docs/formats-ics.md`.
public enum ICSFormat {
  /// The `PRODID` remconv writes.
  static let productID = "-//remconv//NONSGML remconv//EN"

  public static let descriptor = FormatDescriptor(
    name: "ics", summary: "iCalendar VTODOs (RFC 5545), one VCALENDAR per list", extensions: ["ics", "ical", "ifb"],
    isDirectory: false,
    makeReader: { context in try ICSReader(context: context) },
    makeWriter: { context in try Writer(context: context) },
    sniff: { head in looksLikeICalendar(head) })

  /// True when the first non-blank line is `BEGIN:VCALENDAR` or `BEGIN:VTODO`.
  static func looksLikeICalendar(_ head: [UInt8]) -> Bool {
    var bytes = head[...]
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    bytes = bytes.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
    let start = String(decoding: bytes.prefix(16), as: UTF8.self).uppercased()
    return start.hasPrefix("BEGIN:VCALENDAR") || start.hasPrefix("BEGIN:VTODO")
  }

  /// The VCALENDAR properties of a list: name, colour, symbol, UID, creation time, and what the
  /// reader kept.
  static func calendarLines(for list: ReminderList) -> [String] {
    var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:" + productID]
    var written: Set<String> = ["VERSION", "PRODID"]
    func property(_ name: String, _ value: String) {
      lines.append(name + ":" + value)
      written.insert(name)
    }
    property("UID", ICSText.escape(list.id))
    property("NAME", ICSText.escape(list.name))
    property("X-WR-CALNAME", ICSText.escape(list.name))
    if let color = list.color { property("X-APPLE-CALENDAR-COLOR", color) }
    if list.symbol != ReminderList.defaultSymbol { property("X-REMCONV-SYMBOL", ICSText.escape(list.symbol)) }
    if let created = list.createdAt { property("X-REMCONV-CREATED", VTodoEncoder.utc(created)) }
    var passedThrough = list.extra
    passedThrough["ical"] = nil
    // An older remconv's jCal reader kept a calendar's properties in `extra.jcal`: written as
    // the properties they are; its components (a VTIMEZONE) stay other data.
    let legacy = list.extra["jcal"]?.objectValue ?? [:]
    passedThrough["jcal"] = legacy["components"].map { .object(["components": $0]) }
    if let json = ICSPassThrough.encode(passedThrough) { property("X-REMCONV-EXTRA", ICSText.escape(json)) }
    let ical = list.extra["ical"]?.objectValue ?? [:]
    // A value remconv could not read goes back where the list has none of its own.
    for raw in ical["invalid"]?.arrayValue ?? [] {
      if let line = raw.stringValue, !written.contains(ContentLine(text: line, line: 0).name) { lines.append(line) }
    }
    lines += (ical["lines"]?.arrayValue ?? []).compactMap(\.stringValue)
    lines += JCalTranslation.legacyLines(legacy, components: false)
    return lines
  }

  /// The lines of an iCalendar stream, list by list: what the `.ics` writer writes folded and
  /// the jCal writer translates, so both write one mapping.
  final class Lines {
    private let encoder: VTodoEncoder
    private let timezones: VTimezoneSource
    private let diagnostics: DiagnosticLog
    private var zonesInCalendar: Set<String> = []

    init(context: WriterContext) {
      encoder = VTodoEncoder(now: context.options.now, diagnostics: context.diagnostics)
      timezones = VTimezoneSource(diagnostics: context.diagnostics)
      diagnostics = context.diagnostics
    }

    /// `BEGIN:VCALENDAR` and the list's properties.
    func begin(_ list: ReminderList) -> [String] {
      zonesInCalendar = []
      if let created = list.createdAt, created.millisecondsSinceEpoch % 1000 != 0 {
        diagnostics.warning(
          "cannot-carry",
          "the list's createdAt has fractions of a second; iCalendar keeps whole seconds, so they are cut", uid: list.id
        )
      }
      return ICSFormat.calendarLines(for: list)
    }

    /// The VTIMEZONEs the reminder needs that its calendar does not have yet, then its VTODO
    /// (with its overrides).
    func lines(for reminder: Reminder) -> [String] {
      let encoded = encoder.encode(reminder)
      var lines: [String] = []
      for tzid in encoded.tzids where !zonesInCalendar.contains(tzid) {
        zonesInCalendar.insert(tzid)
        if let zone = timezones.lines(for: tzid, keptBy: reminder) { lines += zone }
      }
      return lines + encoded.lines
    }
  }

  /// An iCalendar stream: lists as VCALENDARs, each VTODO preceded by the VTIMEZONEs it needs
  /// that its calendar does not have yet.
  final class Writer: ReminderWriter {
    static let inputOrder = WriterInputOrder.groupedByList
    private var lines: FoldingLineWriter
    private let output: ByteWriter
    private let source: Lines
    private var calendarCount = 0

    init(context: WriterContext) throws {
      output = try context.requireStream("ics")
      lines = FoldingLineWriter(output: output)
      source = Lines(context: context)
    }

    func beginList(_ list: ReminderList) throws {
      calendarCount += 1
      try lines.write(source.begin(list))
    }

    func write(_ reminder: Reminder, in list: ReminderList, depth: Int) throws {
      try lines.write(source.lines(for: reminder))
    }

    func endList(_ list: ReminderList) throws {
      try lines.write("END:VCALENDAR")
    }

    func finish() throws {
      if calendarCount == 0 {
        // A file with no calendar is not iCalendar; an empty one is.
        try lines.write(["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:" + productID, "END:VCALENDAR"])
      }
      try output.flush()
    }
  }
}
