import Foundation

/// Writes what `task import` accepts: a JSON array, one task per line, as `task export` does.
final class TaskwarriorWriter: ReminderWriter {
  private typealias UDA = TaskwarriorFormat.UDA
  static let inputOrder = WriterInputOrder.anyOrder

  /// Members of `extra.taskwarrior` the writer maps itself rather than copying.
  private static let mappedExtraKeys: Set<String> = ["status", "annotations", "priority"]

  private let output: ByteWriter
  private let diagnostics: DiagnosticLog
  private let options: WriterOptions
  private var taskCount = 0
  /// Lists announced, and those that got a task: an empty project cannot exist in Taskwarrior.
  private var announced: [ReminderList] = []
  private var written: Set<String> = []
  /// How many reminders carry `extra` of other formats (`ical`, `csv`, ...), by key.
  private var foreignExtra: [String: Int] = [:]

  init(context: WriterContext) throws {
    output = try context.requireStream("taskwarrior")
    diagnostics = context.diagnostics
    options = context.options
    try output.write("[\n")
  }

  /// Reports what a list has beyond its name. (Its creation time is not reported: the store
  /// gives every list one, so it says nothing about what the user set.)
  func beginList(_ list: ReminderList) throws {
    announced.append(list)
    var lost: [String] = []
    if let color = list.color { lost.append("colour \(color)") }
    if list.symbol != ReminderList.defaultSymbol { lost.append("symbol \(list.symbol)") }
    if !list.extra.isEmpty { lost.append("extra \(JSONText.encode(.object(list.extra)))") }
    if !lost.isEmpty {
      diagnostics.warning(
        "cannot-carry",
        "Taskwarrior has projects, not lists: the \(lost.joined(separator: ", ")) of list '\(list.name)' are not written",
        uid: list.id)
    }
  }

  func write(_ reminder: Reminder, in list: ReminderList, depth: Int) throws {
    written.insert(list.id)
    try writeTask(taskObject(for: reminder, in: list))
    // A recurring task's instances follow their template, as `task export` gave them.
    let instances = reminder.extra[TaskwarriorFormat.extraKey]?[TaskwarriorFormat.instancesKey]?.arrayValue ?? []
    for instance in instances { try writeTask(instance.objectValue ?? [:]) }
  }

  private func writeTask(_ task: [String: JSONValue]) throws {
    try output.write(taskCount == 0 ? "" : ",\n")
    try output.write(JSONText.encode(.object(task)))
    taskCount += 1
  }

  func finish() throws {
    try output.write(taskCount == 0 ? "]\n" : "\n]\n")
    for list in announced where !written.contains(list.id) {
      diagnostics.warning(
        "cannot-carry",
        "Taskwarrior cannot carry the empty list '\(list.name)': a project exists only through its tasks",
        uid: list.id)
    }
    if !foreignExtra.isEmpty {
      let counts = foreignExtra.keys.sorted().map { key in
        let count = foreignExtra[key] ?? 0
        return "extra.\(key) of \(count) reminder\(count == 1 ? "" : "s")"
      }
      diagnostics.warning(
        "cannot-carry",
        "Taskwarrior cannot carry what other formats kept in extra; not written: \(counts.joined(separator: ", "))")
    }
    try output.flush()
  }

  // MARK: One task

