import RemconvCore

/// `remconv man`: prints the manual page in roff.
struct ManCommand: Command {
  static let configuration = CommandConfiguration(
    name: "man",
    abstract: "Print the manual page (roff) of remconv.",
    discussion: "Made from the same definitions as --help. 'make man' writes it to docs/remconv.1.",
    examples: ["remconv man | man -l -", "remconv man > ~/.local/share/man/man1/remconv.1"])

  init(_ arguments: ParsedArguments) throws(UsageError) {
    if let extra = arguments.positional(0) { throw .unexpectedArgument(extra) }
  }

  func run(_ context: CommandContext) throws -> ExitStatus {
    try context.io.output.write(ManPage.render(commands: CLI.configurations, globals: GlobalOptions.specs))
    return .ok
  }
}
