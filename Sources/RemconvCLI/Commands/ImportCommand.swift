import RemconvCore

/// `remconv import FILE|DIR|-`: reads reminders into the store in one transaction.
struct ImportCommand: Command {
  static let configuration = CommandConfiguration(
    name: "import",
    abstract: "Import reminders from a file, a vdir folder or standard input into the store.",
    discussion: """
      Items are merged by UID: importing the same file twice adds nothing. Sources without
      UIDs get a stable one derived from list, title, due date and parent, and find what they
      wrote before by those. A matched item changes only in the fields the source changed:
      what its format cannot carry keeps the stored value. The whole import is one
      transaction: on any error nothing is written. A summary goes to stderr.
      """,
    arguments: [ArgumentSpec("input", help: "A file, a vdir folder, or - for standard input.")],
    options: [
      .option(
        "format", short: "f", value: "format", help: FormatSelection.formatHelp, allowed: FormatRegistry.readableNames),
      .option("list", value: "name", help: "Put every reminder in this list (created if needed)."),
      .flag("dry-run", help: "Do everything but commit: report what would change."),
      .option("report", value: "kind", help: "Print the report on stdout.", allowed: ["text", "json"]),
      .flag("strict", help: "Treat warnings as errors (nothing is written)."),
      .option("delimiter", value: "char", help: "The CSV delimiter (detected when absent).", allowed: nil),
      .option(
        "on-duplicate", value: "policy", help: "When an older store has list names that collide.",
        allowed: DuplicateNamePolicy.allCases.map(\.rawValue), defaultValue: "rename"),
    ],
    examples: [
      "remconv import tasks.ics", "remconv import --format csv --list Work - < tasks.csv",
      "remconv import backup.json --dry-run --report json",
    ])

  let input: String
  let arguments: ParsedArguments

  init(_ arguments: ParsedArguments) throws(UsageError) {
    guard let input = arguments.positional(0) else { throw .missingArgument("input") }
    if let extra = arguments.positional(1) { throw .unexpectedArgument(extra) }
    self.input = input
    self.arguments = arguments
  }

  func run(_ context: CommandContext) throws -> ExitStatus {
    let diagnostics = DiagnosticLog()
    diagnostics.onReport = { diagnostic in
      if diagnostic.severity == .warning { context.report(diagnostic) }
    }
    let options = try FormatSelection.readerOptions(arguments, context: context)
    let knownRecords = KnownRecords()
    let (reader, format, source) = try FormatSelection.reader(
      for: input, format: arguments.value("format"), options: options, diagnostics: diagnostics, io: context.io)
    let store = try context.openStore()
    defer { store.close() }
    var importOptions = Importer.Options()
    importOptions.targetList = arguments.value("list")
    importOptions.dryRun = arguments.flag("dry-run")
    importOptions.strict = arguments.flag("strict")
    importOptions.readerOptions = options
    let report: ImportReport
    do {
      report = try Importer.run(
        reader: reader, into: store, source: source, format: format.name, options: importOptions,
        diagnostics: diagnostics, knownRecords: knownRecords,
        progress: context.progress("importing", reading: input == "-" ? nil : input))
      context.endProgress()
    } catch let failure as ImportFailure {
      context.endProgress()
      if arguments.value("report") == "json" { context.io.print(JSONText.encode(failure.report.json)) }
      throw failure
    }
    switch arguments.value("report") {
    case "json": context.io.print(JSONText.encode(report.json))
    case "text": context.io.print(report.summary)
    default: if !context.isQuiet { context.io.printError("remconv: \(report.summary)") }
    }
    return .ok
  }
}
