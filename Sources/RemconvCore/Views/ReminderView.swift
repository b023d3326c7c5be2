import Foundation

/// One reminder in a view, with its list and its depth among the reminders the view shows.
public struct ViewRow: Sendable {
  public let reminder: Reminder
  public let list: ReminderList
  public let depth: Int
  /// The reminder's row, where the view read it (not in a list read by the full walk).
  var rowID: Int64? = nil
}

/// What a view's order looks at in a row: its depth in the outline, its priority, its due date.
protocol ViewOrdered {
  var depth: Int { get }
  var priority: Priority { get }
  var dueDate: DueDate? { get }
}

extension ViewRow: ViewOrdered {
  var priority: Priority { reminder.priority }
  var dueDate: DueDate? { reminder.dueDate }
}

/// A part of a view under one heading.
public struct ViewSection: Sendable {
  public enum Heading: Hashable, Sendable {
    /// The rows of a list view: the list is the view's title.
    case none
    /// The rows of one list in a smart view or a search.
    case list(ReminderList)
    /// The reminders due on one day (`--group day`); nil for those without a due date.
    case day(LocalDate?)
  }

  public let heading: Heading
  public var rows: [ViewRow]
}

/// How a view orders and groups its reminders.
public struct ViewOptions: Sendable {
  public enum Sort: String, CaseIterable, Sendable {
    /// The order the reminders were stored in (a reminders app's manual order).
    case manual
    /// High priority first; the same priority keeps the manual order.
    case priority
    /// Earliest due first, reminders without a due date last.
    case due
  }

  public var sort = Sort.manual
  /// Groups the reminders by the day they are due, with a heading per day; subtasks are
  /// shown flat, each under its own day.
  public var groupByDay = false
  /// Adds the Completed section.
  public var includeCompleted = true

  public init() {}
}

/// What a reminders app shows for a list, a smart list or a search: the reminders that are
/// its members (open ones; done ones for Completed), subtasks under their parents, then a
/// Completed section with the done reminders that would otherwise belong.
///
/// Membership is decided by `ReminderScope` (the rule shared with the counts and with
/// `export --scope`) or `ReminderSearch`. A view holds the reminders it shows; the counts and
/// exports that need no order stream instead.
public struct ReminderView: Sendable {
  public enum Subject: Sendable {
    case list(ReminderList)
    case scope(ReminderScope)
    case search(ReminderSearch)
  }

  public let subject: Subject
  public let today: Today
  public let options: ViewOptions
  /// The view's members, under their headings.
  public private(set) var sections: [ViewSection] = []
  /// The Completed section (empty when not asked for, and for the Completed scope itself).
  public private(set) var completed: [ViewRow] = []

  /// How many reminders are members of the view: for a list or a counted scope, the count
  /// `remconv lists` shows.
  public var count: Int { sections.reduce(0) { $0 + $1.rows.count } }

  public var isEmpty: Bool { count == 0 }

  /// How a view finds its reminders.
  enum Evaluation {
    /// SQLite finds the candidates (`ReminderCandidates`); the rule keeps the members.
    case candidates
    /// Every reminder of every list is read and the rule applied to it: the way views were
    /// made before migration 0008, kept for stores whose subtasks form a cycle and as the
    /// reference the candidates' views are tested against.
    case readingEvery
  }

  /// The view of one list.
  public init(list: StoredList, store: Store, today: Today, options: ViewOptions = ViewOptions()) throws {
    try self.init(subject: .list(list.list), lists: { [list] }, store: store, today: today, options: options)
  }

  /// A smart list across every list.
  public init(scope: ReminderScope, store: Store, today: Today, options: ViewOptions = ViewOptions()) throws {
    try self.init(subject: .scope(scope), lists: store.lists, store: store, today: today, options: options)
  }

  /// The reminders whose title or notes contain a search's query, across every list.
  public init(search: ReminderSearch, store: Store, today: Today, options: ViewOptions = ViewOptions()) throws {
    try self.init(subject: .search(search), lists: store.lists, store: store, today: today, options: options)
  }

  init(
    subject: Subject, lists: () throws -> [StoredList], store: Store, today: Today, options: ViewOptions,
    evaluation: Evaluation = .candidates
  ) throws {
    self.init(subject: subject, today: today, options: options)
    try store.read {
      switch evaluation {
      case .candidates: try collectCandidates(from: try lists(), store: store)
      case .readingEvery: try collect(from: try lists(), store: store)
      }
    }
  }

  init(subject: Subject, today: Today, options: ViewOptions) {
    self.subject = subject
    self.today = today
    self.options = options
  }

  /// Whether a reminder is a member of the view.
  func isMember(_ reminder: Reminder) -> Bool {
    isMember(reminder.facts, title: reminder.title, notes: reminder.notes)
  }

