import Foundation
import RemconvCore

/// `remconv remote add|list|remove`: the remotes `remconv sync` syncs with (docs/sync.md).
struct RemoteCommand: Command {
  static let configuration = CommandConfiguration(
    name: "remote",
    abstract: "Add, list or remove the remotes the store syncs with.",
    discussion: """
      A remote is a CalDAV server (an http or https URL: the server, a principal, a calendar
      home or one calendar) or a local folder (a vdir: one subfolder per list, one .ics file per
      reminder, as vdirsyncer, todoman and khal keep them) given as a path or a file:// URL. The
      password of a remote is never stored: only the name of the variable or the command that
      gives it (its first line of output).
      """,
    subcommands: [
      CommandConfiguration(
        name: "add", abstract: "Add a remote.",
        arguments: [
          ArgumentSpec("name", help: "The remote's name, for 'remconv sync NAME'."),
          ArgumentSpec(
            "url", help: "A CalDAV URL (http, https), or a folder (path or file:// URL) holding a vdir.",
            completion: .directories),
        ],
        options: [
          .option("user", value: "user", help: "The user name for the remote."),
          .option("password-env", value: "variable", help: "Read the password from this environment variable."),
          .option(
            "password-command", value: "command", help: "Run this command and read the password from its output."),
        ],
        examples: [
          "remconv remote add notes ~/.calendars", "remconv remote add todo file:///home/ana/.local/share/todo",
          "remconv remote add nc https://cloud.example.org/remote.php/dav --user ana --password-env NC_PASSWORD",
        ]),
      CommandConfiguration(
        name: "list", abstract: "List the remotes.",
        options: [.flag("json", help: "Print them as JSON.")],
        examples: ["remconv remote list --json"]),
      CommandConfiguration(
        name: "remove", abstract: "Remove a remote and its sync state (lists and reminders stay).",
        arguments: [ArgumentSpec("name", help: "The remote's name.")],
        examples: ["remconv remote remove notes"]),
    ],
    examples: ["remconv remote add notes ~/.calendars", "remconv remote list"])

  enum Action {
    case add(RemoteConfiguration)
    case list(json: Bool)
    case remove(String)
  }

  let action: Action

  init(_ arguments: ParsedArguments) throws(UsageError) {
    guard let subcommand = arguments.positional(0) else {
      throw .missingSubcommand(command: "remote", choices: Self.configuration.subcommandNames)
    }
    switch subcommand {
    case "add":
      guard let name = arguments.positional(1), !name.isEmpty else { throw .missingArgument("name") }
      guard let url = arguments.positional(2), !url.isEmpty else { throw .missingArgument("url") }
      if let extra = arguments.positional(3) { throw .unexpectedArgument(extra) }
      let environment = arguments.value("password-env")
      let command = arguments.value("password-command")
      if environment != nil, command != nil { throw .conflictingOptions("--password-env", "--password-command") }
      let kind = RemoteKind(url: url)
      // The message does not repeat the URL: it holds the password.
      if kind.holdsCredentials {
        throw .invalid(
          "The URL holds a user name or password: remconv never stores a password. Give the user with --user "
            + "and the password with --password-env VAR or --password-command CMD")
      }
      var location = url
      if case .vdir(let path) = kind, !url.lowercased().hasPrefix("file://"), !path.hasPrefix("/") {
        location = FileManager.default.currentDirectoryPath + "/" + path
      }
      action = .add(
        RemoteConfiguration(
          name: name, url: location, user: arguments.value("user"),
          password: environment.map(PasswordSource.environment) ?? command.map(PasswordSource.command)))
    case "list":
      if let extra = arguments.positional(1) { throw .unexpectedArgument(extra) }
      action = .list(json: arguments.flag("json"))
    case "remove":
      guard let name = arguments.positional(1) else { throw .missingArgument("name") }
      if let extra = arguments.positional(2) { throw .unexpectedArgument(extra) }
      action = .remove(name)
    default:
      throw .unknownSubcommand(subcommand, command: "remote", suggestion: nil)
    }
  }

