/// A VTODO's start date, recurrence and alarms as iCalendar writes them: DTSTART, RRULE,
/// EXDATE, RDATE, the repeat-from-completion marker and VALARM blocks.
///
/// One reading of these lines serves the VTODO reader and the lifting of what remconv before
/// 0009 kept in `extra.ical.lines` (`ExtraScheduleLifting`). A line is taken only when the
/// fields hold all it says; any other line (a second RRULE, an RDATE period, a DTSTART in a
/// zone that is not IANA, a property with parameters the fields cannot keep) stays a kept line,
/// so nothing is lost.
struct ICSSchedule {
  var start: DueDate?
  var recurrence: Recurrence?
  var alarms: [Alarm] = []
  /// For each alarm, its VALARM's lines the alarm does not hold (UID, X-WR-ALARMUID,
  /// ACKNOWLEDGED, ...), so the writer puts them back into the same VALARM; empty when none has.
  var alarmLines: [[String]] = []
  /// The lines that were not taken, in their order.
  var kept: [String] = []

  /// `X-REMCONV-REPEAT-FROM:COMPLETION`: the marker of a recurrence counted from completion.
  /// No standard property says it; tasks.org's `X-TASKS-ORG-REPEAT-FROM` is not registered and
  /// Apple has none, so remconv writes its own name, in the namespace of its other properties.
  static let repeatFromName = "X-REMCONV-REPEAT-FROM"
  /// The key of `extra.ical` that holds `alarmLines`.
  static let alarmLinesKey = "alarmLines"

  /// Reads `lines` (unfolded content lines, VALARM blocks whole). `takeStart`, `takeRecurrence`
  /// and `takeAlarms` say which fields may be filled (a reminder that has one already keeps
  /// the lines of it).
  init(lines: [String], takeStart: Bool = true, takeRecurrence: Bool = true, takeAlarms: Bool = true) {
    // Most kept lines are none of the schedule's (X- properties, a note's HTML copy), and the
    // lines a reader kept after reading its schedule are read again when lifted
    // (`ICSScheduleLifter`): with no line the loop below could take, every line is kept.
    guard lines.contains(where: Self.mayBeTaken) else {
      kept = lines
      return
    }
    var rules: [(position: Int, value: String)] = []
    var exceptions: [(position: Int, dates: [DueDate]?)] = []
    var additions: [(position: Int, dates: [DueDate]?)] = []
    var fromCompletion: (position: Int, line: String)?
    // The kept lines by their position, so lines a recurrence did not take go back in place.
    var keptAt: [(position: Int, line: String)] = []
    func keep(_ range: some Sequence<Int>) { for position in range { keptAt.append((position, lines[position])) } }
    var index = 0
    while index < lines.count {
      let line = lines[index]
      if Self.isBegin(line, "VALARM"), let end = lines[index...].firstIndex(where: { Self.isEnd($0, "VALARM") }) {
        let block = Array(lines[index...end])
        if takeAlarms, let (alarm, others) = Self.alarm(block) {
          alarms.append(alarm)
          alarmLines.append(others)
        } else {
          keep(index...end)
        }
        index = end + 1
        continue
      }
      index += 1
      if Self.startsWithBegin(line) {
        // Another sub-component: kept whole, with its own DTSTART or RRULE untouched.
        let name = String(line.dropFirst(6))
        let end = lines[(index - 1)...].firstIndex { Self.isEnd($0, name) } ?? lines.count - 1
        keep((index - 1)...end)
        index = end + 1
        continue
      }
      let position = index - 1
      // Most lines (a note's HTML copy, X- properties) are none of the schedule's: their name
      // says so, and they are kept without being split.
      guard Self.mayBeScheduleLine(line), let parts = ContentLineParts(line) else {
        keep([position])
        continue
      }
      switch parts.name.uppercased() {
      case "DTSTART" where takeStart && start == nil && Self.hasOnly(parts, ["VALUE", "TZID"]):
        if let date = Self.date(parts) { start = date } else { keep([position]) }
      case "RRULE" where takeRecurrence && parts.parameters.isEmpty:
        rules.append((position, parts.value))
      case "EXDATE" where takeRecurrence && Self.hasOnly(parts, ["VALUE", "TZID"]):
        exceptions.append((position, Self.dates(parts)))
      case "RDATE" where takeRecurrence && Self.hasOnly(parts, ["VALUE", "TZID"]):
        additions.append((position, Self.dates(parts)))
      case Self.repeatFromName where takeRecurrence && parts.parameters.isEmpty && fromCompletion == nil:
        fromCompletion = (position, line)
      default:
        keep([position])
      }
    }
    // One rule, and every EXDATE and RDATE readable: a recurrence. Anything less keeps its lines.
    let readable = exceptions.allSatisfy { $0.dates != nil } && additions.allSatisfy { $0.dates != nil }
    let basis = fromCompletion.flatMap { marker -> Recurrence.Basis? in
      ContentLineParts(marker.line)?.value.uppercased() == "COMPLETION" ? .completion : nil
    }
    if rules.count == 1, readable, fromCompletion == nil || basis != nil {
      recurrence = Recurrence(
        rule: rules[0].value, exceptionDates: exceptions.flatMap { $0.dates ?? [] },
        additionalDates: additions.flatMap { $0.dates ?? [] }, basis: basis ?? .dueDate)
    } else {
      keep(rules.map(\.position) + exceptions.map(\.position) + additions.map(\.position))
      keep(fromCompletion.map { [$0.position] } ?? [])
    }
    kept = keptAt.sorted { $0.position < $1.position }.map(\.line)
    if alarmLines.allSatisfy(\.isEmpty) { alarmLines = [] }
  }