  /// Whether a reminder with these facts, title and notes is a member of the view.
  func isMember(_ facts: ReminderFacts, title: String, notes: String) -> Bool {
    isMember(facts, textMatches: { textMatches(title: title, notes: notes) })
  }

  /// Whether a reminder with these facts is a member of the view, `textMatches` telling
  /// whether its text is what the view asks for (`textMatches(title:notes:)`), asked only
  /// when the facts leave it open.
  func isMember(_ facts: ReminderFacts, textMatches: () -> Bool) -> Bool {
    switch subject {
    case .list: ReminderScope.all.contains(facts, today: today)
    case .scope(let scope): scope.contains(facts, today: today)
    case .search: !facts.isDone && textMatches()
    }
  }

  /// Whether a reminder's title or notes hold a search's query; true for a view that is no
  /// search.
  func textMatches(title: String, notes: String) -> Bool {
    guard case .search(let search) = subject else { return true }
    return search.matches(title: title, notes: notes)
  }

  /// Whether a reminder belongs in the Completed section.
  func isCompletedMember(_ reminder: Reminder) -> Bool {
    isCompletedMember(reminder.facts, title: reminder.title, notes: reminder.notes)
  }

  func isCompletedMember(_ facts: ReminderFacts, title: String, notes: String) -> Bool {
    isCompletedMember(facts, textMatches: { textMatches(title: title, notes: notes) })
  }

  /// Whether a reminder with these facts belongs in the Completed section, as
  /// `isMember(_:textMatches:)` asks.
  func isCompletedMember(_ facts: ReminderFacts, textMatches: () -> Bool) -> Bool {
    guard options.includeCompleted, facts.isDone else { return false }
    switch subject {
    case .list: return true
    case .scope(let scope): return scope != .completed && scope.matchesIgnoringCompletion(facts, today: today)
    case .search: return textMatches()
    }
  }

  /// The rows SQLite can narrow a view to: the subject's condition, and the done states its
  /// sections show.
  var candidates: ReminderCandidates {
    let completion: ReminderCandidates.Completion = options.includeCompleted ? .either : .open
    switch subject {
    case .list: return ReminderCandidates(.scope(.all, today), completion: completion)
    case .scope(.completed): return ReminderCandidates(.scope(.completed, today), completion: .done)
    case .scope(let scope): return ReminderCandidates(.scope(scope, today), completion: completion)
    case .search(let search): return ReminderCandidates(.search(search), completion: completion)
    }
  }

  /// The done state of the view's members: done for the Completed scope, open for any other.
  var memberCompletion: ReminderCandidates.Completion {
    if case .scope(.completed) = subject { return .done }
    return .open
  }

  /// Reads the candidates of every list at once, keeps the members and places them in each
  /// list's outline (`ReminderOutline`); a list whose subtasks form a cycle is read in full.
  private mutating func collectCandidates(from lists: [StoredList], store: Store) throws {
    var query = candidates
    if lists.count == 1 { query.listRowID = lists[0].rowID }
    var byList: [Int64: (members: [StoredReminder], completed: [StoredReminder])] = [:]
    try store.forEachCandidate(query) { stored in
      let member = isMember(stored.reminder)
      let completedMember = isCompletedMember(stored.reminder)
      guard member || completedMember else { return }
      if member { byList[stored.listRowID, default: ([], [])].members.append(stored) }
      if completedMember { byList[stored.listRowID, default: ([], [])].completed.append(stored) }
    }
    var memberRows: [(list: ReminderList, rows: [ViewRow])] = []
    for stored in lists {
      guard let found = byList[stored.rowID] else { continue }
      var outline = ReminderOutline(store: store, listRowID: stored.rowID)
      guard
        let members = try outline.place(
          count: found.members.count, rowID: { found.members[$0].rowID },
          parentRowID: { found.members[$0].parentRowID }),
        let completedRows = try outline.place(
          count: found.completed.count, rowID: { found.completed[$0].rowID },
          parentRowID: { found.completed[$0].parentRowID })
      else {
        try collect(list: stored, store: store, into: &memberRows)
        continue
      }
      func row(_ reminder: StoredReminder, depth: Int) -> ViewRow {
        ViewRow(reminder: reminder.reminder, list: stored.list, depth: depth, rowID: reminder.rowID)
      }
      let rows = members.map { row(found.members[$0.node], depth: $0.depth) }
      if !rows.isEmpty { memberRows.append((stored.list, sortedOutline(rows))) }
      completed += sortedOutline(completedRows.map { row(found.completed[$0.node], depth: $0.depth) })
    }
    arrange(memberRows)
  }

  private mutating func collect(from lists: [StoredList], store: Store) throws {
    var memberRows: [(list: ReminderList, rows: [ViewRow])] = []
    for stored in lists { try collect(list: stored, store: store, into: &memberRows) }
    arrange(memberRows)
  }

