import RemconvCore

/// `remconv show LIST` and `remconv show --scope SCOPE`: a list or a smart list.
struct ShowCommand: Command {
  static let configuration = CommandConfiguration(
    name: "show",
    abstract: "Show the reminders of a list or a smart list, open ones first, then the completed.",
    discussion: """
      Subtasks are shown under their parent. A smart list's Completed section holds the done
      reminders that meet its condition (due today, scheduled, flagged). An empty view says
      "No Reminders". IDs are the shortest unambiguous prefixes of the UIDs.
      """,
    arguments: [ArgumentSpec("list", help: "The list's name (any case).", optional: true, completion: .listNames)],
    options: [
      .option(
        "scope", short: "s", value: "scope", help: "A smart list instead of a list.",
        allowed: ReminderScope.allCases.map(\.rawValue)),
      ReminderArguments.sortOption,
      .option(
        "group", value: "grouping", help: "Group by the day reminders are due, with a heading per day.",
        allowed: ["day"]),
      ReminderArguments.hideCompletedOption,
      ReminderArguments.jsonOption,
    ],
    examples: [
      "remconv show Groceries", "remconv show --scope today", "remconv show --scope scheduled --group day",
      "remconv show Work --sort priority --json",
    ])

  let listName: String?
  let scope: ReminderScope?
  let arguments: ParsedArguments

  init(_ arguments: ParsedArguments) throws(UsageError) {
    scope = arguments.value("scope").flatMap(ReminderScope.init(rawValue:))
    if scope != nil {
      if let extra = arguments.positional(0) { throw .conflictingOptions("<list> \(extra)", "--scope") }
      listName = nil
    } else {
      guard arguments.positional(0) != nil else {
        throw .invalid("Give a list's name or --scope (today, scheduled, flagged, all, completed)")
      }
      listName = try ReminderArguments.single(arguments, "list")
    }
    self.arguments = arguments
  }

  func run(_ context: CommandContext) throws -> ExitStatus {
    let store = try context.openStore(create: false)
    defer { store.close() }
    let options = ReminderArguments.viewOptions(arguments)
    let stream: ViewStream
    if let scope {
      stream = try ViewStream(scope: scope, store: store, today: context.today, options: options)
    } else {
      let list = try ReminderEditor(store: store, now: context.now).resolveList(listName ?? "")
      stream = ViewStream(list: list, store: store, today: context.today, options: options)
    }
    try Self.present(stream, store: store, json: arguments.flag("json"), context: context)
    return .ok
  }

  /// Prints a view as text or JSON (shared with `search`), as its rows come. Returns false,
  /// having printed nothing, when the view shows no row and `skipsEmpty`.
  @discardableResult
  static func present(_ stream: ViewStream, store: Store, json: Bool, context: CommandContext, skipsEmpty: Bool = false)
    throws -> Bool
  {
    let renderer = ReminderRenderer(style: context.style, today: stream.today)
    if json {
      try renderer.writeJSON(stream, to: context.io.output)
      return true
    }
    return try renderer.write(stream, ids: store.uidPrefixLengths(), to: context.io.output, skipsEmpty: skipsEmpty)
  }
}
