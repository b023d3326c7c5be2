import RemconvCore

/// `remconv add TITLE --list NAME`: a new reminder, its UID printed for scripts.
struct AddCommand: Command {
  static let configuration = CommandConfiguration(
    name: "add",
    abstract: "Add a reminder to a list, or as a subtask of another reminder.",
    discussion: """
      Prints the new reminder's UID on standard output (its JSON with --json). A blank title
      is refused. A subtask goes to its parent's list.
      """,
    arguments: [ArgumentSpec("title", help: "The title (quote it when it has spaces).")],
    options: [
      .option("list", short: "l", value: "name", help: "The list to add to.", completion: .listNames),
      .option("notes", short: "n", value: "text", help: "Notes."),
      .option("due", short: "d", value: "date", help: ReminderArguments.dueHelp),
      .option("tz", value: "zone", help: ReminderArguments.tzHelp),
    ] + ReminderArguments.scheduleOptions + [
      .option(
        "priority", short: "p", value: "priority", help: "The priority.", allowed: ReminderArguments.priorityValues,
        defaultValue: "none"),
      .flag("flag", help: "Flag it."),
      .option("parent", value: "id", help: "Make it a subtask of this reminder (a UID or a prefix)."),
      ReminderArguments.jsonOption,
    ],
    examples: [
      "remconv add 'Buy milk' --list Groceries --due 2026-12-01",
      "remconv add 'Call Anna' --list Work --due 2026-12-01T09:00 --tz Europe/Berlin --priority high --flag",
      "remconv add 'Skimmed' --parent 3A1F09C2",
      "remconv add 'Team meeting' --list Work --due 2026-12-01T10:00 --tz Europe/Berlin --repeat 'FREQ=WEEKLY;BYDAY=TU' --alarm -15m",
      "remconv add 'Water the plants' --list Home --due 2026-12-01 --repeat 'every 3 days' --repeat-from completion --alarm 08:30",
    ])

  let new: ReminderEditor.NewReminder
  let listName: String?
  let parentID: String?
  let json: Bool

  init(_ arguments: ParsedArguments) throws(UsageError) {
    var new = ReminderEditor.NewReminder(title: try ReminderArguments.single(arguments, "title"))
    new.notes = arguments.value("notes") ?? ""
    let timeZone = arguments.value("tz")
    new.dueDate = try arguments.value("due").map { text throws(UsageError) in
      try ReminderArguments.due(text, timeZone: timeZone)
    }
    new.startDate = try arguments.value("start").map { text throws(UsageError) in
      try ReminderArguments.due(text, timeZone: timeZone, option: "start")
    }
    if timeZone != nil, new.dueDate == nil, new.startDate == nil { throw .invalid("'--tz' needs '--due' or '--start'") }
    switch try ReminderArguments.recurrence(arguments) {
    case .some(let recurrence): new.recurrence = recurrence
    case nil: if arguments.value("repeat-from") != nil { throw .invalid("'--repeat-from' needs '--repeat'") }
    }
    new.alarms = try ReminderArguments.alarms(arguments).adding
    new.priority = ReminderArguments.priority(arguments) ?? .none
    new.flagged = arguments.flag("flag")
    listName = arguments.value("list")
    parentID = arguments.value("parent")
    guard listName != nil || parentID != nil else {
      throw .invalid("Give the list with --list NAME (or the parent with --parent ID)")
    }
    self.new = new
    json = arguments.flag("json")
  }

  func run(_ context: CommandContext) throws -> ExitStatus {
    let (editor, store) = try context.openEditor()
    defer { store.close() }
    let added = try editor.add(new, listName: listName, parentID: parentID)
    let reminder = added.reminder.reminder
    context.io.print(json ? ReminderRenderer.json(reminder, list: added.list) : reminder.id)
    context.tell("added \(JSONText.quoted(reminder.title)) to \(JSONText.quoted(added.list.name))")
    return .ok
  }
}
