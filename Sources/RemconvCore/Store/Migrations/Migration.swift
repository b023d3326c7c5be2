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
  public var number: Int { Self.number(of: id) ?? 0 }

  /// The `NNNN` prefix of a step id, also for ids this remconv does not know.
  static func number(of id: String) -> Int? {
    let digits = id.prefix { $0.isASCII && $0.isNumber }
    return digits.isEmpty ? nil : Int(digits)
  }

  /// SHA-256 of the SQL with line endings unified and trailing white space removed from each
  /// line, so that re-saving a file in another editor does not count as a change.
  public var checksum: String { Self.checksum(of: sql) }

  /// Normalised byte by byte: every open of a store checks the checksum of each applied step,
  /// and Foundation's `replacingOccurrences` made that a thirtieth of a re-import
  /// (docs/benchmarks.md, branch i20-first). Spaces and tabs are one byte each and never part
  /// of another character's bytes in UTF-8, so trimming them as bytes trims what trimming
  /// them as characters did.
  public static func checksum(of sql: String) -> String {
    var normalized: [UInt8] = []
    normalized.reserveCapacity(sql.utf8.count)
    /// Where the current line's trailing spaces and tabs begin.
    var lineEnd = 0
    var previous: UInt8 = 0
    for byte in sql.utf8 {
      switch byte {
      case UInt8(ascii: "\n") where previous == UInt8(ascii: "\r"):
        break  // the LF of a CRLF: the CR ended the line
      case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
        normalized.removeSubrange(lineEnd...)
        normalized.append(UInt8(ascii: "\n"))
        lineEnd = normalized.count
      case UInt8(ascii: " "), UInt8(ascii: "\t"):
        normalized.append(byte)
      default:
        normalized.append(byte)
        lineEnd = normalized.count
      }
      previous = byte
    }
    normalized.removeSubrange(lineEnd...)
    while normalized.last == UInt8(ascii: "\n") { normalized.removeLast() }
    return SHA256.hex(of: normalized)
  }

  /// Every known step, in order.
  public static var all: [Migration] { embedded }

  /// The newest step this remconv knows.
  public static var head: Migration {
    guard let last = embedded.last else { preconditionFailure("no migrations are embedded") }
    return last
  }

  /// The known step whose id is `id`, whose number is `id` (`4`, `0004`), or nil.
  public static func step(matching id: String, in steps: [Migration] = all) -> Migration? {
    if let exact = steps.first(where: { $0.id == id }) { return exact }
    guard let number = Int(id) else { return nil }
    return steps.first { $0.number == number }
  }

  /// What a migration file may not contain, as messages (empty when the file is fine).
  ///
  /// The migrator owns the transaction (`BEGIN`, `COMMIT`, `ROLLBACK`, savepoints), turns
  /// foreign keys off around it (`PRAGMA foreign_keys` is a no-op inside a transaction, trap
  /// T1 of docs/migrations.md), and `VACUUM` cannot run in a transaction at all. Pragmas that
  /// rewrite the schema behind SQLite's back or change the journal are refused too. A table
  /// rebuild must create the new table and rename it over the old one; renaming the old table
  /// first rewrites the foreign keys that point at it (trap T3), so `ALTER TABLE x RENAME TO`
  /// is accepted only for a table created earlier in the same file.
  public static func lint(_ sql: String) -> [String] {
    let tokens = SQLWords.split(sql)
    // Keywords are bare words; a quoted name ("commit") is never one.
    let words = tokens.map { $0.isQuoted ? "" : $0.text }
    var found: [String] = []
    var created: Set<String> = []
    for (index, word) in words.enumerated() {
      let previous = index > 0 ? words[index - 1] : ""
      let next = index + 1 < words.count ? words[index + 1] : ""
      let nextName = index + 1 < tokens.count ? tokens[index + 1].text : ""
      switch word {
      case "BEGIN":
        // BEGIN also opens a trigger body (after FOR EACH ROW or a WHEN condition).
        if !triggerIsOpen(words, before: index) { found.append("BEGIN") }
      case "COMMIT":
        found.append("COMMIT")
      case "END" where next == "TRANSACTION":
        found.append("END TRANSACTION")
      case "VACUUM", "ROLLBACK", "SAVEPOINT", "RELEASE", "ATTACH", "DETACH":
        found.append(word)
      case "PRAGMA":
        if Self.refusedPragmas.contains(next) { found.append("PRAGMA \(next.lowercased())") }
      case "TABLE":
        if ["CREATE", "TEMP", "TEMPORARY"].contains(previous) {
          let nameIndex = next == "IF" ? index + 4 : index + 1  // IF NOT EXISTS
          if nameIndex < tokens.count { created.insert(tokens[nameIndex].text) }
        }
        if previous == "ALTER", index + 3 < words.count, words[index + 2] == "RENAME",
          words[index + 3] == "TO", !created.contains(nextName)
        {
          found.append(
            "ALTER TABLE \(nextName.lowercased()) RENAME TO: rename the new table over the old one, never the old one first"
          )
        }
      default: break
      }
    }
    return found
  }

  /// Pragmas a migration file may not run.
  static let refusedPragmas: Set<String> = [
    "FOREIGN_KEYS", "DEFER_FOREIGN_KEYS", "WRITABLE_SCHEMA", "LEGACY_ALTER_TABLE", "JOURNAL_MODE",
  ]

  /// True when the words before `index` open a `CREATE TRIGGER` whose body has not started.
  private static func triggerIsOpen(_ words: [String], before index: Int) -> Bool {
    var position = index - 1
    while position >= 0, words[position] != ";" {
      if words[position] == "TRIGGER", position > 0,
        ["CREATE", "TEMP", "TEMPORARY"].contains(words[position - 1])
      {
        return true
      }
      position -= 1
    }
    return false
  }
}

