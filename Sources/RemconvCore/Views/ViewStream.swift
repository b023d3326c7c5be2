/// One step of a view as it is shown, in order: what a terminal prints as it comes. `Line` is
/// a row as the reader asked for it: `ViewLine` (the columns a view shows) or `ViewRow` (the
/// whole reminder, for `--json`).
public enum ViewEvent<Line> {
  /// A section's heading, before its rows (`.none` for a list view's only section).
  case heading(ViewSection.Heading)
  /// A member of the view.
  case member(Line)
  /// A row of the Completed section (after every member).
  case completed(Line)
}

/// A reminder as a view shows it, with its list and its depth among the reminders shown.
public struct ViewLine: Sendable, ViewOrdered {
  public let reminder: ViewReminder
  public let list: ReminderList
  public let depth: Int

  var priority: Priority { reminder.priority }
  var dueDate: DueDate? { reminder.dueDate }

  init(reminder: ViewReminder, list: ReminderList, depth: Int) {
    self.reminder = reminder
    self.list = list
    self.depth = depth
  }
}

/// A reminder a view streams, as its store query reads it: what the rule, the outline and the
/// order look at, and how it becomes a shown row.
protocol StreamedReminder {
  associatedtype Line: ViewOrdered
  var listRowID: Int64 { get }
  var placedRowID: Int64 { get }
  var uid: String { get }
  /// Whether the title holds a search's query, where the view has looked (see `ViewReminder`).
  var titleHoldsQuery: Bool? { get set }
  /// The short ID's length, where the view has looked it up (see `ViewReminder`).
  var shortIDLength: Int? { get set }
  var parentRowID: Int64? { get }
  var facts: ReminderFacts { get }
  var title: String { get }
  var notes: String { get }
  /// Calls `body` with each candidate in list row order, then row order, handing each over to
  /// be held without a copy.
  static func forEach(
    _ candidates: ReminderCandidates, search: Bool, in store: Store, _ body: (consuming Self) throws -> Void
  ) throws
  func line(list: ReminderList, depth: Int) -> Line
  /// A row of a list read by the full walk (a list whose subtasks form a cycle).
  static func walkedLine(_ reminder: Reminder, list: ReminderList, depth: Int) -> Line
  /// A row of a view made whole (grouped by day).
  static func line(_ row: ViewRow) -> Line
}

extension ViewReminder: StreamedReminder {
  var placedRowID: Int64 { rowID ?? 0 }

  static func forEach(
    _ candidates: ReminderCandidates, search: Bool, in store: Store, _ body: (consuming Self) throws -> Void
  ) throws {
    try store.forEachViewReminder(candidates, withNotes: search, body)
  }

  func line(list: ReminderList, depth: Int) -> ViewLine { ViewLine(reminder: self, list: list, depth: depth) }

  static func walkedLine(_ reminder: Reminder, list: ReminderList, depth: Int) -> ViewLine {
    ViewLine(reminder: ViewReminder(reminder, rowID: nil), list: list, depth: depth)
  }

  static func line(_ row: ViewRow) -> ViewLine {
    ViewLine(reminder: ViewReminder(row.reminder, rowID: row.rowID), list: row.list, depth: row.depth)
  }
}

extension StoredReminder: StreamedReminder {
  var placedRowID: Int64 { rowID }
  var uid: String { reminder.id }
  // Not kept: a whole reminder is shown as `--json`, which shows neither.
  var titleHoldsQuery: Bool? {
    get { nil }
    set {}
  }
  var shortIDLength: Int? {
    get { nil }
    set {}
  }
  var facts: ReminderFacts { reminder.facts }
  var title: String { reminder.title }
  var notes: String { reminder.notes }

  static func forEach(
    _ candidates: ReminderCandidates, search: Bool, in store: Store, _ body: (consuming Self) throws -> Void
  ) throws {
    try store.forEachCandidate(candidates, body)
  }

