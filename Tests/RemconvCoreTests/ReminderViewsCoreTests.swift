import Foundation
import RemconvCore
import RemconvTestSupport
import Testing

/// The rules under the reminders-app commands: scopes and today, outline filtering, search,
/// colours, short IDs and the editor's rules, without the command line.
@Suite struct ReminderViewsCoreTests {
  static let berlin = TimeZone(identifier: "Europe/Berlin") ?? .current
  static let today = Today(now: Date(timeIntervalSince1970: 1_795_946_400), timeZone: berlin)  // 2026-11-29T10:00:00Z

  static func facts(done: Bool = false, flagged: Bool = false, due: String? = nil, zone: String? = nil) throws
    -> ReminderFacts
  {
    ReminderFacts(isDone: done, flagged: flagged, dueDate: try due.map { try DueDate(isoText: $0, timeZone: zone) })
  }

  @Test func todayIsTheLocalDateOfNow() {
    #expect(Self.today.date.description == "2026-11-29")
    let tokyo = Today(
      now: Date(timeIntervalSince1970: 1_795_946_400 + 14 * 3600),
      timeZone: TimeZone(identifier: "Asia/Tokyo") ?? .current)
    #expect(tokyo.date.description == "2026-11-30")
  }

  @Test(arguments: [
    ("2026-11-29", nil as String?, true),
    ("2026-11-28", nil, false),
    ("2026-11-29T00:00:00", nil, true),
    ("2026-11-29T23:59:59", nil, true),
    ("2026-11-28T23:00:00Z", nil, true),  // 00:00 in Berlin
    ("2026-11-28T22:59:59Z", nil, false),
    ("2026-11-29T22:59:59Z", nil, true),
    ("2026-11-29T23:00:00Z", nil, false),
    ("2026-11-29T17:00:00", "America/New_York", true),  // 23:00 in Berlin
    ("2026-11-29T18:00:00", "America/New_York", false),  // 00:00 on the 30th in Berlin
    ("2026-11-30T07:59:00", "Asia/Tokyo", true),
  ])
  func todayHoldsEveryKindOfDueOnTheLocalDay(due: String, zone: String?, isToday: Bool) throws {
    let facts = try Self.facts(due: due, zone: zone)
    #expect(ReminderScope.today.contains(facts, today: Self.today) == isToday)
    #expect(ReminderScope.scheduled.contains(facts, today: Self.today))
  }

