import Foundation

/// One schema step: a file `Migrations/NNNN_name.sql`, embedded in the binary.
public struct Migration: Sendable, Hashable {
  /// The file's stem, such as `0003_uids_timestamps_due_kind`. Steps apply in this order.
  public let id: String
  public let sql: String

  public init(id: String, sql: String) {
    self.id = id
    self.sql = sql
  }

  /// The step's number, the `NNNN` of its id.
  public var number: Int { Int(id.prefix(4)) ?? 0 }

  /// SHA-256 of the SQL with line endings unified and trailing white space removed from each
  /// line, so that re-saving a file in another editor does not count as a change.
  public var checksum: String { Self.checksum(of: sql) }

  public static func checksum(of sql: String) -> String {
    let unified = sql.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
    let lines = unified.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      var line = Substring(line)
      while let last = line.last, last == " " || last == "\t" { line.removeLast() }
      return line
    }
    var normalized = lines.joined(separator: "\n")
    while normalized.hasSuffix("\n") { normalized.removeLast() }
    return SHA256.hex(of: normalized)
  }

  /// Every known step, in order.
  public static var all: [Migration] { embedded }

  /// The newest step this remconv knows.
  public static var head: Migration {
    guard let last = embedded.last else { preconditionFailure("no migrations are embedded") }
    return last
  }

  /// Statements a migration file may not contain: the migrator owns transactions, foreign-key
  /// enforcement and vacuuming. Returns the offending words found.
  public static func lint(_ sql: String) -> [String] {
    let withoutComments = sql.split(separator: "\n").map { line in
      line.range(of: "--").map { line[..<$0.lowerBound] } ?? line
    }.joined(separator: "\n").uppercased()
    let words = withoutComments.split { !$0.isLetter && !$0.isNumber && $0 != "_" }
    var found: [String] = []
    for (index, word) in words.enumerated() {
      switch word {
      case "BEGIN", "COMMIT", "VACUUM", "ROLLBACK", "SAVEPOINT", "RELEASE":
        // BEGIN is also the start of a trigger body; allow it after "FOR EACH ROW" or "WHEN …".
        if word == "BEGIN", index > 0, ["ROW", "END"].contains(words[index - 1]) { continue }
        found.append(String(word))
      case "PRAGMA":
        if index + 1 < words.count, words[index + 1] == "FOREIGN_KEYS" { found.append("PRAGMA foreign_keys") }
      default: break
      }
    }
    return found
  }
}

/// What the preflight does when list names collide before the unique-name step.
public enum DuplicateNamePolicy: String, Sendable, CaseIterable {
  /// Keep every list; later ones get a numbered name ("Home (2)"). The default: nothing merges
  /// without being asked.
  case rename
  /// Move the reminders of later lists into the oldest one and remove the emptied lists.
  case merge
  /// Stop and change nothing.
  case fail
}

/// What a migration run did.
public struct MigrationReport: Sendable {
  public var fromVersion: String?
  public var applied: [String]
  public var backupPath: String?
  public var preflight: [String]
}