  /// False when the loop of `init` surely keeps `line` as it is: not the start of a VALARM or
  /// of another sub-component, nor a property it may take.
  private static func mayBeTaken(_ line: String) -> Bool {
    isBegin(line, "VALARM") || startsWithBegin(line) || mayBeScheduleLine(line)
  }

  /// False when `line` is surely none of the lines the switch below may take (DTSTART, RRULE,
  /// EXDATE, RDATE, the repeat-from marker), which it would keep: its name, the bytes before
  /// the first `;` or `:`, is ASCII and not one of them. A name with other bytes is left to
  /// `ContentLineParts`, which upper-cases it by Unicode's rules.
  private static func mayBeScheduleLine(_ line: String) -> Bool {
    line.utf8.withContiguousStorageIfAvailable { bytes in
      var nameEnd = 0
      while nameEnd < bytes.count, bytes[nameEnd] != UInt8(ascii: ";"), bytes[nameEnd] != UInt8(ascii: ":") {
        if bytes[nameEnd] >= 0x80 { return true }
        nameEnd += 1
      }
      let name = UnsafeBufferPointer(rebasing: bytes[..<nameEnd])
      switch ICSName(name) {
      case .dtstart?, .rrule?, .exdate?, .rdate?: return true
      default: return equalsUppercased(name, repeatFromName.utf8)
      }
    } ?? true
  }

  /// Whether ASCII `bytes`, upper-cased, are `target`.
  private static func equalsUppercased(_ bytes: UnsafeBufferPointer<UInt8>, _ target: some Collection<UInt8>) -> Bool {
    bytes.count == target.count
      && zip(bytes, target).allSatisfy { byte, expected in
        (byte &- UInt8(ascii: "a") < 26 ? byte - 0x20 : byte) == expected
      }
  }

  /// `line.hasPrefix("BEGIN:")`, read from the bytes when the character after the colon is
  /// plainly not joined to it (an ASCII byte or nothing); a mark after it makes `:` and the
  /// mark one character, which only String's own comparison decides.
  private static func startsWithBegin(_ line: String) -> Bool {
    let prefix = "BEGIN:".utf8
    let bytes = line.utf8
    guard bytes.starts(with: prefix) else { return false }
    guard let next = bytes.dropFirst(prefix.count).first, next >= 0x80 else { return true }
    return line.hasPrefix("BEGIN:")
  }

