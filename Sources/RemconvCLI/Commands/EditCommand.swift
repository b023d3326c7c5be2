import RemconvCore

/// `remconv edit ID [--title ...]`: changes one reminder in one transaction.
struct EditCommand: Command {
  static let configuration = CommandConfiguration(
    name: "edit",
    abstract: "Change a reminder's title, notes, dates, repetition, alarms, priority, flag or list.",
    discussion: """
      ID is a UID or any unambiguous prefix of one. editedAt is set when anything changes;
      an edit that changes nothing writes nothing. Moving a reminder to another list moves its
      subtasks with it; a subtask moved on its own becomes a top-level reminder there.
      --alarm adds alarms (--alarm none first removes the ones it has); --repeat replaces the
      way it repeats, its exceptions with it.
      """,
    arguments: [ArgumentSpec("id", help: "The reminder's UID or a prefix of it.")],
    options: [
      .option("title", short: "t", value: "title", help: "A new title (not blank)."),
      .option("notes", short: "n", value: "text", help: "New notes ('' clears them)."),
      .option("due", short: "d", value: "date", help: ReminderArguments.dueHelp),
      .flag("no-due", help: "Remove the due date."),
      .option("tz", value: "zone", help: ReminderArguments.tzHelp),
      .flag("no-start", help: "Remove the start date."),
    ] + ReminderArguments.scheduleOptions + [
      .option(
        "priority", short: "p", value: "priority", help: "A new priority.", allowed: ReminderArguments.priorityValues),
      .flag("flag", help: "Flag it."),
      .flag("unflag", help: "Remove the flag."),
      .option(
        "list", short: "l", value: "name", help: "Move it, with its subtasks, to this list.", completion: .listNames),
      ReminderArguments.jsonOption,
    ],
    examples: [
      "remconv edit 3A1F09C2 --title 'Buy oat milk' --priority medium",
      "remconv edit 3A1F --due 2026-12-02T18:30 --tz Europe/Paris", "remconv edit 3A1F --no-due --list Someday",
      "remconv edit 3A1F --repeat weekdays --alarm none --alarm -10m", "remconv edit 3A1F --repeat none",
    ])

  let id: String
  let changes: ReminderEditor.Changes
  let json: Bool

  init(_ arguments: ParsedArguments) throws(UsageError) {
    id = try ReminderArguments.single(arguments, "id")
    var changes = ReminderEditor.Changes()
    changes.title = arguments.value("title")
    changes.notes = arguments.value("notes")
    switch (arguments.value("due"), arguments.flag("no-due")) {
    case (.some, true): throw .conflictingOptions("--due", "--no-due")
    case (let due?, false): changes.due = .set(try ReminderArguments.due(due, timeZone: arguments.value("tz")))
    case (nil, true): changes.due = .clear
    case (nil, false): break
    }
    switch (arguments.value("start"), arguments.flag("no-start")) {
    case (.some, true): throw .conflictingOptions("--start", "--no-start")
    case (let start?, false):
      changes.start = .set(try ReminderArguments.due(start, timeZone: arguments.value("tz"), option: "start"))
    case (nil, true): changes.start = .clear
    case (nil, false): break
    }
    if arguments.value("tz") != nil, arguments.value("due") == nil, arguments.value("start") == nil {
      throw .invalid("'--tz' needs '--due' or '--start'")
    }
    changes.recurrence = try ReminderArguments.recurrence(arguments)
    if changes.recurrence == nil { changes.recurrenceBasis = ReminderArguments.repeatBasis(arguments) }
    (changes.clearsAlarms, changes.addedAlarms) = try ReminderArguments.alarms(arguments)
    changes.priority = ReminderArguments.priority(arguments)
    changes.flagged = try ReminderArguments.flagged(arguments)
    changes.listName = arguments.value("list")
    guard !changes.isEmpty else {
      throw .invalid(
        "Nothing to change: give --title, --notes, --due, --no-due, --start, --no-start, --repeat, --repeat-from, --alarm, --priority, --flag, --unflag or --list"
      )
    }
    self.changes = changes
    json = arguments.flag("json")
  }

  func run(_ context: CommandContext) throws -> ExitStatus {
    let (editor, store) = try context.openEditor()
    defer { store.close() }
    let outcome = try editor.edit(id, changes)
    let reminder = outcome.reminder.reminder
    if json { context.io.print(ReminderRenderer.json(reminder, list: outcome.list)) }
    var message = outcome.changed ? "edited " : "unchanged: "
    message += "\(JSONText.quoted(reminder.title)) (\(reminder.id))"
    if outcome.movedSubtasks > 0 {
      message +=
        " and moved \(outcome.movedSubtasks) subtask\(outcome.movedSubtasks == 1 ? "" : "s") with it to \(JSONText.quoted(outcome.list.name))"
    }
    context.tell(message)
    return .ok
  }
}