  private func taskObject(for reminder: Reminder, in list: ReminderList) -> [String: JSONValue] {
    let kept = reminder.extra[TaskwarriorFormat.extraKey]?.objectValue ?? [:]
    for key in reminder.extra.keys where key != TaskwarriorFormat.extraKey { foreignExtra[key, default: 0] += 1 }
    var task: [String: JSONValue] = [:]
    for (key, value) in kept where !Self.mappedExtraKeys.contains(key) && !key.hasPrefix(UDA.prefix) {
      task[key] = value
    }

    let uuid = TaskwarriorUUID.forReminderID(reminder.id)
    task["uuid"] = .string(uuid)
    if uuid != reminder.id { task[UDA.id] = .string(reminder.id) }

    if reminder.title.isEmpty {
      task["description"] = .string(TaskwarriorFormat.untitledDescription)
      task[UDA.title] = .string("")
    } else {
      task["description"] = .string(reminder.title)
    }

    for field in TaskwarriorFormat.keptDateFields {
      guard let text = task[field]?.stringValue, let instant = TaskwarriorDate.parse(text),
        !TaskwarriorDate.isWritable(instant)
      else { continue }
      task[field] = nil
      diagnostics.warning(
        "cannot-carry",
        "task import crashes on dates before 1980 or after 9999-12-30: '\(field)' \(text) is not written",
        uid: reminder.id)
    }

    writeRepeats(of: reminder, into: &task)
    let keptStatus = kept["status"]?.stringValue
    if reminder.isDone {
      task["status"] = .string(keptStatus == "deleted" ? "deleted" : "completed")
      if let completedAt = reminder.completedAt {
        writeInstant(completedAt, as: "end", else: UDA.end, into: &task, uid: reminder.id)
      }
    } else if task["recur"] != nil, task["parent"] == nil {
      // A template: `task` makes its instances.
      task["status"] = .string("recurring")
    } else {
      let reopenable = keptStatus == "waiting" && kept["wait"] != nil
      task["status"] = .string(reopenable ? "waiting" : "pending")
      if let completedAt = reminder.completedAt {
        diagnostics.warning(
          "cannot-carry", "Taskwarrior keeps no completion time on an open task: \(completedAt) is not written",
          uid: reminder.id)
      }
    }
    if let createdAt = reminder.createdAt {
      writeInstant(createdAt, as: "entry", else: UDA.entry, into: &task, uid: reminder.id)
    }
    if let editedAt = reminder.editedAt {
      writeInstant(editedAt, as: "modified", else: UDA.modified, into: &task, uid: reminder.id)
    }

    if let due = reminder.dueDate {
      writeDate(due, as: "due", original: UDA.due, sent: UDA.dueSent, into: &task, uid: reminder.id)
    }
    if let start = reminder.startDate {
      writeDate(start, as: "scheduled", original: UDA.scheduled, sent: UDA.scheduledSent, into: &task, uid: reminder.id)
    }

    switch reminder.priority {
    case .high: task["priority"] = .string("H")
    case .medium: task["priority"] = .string("M")
    case .low: task["priority"] = .string("L")
    case .none: if let raw = kept["priority"] { task["priority"] = raw }
    }

    let withoutProjectIn = kept[TaskwarriorFormat.listWithoutProjectKey]?.stringValue
    if withoutProjectIn.map({ ListName.key(for: $0) == ListName.key(for: list.name) }) != true {
      task["project"] = .string(list.name)
    }

    let tags = taskTags(for: reminder)
    if !tags.isEmpty { task["tags"] = .array(tags.map(JSONValue.string)) }
    // Tags written otherwise travel as they were, for the way back.
    if tags != reminder.tags + (reminder.flagged && !reminder.tags.contains("flagged") ? ["flagged"] : []) {
      task[UDA.tags] = .string(JSONText.encode(.array(reminder.tags.map(JSONValue.string))))
    }

    let annotations = self.annotations(for: reminder, originals: kept["annotations"]?.arrayValue ?? [])
    if !annotations.isEmpty { task["annotations"] = .array(annotations) }

    if let parentID = reminder.parentID { task[UDA.parent] = .string(parentID) }
    if let url = reminder.url { task[UDA.url] = .string(url) }
    return task
  }

  /// An instant as `field`, or, when `task` cannot hold it, as remconv's text in the UDA
  /// `uda` (from where reading restores it), reported.
  private func writeInstant(
    _ instant: Timestamp, as field: String, else uda: String, into task: inout [String: JSONValue], uid: String
  ) {
    if TaskwarriorDate.isWritable(instant) {
      task[field] = .string(TaskwarriorDate.format(instant))
      return
    }
    task[uda] = .string(instant.description)
    diagnostics.warning(
      "cannot-carry",
      "task import crashes on dates before 1980 or after 9999-12-30: \(instant) is written as \(uda), not '\(field)'",
      uid: uid)
  }

  /// A due or start date as a UTC instant (`due`, `scheduled`). Other kinds are turned into
  /// one (a date at the end of that day, a floating time in the writer's zone) and remembered
  /// in `original` (`remconv_due`) with the instant written in `sent`, for the way back. A date
  /// `task` cannot hold is written only as `original`, reported.
  private func writeDate(
    _ due: DueDate, as field: String, original: String, sent sentField: String, into task: inout [String: JSONValue],
    uid: String
  ) {
    let name = field == "due" ? "due" : "start date"
    let seconds = instantSeconds(of: due, uid: uid)
    guard TaskwarriorDate.writableSeconds.contains(seconds) else {
      task[original] = .string(due.description)
      diagnostics.warning(
        "cannot-carry",
        "task import crashes on dates before 1980 or after 9999-12-30: the \(name) \(due) is written as \(original), not '\(field)'",
        uid: uid)
      return
    }
    let sent = TaskwarriorDate.format(utcSeconds: seconds)
    task[field] = .string(sent)
    if case .utc = due { return }
    task[original] = .string(due.description)
    task[sentField] = .string(sent)
  }

