import Foundation
import RemconvCLI
import RemconvCore
import RemconvTestSupport
import Testing

/// Where sync meets the other paths (issue 40), as a user meets it, with a vdir folder and with
/// Radicale: an `edit` here and another client's change there, an `import` that changes what
/// only the schedule columns hold, and a server that sends a parent cycle. A sync writes the
/// store through the import path, so each ends as an import would.
@Suite(.serialized) struct SyncMergePathTests {
  enum Remote: String, CaseIterable, CustomStringConvertible {
    case vdir, radicale
    var description: String { rawValue }
  }

  /// A store with a remote of `kind`, and another client of that remote.
  final class Side {
    let vdir: SyncVdirTests.Setup?
    let dav: SyncCalDAVTests.Setup?
    var bench: TestBench { vdir?.bench ?? dav!.local.bench }

    init(_ kind: Remote) throws {
      switch kind {
      case .vdir:
        vdir = SyncVdirTests.Setup()
        dav = nil
      case .radicale:
        vdir = nil
        dav = try SyncCalDAVTests.Setup(.radicale)
      }
    }

    func sync(sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> JSONValue {
      if let vdir { return try vdir.sync(sourceLocation: sourceLocation) }
      return try dav!.sync(sourceLocation: sourceLocation)
    }

    func add(_ title: String, list: String, _ more: [String] = []) -> String {
      (vdir ?? dav!.local).add(title, list: list, more)
    }

    /// The item of `uid` in the collection of `list`, as the remote holds it.
    func remoteBody(_ list: String, uid: String) throws -> String {
      if let vdir {
        let name = try #require(vdir.remoteItems(list).first { vdir.remoteFile(list, $0).contains("UID:\(uid)") })
        return vdir.remoteFile(list, name)
      }
      let item = try #require(
        try dav!.remoteItems(list).values.first { String(decoding: $0.body, as: UTF8.self).contains("UID:\(uid)") })
      return String(decoding: item.body, as: UTF8.self)
    }

    /// Another client rewrites the item of `uid` as `edit` makes it.
    func editRemote(_ list: String, uid: String, _ edit: (String) -> String) throws {
      let before = try remoteBody(list, uid: uid)
      let after = edit(before)
      #expect(after != before, "the other client's edit changed nothing")
      if let vdir {
        let name = try #require(vdir.remoteItems(list).first { vdir.remoteFile(list, $0).contains("UID:\(uid)") })
        vdir.writeRemote(list, name, after.components(separatedBy: "\r\n").dropLast())
        return
      }
      let dav = dav!
      let item = try #require(
        try dav.remoteItems(list).values.first { String(decoding: $0.body, as: UTF8.self).contains("UID:\(uid)") })
      let result = try dav.other.apply(
        [.update(href: item.href, etag: item.etag, body: Array(after.utf8))], in: try dav.collection(list))
      guard case .updated = result.first else {
        Issue.record("the other client's write failed: \(result)")
        return
      }
    }

    /// Another client adds an item.
    func createRemote(_ list: String, _ name: String, _ lines: [String]) throws {
      if let vdir {
        vdir.writeRemote(list, name, lines)
        return
      }
      let result = try dav!.other.apply(
        [.create(name: name, body: Array((lines.joined(separator: "\r\n") + "\r\n").utf8))],
        in: try dav!.collection(list))
      guard case .created = result.first else {
        Issue.record("the other client's write failed: \(result)")
        return
      }
    }

    func reminderUID(titled title: String) throws -> String {
      try #require(try (vdir ?? dav!.local).reminders().first { $0["title"]?.stringValue == title }?["id"]?.stringValue)
    }

