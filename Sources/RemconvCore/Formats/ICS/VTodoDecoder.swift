import Foundation

/// Turns a VTODO (with its `RECURRENCE-ID` overrides) into a reminder.
///
/// remconv's own parser is the only parser: each property line is checked by
/// `ICSPropertyRules` (what breaks one is reported as `ical-error` with its line and UID, and
/// kept verbatim but not read), and values are read from the source text by remconv's own
/// strict readers. libical is not asked: it is the oracle of `LibICalDifferentialTests`.
///
/// Everything not modelled goes to `extra["ical"]` so the writer can put it back:
/// - `lines`: content lines of unmodelled properties and whole sub-components (VALARM, ...), in
///   source order, exactly as read (unfolded); a line of a sub-component that breaks a rule is
///   kept as `X-REMCONV-INVALID:<the line, TEXT-escaped>`, so that what is written back stays
///   valid iCalendar;
/// - `invalid`: the VTODO's own lines that break a rule or whose value cannot be read, as
///   read (written back as `X-REMCONV-INVALID` properties, read back into `invalid`);
/// - `parameters`: parameters of modelled properties beyond those the mapping uses, by name;
/// - `status`, `percent`, `priority`: the exact STATUS (IN-PROCESS, CANCELLED, ...),
///   PERCENT-COMPLETE (1–99) and PRIORITY (2–4, 6–8) where the model keeps less;
/// - `overrides`: each `RECURRENCE-ID` instance as its lines;
/// - `timezones`: the VTIMEZONEs of non-IANA TZIDs that kept lines use.
struct VTodoDecoder {
  let session: ICSReadSession

  /// Whether the mapping reads a property; each other property is kept in `lines`.
  private static func isModelled(_ name: ICSName) -> Bool {
    switch name {
    case .uid, .summary, .description, .status, .completed, .percentComplete, .priority, .due, .dtstart, .created,
      .lastModified, .dtstamp, .url, .categories, .relatedTo, .remconvFlagged, .remconvExtra, .remconvInvalid:
      true
    default: false
    }
  }

  /// Modelled properties that may appear more than once.
  private static func isRepeatable(_ name: ICSName) -> Bool {
    name == .categories || name == .relatedTo || name == .remconvInvalid
  }

  /// Parameters the mapping itself interprets, so they are not kept in `parameters`.
  private static let interpretedParameters: Set<String> = ["VALUE", "TZID", "RELTYPE"]

  /// Decodes `master` (the VTODO without RECURRENCE-ID) and its `overrides` into a reminder of
  /// list `listID`. `derivation` identifies the item when it has no UID. `stampIsEditTime` is
  /// false for files remconv wrote: their DTSTAMP is the time of the export, and an edit time,
  /// when known, is in LAST-MODIFIED.
  func decode(
    master: ComponentBlock, overrides: [ComponentBlock], listID: String, derivation: [String]?, stampIsEditTime: Bool
  ) -> Reminder {
    let sourceUID = master.firstValue(of: .uid).flatMap { $0.isEmpty ? nil : $0 }
    let keptOverrides = overrides.map { keptLines(of: $0, uid: sourceUID) }

    var fields = walk(master, uid: sourceUID)
    let schedule = ICSSchedule(lines: fields.lines)
    fields.lines = schedule.kept
    let editedAt = fields.lastModified ?? (stampIsEditTime ? stampTime(fields, uid: sourceUID) : nil)
    let uid = sourceUID ?? deriveUID(fields: fields, listID: listID, derivation: derivation, line: master.startLine)
    let parentID = parent(of: uid, own: fields.parentID, line: master.startLine)

    var ical = fields.extra
    if !schedule.alarmLines.isEmpty {
      ical[ICSSchedule.alarmLinesKey] = .array(schedule.alarmLines.map { .array($0.map(JSONValue.string)) })
    }
    if !keptOverrides.isEmpty {
      ical["overrides"] = .array(keptOverrides.map { lines in .array(lines.map(JSONValue.string)) })
    }
    let timezones = timeZonesUsed(by: fields, overrides: keptOverrides)
    if !timezones.isEmpty { ical["timezones"] = .object(timezones) }
    var extra = fields.passedThrough
    if !ical.isEmpty { extra["ical"] = .object(ical) }

    return Reminder(
      id: uid, listID: listID, parentID: parentID, title: fields.title, notes: fields.notes,
      isDone: fields.isDone, completedAt: fields.completedAt, flagged: fields.flagged, dueDate: fields.due,
      startDate: schedule.start, recurrence: schedule.recurrence,
      alarms: fields.startIsDue ? schedule.alarms.map(\.relatedToDueInsteadOfStart) : schedule.alarms,
      priority: fields.priority,
      tags: fields.tags, url: fields.url, createdAt: fields.createdAt,
      editedAt: editedAt, extra: extra)
  }

