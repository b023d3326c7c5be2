/// Help text in swift-argument-parser's layout: OVERVIEW, USAGE, ARGUMENTS, OPTIONS.
enum HelpGenerator {
  static let labelWidth = 26
  /// What remconv is, in one line: the root help's overview and the man page's NAME.
  static let overview = "Move reminders between formats and keep them safe in a SQLite store."

  /// `remconv import <input> [--format <format>] ...`; `parent` for a subcommand (`list create`).
  static func usage(for configuration: CommandConfiguration, parent: CommandConfiguration? = nil) -> String {
    var parts = ["remconv"] + (parent.map { [$0.name] } ?? []) + [configuration.name]
    if !configuration.subcommands.isEmpty { parts.append("[\(configuration.subcommandNames.joined(separator: "|"))]") }
    for argument in configuration.arguments where !configuration.subcommandNames.contains(argument.name) {
      parts.append(argument.isOptional ? "[\(argument.label)]" : argument.label)
    }
    for option in configuration.options {
      var text = "--\(option.name)"
      if let value = option.valueName { text += " <\(value)>" }
      parts.append(option.repeatable ? "[\(text) ...]" : "[\(text)]")
    }
    return parts.joined(separator: " ")
  }

  static func help(
    for configuration: CommandConfiguration, parent: CommandConfiguration? = nil, globals: [OptionSpec]
  ) -> String {
    var lines = ["OVERVIEW: \(configuration.abstract)"]
    if let discussion = configuration.discussion {
      lines += ["", discussion]
    }
    lines += ["", "USAGE: \(usage(for: configuration, parent: parent))"]
    let documented = configuration.subcommands.filter { !$0.abstract.isEmpty }
    if !documented.isEmpty {
      lines += ["", "SUBCOMMANDS:"]
      for subcommand in documented { lines += row(subcommand.name, subcommand.abstract) }
    }
    if !configuration.arguments.isEmpty {
      lines += ["", "ARGUMENTS:"]
      for argument in configuration.arguments { lines += row(argument.label, argument.help) }
    }
    lines += ["", "OPTIONS:"]
    for option in configuration.options { lines += row(option.label, describe(option)) }
    lines += ["", "GLOBAL OPTIONS:"]
    for option in configuration.visibleGlobals(globals, parent: parent) { lines += row(option.label, describe(option)) }
    if !configuration.examples.isEmpty {
      lines += ["", "EXAMPLES:"]
      lines += configuration.examples.map { "  \($0)" }
    }
    if !documented.isEmpty {
      lines += ["", "  See 'remconv help \(configuration.name) <subcommand>' for detailed help."]
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static func rootHelp(commands: [CommandConfiguration], globals: [OptionSpec]) -> String {
    var lines = [
      "OVERVIEW: \(overview)", "",
      "USAGE: remconv <command> [options]", "", "COMMANDS:",
    ]
    for command in commands { lines += row(command.name, command.abstract) }
    lines += ["", "GLOBAL OPTIONS:"]
    for option in globals { lines += row(option.label, describe(option)) }
    lines += row("--version", "Show the version.")
    lines += ["", "EXIT STATUS:"]
    for status in ExitStatus.allCases { lines += row(String(status.rawValue), status.meaning) }
    lines += ["", "  See 'remconv help <command>' for detailed help."]
    return lines.joined(separator: "\n") + "\n"
  }

  static func describe(_ option: OptionSpec) -> String {
    var text = option.help
    var notes: [String] = []
    if let allowed = option.allowed { notes.append("values: \(allowed.joined(separator: ", "))") }
    if let defaultValue = option.defaultValue { notes.append("default: \(defaultValue)") }
    if !notes.isEmpty { text += " (\(notes.joined(separator: "; ")))" }
    return text
  }

  /// A label and its help, the help wrapped at 80 columns and aligned after the label column.
  static func row(_ label: String, _ help: String) -> [String] {
    let indent = String(repeating: " ", count: labelWidth + 2)
    let wrapped = wrap(help, width: 80 - labelWidth - 2)
    var lines: [String] = []
    let paddedLabel = "  " + label
    if paddedLabel.count < labelWidth + 2 {
      lines.append(
        paddedLabel + String(repeating: " ", count: labelWidth + 2 - paddedLabel.count) + (wrapped.first ?? ""))
    } else {
      lines.append(paddedLabel)
      if let first = wrapped.first { lines.append(indent + first) }
    }
    lines += wrapped.dropFirst().map { indent + $0 }
    return lines
  }

  static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var current = ""
    for word in text.split(separator: " ") {
      if current.isEmpty {
        current = String(word)
      } else if current.count + 1 + word.count <= width {
        current += " " + word
      } else {
        lines.append(current)
        current = String(word)
      }
    }
    if !current.isEmpty { lines.append(current) }
    return lines
  }
}
