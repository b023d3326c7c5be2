/// `--format googletasks`: Google Tasks from Takeout (`Tasks.json`) or the Tasks API, read only.
///
/// Accepted shapes: Takeout's `{"kind":"tasks#taskLists","items":[{list…,"items":[task…]}]}`,
/// the API's task lists (`tasklists.list`, lists without tasks), a page of tasks
/// (`{"kind":"tasks#tasks","items":[…]}`, into the import's default list), a bare array of
/// tasks, or one task. The mapping is in `docs/formats-apps.md`; what it does not use is kept
/// in `extra.googletasks`.
public enum GoogleTasksFormat {
  public static let descriptor = FormatDescriptor(
    name: "googletasks", summary: "Google Tasks: Takeout Tasks.json or API task lists (read only)", extensions: [],
    isDirectory: false,
    makeReader: { context in try GoogleTasksReader(context: context) },
    makeWriter: nil,
    sniff: { head in
      let json = JSONHead(head)
      return json.startsAsJSON && json.values(of: "kind").contains { $0.hasPrefix("tasks#task") }
    })

  static let extraKey = "googletasks"

  /// The `kind` values of the Tasks API.
  enum Kind {
    static let taskLists = "tasks#taskLists"
    static let taskList = "tasks#taskList"
    static let tasks = "tasks#tasks"
    static let task = "tasks#task"
  }
}