  private static func isBegin(_ line: String, _ name: String) -> Bool {
    equalsBoundary(line, "BEGIN:" + name) { line.count == 6 + name.count && line.uppercased() == "BEGIN:" + name }
  }

  private static func isEnd(_ line: String, _ name: String) -> Bool {
    equalsBoundary(line, "END:" + name.uppercased()) {
      line.count == 4 + name.count && line.uppercased() == "END:" + name.uppercased()
    }
  }

  /// `byCharacters()`, a comparison of `line` upper-cased with `target` as characters, decided
  /// from the bytes where they tell: counting a long note's characters and upper-casing it
  /// was a sixth of an import of long notes. With an ASCII `target`: a line of more than four
  /// bytes per scalar of `target` cannot match (upper case maps each scalar to one or more, a
  /// sequence canonically equal to ASCII has no more scalars than it, and a scalar is at most
  /// four bytes); a line of ASCII without CR (one byte a character) is compared byte by byte,
  /// upper-cased. Anything else is left to `byCharacters`.
  private static func equalsBoundary(_ line: String, _ target: String, byCharacters: () -> Bool) -> Bool {
    let decided = target.utf8.withContiguousStorageIfAvailable { target in
      line.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
        guard !target.contains(where: { $0 >= 0x80 }) else { return nil }
        guard bytes.count <= 4 * target.count else { return false }
        guard !bytes.contains(where: { $0 >= 0x80 || $0 == 0x0D }) else { return nil }
        return equalsUppercased(bytes, target)
      }
    }
    return decided.flatMap { $0.flatMap { $0 } } ?? byCharacters()
  }

  private static func hasOnly(_ parts: ContentLineParts, _ names: Set<String>) -> Bool {
    parts.parameters.allSatisfy { names.contains($0.name.uppercased()) }
  }

  /// A DATE or DATE-TIME as a due date's kind; a TZID must be an IANA zone to be kept as one.
  static func date(_ parts: ContentLineParts) -> DueDate? {
    switch ICSDateValue(parts) {
    case .date(let date)?: .date(date)
    case .floating(let time)?: .floating(time)
    case .utc(let time)?: .utc(time)
    case .zoned(let time, let tzid)? where TimeZoneNames.isKnown(tzid): .zoned(time, timeZone: tzid)
    default: nil
    }
  }

  /// The dates of an EXDATE or RDATE (a comma-separated list); nil when one is not a date
  /// (an RDATE period, say).
  private static func dates(_ parts: ContentLineParts) -> [DueDate]? {
    var result: [DueDate] = []
    for item in parts.value.split(separator: ",", omittingEmptySubsequences: false) {
      var one = parts
      one.value = String(item)
      guard let date = date(one) else { return nil }
      result.append(date)
    }
    return result.isEmpty ? nil : result
  }

  /// A VALARM block (BEGIN to END) as an alarm and the lines it does not hold; nil when it has
  /// no readable TRIGGER, or a property the alarm holds comes twice.
  private static func alarm(_ block: [String]) -> (Alarm, [String])? {
    var trigger: Alarm.Trigger?
    var action: String?
    var text: String?
    var others: [String] = []
    for line in block.dropFirst().dropLast() {
      guard let parts = ContentLineParts(line) else { return nil }
      switch parts.name.uppercased() {
      case "TRIGGER":
        guard trigger == nil, let read = Self.trigger(parts) else { return nil }
        trigger = read
      case "ACTION" where parts.parameters.isEmpty:
        guard action == nil else { return nil }
        action = parts.value
      case "DESCRIPTION" where parts.parameters.isEmpty:
        guard text == nil else { return nil }
        text = ICSText.unescape(parts.value)
      default:
        others.append(line)
      }
    }
    guard let trigger else { return nil }
    return (Alarm(trigger: trigger, action: action ?? "DISPLAY", text: text), others)
  }

  /// TRIGGER: a DURATION relative to the start (RELATED=START, the default) or the due date
  /// (RELATED=END: a VTODO's end is its DUE), or a UTC DATE-TIME.
  private static func trigger(_ parts: ContentLineParts) -> Alarm.Trigger? {
    guard hasOnly(parts, ["VALUE", "RELATED"]) else { return nil }
    let value = parts.value.trimmingASCIIWhitespace()
    if parts.parameter("VALUE")?.uppercased() == "DATE-TIME" {
      guard parts.parameter("RELATED") == nil, case .utc(let time)? = ICSDateValue(parts) else { return nil }
      return .absolute(Timestamp(utc: time))
    }
    guard parts.parameter("VALUE") == nil || parts.parameter("VALUE")?.uppercased() == "DURATION",
      let seconds = ICSDuration.seconds(value[...])
    else { return nil }
    switch parts.parameter("RELATED")?.uppercased() {
    case nil, "START": return .relative(seconds: seconds, to: .start)
    case "END": return .relative(seconds: seconds, to: .due)
    default: return nil
    }
  }
}

