import Foundation

/// The edits a reminders app makes on its lists and reminders, with the app's rules: a
/// blank title or list name is refused, list names stay unique (`ListName.key`), `editedAt`
/// is stamped on every change and `completedAt` set and cleared with done, and a reminder
/// moved to another list takes its subtasks along.
///
/// Each method is one transaction (`Store.write`, which also refuses a store this version
/// must not write); a store busy with another writer waits for the busy timeout and then
/// fails with `RemconvError.storeBusy`.
public struct ReminderEditor {
  public let store: Store
  /// The time stamped as `editedAt`, `createdAt` and `completedAt`.
  public let now: Timestamp
  /// The zone a floating alarm time is read in, and the day of a completion found (`done` on
  /// a reminder that repeats from completion).
  public let timeZone: TimeZone

  public init(store: Store, now: Date, timeZone: TimeZone = .current) {
    self.store = store
    self.now = Timestamp(now)
    self.timeZone = timeZone
  }

  // MARK: Reminders

  /// What `remconv add` gives a new reminder.
  public struct NewReminder: Sendable {
    public var title: String
    public var notes = ""
    public var dueDate: DueDate?
    public var startDate: DueDate?
    public var recurrence: Recurrence?
    public var alarms: [AlarmRequest] = []
    public var priority = Priority.none
    public var flagged = false

    public init(title: String) { self.title = title }
  }

  /// Adds a reminder to the list named `listName`, or under the reminder `parentID` names
  /// (in the parent's list; naming another list too is refused). Returns it as stored.
  public func add(_ new: NewReminder, listName: String?, parentID: String?) throws -> Outcome {
    try Self.requireTitle(new.title)
    return try store.write {
      let parent = try parentID.map(resolveReminder)
      let list: StoredList
      switch (listName, parent) {
      case (let name?, let parent?):
        list = try resolveList(name)
        guard list.rowID == parent.listRowID else {
          throw RemconvError.invalidInput(
            "the parent \(parent.reminder.id) is in another list than '\(list.list.name)': a subtask lives in its parent's list"
          )
        }
      case (let name?, nil):
        list = try resolveList(name)
      case (nil, let parent?):
        list = StoredList(rowID: parent.listRowID, list: try self.list(of: parent))
      case (nil, nil):
        throw RemconvError.invalidInput("a new reminder needs a list or a parent")
      }
      var reminder = Reminder(
        id: StableID.make(), listID: list.list.id, parentID: parent?.reminder.id, title: new.title,
        notes: new.notes, flagged: new.flagged, dueDate: new.dueDate, startDate: new.startDate,
        recurrence: new.recurrence, priority: new.priority, createdAt: now, editedAt: now)
      reminder.alarms = try new.alarms.map { try $0.alarm(for: reminder, in: timeZone) }
      try requireSchedule(of: reminder)
      try Self.requireItemSize(reminder, in: list.list, naming: [("title", new.title), ("notes", new.notes)])
      let row = try store.insertReminder(reminder, listRowID: list.rowID, parentRowID: parent?.rowID)
      let stored = StoredReminder(rowID: row, listRowID: list.rowID, parentRowID: parent?.rowID, reminder: reminder)
      return Outcome(reminder: stored, list: list.list, changed: true, movedSubtasks: 0)
    }
  }

  /// What `remconv edit` changes; nil members stay as they are.
  public struct Changes: Sendable {
    public enum Due: Sendable, Equatable {
      case set(DueDate)
      case clear
    }

    public var title: String?
    public var notes: String?
    public var due: Due?
    public var start: Due?
    /// A new way to repeat (`.some(nil)` stops repeating).
    public var recurrence: Recurrence??
    /// Repeats from the due date or from completion, keeping the rule.
    public var recurrenceBasis: Recurrence.Basis?
    /// Removes the alarms (`clearsAlarms`) and adds these.
    public var addedAlarms: [AlarmRequest] = []
    public var clearsAlarms = false
    public var priority: Priority?
    public var flagged: Bool?
    /// Moves the reminder, with its subtasks, to the list of this name.
    public var listName: String?

    public init() {}

