import RemconvCore

/// `remconv completions SHELL`: prints a completion script for bash, zsh or fish.
struct CompletionsCommand: Command {
  static let configuration = CommandConfiguration(
    name: "completions",
    abstract: "Print a shell completion script for bash, zsh or fish.",
    discussion: """
      The script completes commands, subcommands, options, their values and, for list
      arguments, the names of the store's lists (from 'remconv lists --names').
      """,
    arguments: [
      ArgumentSpec(
        "shell", help: "bash, zsh or fish.", completion: .values(CompletionScripts.Shell.allCases.map(\.rawValue)))
    ],
    examples: [
      "remconv completions bash > ~/.local/share/bash-completion/completions/remconv",
      "remconv completions zsh > ~/.zfunc/_remconv",
      "remconv completions fish > ~/.config/fish/completions/remconv.fish",
    ])

  let shell: CompletionScripts.Shell

  init(_ arguments: ParsedArguments) throws(UsageError) {
    let name = try ReminderArguments.single(arguments, "shell")
    guard let shell = CompletionScripts.Shell(rawValue: name) else {
      throw .invalidValue(name, option: "<shell>", allowed: CompletionScripts.Shell.allCases.map(\.rawValue))
    }
    self.shell = shell
  }

  func run(_ context: CommandContext) throws -> ExitStatus {
    try context.io.output.write(
      CompletionScripts.script(for: shell, commands: CLI.configurations, globals: GlobalOptions.specs))
    return .ok
  }
}
