import Foundation

/// One row of the history table: a step some remconv applied to the store.
public struct AppliedMigration: Sendable, Hashable {
  public let id: String
  /// The checksum of the step's normalised SQL when it was applied.
  public let checksum: String
  /// The remconv version that applied it.
  public let toolVersion: String
  /// When it was applied (RFC 3339, UTC).
  public let appliedAt: String

  /// When the checksum is one of an earlier released text of the step: which release, else nil.
  public var earlierRelease: String? { MigrationHistory.legacyReason(id: id, checksum: checksum) }
}

/// Where a store stands against the steps this remconv knows.
public enum MigrationState: Sendable, Equatable {
  /// No schema yet (a new or empty file): the first open creates it.
  case empty
  /// Every known step is applied.
  case current
  /// Some known steps are not applied yet.
  case behind
  /// The history names steps this remconv does not know: a newer remconv wrote the store.
  case newer
  /// An applied step no longer matches this remconv's copy, or the history is out of order.
  case tampered(String)

  /// The word `migrate status --json` prints.
  public var name: String {
    switch self {
    case .empty: "empty"
    case .current: "current"
    case .behind: "behind"
    case .newer: "newer"
    case .tampered: "tampered"
    }
  }
}

/// What the history of a store says, compared with the steps this remconv knows.
public struct MigrationStatus: Sendable {
  public let path: String
  public let state: MigrationState
  /// Every history row, oldest first.
  public let applied: [AppliedMigration]
  /// Known steps not applied yet, in order.
  public let pending: [Migration]
  /// History rows of steps this remconv does not know.
  public let unknown: [AppliedMigration]
  /// `PRAGMA user_version`: the number of the last step, mirrored for tools that read headers.
  public let userVersion: Int

  /// The last applied step, or nil for an empty store.
  public var version: String? { applied.last?.id }

  /// The number of the last applied step (0 for an empty store).
  public var versionNumber: Int { version.flatMap(Migration.number(of:)) ?? 0 }

  /// The remconv versions that applied the unknown steps: the least a user needs to write.
  public var neededVersion: String? {
    unknown.map(\.toolVersion).max { RemconvVersionOrder.isLess($0, $1) }
  }

  /// A sentence naming the unknown steps and the remconv that wrote them.
  public var newerDescription: String {
    let steps = unknown.map(\.id).joined(separator: ", ")
    let version = neededVersion.map { "remconv \($0) or later" } ?? "a newer remconv"
    return "it was written by a newer remconv (unknown step\(unknown.count == 1 ? "" : "s") \(steps)); use \(version)"
  }
}

/// Reads and writes the history table `remconv_migrations(id, checksum, tool_version, applied_at)`.
struct MigrationHistory {
  static let table = "remconv_migrations"
  static let createTable = """
    CREATE TABLE IF NOT EXISTS remconv_migrations (
      id TEXT PRIMARY KEY,
      checksum TEXT NOT NULL,
      tool_version TEXT NOT NULL,
      applied_at TEXT NOT NULL
    )
    """

  let database: Database
  let path: String
  /// The steps this remconv knows (`Migration.all`, or a test's list).
  let steps: [Migration]

  /// Classifies the store. Throws `notAStore` for a database of another application or one
  /// with tables but no history; both are left untouched.
  func status() throws -> MigrationStatus {
    let applicationID = try database.scalar("PRAGMA application_id")
    if case .integer(let value) = applicationID, value != 0, value != Int64(Store.applicationID) {
      throw RemconvError.notAStore(
        "\(path): a SQLite database of another application (application_id \(value)); left untouched")
    }
    let userVersion = try database.scalar("PRAGMA user_version")
    let version: Int
    if case .integer(let number) = userVersion { version = Int(number) } else { version = 0 }
    guard try Self.tableExists(Self.table, in: database) else {
      let tableCount = try database.scalar(
        "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      if tableCount != .integer(0) {
        throw RemconvError.notAStore("\(path): a SQLite database, but not a remconv store; left untouched")
      }
      return MigrationStatus(
        path: path, state: .empty, applied: [], pending: steps, unknown: [], userVersion: version)
    }
    let applied = try read()
    let known = Dictionary(uniqueKeysWithValues: steps.map { ($0.id, $0) })
    let unknown = applied.filter { known[$0.id] == nil }
    let appliedKnown = applied.filter { known[$0.id] != nil }
    let pending = steps.filter { step in !appliedKnown.contains { $0.id == step.id } }
    let state: MigrationState
    if let problem = tamperedDescription(appliedKnown, known: known) {
      state = .tampered(problem)
    } else if !unknown.isEmpty {
      state = .newer
    } else if applied.isEmpty {
      state = .empty
    } else {
      state = pending.isEmpty ? .current : .behind
    }
    return MigrationStatus(
      path: path, state: state, applied: applied, pending: pending, unknown: unknown, userVersion: version)
  }

