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
  /// What shell completion offers for the value; nil to infer it (see `valueCompletion`).
  public let completion: Completion?

  public static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
    OptionSpec(
      name: name, short: short, valueName: nil, help: help, allowed: nil, defaultValue: nil, repeatable: false,
      completion: nil)
  }

  public static func option(
    _ name: String, short: Character? = nil, value: String, help: String, allowed: [String]? = nil,
    defaultValue: String? = nil, repeatable: Bool = false, completion: Completion? = nil
  ) -> OptionSpec {
    OptionSpec(
      name: name, short: short, valueName: value, help: help, allowed: allowed, defaultValue: defaultValue,
      repeatable: repeatable, completion: completion)
  }

  public var isFlag: Bool { valueName == nil }

  /// What completion offers for the value: the declared kind, else the allowed values, else
  /// file names for a `<file>` or `<path>`, else nothing.
  public var valueCompletion: Completion {
    if let completion { return completion }
    if let allowed { return .values(allowed) }
    return Completion.inferred(fromPlaceholder: valueName ?? "")
  }

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
  /// What shell completion offers; nil to infer it from the name (`input`, `file`: files).
  public let completion: Completion?

  public init(
    _ name: String, help: String, optional: Bool = false, repeating: Bool = false, completion: Completion? = nil
  ) {
    self.name = name
    self.help = help
    self.isOptional = optional
    self.isRepeating = repeating
    self.completion = completion
  }

  public var label: String { "<\(name)>" + (isRepeating ? " ..." : "") }

  public var valueCompletion: Completion { completion ?? Completion.inferred(fromPlaceholder: name) }
}

/// What a shell offers when completing a value.
public enum Completion: Sendable, Equatable {
  /// Nothing: free text.
  case none
  case files
  case directories
  /// One of these words.
  case values([String])
  /// The names of the store's lists (asked from `remconv lists --names` at completion time).
  case listNames

  /// Files for the placeholders that name one, nothing otherwise.
  static func inferred(fromPlaceholder name: String) -> Completion {
    switch name {
    case "file", "path", "input", "output": .files
    case "folder", "directory", "dir": .directories
    default: .none
    }
  }
}

/// What a command is: its name, its help and what it accepts. Help, usage lines, shell
/// completions and the man page are all generated from this.
///
/// A command with `subcommands` (`list create`, `migrate status`) is dispatched on its first
/// positional argument; each subcommand is a configuration of its own, whose options are
/// accepted after it. A plain name (`subcommands: ["status", "up"]`) is a subcommand without
/// options or help of its own.
public struct CommandConfiguration: Sendable, ExpressibleByStringLiteral {
  public let name: String
  public let abstract: String
  public let discussion: String?
  public let arguments: [ArgumentSpec]
  public let options: [OptionSpec]
  /// Sub-subcommands (`migrate status`), dispatched on the first positional argument.
  public let subcommands: [CommandConfiguration]
  /// Written under the usage in `--help`.
  public let examples: [String]

  public init(
    name: String, abstract: String, discussion: String? = nil, arguments: [ArgumentSpec] = [],
    options: [OptionSpec] = [], subcommands: [CommandConfiguration] = [], examples: [String] = []
  ) {
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
    self.arguments = arguments
    self.options = options
    self.subcommands = subcommands
    self.examples = examples
  }

  /// A subcommand known only by its name.
  public init(stringLiteral name: String) {
    self.init(name: name, abstract: "")
  }

  public var subcommandNames: [String] { subcommands.map(\.name) }

  public func subcommand(named name: String) -> CommandConfiguration? {
    subcommands.first { $0.name == name }
  }

  /// The global options this command does not shadow with an option of the same name (`list
  /// create --color` is the list's colour, not the output's).
  func visibleGlobals(_ globals: [OptionSpec], parent: CommandConfiguration? = nil) -> [OptionSpec] {
    let own = Set((options + (parent?.options ?? [])).map(\.name))
    return globals.filter { !own.contains($0.name) }
  }
}
