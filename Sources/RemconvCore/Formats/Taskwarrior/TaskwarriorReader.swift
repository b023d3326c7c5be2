import Foundation

/// Reads `task export`: a JSON array of tasks or one task object per line, one task at a time.
///
/// Backups made by scripts and sync tools often wrap that array in an object
/// (`{"exported":…,"tasks":[…]}`); the tasks are read from it, and the wrapper's other members,
/// which no reminder can hold, are reported.
final class TaskwarriorReader: ReminderReader {
  private typealias UDA = TaskwarriorFormat.UDA

  private let context: ReaderContext
  private let stream: JSONItemStream
  private let derivedIDs = DerivedIDGenerator()
  /// Projects already announced as lists.
  private var knownProjects: Set<String> = []
  /// Records ready to be returned, in order.
  private var queue: [SourceRecord] = []
  private var finished = false
  /// Recurring tasks' templates, held to the end of the file: their instances may come after
  /// them. A template and its instances are one reminder.
  private var templates: [(reminder: Reminder, project: String?, location: SourceLocation)] = []
  /// Instances of recurring tasks (tasks with a `parent`) by their template's UUID, as written.
  private var instances: [String: [JSONValue]] = [:]
  /// Instances in the order read, with what to make of them when their template is missing.
  private var instanceOrder: [(parent: String, reminder: Reminder, project: String?, location: SourceLocation)] = []

  init(context: ReaderContext) throws {
    self.context = context
    stream = JSONItemStream(
      parser: JSONParser(reader: try context.openByteReader()), itemsKeys: [Self.wrapperKey], allowsSequence: true)
    stream.onDuplicateKey = context.duplicateKeyWarning
  }

  func next() throws -> SourceRecord? {
    while queue.isEmpty {
      if finished { return nil }
      var event = try stream.next()
      while let wrapper = event, try readWrapper(wrapper) { event = try stream.next() }
      guard let event else {
        finished = true
        emitRecurringTasks()
        continue
      }
      guard case .item(let members, _, let location) = event else {
        throw RemconvError.malformedInput(
          "a Taskwarrior export is an array of task objects", at: stream.parser.location)
      }
      var (reminder, project) = decode(members, at: location)
      stream.keepItemDuplicates(in: &reminder.extra, uid: reminder.id, diagnostics: context.diagnostics)
      if members["status"]?.stringValue == "recurring" {
        templates.append((reminder, project, location))
      } else if let parent = members["parent"]?.stringValue {
        instances[parent.lowercased(), default: []].append(
          .object(members.filter { !TaskwarriorFormat.derivedFields.contains($0.key) }))
        instanceOrder.append((parent.lowercased(), reminder, project, location))
      } else {
        emit(reminder, project: project, at: location)
      }
    }
    return queue.removeFirst()
  }

  /// Queues a reminder, after its project's list the first time that project comes.
  private func emit(_ reminder: Reminder, project: String?, at location: SourceLocation) {
    if let project, knownProjects.insert(ListName.key(for: project)).inserted {
      queue.append(.list(ReminderList(id: reminder.listID, name: project)))
    }
    queue.append(.reminder(reminder, location))
  }

  /// Each template with its instances in `extra.taskwarrior.remconv_instances`; then the
  /// instances whose template is not in the file, each a reminder of its own.
  private func emitRecurringTasks() {
    var templateIDs: Set<String> = []
    for (template, project, location) in templates {
      var reminder = template
      let uuid = TaskwarriorUUID.forReminderID(template.id)
      templateIDs.insert(uuid)
      if let series = instances[uuid] {
        var kept = reminder.extra[TaskwarriorFormat.extraKey]?.objectValue ?? [:]
        kept[TaskwarriorFormat.instancesKey] = .array(series)
        reminder.extra[TaskwarriorFormat.extraKey] = .object(kept)
      }
      emit(reminder, project: project, at: location)
    }
    for instance in instanceOrder where !templateIDs.contains(instance.parent) {
      emit(instance.reminder, project: instance.project, at: instance.location)
    }
    templates = []
    instances = [:]
    instanceOrder = []
  }

  /// The member of a wrapper object that holds the tasks. No task has a member of this name
  /// holding an array (user-defined attributes are strings, numbers, dates or durations).
  private static let wrapperKey = "tasks"
  /// Where the wrapper began and the names of its other members.
  private var wrapper: (location: SourceLocation, keys: [String])?

  /// Takes in a wrapper's start or end; false for any other event. A wrapper inside a task,
  /// or inside another wrapper, is not Taskwarrior's.
  private func readWrapper(_ event: JSONItemStream.Event) throws -> Bool {
    switch event {
    case .containerStart(let members, _, let depth, let location):
      guard depth == 0 else {
        throw RemconvError.malformedInput(
          "a task holds a \"\(Self.wrapperKey)\" array: a Taskwarrior export is an array of task objects", at: location)
      }
      wrapper = (location, members.keys.sorted())
      return true
    case .containerEnd(let trailing, _):
      guard let wrapper else { return true }
      self.wrapper = nil
      let keys = wrapper.keys + trailing.keys.sorted()
      if !keys.isEmpty {
        context.diagnostics.warning(
          "cannot-carry",
          "the object around the tasks has members no reminder holds; they are not imported: "
            + keys.joined(separator: ", "),
          at: wrapper.location)
      }
      return true
    case .item:
      return false
    }
  }

