import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

@Suite struct MigrationFilesTests {
  @Test func embeddedMigrationsEqualTheFiles() throws {
    let folder = Repository.path("Migrations")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".sql") }.sorted()
    #expect(files.count == Migration.all.count)
    for (file, migration) in zip(files, Migration.all) {
      #expect(file == migration.id + ".sql")
      let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
      #expect(text == migration.sql, "\(file) differs from the embedded copy: run make migrations")
    }
  }

  /// A released step is never edited: users' stores recorded its checksum, and a store whose
  /// recorded checksum differs is refused as tampered (exit 78).
  @Test func releasedMigrationFilesKeepTheirChecksums() throws {
    let listed = try String(contentsOfFile: Repository.path("Migrations/released-checksums.txt"), encoding: .utf8)
      .split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
      .map { $0.split(separator: " ").map(String.init) }
    #expect(listed.allSatisfy { $0.count == 2 })
    let released = Dictionary(listed.map { ($0[0], $0[1]) }) { first, _ in first }
    #expect(released.count == listed.count, "one line per step")
    let folder = Repository.path("Migrations")
    for (id, checksum) in released.sorted(by: { $0.key < $1.key }) {
      let text = try String(contentsOfFile: "\(folder)/\(id).sql", encoding: .utf8)
      #expect(
        Migration.checksum(of: text) == checksum, "\(id).sql was released and has changed: fix forward with a new step")
      #expect(Migration.step(matching: id)?.checksum == checksum, "the embedded \(id)")
    }
    let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".sql") }
    for file in files { #expect(released[String(file.dropLast(4))] != nil, "\(file) is not in released-checksums.txt") }
  }

  @Test func migrationIdsAreNumberedInOrder() {
    let numbers = Migration.all.map(\.number)
    #expect(numbers == Array(1...numbers.count))
    #expect(Migration.all.allSatisfy { $0.id.range(of: #"^\d{4}_[a-z0-9_]+$"#, options: .regularExpression) != nil })
  }

  @Test func migrationFilesPassTheLint() {
    for migration in Migration.all {
      #expect(Migration.lint(migration.sql).isEmpty, "\(migration.id): \(Migration.lint(migration.sql))")
    }
  }

  @Test func lintRejectsTransactionControl() {
    #expect(Migration.lint("BEGIN;\nCREATE TABLE t(x);\nCOMMIT;") == ["BEGIN", "COMMIT"])
    #expect(Migration.lint("BEGIN IMMEDIATE TRANSACTION; END TRANSACTION;") == ["BEGIN", "END TRANSACTION"])
    #expect(Migration.lint("SAVEPOINT a; RELEASE a; ROLLBACK;") == ["SAVEPOINT", "RELEASE", "ROLLBACK"])
    #expect(Migration.lint("PRAGMA foreign_keys = OFF;") == ["PRAGMA foreign_keys"])
    #expect(Migration.lint("pragma Foreign_Keys=0;") == ["PRAGMA foreign_keys"])
    #expect(
      Migration.lint("PRAGMA writable_schema = ON; PRAGMA legacy_alter_table = 1;") == [
        "PRAGMA writable_schema", "PRAGMA legacy_alter_table",
      ])
    #expect(Migration.lint("PRAGMA defer_foreign_keys = ON;") == ["PRAGMA defer_foreign_keys"])
    #expect(Migration.lint("VACUUM;") == ["VACUUM"])
    #expect(Migration.lint("ATTACH 'x.db' AS x;") == ["ATTACH"])
  }

  @Test func lintIgnoresCommentsStringsAndTriggerBodies() {
    #expect(Migration.lint("-- BEGIN in a comment\nCREATE TABLE t(x);").isEmpty)
    #expect(Migration.lint("/* COMMIT;\n VACUUM */ CREATE TABLE t(x);").isEmpty)
    #expect(Migration.lint("UPDATE t SET note = 'BEGIN; COMMIT; it''s VACUUM';").isEmpty)
    #expect(Migration.lint("CREATE TABLE \"commit\" (x);").isEmpty)
    #expect(Migration.lint("CREATE TRIGGER t AFTER INSERT ON x FOR EACH ROW BEGIN SELECT 1; END;").isEmpty)
    #expect(Migration.lint("CREATE TRIGGER t AFTER UPDATE ON x WHEN new.a > 1 BEGIN SELECT 1; END;").isEmpty)
    #expect(Migration.lint("CREATE TRIGGER t AFTER INSERT ON x BEGIN SELECT 1; END;\nBEGIN;") == ["BEGIN"])
  }

  @Test func lintRejectsRenamingTheOldTableFirst() {
    // migrations.md §5.2: create new, copy, drop old, rename new. Renaming the old table first
    // rewrites the foreign keys of the tables that point at it (trap T3).
    let safe = """
      CREATE TABLE lists_new (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
      INSERT INTO lists_new SELECT id, name FROM lists;
      DROP TABLE lists;
      ALTER TABLE lists_new RENAME TO lists;
      """
    #expect(Migration.lint(safe).isEmpty)
    let unsafe = """
      ALTER TABLE lists RENAME TO lists_old;
      CREATE TABLE lists (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
      INSERT INTO lists SELECT id, name FROM lists_old;
      DROP TABLE lists_old;
      """
    #expect(Migration.lint(unsafe).count == 1)
    #expect(Migration.lint(unsafe).first?.hasPrefix("ALTER TABLE lists RENAME TO") == true)
    #expect(Migration.lint("ALTER TABLE reminders RENAME COLUMN due TO due_text;").isEmpty)
  }

  @Test func migrationFilesOnDiskPassTheLint() throws {
    // The files themselves, not only the embedded copies: a bad file fails here even before
    // `make migrations` embeds it.
    let folder = Repository.path("Migrations")
    for file in try FileManager.default.contentsOfDirectory(atPath: folder) where file.hasSuffix(".sql") {
      let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
      #expect(Migration.lint(text).isEmpty, "\(file): \(Migration.lint(text))")
    }
  }

  @Test func checksumIgnoresLineEndingsAndTrailingSpace() {
    let plain = "CREATE TABLE t (\n  x INTEGER\n);\n"
    let windows = "CREATE TABLE t (  \r\n  x INTEGER\t\r\n);\r\n\r\n"
    #expect(Migration.checksum(of: plain) == Migration.checksum(of: windows))
    #expect(Migration.checksum(of: plain) != Migration.checksum(of: plain.replacingOccurrences(of: "x", with: "y")))
  }

  /// The checksum normalises bytes; its definition is the text normalised by characters, as
  /// released stores recorded it: both agree on line endings of every kind, trailing spaces and
  /// tabs, spaces before combining marks, and blank lines at the end.
  @Test func checksumNormalisesBytesAsTheCharactersWere() throws {
    func byCharacters(_ sql: String) -> String {
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
    var texts = [
      "", " ", "\n", "\r", "\r\n", "\r\r\n", "\n\r", "x", "x \t", "x\r\n  \r\n\n", " \u{301}\n", "a \u{301} \n",
      "é\t\r\n😀 \r", "SELECT 1;\t \nSELECT 2; -- ü  \r\n\r\n  \n", "\t\tx\r\r\r", "line\u{2028} \nend  ",
    ]
    let folder = Repository.path("Migrations")
    for file in try FileManager.default.contentsOfDirectory(atPath: folder) where file.hasSuffix(".sql") {
      let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
      texts += [
        text, text.replacingOccurrences(of: "\n", with: "\r\n"), text.replacingOccurrences(of: "\n", with: " \t\r"),
      ]
    }
    for text in texts {
      #expect(Migration.checksum(of: text) == byCharacters(text), "\(text.debugDescription.prefix(60))")
    }
  }

  @Test func sha256MatchesKnownVectors() {
    #expect(SHA256.hex(of: "") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(SHA256.hex(of: "abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      SHA256.hex(of: String(repeating: "a", count: 1000))
        == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
  }
}
