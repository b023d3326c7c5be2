import Foundation

/// `--format taskwarrior`: what `task export` writes and `task import` reads.
///
/// A JSON array of task objects (`json.array=on`, the default) or one object per line. The
/// mapping is documented in `docs/formats-apps.md`; in short: `project` is the list,
/// `description` the title, `annotations` the notes, `uuid` the UID, `due`/`end`/`entry`/
/// `modified` UTC instants in the basic form `20261130T090000Z`, `scheduled` the start date, a
/// template's `recur` and `until` the recurrence (see `TaskwarriorRecur`). What Taskwarrior has
/// and the model does not (`depends`, `wait`, UDAs, …) is kept in `extra.taskwarrior` and
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

  /// Date attributes kept in `extra.taskwarrior` and written back, when `task` can hold them
  /// (`until` of a task without `recur` is when `task` deletes it; a recurring task's is the
  /// rule's end).
  static let keptDateFields = ["wait", "until"]

  /// Fields `task export` derives on every run; they are not data and are not kept.
  static let derivedFields: Set<String> = ["id", "urgency"]

  /// Extra bookkeeping: the list a task without a project was imported into. While the
  /// reminder stays in that list, it is written back without a project.
  static let listWithoutProjectKey = "remconv_list_without_project"

  /// The list tasks without a project go to (unless `--list` names one): always this name,
  /// so a newer export under another file name finds the same list.
  static let listWithoutProjectName = "Taskwarrior"

  /// Extra bookkeeping on a recurring task's template: its instances (tasks whose `parent`
  /// is the template), as `task export` wrote them. The template and its instances are one
  /// reminder; the instances are written back after the template.
  static let instancesKey = "remconv_instances"

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
    /// The start date as remconv had it, and the `scheduled` it was written as (as for `due`).
    static let scheduled = "remconv_scheduled"
    static let scheduledSent = "remconv_scheduled_sent"
    /// The recurrence as remconv had it, with the `recur` and `until` it was written as (a
    /// JSON object): restored while the template's are still those.
    static let recurrence = "remconv_recurrence"
    /// The alarms (a JSON array): Taskwarrior has none.
    static let alarms = "remconv_alarms"
    /// The real title when `description` holds the placeholder for an empty one.
    static let title = "remconv_title"
    /// The tags as remconv had them (a JSON array), when some had to be written otherwise.
    /// Restored while the task's tags are still those written.
    static let tags = "remconv_tags"
    /// Instants `task` cannot hold (see `TaskwarriorDate.isWritable`), as remconv's ISO text,
    /// in place of `entry`, `end` and `modified`.
    static let entry = "remconv_entry"
    static let end = "remconv_end"
    static let modified = "remconv_modified"

    static let prefix = "remconv_"
  }
}

/// Taskwarrior's dates: `20261130T090000Z` on export; import also takes ISO 8601 with a zone
/// and epoch seconds (Taskwarrior's own tests import `"entry":"1234567889"`).
enum TaskwarriorDate {
  /// What a date attribute must be, for messages.
  static let expected = "a Taskwarrior date (20261130T090000Z, ISO 8601 with a zone, or epoch seconds)"

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

  /// The instants `task import` (2.6) survives in a date attribute: earlier than 1980 or
  /// later than 9999-12-30 it crashes (a segmentation fault) on `due`, `wait`, `scheduled`,
  /// `until`, `modified`, an annotation's `entry`, a completed task's `end` and some `entry`
  /// times (1901-12-13T20:45:52Z).
  static let writableSeconds: ClosedRange<Int64> = 315_532_800...253_402_128_000

  static func isWritable(_ timestamp: Timestamp) -> Bool {
    writableSeconds.contains(timestamp.millisecondsSinceEpoch.floorDivided(by: 1000))
  }

  /// The nearest instant `task` can hold.
  static func clamped(_ timestamp: Timestamp) -> Timestamp {
    let seconds = timestamp.millisecondsSinceEpoch.floorDivided(by: 1000)
    let clamped = min(max(seconds, writableSeconds.lowerBound), writableSeconds.upperBound)
    return seconds == clamped ? timestamp : Timestamp(millisecondsSinceEpoch: clamped * 1000)
  }
}

/// Tags as `task` keeps them, for the writer and for the reader's check that they are unchanged.
enum TaskwarriorTags {
  /// A tag as written: white space (on which `task` splits a command line) and commas (on
  /// which `task import` splits a tag) become `_`; a tag literally named `flagged`, which is
  /// remconv's flag, becomes `flagged_tag` unless the reminder is flagged.
  static func written(_ tag: String, flagged: Bool) -> String {
    let written = String(tag.map { $0.isWhitespace || $0 == "," ? "_" : $0 })
    return written == "flagged" && !flagged ? "flagged_tag" : written
  }

  /// The `tags` written for a reminder's tags and flag: no empty tags, no repeats.
  static func written(_ tags: [String], flagged: Bool) -> [String] {
    var result: [String] = []
    for tag in tags {
      let written = written(tag, flagged: flagged)
      if !written.isEmpty, !result.contains(written) { result.append(written) }
    }
    if flagged, !result.contains("flagged") { result.append("flagged") }
    return result
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