  /// A task as a reminder, and the name of its list: its project, else the list of tasks
  /// without one (nil under `--list`, which names the list itself).
  private func decode(_ members: [String: JSONValue], at location: SourceLocation) -> (Reminder, String?) {
    var fields = JSONObjectFields(members, location: location, diagnostics: context.diagnostics)
    for key in TaskwarriorFormat.derivedFields { _ = fields.take(key) }
    var kept: [String: JSONValue] = [:]

    let uuid = fields.string("uuid")
    let remconvID = fields.string(UDA.id)
    fields.uid = remconvID ?? uuid
    var title = fields.string("description") ?? ""
    if let original = fields.string(UDA.title), title == TaskwarriorFormat.untitledDescription {
      title = original
    }

    var isDone = false
    switch fields.string("status") {
    case "pending": break
    case "completed": isDone = true
    case "deleted":
      isDone = true
      kept["status"] = .string("deleted")
    case let status? where status == "waiting" || status == "recurring":
      kept["status"] = .string(status)
    case let status?:
      fields.reject(
        "status", .string(status),
        "status '\(status)' is not pending, waiting, completed, deleted or recurring; read as pending")
    case nil where (members["status"] ?? .null).isNull:
      context.diagnostics.warning(
        "missing-status", "the task has no status; read as pending", at: location, uid: fields.uid)
    case nil: break
    }

    let instant = TaskwarriorDate.expected
    // An instant `task` cannot hold was written as remconv's text in a UDA instead.
    var completedAt = fields.timestamp("end", expected: instant, parse: TaskwarriorDate.parse)
    var createdAt = fields.timestamp("entry", expected: instant, parse: TaskwarriorDate.parse)
    var editedAt = fields.timestamp("modified", expected: instant, parse: TaskwarriorDate.parse)
    let iso = "an ISO 8601 instant"
    if let kept = fields.timestamp(UDA.entry, expected: iso, parse: Timestamp.init(iso:)) { createdAt = kept }
    if let kept = fields.timestamp(UDA.modified, expected: iso, parse: Timestamp.init(iso:)) { editedAt = kept }
    if let kept = fields.timestamp(UDA.end, expected: iso, parse: Timestamp.init(iso:)), isDone { completedAt = kept }
    let due = Self.dateAttribute("due", original: UDA.due, sent: UDA.dueSent, from: &fields)
    let start = Self.dateAttribute("scheduled", original: UDA.scheduled, sent: UDA.scheduledSent, from: &fields)
    // An instance's `recur` is its template's: kept with the instance, never a rule of its own.
    let repeats =
      members["parent"] == nil ? Self.repeats(due: due, from: &fields, timeZone: context.options.timeZone) : nil

    var priority = Priority.none
    switch fields.take("priority") {
    case .string("H")?: priority = .high
    case .string("M")?: priority = .medium
    case .string("L")?: priority = .low
    case let value?:
      kept["priority"] = value
      context.diagnostics.warning(
        "unmapped-value",
        "priority \(JSONText.encode(value)) is not H, M or L; kept in extra.taskwarrior and written back",
        at: location, uid: fields.uid)
    case nil: break
    }

    var project = fields.string("project")
    if project?.allSatisfy(\.isWhitespace) == true { project = nil }

    var tags = fields.strings("tags") ?? []
    let flagged = tags.contains("flagged")
    if let text = fields.string(UDA.tags), let originals = (try? JSONParser.parse(text))?.arrayValue,
      case let original = originals.compactMap(\.stringValue), original.count == originals.count,
      Set(TaskwarriorTags.written(original, flagged: flagged)) == Set(tags)
    {
      // The tags are still those written for these: the originals come back.
      tags = original
    } else {
      tags.removeAll { $0 == "flagged" }
    }

    var notes = ""
    if let annotations = fields.array("annotations") {
      kept["annotations"] = .array(annotations)
      var lines: [String] = []
      for (index, annotation) in annotations.enumerated() {
        if let text = annotation["description"]?.stringValue {
          lines.append(text)
        } else {
          context.diagnostics.warning(
            "invalid-value",
            "annotation \(index + 1) has no description text; it is kept in extra.taskwarrior, not in the notes",
            at: location, uid: fields.uid)
        }
      }
      notes = lines.joined(separator: "\n")
    }

    let parentID = fields.string(UDA.parent)
    let url = fields.string(UDA.url)
    for (key, value) in fields.remaining where !key.hasPrefix(UDA.prefix) { kept[key] = value }
    var list = project
    if project == nil, context.options.listName == nil {
      list = TaskwarriorFormat.listWithoutProjectName
      kept[TaskwarriorFormat.listWithoutProjectKey] = .string(TaskwarriorFormat.listWithoutProjectName)
    }

    let listID = list.map { StableID.derived(["list", ListName.key(for: $0)]) } ?? ""
    let id: String
    if let known = remconvID ?? uuid {
      id = known
    } else {
      id = derivedIDs.next(["taskwarrior", project ?? "", title, createdAt?.description ?? ""])
      context.diagnostics.warning(
        "missing-uid", "the task has no uuid; it gets the derived UID \(id)", at: location, uid: nil)
    }
    var reminder = Reminder(
      id: id, listID: listID, parentID: parentID, title: title, notes: notes, isDone: isDone,
      completedAt: completedAt, flagged: flagged, dueDate: due, priority: priority, tags: tags, url: url,
      createdAt: createdAt, editedAt: editedAt)
    reminder.startDate = start
    reminder.recurrence = repeats?.recurrence
    reminder.alarms = repeats?.alarms ?? []
    reminder.extra = fields.extra(formatKey: TaskwarriorFormat.extraKey, kept: kept)
    return (reminder, list)
  }