  /// Reads the VTODO's lines into fields, keeping what is not modelled.
  private func walk(_ master: ComponentBlock, uid: String?) -> Fields {
    var fields = Fields()
    let due = master.topLevel.first { master.lines[$0].known == .due }
      .flatMap { master.lines[$0].parts.flatMap(ICSDateValue.init) }
    // A VTODO has a dozen properties: a list is quicker to search than a set is to hash.
    var seenNames: [ICSName] = []
    var depth = 0
    for line in master.lines {
      switch line.boundary {
      case .begin:
        depth += 1
        if depth > 1 { fields.lines.append(line.text) }
        continue
      case .end:
        if depth > 1 { fields.lines.append(line.text) }
        depth -= 1
        continue
      case nil:
        if depth > 1 {
          fields.lines.append(
            isKept(line, checksReadValues: true, uid: uid) ? line.text : Self.encodedInvalid(line.text))
          continue
        }
      }
      // The line's name is the name of its parts (both are what comes before the first `;` or
      // `:`); only an ASCII name can be a known one. A line that is not modelled is kept as it
      // is, so it is split only when the rules need its parts.
      guard let name = line.known, Self.isModelled(name) else {
        if isKept(line, checksReadValues: false, uid: uid) {
          fields.lines.append(line.text)
        } else {
          fields.invalid.append(line.text)
        }
        continue
      }
      let parts = line.parts
      guard isKept(line, parts: parts, checksReadValues: false, uid: uid), let parts else {
        fields.invalid.append(line.text)
        continue
      }
      let repeatable = Self.isRepeatable(name)
      if !repeatable, seenNames.contains(name) {
        session.warn(
          "duplicate-property",
          "\(name.rawValue) appears again in the VTODO; the first is used, this one is kept as it is",
          line: line.line, uid: uid)
        fields.lines.append(line.text)
        continue
      }
      if !repeatable { seenNames.append(name) }
      if name == .dtstart {
        // Apple writes DTSTART equal to DUE, meaning no start date (of a repeating to-do it is
        // the rule's anchor, which the writer puts back from the due date). Another start is
        // read with the recurrence and alarms (`ICSSchedule`).
        if let start = ICSDateValue(parts), start == due {
          fields.startIsDue = true
          continue
        }
        fields.lines.append(line.text)
        continue
      }
      if let parameters = parts.parameterText(excluding: Self.interpretedParameters), name != .remconvExtra {
        if name == .relatedTo && !isParentRelation(parts) {
          fields.lines.append(line.text)
          continue
        }
        if fields.parameters[name.rawValue] == nil { fields.parameters[name.rawValue] = .string(parameters) }
      }
      read(name, parts, line: line, uid: uid, into: &fields)
    }
    return fields
  }

  /// DTSTAMP as the edit time, for VTODOs without LAST-MODIFIED.
  private func stampTime(_ fields: Fields, uid: String?) -> Timestamp? {
    guard let (parts, line) = fields.stampLine else { return nil }
    if let stamp = timestamp(parts, line: line, uid: uid) { return stamp }
    session.warn(
      "invalid-value", "DTSTAMP '\(parts.value)' is not a date-time; it is not used", line: line.line, uid: uid)
    return nil
  }

  /// The parent: the VTODO's own link, else the one a parent states with RELTYPE=CHILD.
  private func parent(of uid: String, own: String?, line: Int) -> String? {
    session.links.markSeen(uid)
    guard let link = session.links.parent(of: uid) else { return own }
    if let own, own != link.parent {
      session.warn(
        "relation-conflict",
        "\(link.parent) names this VTODO as its child, but the VTODO names \(own) as its parent; \(own) is used",
        line: line, uid: uid)
      return own
    }
    return link.parent
  }

  // MARK: Properties

