import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// Stores written by every earlier schema version upgrade to the head, and every row keeps
/// every value it had; the columns a step added hold what that step documents.
@Suite struct FixtureUpgradeTests {
  @Test(arguments: FixtureStores.earlierVersions)
  func upgradesToHeadKeepingEveryValue(fixture: String) throws {
    let directory = TemporaryDirectory()
    let path = try FixtureStores.copy(fixture, into: directory)
    let version = try #require(Migration.number(of: String(fixture.dropFirst())))
    let listsBefore = try FixtureStores.rows(of: "lists", inFile: path)
    let remindersBefore = try FixtureStores.rows(of: "reminders", inFile: path)
    let historyBefore = try FixtureStores.rows(of: "remconv_migrations", inFile: path)
    #expect(!remindersBefore.isEmpty && !listsBefore.isEmpty)

    let (store, messages) = try MessageLog.open(path)
    defer { store.close() }

    let report = try #require(store.upgradeReport)
    #expect(report.applied == Migration.all.filter { $0.number > version }.map(\.id))
    #expect(report.to == Migration.head.id)
    #expect(report.preflight.isEmpty && report.preexisting.isEmpty)
    #expect(messages.lines.count == 1)
    #expect(
      messages.lines.first?.hasPrefix(
        "upgraded store \(path) from \(Migration.all[version - 1].id) to \(Migration.head.id)") == true)

    let listsAfter = try FixtureStores.rows(of: "lists", in: store.database)
    let remindersAfter = try FixtureStores.rows(of: "reminders", in: store.database)
    #expect(Set(listsAfter.keys) == Set(listsBefore.keys))
    #expect(Set(remindersAfter.keys) == Set(remindersBefore.keys))

    for (id, before) in listsBefore.sorted(by: { $0.key < $1.key }) {
      let after = try #require(listsAfter[id])
      for (column, value) in before {
        #expect(after[column] == value, "list \(id), column \(column)")
      }
      let name = try #require(before["name"]?.textValue)
      #expect(after["name_key"] == .text(ListName.key(for: name)), "list \(id) name_key")
      if before["uid"] == nil { #expect(Self.isUpperCaseUUID(after["uid"]), "list \(id) got a UUID") }
      if before["extra"] == nil { #expect(after["extra"] == .text("{}")) }
    }

    for (id, before) in remindersBefore.sorted(by: { $0.key < $1.key }) {
      let after = try #require(remindersAfter[id])
      for (column, value) in before {
        #expect(after[column] == value, "reminder \(id), column \(column)")
      }
      // 0006: no digest until an import writes the reminder from a record.
      if before["source_digest"] == nil {
        #expect(after["source_digest"] == .null, "reminder \(id) source_digest")
      }
      if before["notes"] == nil {
        #expect(after["notes"] == .text("") && after["priority"] == .integer(0), "reminder \(id): 0002 defaults")
      }
      if before["uid"] == nil {
        // 0003 moves data: UIDs, the kind of each due date, timestamps from the list.
        #expect(Self.isUpperCaseUUID(after["uid"]), "reminder \(id) got a UUID")
        #expect(after["due_kind"] == FixtureStores.dueKind(of: before["due"]), "reminder \(id) due_kind")
        #expect(after["due_tz"] == .null)
        let listCreated = listsBefore[before["list_id"].flatMap(Self.integer) ?? -1]?["created_at"] ?? .null
        #expect(after["created_at"] == listCreated, "reminder \(id) created_at")
        #expect(after["edited_at"] == listCreated, "reminder \(id) edited_at")
        #expect(
          after["completed_at"] == (before["is_done"] == .integer(1) ? listCreated : .null),
          "reminder \(id) completed_at")
      }
      // 0008: the derived columns, made from the row's values as they are after the upgrade.
      let derived = FixtureStores.addedColumns(of: after)
      #expect(
        after["due_day"] == derived["due_day"] && after["search_text"] == derived["search_text"], "reminder \(id)")
      // 0009: no start date, recurrence or alarms in the columns of a row written before it
      // (lifting from `extra` is a read's, not the step's).
      for column in FixtureStores.scheduleColumns where before[column] == nil {
        #expect(after[column] == FixtureStores.scheduleDefaults[column], "reminder \(id) \(column)")
      }
      let due = after["due"]?.textValue
      #expect((after["due_day"] != .null) == (due != nil && due != "next friday"), "reminder \(id): a due that parses")
      if before["parent_id"] == nil {
        #expect(after["parent_id"] == .null && after["url"] == .null, "reminder \(id): 0004 defaults")
        #expect(after["tags"] == .text("[]") && after["extra"] == .text("{}"), "reminder \(id): 0004 defaults")
      }
    }
    let uids = remindersAfter.values.compactMap { $0["uid"]?.textValue }
    #expect(Set(uids).count == uids.count, "UIDs are unique")

