import Foundation

/// Writes a reminder as a VTODO (RFC 5545), putting back what the reader kept in
/// `extra["ical"]`, and reports what iCalendar cannot carry.
final class VTodoEncoder {
  /// A VTODO's content lines (unfolded) and the TZIDs they use.
  struct Encoded {
    var lines: [String]
    var tzids: [String]
  }

  private let stamp: String
  private let diagnostics: DiagnosticLog
  /// Whether each reminder whose times have fractions of a second is warned about. A sync
  /// counts them itself (`fractionalInstants`), once per sync, leaving out what was cut before.
  private let reportsFractions: Bool

  init(now: Date, diagnostics: DiagnosticLog, reportsFractions: Bool = true) {
    stamp = Self.utc(Timestamp(now))
    self.diagnostics = diagnostics
    self.reportsFractions = reportsFractions
  }

  func encode(_ reminder: Reminder) -> Encoded {
    // What an older remconv's jCal reader kept (`extra.jcal`) is the same iCalendar, written
    // as such; the details it kept count while `extra.ical` has none.
    let legacy = reminder.extra["jcal"]?.objectValue ?? [:]
    let ical = (reminder.extra["ical"]?.objectValue ?? [:]).merging(
      legacy.filter { ["status", "percent", "priority"].contains($0.key) }
    ) { own, _ in own }
    let parameters = ical["parameters"]?.objectValue ?? [:]
    var lines = ["BEGIN:VTODO"]
    var tzids: [String] = []

    func property(_ name: String, _ ownParameters: [String] = [], _ value: String) {
      var line = name
      for parameter in ownParameters { line += ";" + parameter }
      if let kept = parameters[name]?.stringValue { line += ";" + kept }
      lines.append(line + ":" + value)
    }

    reportWhatCannotBeCarried(reminder)
    property("UID", [], ICSText.escape(reminder.id))
    property("DTSTAMP", [], stamp)
    if let created = reminder.createdAt { property("CREATED", [], Self.utc(created)) }
    if let edited = reminder.editedAt { property("LAST-MODIFIED", [], Self.utc(edited)) }
    if !reminder.title.isEmpty { property("SUMMARY", [], ICSText.escape(reminder.title)) }
    if !reminder.notes.isEmpty { property("DESCRIPTION", [], ICSText.escape(reminder.notes)) }

    let keptStatus = ical["status"]?.stringValue
    if reminder.isDone {
      let cancelled = keptStatus?.uppercased() == "CANCELLED"
      property("STATUS", [], cancelled ? "CANCELLED" : "COMPLETED")
      if let completed = reminder.completedAt { property("COMPLETED", [], Self.utc(completed)) }
      if !cancelled { property("PERCENT-COMPLETE", [], "100") }
    } else {
      let status = keptStatus.flatMap { ["COMPLETED", "CANCELLED"].contains($0.uppercased()) ? nil : $0 }
      property("STATUS", [], status ?? "NEEDS-ACTION")
      if let percent = ical["percent"]?.intValue, (1...99).contains(percent) {
        property("PERCENT-COMPLETE", [], String(percent))
      }
      if reminder.completedAt != nil {
        diagnostics.warning(
          "cannot-carry",
          "the reminder is not done but has a completion time; iCalendar cannot say both, so COMPLETED is left out",
          uid: reminder.id)
      }
    }

    if let exact = ical["priority"]?.intValue, (1...9).contains(exact),
      Priority(iCalendarNumber: exact) == reminder.priority
    {
      property("PRIORITY", [], String(exact))
    } else if let number = reminder.priority.iCalendarNumber {
      property("PRIORITY", [], String(number))
    }

    switch reminder.dueDate {
    case .date(let date)?: property("DUE", ["VALUE=DATE"], date.basicString)
    case .floating(let time)?: property("DUE", [], time.basicString)
    case .utc(let time)?: property("DUE", [], time.basicString + "Z")
    case .zoned(let time, let zone)?:
      property("DUE", [ContentLineParameter.format(name: "TZID", values: [zone])], time.basicString)
      tzids.append(zone)
    case nil: break
    }

    let alarmLines = (ical[ICSSchedule.alarmLinesKey]?.arrayValue ?? []).map {
      ($0.arrayValue ?? []).compactMap(\.stringValue)
    }
    let schedule = ICSSchedule.lines(of: reminder, alarmLines: alarmLines)
    lines += schedule.properties
    for zone in schedule.tzids where !tzids.contains(zone) { tzids.append(zone) }

    let tags = reminder.tags.filter { !$0.isEmpty }
    if tags.count < reminder.tags.count {
      diagnostics.warning("cannot-carry", "iCalendar cannot carry an empty tag; it is left out", uid: reminder.id)
    }
    if !tags.isEmpty { property("CATEGORIES", [], tags.map(ICSText.escape).joined(separator: ",")) }
    if let url = reminder.url, !url.trimmingASCIIWhitespace().isEmpty {
      let singleLine = url.filter { $0 != "\n" && $0 != "\r" && $0 != "\r\n" }
      if singleLine != url {
        diagnostics.warning(
          "cannot-carry", "a URL cannot hold line breaks in iCalendar; they are removed", uid: reminder.id)
      }
      property("URL", [], singleLine)
    }
    if let parent = reminder.parentID { property("RELATED-TO", ["RELTYPE=PARENT"], ICSText.escape(parent)) }
    if reminder.flagged { property("X-REMCONV-FLAGGED", [], "TRUE") }
    var passedThrough = reminder.extra
    passedThrough["ical"] = nil
    passedThrough["jcal"] = nil
    if let json = ICSPassThrough.encode(passedThrough) { property("X-REMCONV-EXTRA", [], ICSText.escape(json)) }

    // Lines that could not be read go back wrapped, so the output stays valid iCalendar.
    for raw in ical["invalid"]?.arrayValue ?? [] {
      if let line = raw.stringValue { lines.append(VTodoDecoder.encodedInvalid(line)) }
    }
    lines += schedule.alarms
    lines += (ical["lines"]?.arrayValue ?? []).compactMap(\.stringValue)
    lines += JCalTranslation.legacyLines(legacy, components: true)
    lines.append("END:VTODO")
    for override in ical["overrides"]?.arrayValue ?? [] {
      lines += (override.arrayValue ?? []).compactMap(\.stringValue)
    }
    for line in lines.dropFirst() {
      guard line.contains("TZID="), let tzid = ContentLineParts(line)?.parameter("TZID"), !tzids.contains(tzid) else {
        continue
      }
      tzids.append(tzid)
    }
    return Encoded(lines: lines, tzids: tzids)
  }

