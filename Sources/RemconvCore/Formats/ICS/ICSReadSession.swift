/// What the decoders of one input share: where they read, how they warn, its time zones.
final class ICSReadSession {
  let file: String
  let diagnostics: DiagnosticLog
  let options: ReaderOptions
  let zones: TimeZoneBook
  let links: ChildLinks
  let derivedIDs: DerivedIDGenerator
  /// Keys of warnings given once per input (floating timestamps, ...).
  private var warned: Set<String> = []
  /// How often a warning said once per input came up, said or not.
  private(set) var onceWarningsAsked = 0

  init(
    file: String, diagnostics: DiagnosticLog, options: ReaderOptions, links: ChildLinks, derivedIDs: DerivedIDGenerator
  ) {
    self.file = file
    self.diagnostics = diagnostics
    self.options = options
    self.zones = TimeZoneBook(file: file, diagnostics: diagnostics)
    self.links = links
    self.derivedIDs = derivedIDs
  }

  /// Where in the input a line of the iCalendar read stands, when the iCalendar is a
  /// translation (jCal): where the component it came from begins.
  var sourceLocation: ((Int) -> SourceLocation)?

  func location(_ line: Int?) -> SourceLocation {
    if let line, let sourceLocation { return sourceLocation(line) }
    return SourceLocation(file: file, line: line)
  }

  func warn(_ code: String, _ message: String, line: Int?, uid: String?) {
    diagnostics.warning(code, message, at: location(line), uid: uid)
  }

  /// Warns the first time `key` comes up in this input; later cases are alike and stay quiet.
  func warnOnce(_ key: String, _ code: String, _ message: String, line: Int?, uid: String?) {
    onceWarningsAsked += 1
    guard warned.insert(key).inserted else { return }
    warn(code, message + " (said once per input)", line: line, uid: uid)
  }
}

/// Subtask links stated from the parent's side (`RELATED-TO;RELTYPE=CHILD` on the parent),
/// collected by the pre-scan so that a child read before its parent still finds it.
final class ChildLinks {
  struct Link {
    var parent: String
    var location: SourceLocation
  }

  private var parents: [String: Link] = [:]
  private var seen: Set<String> = []

  func add(child: String, parent: String, at location: SourceLocation) {
    if parents[child] == nil { parents[child] = Link(parent: parent, location: location) }
  }

  /// Every link, by the child's UID.
  var parentsByChild: [String: String] { parents.mapValues(\.parent) }

  /// The parent that names `child` as its child, if any.
  func parent(of child: String) -> Link? { parents[child] }

  /// Records that a reminder with this UID was read.
  func markSeen(_ uid: String) {
    if parents[uid] != nil { seen.insert(uid) }
  }

  /// Warns about children that parents name but the input does not hold.
  func reportMissing(to diagnostics: DiagnosticLog) {
    for (child, link) in parents.sorted(by: { $0.key < $1.key }) where !seen.contains(child) {
      diagnostics.warning(
        "missing-child", "RELATED-TO;RELTYPE=CHILD names \(child), which is not in the input; the link is dropped",
        at: link.location, uid: link.parent)
    }
  }
}
