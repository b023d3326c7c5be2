import RemconvCore

/// `remconv convert INPUT --to FORMAT`: file to file, pipe to pipe, without the store.
struct ConvertCommand: Command {
  static let configuration = CommandConfiguration(
    name: "convert",
    abstract: "Convert reminders from one format to another without touching the store.",
    arguments: [ArgumentSpec("input", help: "A file, a vdir folder, or - for standard input.")],
    options: [
      .option(
        "to", short: "t", value: "format", help: "The output format (from the -o extension when absent).",
        allowed: FormatRegistry.writableNames),
      .option(
        "from", short: "f", value: "format", help: FormatSelection.formatHelp, allowed: FormatRegistry.readableNames),
      .option("output", short: "o", value: "file", help: "Write here instead of standard output (- for stdout)."),
      .option("list", value: "name", help: "Put every reminder in this list."),
      .flag("force", help: "Replace an existing output file."),
      .flag("strict", help: "Treat warnings as errors."),
      .flag("excel", help: "CSV for spreadsheets: BOM, CRLF, formula cells neutralised."),
      .option("delimiter", value: "char", help: "The CSV delimiter of the input."),
    ],
    examples: [
      "remconv convert tasks.ics --to csv -o tasks.csv", "cat tasks.json | remconv convert - --from json --to ics",
    ])

  let input: String
  let arguments: ParsedArguments

  init(_ arguments: ParsedArguments) throws(UsageError) {
    guard let input = arguments.positional(0) else { throw .missingArgument("input") }
    if let extra = arguments.positional(1) { throw .unexpectedArgument(extra) }
    if arguments.value("to") == nil, arguments.value("output") == nil || arguments.value("output") == "-" {
      throw .missingValue(option: "--to <format>")
    }
    self.input = input
    self.arguments = arguments
  }

  func run(_ context: CommandContext) throws -> ExitStatus {
    let diagnostics = DiagnosticLog()
    diagnostics.onReport = { context.report($0) }
    let options = try FormatSelection.readerOptions(arguments, context: context)
    let format = try FormatSelection.writerFormat(
      arguments.value("to"), output: arguments.value("output"), fallback: nil)
    guard let makeWriter = format.makeWriter else {
      throw UsageError.invalidValue(format.name, option: "--to", allowed: FormatRegistry.writableNames)
    }
    // The output first: an existing file is refused before a large input is read (an .ics
    // reader reads its input once when it opens).
    let destination = try OutputDestination(
      path: arguments.value("output"), format: format, force: arguments.flag("force"), io: context.io,
      store: StoreFiles(storePath: context.storePath))
    let (reader, _, source) = try FormatSelection.reader(
      for: input, format: arguments.value("from"), options: options, diagnostics: diagnostics, io: context.io)
    var writerOptions = WriterOptions()
    writerOptions.now = context.now
    writerOptions.timeZone = context.timeZone
    writerOptions.excel = arguments.flag("excel")
    writerOptions.force = arguments.flag("force")
    let writer = try makeWriter(
      WriterContext(target: destination.target, diagnostics: diagnostics, options: writerOptions))
    _ = try Converter.run(
      reader: reader, writer: writer, writerType: type(of: writer), source: source, diagnostics: diagnostics,
      targetList: arguments.value("list"))
    if options.strict, diagnostics.warningCount > 0 {
      throw RemconvError.invalidInput("\(source.displayName): \(diagnostics.warningCount) warning(s) with --strict")
    }
    try destination.commit()
    return .ok
  }
}
