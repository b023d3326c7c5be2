/// Runs an export: the store's lists and reminders into one writer, from one snapshot.
public enum Exporter {
  public struct Options {
    /// `--list`: only these lists (matched by name key); empty for all.
    public var lists: [String] = []
    /// Keeps only the reminders for which it returns true (smart scopes).
    public var filter: ((Reminder) -> Bool)?
    /// Where the export reports what it did on its own (orphan reminders written to the
    /// recovery list) and what it cannot write as stored (text that is not UTF-8).
    public var diagnostics: DiagnosticLog?

    public init() {}
  }

  /// Writes the store through `writer`. Returns how many reminders were written (those the
  /// writer left out are not counted).
  ///
  /// Orphan reminders (their list row is gone: an older remconv or a hand edit) are written
  /// too, into the list `ReminderList.recoveredName`, where `validate --fix` would move them:
  /// the store's list of that name when it has one, else a list made for the export only. The
  /// store is not changed, and a warning gives their count.
  @discardableResult
  public static func run(
    from store: Store, to writer: any ReminderWriter, options: Options, progress: ((Int) -> Void)? = nil
  ) throws -> Int {
    try store.read {
      let all = try store.lists()
      var selected = all
      if !options.lists.isEmpty {
        var chosen: [StoredList] = []
        for name in options.lists {
          guard let match = all.first(where: { ListName.key(for: $0.list.name) == ListName.key(for: name) })
          else { throw RemconvError.notFound("no list named '\(name)' in the store") }
          if !chosen.contains(match) { chosen.append(match) }
        }
        selected = chosen
      }
      let recoveredKey = ListName.key(for: ReminderList.recoveredName)
      let storedRecovery = all.first { ListName.key(for: $0.list.name) == recoveredKey }
      // Orphans belong to no list a `--list` names, unless it names the recovery list.
      let orphanCount =
        options.lists.isEmpty || storedRecovery.map(selected.contains) == true ? try store.orphanReminderCount() : 0
      let invalidText: ((Reminder, [String]) -> Void)? = options.diagnostics.map { log in
        { reminder, columns in
          log.warning(
            "invalid-utf8",
            "the stored \(columns.joined(separator: " and ")) \(columns.count == 1 ? "is" : "are") not UTF-8 text "
              + "(an older store's bytes); written with U+FFFD in place of the bytes that are not",
            uid: reminder.id)
        }
      }
      var count = 0
      // The text rule where records leave the model: what an older store or an edit holds
      // is not written for a reader to refuse.
      func write(_ reminder: Reminder, in list: ReminderList, depth: Int) throws {
        if let cleaned = TextRule.cleaned(reminder) {
          options.diagnostics?.warning(
            "cannot-carry", TextRule.message(cleaned.fields, of: "reminder", "not written"), uid: reminder.id)
          try writer.write(cleaned.0, in: list, depth: depth)
        } else {
          try writer.write(reminder, in: list, depth: depth)
        }
        count += 1
        if count & 1023 == 0 { progress?(count) }
      }
      var orphansWritten = 0
      func writeOrphans(into list: ReminderList) throws {
        var outline = OutlineFilter()
        try store.forEachOrphanReminder(invalidText: invalidText) { orphan, depth in
          guard let depth = outline.visit(depth: depth, kept: options.filter?(orphan) ?? true) else { return }
          var reminder = orphan
          reminder.listID = list.id
          try write(reminder, in: list, depth: depth)
          orphansWritten += 1
        }
      }
      func cleaned(_ list: ReminderList) -> ReminderList {
        guard let cleaned = TextRule.cleaned(list) else { return list }
        options.diagnostics?.warning(
          "cannot-carry", TextRule.message(cleaned.fields, of: "list", "not written"), uid: list.id)
        return cleaned.0
      }
      for stored in selected {
        let list = cleaned(stored.list)
        try writer.beginList(list)
        var outline = OutlineFilter()
        try store.forEachReminder(inListRow: stored.rowID, invalidText: invalidText) { reminder, depth in
          // A subtask whose parent the filter leaves out moves up, as outline writers expect.
          guard let depth = outline.visit(depth: depth, kept: options.filter?(reminder) ?? true) else { return }
          try write(reminder, in: list, depth: depth)
        }
        if orphanCount > 0, stored == storedRecovery { try writeOrphans(into: list) }
        try writer.endList(list)
      }
      if orphanCount > 0, storedRecovery == nil {
        let list = recoveryList(among: all)
        try writer.beginList(list)
        try writeOrphans(into: list)
        try writer.endList(list)
      }
      if orphansWritten > 0 {
        let listName = storedRecovery?.list.name ?? ReminderList.recoveredName
        options.diagnostics?.warning(
          "orphan-reminder",
          "\(orphansWritten) reminder\(orphansWritten == 1 ? "" : "s") without a list (its row is gone) exported in the list \(JSONText.quoted(listName)); the store is unchanged ('remconv validate --fix' moves them there)"
        )
      }
      try writer.finish()
      return count - writer.skippedCount
    }
  }

  /// The recovery list an export writes when the store has none: the UID `validate --fix`
  /// would give the list it creates, so a later import and a repair meet in one list.
  private static func recoveryList(among lists: [StoredList]) -> ReminderList {
    let key = ListName.key(for: ReminderList.recoveredName)
    let derived = StableID.derived(["list", key])
    let id = lists.contains { $0.list.id == derived } ? StableID.derived(["list", key, "orphans"]) : derived
    return ReminderList(id: id, name: ReminderList.recoveredName)
  }
}
