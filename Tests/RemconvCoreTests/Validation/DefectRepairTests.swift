import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// One fixture store per defect: the finding, its JSON, the repair, and that a second repair
/// finds nothing to do.
@Suite struct DefectRepairTests {
  static let now = Date(timeIntervalSince1970: 1_796_000_000)

  @Test func theBaselineIsClean() throws {
    try DefectStores.withStore(defect: "") { store throws in
      let result = try Validator(store: store, options: deepOptions()).run()
      #expect(result.findings.isEmpty, "\(result.findings.map(\.reportLine))")
      #expect(result.listCount == 2)
      #expect(result.reminderCount == 4)
    }
  }

  @Test(arguments: DefectCase.all)
  func findsReportsAndRepairs(_ defect: DefectCase) throws {
    try DefectStores.withStore(defect: defect.sql) { store throws in
      // The finding.
      let result = try Validator(store: store).run()
      #expect(result.findings.count == 1, "\(result.findings.map(\.reportLine))")
      let finding = try #require(result.findings.first)
      #expect(finding.rule == defect.rule)
      #expect(finding.severity == defect.rule.severity)
      #expect(finding.subject.table == defect.table)
      #expect(finding.subject.rowID == defect.rowID)
      #expect(finding.message == defect.message)
      #expect(finding.fix?.action == defect.fixAction)
      #expect(finding.reportLine.hasPrefix("\(defect.rule.severity.rawValue)[\(defect.rule.id)] "))

      // Its JSON.
      let json = try #require(try JSONParser.parse(JSONText.encode(finding.json)).objectValue)
      #expect(json["rule"] == .string(defect.rule.id))
      #expect(json["severity"] == .string(defect.rule.severity.rawValue))
      #expect(json["table"] == .string(defect.table))
      #expect(json["rowId"] == .number(String(defect.rowID)))
      #expect(json["id"] == (finding.subject.uid.map(JSONValue.string) ?? .null))
      #expect(json["message"] == .string(defect.message))
      #expect(json["related"]?.arrayValue != nil)
      if let action = defect.fixAction {
        #expect(json["fix"]?["action"] == .string(action))
        #expect(json["fix"]?["description"]?.stringValue?.isEmpty == false)
      } else {
        #expect(json["fix"] == .null)
      }

      // The repair.
      let remindersBefore = try userText(of: store)
      let report = try Repairer.run(store: store, options: ValidationOptions(), dryRun: false, now: Self.now)
      #expect(report.records.map(\.finding) == [finding])
      if defect.fixAction == nil {
        #expect(report.records.first?.outcome == .remains)
        #expect(report.remaining == [finding])
        #expect(report.backup == nil, "nothing to repair: no backup")
      } else {
        guard case .repaired = report.records.first?.outcome else {
          Issue.record("not repaired: \(String(describing: report.records.first?.outcome))")
          return
        }
        #expect(report.remaining.isEmpty, "\(report.remaining.map(\.reportLine))")
        let backup = try #require(report.backup)
        #expect(FileManager.default.fileExists(atPath: backup.path))
      }
      try defect.verify(store)
      #expect(try userText(of: store) == remindersBefore, "a repair changed what a user wrote")

      // A second repair finds nothing to do.
      let again = try Repairer.run(store: store, options: ValidationOptions(), dryRun: false, now: Self.now)
      #expect(again.repairedCount == 0)
      #expect(again.backup == nil)
      #expect(try Validator(store: store).run().findings == (defect.fixAction == nil ? [finding] : []))
    }
  }

