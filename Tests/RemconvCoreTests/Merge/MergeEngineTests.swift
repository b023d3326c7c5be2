import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// The merge engine through the seam alone: every test merges into an `InMemoryRepository`,
/// so what is asserted is the engine's own behaviour, with no SQL underneath.
@Suite struct MergeEngineTests {
  let repository = InMemoryRepository()

  /// Merges `records` in one write, as an import does, and returns its report and warnings.
  @discardableResult
  func merge(
    _ records: [SourceRecord], targetList: String? = nil, knownRecords: KnownRecords? = nil,
    diagnostics: DiagnosticLog = DiagnosticLog(), projection: (any SourceProjection)? = nil,
    identity: MergeEngine.SourceIdentity = .uids
  ) throws -> (report: ImportReport, warnings: [Diagnostic]) {
    let report = try repository.write(commit: true) {
      let options = MergeEngine.Options(
        targetList: targetList, defaultList: "Inbox", projection: projection, identity: identity)
      let engine = try MergeEngine(
        repository: repository, options: options,
        diagnostics: diagnostics, report: ImportReport(source: "test", format: "test"), knownRecords: knownRecords)
      // As `Importer` does: the lookup answers for this engine only while it runs.
      defer { knownRecords?.lookup = nil }
      for record in records { try engine.consume(record) }
      return try engine.finish()
    }
    return (report, diagnostics.entries.filter { $0.severity == .warning })
  }

  static let here = SourceLocation(file: "test", line: 1)

  static func item(
    _ uid: String, in listID: String = "L1", parent: String? = nil, title: String? = nil,
    extra: [String: JSONValue] = [:]
  ) -> SourceRecord {
    .reminder(
      Reminder(id: uid, listID: listID, parentID: parent, title: title ?? "Reminder \(uid)", extra: extra), here)
  }

  static let work = SourceRecord.list(ReminderList(id: "L1", name: "Work"))

  // MARK: Reminders

  @Test func aNewReminderIsAddedToItsList() throws {
    let (report, warnings) = try merge([Self.work, Self.item("R1", title: "Call the plumber")])
    #expect(report.added == 1 && report.listsAdded == 1)
    #expect(warnings.isEmpty)
    let stored = try #require(repository.reminder(uid: "R1"))
    #expect(stored.title == "Call the plumber")
    #expect(stored.listID == "L1")
    #expect(repository.allLists.map(\.name) == ["Work"])
  }

  @Test func theSameReminderAgainIsUnchangedAndWritesNothing() throws {
    try merge([Self.work, Self.item("R1")])
    let writes = repository.writeCount
    let (report, warnings) = try merge([Self.work, Self.item("R1")])
    #expect(report.unchanged == 1 && report.added == 0 && report.updated == 0)
    #expect(report.listsAdded == 0 && report.listsUpdated == 0)
    #expect(warnings.isEmpty)
    #expect(repository.writeCount == writes)
  }

  @Test func aChangedReminderIsUpdatedKeepingWhatAnotherFormatCarried() throws {
    try merge([Self.work, Self.item("R1", title: "Old", extra: ["ical": .object(["X-ALARM": .string("-PT15M")])])])
    let (report, _) = try merge([
      Self.work, Self.item("R1", title: "New", extra: ["taskwarrior": .object(["urgency": .string("3")])]),
    ])
    #expect(report.updated == 1 && report.added == 0)
    let stored = try #require(repository.reminder(uid: "R1"))
    #expect(stored.title == "New")
    #expect(stored.extra["ical"] == .object(["X-ALARM": .string("-PT15M")]))
    #expect(stored.extra["taskwarrior"] == .object(["urgency": .string("3")]))
    #expect(repository.allReminders.count == 1)
  }

  @Test func aUIDTwiceInOneSourceGivesTheSecondAFreshUIDAndKeepsTheOriginal() throws {
    let (report, warnings) = try merge([
      Self.work, Self.item("R1", title: "First"), Self.item("R1", title: "Second"),
    ])
    #expect(report.added == 2)
    #expect(warnings.map(\.code) == ["duplicate-uid"])
    let reminders = repository.allReminders
    #expect(reminders.map(\.title) == ["First", "Second"])
    #expect(reminders[0].id == "R1" && reminders[0].extra["originalId"] == nil)
    #expect(reminders[1].id != "R1")
    #expect(reminders[1].extra["originalId"] == .string("R1"))
  }