  /// The instant a due or start date is written as: a date at the end of that day, a floating
  /// time in the writer's zone.
  private func instantSeconds(of due: DueDate, uid: String) -> Int64 {
    let seconds: Int64
    switch due {
    case .utc(let time):
      seconds = Timestamp(utc: time).millisecondsSinceEpoch.floorDivided(by: 1000)
    case .zoned(let time, let identifier):
      if let zone = TimeZone(identifier: identifier) {
        seconds = DueDate.utcSeconds(ofWallTime: time, in: zone)
      } else {
        diagnostics.warning(
          "unknown-zone",
          "the time zone '\(identifier)' is unknown here; the due time is read in \(options.timeZone.identifier)",
          uid: uid)
        seconds = DueDate.utcSeconds(ofWallTime: time, in: options.timeZone)
      }
    case .floating(let time):
      seconds = DueDate.utcSeconds(ofWallTime: time, in: options.timeZone)
    case .date(let date):
      // The end of the day: a task due "on the 30th" is not overdue during the 30th.
      seconds = endOfDay(date)
    }
    return seconds
  }

  private func endOfDay(_ date: LocalDate) -> Int64 {
    let endOfDay = LocalDateTime(secondsSinceEpoch: Int64(date.daysSinceEpoch) * 86400 + 86399)
    return DueDate.utcSeconds(ofWallTime: endOfDay, in: options.timeZone)
  }

  /// `recur` and `until` for a recurring reminder, so that `task` repeats it (its template is
  /// `status: recurring` while open). What `task` cannot follow is reported and, with the rule
  /// as remconv has it, kept in `remconv_recurrence`, from where reading restores it while
  /// `recur` and `until` are unchanged. Alarms ride in `remconv_alarms`, reported.
  private func writeRepeats(of reminder: Reminder, into task: inout [String: JSONValue]) {
    if !reminder.alarms.isEmpty {
      task[UDA.alarms] = .string(TaskwarriorRepeats.udaText(alarms: reminder.alarms))
      let count = reminder.alarms.count
      diagnostics.warning(
        "cannot-carry",
        "Taskwarrior has no alarms: \(count) alarm\(count == 1 ? "" : "s") \(count == 1 ? "rides" : "ride") in \(UDA.alarms), which task keeps but does not act on",
        uid: reminder.id)
    }
    guard let recurrence = reminder.recurrence else { return }
    var unfollowed: [String] = []
    if !recurrence.exceptionDates.isEmpty {
      unfollowed.append("EXDATE " + recurrence.exceptionDates.map(\.description).joined(separator: ", "))
    }
    if !recurrence.additionalDates.isEmpty {
      unfollowed.append("RDATE " + recurrence.additionalDates.map(\.description).joined(separator: ", "))
    }
    if recurrence.basis == .completion { unfollowed.append("repeating from completion") }
    var written: (recur: String, until: String?)?
    if let due = reminder.dueDate {
      switch TaskwarriorRecur.written(rule: recurrence.rule, firstDay: Self.firstDay(of: due)) {
      case .success(let result):
        unfollowed += result.unfollowed
        var until: String?
        if let end = result.until.map(untilInstant), TaskwarriorDate.isWritable(end) {
          until = TaskwarriorDate.format(end)
        } else if let end = result.until {
          unfollowed.append("the end \(end), which task cannot hold")
        }
        written = (result.recur, until)
      case .failure(let unwritable):
        diagnostics.warning(
          "cannot-carry",
          "Taskwarrior cannot repeat by the rule \(recurrence.rule) (\(unwritable.reason)): written as a task without recur, the rule kept in \(UDA.recurrence)",
          uid: reminder.id)
      }
    } else {
      diagnostics.warning(
        "cannot-carry",
        "Taskwarrior repeats only a task with a due date: the rule \(recurrence.rule) is kept in \(UDA.recurrence)",
        uid: reminder.id)
    }
    if let written {
      task["recur"] = .string(written.recur)
      task["until"] = written.until.map(JSONValue.string)
      if !unfollowed.isEmpty {
        diagnostics.warning(
          "cannot-carry",
          "Taskwarrior cannot carry \(unfollowed.joined(separator: "; ")) of the rule \(recurrence.rule): task repeats it as recur:\(written.recur) without, kept in \(UDA.recurrence)",
          uid: reminder.id)
      }
    }
    let readBack = written.flatMap {
      TaskwarriorRepeats.recurrence(recur: $0.recur, until: $0.until, due: reminder.dueDate, timeZone: options.timeZone)
    }
    if readBack != recurrence {
      task[UDA.recurrence] = .string(
        TaskwarriorRepeats.Kept(recurrence: recurrence, recur: written?.recur, until: written?.until).udaText)
    }
  }

