import Foundation

/// Reads Graph `todoTask` JSON one task at a time; checklist items become subtasks.
final class MicrosoftToDoReader: ReminderReader {
  private let context: ReaderContext
  private let stream: JSONItemStream
  private let derivedIDs = DerivedIDGenerator()
  /// For each open container: the list it is (nil for a page envelope), its members and where
  /// it starts.
  private var containers: [(list: ReminderList?, members: [String: JSONValue], location: SourceLocation)] = []
  private var pending: [SourceRecord] = []

  init(context: ReaderContext) throws {
    self.context = context
    stream = JSONItemStream(
      parser: JSONParser(reader: try context.openByteReader()), itemsKeys: ["value", "tasks"])
    stream.onDuplicateKey = context.duplicateKeyWarning
  }

  func next() throws -> SourceRecord? {
    while pending.isEmpty {
      guard let event = try stream.next() else { return nil }
      switch event {
      case .containerStart(let members, let key, _, let location):
        if key == "tasks" {
          let list = decodeList(members, at: location)
          containers.append((list, members, location))
          return .list(list)
        }
        containers.append((nil, members, location))
      case .containerEnd(let trailing, _):
        guard let (list, members, location) = containers.popLast() else { continue }
        // A list whose name or other members follow its tasks is completed now (same UID).
        if let list, !trailing.isEmpty {
          var updated = decodeList(members.merging(trailing) { _, new in new }, at: location)
          updated.id = list.id
          return .list(updated)
        }
      case .item(let members, let depth, let location):
        try APIErrorResponse.refuse(members, depth: depth, from: "Microsoft Graph", at: location)
        if members["title"] == nil, members["displayName"] != nil {
          var list = decodeList(members, at: location)
          stream.keepItemDuplicates(in: &list.extra, uid: list.id, diagnostics: context.diagnostics)
          return .list(list)
        }
        pending = decodeTask(members, listID: currentListID, at: location)
      }
    }
    return pending.removeFirst()
  }

  private var currentListID: String {
    containers.last(where: { $0.list != nil })?.list?.id ?? ""
  }

  // MARK: Lists

  private func decodeList(_ members: [String: JSONValue], at location: SourceLocation) -> ReminderList {
    var fields = JSONObjectFields(members, location: location, diagnostics: context.diagnostics)
    let fallbackName = context.options.listName ?? context.source.baseName ?? "Reminders"
    let name = fields.string("displayName") ?? fallbackName
    let id = fields.string("id") ?? StableID.derived(["list", ListName.key(for: name)])
    fields.uid = id
    _ = fields.take("tasks")
    return ReminderList(
      id: id, name: name, extra: fields.extra(formatKey: MicrosoftToDoFormat.extraKey, kept: fields.remaining))
  }

  // MARK: Tasks

  /// The task and its checklist items as subtasks, in that order.
  private func decodeTask(_ members: [String: JSONValue], listID: String, at location: SourceLocation) -> [SourceRecord]
  {
    var fields = JSONObjectFields(members, location: location, diagnostics: context.diagnostics)
    var kept: [String: JSONValue] = [:]
    let sourceID = fields.string("id")
    fields.uid = sourceID
    let title = fields.string("title") ?? ""

    var notes = ""
    if let body = fields.take("body") {
      if let content = body["content"]?.stringValue {
        notes = Self.plainNotes(content)
        if notes != content || (body["contentType"]?.stringValue ?? "text") != "text" { kept["body"] = body }
      } else {
        fields.reject("body", body, "body should be an object with a content string")
      }
    }

    var priority = Priority.none
    switch fields.string("importance") {
    case "low"?: priority = .low
    case "normal"?, nil: break
    case "high"?: priority = .high
    case let other?: fields.reject("importance", .string(other), "importance '\(other)' is not low, normal or high")
    }

    var isDone = false
    switch fields.string("status") {
    case "completed"?: isDone = true
    case "notStarted"?, nil: break
    case let other? where ["inProgress", "waitingOnOthers", "deferred"].contains(other):
      kept["status"] = .string(other)
    case let other?:
      fields.reject("status", .string(other), "status '\(other)' is not a To Do status; read as not started")
    }

    let due = day(of: "dueDateTime", in: &fields, kept: &kept)
    let start = day(of: "startDateTime", in: &fields, kept: &kept)
    let recurrence = recurrence(in: &fields, kept: &kept, due: due)
    let alarms = alarms(in: &fields, kept: &kept)
    var completedAt: Timestamp?
    if let value = fields.take("completedDateTime") {
      switch GraphDateTime.parse(value) {
      case .success(let dateTime): completedAt = dateTime.timestamp
      case .failure(let error): fields.reject("completedDateTime", value, "completedDateTime: \(error)")
      }
    }
    let instant = "an ISO 8601 instant"
    let createdAt = fields.timestamp("createdDateTime", expected: instant, parse: Timestamp.init(iso:))
    let editedAt = fields.timestamp("lastModifiedDateTime", expected: instant, parse: Timestamp.init(iso:))
    let tags = fields.strings("categories") ?? []
    let checklist = fields.array("checklistItems") ?? []

    let id = sourceID ?? derivedIDs.next(["mstodo", listID, title, createdAt?.description ?? ""])
    if sourceID == nil {
      context.diagnostics.warning("missing-uid", "the task has no id; it gets the derived UID \(id)", at: location)
    }
    kept.merge(fields.remaining) { mapped, _ in mapped }
    var task = Reminder(
      id: id, listID: listID, title: title, notes: notes, isDone: isDone, completedAt: completedAt,
      dueDate: due, priority: priority, tags: tags, createdAt: createdAt, editedAt: editedAt)
    task.startDate = start
    task.recurrence = recurrence
    task.alarms = alarms
    var records: [SourceRecord] = []
    var invalidItems: [JSONValue] = []
    for (index, item) in checklist.enumerated() {
      if let members = item.objectValue {
        let subtask = decodeChecklistItem(members, parent: task, index: index, at: location)
        records.append(.reminder(subtask, location))
      } else {
        invalidItems.append(item)
        context.diagnostics.warning(
          "invalid-value", "checklist item \(index + 1) is not an object (kept in extra.invalid)", at: location, uid: id
        )
      }
    }
    task.extra = fields.extra(formatKey: MicrosoftToDoFormat.extraKey, kept: kept)
    // A repeated name in a checklist item is kept here too, under its pointer in the task.
    stream.keepItemDuplicates(in: &task.extra, uid: task.id, diagnostics: context.diagnostics)
    if !invalidItems.isEmpty {
      var invalid = task.extra["invalid"]?.objectValue ?? [:]
      invalid["checklistItems"] = .array(invalidItems)
      task.extra["invalid"] = .object(invalid)
    }
    return [.reminder(task, location)] + records
  }