  /// What the walk over one VTODO collects.
  private struct Fields {
    var title = ""
    var notes = ""
    var statusDone = false
    var completedAt: Timestamp?
    var percentDone = false
    var flagged = false
    var due: DueDate?
    var priority = Priority.none
    var tags: [String] = []
    var url: String?
    var createdAt: Timestamp?
    var lastModified: Timestamp?
    var stampLine: (parts: ContentLineParts, line: ContentLine)?
    var parentID: String?
    /// DTSTART equal to DUE was read as no start: an alarm related to the start is then related
    /// to the due, the same instant, so it keeps a date it can name.
    var startIsDue = false
    var lines: [String] = []
    var invalid: [String] = []
    var parameters: [String: JSONValue] = [:]
    var status: String?
    var percent: Int?
    var exactPriority: Int?
    /// `X-REMCONV-EXTRA`: what other formats carried, written by remconv.
    var passedThrough: [String: JSONValue] = [:]

    /// Whether STATUS is one of RFC 5545's VTODO statuses; it then says alone whether the
    /// to-do is done.
    var statusIsKnown = false

    /// RFC 5545 §3.8.1.11: STATUS is the to-do's overall status, so a known STATUS decides (a
    /// COMPLETED time with STATUS:NEEDS-ACTION is a to-do reopened, not done). Without one, a
    /// COMPLETED time or PERCENT-COMPLETE:100 says it is done.
    var isDone: Bool { statusIsKnown ? statusDone : completedAt != nil || percentDone }

    var extra: [String: JSONValue] {
      var ical: [String: JSONValue] = [:]
      if !lines.isEmpty { ical["lines"] = .array(lines.map(JSONValue.string)) }
      if !invalid.isEmpty { ical["invalid"] = .array(invalid.map(JSONValue.string)) }
      if !parameters.isEmpty { ical["parameters"] = .object(parameters) }
      if let status { ical["status"] = .string(status) }
      if let percent { ical["percent"] = .number(percent) }
      if let exactPriority { ical["priority"] = .number(exactPriority) }
      return ical
    }
  }

  private func read(
    _ name: ICSName, _ parts: ContentLineParts, line: ContentLine, uid: String?, into fields: inout Fields
  ) {
    let value = parts.value
    switch name {
    case .uid:
      break
    case .summary:
      fields.title = ICSText.unescape(value)
    case .description:
      fields.notes = ICSText.unescape(value)
    case .status:
      let status = value.trimmingASCIIWhitespace().uppercased()
      fields.statusIsKnown = ["COMPLETED", "NEEDS-ACTION", "IN-PROCESS", "CANCELLED"].contains(status)
      switch status {
      case "COMPLETED": fields.statusDone = true
      case "NEEDS-ACTION": break
      case "CANCELLED":
        // A cancelled to-do needs no doing: it counts as done (as in todoman), and the status
        // is kept so the writer puts CANCELLED back.
        fields.statusDone = true
        fields.status = "CANCELLED"
      default:
        fields.status = value.trimmingASCIIWhitespace()
      }
    case .completed:
      guard let completed = timestamp(parts, line: line, uid: uid) else { return invalid(parts, line, uid, &fields) }
      fields.completedAt = completed
    case .percentComplete:
      guard let percent = Int(value.trimmingASCIIWhitespace()), (0...100).contains(percent) else {
        return invalid(parts, line, uid, &fields)
      }
      if percent == 100 { fields.percentDone = true } else if percent > 0 { fields.percent = percent }
    case .priority:
      guard let number = Int(value.trimmingASCIIWhitespace()), (0...9).contains(number) else {
        return invalid(parts, line, uid, &fields)
      }
      fields.priority = Priority(iCalendarNumber: number)
      if fields.priority.iCalendarNumber != number, number != 0 { fields.exactPriority = number }
    case .due:
      guard let due = dueDate(parts, line: line, uid: uid) else { return invalid(parts, line, uid, &fields) }
      fields.due = due
    case .created:
      guard let created = timestamp(parts, line: line, uid: uid) else { return invalid(parts, line, uid, &fields) }
      fields.createdAt = created
    case .lastModified:
      guard let modified = timestamp(parts, line: line, uid: uid) else { return invalid(parts, line, uid, &fields) }
      fields.lastModified = modified
    case .dtstamp:
      // Written anew on every export; read (after the walk) only as the edit time when
      // LAST-MODIFIED is absent.
      fields.stampLine = (parts, line)
    case .url:
      let url = value.trimmingASCIIWhitespace()
      if !url.isEmpty { fields.url = url }
    case .categories:
      fields.tags += ICSText.splitList(value).filter { !$0.isEmpty }
    case .relatedTo:
      readRelation(parts, line: line, uid: uid, into: &fields)
    case .remconvFlagged:
      switch value.trimmingASCIIWhitespace().uppercased() {
      case "TRUE": fields.flagged = true
      case "FALSE": break
      default: invalid(parts, line, uid, &fields)
      }
    case .remconvExtra:
      guard let object = ICSPassThrough.decode(ICSText.unescape(value)) else {
        return invalid(parts, line, uid, &fields)
      }
      fields.passedThrough.merge(object) { _, new in new }
    case .remconvInvalid:
      fields.invalid.append(ICSText.unescape(value))
    default:
      fields.lines.append(line.text)
    }
  }

