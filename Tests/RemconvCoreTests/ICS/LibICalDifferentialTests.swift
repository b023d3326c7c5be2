import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// remconv's own parser is the only parser of an import (docs/formats-ics.md); libical is its
/// oracle here. Over the shared corpus, the fixtures, the samples and the fuzz regressions, both
/// must accept and reject the same inputs, drop the same properties, and read the same values of
/// every VTODO. Where they differ by design, the divergence is listed below with its reason, and
/// nothing else may differ.
@Suite struct LibICalDifferentialTests {
  // MARK: Inputs

  /// Every `.ics` under the shared corpus (when present), the test fixtures, `Samples/` and
  /// `Fuzz/regressions/ics`.
  static var inputs: [String] {
    var folders = [
      Repository.path("Tests/RemconvCoreTests/Fixtures"), Repository.path("Tests/RemconvCLITests/Fixtures"),
      Repository.path("Samples"), Repository.path("Fuzz/regressions/ics"),
    ]
    if let corpus = corpusRoot { folders.append(corpus) }
    return folders.flatMap(icsFiles).sorted()
  }

  /// The shared corpus's root (`…/shared/corpus`), the parent of `ICSTest.corpusFolder`.
  static var corpusRoot: String? {
    ICSTest.corpusFolder.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
  }