    // The history keeps the old rows and records the new steps with their checksums.
    let historyAfter = try FixtureStores.rows(of: "remconv_migrations", in: store.database)
    #expect(historyAfter.count == Migration.all.count)
    for (rowID, row) in historyBefore { #expect(historyAfter[rowID] == row) }
    for step in Migration.all where step.number > version {
      let row = try #require(historyAfter.values.first { $0["id"] == .text(step.id) })
      #expect(row["checksum"] == .text(step.checksum))
      #expect(row["tool_version"] == .text(RemconvVersion.current))
    }
    #expect(try store.database.scalar("PRAGMA user_version") == .integer(Int64(Migration.head.number)))
    #expect(try store.database.scalar("PRAGMA application_id") == .integer(Int64(Store.applicationID)))
    #expect(try StoreSnapshot.integrityProblems(store.database).isEmpty)
    #expect(try store.database.rows("PRAGMA foreign_key_check").isEmpty)

    // The store reads through the model: only the due date that never parsed is flagged, and
    // it is kept, not dropped.
    for id in remindersAfter.keys {
      let reminder = try #require(try store.reminder(rowID: id)).reminder
      let due = remindersBefore[id]?["due"]?.textValue
      if due == "next friday" {
        #expect(reminder.extra["invalid"]?["dueDate"] == .string("next friday"))
      } else {
        #expect(reminder.extra["invalid"] == nil, "reminder \(id) reads without invalid values")
        #expect(reminder.dueDate?.isoText == due, "reminder \(id) due date")
      }
    }

    // The backup holds the store exactly as it was before the upgrade.
    let backup = try #require(report.backup)
    #expect(backup.path == MigrationBackup.list(for: path).last?.path)
    #expect(backup.fromVersion == version && backup.toVersion == Migration.head.number)
    #expect(try FixtureStores.rows(of: "reminders", inFile: backup.path) == remindersBefore)
    #expect(try FixtureStores.rows(of: "lists", inFile: backup.path) == listsBefore)
    #expect(try Self.permissions(of: backup.path) == 0o600)
  }

  @Test func firstVersionValuesArriveAsTheyWereWritten() throws {
    let directory = TemporaryDirectory()
    let path = try FixtureStores.copy("v0001.sqlite", into: directory)
    let store = try Store(path: path)
    defer { store.close() }
    let cafe = try #require(try store.list(rowID: 3)).list
    #expect(Array(cafe.name.unicodeScalars) == Array("Cafe\u{301} Ideen".unicodeScalars), "the decomposed name is kept")
    #expect(try store.database.scalar("SELECT name_key FROM lists WHERE id = 3") == .text("caf\u{E9} ideen"))
    #expect(try store.list(rowID: 5)?.list.name == "  Reisen 2026 ")
    #expect(try store.list(named: "reisen 2026")?.rowID == 5)
    let kinds = try store.database.rows("SELECT id, due_kind FROM reminders ORDER BY id").map {
      ($0.int(0) ?? 0, $0.string(1))
    }
    #expect(
      kinds.map(\.1) == ["date", nil, "floating", "utc", "date", "utc", nil, nil, "date", "date", "floating", nil])
    let done = try #require(try store.reminder(rowID: 2)).reminder
    #expect(done.isDone && done.completedAt == Timestamp(iso: "2024-03-02T08:15:00Z"))
    #expect(
      try store.reminder(rowID: 11)?.reminder.dueDate
        == .floating(try #require(LocalDateTime(iso: "2026-02-14T07:05:00"))))
  }

  @Test func fixturesAreRemconvStoresOfTheirVersion() throws {
    for fixture in FixtureStores.earlierVersions {
      let status = try Store.migrationStatus(at: FixtureStores.path(fixture))
      #expect(status.state == .behind, "\(fixture)")
      #expect(status.userVersion == status.versionNumber)
      #expect(status.applied.map(\.id) == Migration.all.prefix(status.versionNumber).map(\.id))
    }
  }

  static func isUpperCaseUUID(_ value: SQLValue?) -> Bool {
    guard let text = value?.textValue else { return false }
    return text.range(
      of: "^[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$", options: .regularExpression) != nil
  }

  static func integer(_ value: SQLValue) -> Int64? {
    if case .integer(let number) = value { return number }
    return nil
  }

  static func permissions(of path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? Int ?? 0) & 0o777
  }
}

/// Collects the lines a store reports (`Store.Options.onUpgrade`).
final class MessageLog {
  private(set) var lines: [String] = []
  func append(_ line: String) { lines.append(line) }

  /// Opens the store at `path` with `options`, collecting what it reports.
  static func open(_ path: String, options: Store.Options = Store.Options()) throws -> (Store, MessageLog) {
    let log = MessageLog()
    var options = options
    options.onUpgrade = log.append
    return (try Store(path: path, options: options), log)
  }
}
