/// One step of a view as it is shown, in order: what a terminal prints as it comes.
public enum ViewEvent {
  /// A section's heading, before its rows (`.none` for a list view's only section).
  case heading(ViewSection.Heading)
  /// A member of the view.
  case member(ViewLine)
  /// A row of the Completed section (after every member).
  case completed(ViewLine)
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

  init(_ row: ViewRow) {
    self.init(reminder: ViewReminder(row.reminder, rowID: row.rowID), list: row.list, depth: row.depth)
  }
}

/// A view streamed: the same rows, in the same order, as `ReminderView` holds, handed out as
/// SQLite finds them and read with only the columns a view shows (`ViewReminder`).
///
/// The members and the Completed section's rows are read in one query in list order (a
/// second query for the Completed section would read every candidate again). A list's members
/// are held until the next list starts, to be placed in its outline (`ReminderOutline`) and
/// sorted, so the members are held one list at a time; the Completed section's rows, which
/// come after every member, are held until the members are out. Grouping by day orders the
/// members of every list by day, so a grouped view is made whole (`ReminderView`) before it is
/// handed out.
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

  /// The view made whole (`--json`, whose header counts the rows before them).
  public func whole() throws -> ReminderView {
    try ReminderView(subject: view.subject, lists: { lists }, store: store, today: today, options: view.options)
  }

  /// Calls `body` with each heading and row of the view, in the order it shows them, inside
  /// one read transaction. A view across every list is read with the store memory-mapped: it
  /// may read pages all over the file, each otherwise copied through a system call. One list's
  /// rows are a few pages, which a map would cost more to set up and tear down than it saves.
  public func run(_ body: (ViewEvent) throws -> Void) throws {
    if case .list = view.subject { return try read(body) }
    try store.withMemoryMap(mebibytes: 4096) { try read(body) }
  }

  private func read(_ body: (ViewEvent) throws -> Void) throws {
    try store.read {
      if view.options.groupByDay {
        try replay(
          ReminderView(subject: view.subject, lists: { lists }, store: store, today: today, options: view.options),
          body)
        return
      }
      let listsByRow = Dictionary(lists.map { ($0.rowID, $0) }, uniquingKeysWith: { first, _ in first })
      var query = view.candidates
      if lists.count == 1 { query.listRowID = lists[0].rowID }
      var members: [ViewReminder] = []
      var membersList: Int64?
      var completed: [(listRowID: Int64, rows: [ViewReminder])] = []
      func flushMembers() throws {
        guard let listRowID = membersList, let list = listsByRow[listRowID], !members.isEmpty else { return }
        if case .list = view.subject {} else { try body(.heading(.list(list.list))) }
        for line in try placed(members, in: list, completedSection: false) { try body(.member(line)) }
        members.removeAll(keepingCapacity: true)
      }
      let withNotes: Bool
      if case .search = view.subject { withNotes = true } else { withNotes = false }
      try store.forEachViewReminder(query, withNotes: withNotes) { reminder in
        if view.isMember(reminder.facts, title: reminder.title, notes: reminder.notes) {
          if membersList != reminder.listRowID {
            try flushMembers()
            members.removeAll(keepingCapacity: true)
            membersList = reminder.listRowID
          }
          members.append(reminder)
        } else if view.isCompletedMember(reminder.facts, title: reminder.title, notes: reminder.notes) {
          if completed.last?.listRowID != reminder.listRowID { completed.append((reminder.listRowID, [])) }
          completed[completed.count - 1].rows.append(reminder)
        }
      }
      try flushMembers()
      for (listRowID, rows) in completed {
        guard let list = listsByRow[listRowID] else { continue }
        for line in try placed(rows, in: list, completedSection: true) { try body(.completed(line)) }
      }
    }
  }

  /// One list's kept reminders in its outline, sorted; a list whose subtasks form a cycle is
  /// placed by the full walk, as `ReminderView` does.
  private func placed(_ reminders: [ViewReminder], in list: StoredList, completedSection: Bool) throws -> [ViewLine] {
    var outline = ReminderOutline(store: store, listRowID: list.rowID)
    if let placed = try outline.place(reminders, rowID: { $0.rowID ?? 0 }, parentRowID: { $0.parentRowID }) {
      return view.sortedOutline(placed.map { ViewLine(reminder: $0.item, list: list.list, depth: $0.depth) })
    }
    var lines: [ViewLine] = []
    var filter = OutlineFilter()
    try store.forEachReminder(inListRow: list.rowID) { reminder, depth in
      let kept = completedSection ? view.isCompletedMember(reminder) : view.isMember(reminder)
      if let depth = filter.visit(depth: depth, kept: kept) {
        lines.append(ViewLine(reminder: ViewReminder(reminder, rowID: nil), list: list.list, depth: depth))
      }
    }
    return view.sortedOutline(lines)
  }

  /// A view made whole, handed out as a stream would hand it out.
  private func replay(_ whole: ReminderView, _ body: (ViewEvent) throws -> Void) throws {
    for section in whole.sections {
      try body(.heading(section.heading))
      for row in section.rows {
        try body(.member(ViewLine(row)))
      }
    }
    for row in whole.completed {
      try body(.completed(ViewLine(row)))
    }
  }
}
