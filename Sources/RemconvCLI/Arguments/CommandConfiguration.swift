/// An option a command accepts.
public struct OptionSpec: Sendable {
  /// The long name without dashes (`format` for `--format`).
  public let name: String
  public let short: Character?
  /// The placeholder of the value (`format` in `--format <format>`); nil for a flag.
  public let valueName: String?
  public let help: String
  /// The accepted values, listed in help and checked by the parser.
  public let allowed: [String]?
  /// The default, shown in help.
  public let defaultValue: String?
  /// May be given more than once (`--list A --list B`).
  public let repeatable: Bool

  public static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
    OptionSpec(name: name, short: short, valueName: nil, help: help, allowed: nil, defaultValue: nil, repeatable: false)
  }

  public static func option(
    _ name: String, short: Character? = nil, value: String, help: String, allowed: [String]? = nil,
    defaultValue: String? = nil, repeatable: Bool = false
  ) -> OptionSpec {
    OptionSpec(
      name: name, short: short, valueName: value, help: help, allowed: allowed, defaultValue: defaultValue,
      repeatable: repeatable)
  }

  public var isFlag: Bool { valueName == nil }

  /// `-f, --format <format>`.
  public var label: String {
    var text = short.map { "-\($0), " } ?? ""
    text += "--\(name)"
    if let valueName { text += " <\(valueName)>" }
    return text
  }
}

/// A positional argument.
public struct ArgumentSpec: Sendable {
  public let name: String
  public let help: String
  public let isOptional: Bool
  public let isRepeating: Bool

  public init(_ name: String, help: String, optional: Bool = false, repeating: Bool = false) {
    self.name = name
    self.help = help
    self.isOptional = optional
    self.isRepeating = repeating
  }

  public var label: String { "<\(name)>" + (isRepeating ? " ..." : "") }
}

/// What a command is: its name, its help and what it accepts. Help, usage lines, shell
/// completions and the man page are all generated from this.
public struct CommandConfiguration: Sendable {
  public let name: String
  public let abstract: String
  public let discussion: String?
  public let arguments: [ArgumentSpec]
  public let options: [OptionSpec]
  /// Sub-subcommands (`migrate status`), dispatched on the first positional argument.
  public let subcommands: [String]
  /// Written under the usage in `--help`.
  public let examples: [String]

  public init(
    name: String, abstract: String, discussion: String? = nil, arguments: [ArgumentSpec] = [],
    options: [OptionSpec] = [], subcommands: [String] = [], examples: [String] = []
  ) {
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
    self.arguments = arguments
    self.options = options
    self.subcommands = subcommands
    self.examples = examples
  }
}
