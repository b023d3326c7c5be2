import Foundation
import RemconvCore

/// The command line of remconv, callable in-process: `CLI.run(arguments, io:)`.
public enum CLI {
  /// Every command, in the order `--help` lists them.
  static let commands: [any Command.Type] = [
    ImportCommand.self,
    ExportCommand.self,
    ConvertCommand.self,
    FormatsCommand.self,
    ListsCommand.self,
    ShowCommand.self,
    SearchCommand.self,
    AddCommand.self,
    EditCommand.self,
    DoneCommand.self,
    UndoneCommand.self,
    FlagCommand.self,
    UnflagCommand.self,
    DeleteCommand.self,
    ListCommand.self,
    CompletionsCommand.self,
    ManCommand.self,
    MigrateCommand.self,
    ValidateCommand.self,
    RemoteCommand.self,
    SyncCommand.self,
  ]

  static var configurations: [CommandConfiguration] { commands.map { $0.configuration } }

  /// Runs one command line (without the program name) and returns its exit status.
  public static func run(
    _ arguments: [String], io: ConsoleIO, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> ExitStatus {
    var status = dispatch(arguments, io: io, environment: environment)
    status = checkedOutput(status, io: io)
    try? io.errors.flush()
    return status
  }

  /// Every command's standard output ends here: a write that failed on the way (a line
  /// printed while the disk was full) or the last flush turns success into the failure it is,
  /// so that no command can report success for output that was lost. A command that already
  /// failed keeps its own status and message.
  private static func checkedOutput(_ status: ExitStatus, io: ConsoleIO) -> ExitStatus {
    do {
      try io.output.flush()
      return status
    } catch {
      guard status == .ok || status == .findings else { return status }
      io.printError("remconv: error: \(error)")
      return ExitStatus.from(error)
    }
  }

  private static func dispatch(_ arguments: [String], io: ConsoleIO, environment: [String: String]) -> ExitStatus {
    // The command is the first argument that is not a global option or its value.
    var rest = arguments
    var leadingGlobals: [String] = []
    while let first = rest.first, first.hasPrefix("-"), first != "-" {
      if first == "--version" {
        io.print("remconv \(RemconvVersion.current)")
        return .ok
      }
      if first == "-h" || first == "--help" {
        try? io.output.write(HelpGenerator.rootHelp(commands: configurations, globals: GlobalOptions.specs))
        return .ok
      }
      leadingGlobals.append(rest.removeFirst())
      if let spec = GlobalOptions.specs.first(where: { "--\($0.name)" == first }), !spec.isFlag, !rest.isEmpty {
        leadingGlobals.append(rest.removeFirst())
      } else if GlobalOptions.specs.first(where: {
        "--\($0.name)" == first.split(separator: "=").first.map(String.init)
      }) == nil {
        return usageFailure(
          .unknownOption(
            first,
            suggestion: Suggestion.closest(to: String(first.drop { $0 == "-" }), among: GlobalOptions.specs.map(\.name))
              .map { "--\($0)" }),
          configuration: nil, io: io)
      }
    }
    guard let name = rest.first else {
      try? io.errors.write(HelpGenerator.rootHelp(commands: configurations, globals: GlobalOptions.specs))
      return usageFailure(.missingCommand, configuration: nil, io: io)
    }
    rest.removeFirst()
    if name == "help" {
      guard let topic = rest.first else {
        try? io.output.write(HelpGenerator.rootHelp(commands: configurations, globals: GlobalOptions.specs))
        return .ok
      }
      guard let command = commands.first(where: { $0.configuration.name == topic }) else {
        return usageFailure(.unknownCommand(topic, suggestion: suggest(topic)), configuration: nil, io: io)
      }
      let configuration = command.configuration
      guard let subtopic = rest.dropFirst().first else {
        try? io.output.write(HelpGenerator.help(for: configuration, globals: GlobalOptions.specs))
        return .ok
      }
      guard let subcommand = configuration.subcommand(named: subtopic) else {
        let error = UsageError.unknownSubcommand(
          subtopic, command: topic, suggestion: Suggestion.closest(to: subtopic, among: configuration.subcommandNames))
        return usageFailure(error, configuration: configuration, io: io)
      }
      try? io.output.write(HelpGenerator.help(for: subcommand, parent: configuration, globals: GlobalOptions.specs))
      return .ok
    }
    guard let command = commands.first(where: { $0.configuration.name == name }) else {
      return usageFailure(.unknownCommand(name, suggestion: suggest(name)), configuration: nil, io: io)
    }
    let configuration = command.configuration
    let parsed: ParsedArguments
    do {
      parsed = try ArgumentParser.parse(
        leadingGlobals + rest, configuration: configuration, globals: GlobalOptions.specs)
    } catch {
      // Describe the subcommand the line names, if any (`list create X --yes`).
      let named = rest.lazy.compactMap { configuration.subcommand(named: $0) }.first
      return usageFailure(
        error, configuration: named ?? configuration, parent: named == nil ? nil : configuration, io: io)
    }
    // The subcommand chosen (the parser has checked the name), so that help and usage errors
    // describe `list create` rather than `list`.
    let subcommand = parsed.positional(0).flatMap { configuration.subcommand(named: $0) }
    let effective = subcommand ?? configuration
    let parent = subcommand == nil ? nil : configuration
    if parsed.flag("help") {
      try? io.output.write(HelpGenerator.help(for: effective, parent: parent, globals: GlobalOptions.specs))
      return .ok
    }
    let instance: any Command
    do {
      instance = try command.init(parsed)
    } catch {
      return usageFailure(error, configuration: effective, parent: parent, io: io)
    }
    let context = CommandContext(io: io, environment: environment, arguments: parsed, configuration: effective)
    do {
      return try instance.run(context)
    } catch let error as UsageError {
      return usageFailure(error, configuration: effective, parent: parent, io: io)
    } catch {
      return fail(error, context: context)
    }
  }

  /// Prints an error thrown by a command and returns its status.
  static func fail(_ error: any Error, context: CommandContext) -> ExitStatus {
    switch error {
    case let failure as ImportFailure:
      for diagnostic in failure.report.diagnostics where diagnostic.severity == .error {
        context.report(diagnostic)
      }
      if let underlying = failure.underlying {
        context.io.printError("remconv: error: \(underlying)")
      } else if let reason = failure.reason {
        context.io.printError("remconv: error: \(failure.report.source): \(reason)")
      }
    default:
      context.io.printError("remconv: error: \(error)")
    }
    return ExitStatus.from(error)
  }

  private static func suggest(_ name: String) -> String? {
    Suggestion.closest(to: name, among: commands.map { $0.configuration.name } + ["help"])
  }

  private static func usageFailure(
    _ error: UsageError, configuration: CommandConfiguration?, parent: CommandConfiguration? = nil, io: ConsoleIO
  ) -> ExitStatus {
    io.printError("Error: \(error.message)")
    if let configuration {
      io.printError("Usage: \(HelpGenerator.usage(for: configuration, parent: parent))")
      let name = (parent.map { $0.name + " " } ?? "") + configuration.name
      io.printError("  See 'remconv \(name) --help' for more information.")
    } else {
      io.printError("Usage: remconv <command> [options]")
      io.printError("  See 'remconv --help' for more information.")
    }
    return .usage
  }
}
