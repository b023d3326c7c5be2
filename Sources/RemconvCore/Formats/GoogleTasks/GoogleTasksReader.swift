/// Reads Google Tasks JSON one task at a time.
final class GoogleTasksReader: ReminderReader {
  private typealias Kind = GoogleTasksFormat.Kind

  private let context: ReaderContext
  private let stream: JSONItemStream
  private let derivedIDs = DerivedIDGenerator()
  /// For each open container: its `kind`, the list it is (nil for an envelope), its members and
  /// where it starts.
  private var containers:
    [(kind: String?, list: ReminderList?, members: [String: JSONValue], location: SourceLocation)] = []

  init(context: ReaderContext) throws {
    self.context = context
    stream = JSONItemStream(parser: JSONParser(reader: try context.openByteReader()), itemsKeys: ["items"])
    stream.onDuplicateKey = context.duplicateKeyWarning
  }

  func next() throws -> SourceRecord? {
    while let event = try stream.next() {
      switch event {
      case .containerStart(let members, _, let depth, let location):
        let kind = members["kind"]?.stringValue
        let isList = kind == Kind.taskList || (kind == nil && (parentKind == Kind.taskLists || depth > 0))
        guard isList else {
          containers.append((kind, nil, members, location))
          continue
        }
        let list = decodeList(members, at: location)
        containers.append((kind, list, members, location))
        return .list(list)
      case .containerEnd(let trailing, _):
        guard let (_, list, members, location) = containers.popLast(), let list, !trailing.isEmpty else { continue }
        // A list whose title or other members follow its tasks is completed now (same UID).
        var updated = decodeList(members.merging(trailing) { _, new in new }, at: location)
        updated.id = list.id
        return .list(updated)
      case .item(let members, let depth, let location):
        try APIErrorResponse.refuse(members, depth: depth, from: "the Google Tasks API", at: location)
        let kind = members["kind"]?.stringValue
        if kind == Kind.taskList || (kind == nil && parentKind == Kind.taskLists) {
          var list = decodeList(members, at: location)
          stream.keepItemDuplicates(in: &list.extra, uid: list.id, diagnostics: context.diagnostics)
          return .list(list)
        }
        let listID = containers.last(where: { $0.list != nil })?.list?.id ?? ""
        var reminder = decodeTask(members, listID: listID, at: location)
        stream.keepItemDuplicates(in: &reminder.extra, uid: reminder.id, diagnostics: context.diagnostics)
        return .reminder(reminder, location)
      }
    }
    return nil
  }

  private var parentKind: String? { containers.last?.kind }

  private func decodeList(_ members: [String: JSONValue], at location: SourceLocation) -> ReminderList {
    var fields = JSONObjectFields(members, location: location, diagnostics: context.diagnostics)
    _ = fields.take("kind")
    _ = fields.take("items")
    let fallbackName = context.options.listName ?? context.source.baseName ?? "Reminders"
    let name = fields.string("title") ?? fallbackName
    let id = fields.string("id") ?? StableID.derived(["list", ListName.key(for: name)])
    fields.uid = id
    return ReminderList(
      id: id, name: name, extra: fields.extra(formatKey: GoogleTasksFormat.extraKey, kept: fields.remaining))
  }

  private func decodeTask(_ members: [String: JSONValue], listID: String, at location: SourceLocation) -> Reminder {
    var fields = JSONObjectFields(members, location: location, diagnostics: context.diagnostics)
    var kept: [String: JSONValue] = [:]
    _ = fields.take("kind")
    let sourceID = fields.string("id")
    fields.uid = sourceID
    let title = fields.string("title") ?? ""
    let notes = fields.string("notes") ?? ""

    var isDone = false
    let status = fields.string("status")
    switch status {
    case "completed"?: isDone = true
    case "needsAction"?, nil: break
    case let other?: fields.reject("status", .string(other), "status '\(other)' is not needsAction or completed")
    }
    // A deleted task is kept, as done, with its mark (and its status when that was not done).
    if fields.remaining["deleted"]?.boolValue == true, !isDone {
      isDone = true
      if let status { kept["status"] = .string(status) }
    }

    var due: DueDate?
    if let text = fields.string("due") {
      // The API keeps only the date: the date part is the day, as written, never moved
      // through a zone (a UTC midnight read in America/… would be the day before).
      if let date = LocalDate(iso: String(text.prefix(10))), text.count == 10 || text.dropFirst(10).hasPrefix("T") {
        due = .date(date)
        if !["", "T00:00:00.000Z", "T00:00:00Z"].contains(String(text.dropFirst(10))) { kept["due"] = .string(text) }
      } else {
        fields.reject("due", .string(text), "due: '\(text)' is not an RFC 3339 date")
      }
    }
    let instant = "an RFC 3339 instant"
    let completedAt = fields.timestamp("completed", expected: instant, parse: Timestamp.init(iso:))
    let editedAt = fields.timestamp("updated", expected: instant, parse: Timestamp.init(iso:))
    let createdAt = fields.timestamp("created", expected: instant, parse: Timestamp.init(iso:))
    let parentID = fields.string("parent")

    let id = sourceID ?? derivedIDs.next(["googletasks", listID, parentID ?? "", title, due?.description ?? ""])
    if sourceID == nil {
      context.diagnostics.warning("missing-uid", "the task has no id; it gets the derived UID \(id)", at: location)
    }
    kept.merge(fields.remaining) { mapped, _ in mapped }
    var reminder = Reminder(
      id: id, listID: listID, parentID: parentID, title: title, notes: notes, isDone: isDone,
      completedAt: completedAt, dueDate: due, createdAt: createdAt, editedAt: editedAt)
    reminder.extra = fields.extra(formatKey: GoogleTasksFormat.extraKey, kept: kept)
    return reminder
  }
}
