extension FormatCarriage {
  /// The table of docs/formats.md, format by format: what is not listed is kept.
  public static let table: [FormatCarriage] = [
    FormatCarriage("json"),
    FormatCarriage("jsonl"),
    FormatCarriage("csv"),
    FormatCarriage("opml", identity: .derived),
    FormatCarriage("ics", changed: ["notes", "completedAt", "startDate", "url", "createdAt", "list.createdAt"]),
    FormatCarriage("jcal", changed: ["notes", "completedAt", "startDate", "url", "createdAt", "list.createdAt"]),
    FormatCarriage("vdir", changed: ["notes", "completedAt", "startDate", "url", "createdAt"]),
    FormatCarriage(
      "taskwarrior", extraKey: "taskwarrior", changed: ["completedAt", "createdAt", "list.name"],
      lost: ["extra", "list.symbol", "list.color", "list.createdAt", "list.extra"]),
    FormatCarriage(
      "csv:todoist", identity: .derived, extraKey: "todoist",
      changed: ["isDone", "dueDate", "recurrence", "list.name"],
      lost: [
        "completedAt", "flagged", "startDate", "alarms", "url", "createdAt", "editedAt", "extra", "list.symbol",
        "list.color", "list.createdAt", "list.extra",
      ]),
    FormatCarriage(
      "todoist-backup", identity: .derived, extraKey: "todoist", changed: ["isDone", "dueDate", "recurrence"],
      lost: [
        "completedAt", "flagged", "startDate", "alarms", "url", "createdAt", "editedAt", "extra",
        "list.symbol", "list.color", "list.createdAt", "list.extra",
      ]),
    // A start with a time is written as its day; a rule beyond every N days, weeks, months or
    // years (or weekly on named days, in Markdown) is reported and not written.
    FormatCarriage(
      "todotxt", identity: .derived, extraKey: "todotxt",
      changed: ["completedAt", "url", "createdAt", "startDate", "recurrence", "tags"],
      lost: ["notes", "editedAt", "alarms", "extra", "list.symbol", "list.color", "list.createdAt", "list.extra"]),
    FormatCarriage(
      "markdown", identity: .derived, extraKey: "markdown",
      changed: ["title", "notes", "completedAt", "dueDate", "createdAt", "startDate", "recurrence", "tags"],
      lost: [
        "flagged", "url", "editedAt", "alarms", "extra", "list.symbol", "list.color", "list.createdAt", "list.extra",
      ]),
    FormatCarriage(
      "googletasks", readOnly: true, extraKey: "googletasks",
      lost: [
        "flagged", "startDate", "recurrence", "alarms", "priority", "tags", "url", "extra", "list.symbol",
        "list.color", "list.createdAt", "list.extra",
      ]),
    FormatCarriage(
      "mstodo", readOnly: true, extraKey: "mstodo",
      changed: ["startDate", "recurrence", "alarms"],
      lost: ["flagged", "url", "extra", "list.symbol", "list.color", "list.createdAt", "list.extra"],
      carried: MicrosoftToDoFormat.carried),
    FormatCarriage(
      "csv:ticktick", readOnly: true, extraKey: "ticktick", changed: ["startDate", "recurrence", "alarms"],
      lost: ["flagged", "url", "editedAt", "extra", "list.symbol", "list.color", "list.createdAt", "list.extra"],
      carried: TickTickRecurrence.carried),
  ]
}