extension ICSSchedule {
  /// The lines of `reminder`'s start, recurrence and alarms, in the order a VTODO has them:
  /// DTSTART, RRULE, EXDATE, RDATE and the repeat-from marker, then one VALARM per alarm with
  /// its kept `alarmLines`; and the TZIDs they use.
  ///
  /// A repeating reminder without a start gets DTSTART equal to its due date: RFC 5545 counts a
  /// rule from DTSTART, and the reader takes a DTSTART equal to DUE for no start, so the
  /// reminder reads back as it was.
  static func lines(of reminder: Reminder, alarmLines: [[String]]) -> (
    properties: [String], alarms: [String], tzids: [String]
  ) {
    var properties: [String] = []
    var tzids: [String] = []
    /// The parameters and value of a date, as a property writes them.
    func form(_ date: DueDate) -> (parameters: String, value: String) {
      switch date {
      case .date(let day): return (";VALUE=DATE", day.basicString)
      case .floating(let time): return ("", time.basicString)
      case .utc(let time): return ("", time.basicString + "Z")
      case .zoned(let time, let zone):
        if !tzids.contains(zone) { tzids.append(zone) }
        return (";" + ContentLineParameter.format(name: "TZID", values: [zone]), time.basicString)
      }
    }
    /// One line per run of dates of the same form (`EXDATE;TZID=…:a,b`), as producers write them.
    func property(_ name: String, _ dates: [DueDate]) {
      var run: (parameters: String, values: [String])?
      for date in dates {
        let (parameters, value) = form(date)
        if let current = run, current.parameters == parameters {
          run?.values.append(value)
        } else {
          if let current = run {
            properties.append(name + current.parameters + ":" + current.values.joined(separator: ","))
          }
          run = (parameters, [value])
        }
      }
      if let current = run {
        properties.append(name + current.parameters + ":" + current.values.joined(separator: ","))
      }
    }
    if let start = reminder.startDate ?? (reminder.recurrence == nil ? nil : reminder.dueDate) {
      property("DTSTART", [start])
    }
    if let recurrence = reminder.recurrence {
      properties.append("RRULE:" + recurrence.rule)
      property("EXDATE", recurrence.exceptionDates)
      property("RDATE", recurrence.additionalDates)
      if recurrence.basis == .completion { properties.append(repeatFromName + ":COMPLETION") }
    }
    var alarms: [String] = []
    for (index, alarm) in reminder.alarms.enumerated() {
      alarms.append("BEGIN:VALARM")
      alarms.append("ACTION:" + alarm.action)
      switch alarm.trigger {
      case .absolute(let instant): alarms.append("TRIGGER;VALUE=DATE-TIME:" + VTodoEncoder.utc(instant))
      case .relative(let seconds, .start): alarms.append("TRIGGER:" + ICSDuration.text(seconds: seconds))
      case .relative(let seconds, .due): alarms.append("TRIGGER;RELATED=END:" + ICSDuration.text(seconds: seconds))
      }
      if let text = alarm.text { alarms.append("DESCRIPTION:" + ICSText.escape(text)) }
      if index < alarmLines.count { alarms += alarmLines[index] }
      alarms.append("END:VALARM")
    }
    return (properties, alarms, tzids)
  }
}