  func line(list: ReminderList, depth: Int) -> ViewRow {
    ViewRow(reminder: reminder, list: list, depth: depth, rowID: rowID)
  }

  static func walkedLine(_ reminder: Reminder, list: ReminderList, depth: Int) -> ViewRow {
    ViewRow(reminder: reminder, list: list, depth: depth)
  }

  static func line(_ row: ViewRow) -> ViewRow { row }
}

/// A view streamed: the same rows, in the same order, as `ReminderView` holds, handed out as
/// SQLite finds them.
///
/// In the manual order a list none of whose reminders is a subtask is handed out row by row
/// as it is read (its rows are in outline order already, at depth 0). Another list's members
/// are held until the next list starts, to be placed in its outline (`ReminderOutline`) and
/// sorted, so members are held one list at a time. Grouping by day orders the members of every
/// list by day, so a grouped view is made whole (`ReminderView`) before it is handed out.
public struct ViewStream {
  let view: ReminderView
  let lists: [StoredList]
  let store: Store

  /// The view of one list.
  public init(list: StoredList, store: Store, today: Today, options: ViewOptions = ViewOptions()) {
    self.init(subject: .list(list.list), lists: [list], store: store, today: today, options: options)
  }

  /// A smart list across every list.
  public init(scope: ReminderScope, store: Store, today: Today, options: ViewOptions = ViewOptions()) throws {
    try self.init(subject: .scope(scope), lists: store.lists(), store: store, today: today, options: options)
  }

  /// The reminders whose title or notes contain a search's query, across every list.
  public init(search: ReminderSearch, store: Store, today: Today, options: ViewOptions = ViewOptions()) throws {
    try self.init(subject: .search(search), lists: store.lists(), store: store, today: today, options: options)
  }

  init(subject: ReminderView.Subject, lists: [StoredList], store: Store, today: Today, options: ViewOptions) {
    view = ReminderView(subject: subject, today: today, options: options)
    self.lists = lists
    self.store = store
  }

  public var subject: ReminderView.Subject { view.subject }
  public var today: Today { view.today }

  /// Calls `body` with each heading and row of the view, in the order it shows them, read
  /// with only the columns a view shows (`ViewReminder`: no tags, timestamps or `extra`
  /// decoded), inside one read transaction. The short IDs of a list's rows, held to be placed
  /// in its outline, are looked up together in `shortIDs` before they are handed out.
  ///
  /// The members and the Completed section's rows are read in one query in list order (a
  /// second query would read every candidate again); the Completed section's rows, which come
  /// after every member, are held until the members are out. A view across every list is read
  /// with the store memory-mapped: it may read pages all over the file, each otherwise copied
  /// through a system call. One list's rows are a few pages, which a map would cost more to
  /// set up and tear down than it saves.
  public func run(shortIDs: UIDPrefixLengths? = nil, _ body: (ViewEvent<ViewLine>) throws -> Void) throws {
    if case .list = view.subject {
      return try store.read { try read(ViewReminder.self, completedQuery: false, shortIDs: shortIDs, body) }
    }
    try store.withMemoryMap(mebibytes: 4096) {
      try store.read { try read(ViewReminder.self, completedQuery: false, shortIDs: shortIDs, body) }
    }
  }

  /// Calls `body` with each heading and whole reminder of the view (`--json`), in the order it
  /// shows them, inside one read transaction. The Completed section is read by a query of its
  /// own after the members, so that no more than one list's rows are held (none in a list
  /// without subtasks, in the manual order) however big the store; the store is not mapped, so
  /// the process reads it through SQLite's bounded page cache.
  public func runWhole(_ body: (ViewEvent<ViewRow>) throws -> Void) throws {
    try store.read { try read(StoredReminder.self, completedQuery: true, shortIDs: nil, body) }
  }

