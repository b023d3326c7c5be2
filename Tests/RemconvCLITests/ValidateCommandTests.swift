import Foundation
import RemconvCLI
import RemconvCore
import RemconvTestSupport
import Testing

/// `remconv validate`, `export --validate` and the checks an import runs, end to end in-process.
@Suite struct ValidateCommandTests {
  @Test func aCleanStoreExitsZeroAndPrintsNothing() throws {
    let bench = try DefectStores.bench(defect: "")
    let result = bench.run("validate")
    #expect(result.status == .ok)
    #expect(result.output == "")
    #expect(result.errors == "remconv: checked 2 lists and 4 reminders: no problems\n")
  }

  @Test func findingsArePrintedOneALineAndExitOne() throws {
    let bench = try DefectStores.bench(
      defect: "UPDATE reminders SET list_id = 7 WHERE id = 4; UPDATE reminders SET title = '' WHERE id = 2")
    let result = bench.run("validate")
    #expect(result.status == .findings)
    #expect(result.status.rawValue == 1)
    #expect(
      result.output == """
        error[orphan-reminder] REM-4 "Send report": list #7 does not exist (fix: move to "Recovered")
        warning[empty-title] REM-2 "": its title is empty (no automatic fix)

        """)
    #expect(result.errors == "remconv: checked 2 lists and 4 reminders: 1 error, 1 warning\n")
  }

  @Test func jsonCarriesTypedFindings() throws {
    let bench = try DefectStores.bench(defect: "UPDATE reminders SET uid = 'REM-1' WHERE id = 4")
    let result = bench.run("validate --json --deep")
    #expect(result.status == .findings)
    let document = try #require(try JSONParser.parse(result.output).objectValue)
    #expect(document["version"] == .number("1"))
    #expect(document["mode"] == .string("check"))
    #expect(document["store"] == .string(bench.storePath))
    #expect(document["reminders"] == .number("4"))
    #expect(document["summary"] == .object(["errors": .number("1"), "warnings": .number("0")]))
    let finding = try #require(document["findings"]?.arrayValue?.first?.objectValue)
    #expect(finding["rule"] == .string("duplicate-reminder-uid"))
    #expect(finding["id"] == .string("REM-1"))
    #expect(finding["rowId"] == .number("4"))
    #expect(
      finding["related"]
        == .array([
          .object([
            "table": .string("reminders"), "rowId": .number("1"), "id": .string("REM-1"),
            "title": .string("Call plumber"),
          ])
        ]))
    #expect(finding["fix"]?["action"] == .string("assign-fresh-uid"))
    #expect(result.errors == "", "--json prints no summary")
  }

  @Test func fixRepairsAfterABackupAndASecondFixFindsNothing() throws {
    let bench = try DefectStores.bench(defect: "UPDATE reminders SET list_id = 7 WHERE id = 4")
    let first = bench.run("validate --fix")
    #expect(first.status == .ok)
    #expect(
      first.output
        == "error[orphan-reminder] REM-4 \"Send report\": list #7 does not exist (fixed: moved to \"Recovered\"; created the list)\n"
    )
    #expect(
      first.errors.hasPrefix(
        "remconv: repaired 1 of 1 finding, none remains; backup: \(bench.storePath).pre-validate-fix-"))
    let backups = try FileManager.default.contentsOfDirectory(atPath: bench.directory.path).filter {
      $0.contains("pre-validate-fix")
    }
    #expect(backups.count == 1)

    let second = bench.run("validate --fix")
    #expect(second.status == .ok)
    #expect(second.output == "")
    #expect(second.errors == "remconv: checked 3 lists and 4 reminders: nothing to repair\n")
    #expect(bench.run("validate").status == .ok)
    #expect(bench.run("export --format jsonl").output.contains("\"list\":\"Recovered\""))
  }

  @Test func fixJSONReportsEachRepairAndWhatRemains() throws {
    let bench = try DefectStores.bench(
      defect: "UPDATE reminders SET priority = 9 WHERE id = 1; UPDATE reminders SET title = ' ' WHERE id = 4")
    let result = bench.run("validate --fix --json")
    #expect(result.status == .findings, "the empty title remains")
    let document = try #require(try JSONParser.parse(result.output).objectValue)
    #expect(document["mode"] == .string("fix"))
    #expect(document["dryRun"] == .bool(false))
    #expect(document["backup"]?.stringValue?.hasPrefix(bench.storePath + ".pre-validate-fix-") == true)
    let findings = try #require(document["findings"]?.arrayValue)
    #expect(findings.map { $0["repair"]?["status"] } == [.string("remains"), .string("repaired")])
    #expect(findings.last?["repair"]?["result"] == .string("moved it to extra.invalid.priority"))
    #expect(document["remaining"]?.arrayValue?.map { $0["rule"] } == [.string("empty-title")])
    #expect(
      document["summary"]
        == .object([
          "found": .number("2"), "repaired": .number("1"), "remaining": .number("1"), "errors": .number("0"),
          "warnings": .number("1"),
        ]))
  }

  @Test func dryRunChangesNothingAndExitsOne() throws {
    let bench = try DefectStores.bench(defect: "UPDATE lists SET name_key = 'stale' WHERE id = 2")
    let before = try DefectStores.dump(bench)
    let result = bench.run("validate --fix --dry-run")
    #expect(result.status == .findings)
    #expect(
      result.output
        == "warning[list-name-key] list LIST-WORK \"Work\": its stored name key 'stale' is not the key of its name ('work') (would fix: store the name as \"Work\" with its key)\n"
    )
    #expect(result.errors.contains("nothing was changed"))
    #expect(try DefectStores.dump(bench) == before)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: bench.directory.path).allSatisfy {
        !$0.contains("pre-validate-fix")
      })
    #expect(bench.run("validate").status == .findings)
  }

  @Test func onDuplicateMergeMergesCollidingLists() throws {
    let bench = try DefectStores.bench(
      defect: """
        INSERT INTO lists (id, uid, name, name_key, created_at) VALUES (3, 'LIST-WORK-2', 'work ', 'stale', '2026-02-01T00:00:00Z');
        UPDATE reminders SET list_id = 3 WHERE id = 1;
        """)
    #expect(bench.run("validate --on-duplicate merge").output.contains("(fix: merge it into \"Work\" (#2)"))
    let result = bench.run("validate --fix --on-duplicate merge")
    #expect(result.status == .ok)
    let store = try Store(path: bench.storePath)
    defer { store.close() }
    #expect(try store.lists().map(\.list.name) == ["Home", "Work"])
    #expect(try store.reminder(uid: "REM-1")?.listRowID == 2)
  }

  @Test func usageAndOperationalErrorsHaveTheirOwnCodes() throws {
    let bench = TestBench()
    let missing = bench.run("validate")
    #expect(missing.status == .noInput)
    #expect(missing.errors.contains("no store here"))
    #expect(!FileManager.default.fileExists(atPath: bench.storePath), "validate must not create a store")
    #expect(bench.run("validate --dry-run").status == .usage)
    #expect(bench.run("validate --on-duplicate fail").status == .usage)
    #expect(bench.run("validate extra").status == .usage)

    let notAStore = bench.directory.write("notes.txt", "just text\n")
    #expect(bench.run(["validate", "--store", notAStore]).status == .dataError)
  }

  @Test func aStoreFromANewerRemconvIsCheckedButNeverRepaired() throws {
    let bench = try DefectStores.bench(
      defect: """
        INSERT INTO remconv_migrations (id, checksum, tool_version, applied_at)
          VALUES ('9999_from_the_future', 'x', '9.0.0', '2030-01-01T00:00:00Z');
        UPDATE reminders SET priority = 9 WHERE id = 1;
        """)
    let check = bench.run("validate")
    #expect(check.status == .findings)
    #expect(check.output.hasPrefix("warning[invalid-priority] REM-1"))
    #expect(check.errors.contains("written by a newer remconv"))
    let fix = bench.run("validate --fix")
    #expect(fix.status == .storeTooNew)
    #expect(fix.status.rawValue == 77)
    #expect(bench.run("validate").output == check.output, "nothing was repaired")
  }

  @Test func aNewerSchemaThisVersionCannotReadIsSaidToBeNewer() throws {
    let bench = try DefectStores.bench(
      defect: """
        INSERT INTO remconv_migrations (id, checksum, tool_version, applied_at)
          VALUES ('9999_rename_due_zone', 'x', '9.0.0', '2030-01-01T00:00:00Z');
        ALTER TABLE reminders RENAME COLUMN due_tz TO due_zone;
        """)
    let result = bench.run("validate")
    #expect(result.status == .storeTooNew)
    #expect(result.errors.contains("cannot read this store safely"))
    #expect(result.errors.contains("written by a newer remconv"))
    #expect(result.errors.contains("due_tz"))
  }

  @Test func exportValidateStopsOnErrorsOnly() throws {
    let broken = try DefectStores.bench(defect: "UPDATE reminders SET list_id = 7 WHERE id = 4")
    let stopped = broken.run("export --validate --format jsonl")
    #expect(stopped.status == .findings)
    #expect(stopped.output == "")
    #expect(stopped.errors.contains("remconv: error[orphan-reminder] REM-4"))
    #expect(stopped.errors.contains("nothing was exported"))
    // Without --validate the export refuses nothing.
    #expect(broken.run("export --format jsonl").status == .ok)

    let warned = try DefectStores.bench(defect: "UPDATE reminders SET priority = 9 WHERE id = 1")
    let exported = warned.run("export --validate --format jsonl")
    #expect(exported.status == .ok)
    #expect(exported.output.split(separator: "\n").count == 4)
    #expect(exported.errors.contains("remconv: warning[invalid-priority] REM-1"))
  }

  @Test func importReportsWhatItsWritesBrokeAsWarnings() throws {
    // "Groceries" is stored under a stale name key, so the import's "groceries" gets past the
    // UNIQUE constraint: the two lists now collide.
    let bench = try DefectStores.bench(
      defect:
        "INSERT INTO lists (id, uid, name, name_key, created_at) VALUES (3, 'LIST-G', 'Groceries', 'stale', '2026-02-01T00:00:00Z')"
    )
    let file = bench.directory.write(
      "in.jsonl",
      #"{"list":"groceries","listId":"LIST-G2","id":"NEW-1","title":"Milk"}"# + "\n")
    // --strict turns the checks' warnings into a failure like any warning: nothing is written.
    let strict = bench.run(["import", file, "--strict"])
    #expect(strict.status == .dataError)
    #expect(strict.errors.contains("list-name-collision"))
    #expect(bench.run("validate").status == .findings, "only the pre-existing stale key")
    #expect(!bench.run("export --format jsonl").output.contains("NEW-1"))

    let result = bench.run(["import", file])
    #expect(result.status == .ok)
    #expect(result.errors.contains("[list-name-collision]"))
    #expect(
      result.errors.contains(
        "in the store after this import, list LIST-G2 \"groceries\": its name collides with list #3 \"Groceries\""))
    #expect(result.errors.contains("1 warning"))
  }

  @Test func importChecksOnlyWhatItWroteAndRepeatsNoWarning() throws {
    // A pre-existing orphan is not this import's doing: not reported by it.
    let bench = try DefectStores.bench(defect: "UPDATE reminders SET list_id = 7 WHERE id = 4")
    let file = bench.directory.write(
      "in.jsonl",
      #"{"list":"Home","listId":"LIST-HOME","id":"NEW-1","title":"  "}"# + "\n")
    let result = bench.run(["import", file, "--report", "json"])
    #expect(result.status == .ok)
    let report = try #require(try JSONParser.parse(result.output).objectValue)
    let codes = report["diagnostics"]?.arrayValue?.compactMap { $0["code"]?.stringValue }
    #expect(codes == ["empty-title"], "the merge engine's warning, not repeated by the checks")
  }
}
