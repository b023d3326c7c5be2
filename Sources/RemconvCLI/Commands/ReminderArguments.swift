import RemconvCore

/// Reading the values the reminders-app commands (`add`, `edit`, `show`, `list`, ...) share.
enum ReminderArguments {
  static let dueForms = "2026-12-01 (all day), 2026-12-01T09:00 (wall time; zoned with --tz), 2026-12-01T09:00Z (UTC)"
  static let dueHelp = "The due date: \(dueForms)."
  static let tzHelp =
    "The IANA time zone of a --due or --start time (Europe/Berlin); without it the time is floating."
  static let startHelp = "The start date, in the forms of --due."
  static let repeatHelp =
    "Repeat: an RRULE (FREQ=WEEKLY;BYDAY=TU), daily, weekly, monthly, yearly, weekdays, every N days (weeks, months, years)"
  static let repeatFromValues = [Recurrence.Basis.dueDate, .completion].map(\.rawValue)
  static let alarmHelp = "An alarm (repeatable; none removes them): \(AlarmRequest.forms)."

  /// The options of a reminder's schedule that `add` and `edit` share.
  static let scheduleOptions: [OptionSpec] = [
    .option("start", value: "date", help: startHelp),
    .option("repeat", short: "r", value: "rule", help: repeatHelp + "; none stops repeating."),
    .option(
      "repeat-from", value: "basis",
      help: "Count the next occurrence from the due date (due, the default) or from when it is done (completion).",
      allowed: repeatFromValues),
    .option("alarm", short: "a", value: "when", help: alarmHelp, repeatable: true),
  ]
  static let priorityValues = Priority.allCases.map(\.rawValue)
  static let colorHelp =
    "#RRGGBB, #RGB or a name (" + ListColor.named.map(\.name).joined(separator: ", ") + ")"

  static let jsonOption = OptionSpec.flag("json", help: "Print JSON (the keys of --format json) instead of text.")
  static let sortOption = OptionSpec.option(
    "sort", value: "order", help: "How to order reminders among their siblings.",
    allowed: ViewOptions.Sort.allCases.map(\.rawValue),
    defaultValue: "manual")
  static let hideCompletedOption = OptionSpec.flag("hide-completed", help: "Leave out the Completed section.")

  /// The one positional argument a command takes, refusing any other.
  static func single(_ arguments: ParsedArguments, _ name: String, at index: Int = 0) throws(UsageError) -> String {
    guard let value = arguments.positional(index) else { throw .missingArgument(name) }
    if let extra = arguments.positional(index + 1) {
      throw .invalid("Unexpected argument '\(extra)' (quote a \(name) of several words)")
    }
    return value
  }

  /// `--due` and `--tz` as a due date of the kind they spell: a date, a floating time, a UTC
  /// time (`Z`) or, with `--tz`, a zoned time.
  static func due(_ text: String, timeZone: String?, option: String = "due") throws(UsageError) -> DueDate {
    do {
      return try DueDate(isoText: text, timeZone: timeZone)
    } catch .unparsable(_) {
      throw .invalid("The value '\(text)' is invalid for '--\(option)' (\(dueForms))")
    } catch {
      throw .invalid("--\(option) \(text)\(timeZone.map { " --tz \($0)" } ?? ""): \(error)")
    }
  }

  /// `--repeat` (with `--repeat-from`) as the way to repeat: `.some(nil)` for `none`, nil
  /// when not given.
  static func recurrence(_ arguments: ParsedArguments) throws(UsageError) -> Recurrence?? {
    guard let text = arguments.value("repeat") else { return nil }
    if text.lowercased() == "none" {
      if arguments.value("repeat-from") != nil { throw .conflictingOptions("--repeat none", "--repeat-from") }
      return .some(nil)
    }
    let rule: RecurrenceRule?
    do {
      rule = try RecurrenceRule(repeatWords: text)
    } catch {
      throw .invalid("--repeat: \(error)")
    }
    guard let rule else { throw .invalid("The value '\(text)' is invalid for '--repeat' (\(repeatHelp), or none)") }
    return .some(Recurrence(rule: rule.text, basis: repeatBasis(arguments) ?? .dueDate))
  }

  static func repeatBasis(_ arguments: ParsedArguments) -> Recurrence.Basis? {
    arguments.value("repeat-from").flatMap(Recurrence.Basis.init(rawValue:))
  }

  /// `--alarm` values: whether `none` was among them, and the alarms asked for.
  static func alarms(_ arguments: ParsedArguments) throws(UsageError) -> (clears: Bool, adding: [AlarmRequest]) {
    var clears = false
    var adding: [AlarmRequest] = []
    for text in arguments.values("alarm") {
      if text.lowercased() == "none" {
        clears = true
      } else if let request = AlarmRequest(text: text) {
        adding.append(request)
      } else {
        throw .invalid("The value '\(text)' is invalid for '--alarm' (\(AlarmRequest.forms), or none)")
      }
    }
    return (clears, adding)
  }

  static func priority(_ arguments: ParsedArguments) -> Priority? {
    arguments.value("priority").flatMap(Priority.init(rawValue:))
  }

  /// `--flag` or `--unflag` as the flag wanted (nil: unchanged); both is a usage error.
  static func flagged(_ arguments: ParsedArguments) throws(UsageError) -> Bool? {
    switch (arguments.flag("flag"), arguments.flag("unflag")) {
    case (true, true): throw .conflictingOptions("--flag", "--unflag")
    case (true, false): return true
    case (false, true): return false
    case (false, false): return nil
    }
  }

  /// `--color` of a list: a colour, or `none` (`.some(nil)`) to remove it.
  static func listColor(_ arguments: ParsedArguments) throws(UsageError) -> String?? {
    guard let text = arguments.value("color") else { return nil }
    if text.lowercased() == "none" { return .some(nil) }
    guard let color = ListColor.parse(text) else {
      throw .invalid("The value '\(text)' is invalid for '--color' (\(colorHelp), or none)")
    }
    return .some(color)
  }

  /// `--symbol` of a list: an SF Symbol name, without spaces or control characters.
  static func symbol(_ arguments: ParsedArguments) throws(UsageError) -> String? {
    guard let text = arguments.value("symbol") else { return nil }
    guard !text.isEmpty, !text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 })
    else {
      throw .invalid("The value '\(text)' is invalid for '--symbol' (an SF Symbol name such as cart or list.bullet)")
    }
    return text
  }

  static func viewOptions(_ arguments: ParsedArguments) -> ViewOptions {
    var options = ViewOptions()
    options.sort = arguments.value("sort").flatMap(ViewOptions.Sort.init(rawValue:)) ?? .manual
    options.groupByDay = arguments.value("group") == "day"
    options.includeCompleted = !arguments.flag("hide-completed")
    return options
  }
}

extension CommandContext {
  /// The day views and scopes are drawn on: `now` (or `$REMCONV_NOW`) in the machine's zone
  /// (or `$TZ`).
  var today: Today { Today(now: now, timeZone: timeZone) }

  /// Opens the store for an edit and returns an editor stamping `now`.
  func openEditor() throws -> (ReminderEditor, Store) {
    let store = try openStore()
    return (ReminderEditor(store: store, now: now, timeZone: timeZone), store)
  }

  /// A line on stderr saying what an edit did, unless `--quiet`.
  func tell(_ message: String) {
    if !isQuiet { io.printError("remconv: " + TerminalText.printable(message)) }
  }
}