  /// A `dateTimeTimeZone` member as To Do means it: a day (see `GraphDateTime.day(in:)`).
  private func day(of key: String, in fields: inout JSONObjectFields, kept: inout [String: JSONValue]) -> DueDate? {
    guard let value = fields.take(key) else { return nil }
    switch GraphDateTime.parse(value) {
    case .success(let dateTime):
      let zone = context.options.timeZone
      let day = dateTime.day(in: zone)
      if !day.exact {
        kept[key] = value
        context.diagnostics.warning(
          "due-zone",
          "\(key) \(JSONText.encode(value)) is not a midnight in \(zone.identifier): read as \(day.date) there (set TZ to the To Do user's zone; the raw value is kept in extra.mstodo)",
          at: fields.location, uid: fields.uid)
      }
      return .date(day.date)
    case .failure(let error):
      fields.reject(key, value, "\(key): \(error)")
      return nil
    }
  }

  /// `recurrence` as a rule from the due date. A pattern that is no rule is kept in
  /// `extra.mstodo.recurrence` with a warning; so is a range that starts on another day than
  /// the due (the day the series starts is the due's).
  private func recurrence(in fields: inout JSONObjectFields, kept: inout [String: JSONValue], due: DueDate?)
    -> Recurrence?
  {
    guard let value = fields.take("recurrence") else { return nil }
    switch GraphRecurrence.rule(of: value) {
    case .success(let translation):
      if let seriesStart = translation.seriesStart, case .date(let day) = due, day != seriesStart {
        kept["recurrence"] = .object(["range": .object(["startDate": .string(seriesStart.description)])])
      }
      return Recurrence(rule: translation.rule, exceptionDates: [], additionalDates: [], basis: .dueDate)
    case .failure(let failure):
      kept["recurrence"] = value
      context.diagnostics.warning(
        "unmapped-recurrence",
        "recurrence: \(failure); kept in extra.mstodo, the reminder does not repeat", at: fields.location,
        uid: fields.uid)
      return nil
    }
  }

  /// `reminderDateTime` while `isReminderOn`: one alarm at that instant. A reminder switched
  /// off keeps both members in `extra.mstodo`.
  private func alarms(in fields: inout JSONObjectFields, kept: inout [String: JSONValue]) -> [Alarm] {
    let isOn = fields.bool("isReminderOn")
    guard let value = fields.take("reminderDateTime") else {
      if isOn == true { kept["isReminderOn"] = .bool(true) }
      return []
    }
    guard isOn == true else {
      kept["reminderDateTime"] = value
      if let isOn { kept["isReminderOn"] = .bool(isOn) }
      return []
    }
    switch GraphDateTime.parse(value) {
    case .success(let dateTime):
      return [Alarm(trigger: .absolute(dateTime.timestamp), action: "DISPLAY", text: nil)]
    case .failure(let error):
      fields.reject("reminderDateTime", value, "reminderDateTime: \(error)")
      kept["isReminderOn"] = .bool(true)
      return []
    }
  }

  /// A checklist item: one level below its task, a title and a check mark.
  private func decodeChecklistItem(
    _ members: [String: JSONValue], parent: Reminder, index: Int, at location: SourceLocation
  ) -> Reminder {
    var fields = JSONObjectFields(members, location: location, diagnostics: context.diagnostics)
    let sourceID = fields.string("id")
    fields.uid = sourceID ?? parent.id
    let title = fields.string("displayName") ?? ""
    let instant = "an ISO 8601 instant"
    let isDone = fields.bool("isChecked") ?? false
    let completedAt = fields.timestamp("checkedDateTime", expected: instant, parse: Timestamp.init(iso:))
    let createdAt = fields.timestamp("createdDateTime", expected: instant, parse: Timestamp.init(iso:))
    let id = sourceID ?? derivedIDs.next(["mstodo-checklist", parent.id, String(index), title])
    var reminder = Reminder(
      id: id, listID: parent.listID, parentID: parent.id, title: title, isDone: isDone,
      completedAt: completedAt, createdAt: createdAt)
    reminder.extra = fields.extra(formatKey: MicrosoftToDoFormat.extraKey, kept: fields.remaining)
    return reminder
  }

  /// The body as notes: CRLF line breaks become LF, and the line breaks To Do leaves at the
  /// end (a blank body is `"\r\n"`) are dropped. The raw body is kept when this changed it.
  static func plainNotes(_ content: String) -> String {
    var text = content.replacingOccurrences(of: "\r\n", with: "\n")
    while text.hasSuffix("\n") { text.removeLast() }
    return text
  }
}
