/// A command line remconv cannot run: printed with the usage, exit 64 (EX_USAGE).
public enum UsageError: Error, Equatable, Sendable {
  case unknownOption(String, suggestion: String?)
  case missingValue(option: String)
  case unexpectedValue(option: String)
  case unexpectedArgument(String)
  case missingArgument(String)
  case invalidValue(String, option: String, allowed: [String])
  case unknownCommand(String, suggestion: String?)
  case missingCommand
  case unknownSubcommand(String, command: String, suggestion: String?)
  case missingSubcommand(command: String, choices: [String])
  case conflictingOptions(String, String)
  case invalid(String)

  public var message: String {
    switch self {
    case .unknownOption(let name, let suggestion):
      "Unknown option '\(name)'" + (suggestion.map { ". Did you mean '\($0)'?" } ?? "")
    case .missingValue(let option): "Missing value for '\(option)'"
    case .unexpectedValue(let option): "The flag '\(option)' takes no value"
    case .unexpectedArgument(let value): "Unexpected argument '\(value)'"
    case .missingArgument(let name): "Missing expected argument '<\(name)>'"
    case .invalidValue(let value, let option, let allowed):
      "The value '\(value)' is invalid for '\(option)'"
        + (allowed.isEmpty ? "" : " (values: \(allowed.joined(separator: ", ")))")
    case .unknownCommand(let name, let suggestion):
      "Unknown command '\(name)'" + (suggestion.map { ". Did you mean '\($0)'?" } ?? "")
    case .missingCommand: "Missing command"
    case .unknownSubcommand(let name, let command, let suggestion):
      "Unknown subcommand '\(name)' of '\(command)'" + (suggestion.map { ". Did you mean '\($0)'?" } ?? "")
    case .missingSubcommand(let command, let choices):
      "Missing subcommand of '\(command)' (one of: \(choices.joined(separator: ", ")))"
    case .conflictingOptions(let first, let second): "'\(first)' cannot be used with '\(second)'"
    case .invalid(let message): message
    }
  }
}

/// Suggestions for mistyped names, as swift-argument-parser makes them.
enum Suggestion {
  /// The candidate closest to `input` with an edit distance under 4, if any.
  static func closest(to input: String, among candidates: [String]) -> String? {
    let scored = candidates.map { ($0, editDistance(input, $0)) }.filter { $0.1 < 4 }
    return scored.min { $0.1 < $1.1 }?.0
  }

  static func editDistance(_ a: String, _ b: String) -> Int {
    let left = Array(a)
    let right = Array(b)
    if left.isEmpty { return right.count }
    if right.isEmpty { return left.count }
    var previous = Array(0...right.count)
    for (i, leftCharacter) in left.enumerated() {
      var current = [i + 1] + Array(repeating: 0, count: right.count)
      for (j, rightCharacter) in right.enumerated() {
        current[j + 1] = min(
          previous[j + 1] + 1, current[j] + 1, previous[j] + (leftCharacter == rightCharacter ? 0 : 1))
      }
      previous = current
    }
    return previous[right.count]
  }
}