  func run(_ context: CommandContext) throws -> ExitStatus {
    switch action {
    case .add(let remote):
      let store = try context.openStore()
      defer { store.close() }
      try store.write { try store.addRemote(remote) }
      context.tell("added the remote \(JSONText.quoted(remote.name)) (\(remote.shownURL))")
    case .list(let json):
      let store = try context.openStore(create: false)
      defer { store.close() }
      let remotes = try store.read { try store.remotes() }
      if json {
        context.io.print(JSONText.encode(.array(remotes.map { Self.json($0.configuration) })))
      } else {
        var table = TextTable(alignments: [.left, .left, .left, .left])
        table.add(["NAME", "KIND", "URL", "PASSWORD"].map { TextTable.Cell($0, styled: context.style.dim($0)) })
        for remote in remotes.map(\.configuration) {
          table.add([
            TextTable.Cell(TerminalText.printable(remote.name)), TextTable.Cell(Self.kindName(remote.kind)),
            TextTable.Cell(TerminalText.printable(remote.shownURL)),
            TextTable.Cell(remote.password.map { TerminalText.printable("\($0.kind) \($0.reference)") } ?? "-"),
          ])
        }
        for line in table.lines() { context.io.print(line) }
      }
    case .remove(let name):
      let store = try context.openStore(create: false)
      defer { store.close() }
      try store.write {
        guard let remote = try store.remote(named: name) else {
          throw RemconvError.notFound("no remote named '\(name)' (remconv remote list)")
        }
        try store.removeRemote(rowID: remote.rowID)
      }
      context.tell("removed the remote \(JSONText.quoted(name))")
    }
    return .ok
  }

  static func kindName(_ kind: RemoteKind) -> String {
    switch kind {
    case .vdir: "vdir"
    case .caldav: "caldav"
    }
  }

  /// A remote as `remote list --json` prints it: where the password comes from, never a password.
  static func json(_ remote: RemoteConfiguration) -> JSONValue {
    var members: [String: JSONValue] = [
      "name": .string(remote.name), "url": .string(remote.shownURL), "kind": .string(kindName(remote.kind)),
    ]
    if let user = remote.user { members["user"] = .string(user) }
    if let password = remote.password {
      members["password"] = .object(["source": .string(password.kind), "reference": .string(password.reference)])
    }
    return .object(members)
  }
}

/// `remconv sync NAME`: two-way sync of the store with a remote (docs/sync.md).
struct SyncCommand: Command {
  static let configuration = CommandConfiguration(
    name: "sync",
    abstract: "Sync the store both ways with a remote.",
    discussion: """
      Each list pairs with one collection of the remote (the stored pairing, else the one of the
      same name, else a new one). What one side changed goes to the other; a reminder changed on
      both sides is merged field by field, and where both changed the same field the remote's
      value is kept and the local version is kept whole as a conflict copy ("TITLE (conflict
      copy)"), on both sides. A sync that would delete more than half of a list's or a
      collection's items (more than 5) is refused unless --allow-mass-delete is given. Exit
      status 77: the remote refused the credentials; 69: it cannot be reached; 65: it sent
      something malformed, or a mass deletion was refused; 75: the store is busy.
      """,
    arguments: [ArgumentSpec("name", help: "The remote's name (remconv remote list).")],
    options: [
      .flag("dry-run", help: "Say what the sync would do; change nothing on either side."),
      .option("report", value: "format", help: "Print what the sync did.", allowed: ["json", "text"]),
      .flag(
        "allow-mass-delete",
        help:
          "Delete even when more than half of a list's or a collection's items would go (refused otherwise, exit 65)."),
    ],
    examples: ["remconv sync notes", "remconv sync notes --dry-run --report json"])

  let name: String
  let dryRun: Bool
  let reportFormat: String?
  let allowsMassDeletion: Bool

  init(_ arguments: ParsedArguments) throws(UsageError) {
    guard let name = arguments.positional(0) else { throw .missingArgument("name") }
    if let extra = arguments.positional(1) { throw .unexpectedArgument(extra) }
    self.name = name
    dryRun = arguments.flag("dry-run")
    reportFormat = arguments.value("report")
    allowsMassDeletion = arguments.flag("allow-mass-delete")
  }

