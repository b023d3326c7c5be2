import Foundation
import Testing
@testable import RemconvCore
import RemconvTestSupport

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
    #expect(Migration.lint("PRAGMA foreign_keys = OFF;") == ["PRAGMA foreign_keys"])
    #expect(Migration.lint("VACUUM;") == ["VACUUM"])
    #expect(Migration.lint("-- BEGIN in a comment\nCREATE TABLE t(x);").isEmpty)
    #expect(Migration.lint("CREATE TRIGGER t AFTER INSERT ON x FOR EACH ROW BEGIN SELECT 1; END;").isEmpty)
  }

  @Test func checksumIgnoresLineEndingsAndTrailingSpace() {
    let plain = "CREATE TABLE t (\n  x INTEGER\n);\n"
    let windows = "CREATE TABLE t (  \r\n  x INTEGER\t\r\n);\r\n\r\n"
    #expect(Migration.checksum(of: plain) == Migration.checksum(of: windows))
    #expect(Migration.checksum(of: plain) != Migration.checksum(of: plain.replacingOccurrences(of: "x", with: "y")))
  }

  @Test func sha256MatchesKnownVectors() {
    #expect(SHA256.hex(of: "") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(SHA256.hex(of: "abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      SHA256.hex(of: String(repeating: "a", count: 1000))
        == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
  }
}