  /// Reports, naming the reminder and the fields, what iCalendar cannot carry as the model
  /// holds it: fractions of a second, a CR in text (TEXT has one line break, written `\n`),
  /// an empty URL (a URL property needs a URI).
  private func reportWhatCannotBeCarried(_ reminder: Reminder) {
    let subSecond = Self.fractionalInstants(of: reminder).map(\.name)
    if reportsFractions, !subSecond.isEmpty {
      diagnostics.warning(
        "cannot-carry",
        "\(subSecond.joined(separator: ", ")) \(subSecond.count == 1 ? "has" : "have") fractions of a second; iCalendar keeps whole seconds, so they are cut",
        uid: reminder.id)
    }
    let texts = [("title", reminder.title), ("notes", reminder.notes)] + reminder.tags.map { ("tags", $0) }
    var withCR: [String] = []
    for (name, text) in texts where text.utf8.contains(0x0D) && !withCR.contains(name) { withCR.append(name) }
    if !withCR.isEmpty {
      diagnostics.warning(
        "cannot-carry",
        "\(withCR.joined(separator: ", ")) \(withCR.count == 1 ? "holds" : "hold") a CR; iCalendar text has one line break, so CR and CRLF are written as LF",
        uid: reminder.id)
    }
    if let start = reminder.startDate, start == reminder.dueDate {
      diagnostics.warning(
        "cannot-carry",
        "the start date equals the due date; iCalendar readers (Apple's convention) take DTSTART equal to DUE for no start date",
        uid: reminder.id)
    }
    if let url = reminder.url, url.trimmingASCIIWhitespace().isEmpty {
      diagnostics.warning(
        "cannot-carry", "the url is empty; iCalendar's URL needs a URI, so it is left out", uid: reminder.id)
    }
  }

