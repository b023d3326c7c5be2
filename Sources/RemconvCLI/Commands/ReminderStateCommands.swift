import RemconvCore

/// A command that sets one state of one reminder: `done`, `undone`, `flag`, `unflag`.
protocol ReminderStateCommand: Command {
  /// The reminder's UID or a prefix of it.
  var id: String { get }
  init(id: String)
  /// What the command does, in the words of its confirmation (`done`, `flagged`).
  static var state: String { get }
  static func apply(_ editor: ReminderEditor, to id: String) throws -> ReminderEditor.Outcome
}

extension ReminderStateCommand {
  static func stateConfiguration(name: String, abstract: String, discussion: String? = nil) -> CommandConfiguration {
    CommandConfiguration(
      name: name, abstract: abstract, discussion: discussion,
      arguments: [ArgumentSpec("id", help: "The reminder's UID or an unambiguous prefix of it.")],
      options: [ReminderArguments.jsonOption], examples: ["remconv \(name) 3A1F09C2"])
  }

  init(_ arguments: ParsedArguments) throws(UsageError) {
    self.init(id: try ReminderArguments.single(arguments, "id"))
  }

  func run(_ context: CommandContext) throws -> ExitStatus {
    let (editor, store) = try context.openEditor()
    defer { store.close() }
    let outcome = try Self.apply(editor, to: id)
    let reminder = outcome.reminder.reminder
    if context.arguments.flag("json") { context.io.print(ReminderRenderer.json(reminder, list: outcome.list)) }
    context.tell(
      (outcome.changed ? "" : "already ") + "\(Self.state): \(JSONText.quoted(reminder.title)) (\(reminder.id))")
    return .ok
  }
}

/// `remconv done ID`.
struct DoneCommand: ReminderStateCommand {
  static let configuration = stateConfiguration(
    name: "done", abstract: "Mark a reminder done.",
    discussion: "Sets completedAt to now. Its subtasks keep their own state.")
  static let state = "done"
  let id: String

  static func apply(_ editor: ReminderEditor, to id: String) throws -> ReminderEditor.Outcome {
    try editor.setDone(id, true)
  }
}

/// `remconv undone ID`.
struct UndoneCommand: ReminderStateCommand {
  static let configuration = stateConfiguration(
    name: "undone", abstract: "Mark a reminder not done.", discussion: "Clears completedAt.")
  static let state = "not done"
  let id: String

  static func apply(_ editor: ReminderEditor, to id: String) throws -> ReminderEditor.Outcome {
    try editor.setDone(id, false)
  }
}

/// `remconv flag ID`.
struct FlagCommand: ReminderStateCommand {
  static let configuration = stateConfiguration(name: "flag", abstract: "Flag a reminder.")
  static let state = "flagged"
  let id: String

  static func apply(_ editor: ReminderEditor, to id: String) throws -> ReminderEditor.Outcome {
    try editor.setFlagged(id, true)
  }
}

/// `remconv unflag ID`.
struct UnflagCommand: ReminderStateCommand {
  static let configuration = stateConfiguration(name: "unflag", abstract: "Remove a reminder's flag.")
  static let state = "not flagged"
  let id: String

  static func apply(_ editor: ReminderEditor, to id: String) throws -> ReminderEditor.Outcome {
    try editor.setFlagged(id, false)
  }
}

/// `remconv delete ID`: a reminder and its subtasks.
struct DeleteCommand: Command {
  static let configuration = CommandConfiguration(
    name: "delete", abstract: "Delete a reminder and its subtasks.",
    arguments: [ArgumentSpec("id", help: "The reminder's UID or an unambiguous prefix of it.")],
    examples: ["remconv delete 3A1F09C2"])

  let id: String

  init(_ arguments: ParsedArguments) throws(UsageError) {
    id = try ReminderArguments.single(arguments, "id")
  }

  func run(_ context: CommandContext) throws -> ExitStatus {
    let (editor, store) = try context.openEditor()
    defer { store.close() }
    let (deleted, list, count) = try editor.delete(id)
    let subtasks = count - 1
    context.tell(
      "deleted \(JSONText.quoted(deleted.reminder.title)) (\(deleted.reminder.id)) from \(JSONText.quoted(list.name))"
        + (subtasks > 0 ? " with \(subtasks) subtask\(subtasks == 1 ? "" : "s")" : ""))
    return .ok
  }
}