  private static func icsFiles(under folder: String) -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
    return walker.compactMap { $0 as? String }.filter { $0.lowercased().hasSuffix(".ics") }.map { folder + "/" + $0 }
  }

  @Test func theSharedCorpusIsThere() {
    // Without the corpus the differential test covers only the repository's own files: said
    // here in every run, and a failure in CI, where the corpus must be provided.
    guard Self.corpusRoot == nil else { return }
    let message =
      "the shared corpus (shared/corpus/ics beside the repository, or $REMCONV_CORPUS) is absent: "
      + "LibICalDifferentialTests compared only the fixtures, samples and fuzz regressions"
    if ProcessInfo.processInfo.environment["CI"] == "true" {
      Issue.record(Comment(rawValue: message))
    } else {
      FileHandle.standardError.write(Data(("warning: " + message + "\n").utf8))
    }
  }

  @Test func theInputsIncludeEveryKind() {
    let inputs = Self.inputs
    #expect(inputs.contains { $0.contains("/Fuzz/regressions/ics/") })
    #expect(inputs.contains { $0.contains("/Samples/") })
    #expect(inputs.filter { $0.contains("/Fixtures/") }.count >= 10)
    if Self.corpusRoot != nil { #expect(inputs.filter { $0.contains("/shared/corpus/") }.count >= 60) }
  }

  // MARK: Divergences by design

  /// Inputs remconv refuses whole (exit 65 with FILE:LINE) that libical reads by repairing or
  /// ignoring what is broken: remconv does not guess at a file's structure (docs/formats-ics.md,
  /// *Broken structure*), and a VTIMEZONE no real zone looks like would make libical expand
  /// changes without end. Each name with its reason.
  static let refusedOnlyByRemconv: [String: String] = [
    "end-does-not-match-begin.ics": "an END that closes another component than the last BEGIN; libical closes both",
    "nesting-300.ics": "300 nested components, past remconv's nesting limit; libical nests them all",
    "vtimezone-secondly.ics":
      "a VTIMEZONE whose RRULE changes the offset every second; libical would expand it without end",
    "vtimezone-hourly-due-9999.ics": "a VTIMEZONE with an hourly RRULE, expanded by libical up to the year 9999",
  ]

  /// Inputs libical makes nothing of that remconv reads, each with its reason.
  static let readOnlyByRemconv: [String: String] = [
    "unnamed-component.ics": "libical gives up on the whole input at a `BEGIN:` without a name; remconv skips that "
      + "component with a warning and reads the VTODOs around it"
  ]

  /// A property libical drops that remconv keeps, or the reverse, by the kind of the reason.
  static func isIntentional(_ difference: PropertyVerdict) -> Bool {
    switch difference.side {
    case .onlyRemconv:
      // RFC 5545's syntax of a typed value, which libical reads loosely: a DATE-TIME with an
      // hour of 25 or a month of 13 or a year below 1 (libical keeps the digits), an INTEGER
      // that is not digits (`SEQUENCE:x`, which libical reads as 0), a DURATION with an empty
      // time part (`PT`, `P1DT`, read by libical as 0 or as the days), a GEO half that is not a
      // number (libical reads 0). remconv writes back what it keeps, so it keeps only valid
      // values. A name or an empty value must get the same verdict from both.
      return difference.message.contains(" value; ")
    case .onlyLibical:
      // Names are case-insensitive (RFC 5545 §2): libical refuses `x-foo` and lower-case
      // parameters of some properties that remconv reads as `X-FOO`.
      return difference.lowerCaseName
    }
  }

  struct PropertyVerdict: CustomStringConvertible {
    enum Side { case onlyRemconv, onlyLibical }
    var side: Side
    var name: String
    var message: String
    var lowerCaseName: Bool
    var description: String { "\(side == .onlyRemconv ? "only remconv" : "only libical") drops \(name): \(message)" }
  }

  // MARK: The comparison

  @Test(arguments: inputs)
  func bothAcceptTheSameAndReadTheSame(path: String) throws {
    try compare(path: path)
  }

  /// The shapes of the shared corpus's producers (Apple, Nextcloud, tasks.org, Thunderbird,
  /// Outlook) with long notes in many scripts, folded inside characters: 1,000 VTODOs of
  /// bench/generate_producers.py, the benchmark's second corpus.
  @Test func theProducersShapesOfTheBenchmarkReadTheSame() throws {
    // Its folds split UTF-8 sequences, so the file is not text until unfolded: written by the
    // shell, not read back as a String.
    let directory = TemporaryDirectory()
    let path = directory.file("producers-1000.ics")
    let outcome = try Program.run(
      "/bin/sh", ["-c", "python3 \"$0\" 1000 > \"$1\"", Repository.path("bench/generate_producers.py"), path])
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    guard outcome.status == 0, size > 0 else {
      let message = "bench/generate_producers.py did not run (python3 needed): \(outcome.errors)"
      if ProcessInfo.processInfo.environment["CI"] == "true" {
        Issue.record(Comment(rawValue: message))
      } else {
        FileHandle.standardError.write(Data(("warning: " + message + "\n").utf8))
      }
      return
    }
    try compare(path: path)
    #expect(try ICSTest.read(path: path).reminders.count == 1000)
  }

  private func compare(path: String) throws {
    let name = URL(fileURLWithPath: path).lastPathComponent
    let bytes = try #require(FileManager.default.contents(atPath: path).map { [UInt8]($0) })
    let libical = LibICalOracle.todos(in: bytes)
    let remconv: ICSTest.ReadResult
    do {
      remconv = try ICSTest.read(path: path, timeZone: "UTC")
    } catch {
      // remconv refused the input: libical must have too, or the refusal is a listed one.
      if libical != nil {
        #expect(Self.refusedOnlyByRemconv[name] != nil, "\(name): only remconv refuses it: \(error)")
      }
      return
    }
    guard let libical else {
      #expect(Self.readOnlyByRemconv[name] != nil, "\(name): libical makes no component of an input remconv reads")
      return
    }
    compareDroppedProperties(name: name, remconv: remconv, libical: libical)
    compareValues(name: name, remconv: remconv, libical: libical)
  }

  /// The properties each drops, per UID (a master and its overrides together): the names in
  /// remconv's `ical-error` warnings against those of libical's X-LIC-ERRORs that drop one.
  private func compareDroppedProperties(name: String, remconv: ICSTest.ReadResult, libical: [LibICalOracle.Todo]) {
    let remconvDrops = Dictionary(grouping: remconv.warnings("ical-error"), by: \.uid)
    var libicalDrops: [String?: [LibICalOracle.Problem]] = [:]
    for todo in libical { libicalDrops[todo.uid, default: []] += todo.problems.filter(\.dropsProperty) }
    for uid in Set(remconvDrops.keys).union(libicalDrops.keys) {
      var remconvNames = (remconvDrops[uid] ?? []).map { Self.propertyName(remconvMessage: $0.message) }
      var unmatched: [PropertyVerdict] = []
      for problem in libicalDrops[uid] ?? [] {
        let name = Self.propertyName(libicalMessage: problem.message)
        if let index = remconvNames.firstIndex(where: { $0 == name || ($0.hasPrefix("X-") && name == "X") }) {
          remconvNames.remove(at: index)
        } else {
          unmatched.append(
            PropertyVerdict(
              side: .onlyLibical, name: name, message: problem.message,
              lowerCaseName: name.uppercased() != name))
        }
      }
      let remconvMessages = (remconvDrops[uid] ?? []).map(\.message)
      for leftover in remconvNames {
        let message = remconvMessages.first { Self.propertyName(remconvMessage: $0) == leftover } ?? ""
        unmatched.append(PropertyVerdict(side: .onlyRemconv, name: leftover, message: message, lowerCaseName: false))
      }
      for difference in unmatched where !Self.isIntentional(difference) {
        Issue.record("\(name), UID \(uid ?? "none"): \(difference)")
      }
    }
  }

  /// What either names a line that is no `NAME:VALUE` at all.
  static let notAProperty = "(a line without a colon)"

  /// The property a remconv `ical-error` is about: its message begins with the name.
  static func propertyName(remconvMessage message: String) -> String {
    if message.hasPrefix("could not find a property name") { return notAProperty }
    let trimmed = message.hasPrefix("'") ? message.dropFirst() : message[...]
    return String(trimmed.prefix { $0 != " " && $0 != ":" && $0 != "'" })
  }

  /// The property a libical message names (`No value for SEQUENCE property`, `Can't parse as
  /// DATE-TIME value in DTSTART property`, `Parse error in property name: LAST-MOD`); `X` for
  /// any X- property.
  static func propertyName(libicalMessage message: String) -> String {
    if message.contains("could not find a property name") { return notAProperty }
    if let range = message.range(of: "Parse error in property name: ") {
      return String(message[range.upperBound...].prefix { $0 != " " })
    }
    let words = message.split(separator: " ")
    if let index = words.firstIndex(where: { $0.hasPrefix("property") }), index > 0 { return String(words[index - 1]) }
    return message
  }

  /// The values of each master VTODO (no RECURRENCE-ID) with a UID that remconv imported.
  private func compareValues(name: String, remconv: ICSTest.ReadResult, libical: [LibICalOracle.Todo]) {
    var compared: Set<String> = []
    for todo in libical where !todo.hasRecurrenceID {
      // The first VTODO of a UID is the reminder (a later one with the same UID is merged into
      // it or reported, docs/formats-ics.md), so only the first is compared.
      guard let uid = todo.uid, !uid.isEmpty, compared.insert(uid).inserted else { continue }
      guard let reminder = remconv.reminder(uid) else {
        Issue.record("\(name): libical reads VTODO \(uid), remconv does not")
        continue
      }
      let at = "\(name), UID \(uid)"
      #expect(
        Self.sameText(reminder.title, todo.summary),
        "\(at): SUMMARY \(reminder.title) against \(todo.summary ?? "none")")
      #expect(Self.sameText(reminder.notes, todo.description), "\(at): DESCRIPTION")
      let ical = reminder.extra["ical"]
      let invalid = ical?["invalid"]?.arrayValue?.compactMap(\.stringValue) ?? []
      // A DUE or DTSTART whose date is not one (a year below 1, a month of 13, an hour of 25) is
      // read by libical as its digits, and by remconv not at all (kept in extra.ical.invalid).
      let invalidDue = invalid.contains { $0.uppercased().hasPrefix("DUE") }
      let invalidStart = invalid.contains { $0.uppercased().hasPrefix("DTSTART") }
      switch todo.status {
      case "COMPLETED": #expect(reminder.isDone, "\(at): STATUS")
      case "CANCELLED": #expect(reminder.isDone && ical?["status"] == .string("CANCELLED"), "\(at): STATUS")
      case "NEEDS-ACTION", nil: #expect(ical?["status"] == nil, "\(at): STATUS")
      case let other?: #expect(ical?["status"] == .string(other), "\(at): STATUS")
      }
      if let due = todo.due, !invalidDue {
        compareDue(due, reminder.dueDate, at: at, warnings: remconv.warnings("time-zone"))
      } else if todo.due == nil {
        #expect(reminder.dueDate == nil, "\(at): DUE")
      }
      if let start = todo.dtstart, !invalidStart {
        // Apple's DTSTART equal to DUE means no start date; any other is the start date, or
        // kept as written when the model cannot hold it (a zone that is not IANA).
        let kept = Self.keptLines(ical).contains { $0.uppercased().hasPrefix("DTSTART") && $0.hasSuffix(start.text) }
        let read = reminder.startDate.map { $0.isoText.filter { $0 != "-" && $0 != ":" } == start.text } ?? false
        #expect(kept || read || start == todo.due, "\(at): DTSTART \(start)")
      }
      #expect(reminder.priority == Priority(iCalendarNumber: Int(todo.priority ?? 0)), "\(at): PRIORITY")
      if let completed = todo.completed, completed.text.hasSuffix("Z") {
        #expect(reminder.completedAt.map(Self.basicUTC) == completed.text, "\(at): COMPLETED")
      }
      if let parent = todo.relatedTo.first(where: { $0.type == nil || $0.type?.uppercased() == "PARENT" }),
        !parent.value.isEmpty
      {
        #expect(reminder.parentID == parent.value, "\(at): RELATED-TO")
      }
      // libical loses the escaping of commas in CATEGORIES (`Gifts\, small` is two values to
      // it): compared where no tag holds a comma.
      if !reminder.tags.contains(where: { $0.contains(",") }) {
        let libicalTags = todo.categories.flatMap { $0.split(separator: ",").map(String.init) }.filter { !$0.isEmpty }
        #expect(reminder.tags == libicalTags, "\(at): CATEGORIES")
      }
    }
  }

  private func compareDue(_ due: LibICalOracle.Time, _ read: DueDate?, at: String, warnings: [Diagnostic]) {
    guard let read else {
      Issue.record("\(at): DUE \(due) is read by libical, not by remconv")
      return
    }
    switch read {
    case .date(let date):
      #expect(due.text == Self.basic(date.description) && due.tzid == nil, "\(at): DUE \(due) against \(read)")
    case .floating(let time):
      // A TZID remconv cannot resolve, with no VTIMEZONE for it, is read as floating with a
      // `time-zone` warning (docs/formats-ics.md); libical keeps the name.
      #expect(due.text == Self.basic(time.description), "\(at): DUE \(due) against \(read)")
      #expect(due.tzid == nil || !warnings.isEmpty, "\(at): DUE \(due) read as floating without a warning")
    case .utc(let time):
      // A TZID only the file's VTIMEZONE defines is converted to UTC by remconv; libical holds
      // the wall time and the TZID.
      if due.tzid == nil {
        #expect(due.text == Self.basic(time.description) + "Z", "\(at): DUE \(due) against \(read)")
      }
    case .zoned(let time, _):
      // The zone's name may be resolved (a prefix dropped, a Windows name mapped): the wall
      // time is the same.
      #expect(due.text == Self.basic(time.description) && due.tzid != nil, "\(at): DUE \(due) against \(read)")
    }
  }

  /// The same text, or a divergence by design: libical drops a value's leading spaces (RFC 5545
  /// makes them part of the value) and reads Outlook's `\:` as a space, which remconv reads as
  /// `:`. A text remconv read as ISO-8859-1 (not UTF-8) is compared as such.
  static func sameText(_ remconv: String, _ libical: String?) -> Bool {
    let libical = libical ?? ""
    if remconv == libical { return true }
    let trimmed = String(remconv.drop { $0 == " " || $0 == "\t" })
    return trimmed == libical || trimmed.replacingOccurrences(of: ":", with: " ") == libical
  }

  private static func keptLines(_ ical: JSONValue?) -> [String] {
    ical?["lines"]?.arrayValue?.compactMap(\.stringValue) ?? []
  }

  /// `2026-11-30T09:00:00` as `20261130T090000`.
  private static func basic(_ iso: String) -> String {
    String(iso.filter { $0 != "-" && $0 != ":" })
  }

  private static func basicUTC(_ timestamp: Timestamp) -> String {
    basic(LocalDateTime(secondsSinceEpoch: timestamp.millisecondsSinceEpoch / 1000).description) + "Z"
  }
}