    /// It changes the due or start date, the alarms or how the reminder repeats.
    var changesSchedule: Bool {
      due != nil || start != nil || recurrence != nil || recurrenceBasis != nil || !addedAlarms.isEmpty || clearsAlarms
    }

    public var isEmpty: Bool {
      title == nil && notes == nil && due == nil && start == nil && recurrence == nil && recurrenceBasis == nil
        && addedAlarms.isEmpty && !clearsAlarms && priority == nil && flagged == nil && listName == nil
    }
  }

  /// What an edit did.
  public struct Outcome: Sendable {
    /// The reminder after the edit.
    public let reminder: StoredReminder
    /// Its list after the edit.
    public let list: ReminderList
    /// False when the reminder already was as asked: then nothing was written.
    public let changed: Bool
    /// How many subtasks (nested ones too) moved to another list with it.
    public let movedSubtasks: Int
    /// `done` on a repeating reminder: the completed copy of the occurrence done, kept as
    /// history while `reminder` moved to its next occurrence.
    public var completedOccurrence: StoredReminder? = nil
  }

  /// Applies `changes` to the reminder `id` names.
  public func edit(_ id: String, _ changes: Changes) throws -> Outcome {
    if let title = changes.title { try Self.requireTitle(title) }
    return try store.write {
      let stored = try resolveReminder(id)
      var reminder = stored.reminder
      if let title = changes.title { reminder.title = title }
      if let notes = changes.notes { reminder.notes = notes }
      switch changes.due {
      case .set(let due): reminder.dueDate = due
      case .clear: reminder.dueDate = nil
      case nil: break
      }
      switch changes.start {
      case .set(let start): reminder.startDate = start
      case .clear: reminder.startDate = nil
      case nil: break
      }
      if let recurrence = changes.recurrence { reminder.recurrence = recurrence }
      if let basis = changes.recurrenceBasis {
        guard reminder.recurrence != nil else {
          throw RemconvError.invalidInput("\(stored.reminder.id) does not repeat: give --repeat with --repeat-from")
        }
        reminder.recurrence?.basis = basis
      }
      if changes.clearsAlarms { reminder.alarms = [] }
      for request in changes.addedAlarms {
        let alarm = try request.alarm(for: reminder, in: timeZone)
        if !reminder.alarms.contains(alarm) { reminder.alarms.append(alarm) }
      }
      // Only an edit of the dates, alarms or rule answers for them: a title can still be
      // changed on a reminder that came with a start after its due date.
      if changes.changesSchedule { try requireSchedule(of: reminder) }
      if let priority = changes.priority { reminder.priority = priority }
      if let flagged = changes.flagged { reminder.flagged = flagged }
      var target: StoredList?
      if let listName = changes.listName {
        let list = try resolveList(listName)
        if list.rowID != stored.listRowID { target = list }
      }
      guard reminder != stored.reminder || target != nil else {
        return Outcome(reminder: stored, list: try list(of: stored), changed: false, movedSubtasks: 0)
      }
      reminder.editedAt = now
      let destination = try target?.list ?? list(of: stored)
      var listRowID = stored.listRowID
      var parentRowID = stored.parentRowID
      var moved = 0
      if let target {
        // A subtask leaves its parent behind: it becomes a top-level reminder of the new list.
        reminder.listID = target.list.id
        reminder.parentID = nil
        listRowID = target.rowID
        parentRowID = nil
        moved = try moveSubtasks(of: stored.rowID, to: target)
      }
      // Measured as moved (another list's members, no parent); a refusal rolls the move back.
      try Self.requireItemSize(
        reminder, in: destination,
        naming: [("title", changes.title), ("notes", changes.notes), ("list", changes.listName)].compactMap { field in
          field.1.map { (field.0, $0) }
        } + [("title", reminder.title), ("notes", reminder.notes)])
      try store.updateReminder(rowID: stored.rowID, reminder, listRowID: listRowID, parentRowID: parentRowID)
      let updated = StoredReminder(
        rowID: stored.rowID, listRowID: listRowID, parentRowID: parentRowID, reminder: reminder)
      return Outcome(reminder: updated, list: destination, changed: true, movedSubtasks: moved)
    }
  }

