import RemconvCore

/// `remconv formats`: what can be read and written.
struct FormatsCommand: Command {
  static let configuration = CommandConfiguration(
    name: "formats", abstract: "List the formats remconv reads and writes.")

  init(_ arguments: ParsedArguments) throws(UsageError) {
    if let extra = arguments.positional(0) { throw .unexpectedArgument(extra) }
  }

  func run(_ context: CommandContext) throws -> ExitStatus {
    let width = (FormatRegistry.all.map(\.name.count).max() ?? 8) + 2
    for format in FormatRegistry.all {
      let modes =
        (format.canRead ? "read" : "") + (format.canRead && format.canWrite ? "/" : "")
        + (format.canWrite ? "write" : "")
      let name = format.name + String(repeating: " ", count: width - format.name.count)
      let names = format.extensions.map { "." + $0 } + format.fileNames
      let extensions = names.isEmpty ? "" : " (" + names.joined(separator: ", ") + ")"
      context.io.print("\(name)\(modes.padding(10))\(format.summary)\(extensions)")
    }
    return .ok
  }
}

extension String {
  func padding(_ width: Int) -> String {
    count >= width ? self + " " : self + String(repeating: " ", count: width - count)
  }
}