  /// The reminder's instants that have fractions of a second (iCalendar keeps whole seconds),
  /// by field name, with the instant each is written as.
  static func fractionalInstants(of reminder: Reminder) -> [(name: String, written: Timestamp)] {
    let instants = [
      ("createdAt", reminder.createdAt), ("editedAt", reminder.editedAt), ("completedAt", reminder.completedAt),
    ]
    return instants.compactMap { name, value in
      guard let value, value.millisecondsSinceEpoch % 1000 != 0 else { return nil }
      return (name, Timestamp(utc: value.utcWallTime))
    }
  }

  /// `20261130T090000Z`.
  static func utc(_ value: Timestamp) -> String { value.utcWallTime.basicString + "Z" }
}

/// The VTIMEZONEs a writer adds for the TZIDs it uses: libical's for IANA zones, the input's
/// own (kept in `extra["ical"]["timezones"]`) for others.
final class VTimezoneSource {
  private var cache: [String: [String]] = [:]
  private var reported: Set<String> = []
  private let diagnostics: DiagnosticLog

  init(diagnostics: DiagnosticLog) {
    self.diagnostics = diagnostics
  }

  /// The VTIMEZONE lines for `tzid`, or nil (reported once) when none can be made.
  func lines(for tzid: String, keptBy reminder: Reminder) -> [String]? {
    if let cached = cache[tzid] { return cached }
    var lines: [String]?
    if tzid == "UTC" || tzid == "GMT" {
      lines = Self.fixedUTC(named: tzid)
    } else if TimeZoneResolver.isIANA(tzid) {
      lines = LibICal.builtinTimeZoneLines(for: tzid)
    }
    if lines == nil,
      let kept = reminder.extra["ical"]?.objectValue?["timezones"]?.objectValue?[tzid]?.arrayValue
    {
      lines = kept.compactMap(\.stringValue)
    }
    guard let lines else {
      if reported.insert(tzid).inserted {
        diagnostics.warning(
          "cannot-carry", "no VTIMEZONE is known for TZID '\(tzid)'; it is written without one", uid: reminder.id)
      }
      return nil
    }
    cache[tzid] = lines
    return lines
  }

  /// libical has no component for its UTC zone; this one says what UTC is.
  private static func fixedUTC(named name: String) -> [String] {
    [
      "BEGIN:VTIMEZONE", "TZID:\(name)", "BEGIN:STANDARD", "DTSTART:19700101T000000", "TZOFFSETFROM:+0000",
      "TZOFFSETTO:+0000", "TZNAME:\(name)", "END:STANDARD", "END:VTIMEZONE",
    ]
  }
}

/// Writes unfolded content lines folded, with CRLF.
struct FoldingLineWriter {
  let output: ByteWriter
  private var buffer: [UInt8] = []

  init(output: ByteWriter) {
    self.output = output
  }

  mutating func write(_ line: String) throws(RemconvError) {
    buffer.removeAll(keepingCapacity: true)
    ICSText.appendFolded(line, to: &buffer)
    try output.write(bytes: buffer)
  }

  mutating func write(_ lines: [String]) throws(RemconvError) {
    for line in lines { try write(line) }
  }
}
