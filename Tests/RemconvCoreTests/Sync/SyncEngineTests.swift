import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// The sync engine against endpoints that misbehave as servers do, and its field merge.
@Suite struct SyncEngineTests {
  static func item(uid: String, summary: String, _ more: [String] = []) -> String {
    (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Other//EN", "BEGIN:VTODO", "UID:\(uid)", "SUMMARY:\(summary)"]
      + more + ["END:VTODO", "END:VCALENDAR", ""]).joined(separator: "\r\n")
  }

  private func run(_ store: Store, _ endpoint: any SyncEndpoint) throws -> SyncReport {
    try syncOnce(store, endpoint, remote: "v")
  }

  @Test func aWriteThatMeetsAChangedRemoteFetchesAndMergesInsteadOfOverwriting() throws {
    let directory = TemporaryDirectory()
    let root = directory.file("vdir")
    directory.write("vdir/Work/displayname", "Work")
    directory.write("vdir/Work/a.ics", Self.item(uid: "a@x", summary: "Draft", ["X-KEPT:1"]))
    let store = try Store(path: directory.file("store.sqlite"))
    defer { store.close() }
    try store.write { try store.addRemote(RemoteConfiguration(name: "v", url: root, user: nil, password: nil)) }
    let endpoint = RacingEndpoint(try VdirEndpoint(root: root), racing: .beforeFirstWrite)
    _ = try run(store, endpoint)

    // Here the notes change; there, between the engine's listing and its write, the priority.
    let stored = try #require(try store.reminder(uid: "a@x"))
    var edited = stored.reminder
    edited.notes = "two pages"
    try store.write {
      try store.updateReminder(rowID: stored.rowID, edited, listRowID: stored.listRowID, parentRowID: nil)
    }
    endpoint.race = {
      directory.write("vdir/Work/.race", Self.item(uid: "a@x", summary: "Draft", ["X-KEPT:1", "PRIORITY:1"]))
      rename(root + "/Work/.race", root + "/Work/a.ics")
    }
    let report = try run(store, endpoint)
    #expect(endpoint.preconditionFailures == 1)
    #expect(report.conflicts.isEmpty)
    let file = directory.read("vdir/Work/a.ics")
    #expect(file.contains("DESCRIPTION:two pages") && file.contains("PRIORITY:1") && file.contains("X-KEPT:1"))
    let merged = try #require(try store.reminder(uid: "a@x")).reminder
    #expect(merged.notes == "two pages" && merged.priority == .high)
    #expect(try run(store, endpoint).transferredNothing)
  }

  @Test func aRemoteItemThatIsNotICalendarIsSkippedAndReportedAndTheRestSyncs() throws {
    let directory = TemporaryDirectory()
    let root = directory.file("vdir")
    directory.write("vdir/Work/displayname", "Work")
    directory.write("vdir/Work/broken.ics", "this is not iCalendar\n")
    directory.write("vdir/Work/b.ics", Self.item(uid: "b@x", summary: "Fine"))
    let store = try Store(path: directory.file("store.sqlite"))
    defer { store.close() }
    try store.write { try store.addRemote(RemoteConfiguration(name: "v", url: root, user: nil, password: nil)) }
    let report = try run(store, try VdirEndpoint(root: root))
    #expect(report.downloaded == 1)
    #expect(report.skipped.map(\.href) == ["broken.ics"])
    #expect(directory.read("vdir/Work/broken.ics") == "this is not iCalendar\n")
  }

  @Test func aRemoteItemCrossesTheModelBoundaryAsAnImportDoes() throws {
    let directory = TemporaryDirectory()
    let root = directory.file("vdir")
    directory.write("vdir/Work/displayname", "Work")
    directory.write("vdir/Work/c.ics", Self.item(uid: "c@x", summary: "Bell\u{07}ring"))
    let store = try Store(path: directory.file("store.sqlite"))
    defer { store.close() }
    try store.write { try store.addRemote(RemoteConfiguration(name: "v", url: root, user: nil, password: nil)) }
    let remote = try #require(try store.read { try store.remote(named: "v") })
    let diagnostics = DiagnosticLog()
    let report = try SyncEngine(
      store: store, remote: remote, endpoint: try VdirEndpoint(root: root), options: SyncEngine.Options(),
      diagnostics: diagnostics
    ).run()
    #expect(report.downloaded == 1)
    #expect(try store.reminder(uid: "c@x")?.reminder.title == "Bellring")
    #expect(diagnostics.entries.map(\.code) == ["control-character"])
    #expect(try run(store, try VdirEndpoint(root: root)).transferredNothing)
  }

