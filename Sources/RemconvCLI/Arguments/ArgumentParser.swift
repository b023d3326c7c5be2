/// The parsed command line of one command.
public struct ParsedArguments: Sendable {
  public private(set) var values: [String: [String]] = [:]
  public private(set) var flags: Set<String> = []
  public private(set) var positionals: [String] = []

  public func value(_ name: String) -> String? { values[name]?.last }
  public func values(_ name: String) -> [String] { values[name] ?? [] }
  public func flag(_ name: String) -> Bool { flags.contains(name) }
  public func positional(_ index: Int) -> String? { index < positionals.count ? positionals[index] : nil }

  mutating func add(_ value: String, for name: String) { values[name, default: []].append(value) }
  mutating func set(_ flag: String) { flags.insert(flag) }
  mutating func append(_ positional: String) { positionals.append(positional) }
}

/// Splits and checks a command line against a command's options and the global options.
///
/// Accepts `--name value`, `--name=value`, `-n value`, combined short flags (`-qh`), `--` to
/// end options, and `-` as a plain value (standard input or output). Global options such as
/// `--store` are accepted in any position. For a command with subcommands, the first
/// positional argument must name one, and from there on that subcommand's options are
/// accepted too (before it, only the command's own and the global ones).
enum ArgumentParser {
  static func parse(
    _ arguments: [String], configuration: CommandConfiguration, globals: [OptionSpec]
  ) throws(UsageError) -> ParsedArguments {
    var options = configuration.options + globals
    var parsed = ParsedArguments()
    func appendPositional(_ value: String) throws(UsageError) {
      if parsed.positionals.isEmpty, !configuration.subcommands.isEmpty {
        guard let subcommand = configuration.subcommand(named: value) else {
          throw .unknownSubcommand(
            value, command: configuration.name,
            suggestion: Suggestion.closest(to: value, among: configuration.subcommandNames))
        }
        options = subcommand.options + configuration.options + globals
      }
      parsed.append(value)
    }
    var index = 0
    var onlyPositionals = false
    func spec(long name: String) throws(UsageError) -> OptionSpec {
      if let found = options.first(where: { $0.name == name }) { return found }
      let suggestion = Suggestion.closest(to: name, among: options.map(\.name)).map { "--\($0)" }
      throw .unknownOption("--\(name)", suggestion: suggestion)
    }
    func record(_ option: OptionSpec, value: String, as written: String) throws(UsageError) {
      if let allowed = option.allowed, !allowed.contains(value) {
        throw .invalidValue(value, option: written, allowed: allowed)
      }
      if !option.repeatable, parsed.value(option.name) != nil, parsed.value(option.name) != value {
        throw .invalid("'\(written)' was given more than once")
      }
      parsed.add(value, for: option.name)
    }
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
        try appendPositional(argument)
        continue
      }
      if argument == "--" {
        onlyPositionals = true
        continue
      }
      if argument.hasPrefix("--") {
        let body = argument.dropFirst(2)
        let name: String
        var inlineValue: String?
        if let equals = body.firstIndex(of: "=") {
          name = String(body[..<equals])
          inlineValue = String(body[body.index(after: equals)...])
        } else {
          name = String(body)
        }
        let option = try spec(long: name)
        if option.isFlag {
          if inlineValue != nil { throw .unexpectedValue(option: "--\(name)") }
          parsed.set(option.name)
        } else {
          if inlineValue == nil {
            guard index < arguments.count else { throw .missingValue(option: option.label) }
            inlineValue = arguments[index]
            index += 1
          }
          try record(option, value: inlineValue ?? "", as: "--\(name)")
        }
        continue
      }
      // Short options: -o value, -ovalue, or combined flags -qh.
      var characters = Array(argument.dropFirst())
      while !characters.isEmpty {
        let character = characters.removeFirst()
        guard let option = options.first(where: { $0.short == character }) else {
          throw .unknownOption("-\(character)", suggestion: nil)
        }
        if option.isFlag {
          parsed.set(option.name)
          continue
        }
        var value = String(characters)
        characters = []
        if value.isEmpty {
          guard index < arguments.count else { throw .missingValue(option: option.label) }
          value = arguments[index]
          index += 1
        }
        try record(option, value: value, as: "-\(character)")
      }
    }
    return parsed
  }
}