    func reminder(_ uid: String) throws -> JSONValue {
      try #require(try (vdir ?? dav!.local).reminders().first { $0["id"]?.stringValue == uid })
    }
  }

  static func counts(_ report: JSONValue) -> [String: String] { SyncVdirTests.counts(report) }

  @Test(arguments: Remote.allCases) func aRepeatRuleEditedHereAndAnAlarmChangedThereBothSurvive(_ kind: Remote) throws {
    let side = try Side(kind)
    let uid = side.add(
      "Standup", list: "Work",
      ["--due", "2026-12-07T09:00", "--tz", "Europe/Berlin", "--repeat", "weekly", "--alarm", "-15m"])
    _ = try side.sync()
    #expect(side.bench.run(["edit", uid, "--repeat", "monthly"]).status == .ok)
    try side.editRemote("Work", uid: uid) { $0.replacingOccurrences(of: ":-PT15M", with: ":-PT30M") }

    let report = try side.sync()
    #expect(report["conflicts"]?.numberText == "0", "\(report)")
    let stored = try side.reminder(uid)
    #expect(stored["recurrence"]?["rule"]?.stringValue == "FREQ=MONTHLY", "\(stored)")
    #expect(stored["alarms"]?.arrayValue?.first?["offset"]?.numberText == "-1800", "\(stored)")
    let remote = try side.remoteBody("Work", uid: uid)
    #expect(remote.contains("RRULE:FREQ=MONTHLY") && remote.contains(":-PT30M") && !remote.contains("WEEKLY"))
    #expect(Self.counts(try side.sync()) == SyncVdirTests.expected())
  }

  @Test(arguments: Remote.allCases) func aStartRepeatOrAlarmChangedByAnImportIsUploaded(_ kind: Remote) throws {
    let side = try Side(kind)
    let uid = side.add("Water plants", list: "Home", ["--due", "2026-12-07"])
    _ = try side.sync()
    let exported = side.bench.run(["export", "--format", "jsonl"]).output
    guard case .object(var line) = try JSONParser.parse(String(exported.split(separator: "\n")[0])) else {
      Issue.record("not an object: \(exported)")
      return
    }
    line["startDate"] = .string("2026-12-01")
    line["recurrence"] = .object(["rule": .string("FREQ=DAILY;INTERVAL=3")])
    line["alarms"] = .array([
      .object([
        "action": .string("DISPLAY"), "text": .string("Water"), "offset": .number("-3600"), "relatedTo": .string("due"),
      ])
    ])
    let file = side.bench.directory.file("changed.jsonl")
    side.bench.directory.write("changed.jsonl", JSONText.encode(.object(line)) + "\n")
    let imported = side.bench.run(["import", file])
    #expect(imported.status == .ok, "\(imported.errors)")

    let report = try side.sync()
    #expect(Self.counts(report) == SyncVdirTests.expected(uploaded: 1), "\(report)")
    let remote = try side.remoteBody("Home", uid: uid)
    #expect(remote.contains("DTSTART;VALUE=DATE:20261201"), "\(remote)")
    #expect(remote.contains("RRULE:FREQ=DAILY;INTERVAL=3") && remote.contains("TRIGGER;RELATED=END:-PT1H"), "\(remote)")
    #expect(Self.counts(try side.sync()) == SyncVdirTests.expected())
  }

  /// Another client's item already has the file name a new reminder's UID gives
  /// (issue 41, finding 3): the reminder goes up under another name, at the first sync.
  @Test(arguments: Remote.allCases) func aNameTheRemoteUsesForAnotherUIDIsNotTakenAgain(_ kind: Remote) throws {
    let side = try Side(kind)
    side.add("Anchor", list: "Work")
    _ = try side.sync()
    try side.createRemote(
      "Work", "taken-name.ics",
      [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Other//EN", "BEGIN:VTODO", "UID:someone-else@other",
        "DTSTAMP:20261101T080000Z", "SUMMARY:Theirs", "END:VTODO", "END:VCALENDAR",
      ])
    let document =
      #"{"format":"remconv","version":1,"lists":[{"id":"work","name":"Work","reminders":["#
      + #"{"id":"taken-name","title":"Mine"}]}]}"#
    #expect(side.bench.run(["import", "-", "--format", "json"], input: document).status == .ok)
    let report = try side.sync()
    #expect(Self.counts(report) == SyncVdirTests.expected(uploaded: 1, downloaded: 1), "\(report)")
    #expect(try side.remoteBody("Work", uid: "taken-name").contains("SUMMARY:Mine"))
    #expect(try side.remoteBody("Work", uid: "someone-else@other").contains("SUMMARY:Theirs"))
    #expect(Self.counts(try side.sync()) == SyncVdirTests.expected())
  }

  /// One UID in two collections with different content (issue 41, finding 1): both stay, the
  /// second under a UID derived from it (a `duplicate-uid` warning), which its item then takes;
  /// no sync deletes either.
  @Test(arguments: Remote.allCases) func oneUIDInTwoCollectionsKeepsBoth(_ kind: Remote) throws {
    let side = try Side(kind)
    side.add("Anchor", list: "Work")
    side.add("Anchor", list: "Home")
    _ = try side.sync()
    for (list, summary) in [("Work", "At work"), ("Home", "At home")] {
      try side.createRemote(
        list, "twice.ics",
        [
          "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Other//EN", "BEGIN:VTODO", "UID:twice@other",
          "DTSTAMP:20261101T080000Z", "SUMMARY:\(summary)", "END:VTODO", "END:VCALENDAR",
        ])
    }
    let first = side.bench.run(["sync", side.vdir == nil ? "dav" : "v", "--report", "json"])
    #expect(first.status == .ok && first.errors.contains("duplicate-uid"), "\(first.errors)")
    for _ in 0..<2 {
      let report = try side.sync()
      #expect(report["deletedRemote"]?.numberText == "0" && report["deletedLocal"]?.numberText == "0", "\(report)")
    }
    let titles = try (side.vdir ?? side.dav!.local).reminders().compactMap { $0["title"]?.stringValue }
    #expect(titles.filter { $0.hasPrefix("At ") }.sorted() == ["At home", "At work"], "\(titles)")
    #expect(try side.remoteBody("Work", uid: "twice@other").contains("SUMMARY:At work"))
    #expect(Self.counts(try side.sync()) == SyncVdirTests.expected())
  }

  /// An item larger than remconv reads is skipped and named, and the rest syncs; a reminder
  /// whose item the remote could not give back is not written (issue 41, finding 12).
  @Test(arguments: Remote.allCases) func anItemTooLargeToReadBackIsSkippedAndTheRestSyncs(_ kind: Remote) throws {
    let side = try Side(kind)
    side.add("Anchor", list: "Work")
    _ = try side.sync()
    // Notes of 10.5 MB: within an item's 16 MiB, beyond what a CalDAV answer may hold for one.
    let notes = String(repeating: "a & b < c\n", count: 1_050_000)
    let document = JSONText.encode(
      .object([
        "format": .string("remconv"), "version": .number("1"),
        "lists": .array([
          .object([
            "id": .string("work"), "name": .string("Work"),
            "reminders": .array([.object(["id": .string("huge"), "title": .string("Huge"), "notes": .string(notes)])]),
          ])
        ]),
      ]))
    #expect(side.bench.run(["import", "-", "--format", "json"], input: document).status == .ok)
    if let vdir = side.vdir {
      // A vdir item beyond the 48 MiB remconv reads, written by someone else.
      let path = vdir.vdir + "/Work/huge-other.ics"
      FileManager.default.createFile(atPath: path, contents: Data(count: InputLimits.maximumRawItemSize + 1))
    }
    side.add("Small", list: "Work")
    for _ in 0..<2 {
      let report = try side.sync()
      let skipped = report["skipped"]?.arrayValue?.compactMap { $0["reason"]?.stringValue } ?? []
      if side.vdir != nil {
        #expect(skipped.contains { $0.hasPrefix("not read: ") }, "\(skipped)")
      } else {
        #expect(skipped.contains { $0.hasPrefix("huge is not written") }, "\(skipped)")
      }
    }
    #expect(try side.remoteBody("Work", uid: side.reminderUID(titled: "Small")).contains("SUMMARY:Small"))
  }

  @Test(arguments: Remote.allCases) func aParentCycleSentByTheRemoteIsBrokenAsAnImportBreaksIt(_ kind: Remote) throws {
    let side = try Side(kind)
    side.add("Anchor", list: "Work")
    _ = try side.sync()
    for (uid, parent) in [("cycle-a@other", "cycle-b@other"), ("cycle-b@other", "cycle-a@other")] {
      try side.createRemote(
        "Work", "\(uid).ics",
        [
          "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Other//EN", "BEGIN:VTODO", "UID:\(uid)",
          "DTSTAMP:20261101T080000Z", "SUMMARY:\(uid)", "RELATED-TO:\(parent)", "END:VTODO", "END:VCALENDAR",
        ])
    }
    let result = side.bench.run(["sync", side.vdir == nil ? "dav" : "v", "--report", "json"])
    #expect(result.status == .ok, "\(result.errors)")
    #expect(result.errors.contains("parent-cycle") || result.output.contains("parent-cycle"), "\(result.errors)")
    let validated = side.bench.run(["validate"])
    #expect(validated.status == .ok, "\(validated.output)\(validated.errors)")
    let parents = [try side.reminder("cycle-a@other"), try side.reminder("cycle-b@other")].map {
      $0["parentId"]?.stringValue
    }
    #expect(parents.filter { $0 == nil }.count == 1, "\(parents)")
    // The broken link goes to the remote, so the two sides agree and stay agreed.
    _ = try side.sync()
    #expect(Self.counts(try side.sync()) == SyncVdirTests.expected())
  }
}