  /// A state an earlier remconv recorded holds the digest without the start, repeat rule and
  /// alarms: an unchanged reminder is still unchanged, one whose repeat rule changed since (an
  /// import before the upgrade) goes up.
  @Test func aStateRecordedWithTheEarlierDigestIsReadAsThatVersionMeantIt() throws {
    let directory = TemporaryDirectory()
    let root = directory.file("vdir")
    directory.write("vdir/Work/displayname", "Work")
    directory.write(
      "vdir/Work/a.ics", Self.item(uid: "a@x", summary: "Standup", ["DTSTART:20261207T090000", "RRULE:FREQ=WEEKLY"]))
    directory.write("vdir/Work/b.ics", Self.item(uid: "b@x", summary: "Review"))
    let store = try Store(path: directory.file("store.sqlite"))
    defer { store.close() }
    try store.write { try store.addRemote(RemoteConfiguration(name: "v", url: root, user: nil, password: nil)) }
    _ = try run(store, try VdirEndpoint(root: root))
    let collection = try #require(try store.syncCollections(remote: 1).first)
    func recordEarlierDigest(of uid: String) throws {
      let stored = try #require(try store.reminder(uid: uid)).reminder
      try store.write {
        try store.setSyncItemLocalDigest(SyncEngine.earlierDigest(stored), uid: uid, collection: collection.rowID)
      }
    }
    try recordEarlierDigest(of: "a@x")
    try recordEarlierDigest(of: "b@x")
    #expect(try run(store, try VdirEndpoint(root: root)).transferredNothing)
    let states = try store.syncItems(collection: collection.rowID)
    for state in states {
      let stored = try #require(try store.reminder(uid: state.uid)).reminder
      #expect(state.localDigest == SyncEngine.digest(stored), "\(state.uid) keeps the earlier digest")
    }

    // The repeat rule changed in the store under the earlier digest: the earlier remconv could not see it.
    let stored = try #require(try store.reminder(uid: "a@x"))
    var changed = stored.reminder
    changed.recurrence = Recurrence(rule: "FREQ=MONTHLY")
    try store.write {
      try store.updateReminder(rowID: stored.rowID, changed, listRowID: stored.listRowID, parentRowID: nil)
    }
    try recordEarlierDigest(of: "a@x")
    let report = try run(store, try VdirEndpoint(root: root))
    #expect(report.uploaded == 1 && report.conflicts.isEmpty, "\(report)")
    #expect(directory.read("vdir/Work/a.ics").contains("RRULE:FREQ=MONTHLY"))
  }

  /// A sync stopped between staging an item and renaming it leaves the staged file; the next
  /// sync removes it, and leaves a running process's own (issue 41, finding 13). A dry run
  /// removes nothing.
  @Test func stagedFilesOfAStoppedSyncAreRemovedByTheNext() throws {
    let directory = TemporaryDirectory()
    let root = directory.file("vdir")
    directory.write("vdir/Work/displayname", "Work")
    directory.write("vdir/Work/a.ics", Self.item(uid: "a@x", summary: "Draft"))
    // A process id that is surely gone: a child that has ended.
    let ended = Process()
    ended.executableURL = URL(fileURLWithPath: "/bin/true")
    try ended.run()
    ended.waitUntilExit()
    let gone = ".remconv-sync-\(ended.processIdentifier)-1.tmp"
    let running = ".remconv-sync-\(getpid())-2.tmp"
    directory.write("vdir/Work/" + gone, "half an item")
    directory.write("vdir/Work/" + running, "another sync's item")
    let store = try Store(path: directory.file("store.sqlite"))
    defer { store.close() }
    try store.write { try store.addRemote(RemoteConfiguration(name: "v", url: root, user: nil, password: nil)) }
    let remote = try #require(try store.read { try store.remote(named: "v") })
    var options = SyncEngine.Options()
    options.dryRun = true
    _ = try SyncEngine(
      store: store, remote: remote, endpoint: try VdirEndpoint(root: root), options: options,
      diagnostics: DiagnosticLog()
    ).run()
    #expect(FileManager.default.fileExists(atPath: root + "/Work/" + gone), "a dry run removed a file")
    _ = try run(store, try VdirEndpoint(root: root))
    #expect(!FileManager.default.fileExists(atPath: root + "/Work/" + gone))
    #expect(FileManager.default.fileExists(atPath: root + "/Work/" + running))
  }

  @Test func fieldsChangedOnOneSideMergeAndTheSameFieldChangedOnBothIsAConflict() {
    let base = Reminder(
      id: "u", listID: "l", title: "Call", notes: "", priority: .none, extra: ["ical": .object(["lines": .array([])])])
    var local = base
    local.notes = "about the lease"
    local.title = "Call Anna"
    local.extra = ["ical": .object(["lines": .array([.string("X-A:1")])])]
    var remote = base
    remote.priority = .high
    remote.title = "Call Bob"
    remote.extra = ["ical": .object(["lines": .array([]), "status": .string("IN-PROCESS")])]
    let outcome = FieldMerge.reminder(remote, basis: .agreed(base, storeChanged: true), stored: local)
    #expect(outcome.conflicts == ["title"])
    #expect(outcome.merged.title == "Call Bob")
    #expect(outcome.merged.notes == "about the lease" && outcome.merged.priority == .high)
    #expect(
      outcome.merged.extra["ical"]
        == .object(["lines": .array([.string("X-A:1")]), "status": .string("IN-PROCESS")]))
    // Without a base every difference is a conflict (the remote's value kept).
    #expect(
      FieldMerge.reminder(remote, basis: .agreed(nil, storeChanged: true), stored: local).conflicts == [
        "title", "notes", "priority", "extra.ical.lines", "extra.ical.status",
      ])
  }
}
