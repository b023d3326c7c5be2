import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// List names that collide before the unique-name step (0005), under each `--on-duplicate`.
/// The fixture has Home / home / " HOME ", an existing "Home (2)", Café in NFC and NFD, and a
/// list without a UID.
@Suite struct PreflightTests {
  private let fixture = "v0004-duplicate-names.sqlite"

  private func open(_ policy: DuplicateNamePolicy, in directory: TemporaryDirectory) throws -> (Store, String) {
    let path = try FixtureStores.copy(fixture, into: directory)
    var options = Store.Options()
    options.duplicatePolicy = policy
    return (try Store(path: path, options: options), path)
  }

  @Test func thePlanListsTheCollisionsBeforeAnythingChanges() throws {
    let directory = TemporaryDirectory()
    let path = try FixtureStores.copy(fixture, into: directory)
    var options = Store.Options()
    try expectUntouched(path) {
      for policy in DuplicateNamePolicy.allCases {
        options.duplicatePolicy = policy
        let plan = try Store.migrationPlan(at: path, upTo: nil, options: options)
        #expect(
          plan.steps.map(\.id) == [
            "0005_unique_list_names", "0006_record_digests", "0007_converge_earlier_releases",
            "0008_view_index_columns", "0009_recurrence_alarms_start", "0010_sync_state",
            "0011_sync_discovery", "0012_leaner_reminder_indexes",
          ])
        #expect(plan.preflight.duplicates.map { $0.lists.map(\.rowID) } == [[1, 3, 4], [6, 7]])
        #expect(plan.preflight.duplicates.map(\.key) == ["home", "caf\u{E9}"])
        #expect(plan.preflight.duplicates[0].lists.map(\.reminderCount) == [2, 2, 1])
        #expect(plan.preexisting.isEmpty, "the collisions are the preflight's, not reported twice")
        #expect(plan.blockers.isEmpty == (policy != .fail))
      }
    }
    #expect(MigrationBackup.list(for: path).isEmpty)
  }

  @Test func renameGivesLaterListsAFreeNumberedName() throws {
    let directory = TemporaryDirectory()
    let remindersBefore = try FixtureStores.rows(of: "reminders", inFile: FixtureStores.path(fixture))
    let (store, _) = try open(.rename, in: directory)
    defer { store.close() }
    let report = try #require(store.upgradeReport)
    #expect(
      report.preflight == [
        .rename(listRowID: 3, from: "home", to: "home (3)"),
        .rename(listRowID: 4, from: " HOME ", to: "HOME (4)"),
        .rename(listRowID: 7, from: "Cafe\u{301}", to: "Caf\u{E9} (2)"),
        .assignUID(listRowID: 8, name: "Ideas"),
      ])
    let names = try store.lists().map(\.list.name)
    #expect(names == ["Home", "Work", "home (3)", "HOME (4)", "Home (2)", "Café", "Café (2)", "Ideas"])
    // 0006 adds the source digest, empty until an import writes the reminder.
    #expect(
      try FixtureStores.rows(of: "reminders", in: store.database)
        == remindersBefore.mapValues {
          $0.merging(["source_digest": .null]) { old, _ in old }.merging(FixtureStores.addedColumns(of: $0)) {
            _, new in new
          }
        },
      "every reminder stays where it was")
    #expect(FixtureUpgradeTests.isUpperCaseUUID(.text(try #require(try store.list(rowID: 8)).list.id)))
    // Idempotent: the renamed store has nothing left to resolve.
    let again = try Preflight.findings(in: store.database, plan: [Migration.head], policy: .rename)
    #expect(again.duplicates.isEmpty && again.actions.isEmpty)
  }

  @Test func mergeMovesRemindersIntoTheOldestListAndKeepsWhatTheOthersCarried() throws {
    let directory = TemporaryDirectory()
    let remindersBefore = try FixtureStores.rows(of: "reminders", inFile: FixtureStores.path(fixture))
    let (store, _) = try open(.merge, in: directory)
    defer { store.close() }
    let report = try #require(store.upgradeReport)
    #expect(report.preflight.filter { if case .merge = $0 { true } else { false } }.count == 3)
    #expect(try store.lists().map(\.rowID) == [1, 2, 5, 6, 8])
    let remindersAfter = try FixtureStores.rows(of: "reminders", in: store.database)
    #expect(Set(remindersAfter.keys) == Set(remindersBefore.keys), "no reminder is dropped")
    let moved: [Int64: Int64] = [4: 1, 5: 1, 6: 1, 9: 6]
    for (id, before) in remindersBefore {
      var expected = before
      expected["source_digest"] = .null
      if let list = moved[id] { expected["list_id"] = .integer(list) }
      expected.merge(FixtureStores.addedColumns(of: before)) { _, new in new }
      #expect(remindersAfter[id] == expected, "reminder \(id)")
    }
    #expect(try store.reminder(rowID: 5)?.parentRowID == 4, "a subtask keeps its parent")
    let home = try #require(try store.list(rowID: 1)).list
    let merged = try #require(home.extra["mergedLists"]?.arrayValue)
    #expect(
      merged.compactMap { $0["uid"]?.stringValue } == [
        "33333333-CCCC-4CCC-ACCC-333333333333", "44444444-DDDD-4DDD-BDDD-444444444444",
      ])
    #expect(merged.first?["extra"]?["ical"]?["X-WR-CALNAME"] == .string("home"))
    #expect(merged.last?["color"] == .string("#FF3B30"))
  }

  @Test func failChangesNothingAndNamesTheLists() throws {
    let directory = TemporaryDirectory()
    let path = try FixtureStores.copy(fixture, into: directory)
    var options = Store.Options()
    options.duplicatePolicy = .fail
    try expectUntouched(path) {
      let message = expectRemconvError("migrationFailed") { try Store(path: path, options: options) }
      for part in [
        "'Home' (list 1, 2 reminders)", "'home' (list 3, 2 reminders)", "' HOME ' (list 4, 1 reminder)",
        "nothing was changed", "--on-duplicate rename or merge",
      ] {
        #expect(message.contains(part), "\(part) in \(message)")
      }
    }
    #expect(MigrationBackup.list(for: path).isEmpty, "no backup: the upgrade stopped before the first change")
  }

  @Test func renamedNamesAreTrimmedAndNeverBlank() throws {
    // Lists named '' and '  ' collide (their key is empty); the later one used to become ' (2)'.
    let group = DuplicateListGroup(
      key: "",
      lists: [
        .init(rowID: 1, name: "", reminderCount: 0), .init(rowID: 2, name: "  ", reminderCount: 1),
        .init(rowID: 3, name: "\t", reminderCount: 0),
      ])
    let actions = Preflight.resolution(of: [group], takenKeys: ["", "untitled list (3)"], policy: .rename)
    #expect(
      actions == [
        .rename(listRowID: 2, from: "  ", to: "Untitled list (2)"),
        .rename(listRowID: 3, from: "\t", to: "Untitled list (4)"),
      ])

    let directory = TemporaryDirectory()
    let path = try FixtureStores.copy(
      "v0004.sqlite", into: directory,
      editing: """
        INSERT INTO lists (id, name, symbol, created_at, uid, extra) VALUES
          (20, '', 'list.bullet', '2026-01-01T00:00:00Z', 'L-20', '{}'),
          (21, '   ', 'list.bullet', '2026-01-02T00:00:00Z', 'L-21', '{}'),
          (22, ' Arbeit ', 'list.bullet', '2026-01-03T00:00:00Z', 'L-22', '{}');
        """)
    let store = try Store(path: path)
    defer { store.close() }
    let renamed = try #require(store.upgradeReport?.preflight)
    #expect(renamed.contains(.rename(listRowID: 21, from: "   ", to: "Untitled list (2)")))
    #expect(renamed.contains(.rename(listRowID: 22, from: " Arbeit ", to: "Arbeit (2)")))
    for case .rename(_, _, let name) in renamed {
      #expect(name == ListName.normalized(name) && !name.hasPrefix(" ") && !name.hasPrefix("("), "'\(name)'")
    }
  }

  @Test func resolutionSkipsNumbersOtherListsHold() {
    let group = DuplicateListGroup(
      key: "work",
      lists: [
        .init(rowID: 1, name: "Work", reminderCount: 0), .init(rowID: 2, name: "work", reminderCount: 0),
        .init(rowID: 3, name: "WORK", reminderCount: 0),
      ])
    let actions = Preflight.resolution(of: [group], takenKeys: ["work", "work (2)", "work (4)"], policy: .rename)
    #expect(
      actions == [
        .rename(listRowID: 2, from: "work", to: "work (3)"), .rename(listRowID: 3, from: "WORK", to: "WORK (5)"),
      ])
    #expect(Preflight.resolution(of: [group], takenKeys: ["work"], policy: .fail).isEmpty)
  }
}