  func run(_ context: CommandContext) throws -> ExitStatus {
    let store = try context.openStore(create: false)
    defer { store.close() }
    guard let remote = try store.read({ try store.remote(named: name) }) else {
      throw RemconvError.notFound("no remote named '\(name)' (remconv remote list)")
    }
    let password = try remote.configuration.password?.resolve(environment: context.environment)
    let storedTokens = try store.read { try store.syncCollections(remote: remote.rowID).map(\.syncToken) }
    let endpoint = try SyncEndpoints.endpoint(
      for: remote.configuration, password: password, discoveredHome: remote.discoveredHome,
      storedTokens: storedTokens, policy: HTTPPolicy.standard(environment: context.environment))
    let diagnostics = DiagnosticLog()
    diagnostics.onReport = { diagnostic in
      if diagnostic.severity == .warning { context.report(diagnostic) }
    }
    var options = SyncEngine.Options()
    options.dryRun = dryRun
    options.allowsMassDeletion = allowsMassDeletion
    options.now = context.now
    options.timeZone = context.timeZone
    options.killAfterRemoteWrites = SyncEngine.Options.testKillPoint(in: context.environment)
    let report = try SyncEngine(
      store: store, remote: remote, endpoint: endpoint, options: options, diagnostics: diagnostics
    ).run()
    switch reportFormat {
    case "json": context.io.print(JSONText.encode(Self.json(report, dryRun: dryRun)))
    case "text": context.io.print(Self.summary(report, dryRun: dryRun))
    default: if !context.isQuiet { context.io.printError("remconv: " + Self.summary(report, dryRun: dryRun)) }
    }
    for conflict in report.conflicts where reportFormat == nil && !context.isQuiet {
      context.io.printError("remconv: conflict: " + TerminalText.printable(Self.describe(conflict)))
    }
    return .ok
  }

  static func summary(_ report: SyncReport, dryRun: Bool) -> String {
    let verb = dryRun ? "would sync" : "synced"
    return "\(verb): \(report.uploaded) uploaded, \(report.downloaded) downloaded, "
      + "\(report.deletedRemote) deleted on the remote, \(report.deletedLocal) deleted here, "
      + "\(report.conflicts.count) conflict\(report.conflicts.count == 1 ? "" : "s")"
      + (report.skipped.isEmpty ? "" : ", \(report.skipped.count) skipped")
  }

  static func describe(_ conflict: SyncConflict) -> String {
    switch conflict.kind {
    case .editedOnBothSides:
      "\(JSONText.quoted(conflict.title)) in \(JSONText.quoted(conflict.list)) was edited on both sides "
        + "(\(conflict.fields.joined(separator: ", "))): the remote's values are kept, the local version "
        + "is the conflict copy \(conflict.copyUID ?? "")"
    case .deletedLocallyEditedRemotely:
      "\(JSONText.quoted(conflict.title)) was deleted here and edited on the remote: it is back"
    case .editedLocallyDeletedRemotely:
      "\(JSONText.quoted(conflict.title)) was edited here and deleted on the remote: it goes up again"
    }
  }

  static func json(_ report: SyncReport, dryRun: Bool) -> JSONValue {
    func count(_ value: Int) -> JSONValue { .number(String(value)) }
    return .object([
      "dryRun": .bool(dryRun),
      "uploaded": count(report.uploaded), "downloaded": count(report.downloaded),
      "deletedRemote": count(report.deletedRemote), "deletedLocal": count(report.deletedLocal),
      "conflicts": count(report.conflicts.count),
      "conflictList": .array(
        report.conflicts.map { conflict in
          var members: [String: JSONValue] = [
            "kind": .string(conflict.kind.rawValue), "uid": .string(conflict.uid), "title": .string(conflict.title),
            "list": .string(conflict.list), "fields": .array(conflict.fields.map(JSONValue.string)),
          ]
          if let copy = conflict.copyUID { members["copyUid"] = .string(copy) }
          return .object(members)
        }),
      "skipped": .array(
        report.skipped.map { item in
          .object(["list": .string(item.list), "href": .string(item.href), "reason": .string(item.reason)])
        }),
      "collectionsCreated": .array(report.collectionsCreated.map(JSONValue.string)),
      "listsCreated": .array(report.listsCreated.map(JSONValue.string)),
      "collectionsUpdated": .array(report.collectionsUpdated.map(JSONValue.string)),
      "listsUpdated": .array(report.listsUpdated.map(JSONValue.string)),
    ])
  }
}
