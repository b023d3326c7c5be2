import Foundation
import RemconvCore

/// One subcommand: its configuration (name, help, options), how it reads its parsed command
/// line, and what it does.
public protocol Command: Sendable {
  static var configuration: CommandConfiguration { get }
  /// Reads the parsed arguments; cross-option checks throw `UsageError`.
  init(_ arguments: ParsedArguments) throws(UsageError)
  func run(_ context: CommandContext) throws -> ExitStatus
}

/// Options every command accepts, in any position.
enum GlobalOptions {
  static let specs: [OptionSpec] = [
    .option(
      "store", value: "path",
      help: "The store file (else $REMCONV_STORE, else $XDG_DATA_HOME/remconv/reminders.sqlite)."),
    .flag("no-upgrade", help: "Refuse to upgrade an older store instead of upgrading it."),
    .flag("quiet", short: "q", help: "Print no summary or progress; errors still show."),
    .option(
      "color", value: "when", help: "Colour on a terminal.", allowed: ["auto", "always", "never"], defaultValue: "auto"),
    .flag("help", short: "h", help: "Show help information."),
  ]
}

/// What a running command works with: its streams, environment, clock and global options.
public final class CommandContext {
  public let io: ConsoleIO
  public let environment: [String: String]
  public let arguments: ParsedArguments
  /// The command (or subcommand) running.
  public let configuration: CommandConfiguration

  init(io: ConsoleIO, environment: [String: String], arguments: ParsedArguments, configuration: CommandConfiguration) {
    self.io = io
    self.environment = environment
    self.arguments = arguments
    self.configuration = configuration
  }

  /// How standard output is styled: colour only on a terminal, never with `NO_COLOR` or a
  /// dumb terminal, unless `--color always`. A command whose own `--color` shadows the global
  /// option (`list create --color`) is styled as `auto`.
  public var style: TextStyle {
    let shadowed = configuration.options.contains { $0.name == "color" }
    let mode = shadowed ? "auto" : arguments.value("color") ?? "auto"
    return TextStyle(
      enabled: TextStyle.usesColor(mode: mode, isTerminal: io.isOutputTerminal, environment: environment))
  }

  public var isQuiet: Bool { arguments.flag("quiet") }

  /// The store's path after `--store`, `$REMCONV_STORE` and the XDG default.
  public var storePath: String {
    StoreLocation.resolve(explicit: arguments.value("store"), environment: environment)
  }

  /// "Now": the clock, or `$REMCONV_NOW` (an ISO 8601 instant) so tests can fix it.
  public var now: Date {
    if let fixed = environment["REMCONV_NOW"], let timestamp = Timestamp(iso: fixed) { return timestamp.date }
    return Date()
  }

  /// The machine's zone, or `$TZ` when set (so tests can fix it).
  public var timeZone: TimeZone {
    if let name = environment["TZ"], let zone = TimeZone(identifier: name) { return zone }
    return .current
  }

  /// Opens the store, upgrading it unless `--no-upgrade`; the upgrade is told on stderr.
  /// Commands that only read pass `create: false`: a missing store is then exit 66 naming
  /// the path, and nothing (not even its folder) is created.
  public func openStore(readOnly: Bool = false, create: Bool = true) throws -> Store {
    var options = storeOptions(readOnly: readOnly)
    options.createIfMissing = create
    return try Store(path: storePath, options: options)
  }

  /// The store options of the command line: `--no-upgrade`, `--on-duplicate`, the busy
  /// timeout, the clock, and the test-only pause hook (docs/migrations.md).
  public func storeOptions(readOnly: Bool = false) -> Store.Options {
    var options = Store.Options()
    options.allowUpgrade = !arguments.flag("no-upgrade")
    options.readOnly = readOnly
    if let timeout = environment["REMCONV_BUSY_TIMEOUT_MS"].flatMap(Int32.init) {
      options.busyTimeoutMilliseconds = timeout
    }
    let io = self.io
    let quiet = isQuiet
    options.onUpgrade = { message in
      if !quiet { io.printError("remconv: \(message)") }
    }
    if let policy = arguments.value("on-duplicate").flatMap(DuplicateNamePolicy.init(rawValue:)) {
      options.duplicatePolicy = policy
    }
    let fixedNow = environment["REMCONV_NOW"].flatMap { Timestamp(iso: $0) }?.date
    options.now = { fixedNow ?? Date() }
    options.testPauseAtStep = Store.Options.testPausePoint(in: environment)
    options.readThroughUpgradedCopy = Self.readingCommands.contains(configuration.name) && !arguments.flag("fix")
    return options
  }

  /// The commands that only read the store (validate without --fix): an older store they
  /// cannot upgrade because it is read-only is read through an upgraded temporary copy.
  static let readingCommands: Set<String> = ["export", "lists", "show", "search", "validate"]

  /// Prints a diagnostic on stderr: `remconv: warning: file:line: message (UID …) [code]`.
  /// `--quiet` hides warnings, except under `--strict`, where a warning is what fails the run.
  public func report(_ diagnostic: Diagnostic) {
    guard diagnostic.severity == .error || !isQuiet || arguments.flag("strict") else { return }
    io.printError("remconv: \(diagnostic.severity.rawValue): " + Self.describe(diagnostic))
  }

  static func describe(_ diagnostic: Diagnostic) -> String {
    var text = ""
    if let location = diagnostic.location { text += "\(location): " }
    text += diagnostic.message
    if let uid = diagnostic.uid { text += " (UID \(uid))" }
    return text + " [\(diagnostic.code)]"
  }

  /// A progress line on stderr for long runs: only on a terminal, never with `--quiet`. With
  /// `reading` (the input file) or `total` (the items to come) it also tells how far along the
  /// run is and about how long is left.
  public func progress(_ verb: String, reading input: String? = nil, total: Int? = nil) -> ((Int) -> Void)? {
    guard io.isErrorTerminal, !isQuiet else { return nil }
    let started = Date()
    let io = self.io
    let position = input.flatMap(InputPosition.init(path:))
    var lastDraw = Date.distantPast
    return { count in
      let now = Date()
      guard now.timeIntervalSince(lastDraw) >= 0.1 else { return }
      lastDraw = now
      let fraction = position?.fraction() ?? total.flatMap { $0 > 0 ? Double(count) / Double($0) : nil }
      let line = ProgressLine.text(
        verb: verb, count: count, elapsed: now.timeIntervalSince(started), fraction: fraction)
      try? io.errors.write("\r\u{1B}[2K" + line)
      try? io.errors.flush()
    }
  }

  /// Ends a progress line.
  public func endProgress() {
    guard io.isErrorTerminal, !isQuiet else { return }
    try? io.errors.write("\r\u{1B}[2K")
    try? io.errors.flush()
  }
}
