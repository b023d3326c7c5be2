import Foundation
import RemconvCore

/// `remconv list create|edit|delete NAME`: the lists themselves.
struct ListCommand: Command {
  static let configuration = CommandConfiguration(
    name: "list",
    abstract: "Create, change or delete a list.",
    discussion: "List names are unique whatever their case or Unicode normalisation.",
    subcommands: [
      CommandConfiguration(
        name: "create", abstract: "Create a list.",
        arguments: [ArgumentSpec("name", help: "The new list's name.")],
        options: [symbolOption, colorOption],
        examples: ["remconv list create Groceries --symbol cart --color green"]),
      CommandConfiguration(
        name: "edit", abstract: "Rename a list or change its symbol or colour.",
        arguments: [ArgumentSpec("name", help: "The list's name.", completion: .listNames)],
        options: [.option("name", value: "name", help: "A new name."), symbolOption, colorOption],
        examples: ["remconv list edit groceries --name Shopping --color '#FF9500'"]),
      CommandConfiguration(
        name: "delete", abstract: "Delete a list and every reminder in it.",
        discussion: """
          Says how many reminders go with the list. Asks first on a terminal; when standard input
          is not a terminal, --yes is needed.
          """,
        arguments: [ArgumentSpec("name", help: "The list's name.", completion: .listNames)],
        options: [.flag("yes", short: "y", help: "Delete without asking.")],
        examples: ["remconv list delete Someday --yes"]),
    ],
    examples: ["remconv list create Groceries --symbol cart --color green", "remconv list delete Someday --yes"])

  static let symbolOption = OptionSpec.option("symbol", value: "symbol", help: "An SF Symbol name (cart, list.bullet).")
  static let colorOption = OptionSpec.option(
    "color", value: "color", help: "The colour: \(ReminderArguments.colorHelp); none removes it.",
    completion: .values(ListColor.named.map(\.name) + ["none"]))

  enum Action {
    case create(symbol: String?, color: String?)
    case edit(ReminderEditor.ListChanges)
    case delete(confirmed: Bool)
  }

  let name: String
  let action: Action

  init(_ arguments: ParsedArguments) throws(UsageError) {
    guard let subcommand = arguments.positional(0) else {
      throw .missingSubcommand(command: "list", choices: Self.configuration.subcommandNames)
    }
    name = try ReminderArguments.single(arguments, "name", at: 1)
    switch subcommand {
    case "create":
      action = .create(
        symbol: try ReminderArguments.symbol(arguments), color: try ReminderArguments.listColor(arguments) ?? nil)
    case "edit":
      var changes = ReminderEditor.ListChanges()
      changes.name = arguments.value("name")
      changes.symbol = try ReminderArguments.symbol(arguments)
      changes.color = try ReminderArguments.listColor(arguments)
      guard !changes.isEmpty else { throw .invalid("Nothing to change: give --name, --symbol or --color") }
      action = .edit(changes)
    case "delete":
      action = .delete(confirmed: arguments.flag("yes"))
    default:
      throw .unknownSubcommand(subcommand, command: "list", suggestion: nil)
    }
  }

  func run(_ context: CommandContext) throws -> ExitStatus {
    let (editor, store) = try context.openEditor()
    defer { store.close() }
    switch action {
    case .create(let symbol, let color):
      let created = try editor.createList(name: name, symbol: symbol, color: color)
      context.tell("created the list \(JSONText.quoted(created.list.name))")
    case .edit(let changes):
      let (edited, changed) = try editor.editList(name, changes)
      context.tell((changed ? "changed" : "unchanged:") + " the list \(JSONText.quoted(edited.list.name))")
    case .delete(let confirmed):
      let (list, count) = try editor.reminderCount(inList: name)
      let what = "the list \(JSONText.quoted(list.list.name)) and its \(count) reminder\(count == 1 ? "" : "s")"
      if !confirmed {
        guard context.io.isInputTerminal else {
          throw UsageError.invalid("This deletes \(what): give --yes to confirm (standard input is not a terminal)")
        }
        guard try ask("Delete \(what)? [y/N] ", context: context) else {
          context.tell("kept \(what)")
          return .ok
        }
      }
      let (deleted, deletedCount) = try editor.deleteList(name)
      context.tell(
        "deleted the list \(JSONText.quoted(deleted.list.name)) and its \(deletedCount) reminder\(deletedCount == 1 ? "" : "s")"
      )
    }
    return .ok
  }

  /// Asks a yes/no question on the terminal; only `y` or `yes` is a yes.
  private func ask(_ question: String, context: CommandContext) throws -> Bool {
    try context.io.errors.write(question)
    try context.io.errors.flush()
    guard let line = try context.io.standardInput().readLine() else { return false }
    let answer = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    return answer == "y" || answer == "yes"
  }
}
