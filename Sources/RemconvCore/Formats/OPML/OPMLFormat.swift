/// `--format opml`: OPML 2.0 outlines, as outliners (Workflowy, Dynalist, OmniOutliner, Logseq,
/// Zavala, Tinderbox) and Todoist converters exchange them.
///
/// A document holds lists as top-level outlines, their reminders as children and subtasks
/// nested below. What OPML has no attribute for goes in attributes of remconv's namespace
/// (`OPMLFormat.namespace`), so remconv's own files round-trip losslessly. See
/// `docs/formats-opml.md` for the mapping, the rule for outlines without a list level, and the
/// XML safety settings.
public enum OPMLFormat {
  /// The namespace of remconv's own attributes, bound to the prefix `remconv` when written.
  public static let namespace = "https://remconv.dev/opml/1"
  static let prefix = "remconv"
  /// The `extra` key holding the attributes of other producers, by name (namespaced ones as
  /// `{uri}name`), written back as they came.
  static let extraKey = "opml"
  /// The document title written in `<head>`.
  static let documentTitle = "Reminders"

  public static let descriptor = FormatDescriptor(
    name: "opml", summary: "OPML 2.0 outline: lists, reminders and nested subtasks (outliners, Todoist)",
    extensions: ["opml"], isDirectory: false,
    makeReader: { context in try OPMLReader(context: context) },
    makeWriter: { context in try OPMLWriter(context: context) },
    sniff: { head in String(decoding: head, as: UTF8.self).contains("<opml") },
    dialect: { head in String(decoding: head, as: UTF8.self).contains(namespace) ? nil : withoutOwnAttributes })

  /// An OPML document as an outliner writes it: without the attributes of remconv's namespace.
  @Sendable static func withoutOwnAttributes(_ document: [UInt8]) -> [UInt8] {
    let marker = Array(" \(prefix):".utf8)
    var result: [UInt8] = []
    result.reserveCapacity(document.count)
    var index = 0
    while index < document.count {
      // ` remconv:name="value"`: the writer escapes every quote inside a value.
      if document[index] == marker[0], document[index...].starts(with: marker),
        let open = document[index...].firstIndex(of: UInt8(ascii: "\"")),
        let close = document[(open + 1)...].firstIndex(of: UInt8(ascii: "\""))
      {
        index = close + 1
        continue
      }
      result.append(document[index])
      index += 1
    }
    return result
  }
}

/// The names of the attributes remconv reads and writes.
enum OPMLName {
  // OPML 2.0 and the outliners' de-facto attributes, without a namespace.
  static let text = "text"
  /// The OPML 1.0 fallback some subscription lists use when `text` is missing.
  static let title = "title"
  static let note = "_note"
  /// Workflowy's completion.
  static let complete = "_complete"
  /// Dynalist's completion.
  static let dynalistComplete = "complete"
  /// OmniOutliner, Zavala and Tinderbox: `checked` or `unchecked`.
  static let status = "_status"
  /// RFC 822 creation time (OPML 2.0).
  static let created = "created"
  /// Comma-separated categories; one without slashes is a tag (OPML 2.0).
  static let category = "category"
  static let type = "type"
  static let url = "url"

  /// The local names of remconv's attributes: the keys of `--format json` where one exists.
  enum Remconv {
    /// `list` on a list outline.
    static let kind = "kind"
    /// `true` when `text` is the literal title, to be read without HTML or task markers.
    static let literal = "literal"
    static let id = "id"
    static let parentID = "parentId"
    static let dueDate = "dueDate"
    static let dueTimeZone = "dueTimeZone"
    static let startDate = "startDate"
    static let startTimeZone = "startTimeZone"
    /// JSON, as the JSON contract's `recurrence` and `alarms` keys.
    static let recurrence = "recurrence"
    static let alarms = "alarms"
    static let priority = "priority"
    static let flagged = "flagged"
    static let tags = "tags"
    static let url = "url"
    static let createdAt = "createdAt"
    static let editedAt = "editedAt"
    static let completedAt = "completedAt"
    static let extra = "extra"
    static let symbol = "symbol"
    static let color = "color"
  }

  static let listKind = "list"
  static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"

  /// `{uri}name`, the key of a namespaced attribute in `extra.opml`.
  static func clark(_ localName: String, namespace: String) -> String { "{\(namespace)}\(localName)" }
}