  @Test func orphanReminderJSONIsExact() throws {
    try DefectStores.withStore(defect: "UPDATE reminders SET list_id = 7 WHERE id = 4") { store throws in
      let finding = try #require(try Validator(store: store).run().findings.first)
      #expect(
        JSONText.encode(finding.json)
          == #"{"fix":{"action":"move-to-list","description":"move to \"Recovered\""},"id":"REM-4","message":"list #7 does not exist","related":[{"id":null,"rowId":7,"table":"lists","title":null}],"rowId":4,"rule":"orphan-reminder","severity":"error","table":"reminders","title":"Send report"}"#
      )
      #expect(
        finding.reportLine
          == #"error[orphan-reminder] REM-4 "Send report": list #7 does not exist (fix: move to "Recovered")"#)
    }
  }

  @Test func aDryRunChangesNothingAndSaysWhatItWouldDo() throws {
    try DefectStores.withStore(
      defect: "UPDATE reminders SET list_id = 7 WHERE id = 4; UPDATE reminders SET priority = 9 WHERE id = 1"
    ) { store throws in
      let before = try DefectStores.dump(store)
      let report = try Repairer.run(store: store, options: ValidationOptions(), dryRun: true, now: Self.now)
      #expect(report.dryRun)
      #expect(report.repairedCount == 2)
      #expect(report.backup == nil)
      #expect(try DefectStores.dump(store) == before)
      #expect(
        report.records.map { $0.reportLine(dryRun: true) } == [
          #"error[orphan-reminder] REM-4 "Send report": list #7 does not exist (would fix: move to "Recovered")"#,
          #"warning[invalid-priority] REM-1 "Call plumber": its priority '9' is not 0, 1, 2 or 3 (would fix: move it to extra.invalid.priority)"#,
        ])
      #expect(try Validator(store: store).run().findings.count == 2)
    }
  }

  @Test func theBackupHoldsTheStoreAsItWasBeforeTheRepair() throws {
    try DefectStores.withStore(defect: "UPDATE reminders SET list_id = 7 WHERE id = 4") { store throws in
      let report = try Repairer.run(store: store, options: ValidationOptions(), dryRun: false, now: Self.now)
      let backup = try #require(report.backup)
      #expect(backup.path.hasPrefix(store.path + ".pre-validate-fix-"))
      #expect(backup.rowCounts["reminders"] == 4)
      #expect(backup.rowCounts["lists"] == 2)
      #expect(!FileManager.default.fileExists(atPath: backup.path + "-wal"), "a backup is one file")
      let copy = try Database(path: backup.path, mode: .readOnly)
      defer { copy.close() }
      #expect(try copy.scalar("SELECT list_id FROM reminders WHERE id = 4") == .integer(7))
      #expect(try copy.scalar("PRAGMA integrity_check") == .text("ok"))
      let attributes = try FileManager.default.attributesOfItem(atPath: backup.path)
      #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }
  }

  @Test func aCycleWithEqualEditTimesBreaksAtTheHighestRow() throws {
    try DefectStores.withStore(
      defect: """
        UPDATE reminders SET edited_at = '2026-11-09T00:00:00Z' WHERE id IN (1, 2, 3);
        UPDATE reminders SET parent_id = 3 WHERE id = 1;
        """
    ) { store throws in
      let finding = try #require(try Validator(store: store).run().findings.first)
      #expect(finding.rule == .parentCycle)
      #expect(finding.subject.rowID == 3)
      #expect(finding.related.compactMap(\.rowID).sorted() == [1, 2])
      #expect(finding.fix == .detachFromParent(parentRowID: 2, parentUID: "REM-2"))
    }
  }

  @Test func anUnreadableEditTimeCountsAsTheOldest() throws {
    try DefectStores.withStore(
      defect: """
        UPDATE reminders SET parent_id = 3 WHERE id = 1;
        UPDATE reminders SET edited_at = 'soon' WHERE id = 3;
        """
    ) { store throws in
      let cycle = try #require(try Validator(store: store).run().findings.first { $0.rule == .parentCycle })
      // Row 2 (edited 2026-11-03) is newer than row 1 (11-02) and row 3 (unreadable).
      #expect(cycle.subject.rowID == 2)
    }
  }

  @Test func collidingListsMergeWhenAsked() throws {
    try DefectStores.withStore(
      defect: """
        INSERT INTO lists (id, uid, name, name_key, symbol, color, created_at, extra)
          VALUES (3, 'LIST-HOME-2', 'HOME', 'stale', 'house', '#FF0000', '2026-02-01T00:00:00Z', '{"ical":{"x":1}}');
        UPDATE reminders SET list_id = 3 WHERE id = 4;
        """
    ) { store throws in
      var options = ValidationOptions()
      options.onDuplicate = .merge
      let finding = try #require(try Validator(store: store, options: options).run().findings.first)
      #expect(finding.fix == .mergeList(intoRowID: 1, intoName: "Home"))
      let report = try Repairer.run(store: store, options: options, dryRun: false, now: Self.now)
      #expect(report.remaining.isEmpty)
      #expect(try Stored.integer(store, "SELECT count(*) FROM lists WHERE id = 3") == 0)
      #expect(try Stored.integer(store, "SELECT list_id FROM reminders WHERE id = 4") == 1)
      #expect(try store.reminderCount() == 4)
      let merged = try #require(try Stored.extra(store, row: 1, table: "lists")["mergedLists"]?.arrayValue)
      #expect(
        merged == [
          .object([
            "id": .string("LIST-HOME-2"), "name": .string("HOME"), "symbol": .string("house"),
            "color": .string("#FF0000"), "createdAt": .string("2026-02-01T00:00:00Z"),
            "extra": .object(["ical": .object(["x": .number("1")])]),
          ])
        ])
      #expect(try Repairer.run(store: store, options: options, dryRun: false, now: Self.now).records.isEmpty)
    }
  }

  @Test func aMergeThatReunitesASubtaskWithItsParentCutsNothing() throws {
    try DefectStores.withStore(
      defect: """
        INSERT INTO lists (id, uid, name, name_key, created_at) VALUES (3, 'LIST-HOME-2', 'home', 'stale', '2026-02-01T00:00:00Z');
        UPDATE reminders SET list_id = 3, parent_id = 1 WHERE id = 4;
        """
    ) { store throws in
      var options = ValidationOptions()
      options.onDuplicate = .merge
      let report = try Repairer.run(store: store, options: options, dryRun: false, now: Self.now)
      #expect(report.records.map(\.finding.rule) == [.subtaskOtherList, .listNameCollision])
      #expect(report.records.first?.outcome == .resolvedByOtherRepair)
      #expect(try Stored.integer(store, "SELECT parent_id FROM reminders WHERE id = 4") == 1)
      #expect(try Stored.extra(store, row: 4)["brokenParent"] == nil)
      #expect(report.remaining.isEmpty)
    }
  }

  @Test func theOldestListsStaleKeyIsFixedOnceTheCollidingListIsRenamed() throws {
    // "Home" holds a stale key, and the later "home " holds the key "home" would get.
    let defect = """
      UPDATE lists SET name_key = 'stale' WHERE id = 1;
      INSERT INTO lists (id, uid, name, name_key, created_at) VALUES (3, 'L3', 'home ', 'home', '2026-02-01T00:00:00Z');
      """
    try DefectStores.withStore(defect: defect) { store throws in
      let rules = try Validator(store: store).run().findings.map { "\($0.rule.id) #\($0.subject.rowID ?? 0)" }
      #expect(rules == ["list-name-collision #3", "list-name-key #1"])
      let report = try Repairer.run(store: store, options: ValidationOptions(), dryRun: false, now: Self.now)
      #expect(report.remaining.isEmpty)
      #expect(
        try store.database.rows("SELECT name, name_key FROM lists ORDER BY id").map {
          "\($0.string(0) ?? "")|\($0.string(1) ?? "")"
        }
          == ["Home|home", "Work|work", "home (2)|home (2)"])
    }
  }

  @Test func collisionsAreOnlyReportedUnderTheFailPolicy() throws {
    try DefectStores.withStore(
      defect:
        "INSERT INTO lists (id, uid, name, name_key, created_at) VALUES (3, 'L3', 'work', 'w', '2026-02-01T00:00:00Z')"
    ) { store throws in
      var options = ValidationOptions()
      options.onDuplicate = .fail
      let finding = try #require(try Validator(store: store, options: options).run().findings.first)
      #expect(finding.rule == .listNameCollision)
      #expect(finding.fix == nil)
    }
  }

  @Test func renamesSkipNamesOtherListsHaveOrWillHave() throws {
    try DefectStores.withStore(
      defect: """
        INSERT INTO lists (id, uid, name, name_key, created_at) VALUES
          (3, 'L3', 'Work (2)', 'work (2)', '2026-02-01T00:00:00Z'),
          (4, 'L4', 'WORK', 'x', '2026-02-02T00:00:00Z'),
          (5, 'L5', 'work', 'y', '2026-02-03T00:00:00Z');
        """
    ) { store throws in
      let fixes = try Validator(store: store).run().findings.map(\.fix)
      #expect(fixes == [.renameList(from: "WORK", to: "WORK (3)"), .renameList(from: "work", to: "work (4)")])
      let report = try Repairer.run(store: store, options: ValidationOptions(), dryRun: false, now: Self.now)
      #expect(report.remaining.isEmpty)
    }
  }

  @Test func orphansOfTwoMissingListsKeepTheirLinkInTheRecoveryList() throws {
    try DefectStores.withStore(
      defect: "UPDATE reminders SET list_id = 7 WHERE id = 2; UPDATE reminders SET list_id = 8 WHERE id = 3"
    ) { store throws in
      let found = try Validator(store: store).run().findings.map { "\($0.rule.id) #\($0.subject.rowID ?? 0)" }
      // Row 2's parent is in Home; row 3's parent (row 2) is in the other missing list.
      #expect(found == ["orphan-reminder #2", "orphan-reminder #3", "subtask-other-list #2", "subtask-other-list #3"])
      let report = try Repairer.run(store: store, options: ValidationOptions(), dryRun: false, now: Self.now)
      #expect(report.remaining.isEmpty)
      // Both land in "Recovered": row 3 stays under row 2, row 2 leaves Home's row 1.
      #expect(try Stored.integer(store, "SELECT parent_id FROM reminders WHERE id = 3") == 2)
      #expect(try Stored.value(store, "SELECT parent_id FROM reminders WHERE id = 2") == .null)
      #expect(report.records.last?.outcome == .resolvedByOtherRepair)
    }
  }

  @Test func aRecoveryListThatExistsIsReused() throws {
    try DefectStores.withStore(
      defect: """
        INSERT INTO lists (id, uid, name, name_key, created_at) VALUES (3, 'L3', 'recovered', 'recovered', '2026-02-01T00:00:00Z');
        UPDATE reminders SET list_id = 9 WHERE id = 4;
        """
    ) { store throws in
      let finding = try #require(try Validator(store: store).run().findings.first)
      #expect(finding.fix == .moveToList(name: "recovered", missingListRowID: 9))
      _ = try Repairer.run(store: store, options: ValidationOptions(), dryRun: false, now: Self.now)
      #expect(try Stored.integer(store, "SELECT list_id FROM reminders WHERE id = 4") == 3)
      #expect(try Stored.integer(store, "SELECT count(*) FROM lists") == 3)
    }
  }

  @Test func repairsNeverOverwriteWhatExtraAlreadyKeeps() throws {
    try DefectStores.withStore(
      defect: #"UPDATE reminders SET priority = 9, extra = '{"invalid":{"priority":"urgent"}}' WHERE id = 1"#
    ) { store throws in
      _ = try Repairer.run(store: store, options: ValidationOptions(), dryRun: false, now: Self.now)
      #expect(
        try Stored.extra(store, row: 1)["invalid"]
          == .object(["priority": .array([.string("urgent"), .string("9")])]))
    }
  }

  @Test func aDamagedFileIsReportedAndNeverRepaired() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("store.sqlite")
    let rows = (5...400).map { "(\($0), 'REM-\($0)', 1, 'Task \($0)')" }.joined(separator: ",\n")
    do {
      let store = try DefectStores.make(
        at: path, defect: "INSERT INTO reminders (id, uid, list_id, title) VALUES \(rows)")
      store.close()
    }
    // Overwrite the first bytes of the UID index's root page: the b-tree header SQLite checks.
    let offset: Int64
    do {
      let database = try Database(path: path, mode: .readOnly)
      defer { database.close() }
      guard
        case .integer(let root) = try database.scalar(
          "SELECT rootpage FROM sqlite_schema WHERE name = 'reminders_by_folded_uid'"),
        case .integer(let pageSize) = try database.scalar("PRAGMA page_size")
      else {
        Issue.record("cannot find the index's root page")
        return
      }
      offset = (root - 1) * pageSize
    }
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.seek(toOffset: UInt64(offset))
    try handle.write(contentsOf: Data(repeating: 0xFF, count: 12))
    try handle.close()

    let store = try Store(path: path)
    defer { store.close() }
    let result = try Validator(store: store).run()
    #expect(result.isDamaged)
    #expect(result.findings.contains { $0.rule == .integrity && $0.subject.table == "database" })
    let before = try DefectStores.dump(store)
    let report = try Repairer.run(store: store, options: ValidationOptions(), dryRun: false, now: Self.now)
    #expect(report.refusedBecauseDamaged)
    #expect(report.repairedCount == 0)
    #expect(report.backup == nil)
    #expect(try DefectStores.dump(store) == before)
  }

  /// Titles and notes of every reminder: what a user wrote, which no repair may change.
  private func userText(of store: Store) throws -> [String] {
    try store.database.rows("SELECT id, title, notes FROM reminders ORDER BY id").map {
      "\($0.int(0) ?? 0) \($0.string(1) ?? "") \($0.string(2) ?? "")"
    }
  }

  private func deepOptions() -> ValidationOptions {
    var options = ValidationOptions()
    options.deep = true
    return options
  }
}
