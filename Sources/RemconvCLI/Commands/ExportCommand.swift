import RemconvCore

/// `remconv export`: writes the store in a format, to stdout or a file.
struct ExportCommand: Command {
  static let configuration = CommandConfiguration(
    name: "export",
    abstract: "Export the store's lists and reminders in a format.",
    discussion: """
      Writes to standard output unless -o is given. A file is written beside its target and
      moved into place when complete, mode 0600; an existing file is replaced only with --force.
      A FIFO or a device (/dev/stdout, /dev/null) is written into, never replaced; the store and
      its files are never an output. A missing store is an error (exit 66), never created.
      Reminders whose list is gone (orphans) are written into a list "Recovered", with a
      warning giving their count; the store is not changed.
      Into an existing vdir, each reminder goes into the file that holds its UID, whatever it
      is called (replaced with --force); files of reminders the export does not write are
      reported, and removed with --prune.
      """,
    options: [
      .option(
        "format", short: "f", value: "format", help: "The format (from the -o extension when absent).",
        allowed: FormatRegistry.writableNames, defaultValue: "json"),
      .option("list", value: "name", help: "Only this list; repeat for several.", repeatable: true),
      .option(
        "scope", short: "s", value: "scope", help: "Only the reminders of a smart list, by the rule of 'show --scope'.",
        allowed: ReminderScope.allCases.map(\.rawValue)),
      .option("output", short: "o", value: "file", help: "Write here instead of standard output (- for stdout)."),
      .flag("force", help: "Replace an existing output file."),
      .flag(
        "prune",
        help: "vdir: remove the files of the list folders written that hold reminders this export does not write."),
      .flag("dry-run", help: "With --prune: write nothing, list the files --prune would remove."),
      .flag("excel", help: "CSV for spreadsheets: BOM, CRLF, formula cells neutralised."),
      .option("delimiter", value: "char", help: "The CSV delimiter.", defaultValue: "comma"),
      .flag("validate", help: "Check the store first (as remconv validate); stop on errors, exit 1."),
    ],
    examples: [
      "remconv export --format csv -o reminders.csv", "remconv export --format ics --list Groceries",
      "remconv export --scope today --format jsonl",
    ])

  let arguments: ParsedArguments

  init(_ arguments: ParsedArguments) throws(UsageError) {
    if let extra = arguments.positional(0) { throw .unexpectedArgument(extra) }
    self.arguments = arguments
  }

  func run(_ context: CommandContext) throws -> ExitStatus {
    let format = try FormatSelection.writerFormat(
      arguments.value("format"), output: arguments.value("output"), fallback: "json")
    guard let makeWriter = format.makeWriter else {
      throw UsageError.invalidValue(format.name, option: "--format", allowed: FormatRegistry.writableNames)
    }
    if arguments.flag("dry-run"), !arguments.flag("prune") { throw UsageError.invalid("'--dry-run' needs '--prune'") }
    if arguments.flag("prune"), !format.isDirectory {
      throw UsageError.invalid("'--prune' is for a folder format (--format vdir), not \(format.name)")
    }
    if arguments.flag("prune"), arguments.value("scope") != nil {
      // A smart list leaves out reminders whose files are not stale: they would be removed.
      throw UsageError.invalid("'--prune' cannot go with '--scope': the reminders left out are not gone")
    }
    let store = try context.openStore(create: false)
    defer { store.close() }
    if arguments.flag("validate"), try !ExportValidation.allowsExport(of: store, context: context) { return .findings }
    let diagnostics = DiagnosticLog()
    diagnostics.onReport = { context.report($0) }
    let destination = try OutputDestination(
      path: arguments.value("output"), format: format, force: arguments.flag("force"), io: context.io,
      store: StoreFiles(storePath: context.storePath))
    var writerOptions = WriterOptions()
    writerOptions.now = context.now
    writerOptions.timeZone = context.timeZone
    writerOptions.excel = arguments.flag("excel")
    writerOptions.force = arguments.flag("force")
    if let delimiter = arguments.value("delimiter") {
      writerOptions.delimiter = try FormatSelection.parseDelimiter(delimiter)
    }
    writerOptions.prune = arguments.flag("prune")
    writerOptions.dryRun = arguments.flag("dry-run")
    writerOptions.selectsReminders = arguments.value("scope") != nil
    let writer = try makeWriter(
      WriterContext(target: destination.target, diagnostics: diagnostics, options: writerOptions))
    var options = Exporter.Options()
    options.diagnostics = diagnostics
    options.lists = arguments.values("list")
    if let scope = arguments.value("scope").flatMap(ReminderScope.init(rawValue:)) {
      let today = context.today
      options.filter = { scope.contains($0, today: today) }
    }
    // Without --list or --scope every reminder is written: the total is known.
    let total =
      options.lists.isEmpty && options.filter == nil && context.io.isErrorTerminal && !context.isQuiet
      ? try store.reminderCount() : nil
    let count = try Exporter.run(
      from: store, to: writer, options: options, progress: context.progress("exporting", total: total))
    context.endProgress()
    try destination.commit()
    if !context.isQuiet, let path = arguments.value("output"), path != "-" {
      let reminders = "\(count) reminder\(count == 1 ? "" : "s")"
      context.io.printError(
        writerOptions.dryRun
          ? "remconv: dry run: nothing written to \(path) (\(reminders) would be exported)"
          : "remconv: exported \(reminders) to \(path)")
    }
    return .ok
  }
}