  /// Marks a reminder done (`completedAt` now) or not done (`completedAt` cleared). Its
  /// subtasks keep their own state. A repeating reminder marked done stays open and moves to
  /// its next occurrence, its occurrence kept as a completed copy (`RecurringCompletion`),
  /// unless its series has ended.
  public func setDone(_ id: String, _ done: Bool) throws -> Outcome {
    if done, let outcome = try completeOccurrence(id) { return outcome }
    return try update(id) { reminder in
      guard reminder.isDone != done else { return }
      reminder.isDone = done
      reminder.completedAt = done ? now : nil
    }
  }

  /// `done` on a repeating reminder whose series goes on; nil for any other reminder.
  private func completeOccurrence(_ id: String) throws -> Outcome? {
    try store.write {
      let stored = try resolveReminder(id)
      guard stored.reminder.recurrence != nil, !stored.reminder.isDone else { return nil }
      // The copy's UID is derived from the occurrence; one already taken (the same occurrence
      // completed before, after its due date was moved back) takes the next attempt's.
      var attempt = 0
      var historyID = RecurringCompletion.historyID(of: stored.reminder, attempt: attempt)
      while try !store.reminders(uid: historyID).isEmpty {
        attempt += 1
        historyID = RecurringCompletion.historyID(of: stored.reminder, attempt: attempt)
      }
      guard
        let completion = RecurringCompletion.complete(
          stored.reminder, at: now, in: timeZone, historyID: historyID)
      else { return nil }
      let list = try list(of: stored)
      let historyRow = try store.insertReminder(
        completion.history, listRowID: stored.listRowID, parentRowID: stored.parentRowID)
      try store.updateReminder(
        rowID: stored.rowID, completion.advanced, listRowID: stored.listRowID, parentRowID: stored.parentRowID)
      var outcome = Outcome(
        reminder: StoredReminder(
          rowID: stored.rowID, listRowID: stored.listRowID, parentRowID: stored.parentRowID,
          reminder: completion.advanced),
        list: list, changed: true, movedSubtasks: 0)
      outcome.completedOccurrence = StoredReminder(
        rowID: historyRow, listRowID: stored.listRowID, parentRowID: stored.parentRowID,
        reminder: completion.history)
      return outcome
    }
  }

  public func setFlagged(_ id: String, _ flagged: Bool) throws -> Outcome {
    try update(id) { reminder in reminder.flagged = flagged }
  }

  /// Deletes a reminder and its subtasks. Returns the reminder, its list and how many
  /// reminders went in all.
  public func delete(_ id: String) throws -> (reminder: StoredReminder, list: ReminderList, count: Int) {
    try store.write {
      let stored = try resolveReminder(id)
      let list = try list(of: stored)
      return (stored, list, try store.deleteReminder(rowID: stored.rowID))
    }
  }

  private func update(_ id: String, _ change: (inout Reminder) -> Void) throws -> Outcome {
    try store.write {
      let stored = try resolveReminder(id)
      var reminder = stored.reminder
      change(&reminder)
      guard reminder != stored.reminder else {
        return Outcome(reminder: stored, list: try list(of: stored), changed: false, movedSubtasks: 0)
      }
      reminder.editedAt = now
      try store.updateReminder(
        rowID: stored.rowID, reminder, listRowID: stored.listRowID, parentRowID: stored.parentRowID)
      let updated = StoredReminder(
        rowID: stored.rowID, listRowID: stored.listRowID, parentRowID: stored.parentRowID, reminder: reminder)
      return Outcome(reminder: updated, list: try list(of: stored), changed: true, movedSubtasks: 0)
    }
  }

  /// Moves every subtask of `rowID` (nested ones too) to `list`, each keeping its parent.
  private func moveSubtasks(of rowID: Int64, to list: StoredList) throws -> Int {
    var moved = 0
    for row in try store.subtreeRowIDs(of: rowID) where row != rowID {
      guard let subtask = try store.reminder(rowID: row) else { continue }
      var reminder = subtask.reminder
      reminder.listID = list.list.id
      reminder.editedAt = now
      // Another list's members make its line longer: a subtask that would outgrow the item
      // limit refuses the move (and the transaction undoes the rest).
      try Self.requireItemSize(
        reminder, in: list.list,
        naming: [("list", list.list.name), ("title", reminder.title), ("notes", reminder.notes)],
        subject: "the subtask \(reminder.id)")
      try store.updateReminder(rowID: row, reminder, listRowID: list.rowID, parentRowID: subtask.parentRowID)
      moved += 1
    }
    return moved
  }

