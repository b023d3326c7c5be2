import Foundation

/// `--format taskwarrior`: what `task export` writes and `task import` reads.
///
/// A JSON array of task objects (`json.array=on`, the default) or one object per line. The
/// mapping is documented in `docs/formats-apps.md`; in short: `project` is the list,
/// `description` the title, `annotations` the notes, `uuid` the UID, `due`/`end`/`entry`/
/// `modified` UTC instants in the basic form `20261130T090000Z`. What Taskwarrior has and the
/// model does not (`depends`, `wait`, `recur`, UDAs, …) is kept in `extra.taskwarrior` and
/// written back; what the model has and Taskwarrior does not travels in `remconv_*` UDAs.
public enum TaskwarriorFormat {
  public static let descriptor = FormatDescriptor(
    name: "taskwarrior", summary: "Taskwarrior's task export / task import JSON", extensions: [],
    isDirectory: false,
    makeReader: { context in try TaskwarriorReader(context: context) },
    makeWriter: { context in try TaskwarriorWriter(context: context) },
    sniff: { head in
      let json = JSONHead(head)
      guard json.startsAsJSON, json.hasKey("description"), !json.hasKey("title") else { return false }
      return json.hasKey("uuid") || json.hasKey("entry") || json.hasKey("status")
    })

  /// The extra key of the fields kept verbatim.
  static let extraKey = "taskwarrior"

  /// Fields `task export` derives on every run; they are not data and are not kept.
  static let derivedFields: Set<String> = ["id", "urgency"]

  /// Extra bookkeeping: the list a task without a project was imported into. While the
  /// reminder stays in that list, it is written back without a project.
  static let listWithoutProjectKey = "remconv_list_without_project"

  /// The description written for an empty title: Taskwarrior cannot store an empty one
  /// (2.6 crashes on it). The real title rides in `remconv_title`.
  static let untitledDescription = "(untitled)"

  /// UDAs carrying what the model has and Taskwarrior does not. Prefixed so they never clash
  /// with a user's own UDAs.
  enum UDA {
    /// The reminder's UID when it is not the lower-case UUID written as `uuid`.
    static let id = "remconv_id"
    /// The UID of the parent reminder (Taskwarrior's own `parent` is a recurrence template).
    static let parent = "remconv_parent"
    static let url = "remconv_url"
    /// The due date as remconv had it (`2026-11-30`, `2026-11-30T09:00:00 Europe/Berlin`)
    /// when it was not a UTC instant, and the `due` it was written as: while `due` still
    /// equals `remconv_due_sent`, reading restores the original kind.
    static let due = "remconv_due"
    static let dueSent = "remconv_due_sent"
    /// The real title when `description` holds the placeholder for an empty one.
    static let title = "remconv_title"

    static let prefix = "remconv_"
  }
}

/// Taskwarrior's dates: `20261130T090000Z` on export; import also takes ISO 8601 with a zone
/// and epoch seconds (Taskwarrior's own tests import `"entry":"1234567889"`).
enum TaskwarriorDate {
  static func parse(_ text: String) -> Timestamp? {
    if !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let seconds = Int64(text),
      seconds < 253_402_300_800
    {
      return Timestamp(millisecondsSinceEpoch: seconds * 1000)
    }
    return Timestamp(iso: text)
  }

  /// The basic UTC form. Taskwarrior keeps whole seconds: a fraction is dropped.
  static func format(_ timestamp: Timestamp) -> String {
    timestamp.utcWallTime.basicString + "Z"
  }

  static func format(utcSeconds: Int64) -> String {
    format(Timestamp(millisecondsSinceEpoch: utcSeconds * 1000))
  }
}

/// UIDs as Taskwarrior wants them: RFC 4122 text, lower case.
enum TaskwarriorUUID {
  /// True for `8-4-4-4-12` hex digits, any case.
  static func isUUID(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard bytes.count == 36 else { return false }
    for (index, byte) in bytes.enumerated() {
      if [8, 13, 18, 23].contains(index) {
        guard byte == UInt8(ascii: "-") else { return false }
      } else {
        guard (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte) else {
          return false
        }
      }
    }
    return true
  }

  /// The `uuid` for a reminder UID: the UID itself in lower case when it is a UUID, else a
  /// UUID derived from it (the same UID always gives the same one).
  static func forReminderID(_ id: String) -> String {
    if isUUID(id) { return id.lowercased() }
    return StableID.derived(["taskwarrior", id]).lowercased()
  }
}