  /// A date attribute (`due`, `scheduled`) as a due kind: `task`'s UTC instant, or the kind
  /// remconv wrote it from (`original`, the remconv text) while the attribute is still the one
  /// written (`sent`). A value `task` cannot hold travels only as the remconv text.
  private static func dateAttribute(
    _ field: String, original uda: String, sent udaSent: String, from fields: inout JSONObjectFields
  ) -> DueDate? {
    let text = fields.string(field)
    var value: DueDate?
    if let text {
      if let instant = TaskwarriorDate.parse(text) {
        value = .utc(instant.utcWallTime)
      } else {
        fields.reject(field, .string(text), "\(field): '\(text)' is not \(TaskwarriorDate.expected)")
      }
    }
    let original = fields.string(uda)
    let sent = fields.string(udaSent)
    guard let original, (value == nil && text == nil && sent == nil) || (value != nil && sent == text) else {
      return value
    }
    guard let restored = dueDate(fromRemconvText: original) else {
      fields.reject(uda, .string(original), "\(uda): '\(original)' is not a remconv due date")
      return value
    }
    return restored
  }

  /// The template's `recur` and `until` as a rule, and the alarms remconv wrote (Taskwarrior has
  /// none). While `recur` and `until` are those remconv wrote, the rule as remconv had it comes
  /// back from `remconv_recurrence` (with what `task` cannot hold: exceptions, a count, a rule
  /// it cannot follow). A `recur` `task` would not take is kept in extra, reported.
  private static func repeats(due: DueDate?, from fields: inout JSONObjectFields, timeZone: TimeZone) -> (
    recurrence: Recurrence?, alarms: [Alarm]
  ) {
    var alarms: [Alarm] = []
    if let text = fields.string(UDA.alarms) {
      if let decoded = TaskwarriorRepeats.alarms(fromUDA: text) {
        alarms = decoded
      } else {
        fields.reject(UDA.alarms, .string(text), "\(UDA.alarms): '\(text)' is not remconv's alarms")
      }
    }
    let recur = fields.remaining["recur"]?.stringValue
    let until = fields.remaining["until"]?.stringValue
    if let text = fields.string(UDA.recurrence) {
      guard let kept = TaskwarriorRepeats.Kept(udaText: text) else {
        fields.reject(UDA.recurrence, .string(text), "\(UDA.recurrence): '\(text)' is not remconv's recurrence")
        return (nil, alarms)
      }
      if kept.recur == recur, kept.until == until {
        if recur != nil { _ = fields.take("recur") }
        if until != nil { _ = fields.take("until") }
        return (kept.recurrence, alarms)
      }
    }
    guard let recur,
      let recurrence = TaskwarriorRepeats.recurrence(recur: recur, until: until, due: due, timeZone: timeZone)
    else {
      // No rule, or one `task` would not take: `recur` and `until` stay in extra as they are.
      if let recur {
        let cause =
          TaskwarriorRecur.rule(forRecur: recur) == nil
          ? "recur '\(recur)' is no period task 2.6 takes" : "until '\(until ?? "")' is not \(TaskwarriorDate.expected)"
        fields.diagnostics.warning(
          "unmapped-value", "\(cause); recur and until are kept in extra.taskwarrior and written back",
          at: fields.location, uid: fields.uid)
      }
      return (nil, alarms)
    }
    _ = fields.take("recur")
    _ = fields.take("until")
    return (recurrence, alarms)
  }

  /// Reads `remconv_due`: the JSON `dueDate` text, then the zone after a space when zoned.
  static func dueDate(fromRemconvText text: String) -> DueDate? {
    let parts = text.split(separator: " ", maxSplits: 1).map(String.init)
    guard let first = parts.first else { return nil }
    return try? DueDate(isoText: first, timeZone: parts.count > 1 ? parts[1] : nil)
  }
}