  // Inlined into `run` and `runWhole`, so that each reads its own row type without generic
  // metadata and value-witness calls per row.
  @inline(__always)
  private func read<Item: StreamedReminder>(
    _: Item.Type, completedQuery: Bool, shortIDs: UIDPrefixLengths?, _ body: (ViewEvent<Item.Line>) throws -> Void
  ) throws {
    if view.options.groupByDay {
      return try replay(
        ReminderView(subject: view.subject, lists: { lists }, store: store, today: today, options: view.options),
        Item.self, body)
    }
    let listsByRow = Dictionary(lists.map { ($0.rowID, $0) }, uniquingKeysWith: { first, _ in first })
    // In the manual order, a list without subtasks has its rows in outline order already:
    // asked of each list as it starts when rows are held whole (one query a list).
    let placesAsRead = completedQuery && view.options.sort == .manual
    let isListView: Bool
    if case .list = view.subject { isListView = true } else { isListView = false }
    var query = view.candidates
    if lists.count == 1 { query.listRowID = lists[0].rowID }
    if completedQuery { query.completion = view.memberCompletion }
    var search = false
    if case .search = view.subject { search = true }
    // A smart list other than Today shows the rows SQLite finds for it, which SQLite counts
    // from the index of the state columns: one past the short IDs' lookup limit has the UID
    // index read before its first row, not after a sixteenth of the store looked up one by one.
    if let shortIDs, case .scope(let scope) = view.subject, scope != .today {
      try shortIDs.expect(rows: store.countCandidates(query))
    }

    var held: [Item] = []
    var heldList: StoredList?
    // Compared for every row read, so that the list itself is not copied to be compared.
    var heldListRowID: Int64?
    var heldIsPlaced = false
    // The outline of the list last placed, kept for its Completed section.
    var outline: ReminderOutline?
    var completed: [(listRowID: Int64, rows: [Item])] = []
    func flush(completedSection: Bool) throws {
      guard let list = heldList, !held.isEmpty else { return }
      if outline?.listRowID != list.rowID { outline = ReminderOutline(store: store, listRowID: list.rowID) }
      if let shortIDs, held.contains(where: { $0.shortIDLength == nil }) {
        // With the list's rows of the Completed section, read already (shown later): its
        // members and those are neighbours in the index as often as not.
        var none: [Item] = []
        if !completedSection, let last = completed.indices.last, completed[last].listRowID == list.rowID {
          try Self.setShortIDs(&held, &completed[last].rows, in: shortIDs)
        } else {
          try Self.setShortIDs(&held, &none, in: shortIDs)
        }
      }
      try forEachPlaced(held, in: list, completedSection: completedSection, outline: &outline!) {
        (line: consuming Item.Line) in
        if completedSection { try body(.completed(line)) } else { try body(.member(line)) }
      }
      held.removeAll(keepingCapacity: true)
    }
    /// Starts the rows of `listRowID`; false when the list is not one of the view's.
    func start(_ listRowID: Int64, completedSection: Bool) throws -> Bool {
      if heldListRowID == listRowID { return true }
      try flush(completedSection: completedSection)
      guard let list = listsByRow[listRowID] else {
        heldList = nil
        heldListRowID = nil
        return false
      }
      heldList = list
      heldListRowID = listRowID
      heldIsPlaced = try placesAsRead && !store.hasSubtasks(inListRow: listRowID)
      if !completedSection, !isListView { try body(.heading(.list(list.list))) }
      return true
    }
    func add(_ item: consuming Item, completedSection: Bool) throws {
      guard try start(item.listRowID, completedSection: completedSection) else { return }
      // The list is copied only for a row handed out as it is read.
      if heldIsPlaced, let list = heldList {
        let line = item.line(list: list.list, depth: 0)
        try body(completedSection ? .completed(line) : .member(line))
      } else {
        held.append(item)
      }
    }

    try Item.forEach(query, search: search, in: store) { (item: consuming Item) in
      let facts = item.facts
      // A search's text is looked at once a row (every row it reads is one its sections ask
      // about: its candidates are open unless it shows the Completed section), and where the
      // query was found kept with the row: a row shows its matching line of notes when its
      // title does not hold the query.
      var textMatches = true
      if case .search(let query) = view.subject {
        let inTitle = query.contains(item.title)
        item.titleHoldsQuery = inTitle
        textMatches = inTitle || query.contains(item.notes)
      }
      if view.isMember(facts, textMatches: { textMatches }) {
        try add(item, completedSection: false)
      } else if !completedQuery, view.isCompletedMember(facts, textMatches: { textMatches }) {
        if completed.last?.listRowID != item.listRowID { completed.append((item.listRowID, [])) }
        completed[completed.count - 1].rows.append(item)
      }
    }
    try flush(completedSection: false)
    heldList = nil
    heldListRowID = nil
    if completedQuery {
      guard view.options.includeCompleted, view.memberCompletion != .done else { return }
      query.completion = .done
      try Item.forEach(query, search: search, in: store) { item in
        guard view.isCompletedMember(item.facts, title: item.title, notes: item.notes) else { return }
        try add(item, completedSection: true)
      }
      try flush(completedSection: true)
      return
    }
    for (listRowID, rows) in completed {
      guard try start(listRowID, completedSection: true) else { continue }
      if heldIsPlaced {
        for item in rows { try body(.completed(item.line(list: heldList!.list, depth: 0))) }
      } else {
        held = rows
        try flush(completedSection: true)
      }
    }
  }