  // MARK: Lists

  /// Creates a list; its name must not collide with another list's (case- and
  /// normalisation-insensitive).
  public func createList(name: String, symbol: String?, color: String?) throws -> StoredList {
    let normalized = try Self.requireListName(name)
    return try store.write {
      if let clash = try store.list(named: normalized) {
        throw RemconvError.conflict("a list named '\(clash.list.name)' already exists")
      }
      let list = ReminderList(
        id: StableID.make(), name: normalized, symbol: symbol ?? ReminderList.defaultSymbol, color: color,
        createdAt: now)
      return StoredList(rowID: try store.insertList(list), list: list)
    }
  }

  /// What `remconv list edit` changes; nil members stay as they are.
  public struct ListChanges: Sendable {
    public var name: String?
    public var symbol: String?
    /// `.some(nil)` removes the colour.
    public var color: String??

    public init() {}

    public var isEmpty: Bool { name == nil && symbol == nil && color == nil }
  }

  /// Renames a list or changes its symbol or colour. Returns the list after the edit and
  /// whether anything changed.
  public func editList(_ name: String, _ changes: ListChanges) throws -> (list: StoredList, changed: Bool) {
    let newName = try changes.name.map(Self.requireListName)
    return try store.write {
      let stored = try resolveList(name)
      var list = stored.list
      if let newName {
        if let clash = try store.list(named: newName), clash.rowID != stored.rowID {
          throw RemconvError.conflict("a list named '\(clash.list.name)' already exists")
        }
        list.name = newName
      }
      if let symbol = changes.symbol { list.symbol = symbol }
      if let color = changes.color { list.color = color }
      guard list != stored.list else { return (stored, false) }
      try store.updateList(rowID: stored.rowID, list)
      return (StoredList(rowID: stored.rowID, list: list), true)
    }
  }

  /// How many reminders deleting a list would delete with it.
  public func reminderCount(inList name: String) throws -> (list: StoredList, count: Int) {
    let list = try resolveList(name)
    return (list, try store.reminderCount(inListRow: list.rowID))
  }

  /// Deletes a list and its reminders. Returns the list and how many reminders went.
  public func deleteList(_ name: String) throws -> (list: StoredList, count: Int) {
    try store.write {
      let list = try resolveList(name)
      return (list, try store.deleteList(rowID: list.rowID))
    }
  }

  // MARK: Finding

  /// The reminder `id` names: the reminder with that exact UID, else the one reminder whose
  /// UID starts with it (ASCII case-insensitively), as git finds a commit by a hash prefix.
  public func resolveReminder(_ id: String) throws -> StoredReminder {
    guard !id.isEmpty else { throw RemconvError.invalidInput("an empty reminder ID names nothing") }
    let exact = try store.reminders(uid: id)
    if exact.count == 1, let only = exact.first { return only }
    let limit = 10
    let candidates = exact.isEmpty ? try store.reminders(uidPrefix: id, limit: limit + 1) : exact
    guard !candidates.isEmpty else {
      throw RemconvError.notFound("no reminder has the ID '\(id)' or one starting with it")
    }
    if candidates.count == 1, let only = candidates.first { return only }
    var named: [AmbiguousReminderID.Candidate] = []
    for candidate in candidates.prefix(limit) {
      let list = try store.list(rowID: candidate.listRowID)?.list.name ?? ""
      named.append(.init(reminder: candidate.reminder, listName: list))
    }
    throw AmbiguousReminderID(id: id, candidates: named, hasMore: candidates.count > limit)
  }

  /// The list a stored reminder is in.
  func list(of stored: StoredReminder) throws -> ReminderList {
    guard let list = try store.list(rowID: stored.listRowID) else {
      throw RemconvError.notFound("the list of \(stored.reminder.id) is missing")
    }
    return list.list
  }

