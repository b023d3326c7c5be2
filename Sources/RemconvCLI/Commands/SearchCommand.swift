import RemconvCore

/// `remconv search TEXT`: reminders whose title or notes contain the text, in every list.
struct SearchCommand: Command {
  static let configuration = CommandConfiguration(
    name: "search",
    abstract: "Find reminders whose title or notes contain a text, in every list.",
    discussion: """
      Case, accents and width are ignored: "forecast" finds "Forecast", "cafe" finds "Café".
      Several words are searched as one phrase. Open reminders come first, then the completed.
      """,
    arguments: [ArgumentSpec("text", help: "What to look for.", repeating: true)],
    options: [ReminderArguments.sortOption, ReminderArguments.hideCompletedOption, ReminderArguments.jsonOption],
    examples: ["remconv search forecast", "remconv search cafe --json"])

  let search: ReminderSearch
  let arguments: ParsedArguments

  init(_ arguments: ParsedArguments) throws(UsageError) {
    guard !arguments.positionals.isEmpty else { throw .missingArgument("text") }
    guard let search = ReminderSearch(arguments.positionals.joined(separator: " ")) else {
      throw .invalid("The search text is blank")
    }
    self.search = search
    self.arguments = arguments
  }

  func run(_ context: CommandContext) throws -> ExitStatus {
    let store = try context.openStore(create: false)
    defer { store.close() }
    let stream = try ViewStream(
      search: search, store: store, today: context.today, options: ReminderArguments.viewOptions(arguments))
    let json = arguments.flag("json")
    if try !ShowCommand.present(stream, store: store, json: json, context: context, skipsEmpty: !json) {
      context.io.print("No matches for \"\(TerminalText.printable(search.query))\"")
    }
    return .ok
  }
}
