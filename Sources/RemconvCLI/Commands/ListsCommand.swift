import RemconvCore

/// `remconv lists`: every list with its symbol, colour and open count, then the smart counts.
struct ListsCommand: Command {
  static let configuration = CommandConfiguration(
    name: "lists",
    abstract: "Show every list with its symbol, colour and open reminders, then the smart counts.",
    discussion: """
      The counts are derived from the reminders each time, by the rules of 'show --scope' and
      'export --scope': Today (not done, due on today's local date), Scheduled (not done, with
      a due date), Flagged (not done, flagged), All (not done).
      """,
    options: [
      ReminderArguments.jsonOption,
      .flag("names", help: "Print only the list names, one per line (for scripts and completion)."),
    ],
    examples: ["remconv lists", "remconv lists --json | jq '.counts.today'"])

  let arguments: ParsedArguments

  init(_ arguments: ParsedArguments) throws(UsageError) {
    if let extra = arguments.positional(0) { throw .unexpectedArgument(extra) }
    if arguments.flag("json"), arguments.flag("names") { throw .conflictingOptions("--json", "--names") }
    self.arguments = arguments
  }

  func run(_ context: CommandContext) throws -> ExitStatus {
    let store = try context.openStore(create: false)
    defer { store.close() }
    let today = context.today
    let (lists, counts) = try store.read { (try store.lists(), try ReminderCounts(store: store, today: today)) }
    if arguments.flag("names") {
      for stored in lists { context.io.print(TerminalText.printable(stored.list.name)) }
    } else if arguments.flag("json") {
      let listObjects = lists.map { stored in
        ReminderRenderer.object(
          ReminderJSON.listMembers(stored.list) + [("openCount", String(counts.open(inListRow: stored.rowID)))])
      }
      let countMembers = ReminderScope.counted.map { ($0.rawValue, String(counts.count($0))) }
      context.io.print(
        ReminderRenderer.object([
          ("version", "1"), ("today", JSONText.quoted(today.date.description)),
          ("lists", "[" + listObjects.joined(separator: ",") + "]"), ("counts", ReminderRenderer.object(countMembers)),
        ]))
    } else {
      for line in Self.lines(lists: lists, counts: counts, style: context.style) { context.io.print(line) }
    }
    return .ok
  }

  static func lines(lists: [StoredList], counts: ReminderCounts, style: TextStyle) -> [String] {
    var lines: [String] = []
    if lists.isEmpty {
      lines.append("No Lists")
    } else {
      var table = TextTable(alignments: [.left, .left, .left, .right])
      table.add(["LIST", "SYMBOL", "COLOR", "OPEN"].map { TextTable.Cell($0, styled: style.dim($0)) })
      for stored in lists {
        let list = stored.list
        table.add([
          TextTable.Cell(
            list.name, styled: style.bold(style.color(TerminalText.printable(list.name), hex: list.color))),
          TextTable.Cell(list.symbol),
          TextTable.Cell(list.color ?? "-", styled: list.color.map { style.color($0, hex: $0) }),
          TextTable.Cell(String(counts.open(inListRow: stored.rowID))),
        ])
      }
      lines += table.lines()
    }
    lines.append("")
    var smart = TextTable(alignments: [.left, .right])
    for scope in ReminderScope.counted {
      smart.add([
        TextTable.Cell(scope.title, styled: style.bold(scope.title)), TextTable.Cell(String(counts.count(scope))),
      ])
    }
    return lines + smart.lines()
  }
}
