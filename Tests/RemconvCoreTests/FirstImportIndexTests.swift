import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// A first import into an empty store builds the indexes only reads use after its rows
/// (`Store.buildingReadIndexesAfter`): the store it leaves is the one a row-by-row import
/// leaves, and a failed import leaves the store as it was.
@Suite struct FirstImportIndexTests {
  /// Every index of the store by name, with its SQL (nil for SQLite's own).
  private func indexes(of store: Store) throws -> [String: String?] {
    var result: [String: String?] = [:]
    for row in try store.database.rows("SELECT name, sql FROM sqlite_schema WHERE type = 'index'") {
      result[row.string(0) ?? ""] = row.string(1)
    }
    return result
  }

  private func lines(_ count: Int, list: String = "L") -> [String] {
    (1...count).map { number in
      #"{"list":"\#(list)","id":"Item-\#(number)","title":"Task \#(number)","notes":"Ünïcode \#(number)","#
        + #""dueDate":"2026-12-\#(String(format: "%02d", number % 28 + 1))","flagged":\#(number % 3 == 0)}"#
    }
  }

  @Test func theReadIndexesAreSetAsideDuringAFirstImportAndBuiltAsTheStoreDefinesThem() throws {
    let directory = TemporaryDirectory()
    let store = try Store(path: directory.file("store.sqlite"))
    defer { store.close() }
    let defined = try indexes(of: store)
    #expect(Store.indexesReadAfterImport.isSubset(of: Set(defined.keys)))

    var seenDuringImport: [Set<String>] = []
    let diagnostics = DiagnosticLog()
    let source = InputSource.file("input.jsonl")
    let bytes = ByteReader(bytes: Array(lines(2100).joined(separator: "\n").utf8), name: "input.jsonl")
    let makeReader = try #require(FormatRegistry.named("jsonl")?.makeReader)
    let reader = try makeReader(ReaderContext(source: source, diagnostics: diagnostics, preopened: bytes))
    try Importer.run(
      reader: reader, into: store, source: source, format: "jsonl", options: Importer.Options(),
      diagnostics: diagnostics,
      progress: { _ in seenDuringImport.append((try? Set(self.indexes(of: store).keys)) ?? []) })

    #expect(seenDuringImport.count == 2)
    for names in seenDuringImport {
      #expect(names.isDisjoint(with: Store.indexesReadAfterImport))
      #expect(names.contains("reminders_by_folded_uid"))
    }
    #expect(try indexes(of: store) == defined)
    #expect(try store.database.scalar("PRAGMA integrity_check") == .text("ok"))
    // The indexes hold every row: what the views and short IDs read through them.
    #expect(try store.reminders(uidPrefix: "item-21", limit: 50).count == 12)
    #expect(try store.uniquePrefixLengths(of: ["Item-2100"]) == ["Item-2100": 9])
    var counted = 0
    try store.forEachFactCount { _, _, _, _, count in counted += count }
    #expect(counted == 2100)
  }

  @Test func anImportIntoAStoreWithRemindersKeepsItsIndexesThroughout() throws {
    let directory = TemporaryDirectory()
    let store = try Store(path: directory.file("store.sqlite"))
    defer { store.close() }
    try importLines(lines(1), into: store)
    let defined = try indexes(of: store)
    var seenDuringImport: [[String: String?]] = []
    let diagnostics = DiagnosticLog()
    let source = InputSource.file("more.jsonl")
    let bytes = ByteReader(bytes: Array(lines(1100, list: "M").joined(separator: "\n").utf8), name: "more.jsonl")
    let makeReader = try #require(FormatRegistry.named("jsonl")?.makeReader)
    let reader = try makeReader(ReaderContext(source: source, diagnostics: diagnostics, preopened: bytes))
    try Importer.run(
      reader: reader, into: store, source: source, format: "jsonl", options: Importer.Options(),
      diagnostics: diagnostics, progress: { _ in seenDuringImport.append((try? self.indexes(of: store)) ?? [:]) })
    #expect(seenDuringImport == [defined])
    #expect(try store.database.scalar("PRAGMA integrity_check") == .text("ok"))
  }

  @Test func aFirstImportThatFailsLeavesTheEmptyStoreAndItsIndexesAsTheyWere() throws {
    let directory = TemporaryDirectory()
    let store = try Store(path: directory.file("store.sqlite"))
    defer { store.close() }
    let defined = try indexes(of: store)
    var options = Importer.Options()
    options.strict = true
    // The same UID twice is a warning: under --strict the import is rolled back.
    #expect(throws: ImportFailure.self) {
      try importLines(lines(1100) + lines(1), into: store, options: options)
    }
    #expect(try store.reminderCount() == 0)
    #expect(try indexes(of: store) == defined)
    #expect(try store.database.scalar("PRAGMA integrity_check") == .text("ok"))
  }

  /// SQLite's sorts keep as many keys in memory as the page cache may hold: the sorts after an
  /// import's rows run under a small cache, and the cache the import had comes back after them.
  @Test func theSortsAfterTheRowsRunUnderASmallCacheAndTheImportsComesBack() throws {
    let directory = TemporaryDirectory()
    let store = try Store(path: directory.file("store.sqlite"))
    defer { store.close() }
    let cacheSize = { try store.database.scalar("PRAGMA cache_size") }
    let before = try cacheSize()
    let (sorting, after) = try store.withPageCache(mebibytes: 16) { () throws -> (SQLValue, SQLValue) in
      (try store.withSortingPageCache(cacheSize), try cacheSize())
    }
    #expect(sorting == .integer(-2 * 1024))
    #expect(after == .integer(-16 * 1024))
    try importLines(lines(1100), into: store)
    #expect(try store.reminderCount() == 1100)
    #expect(try cacheSize() == before)
  }
}