  /// The list named `name` (compared by `ListName.key`).
  public func resolveList(_ name: String) throws -> StoredList {
    guard let list = try store.list(named: name) else {
      let names = try store.lists().map(\.list.name)
      let known = names.isEmpty ? "the store has no lists" : "lists: " + names.joined(separator: ", ")
      throw RemconvError.notFound("no list named '\(name)' (\(known))")
    }
    return list
  }

  // MARK: Rules

  /// Refuses a reminder larger than one item (`InputLimits.maximumItemSize`) measured as
  /// every import measures one (`ModelBoundaryReader`): the JSON Lines line it exports as, its
  /// list's members included. What `add` and `edit` store is then what an export writes and an
  /// import reads back. The error names `subject` and the longest of `fields` (the ones given
  /// first win a tie: those the command changes, then the reminder's own).
  static func requireItemSize(
    _ reminder: Reminder, in list: ReminderList, naming fields: [(String, String)], subject: String = "the reminder"
  ) throws {
    let prefix = JSONLinesFormat.linePrefix(of: list).count
    guard JSONLinesFormat.lineLengthBound(of: reminder, prefixLength: prefix) > InputLimits.maximumItemSize else {
      return
    }
    var scratch: [UInt8] = []
    let length = JSONLinesFormat.lineLength(of: reminder, prefixLength: prefix, scratch: &scratch)
    guard length > InputLimits.maximumItemSize else { return }
    var longest = fields.first ?? ("title", reminder.title)
    for field in fields.dropFirst() where field.1.utf8.count > longest.1.utf8.count { longest = field }
    throw RemconvError.invalidInput(
      "\(subject) would be larger than the limit of \(InputLimits.maximumItemSize) bytes of one item "
        + "(\(length) bytes as a JSON Lines line); the longest field, \(longest.0), is \(longest.1.utf8.count) bytes")
  }

  /// Refuses what `validate` would report of a reminder's dates, alarms and rule: a start
  /// after the due date, an alarm relative to a date the reminder lacks, a rule without a
  /// date to repeat from. (The rule itself was read by libical when it was given.)
  func requireSchedule(of reminder: Reminder) throws {
    if let start = reminder.startDate, let due = reminder.dueDate,
      start.sortKey(in: timeZone) > due.sortKey(in: timeZone)
    {
      throw RemconvError.invalidInput("the start date \(start) is after the due date \(due)")
    }
    for alarm in reminder.alarms {
      guard case .relative(_, let anchor) = alarm.trigger else { continue }
      if anchor == .due, reminder.dueDate == nil {
        throw RemconvError.invalidInput("an alarm before or after the due date needs a due date")
      }
      if anchor == .start, reminder.startDate == nil {
        throw RemconvError.invalidInput("an alarm before or after the start date needs a start date")
      }
    }
    if reminder.recurrence != nil, reminder.dueDate == nil, reminder.startDate == nil {
      throw RemconvError.invalidInput("a repeating reminder needs a due date (or a start date) to repeat from")
    }
  }

  static func requireTitle(_ title: String) throws {
    if title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
      throw RemconvError.invalidInput("a reminder's title cannot be blank")
    }
  }

  static func requireListName(_ name: String) throws -> String {
    let normalized = ListName.normalized(name)
    if normalized.isEmpty { throw RemconvError.invalidInput("a list's name cannot be blank") }
    return normalized
  }
}

/// An ID prefix that several reminders share: the caller lists them so the user can type more.
public struct AmbiguousReminderID: Error, Sendable, CustomStringConvertible {
  public struct Candidate: Sendable {
    public let reminder: Reminder
    public let listName: String
  }

  public let id: String
  public let candidates: [Candidate]
  /// More reminders match than `candidates` holds.
  public let hasMore: Bool

  public var description: String {
    var lines = ["the ID '\(id)' is ambiguous; it matches:"]
    for candidate in candidates {
      // Quoted: a title is user data, and its control characters must not reach a terminal.
      lines.append(
        "  \(candidate.reminder.id)  \(JSONText.quoted(candidate.reminder.title))  in \(JSONText.quoted(candidate.listName))"
      )
    }
    if hasMore { lines.append("  and more") }
    return lines.joined(separator: "\n")
  }
}