  private func invalid(_ parts: ContentLineParts, _ line: ContentLine, _ uid: String?, _ fields: inout Fields) {
    session.warn(
      "invalid-value", "\(parts.name): '\(parts.value)' cannot be read; the line is kept in extra.ical.invalid",
      line: line.line, uid: uid)
    fields.parameters[parts.name] = nil
    fields.invalid.append(line.text)
  }

  /// `RELATED-TO` with RELTYPE absent or PARENT names the parent. RELTYPE=CHILD is the same link
  /// seen from the parent (the pre-scan gave it to the child). Other types (SIBLING and RFC
  /// 9253's DEPENDS-ON, ...) are kept as they are.
  private func readRelation(_ parts: ContentLineParts, line: ContentLine, uid: String?, into fields: inout Fields) {
    let target = ICSText.unescape(parts.value).trimmingASCIIWhitespace()
    let type = parts.parameter("RELTYPE")?.uppercased()
    if type == "CHILD", !target.isEmpty { return }
    if isParentRelation(parts), fields.parentID == nil, !target.isEmpty {
      fields.parentID = target
    } else {
      fields.lines.append(line.text)
    }
  }

  private func isParentRelation(_ parts: ContentLineParts) -> Bool {
    let type = parts.parameter("RELTYPE")?.uppercased()
    return type == nil || type == "PARENT"
  }

  // MARK: Dates

  private func dueDate(_ parts: ContentLineParts, line: ContentLine, uid: String?) -> DueDate? {
    guard let value = ICSDateValue(parts), plausible(value) else { return nil }
    switch value {
    case .date(let date): return .date(date)
    case .floating(let time): return .floating(time)
    case .utc(let time): return .utc(time)
    case .zoned(let time, let tzid):
      switch session.zones.zone(for: tzid, at: session.location(line.line), uid: uid) {
      case .iana(let name): return .zoned(time, timeZone: name)
      case .vtimezone(let zone):
        let location = session.location(line.line)
        guard let seconds = session.zones.utcSeconds(of: time, in: zone, tzid: tzid, at: location, uid: uid) else {
          return nil
        }
        return .utc(LocalDateTime(secondsSinceEpoch: seconds))
      case .unknown: return .floating(time)
      }
    }
  }

  /// An instant (CREATED, LAST-MODIFIED, DTSTAMP, COMPLETED), which RFC 5545 wants in UTC.
  /// Other forms are converted, with one warning per property and input.
  private func timestamp(_ parts: ContentLineParts, line: ContentLine, uid: String?) -> Timestamp? {
    guard let value = ICSDateValue(parts), plausible(value) else { return nil }
    let zone = session.options.timeZone
    switch value {
    case .utc(let time):
      return Timestamp(utc: time)
    case .floating(let time):
      session.warnOnce(
        "floating-\(parts.name)", "floating-time",
        "\(parts.name) has no zone although RFC 5545 wants UTC; it is read in \(zone.identifier)", line: line.line,
        uid: uid)
      return Timestamp(millisecondsSinceEpoch: DueDate.utcSeconds(ofWallTime: time, in: zone) * 1000)
    case .zoned(let time, let tzid):
      if let seconds = session.zones.utcSeconds(of: time, tzid: tzid, at: session.location(line.line), uid: uid) {
        session.warnOnce(
          "zoned-\(parts.name)", "floating-time",
          "\(parts.name) is in TZID \(tzid) although RFC 5545 wants UTC; it is converted", line: line.line, uid: uid)
        return Timestamp(millisecondsSinceEpoch: seconds * 1000)
      }
      session.warnOnce(
        "zoned-\(parts.name)", "floating-time",
        "\(parts.name) is in the unknown TZID \(tzid); it is read in \(zone.identifier)", line: line.line, uid: uid)
      return Timestamp(millisecondsSinceEpoch: DueDate.utcSeconds(ofWallTime: time, in: zone) * 1000)
    case .date(let date):
      session.warnOnce(
        "date-\(parts.name)", "floating-time",
        "\(parts.name) is a date without a time; it is read as midnight in \(zone.identifier)", line: line.line,
        uid: uid)
      let midnight = LocalDateTime(date: date, hour: 0, minute: 0, second: 0) ?? LocalDateTime(secondsSinceEpoch: 0)
      return Timestamp(millisecondsSinceEpoch: DueDate.utcSeconds(ofWallTime: midnight, in: zone) * 1000)
    }
  }