  @Test func aFirstMergeLooksUpOnlyTheUIDsItMayHaveWritten() throws {
    let records = [Self.work] + (1...200).map { Self.item("R\($0)") } + [Self.item("R7", title: "Again")]
    let (report, warnings) = try merge(records)
    #expect(report.added == 201)
    #expect(warnings.map(\.code) == ["duplicate-uid"])
    // The duplicate is looked up (and its derived UID); of the 200 new UIDs, at most a stray
    // false "maybe" of the filter.
    #expect(repository.uidLookups >= 2 && repository.uidLookups <= 4)
    #expect(repository.allReminders.last?.extra["originalId"] == .string("R7"))
  }

  /// A first merge finds the parents it added itself (`AddedHandles`) without asking the
  /// repository; a parent that comes later, twice, or never is still found or reported.
  @Test func aFirstMergeFindsTheParentsItAddedWithoutALookUp() throws {
    // Thirty parents, each followed by its ten subtasks, as an outline is exported.
    let outline = (0..<30).flatMap { parent in
      [Self.item("P\(parent)")] + (0..<10).map { Self.item("C\(parent)-\($0)", parent: "P\(parent)") }
    }
    let (report, warnings) = try merge(
      [Self.work] + outline + [Self.item("P3", title: "Again"), Self.item("Late", parent: "P3")])
    #expect(report.added == 332)
    #expect(warnings.map(\.code) == ["duplicate-uid"])
    // Asked for each of the 301 parents before; now only where a later UID took a parent's
    // slot in the table (a few, if any).
    #expect(repository.handleLookups <= 10)
    let all = repository.allReminders
    let parentOf = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0.parentID) })
    #expect((0..<30).allSatisfy { parent in (0..<10).allSatisfy { parentOf["C\(parent)-\($0)"] == "P\(parent)" } })
    // The UID that came twice names the first reminder, which the late subtask joins.
    let late = try #require(try repository.reminderHandle(uid: "Late"))
    let first = try #require(try repository.reminderHandle(uid: "P3"))
    #expect(try repository.parent(of: late) == first)
    #expect(try repository.reminder(first)?.reminder.title == "Reminder P3")
    #expect(all.filter { $0.parentID == "P3" }.count == 11)
  }

  @Test func aFirstMergeStillAttachesLateParentsAndReportsMissingOnes() throws {
    let (report, warnings) = try merge([
      Self.work, Self.item("C1", parent: "P1"), Self.item("C2", parent: "Nowhere"), Self.item("P1"),
    ])
    #expect(report.added == 3)
    #expect(warnings.map(\.code) == ["missing-parent"])
    let all = Dictionary(uniqueKeysWithValues: repository.allReminders.map { ($0.id, $0) })
    #expect(all["C1"]?.parentID == "P1")
    #expect(all["C2"]?.parentID == nil && all["C2"]?.extra["missingParent"] == .string("Nowhere"))
    // "Nowhere" was never written: the filter of written UIDs answers for it at once; P1 was
    // added before `finish()` asked for it.
    #expect(repository.handleLookups == 0)
  }

  @Test func theHandlesAddedAnswerOnlyForTheUIDTheyHold() {
    var added = AddedHandles()
    let handles = (0..<10_000).map { ReminderHandle(Int64($0 + 1)) }
    for (index, handle) in handles.enumerated() { added.note(handle, uid: "U\(index)") }
    let answered = (0..<10_000).filter { added.handle(uid: "U\($0)") != nil }
    #expect(answered.allSatisfy { added.handle(uid: "U\($0)") == handles[$0] })
    #expect(answered.count > 1000 && answered.contains(9_999))
    #expect((10_000..<20_000).allSatisfy { added.handle(uid: "U\($0)") == nil })
  }

  @Test func aMergeIntoARepositoryWithRemindersLooksUpEveryUID() throws {
    try merge([Self.work, Self.item("R1")])
    let before = repository.uidLookups
    let (report, _) = try merge([Self.work, Self.item("R1", title: "Changed"), Self.item("R2"), Self.item("R3")])
    #expect(report.updated == 1 && report.added == 2)
    #expect(repository.uidLookups - before == 3)
  }

  @Test func theUIDFilterHoldsEveryUIDInsertedAndFewOthers() {
    var filter = UIDFilter()
    let inserted = (0..<5000).map { "BENCH-\($0)" }
    for uid in inserted { filter.insert(uid) }
    #expect(inserted.allSatisfy(filter.mayContain))
    let strays = (5000..<10000).filter { filter.mayContain("BENCH-\($0)") }.count
    #expect(strays < 50)
    #expect(!UIDFilter().mayContain("BENCH-1"))
  }

  /// The columns spelled without building JSON values are the texts `JSONText` writes.
  @Test(arguments: [[], [""], ["errands"], ["a\"b", "c\\d", "tab\there", "naïve 🌿", "\u{1}"]])
  func reminderColumnsSpellTagsAlarmsAndExtraAsJSONTextDoes(tags: [String]) {
    var reminder = Reminder(id: "R1", listID: "L1", title: "T", tags: tags)
    var columns = ReminderColumns(reminder)
    #expect(columns.tags == JSONText.encode(.array(tags.map(JSONValue.string))))
    #expect(columns.alarms == JSONText.encode(ScheduleJSON.value([Alarm]())))
    #expect(columns.extra == JSONText.encode(.object([:])))
    reminder.extra = ["csv": .object(["b": .string("2"), "a": .string("1")])]
    columns = ReminderColumns(reminder)
    #expect(columns.extra == JSONText.encode(.object(reminder.extra)))
  }

  @Test func aUIDTwiceInOneSourceGetsTheSameDerivedUIDOnEveryImport() throws {
    let records = [Self.work, Self.item("R1", title: "First"), Self.item("R1", title: "Second")]
    try merge(records)
    let derived = try #require(repository.allReminders.last?.id)
    let (report, _) = try merge(records)
    #expect(report.added == 0 && report.unchanged == 2)
    #expect(repository.allReminders.map(\.id) == ["R1", derived])
  }

  // MARK: What the source carries (issue 21)

  /// A source that carries no flag and no list colour, and no `extra` but its own key.
  final class FlaglessProjection: SourceProjection {
    func reminder(_ stored: Reminder, in list: ReminderList) throws -> Reminder? {
      var projected = stored
      projected.flagged = false
      projected.extra = stored.extra.filter { $0.key == "app" }
      return projected
    }

    func list(_ stored: ReminderList) throws -> ReminderList? {
      var projected = stored
      projected.color = nil
      return projected
    }
  }

  @Test func whatTheSourceCannotCarryStaysAndOnlyWhatItChangedIsWritten() throws {
    try merge([
      .list(ReminderList(id: "L1", name: "Work", color: "#FF0000")),
      .reminder(
        Reminder(id: "R1", listID: "L1", title: "Plan", flagged: true, extra: ["ical": .string("kept")]), Self.here),
    ])
    let source: [SourceRecord] = [
      .list(ReminderList(id: "L1", name: "Work")),
      .reminder(Reminder(id: "R1", listID: "L1", title: "Plan"), Self.here),
    ]
    let (same, _) = try merge(source, projection: FlaglessProjection())
    #expect(same.unchanged == 1 && same.updated == 0 && same.listsUpdated == 0)
    #expect(same.fieldChanges.isEmpty)
    var noted = Reminder(id: "R1", listID: "L1", title: "Plan", notes: "agenda")
    noted.extra["app"] = .string("new")
    let (changed, _) = try merge([source[0], .reminder(noted, Self.here)], projection: FlaglessProjection())
    #expect(changed.updated == 1 && changed.fieldChanges == ["notes": 1, "extra.app": 1])
    let stored = try #require(repository.reminder(uid: "R1"))
    #expect(
      stored.flagged && stored.notes == "agenda" && stored.extra == ["ical": .string("kept"), "app": .string("new")])
    #expect(repository.allLists.first?.color == "#FF0000")
  }

  @Test func aSourceWithoutUIDsFindsTheStoredRemindersByListParentTitleAndDue() throws {
    try merge([Self.work, Self.item("R1", title: "Plan"), Self.item("R2", parent: "R1", title: "Book")])
    let (report, _) = try merge(
      [Self.work, Self.item("D1", title: "Plan"), Self.item("D2", parent: "D1", title: "Book"), Self.item("D3")],
      identity: .derivedWhenAbsent)
    #expect(report.added == 1 && report.unchanged == 2 && report.updated == 0)
    #expect(repository.allReminders.map(\.id) == ["R1", "R2", "D3"])
    #expect(repository.reminder(uid: "R2")?.parentID == "R1")
  }

  /// Into an empty repository, a source without UIDs has nothing of its own to match: the
  /// first merge reads no list by title (each such read visits the whole list), the second
  /// finds every reminder it wrote.
  @Test func aFirstMergeOfASourceWithoutUIDsLooksNoTitleUp() throws {
    let (first, _) = try merge(
      [
        Self.work, Self.item("D1", title: "Plan"), Self.item("D2", parent: "D1", title: "Book"),
        Self.item("D3", title: "Plan"),
      ],
      identity: .derivedWhenAbsent)
    #expect(first.added == 3 && repository.titleLookups == 0)
    // The same items under other derived UIDs, as a source that lost them would give them.
    let (second, _) = try merge(
      [Self.work, Self.item("E1", title: "Plan"), Self.item("E2", parent: "E1", title: "Book")],
      identity: .derivedWhenAbsent)
    #expect(second.added == 0 && second.unchanged == 2 && repository.titleLookups == 2)
    #expect(repository.allReminders.map(\.id) == ["D1", "D2", "D3"])
  }

  @Test func aUIDTwiceInASecondImportUpdatesOnceThenGetsAFreshUID() throws {
    try merge([Self.work, Self.item("R1", title: "Stored")])
    let (report, warnings) = try merge([
      Self.work, Self.item("R1", title: "Changed"), Self.item("R1", title: "Again"),
    ])
    #expect(report.updated == 1 && report.added == 1)
    #expect(warnings.map(\.code) == ["duplicate-uid"])
    #expect(repository.reminder(uid: "R1")?.title == "Changed")
    #expect(repository.allReminders.last?.extra["originalId"] == .string("R1"))
  }

  // MARK: Subtasks

  @Test func aSubtaskWhoseParentComesLaterIsAttachedAtTheEnd() throws {
    let (report, warnings) = try merge([Self.work, Self.item("CHILD", parent: "PARENT"), Self.item("PARENT")])
    #expect(report.added == 2)
    #expect(warnings.isEmpty)
    #expect(repository.reminder(uid: "CHILD")?.parentID == "PARENT")
    #expect(repository.reminder(uid: "PARENT")?.parentID == nil)
  }

  @Test func aSubtaskWhoseParentNeverComesStaysTopLevelWithItsParentKept() throws {
    let (_, warnings) = try merge([Self.work, Self.item("CHILD", parent: "GONE")])
    #expect(warnings.map(\.code) == ["missing-parent"])
    let child = try #require(repository.reminder(uid: "CHILD"))
    #expect(child.parentID == nil)
    #expect(child.extra["missingParent"] == .string("GONE"))
  }

  @Test func aParentThatWouldMakeACycleIsRefused() throws {
    try merge([Self.work, Self.item("A"), Self.item("B", parent: "A")])
    let (_, warnings) = try merge([Self.work, Self.item("A", parent: "B"), Self.item("B", parent: "A")])
    #expect(warnings.map(\.code) == ["parent-cycle"])
    let a = try #require(repository.reminder(uid: "A"))
    #expect(a.parentID == nil)
    #expect(a.extra["brokenParent"] == .string("B"))
    #expect(repository.reminder(uid: "B")?.parentID == "A")
  }

  @Test func aReminderThatNamesItselfAsParentStaysTopLevel() throws {
    let (_, warnings) = try merge([Self.work, Self.item("A", parent: "A")])
    #expect(warnings.map(\.code) == ["self-parent"])
    #expect(repository.reminder(uid: "A")?.parentID == nil)
  }

  // MARK: Lists

  @Test func aListIsFoundByItsUIDAndRenamed() throws {
    try merge([Self.work, Self.item("R1")])
    let (report, _) = try merge([.list(ReminderList(id: "L1", name: "Office")), Self.item("R1")])
    #expect(report.listsUpdated == 1 && report.listsAdded == 0 && report.unchanged == 1)
    #expect(repository.allLists.map(\.name) == ["Office"])
  }

  /// Issue 21: a list of another UID with the name of a stored one is that list, restored
  /// from the source (a backup into a store whose lists came from elsewhere); its UID was the
  /// stored list's and is kept as an alias, so either UID finds the list.
  @Test func aListWithTheNameKeyOfAnotherTakesItsUIDAndValuesAndKeepsTheOldUIDAsAnAlias() throws {
    try merge([Self.work, Self.item("R1")])
    let (report, warnings) = try merge([
      .list(ReminderList(id: "L2", name: "  WORK ", color: "#FF0000")), Self.item("R2", in: "L2"),
    ])
    #expect(report.listsAdded == 0 && report.listsUpdated == 1 && report.added == 1)
    #expect(report.fieldChanges == ["list.id": 1, "list.color": 1, "list.name": 1])
    #expect(warnings.map(\.code) == ["list-matched-by-name"])
    let lists = repository.allLists
    #expect(lists.count == 1)
    let work = try #require(lists.first)
    #expect(work.id == "L2" && work.name == "WORK" && work.color == "#FF0000")
    #expect(work.extra["mergedLists"] == .array([.object(["id": .string("L1"), "name": .string("Work")])]))
    #expect(repository.reminder(uid: "R1")?.listID == "L2" && repository.reminder(uid: "R2")?.listID == "L2")
    // The same file again, and the first one naming the old UID, find the list and say nothing.
    let (again, quiet) = try merge([
      .list(ReminderList(id: "L2", name: "  WORK ", color: "#FF0000")), Self.item("R2", in: "L2"),
    ])
    #expect(again.listsUpdated == 0 && again.unchanged == 1)
    #expect(quiet.isEmpty)
    let (old, alias) = try merge([.list(ReminderList(id: "L1", name: "WORK", color: "#FF0000")), Self.item("R1")])
    #expect(old.listsUpdated == 0 && old.listsAdded == 0 && old.unchanged == 1)
    #expect(alias.isEmpty)
  }

  /// A list is sought by a former UID only once one may hold it: not while no list had any, and
  /// again as soon as a list the merge wrote has one (adopted, or carried by the source).
  @Test func formerListUIDsAreSoughtOnlyOnceAListHoldsOne() throws {
    try merge([Self.work, Self.item("R1"), .list(ReminderList(id: "L3", name: "Home")), Self.item("R3", in: "L3")])
    #expect(repository.aliasLookups == 0)
    // L2 takes the stored Work's place and keeps L1 as an alias, which a later record names.
    let (adopted, _) = try merge([
      .list(ReminderList(id: "L2", name: "WORK")), Self.item("R2", in: "L2"),
      .list(ReminderList(id: "L1", name: "Work")), Self.item("R4", in: "L1"),
    ])
    #expect(repository.aliasLookups == 1)
    #expect(adopted.listsAdded == 0 && repository.allLists.map(\.id) == ["L2", "L3"])
    #expect(repository.reminder(uid: "R4")?.listID == "L2")
  }

  /// A list that comes with former UIDs of its own, in a merge into a repository without any,
  /// is found by them later in the same merge.
  @Test func aListCarryingFormerUIDsIsFoundByThemInTheSameMerge() throws {
    let carried = ReminderList(
      id: "N1", name: "Errands", extra: ["mergedLists": .array([.object(["id": .string("OLD")])])])
    let (report, _) = try merge([
      .list(ReminderList(id: "N0", name: "Inbox")), .list(carried), .list(ReminderList(id: "OLD", name: "Errands")),
      Self.item("E1", in: "OLD"),
    ])
    #expect(repository.aliasLookups == 1)
    #expect(report.listsAdded == 2 && repository.reminder(uid: "E1")?.listID == "N1")
  }

  @Test func aReminderInAListTheSourceNeverNamedGoesToTheDefaultList() throws {
    let (_, warnings) = try merge([Self.item("R1", in: "NOWHERE")])
    #expect(warnings.map(\.code) == ["unknown-list"])
    #expect(repository.allLists.map(\.name) == ["Inbox"])
    #expect(repository.reminder(uid: "R1")?.listID == repository.allLists.first?.id)
  }

  @Test func targetListTakesEveryReminder() throws {
    let (report, warnings) = try merge([Self.work, Self.item("R1"), Self.item("R2", in: "")], targetList: "Chores")
    #expect(report.added == 2 && report.listsAdded == 1)
    #expect(warnings.isEmpty)
    #expect(repository.allLists.map(\.name) == ["Chores"])
  }

  // MARK: Record digests

  /// Tells `knownRecords` of a clean decode of `uid`'s record, as the import stage does.
  func noteDigest(_ value: UInt64, for uid: String, in knownRecords: KnownRecords) {
    knownRecords.note(RecordDigest(high: value, low: value), forUID: uid)
  }

  @Test func aCleanMergeKeepsTheRecordDigestAndAWarningDoesNot() throws {
    let known = KnownRecords()
    let diagnostics = DiagnosticLog()
    noteDigest(1, for: "CLEAN", in: known)
    noteDigest(2, for: "BLANK", in: known)
    try merge(
      [Self.work, Self.item("CLEAN"), Self.item("BLANK", title: " ")], knownRecords: known, diagnostics: diagnostics)
    #expect(repository.sourceDigest(uid: "CLEAN") != nil)
    #expect(repository.sourceDigest(uid: "BLANK") == nil)
  }

  @Test func aReminderWaitingForItsParentKeepsNoDigest() throws {
    let known = KnownRecords()
    let diagnostics = DiagnosticLog()
    noteDigest(3, for: "CHILD", in: known)
    try merge(
      [Self.work, Self.item("CHILD", parent: "PARENT"), Self.item("PARENT")], knownRecords: known,
      diagnostics: diagnostics)
    #expect(repository.sourceDigest(uid: "CHILD") == nil)
  }

  @Test func aStoredDigestLetsTheReaderSkipTheRecordOnce() throws {
    let first = KnownRecords()
    let diagnostics = DiagnosticLog()
    noteDigest(4, for: "R1", in: first)
    try merge([Self.work, Self.item("R1")], knownRecords: first, diagnostics: diagnostics)
    let again = KnownRecords()
    try repository.write(commit: true) {
      let engine = try MergeEngine(
        repository: repository, options: MergeEngine.Options(defaultList: "Inbox"), diagnostics: DiagnosticLog(),
        report: ImportReport(source: "test", format: "test"), knownRecords: again)
      defer { again.lookup = nil }
      let digest = RecordDigest(high: 4, low: 4)
      #expect(try again.holdsUnchanged(digest))
      // A second record with the same digest is decoded: it is the duplicate it is.
      #expect(try !again.holdsUnchanged(digest))
      // The lookup holds the engine unowned: it must live until the questions are asked.
      withExtendedLifetime(engine) {}
    }
  }

  // MARK: Transactions

  @Test func aDryRunLeavesTheRepositoryAsItWas() throws {
    try merge([Self.work, Self.item("R1")])
    try repository.write(commit: false) {
      let engine = try MergeEngine(
        repository: repository, options: MergeEngine.Options(defaultList: "Inbox"), diagnostics: DiagnosticLog(),
        report: ImportReport(source: "test", format: "test"))
      try engine.consume(Self.item("R2"))
      _ = try engine.finish()
    }
    #expect(repository.allReminders.map(\.id) == ["R1"])
  }
}