/// The words of a SQL text for the lint: upper-cased keywords and names, with comments and
/// string literals removed, and `;` kept as a word so statements can be told apart.
enum SQLWords {
  struct Word: Equatable {
    /// Upper-cased; a quoted name without its quotes.
    let text: String
    /// Written as "name", `name` or [name]: a name, never a keyword.
    let isQuoted: Bool
  }

  static func split(_ sql: String) -> [Word] {
    var words: [Word] = []
    var current = ""
    var characters = Array(sql.unicodeScalars)[...]
    func flush() {
      if !current.isEmpty { words.append(Word(text: current.uppercased(), isQuoted: false)) }
      current = ""
    }
    while let character = characters.popFirst() {
      switch character {
      case "-" where characters.first == "-":
        flush()
        while let skipped = characters.popFirst(), skipped != "\n" {}
      case "/" where characters.first == "*":
        flush()
        characters.removeFirst()
        while let skipped = characters.popFirst() {
          if skipped == "*", characters.first == "/" {
            characters.removeFirst()
            break
          }
        }
      case "'":
        flush()
        // A string literal; '' inside it is an escaped quote.
        while let skipped = characters.popFirst() {
          if skipped == "'" {
            if characters.first == "'" { characters.removeFirst() } else { break }
          }
        }
      case "\"", "`", "[":
        flush()
        let closing: Unicode.Scalar = character == "[" ? "]" : character
        var name = ""
        while let inner = characters.popFirst(), inner != closing { name.unicodeScalars.append(inner) }
        words.append(Word(text: name.uppercased(), isQuoted: true))
      case ";":
        flush()
        words.append(Word(text: ";", isQuoted: false))
      default:
        if character.properties.isAlphabetic || ("0"..."9").contains(character) || character == "_" {
          current.unicodeScalars.append(character)
        } else {
          flush()
        }
      }
    }
    flush()
    return words
  }
}

/// What the preflight does when list names collide before the unique-name step.
public enum DuplicateNamePolicy: String, Sendable, CaseIterable {
  /// Keep every list; later ones get a numbered name ("home (2)"). The default: nothing merges
  /// without being asked, and every reminder stays in its list.
  case rename
  /// Move the reminders of later lists into the oldest one (the smallest row id) and remove the
  /// emptied lists; what they carried (UID, name, symbol, colour, extra) is kept in the
  /// surviving list's `extra.mergedLists`.
  case merge
  /// Stop and change nothing.
  case fail
}