  /// Reads every reminder of one list in outline order and keeps the members.
  private mutating func collect(
    list stored: StoredList, store: Store, into memberRows: inout [(list: ReminderList, rows: [ViewRow])]
  ) throws {
    var members: [ViewRow] = []
    var completedRows: [ViewRow] = []
    var memberOutline = OutlineFilter()
    var completedOutline = OutlineFilter()
    try store.forEachReminder(inListRow: stored.rowID) { reminder, depth in
      if let depth = memberOutline.visit(depth: depth, kept: isMember(reminder)) {
        members.append(ViewRow(reminder: reminder, list: stored.list, depth: depth))
      }
      if let depth = completedOutline.visit(depth: depth, kept: isCompletedMember(reminder)) {
        completedRows.append(ViewRow(reminder: reminder, list: stored.list, depth: depth))
      }
    }
    if !members.isEmpty { memberRows.append((stored.list, sortedOutline(members))) }
    completed += sortedOutline(completedRows)
  }

  /// The sections from each list's members.
  private mutating func arrange(_ memberRows: [(list: ReminderList, rows: [ViewRow])]) {
    if options.groupByDay {
      sections = groupedByDay(memberRows.flatMap(\.rows))
    } else if case .list = subject {
      sections = [ViewSection(heading: .none, rows: memberRows.flatMap(\.rows))]
    } else {
      sections = memberRows.map { ViewSection(heading: .list($0.list), rows: $0.rows) }
    }
  }

  /// Sorts siblings by the view's order, keeping each subtask under its parent.
  func sortedOutline<Row: ViewOrdered>(_ rows: [Row]) -> [Row] {
    guard options.sort != .manual, rows.count > 1 else { return rows }
    // Build the tree from the depths (outline order), sort each node's children, flatten.
    var children: [[Int]] = Array(repeating: [], count: rows.count)
    var roots: [Int] = []
    var path: [Int] = []
    for (index, row) in rows.enumerated() {
      while path.count > row.depth { path.removeLast() }
      if let parent = path.last { children[parent].append(index) } else { roots.append(index) }
      path.append(index)
    }
    var result: [Row] = []
    result.reserveCapacity(rows.count)
    var stack = sortedSiblings(roots, in: rows).reversed().map { $0 }
    while let index = stack.popLast() {
      result.append(rows[index])
      stack += sortedSiblings(children[index], in: rows).reversed()
    }
    return result
  }

  private func sortedSiblings<Row: ViewOrdered>(_ indices: [Int], in rows: [Row]) -> [Int] {
    indices.sorted { left, right in
      let order = compare(rows[left], rows[right])
      return order == .orderedSame ? left < right : order == .orderedAscending
    }
  }

  /// The view's order between two reminders; `orderedSame` leaves the manual order.
  private func compare(_ left: some ViewOrdered, _ right: some ViewOrdered) -> ComparisonResult {
    switch options.sort {
    case .manual:
      return .orderedSame
    case .priority:
      if left.priority == right.priority { return .orderedSame }
      return left.priority > right.priority ? .orderedAscending : .orderedDescending
    case .due:
      let leftKey = left.dueDate.map { $0.sortKey(in: today.timeZone) }
      let rightKey = right.dueDate.map { $0.sortKey(in: today.timeZone) }
      switch (leftKey, rightKey) {
      case (nil, nil): return .orderedSame
      case (nil, _): return .orderedDescending
      case (_, nil): return .orderedAscending
      case (let left?, let right?):
        return left == right ? .orderedSame : left < right ? .orderedAscending : .orderedDescending
      }
    }
  }

  /// The members grouped by the day they are due (earliest first, time order within a day,
  /// `--sort priority` within a time), then those without a due date.
  private func groupedByDay(_ rows: [ViewRow]) -> [ViewSection] {
    let keyed = rows.enumerated().map { index, row in
      (
        row: row, index: index, day: row.reminder.dueDate.map(today.day(of:)),
        time: row.reminder.dueDate.map { $0.sortKey(in: today.timeZone) }
      )
    }
    let ordered = keyed.sorted { left, right in
      switch (left.day, right.day) {
      case (nil, nil): break
      case (nil, _): return false
      case (_, nil): return true
      case (let leftDay?, let rightDay?): if leftDay != rightDay { return leftDay < rightDay }
      }
      if left.time != right.time, let leftTime = left.time, let rightTime = right.time { return leftTime < rightTime }
      if options.sort == .priority, left.row.reminder.priority != right.row.reminder.priority {
        return left.row.reminder.priority > right.row.reminder.priority
      }
      return left.index < right.index
    }
    var sections: [ViewSection] = []
    for item in ordered {
      let flat = ViewRow(reminder: item.row.reminder, list: item.row.list, depth: 0, rowID: item.row.rowID)
      if let last = sections.last, last.heading == .day(item.day) {
        sections[sections.count - 1].rows.append(flat)
      } else {
        sections.append(ViewSection(heading: .day(item.day), rows: [flat]))
      }
    }
    return sections
  }
}
