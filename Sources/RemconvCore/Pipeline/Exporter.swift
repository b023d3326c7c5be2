/// Runs an export: the store's lists and reminders into one writer, from one snapshot.
public enum Exporter {
  public struct Options {
    /// `--list`: only these lists (matched by name key); empty for all.
    public var lists: [String] = []
    /// Keeps only the reminders for which it returns true (smart scopes).
    public var filter: ((Reminder) -> Bool)?
    /// Told what the export cannot write as stored (text that is not UTF-8).
    public var diagnostics: DiagnosticLog?

    public init() {}
  }

  /// Writes the store through `writer`. Returns how many reminders were written.
  @discardableResult
  public static func run(
    from store: Store, to writer: any ReminderWriter, options: Options, progress: ((Int) -> Void)? = nil
  ) throws -> Int {
    try store.read {
      var selected = try store.lists()
      if !options.lists.isEmpty {
        var chosen: [StoredList] = []
        for name in options.lists {
          guard let match = selected.first(where: { ListName.key(for: $0.list.name) == ListName.key(for: name) })
          else { throw RemconvError.notFound("no list named '\(name)' in the store") }
          if !chosen.contains(match) { chosen.append(match) }
        }
        selected = chosen
      }
      var count = 0
      for stored in selected {
        try writer.beginList(stored.list)
        var outline = OutlineFilter()
        let diagnostics = options.diagnostics
        let invalidText: ((Reminder, [String]) -> Void)? = diagnostics.map { log in
          { reminder, columns in
            log.warning(
              "invalid-utf8",
              "the stored \(columns.joined(separator: " and ")) \(columns.count == 1 ? "is" : "are") not UTF-8 text "
                + "(an older store's bytes); written with U+FFFD in place of the bytes that are not",
              uid: reminder.id)
          }
        }
        try store.forEachReminder(inListRow: stored.rowID, invalidText: invalidText) { reminder, depth in
          // A subtask whose parent the filter leaves out moves up, as outline writers expect.
          guard let depth = outline.visit(depth: depth, kept: options.filter?(reminder) ?? true) else { return }
          try writer.write(reminder, in: stored.list, depth: depth)
          count += 1
          if count & 1023 == 0 { progress?(count) }
        }
        try writer.endList(stored.list)
      }
      try writer.finish()
      return count
    }
  }
}