  /// Checksums of earlier texts of a step that a released remconv applied, by step id, each
  /// with the commit that released that text. 0003 and 0005 were edited after they had been
  /// released, so the stores those versions made recorded these checksums; they are trusted,
  /// and step 0007 brings such a store to the schema and values of today's steps. Any other
  /// checksum that differs from this remconv's copy still means an edited step or history.
  static let legacyChecksums: [String: [String: String]] = [
    "0003_uids_timestamps_due_kind": [
      // Gave any 10-character due text the kind 'date', any ending in Z 'utc', any other
      // 'floating'; 0007 gives them the kinds of today's 0003.
      "926a0e8c1f216709ddd9456e18696c46e9c70c977be1342e4b05e5e4ae2697ad":
        "the text released in b99ed97 (remconv up to 98fe4a1, before the migrations merge)"
    ],
    "0005_unique_list_names": [
      // Trimmed names and made lists.created_at NOT NULL; 0007 rebuilds lists without it.
      "f8f3e87843bc59c6d8634a9380cf55266843bfd0aee1692fafbcc2ef23b8e988":
        "the text released in b99ed97",
      // Trimmed names; lists.created_at nullable as today.
      "10d04c5ccddc82410942dcd04e645ac29be546aad860b366b858a1711fb16989":
        "the text released in dfc16ea (remconv up to 98fe4a1, before the migrations merge)",
      // Names unchanged, lists.created_at NOT NULL; 0007 rebuilds lists without it.
      "fabbcb3fb796b49d8ba192dd8919f08b19ed1e541db57576572db1013ac39be2":
        "the text released in 7f2be86 (the migrations branch up to 7fe6a19)",
    ],
  ]

  /// Why `checksum`, recorded for the step `id`, is trusted though it is not this remconv's
  /// copy's, or nil when it is not an earlier released text of that step.
  static func legacyReason(id: String, checksum: String) -> String? {
    legacyChecksums[id]?[checksum]
  }

  /// Why the applied known steps cannot be trusted, or nil. A step whose checksum differs was
  /// edited after it shipped (unless the checksum is one of an earlier released text,
  /// `legacyChecksums`); applied steps that are not the first ones in order mean the history
  /// was edited (a later step would run before an earlier one).
  private func tamperedDescription(_ applied: [AppliedMigration], known: [String: Migration]) -> String? {
    for row in applied {
      guard let step = known[row.id], step.checksum != row.checksum,
        Self.legacyReason(id: row.id, checksum: row.checksum) == nil
      else { continue }
      return "\(path): the applied migration \(row.id) does not match this remconv's copy "
        + "(recorded checksum \(row.checksum.prefix(12))…, expected \(step.checksum.prefix(12))…): "
        + "the step was edited after it was applied, or the history was changed by hand; "
        + "refusing to touch the store (restore a backup, or use the remconv that wrote it)"
    }
    let expectedOrder = steps.prefix(applied.count).map(\.id)
    if applied.map(\.id) != Array(expectedOrder) {
      return "\(path): the migration history is out of order (\(applied.map(\.id).joined(separator: ", "))): "
        + "it was changed by hand; refusing to touch the store"
    }
    return nil
  }

  /// Every history row, in step order.
  func read() throws -> [AppliedMigration] {
    try database.rows("SELECT id, checksum, tool_version, applied_at FROM \(Self.table) ORDER BY id").map {
      AppliedMigration(
        id: $0.string(0) ?? "", checksum: $0.string(1) ?? "", toolVersion: $0.string(2) ?? "",
        appliedAt: $0.string(3) ?? "")
    }
  }

  /// Records `step` as applied now by this remconv.
  func record(_ step: Migration, at date: Date) throws {
    try database.run(
      "INSERT INTO \(Self.table) (id, checksum, tool_version, applied_at) VALUES (?, ?, ?, ?)",
      [
        .text(step.id), .text(step.checksum), .text(RemconvVersion.current),
        .text(Timestamp(millisecondsSinceEpoch: Timestamp(date).millisecondsSinceEpoch / 1000 * 1000).description),
      ])
  }

  static func tableExists(_ name: String, in database: Database) throws -> Bool {
    try database.scalar(
      "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?", [.text(name)]) != .integer(0)
  }
}

/// Orders version strings such as `0.1.0` and `0.10.2-beta` by their numeric parts.
enum RemconvVersionOrder {
  static func isLess(_ left: String, _ right: String) -> Bool {
    func parts(_ text: String) -> [Int] {
      text.split { !$0.isNumber }.map { Int($0) ?? 0 }
    }
    return parts(left).lexicographicallyPrecedes(parts(right))
  }
}