  /// Looks up the short IDs of `rows` and `more` together, and sets them.
  @inline(__always)
  private static func setShortIDs<Item: StreamedReminder>(
    _ rows: inout [Item], _ more: inout [Item], in shortIDs: UIDPrefixLengths
  ) throws {
    let lengths = try shortIDs.lengths(
      ofUIDs: rows.map(\.uid) + more.map(\.uid), rowIDs: rows.map(\.placedRowID) + more.map(\.placedRowID))
    for index in rows.indices { rows[index].shortIDLength = lengths[index] }
    for index in more.indices { more[index].shortIDLength = lengths[rows.count + index] }
  }

  /// Calls `body` with one list's kept reminders in its outline, sorted; a list whose subtasks
  /// form a cycle is placed by the full walk, as `ReminderView` does. In the manual order the
  /// outline is the order shown, so each row is made as it is handed out and none is held twice.
  @inline(__always)
  private func forEachPlaced<Item: StreamedReminder>(
    _ reminders: [Item], in list: StoredList, completedSection: Bool, outline: inout ReminderOutline,
    _ body: (consuming Item.Line) throws -> Void
  ) throws {
    if let placed = try outline.place(
      count: reminders.count, rowID: { reminders[$0].placedRowID }, parentRowID: { reminders[$0].parentRowID })
    {
      if view.options.sort == .manual {
        for (node, depth) in placed { try body(reminders[node].line(list: list.list, depth: depth)) }
      } else {
        for line in view.sortedOutline(placed.map { reminders[$0.node].line(list: list.list, depth: $0.depth) }) {
          try body(line)
        }
      }
      return
    }
    var lines: [Item.Line] = []
    var filter = OutlineFilter()
    try store.forEachReminder(inListRow: list.rowID) { reminder, depth in
      let kept = completedSection ? view.isCompletedMember(reminder) : view.isMember(reminder)
      if let depth = filter.visit(depth: depth, kept: kept) {
        lines.append(Item.walkedLine(reminder, list: list.list, depth: depth))
      }
    }
    for line in view.sortedOutline(lines) { try body(line) }
  }

  /// A view made whole, handed out as a stream would hand it out.
  private func replay<Item: StreamedReminder>(
    _ whole: ReminderView, _: Item.Type, _ body: (ViewEvent<Item.Line>) throws -> Void
  ) throws {
    for section in whole.sections {
      try body(.heading(section.heading))
      for row in section.rows {
        try body(.member(Item.line(row)))
      }
    }
    for row in whole.completed {
      try body(.completed(Item.line(row)))
    }
  }
}
