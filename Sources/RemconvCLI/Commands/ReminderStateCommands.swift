import RemconvCore

/// The state `done`, `undone`, `flag` and `unflag` set.
enum ReminderStateChange: Sendable, CustomStringConvertible {
  case done(Bool)
  case flagged(Bool)

  /// How the confirmation names the state (`done`, `not flagged`).
  var description: String {
    switch self {
    case .done(let done): done ? "done" : "not done"
    case .flagged(let flagged): flagged ? "flagged" : "not flagged"
    }
  }

  func apply(_ editor: ReminderEditor, to id: String) throws -> ReminderEditor.Outcome {
    switch self {
    case .done(let done): try editor.setDone(id, done)
    case .flagged(let flagged): try editor.setFlagged(id, flagged)
    }
  }
}

/// A command that sets one state of one reminder: `done`, `undone`, `flag`, `unflag`.
protocol ReminderStateCommand: Command {
  static var change: ReminderStateChange { get }
  /// The reminder's UID or a prefix of it.
  var id: String { get }
  init(id: String)
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
    let outcome = try Self.change.apply(editor, to: id)
    let reminder = outcome.reminder.reminder
    if let occurrence = outcome.completedOccurrence?.reminder {
      // A repeating reminder: the copy of the occurrence done, and the reminder moved on.
      if context.arguments.flag("json") {
        let copy = ReminderRenderer.json(occurrence, list: outcome.list)
        context.io.print(ReminderRenderer.json(reminder, list: outcome.list, more: [("completedOccurrence", copy)]))
      }
      let done = (occurrence.dueDate ?? occurrence.startDate).map { " of " + ReminderRenderer.text(of: $0) } ?? ""
      let next = (reminder.dueDate ?? reminder.startDate).map(ReminderRenderer.text(of:)) ?? ""
      context.tell(
        "done: \(JSONText.quoted(reminder.title))\(done), kept as \(occurrence.id); next: \(next) (\(reminder.id))")
      return .ok
    }
    if context.arguments.flag("json") { context.io.print(ReminderRenderer.json(reminder, list: outcome.list)) }
    context.tell(
      (outcome.changed ? "" : "already ") + "\(Self.change): \(JSONText.quoted(reminder.title)) (\(reminder.id))")
    return .ok
  }
}

/// `remconv done ID`.
struct DoneCommand: ReminderStateCommand {
  static let configuration = stateConfiguration(
    name: "done", abstract: "Mark a reminder done.",
    discussion: """
      Sets completedAt to now. Its subtasks keep their own state. A repeating reminder stays
      open and moves to its next occurrence (due and start dates move by its rule, alarms
      with them); the occurrence done is kept as a completed copy in the same list. When its
      series has ended (COUNT, UNTIL) it is completed like any other.
      """)
  static let change = ReminderStateChange.done(true)
  let id: String
}

/// `remconv undone ID`.
struct UndoneCommand: ReminderStateCommand {
  static let configuration = stateConfiguration(
    name: "undone", abstract: "Mark a reminder not done.", discussion: "Clears completedAt.")
  static let change = ReminderStateChange.done(false)
  let id: String
}

/// `remconv flag ID`.
struct FlagCommand: ReminderStateCommand {
  static let configuration = stateConfiguration(name: "flag", abstract: "Flag a reminder.")
  static let change = ReminderStateChange.flagged(true)
  let id: String
}

/// `remconv unflag ID`.
struct UnflagCommand: ReminderStateCommand {
  static let configuration = stateConfiguration(name: "unflag", abstract: "Remove a reminder's flag.")
  static let change = ReminderStateChange.flagged(false)
  let id: String
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
