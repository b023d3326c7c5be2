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
/// The members of each list are read in one query in list order; a list's members are held
/// until the next list starts, to be placed in its outline (`ReminderOutline`) and sorted,
/// so a view holds one list at a time. The Completed section is a second query after the
/// members. Grouping by day orders the members of every list by day, so a grouped view is
/// made whole (`ReminderView`) before it is handed out.
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
  /// one read transaction.
  public func run(_ body: (ViewEvent) throws -> Void) throws {
    try store.read {
      if view.options.groupByDay {
        try replay(
          ReminderView(subject: view.subject, lists: { lists }, store: store, today: today, options: view.options),
          body)
        return
      }
      let listsByRow = Dictionary(lists.map { ($0.rowID, $0) }, uniquingKeysWith: { first, _ in first })
      var members = view.candidates
      if case .scope(.completed) = view.subject {
        members.completion = .done
      } else {
        members.completion = .open
      }
      if lists.count == 1 { members.listRowID = lists[0].rowID }
      try stream(members, lists: listsByRow, completedSection: false) {
        try body(.member($0))
      } heading: { list in
        if case .list = view.subject { return }
        try body(.heading(.list(list)))
      }
      guard view.options.includeCompleted, !isCompletedScope else { return }
      var completed = members
      completed.completion = .done
      try stream(completed, lists: listsByRow, completedSection: true) {
        try body(.completed($0))
      } heading: { _ in
      }
    }
  }

  private var isCompletedScope: Bool {
    if case .scope(.completed) = view.subject { return true }
    return false
  }

  /// Reads `candidates`, keeps the members (of the Completed section when `completedSection`),
  /// and hands them out list by list in each list's outline and the view's order; `heading` is
  /// called before a list's first row.
  private func stream(
    _ candidates: ReminderCandidates, lists: [Int64: StoredList], completedSection: Bool,
    _ row: (ViewLine) throws -> Void, heading: (ReminderList) throws -> Void
  ) throws {
    var held: [ViewReminder] = []
    var heldList: Int64?
    func flush() throws {
      guard let listRowID = heldList, let list = lists[listRowID], !held.isEmpty else { return }
      try heading(list.list)
      for line in try placed(held, in: list, completedSection: completedSection) { try row(line) }
      held.removeAll(keepingCapacity: true)
    }
    let withNotes: Bool
    if case .search = view.subject { withNotes = true } else { withNotes = false }
    try store.forEachViewReminder(candidates, withNotes: withNotes) { reminder in
      let kept =
        completedSection
        ? view.isCompletedMember(reminder.facts, title: reminder.title, notes: reminder.notes)
        : view.isMember(reminder.facts, title: reminder.title, notes: reminder.notes)
      guard kept else { return }
      if heldList != reminder.listRowID {
        try flush()
        held.removeAll(keepingCapacity: true)
        heldList = reminder.listRowID
      }
      held.append(reminder)
    }
    try flush()
  }

  /// One list's kept reminders in its outline, sorted; a list whose subtasks form a cycle is
  /// placed by the full walk, as `ReminderView` does.
  private func placed(_ reminders: [ViewReminder], in list: StoredList, completedSection: Bool) throws -> [ViewLine] {
    var outline = ReminderOutline(store: store, listRowID: list.rowID)
    if let placed = try outline.place(reminders, rowID: \.rowID!, parentRowID: \.parentRowID) {
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
