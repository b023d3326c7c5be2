import Foundation
import RemconvCore

/// `remconv validate`: checks the store's relationships and values, and repairs them with `--fix`.
struct ValidateCommand: Command {
  static let configuration = CommandConfiguration(
    name: "validate",
    abstract: "Check the store's relationships and values; repair them with --fix.",
    discussion: """
      Prints one line per finding on standard output: severity[rule] UID "title": what is wrong
      (fix: what --fix does). --fix repairs what it safely can in one transaction, after a
      verified backup beside the store; nothing a user wrote is deleted (replaced values are
      kept in the item's extra). Exit status: 0 when no findings remain, 1 when some do; the
      usual codes for errors (a store written by a newer remconv is checked but never repaired).
      Rules and fixes: docs/validate.md.
      """,
    options: [
      .flag("json", help: "Print one JSON document with the typed findings."),
      .flag("deep", help: "Run SQLite's full integrity_check instead of quick_check."),
      .flag("fix", help: "Repair what can be repaired: one transaction, after a verified backup."),
      .flag("dry-run", help: "With --fix: show what would be repaired and change nothing."),
      .option(
        "on-duplicate", value: "policy", help: "How --fix resolves list names that collide.",
        allowed: ["rename", "merge"], defaultValue: "rename"),
    ],
    examples: [
      "remconv validate", "remconv validate --json --deep", "remconv validate --fix --dry-run",
      "remconv validate --fix --on-duplicate merge",
    ])

  let arguments: ParsedArguments

  init(_ arguments: ParsedArguments) throws(UsageError) {
    if let extra = arguments.positional(0) { throw .unexpectedArgument(extra) }
    if arguments.flag("dry-run"), !arguments.flag("fix") { throw .invalid("'--dry-run' needs '--fix'") }
    self.arguments = arguments
  }

  func run(_ context: CommandContext) throws -> ExitStatus {
    let path = context.storePath
    // Validating must not create the store it was asked to check.
    let store = try context.openStore(create: false)
    defer { store.close() }
    if store.isNewerThanThisVersion, !context.isQuiet {
      context.io.printError(
        "remconv: note: \(path) was written by a newer remconv: checking what this version knows, repairing nothing")
    }
    var options = ValidationOptions()
    options.deep = arguments.flag("deep")
    options.onDuplicate = arguments.value("on-duplicate").flatMap(DuplicateNamePolicy.init(rawValue:)) ?? .rename
    do {
      if arguments.flag("fix") {
        return try repair(store, options: options, context: context)
      }
      return try check(store, options: options, context: context)
    } catch let error where store.isNewerThanThisVersion {
      // A newer schema can differ from what these checks read (a renamed column): say so,
      // rather than report an I/O or internal error. Waiting for a writer stays what it is.
      switch error {
      case RemconvError.storeBusy, RemconvError.storeTooNew: throw error
      default:
        throw RemconvError.storeTooNew(
          "\(path): this store was written by a newer remconv and cannot be checked by this one: \(error)")
      }
    }
  }

  private func check(_ store: Store, options: ValidationOptions, context: CommandContext) throws -> ExitStatus {
    let result = try store.read { try Validator(store: store, options: options).run() }
    if arguments.flag("json") {
      context.io.print(JSONText.encode(result.json(storePath: store.path)))
    } else {
      for finding in result.findings { context.io.print(finding.reportLine) }
      if !context.isQuiet { context.io.printError("remconv: \(result.summary)") }
    }
    return result.findings.isEmpty ? .ok : .findings
  }

  private func repair(_ store: Store, options: ValidationOptions, context: CommandContext) throws -> ExitStatus {
    let dryRun = arguments.flag("dry-run")
    let report = try Repairer.run(store: store, options: options, dryRun: dryRun, now: context.now)
    if arguments.flag("json") {
      context.io.print(JSONText.encode(report.json(storePath: store.path)))
    } else {
      for record in report.records { context.io.print(record.reportLine(dryRun: dryRun)) }
      if !context.isQuiet || report.refusedBecauseDamaged { context.io.printError("remconv: \(report.summary)") }
    }
    // A dry run changed nothing: what it found is still there.
    let remains = dryRun ? !report.records.isEmpty : !report.remaining.isEmpty
    return remains ? .findings : .ok
  }
}

/// `export --validate`: the checks of `remconv validate` before an export, stopping on errors.
enum ExportValidation {
  /// Validates `store`, reporting findings on stderr. Returns false when errors must stop the
  /// export (warnings do not).
  static func allowsExport(of store: Store, context: CommandContext) throws -> Bool {
    let result = try store.read { try Validator(store: store).run() }
    for finding in result.findings where finding.severity == .error || !context.isQuiet {
      context.io.printError("remconv: \(finding.reportLine)")
    }
    guard result.errorCount == 0 else {
      context.io.printError(
        "remconv: error: the store has \(result.errorCount) validation error(s); nothing was exported (remconv validate --fix repairs them)"
      )
      return false
    }
    return true
  }
}