  /// The day a rule's first occurrence falls on: the due's own day.
  private static func firstDay(of due: DueDate) -> LocalDate {
    switch due {
    case .date(let date): date
    case .floating(let time), .utc(let time), .zoned(let time, _): time.date
    }
  }

  /// A rule's UNTIL as an instant: a day ends at its last second in the writer's zone, as a
  /// date due does; a floating time is read in the writer's zone.
  private func untilInstant(_ until: TaskwarriorRecur.Until) -> Timestamp {
    switch until {
    case .instant(let instant): instant
    case .date(let date): Timestamp(millisecondsSinceEpoch: endOfDay(date) * 1000)
    case .floating(let time):
      Timestamp(millisecondsSinceEpoch: DueDate.utcSeconds(ofWallTime: time, in: options.timeZone) * 1000)
    }
  }

  /// Tags as `TaskwarriorTags` writes them, each change reported (the originals travel in
  /// `remconv_tags`), and `flagged` for the flag.
  private func taskTags(for reminder: Reminder) -> [String] {
    for tag in reminder.tags {
      let written = TaskwarriorTags.written(tag, flagged: reminder.flagged)
      if written.isEmpty {
        diagnostics.warning(
          "cannot-carry", "Taskwarrior cannot carry an empty tag: it is not written", uid: reminder.id)
      } else if written == "flagged_tag", tag == "flagged" {
        diagnostics.warning(
          "cannot-carry", "the tag 'flagged' is remconv's flag in Taskwarrior: it is written as 'flagged_tag'",
          uid: reminder.id)
      } else if written != tag {
        diagnostics.warning(
          "cannot-carry",
          "Taskwarrior tags cannot contain white space or commas: the tag '\(tag)' is written as '\(written)'",
          uid: reminder.id)
      }
    }
    return TaskwarriorTags.written(reminder.tags, flagged: reminder.flagged)
  }

  /// The notes as annotations. Unchanged notes give back the original annotations with their
  /// times; notes that only grew keep those and add the new text as one annotation; other
  /// notes become one annotation holding them whole (line breaks kept).
  private func annotations(for reminder: Reminder, originals: [JSONValue]) -> [JSONValue] {
    guard !reminder.notes.isEmpty else { return [] }
    let originalText = originals.compactMap { $0["description"]?.stringValue }.joined(separator: "\n")
    if !originals.isEmpty, reminder.notes == originalText { return originals }
    var result: [JSONValue] = []
    var text = reminder.notes
    let keptPrefix = Array((originalText + "\n").utf8)
    if !originals.isEmpty, reminder.notes.utf8.starts(with: keptPrefix) {
      result = originals
      text = String(decoding: reminder.notes.utf8.dropFirst(keptPrefix.count), as: UTF8.self)
    }
    // Taskwarrior keys annotations by their time: a new one must come after the kept ones.
    let latestKept = result.compactMap { $0["entry"]?.stringValue.flatMap(TaskwarriorDate.parse) }.max()
    // An annotation's time is no reminder value: one `task` cannot hold is moved into its range.
    // Without any time of the reminder's, the earliest time `task` holds stands in rather than
    // the time of export, so every export of the same reminder is the same.
    let earliest = Timestamp(millisecondsSinceEpoch: TaskwarriorDate.writableSeconds.lowerBound * 1000)
    var entry = TaskwarriorDate.clamped(reminder.editedAt ?? reminder.createdAt ?? earliest)
    if let latestKept, entry.millisecondsSinceEpoch / 1000 <= latestKept.millisecondsSinceEpoch / 1000 {
      entry = Timestamp(millisecondsSinceEpoch: (latestKept.millisecondsSinceEpoch / 1000 + 1) * 1000)
    }
    result.append(.object(["entry": .string(TaskwarriorDate.format(entry)), "description": .string(text)]))
    return result
  }
}
