import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// `Store.list(alias:)` reads a list's JSON only when its text could name `mergedLists`: the
/// lists it finds are those whose `extra.mergedLists` holds the UID, however the key is spelled.
@Suite struct ListAliasLookupTests {
  private func storeWithLists(extras: [String: String]) throws -> (Store, TemporaryDirectory) {
    let directory = TemporaryDirectory()
    let store = try Store(path: directory.file("store.sqlite"))
    for (name, extra) in extras.sorted(by: { $0.key < $1.key }) {
      let rowID = try store.insertList(ReminderList(id: "uid-\(name)", name: name))
      try store.database.run("UPDATE lists SET extra = ? WHERE id = ?", [.text(extra), .integer(rowID)])
    }
    return (store, directory)
  }

  @Test func aListIsFoundByAnAliasAsTheWholeScanFindsIt() throws {
    let (store, directory) = try storeWithLists(extras: [
      "Plain": #"{"mergedLists":[{"id":"old-plain","name":"Old"}]}"#,
      "EscapedKey": #"{"\u006dergedLists":[{"id":"old-escaped"}]}"#,
      "EscapedID": #"{"mergedLists":[{"id":"old-\u00e9"}]}"#,
      "Other": #"{"note":"mergedLists is only a word here","id":"old-other"}"#,
      "Invalid": #"{"mergedLists":[{"id":"old-invalid"}"#,
      "Empty": "{}",
    ])
    defer {
      store.close()
      _ = directory
    }
    #expect(try store.list(alias: "old-plain")?.list.name == "Plain")
    #expect(try store.list(alias: "old-é")?.list.name == "EscapedID")
    #expect(try store.list(alias: "old-other") == nil)
    #expect(try store.list(alias: "old-invalid") == nil)
    // The JSON of every list read, as before the text was looked at first: the same answer
    // for every UID, an escaped key's (which SQLite's JSON path may or may not match) too.
    for alias in ["old-plain", "old-escaped", "old-é", "old-other", "old-invalid", "uid-Plain", ""] {
      let scanned = try store.database.rows(
        """
        SELECT name FROM lists WHERE EXISTS (
          SELECT 1 FROM json_each(CASE WHEN json_valid(lists.extra) THEN lists.extra ELSE '{}' END, '$.mergedLists')
          WHERE json_extract(value, '$.id') = ?)
        ORDER BY id LIMIT 1
        """, [.text(alias)]
      ).first?.string(0)
      #expect(try store.list(alias: alias)?.list.name == scanned, "alias \(alias)")
    }
  }
}