  /// Years before 1 or after 9999 fail to parse already; this also refuses year 0000 dates
  /// that some producers write for "no date".
  private func plausible(_ value: ICSDateValue) -> Bool {
    switch value {
    case .date(let date): date.year >= 1
    case .floating(let time), .utc(let time), .zoned(let time, _): time.date.year >= 1
    }
  }

  // MARK: Identity, problems, zones

  private func deriveUID(fields: Fields, listID: String, derivation: [String]?, line: Int) -> String {
    let parts = derivation ?? ["ical", listID, fields.title, fields.due?.description ?? ""]
    let uid = session.derivedIDs.next(parts)
    session.warn("missing-uid", "the VTODO has no UID; it gets the derived UID \(uid)", line: line, uid: nil)
    return uid
  }

  /// Whether `line`, which is kept whole if so, passes `ICSPropertyRules`; split only when the
  /// rules need its parts.
  private func isKept(_ line: ContentLine, checksReadValues: Bool, uid: String?) -> Bool {
    ICSPropertyRules.passesWithoutParsing(line, checksReadValues: checksReadValues)
      || isKept(line, parts: line.parts, checksReadValues: checksReadValues, uid: uid)
  }

  /// Whether `line` passes `ICSPropertyRules`; when not, an `ical-error` says why.
  private func isKept(_ line: ContentLine, parts: ContentLineParts?, checksReadValues: Bool, uid: String?) -> Bool {
    guard let problem = ICSPropertyRules.problem(in: line, parts: parts, checksReadValues: checksReadValues) else {
      return true
    }
    session.warn("ical-error", "\(problem); the line is kept as it is but not read", line: line.line, uid: uid)
    return false
  }

  /// A line that breaks a rule, wrapped in a property that is valid wherever it stands.
  static func encodedInvalid(_ text: String) -> String { "X-REMCONV-INVALID:" + ICSText.escape(text) }

  /// An override's lines, kept whole: those that break a rule wrapped in `X-REMCONV-INVALID`.
  private func keptLines(of block: ComponentBlock, uid: String?) -> [String] {
    block.lines.map { line in
      line.boundary != nil || isKept(line, checksReadValues: true, uid: uid)
        ? line.text : Self.encodedInvalid(line.text)
    }
  }

  /// VTIMEZONEs the kept lines need that the writer cannot rebuild (TZIDs that are not IANA).
  private func timeZonesUsed(by fields: Fields, overrides: [[String]]) -> [String: JSONValue] {
    var texts = fields.lines
    for override in overrides { texts += override }
    var result: [String: JSONValue] = [:]
    for text in texts {
      guard let tzid = ContentLineParts(text, readingValue: false)?.parameter("TZID"), result[tzid] == nil,
        !TimeZoneResolver.isIANA(tzid), let block = session.zones.blocks[tzid]
      else { continue }
      result[tzid] = .array(block.lines.map { .string($0.text) })
    }
    return result
  }
}

/// `X-REMCONV-EXTRA`: the `extra` entries of other formats, as one JSON object, so that a
/// reminder converted through iCalendar keeps them.
enum ICSPassThrough {
  static func decode(_ text: String) -> [String: JSONValue]? {
    (try? JSONParser.parse(text, name: "X-REMCONV-EXTRA"))?.objectValue
  }

  static func encode(_ extra: [String: JSONValue]) -> String? {
    extra.isEmpty ? nil : JSONText.encode(.object(extra))
  }
}

extension Alarm {
  /// The alarm with a trigger related to the start moved to the due, for a start that is the due.
  fileprivate var relatedToDueInsteadOfStart: Alarm {
    guard case .relative(let seconds, .start) = trigger else { return self }
    var alarm = self
    alarm.trigger = .relative(seconds: seconds, to: .due)
    return alarm
  }
}
