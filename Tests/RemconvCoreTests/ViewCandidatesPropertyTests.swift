import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// Views, counts, searches and short IDs answered from SQLite's candidates (issue 26) agree
/// with the rules applied to every reminder, on random stores: every due kind in zones from
/// -12:00 to +14:00, "today" in several zones around midnight, subtasks (some in another list,
/// some whose parent is gone), accents, composed and decomposed text, full-width letters, ß.
@Suite struct ViewCandidatesPropertyTests {
  /// SplitMix64: the same seed makes the same store.
  struct Generator {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state &+= 0x9E37_79B9_7F4A_7C15
      var value = state
      value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
      value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
      return Int((value ^ (value >> 31)) % UInt64(bound))
    }
    mutating func pick<T>(_ items: [T]) -> T { items[next(items.count)] }
  }

  static let zones = [
    "Pacific/Kiritimati", "Etc/GMT+12", "Pacific/Pago_Pago", "Asia/Tokyo", "America/New_York", "Europe/Berlin",
    "Australia/Lord_Howe", "Asia/Kathmandu", "UTC",
  ]
  static let fragments = [
    "Straße", "strasse", "STRASSE", "straße", "Café", "cafe", "Cafe\u{301}", "CAFÉ", "ＡＢＣ", "abc", "ﬁsh", "fish",
    "naïve", "naive", "Ωmega", "ωmega", "İstanbul", "ß", "ss", "e", "é", "ｶﾀｶﾅ", "カタカナ", "Tōkyō", "🌿", " ", "\n",
    "plants", "Überweisung", "ǅ", "dž",
  ]
  static let queries = [
    "strasse", "STRASSE", "straße", "Straße", "cafe", "café", "Cafe\u{301}", "abc", "ＡＢＣ", "fish", "fi", "s", "ss",
    "e", "naive", "ω", "OMEGA", "istanbul", "tokyo", "カタカナ", "🌿", "plants\nx", "uberweisung", "dž", "z",
  ]
  /// 2026-11-29 and the days around it.
  static let baseDay = LocalDate(daysSinceEpoch: 20_786)

  static func text(_ generator: inout Generator, parts: Int) -> String {
    (0..<generator.next(parts + 1)).map { _ in generator.pick(fragments) }.joined()
  }

  static func due(_ generator: inout Generator) -> DueDate? {
    let day = LocalDate(daysSinceEpoch: baseDay.daysSinceEpoch + generator.next(9) - 4)
    let hour = generator.next(24)
    guard
      let time = LocalDateTime(
        date: day, hour: hour, minute: generator.pick([0, 30, 45, 59]), second: generator.pick([0, 59]))
    else { return nil }
    switch generator.next(5) {
    case 0: return nil
    case 1: return .date(day)
    case 2: return .floating(time)
    case 3: return .utc(time)
    default: return .zoned(time, timeZone: generator.pick(zones))
    }
  }

  /// A store of `seed`'s reminders, in up to four lists.
  static func makeStore(seed: UInt64, in directory: TemporaryDirectory) throws -> Store {
    var generator = Generator(state: seed)
    let store = try Store(path: directory.file("store-\(seed).sqlite"))
    var lists: [(rowID: Int64, uid: String)] = []
    for index in 0...generator.next(4) {
      let uid = "L\(index)"
      lists.append((try store.insertList(ReminderList(id: uid, name: "List \(index)")), uid))
    }
    var rows: [(rowID: Int64, list: Int)] = []
    try store.write {
      for index in 0..<(20 + generator.next(120)) {
        let list = generator.next(lists.count)
        // UIDs that share long beginnings, in both cases, so that short IDs must grow.
        let uid = generator.pick(["ab", "AB", "abc", "x", "X9"]) + String(generator.next(40)) + "-\(index)"
        var parent: Int64?
        if !rows.isEmpty, generator.next(3) == 0 {
          let candidate = rows[generator.next(rows.count)]
          // Mostly a parent in the same list; some in another one, which makes a root here.
          if candidate.list == list || generator.next(4) == 0 { parent = candidate.rowID }
        }
        let reminder = Reminder(
          id: uid, listID: lists[list].uid, title: text(&generator, parts: 3), notes: text(&generator, parts: 4),
          isDone: generator.next(3) == 0, flagged: generator.next(4) == 0, dueDate: due(&generator))
        let rowID = try store.insertReminder(reminder, listRowID: lists[list].rowID, parentRowID: parent)
        rows.append((rowID, list))
      }
      // A parent that is gone: its subtasks become roots.
      if let doomed = rows.first(where: { _ in generator.next(5) == 0 }) {
        _ = try store.deleteReminder(rowID: doomed.rowID)
      }
    }
    return store
  }

  /// Days from two before to two after the store's dues, each in a zone at either end of the
  /// offsets and one in between.
  static let todays: [Today] = [-6, -1, 0, 1, 5].flatMap { offset in
    ["Pacific/Kiritimati", "Etc/GMT+12", "Europe/Berlin"].map { zone in
      Today(
        date: LocalDate(daysSinceEpoch: baseDay.daysSinceEpoch + offset), timeZone: TimeZone(identifier: zone) ?? .gmt)
    }
  }

  static let optionSets: [ViewOptions] = {
    var plain = ViewOptions()
    var open = ViewOptions()
    open.includeCompleted = false
    var byDue = ViewOptions()
    byDue.sort = .due
    var grouped = ViewOptions()
    grouped.groupByDay = true
    grouped.sort = .priority
    return [plain, open, byDue, grouped]
  }()

  /// What a view shows: headings, and each row's UID and depth.
  static func shown(_ view: ReminderView) -> [String] {
    view.sections.flatMap { section in
      ["\(section.heading)"] + section.rows.map { "\($0.reminder.id)@\($0.depth)" }
    } + ["Completed"] + view.completed.map { "\($0.reminder.id)@\($0.depth)" }
  }

  /// What a view shows with what each row shows of its reminder, as `ViewReminder` reads it.
  static func shownInFull(_ view: ReminderView) -> [String] {
    view.sections.flatMap { section in
      ["\(section.heading)"] + section.rows.map { line(ViewReminder($0.reminder, rowID: nil), depth: $0.depth) }
    } + ["Completed"] + view.completed.map { line(ViewReminder($0.reminder, rowID: nil), depth: $0.depth) }
  }

  static func line(_ reminder: ViewReminder, depth: Int) -> String {
    [
      "\(reminder.uid)@\(depth)", reminder.title, "\(reminder.isDone)", "\(reminder.flagged)",
      "\(reminder.dueDate.map { "\($0)" } ?? "-")", "\(reminder.priority)",
    ].joined(separator: "|")
  }

  /// The same from a streamed view, in the order its events come (a list view's one
  /// section has no heading event: it stands for `.none`). Every row the stream held in its
  /// list (read by the list's query, in the manual order) comes with its short ID, looked up
  /// with the list's others, the one each UID looked up alone has; and a search's row with
  /// whether its title holds the query, as the search tells.
  static func shown(_ stream: ViewStream, options: ViewOptions) throws -> [String] {
    let store = stream.store
    let highest = try store.database.scalar("SELECT max(id) FROM reminders")
    guard case .integer(let highestRowID) = highest else { return try shown(stream, options: options, ids: nil) }
    // No limit: every list's rows are looked up together, none answered by reading the index.
    let ids = UIDPrefixLengths(store: store, lookupLimit: .max, highestRowID: highestRowID)
    return try shown(stream, options: options, ids: ids)
  }

  static func shown(_ stream: ViewStream, options: ViewOptions, ids: UIDPrefixLengths?) throws -> [String] {
    let held = !options.groupByDay
    let run = { (body: (ViewEvent<ViewLine>) throws -> Void) throws in try stream.run(shortIDs: ids, body) }
    return try shown(run, subject: stream.subject, options: options) { shown in
      let reminder = shown.reminder
      if ids != nil, held, reminder.rowID != nil {
        let alone = try? stream.store.uniquePrefixLengths(of: [reminder.uid])[reminder.uid]
        #expect(reminder.shortIDLength != nil && reminder.shortIDLength == alone, "short ID of \(reminder.uid)")
      }
      if case .search(let search) = stream.subject, held, reminder.rowID != nil {
        #expect(reminder.titleHoldsQuery == search.contains(reminder.title), "\(reminder.title)")
      }
      return line(reminder, depth: shown.depth)
    }
  }

  /// One entry of what a view shows whole (`--json`): a heading, or a row's whole reminder and
  /// its depth, compared as values (a description would order `extra`'s keys by hash).
  enum WholeEntry: Equatable {
    case heading(String)
    case row(Reminder, depth: Int)
  }

  /// What a view shows of its whole reminders (`--json`): headings, and each row's reminder
  /// and depth.
  static func shownWhole(_ view: ReminderView) -> [WholeEntry] {
    view.sections.flatMap { section in
      [.heading("\(section.heading)")] + section.rows.map { .row($0.reminder, depth: $0.depth) }
    } + [.heading("Completed")] + view.completed.map { .row($0.reminder, depth: $0.depth) }
  }

  /// The same from a view streamed whole (`ViewStream.runWhole`).
  static func shownWhole(_ stream: ViewStream, options: ViewOptions) throws -> [WholeEntry] {
    try shown(
      stream.runWhole, subject: stream.subject, options: options, heading: { .heading($0) },
      describe: { .row($0.reminder, depth: $0.depth) })
  }

  static func shown<Line>(
    _ run: ((ViewEvent<Line>) throws -> Void) throws -> Void, subject: ReminderView.Subject, options: ViewOptions,
    describe: @escaping (Line) -> String
  ) throws -> [String] {
    try shown(run, subject: subject, options: options, heading: { $0 }, describe: describe)
  }

  static func shown<Line, Entry>(
    _ run: ((ViewEvent<Line>) throws -> Void) throws -> Void, subject: ReminderView.Subject, options: ViewOptions,
    heading: @escaping (String) -> Entry, describe: @escaping (Line) -> Entry
  ) throws -> [Entry] {
    var shown: [Entry] = []
    if case .list = subject, !options.groupByDay { shown.append(heading("\(ViewSection.Heading.none)")) }
    var completedStarted = false
    try run { event in
      switch event {
      case .heading(let title): shown.append(heading("\(title)"))
      case .member(let row): shown.append(describe(row))
      case .completed(let row):
        if !completedStarted { shown.append(heading("Completed")) }
        completedStarted = true
        shown.append(describe(row))
      }
    }
    if !completedStarted { shown.append(heading("Completed")) }
    return shown
  }

  /// A view made from SQLite's candidates, and made by applying the rule to every reminder;
  /// the first also streamed, which must show the same rows with the same columns.
  static func bothWays(
    _ subject: ReminderView.Subject, lists: @escaping () throws -> [StoredList], store: Store, today: Today,
    options: ViewOptions
  ) throws -> (candidates: [String], every: [String]) {
    let fromCandidates = try ReminderView(
      subject: subject, lists: lists, store: store, today: today, options: options, evaluation: .candidates)
    let fromEvery = try ReminderView(
      subject: subject, lists: lists, store: store, today: today, options: options, evaluation: .readingEvery)
    let streamed = ViewStream(subject: subject, lists: try lists(), store: store, today: today, options: options)
    #expect(try shown(streamed, options: options) == shownInFull(fromEvery), "streamed \(subject)")
    // `--json` wrote the view collected from the candidates before it was streamed.
    #expect(try shownWhole(streamed, options: options) == shownWhole(fromCandidates), "streamed whole \(subject)")
    return (shown(fromCandidates), shown(fromEvery))
  }

  @Test(arguments: 1...12 as ClosedRange<UInt64>)
  func scopeAndListViewsMatchTheRuleOnEveryReminder(seed: UInt64) throws {
    let directory = TemporaryDirectory()
    let store = try Self.makeStore(seed: seed, in: directory)
    defer { store.close() }
    let lists = try store.lists()
    for today in Self.todays {
      for options in Self.optionSets {
        for scope in ReminderScope.allCases {
          let result = try Self.bothWays(
            .scope(scope), lists: store.lists, store: store, today: today, options: options)
          #expect(result.candidates == result.every, "seed \(seed), \(scope), \(today)")
        }
      }
    }
    for list in lists {
      for options in Self.optionSets {
        let result = try Self.bothWays(
          .list(list.list), lists: { [list] }, store: store, today: Self.todays[2], options: options)
        #expect(result.candidates == result.every, "seed \(seed), list \(list.list.name)")
      }
    }
  }

  /// A smart list other than Today counts its candidates before its first row, and one past
  /// the short IDs' lookup limit has the UID index read at once: the count is the number of
  /// rows the view's query reads, and the view shows the same rows, each with the short ID its
  /// UID has alone, at the store's own limit and at a limit every count passes.
  @Test(arguments: 1...6 as ClosedRange<UInt64>)
  func smartListsPastTheLookupLimitShowTheSameRowsAndShortIDs(seed: UInt64) throws {
    let directory = TemporaryDirectory()
    let store = try Self.makeStore(seed: seed, in: directory)
    defer { store.close() }
    guard case .integer(let highestRowID) = try store.database.scalar("SELECT max(id) FROM reminders") else {
      Issue.record("seed \(seed): an empty store")
      return
    }
    for today in [Self.todays[2], Self.todays[4]] {
      for options in Self.optionSets.prefix(2) {
        for scope in ReminderScope.allCases {
          let stream = try ViewStream(scope: scope, store: store, today: today, options: options)
          var candidates = stream.view.candidates
          var read = 0
          try store.forEachViewReminder(candidates, withNotes: false) { _ in read += 1 }
          #expect(try store.countCandidates(candidates) == read, "seed \(seed), \(scope)")
          candidates.completion = .done
          read = 0
          try store.forEachViewReminder(candidates, withNotes: false) { _ in read += 1 }
          #expect(try store.countCandidates(candidates) == read, "seed \(seed), \(scope), done")
          let unlimited = try Self.shown(stream, options: options)
          for ids in [
            try store.uidPrefixLengths(), UIDPrefixLengths(store: store, lookupLimit: 0, highestRowID: highestRowID),
          ] {
            #expect(try Self.shown(stream, options: options, ids: ids) == unlimited, "seed \(seed), \(scope)")
          }
        }
      }
    }
  }

  /// Outlines a store's inserts do not make: parents after their subtasks in row order,
  /// chains through rows the view does not show, reminders that are their own parent, and
  /// cycles (which send a list to the full walk). The streamed and collected views place
  /// them as the full walk of every list does.
  @Test(arguments: 1...12 as ClosedRange<UInt64>)
  func reorderedAndCyclicOutlinesMatchTheRuleOnEveryReminder(seed: UInt64) throws {
    let directory = TemporaryDirectory()
    let store = try Self.makeStore(seed: seed, in: directory)
    defer { store.close() }
    var generator = Generator(state: seed ^ 0x5EED)
    let lists = try store.lists()
    for list in lists {
      var rows: [Int64] = []
      try store.forEachViewReminder(
        ReminderCandidates(.scope(.all, Self.todays[0]), completion: .either, listRowID: list.rowID), withNotes: false
      ) { rows.append($0.rowID ?? 0) }
      guard rows.count > 2 else { continue }
      try store.write {
        for (index, row) in rows.enumerated() {
          switch generator.next(8) {
          case 0 where index + 1 < rows.count:
            // A parent later in row order.
            try store.setParent(ofReminderRow: row, to: rows[index + 1 + generator.next(rows.count - index - 1)])
          case 1: try store.setParent(ofReminderRow: row, to: row)
          default: break
          }
        }
        // Sometimes a cycle of two.
        if generator.next(3) == 0 {
          try store.setParent(ofReminderRow: rows[0], to: rows[1])
          try store.setParent(ofReminderRow: rows[1], to: rows[0])
        }
      }
    }
    for list in lists {
      for options in Self.optionSets {
        let result = try Self.bothWays(
          .list(list.list), lists: { [list] }, store: store, today: Self.todays[2], options: options)
        #expect(result.candidates == result.every, "seed \(seed), list \(list.list.name)")
      }
    }
    for scope in [ReminderScope.all, .today, .flagged] {
      for options in Self.optionSets.prefix(2) {
        let result = try Self.bothWays(
          .scope(scope), lists: store.lists, store: store, today: Self.todays[2], options: options)
        #expect(result.candidates == result.every, "seed \(seed), \(scope)")
      }
    }
  }

  @Test(arguments: 1...12 as ClosedRange<UInt64>)
  func searchesMatchTheRuleOnEveryReminder(seed: UInt64) throws {
    let directory = TemporaryDirectory()
    let store = try Self.makeStore(seed: seed, in: directory)
    defer { store.close() }
    var found = 0
    for query in Self.queries {
      let search = try #require(ReminderSearch(query))
      for options in Self.optionSets.prefix(2) {
        let result = try Self.bothWays(
          .search(search), lists: store.lists, store: store, today: Self.todays[2], options: options)
        #expect(result.candidates == result.every, "seed \(seed), query \(query)")
        found += result.every.count
      }
    }
    #expect(found > 0)
  }

  @Test(arguments: 1...12 as ClosedRange<UInt64>)
  func countsMatchTheRuleOnEveryReminder(seed: UInt64) throws {
    let directory = TemporaryDirectory()
    let store = try Self.makeStore(seed: seed, in: directory)
    defer { store.close() }
    let lists = try store.lists()
    for today in Self.todays {
      var expected = ReminderCounts()
      try store.forEachReminderFacts { listRowID, facts in expected.add(facts, inListRow: listRowID, today: today) }
      let counts = try ReminderCounts(store: store, today: today)
      #expect(ReminderScope.allCases.map(counts.count) == ReminderScope.allCases.map(expected.count), "\(today)")
      #expect(lists.map { counts.open(inListRow: $0.rowID) } == lists.map { expected.open(inListRow: $0.rowID) })
    }
  }

  /// Rows as older versions or hand edits leave them: a done state or flag stored as another
  /// integer, a real or a text (read as their integer, as `Row.bool` does), and due dates a
  /// repair set to texts that do not parse, or to zoned times (the repair recomputes the
  /// derived columns).
  @Test(arguments: 1...6 as ClosedRange<UInt64>)
  func oddStoredValuesAgreeToo(seed: UInt64) throws {
    let directory = TemporaryDirectory()
    let store = try Self.makeStore(seed: seed, in: directory)
    defer { store.close() }
    var generator = Generator(state: seed &* 31)
    let odd: [SQLValue] = [.integer(2), .integer(-1), .text("x"), .text("1 done"), .real(0.5), .real(1.5)]
    for list in try store.lists() {
      var rowIDs: [Int64] = []
      try store.forEachCandidate(
        ReminderCandidates(.scope(.all, Self.todays[0]), completion: .either, listRowID: list.rowID)
      ) {
        rowIDs.append($0.rowID)
      }
      for rowID in rowIDs where generator.next(3) == 0 {
        try store.database.run(
          "UPDATE reminders SET is_done = ?, flagged = ? WHERE id = ?",
          [generator.pick(odd), generator.pick(odd), .integer(rowID)])
        let due: [(ReminderRepairColumn, SQLValue)] = generator.pick([
          [(.due, .text("2026-02-30"))], [(.due, .text("tomorrow"))],
          [(.due, .text("2026-11-29T23:30:00")), (.dueTimeZone, .text("Pacific/Kiritimati"))],
          [(.due, .text("2026-11-28T01:00:00")), (.dueTimeZone, .text("Etc/GMT+12"))],
          // Read from their bytes: a blob, bytes that are not UTF-8, a zone on a date, a zone
          // unknown or not UTF-8, an empty zone.
          [(.due, .blob(Array("2026-11-29".utf8)))], [(.due, .blob([0x32, 0x30, 0xC3]))],
          [(.due, .text("2026-11-29")), (.dueTimeZone, .text("Asia/Tokyo"))],
          [(.due, .text("2026-11-29T10:00:00")), (.dueTimeZone, .text("Mars/Olympus"))],
          [(.due, .text("2026-11-29T10:00:00")), (.dueTimeZone, .blob([0x45, 0xFF, 0x2F]))],
          [(.due, .text("2026-11-29T10:00:00")), (.dueTimeZone, .text(""))],
          [(.due, .text("2026-11-29T10:00:00Z")), (.dueTimeZone, .text("UTC"))],
        ])
        try store.updateReminderRow(rowID, due)
      }
    }
    for today in Self.todays {
      for scope in ReminderScope.allCases {
        // With and without the Completed section: the open and the done conditions both.
        for options in Self.optionSets.prefix(2) {
          let result = try Self.bothWays(
            .scope(scope), lists: store.lists, store: store, today: today, options: options)
          #expect(result.candidates == result.every, "seed \(seed), \(scope), \(today)")
        }
      }
      var expected = ReminderCounts()
      try store.forEachReminderFacts { listRowID, facts in expected.add(facts, inListRow: listRowID, today: today) }
      let counts = try ReminderCounts(store: store, today: today)
      #expect(ReminderScope.allCases.map(counts.count) == ReminderScope.allCases.map(expected.count), "\(today)")
    }
  }

  /// The short IDs as they were computed before 0008: every UID read in folded order, each
  /// compared with its neighbours.
  static func uniquePrefixLengthsReadingEvery(_ all: [String], of uids: Set<String>) -> [String: Int] {
    let keys = all.map(Store.asciiUppercased).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    var result: [String: Int] = [:]
    for uid in uids {
      let key = Array(Store.asciiUppercased(uid).utf8)
      var common = 0
      var seenSelf = false
      for other in keys.map({ Array($0.utf8) }) {
        if other == key, !seenSelf {
          seenSelf = true
          continue
        }
        var shared = 0
        while shared < key.count, shared < other.count, key[shared] == other[shared] { shared += 1 }
        common = max(common, shared)
      }
      result[uid] = Store.characterCount(ofPrefixCovering: common + 1, in: uid)
    }
    return result
  }

  /// UIDs made in sequence, in families of three as the benchmark's are, among others that
  /// share nothing with them, looked up row by row in the order a list view shows them and
  /// shuffled: each lookup reads the index from as many bytes as the one before shared, keeps
  /// the keys it read and answers later keys from them; a bound too short or too long for the
  /// next key falls back to two seeks. Every length is the one reading every UID gives.
  @Test func shortIDsOfSequentialUIDsLookedUpRowByRow() throws {
    let directory = TemporaryDirectory()
    let store = try Store(path: directory.file("sequential.sqlite"))
    defer { store.close() }
    let list = try store.insertList(ReminderList(id: "L", name: "L"))
    var uids: [String] = []
    for family in 0..<150 {
      for member in 0..<3 { uids.append("SEQ-" + String(100_000_000 + family * 500 + member).dropFirst()) }
      if family % 13 == 0 { uids.append("zz-\(family)-other") }
      if family % 17 == 0 { uids.append("seq-\(family)") }
    }
    var rows: [(rowID: Int64, uid: String)] = []
    try store.write {
      for uid in uids {
        let reminder = Reminder(id: uid, listID: "L", title: uid)
        rows.append((try store.insertReminder(reminder, listRowID: list, parentRowID: nil), uid))
      }
    }
    let expected = Self.uniquePrefixLengthsReadingEvery(uids, of: Set(uids))
    #expect(expected["SEQ-00000501"] == 12)
    let lengths = UIDPrefixLengths(store: store, lookupLimit: rows.count, highestRowID: Int64(rows.count))
    var generator = Generator(state: 7)
    var shuffled = rows
    for index in shuffled.indices.reversed() { shuffled.swapAt(index, generator.next(index + 1)) }
    for row in rows + shuffled {
      #expect(try lengths.length(of: row.uid, rowID: row.rowID) == expected[row.uid], "\(row.uid)")
    }
  }

  @Test(arguments: 1...12 as ClosedRange<UInt64>)
  func shortIDsAndPrefixLookupsMatchReadingEveryUID(seed: UInt64) throws {
    let directory = TemporaryDirectory()
    let store = try Self.makeStore(seed: seed, in: directory)
    defer { store.close() }
    var all: [String] = []
    for list in try store.lists() {
      try store.forEachReminder(inListRow: list.rowID) { reminder, _ in all.append(reminder.id) }
    }
    let uids = Set(all)
    let expected = Self.uniquePrefixLengthsReadingEvery(all, of: uids)
    // Both ways the store finds them: each UID's neighbours looked up, and (as a streamed view
    // asks, row by row) looked up until a limit, then every UID read in order.
    #expect(try store.uniquePrefixLengths(of: uids) == expected)
    var rows: [(rowID: Int64, uid: String)] = []
    try store.forEachViewReminder(
      ReminderCandidates(.scope(.all, Self.todays[0]), completion: .either), withNotes: false
    ) { rows.append(($0.rowID ?? -1, $0.uid)) }
    #expect(rows.count == all.count)
    for lookupLimit in [0, rows.count / 2, rows.count] {
      let lengths = UIDPrefixLengths(store: store, lookupLimit: lookupLimit, highestRowID: Int64(rows.count))
      for row in rows {
        #expect(try lengths.length(of: row.uid, rowID: row.rowID) == expected[row.uid], "\(row.uid), \(lookupLimit)")
      }
      #expect(try lengths.length(of: rows[0].uid, rowID: nil) == expected[rows[0].uid])
    }
    // Row by row in another order too (UIDs near each other looked up one after another,
    // answered from the keys read around the one before).
    let byKey = rows.sorted { Store.asciiUppercased($0.uid) < Store.asciiUppercased($1.uid) }
    let lengths = UIDPrefixLengths(store: store, lookupLimit: rows.count, highestRowID: Int64(rows.count))
    for row in byKey + byKey.reversed() {
      #expect(try lengths.length(of: row.uid, rowID: row.rowID) == expected[row.uid], "\(row.uid) in key order")
    }
    for uid in uids {
      let length = try #require(try store.uniquePrefixLengths(of: [uid])[uid])
      for prefix in [String(uid.prefix(length)), String(uid.prefix(length)).lowercased(), String(uid.prefix(1))] {
        let expected = all.filter { Store.asciiUppercased($0).hasPrefix(Store.asciiUppercased(prefix)) }.sorted()
        let found = try store.reminders(uidPrefix: prefix, limit: 1000).map(\.reminder.id).sorted()
        #expect(found == expected, "prefix \(prefix)")
      }
    }
  }

  /// Random families of UIDs (made in sequence, in both cases, sharing long beginnings, some
  /// not ASCII) looked up in random batches, as a view looks up a list's rows: in the order of
  /// their folded keys, each length the one reading every UID gives, with the lookups' limit
  /// below, within and above the batches (past it the whole index is read at once).
  @Test(arguments: 1...8 as ClosedRange<UInt64>)
  func shortIDsLookedUpTogetherMatchReadingEveryUID(seed: UInt64) throws {
    var generator = Generator(state: seed &* 0x9E37)
    let directory = TemporaryDirectory()
    let store = try Store(path: directory.file("families-\(seed).sqlite"))
    defer { store.close() }
    let list = try store.insertList(ReminderList(id: "L", name: "L"))
    var rows: [(rowID: Int64, uid: String)] = []
    var seen: Set<String> = []
    try store.write {
      for index in 0..<(40 + generator.next(160)) {
        let family = generator.pick(["SEQ-", "seq-", "Seq-0", "x", "X", "é-", "ÉTÉ-", "abc", "ABCD", "🌿", ""])
        let number = generator.next(4) == 0 ? generator.next(1_000_000) : 1000 + index / 3 * 500 + index % 3
        let uid = family + String(number) + (generator.next(6) == 0 ? "-\(generator.next(20))" : "")
        guard seen.insert(uid).inserted else { continue }
        let rowID = try store.insertReminder(
          Reminder(id: uid, listID: "L", title: uid), listRowID: list, parentRowID: nil)
        rows.append((rowID, uid))
      }
    }
    let expected = Self.uniquePrefixLengthsReadingEvery(rows.map(\.uid), of: seen)
    for limit in [0, rows.count / 3, rows.count] {
      let lengths = UIDPrefixLengths(store: store, lookupLimit: limit, highestRowID: rows.last?.rowID ?? 0)
      var remaining = rows
      for index in remaining.indices.reversed() where generator.next(2) == 0 {
        remaining.swapAt(index, generator.next(index + 1))
      }
      while !remaining.isEmpty {
        let batch = remaining.prefix(1 + generator.next(30))
        remaining.removeFirst(batch.count)
        let found = try lengths.lengths(ofUIDs: batch.map(\.uid), rowIDs: batch.map(\.rowID))
        #expect(found == batch.map { expected[$0.uid] ?? -1 }, "seed \(seed), limit \(limit)")
      }
    }
  }

  /// The order a batch of UIDs is looked up in is the order of SQLite's index of folded UIDs
  /// (bytes compared unsigned, a key before the longer ones it begins), sorted or not.
  @Test func foldedUIDsComeInTheIndexOrder() throws {
    var generator = Generator(state: 26)
    let directory = TemporaryDirectory()
    let store = try Store(path: directory.file("order.sqlite"))
    defer { store.close() }
    let list = try store.insertList(ReminderList(id: "L", name: "L"))
    var uids: [String] = []
    for _ in 0..<300 {
      let uid = (0..<generator.next(6)).map { _ in generator.pick(["a", "A", "b", "é", "É", "~", "0", "ab", "🌿"]) }
      uids.append(uid.joined())
    }
    try store.write {
      for uid in uids {
        _ = try store.insertReminder(Reminder(id: uid, listID: "L", title: "t"), listRowID: list, parentRowID: nil)
      }
    }
    let indexOrder = try store.database.rows("SELECT upper(uid) FROM reminders ORDER BY upper(uid)").map {
      $0.string(0) ?? ""
    }
    let keys = FoldedUIDs(uids)
    let order = keys.keyOrder()
    #expect(order.sorted() == Array(uids.indices))
    #expect(order.map { Store.asciiUppercased(uids[$0]) } == indexOrder)
    // Already in order: kept as they come.
    let sorted = order.map { uids[$0] }
    #expect(FoldedUIDs(sorted).keyOrder() == Array(sorted.indices))
  }

  /// The shared-prefix count compared eight bytes a step agrees with counting byte by byte,
  /// for every length around the word boundaries and a difference at every position.
  @Test func sharedBytesAgreesWithByteByByteCount() {
    for length in 0...25 {
      let left = (0..<length).map { UInt8(0x41 + $0 % 26) }
      for otherLength in 0...25 {
        for differing in -1..<otherLength {
          var right = (0..<otherLength).map { UInt8(0x41 + $0 % 26) }
          if differing >= 0 { right[differing] ^= 0x20 }
          let expected = zip(left, right).prefix { $0 == $1 }.count
          let counted = left.withUnsafeBufferPointer { leftBytes in
            right.withUnsafeBufferPointer { Store.sharedBytes(leftBytes, $0) }
          }
          #expect(counted == expected, "\(length) bytes against \(otherLength), differing at \(differing)")
        }
      }
    }
  }
}