  @Test func theScopesOfOpenAndDoneReminders() throws {
    let open = try Self.facts(flagged: true, due: "2026-11-29")
    let done = try Self.facts(done: true, flagged: true, due: "2026-11-29")
    #expect(
      ReminderScope.allCases.filter { $0.contains(open, today: Self.today) } == [.today, .scheduled, .flagged, .all])
    #expect(ReminderScope.allCases.filter { $0.contains(done, today: Self.today) } == [.completed])
    // A done reminder still meets the conditions a smart list's Completed section shows.
    #expect(
      ReminderScope.allCases.filter { $0.matchesIgnoringCompletion(done, today: Self.today) } == ReminderScope.allCases)
    let plain = try Self.facts()
    #expect(ReminderScope.allCases.filter { $0.contains(plain, today: Self.today) } == [.all])
  }

  @Test func countsFollowTheScopes() throws {
    var counts = ReminderCounts()
    counts.add(try Self.facts(flagged: true, due: "2026-11-29"), inListRow: 1, today: Self.today)
    counts.add(try Self.facts(due: "2026-12-01"), inListRow: 1, today: Self.today)
    counts.add(try Self.facts(done: true, flagged: true), inListRow: 2, today: Self.today)
    counts.add(try Self.facts(), inListRow: 2, today: Self.today)
    #expect(ReminderScope.allCases.map(counts.count) == [1, 2, 1, 3, 1])
    #expect(counts.open(inListRow: 1) == 2)
    #expect(counts.open(inListRow: 2) == 1)
    #expect(counts.open(inListRow: 3) == 0)
  }

  @Test func anOutlineFilterMovesSubtasksUpToTheirNearestKeptAncestor() {
    // a, a.b, a.b.c, a.d, e, e.f: keep a.b.c, a.d, e.f and a.
    let outline: [(depth: Int, kept: Bool)] = [(0, true), (1, false), (2, true), (1, true), (0, false), (1, true)]
    var filter = OutlineFilter()
    #expect(outline.map { filter.visit(depth: $0.depth, kept: $0.kept) } == [0, nil, 1, 1, nil, 0])
    var none = OutlineFilter()
    #expect([(0, false), (1, true), (2, true)].map { none.visit(depth: $0.0, kept: $0.1) } == [nil, 0, 1])
  }

  @Test(arguments: [
    ("forecast", "Include the revised Forecast tab", true),
    ("cafe", "Café", true),
    ("CAFÉ", "cafe au lait", true),
    ("cafe", "Cafe\u{301} (decomposed)", true),
    ("straße", "STRASSE", true),  // full case folding
    ("abc", "ＡＢＣ full width", true),
    ("milk", "Oat mil", false),
  ])
  func searchIgnoresCaseDiacriticsAndWidth(query: String, text: String, matches: Bool) throws {
    let search = try #require(ReminderSearch(query))
    #expect(search.contains(text) == matches)
  }

  @Test func searchReportsWhereItMatched() throws {
    let search = try #require(ReminderSearch("  forecast "))
    #expect(search.query == "forecast")
    let reminder = Reminder(
      id: "1", listID: "L", title: "Send numbers", notes: "Check totals\nInclude the revised Forecast tab")
    #expect(search.matchedFields(reminder) == [.notes])
    #expect(search.matchingLine(in: reminder.notes) == "Include the revised Forecast tab")
    #expect(ReminderSearch(" \n ") == nil)
  }

  @Test(
    arguments: [
      ("red", "#FF3B30"), ("Blue", "#007AFF"), ("#abc", "#AABBCC"), ("#a1b2c3", "#A1B2C3"), ("#A1B2C3FF", "#A1B2C3"),
      ("mauve", nil), ("#12345", nil), ("123456", nil),
    ] as [(String, String?)])
  func listColoursAreHexOrAppleNames(text: String, color: String?) {
    #expect(ListColor.parse(text) == color)
  }

  // MARK: Store and editor

  static func store(in directory: TemporaryDirectory) throws -> Store {
    try Store(path: directory.file("store.sqlite"))
  }

  @Test func uniquePrefixesGrowPastSharedBeginningsCaseInsensitively() throws {
    let directory = TemporaryDirectory()
    let store = try Self.store(in: directory)
    defer { store.close() }
    let list = try store.insertList(ReminderList(id: "L", name: "L"))
    for uid in ["abcd-1", "ABCD-2", "x", "xy", "Q"] {
      try store.insertReminder(Reminder(id: uid, listID: "L", title: uid), listRowID: list, parentRowID: nil)
    }
    let lengths = try store.uniquePrefixLengths(of: ["abcd-1", "ABCD-2", "x", "xy", "Q"])
    #expect(lengths == ["abcd-1": 6, "ABCD-2": 6, "x": 1, "xy": 2, "Q": 1])
  }

  /// Each UID looked up beside its neighbours: at either end of the index (no key before or
  /// none after), beside a row with the same folded UID, as a prefix of another, and past
  /// shared non-ASCII bytes (counted back in characters).
  @Test func uniquePrefixesAtTheEndsOfTheIndexAndBesideTheSameKey() throws {
    let directory = TemporaryDirectory()
    let store = try Self.store(in: directory)
    defer { store.close() }
    let list = try store.insertList(ReminderList(id: "L", name: "L"))
    let uids = ["0", "a", "AB", "dup-a", "DUP-A", "Ünï-1", "Ünï-2", "m"]
    for uid in uids {
      try store.insertReminder(Reminder(id: uid, listID: "L", title: uid), listRowID: list, parentRowID: nil)
    }
    let lengths = try store.uniquePrefixLengths(of: Set(uids))
    #expect(
      lengths == ["0": 1, "a": 1, "AB": 2, "dup-a": 5, "DUP-A": 5, "Ünï-1": 5, "Ünï-2": 5, "m": 1])
  }

  @Test func theEditorKeepsTheAppsRules() throws {
    let directory = TemporaryDirectory()
    let store = try Self.store(in: directory)
    defer { store.close() }
    let editor = ReminderEditor(store: store, now: Date(timeIntervalSince1970: 1_795_946_400))
    let home = try editor.createList(name: " Home ", symbol: "house", color: "#FF9500")
    #expect(home.list.name == "Home")
    #expect(throws: RemconvError.self) { try editor.createList(name: "HOME", symbol: nil, color: nil) }
    #expect(throws: RemconvError.self) { try editor.createList(name: "", symbol: nil, color: nil) }

    var new = ReminderEditor.NewReminder(title: "Water plants")
    new.dueDate = .date(try #require(LocalDate(year: 2026, month: 11, day: 29)))
    let parent = try editor.add(new, listName: "home", parentID: nil)
    let child = try editor.add(
      ReminderEditor.NewReminder(title: "Ferns"), listName: nil, parentID: parent.reminder.reminder.id)
    #expect(child.reminder.parentRowID == parent.reminder.rowID)
    #expect(child.reminder.reminder.createdAt?.description == "2026-11-29T10:00:00Z")
    #expect(throws: RemconvError.self) {
      try editor.add(ReminderEditor.NewReminder(title: "  "), listName: "Home", parentID: nil)
    }

    let done = try editor.setDone(parent.reminder.reminder.id, true)
    #expect(done.changed)
    #expect(done.reminder.reminder.completedAt?.description == "2026-11-29T10:00:00Z")
    #expect(try editor.setDone(parent.reminder.reminder.id, true).changed == false)
    #expect(try editor.setDone(parent.reminder.reminder.id, false).reminder.reminder.completedAt == nil)

    _ = try editor.createList(name: "Garden", symbol: nil, color: nil)
    var move = ReminderEditor.Changes()
    move.listName = "garden"
    let moved = try editor.edit(parent.reminder.reminder.id, move)
    #expect(moved.movedSubtasks == 1)
    #expect(moved.list.name == "Garden")
    #expect(try store.reminder(uid: child.reminder.reminder.id)?.listRowID == moved.reminder.listRowID)

    let deleted = try editor.deleteList("Garden")
    #expect(deleted.count == 2)
    #expect(try store.reminderCount() == 0)
  }

  @Test func resolvingAnIDPrefersAnExactUIDThenAUniquePrefix() throws {
    let directory = TemporaryDirectory()
    let store = try Self.store(in: directory)
    defer { store.close() }
    let list = try store.insertList(ReminderList(id: "L", name: "Inbox"))
    for uid in ["1", "10", "20", "21", "a_b"] {
      try store.insertReminder(Reminder(id: uid, listID: "L", title: "n" + uid), listRowID: list, parentRowID: nil)
    }
    let editor = ReminderEditor(store: store, now: Date())
    #expect(try editor.resolveReminder("1").reminder.id == "1")
    #expect(try editor.resolveReminder("20").reminder.id == "20")
    #expect(try editor.resolveReminder("A_").reminder.id == "a_b")
    // LIKE's wildcards in an ID are plain characters.
    #expect(throws: RemconvError.self) { try editor.resolveReminder("%") }
    #expect(throws: RemconvError.self) { try editor.resolveReminder("a%") }
    #expect(throws: RemconvError.self) { try editor.resolveReminder("3") }
    let ambiguous = #expect(throws: AmbiguousReminderID.self) { try editor.resolveReminder("2") }
    #expect(ambiguous?.candidates.map(\.reminder.id) == ["20", "21"])
    #expect(ambiguous?.candidates.first?.listName == "Inbox")
    #expect(ambiguous?.hasMore == false)
  }
}
