import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// Every declared field of a reminder (`Reminder.fields`), and its parent, changed here, there,
/// and on both sides, through a sync with a vdir folder and with Radicale (issue 40): seeded
/// random values of every kind, one reminder per field and case, all in one collection, so the
/// merges meet in one sync as they do for a user.
///
/// What docs/sync.md says, checked per field: a change on one side reaches the other and
/// nothing is a conflict; the same field changed on both sides to different values keeps the
/// remote's value and the store's version whole in a conflict copy (a time another app recorded
/// follows the remote, the edit time is the later); one field changed here and another there
/// both survive. After that sync the two sides agree on every field and a further sync
/// transfers nothing. `REMCONV_PROPERTY_SEED` replays a run.
@Suite(.serialized) struct SyncFieldPropertyTests {
  enum Remote: String, CaseIterable, CustomStringConvertible {
    case vdir, radicale
    var description: String { rawValue }
  }

  /// What a case changes: the field here, there, both to different values, or this field here
  /// and the next one of the table there.
  enum Change: String, CaseIterable {
    case here, there, both, twoFields
  }

  /// Every sync's diagnostics: what the remote cannot carry is named there (`cannot-carry`).
  let diagnostics = DiagnosticLog()

  static let seed: UInt64 = ProcessInfo.processInfo.environment["REMCONV_PROPERTY_SEED"].flatMap(UInt64.init) ?? 40

  @Test(arguments: Remote.allCases) func everyFieldChangedOnEitherOrBothSidesConvergesAsDocumented(
    _ kind: Remote
  ) throws {
    var random = SeededGenerator(seed: Self.seed)
    let directory = TemporaryDirectory()
    let server: DAVServer? = kind == .radicale ? try DAVServer.start(.radicale) : nil
    defer { server?.stop() }
    let endpoint: any SyncEndpoint =
      if let server { try CalDAVFixtures.endpoint(server.url) } else { try VdirEndpoint(root: directory.file("vdir")) }
    let store = try Store(path: directory.file("store.sqlite"))
    defer { store.close() }
    let url = server?.url.absoluteString ?? directory.file("vdir")
    try store.write {
      try store.addRemote(
        RemoteConfiguration(
          name: "r", url: url, user: server == nil ? nil : DAVServer.user,
          password: server == nil ? nil : .environment("REMCONV_TEST_DAV_PASSWORD")))
    }
    setenv("REMCONV_TEST_DAV_PASSWORD", DAVServer.password, 1)

    // One list; per field and case a reminder with every field set, and per case a subtask
    // whose parent moves.
    let list = ReminderList(id: "list-\(Self.seed)", name: "Fields", color: "#34C759")
    var cases: [(field: String, change: Change, uid: String)] = []
    var originals: [String: Reminder] = [:]
    try store.write {
      let listRow = try store.insertList(list)
      let parents = try (0..<3).map { index in
        let parent = PropertyValues.reminder(id: "parent-\(index)", list: list.id, &random)
        return (parent.id, try store.insertReminder(parent, listRowID: listRow, parentRowID: nil))
      }
      for field in Reminder.fields.map(\.name) + ["parent"] {
        for change in Change.allCases {
          let uid = "\(field)-\(change.rawValue)-\(Self.seed)"
          var reminder = PropertyValues.reminder(id: uid, list: list.id, &random)
          reminder.parentID = parents[0].0
          originals[uid] = reminder
          _ = try store.insertReminder(reminder, listRowID: listRow, parentRowID: parents[0].1)
          cases.append((field, change, uid))
        }
      }
    }
    let first = try sync(store, endpoint)
    let collection = try #require(try endpoint.collections().first { $0.displayName == "Fields" })

    // The changes, here in the store and there on the remote, before one sync.
    var hereValues: [String: Reminder] = [:]
    var thereValues: [String: Reminder] = [:]
    var remoteWrites: [RemoteWrite] = []
    let items = try remoteItems(endpoint, collection)
    for (field, change, uid) in cases {
      let original = try #require(originals[uid])
      var here = original
      var there = original
      let next = Self.nextField(after: field)
      switch change {
      case .here: Self.change(field, of: &here, &random)
      case .there: Self.change(field, of: &there, &random)
      case .both:
        // To different values; a flag has but one other value, which both then set.
        Self.change(field, of: &here, &random)
        Self.change(field, of: &there, &random)
        for _ in 0..<8 where Self.same(field, here, there) {
          there = original
          Self.change(field, of: &there, &random)
        }
      case .twoFields:
        Self.change(field, of: &here, &random)
        Self.change(next, of: &there, &random)
      }
      if change != .there {
        try store.write {
          let stored = try #require(try store.reminder(uid: uid))
          let parent = try here.parentID.flatMap { try store.reminderRowID(uid: $0) }
          try store.updateReminder(rowID: stored.rowID, here, listRowID: stored.listRowID, parentRowID: parent)
        }
        hereValues[uid] = here
      }
      if change != .here {
        let item = try #require(items[uid], "\(uid) is not on the remote")
        remoteWrites.append(.update(href: item.href, etag: item.etag ?? "", body: try Self.codec.encode(there)))
        thereValues[uid] = there
      }
    }
    for result in try endpoint.apply(remoteWrites, in: collection) {
      guard case .updated = result else {
        Issue.record("the other client's write failed: \(result)")
        continue
      }
    }
    // The other client's changes as the server keeps them.
    let written = try remoteItems(endpoint, collection)
    for uid in thereValues.keys { thereValues[uid] = written[uid]?.reminder }

    let report = try sync(store, endpoint)
    var conflictsByUID: [String: SyncConflict] = [:]
    for conflict in report.conflicts { conflictsByUID[conflict.uid] = conflict }
    let after = try remoteItems(endpoint, collection)
    for (field, change, uid) in cases {
      let stored = try #require(try store.reminder(uid: uid)?.reminder, "\(uid) is gone from the store")
      let remote = try #require(after[uid]?.reminder, "\(uid) is gone from the remote")
      let place = "\(kind), \(field) changed \(change)"
      // Both sides hold the same reminder, but what a sync reported iCalendar cannot carry.
      let reported = diagnostics.entries.contains { $0.code == "cannot-carry" && $0.uid == uid }
      for name in Reminder.fields.map(\.name) + ["parent"] {
        #expect(
          Self.same(name, stored, remote) || reported, "\(place): \(name) differs between the store and the remote")
      }
      let conflict = conflictsByUID[uid]
      switch change {
      case .here:
        let here = try #require(hereValues[uid])
        #expect(Self.same(field, stored, here), "\(place): the store lost its own change")
        #expect(conflict == nil, "\(place): \(conflict.map { "\($0.fields)" } ?? "")")
      case .there:
        let there = try #require(thereValues[uid])
        #expect(Self.same(field, stored, there), "\(place): the remote's change did not reach the store")
        #expect(conflict == nil, "\(place): \(conflict.map { "\($0.fields)" } ?? "")")
      case .twoFields:
        let here = try #require(hereValues[uid])
        let there = try #require(thereValues[uid])
        let next = Self.nextField(after: field)
        #expect(Self.same(field, stored, here), "\(place): the store's change of \(field) is lost")
        #expect(Self.same(next, stored, there), "\(place): the remote's change of \(next) is lost")
        #expect(conflict == nil, "\(place): \(conflict.map { "\($0.fields)" } ?? "")")
      case .both:
        let here = try #require(hereValues[uid])
        let there = try #require(thereValues[uid])
        switch Self.rule(of: field) {
        case _ where Self.same(field, here, there):
          #expect(Self.same(field, stored, here), "\(place): the value both sides set is lost")
          #expect(conflict == nil, "\(place): \(conflict.map { "\($0.fields)" } ?? "")")
        case .conflict:
          if field == "extra" {
            // Per key: a key the remote changed takes its value (a conflict when the store
            // changed it too), any other the store's.
            let original = try #require(originals[uid])
            for key in Set(here.extra.keys).union(there.extra.keys) {
              let expected = there.extra[key] != original.extra[key] ? there.extra[key] : here.extra[key]
              #expect(stored.extra[key] == expected, "\(place): extra.\(key)")
            }
          } else {
            #expect(Self.same(field, stored, there), "\(place): the remote's value is not the merge's")
          }
          // A field merged per key conflicts in the keys both changed (`extra.ical.lines`).
          let fields = conflict?.fields ?? []
          #expect(
            fields == [field] || (field == "extra" && !fields.isEmpty && fields.allSatisfy { $0.hasPrefix("extra.") }),
            "\(place): \(conflict.map { "\($0.fields)" } ?? "no conflict")")
          let copy = try #require(
            try conflict?.copyUID.flatMap { try store.reminder(uid: $0)?.reminder }, "\(place): no conflict copy")
          var copied = copy
          copied.title = here.title
          #expect(Self.same(field, copied, here), "\(place): the conflict copy does not hold the store's value")
          #expect(copy.title == here.title + " (conflict copy)", "\(place)")
          #expect(after[copy.id] != nil, "\(place): the conflict copy was not uploaded")
        case .incoming:
          #expect(Self.same(field, stored, there), "\(place): the remote's time is not kept")
          #expect(conflict == nil, "\(place)")
        case .later(let isLater):
          #expect(Self.same(field, stored, isLater(here, there) ? here : there), "\(place): not the later")
          #expect(conflict == nil, "\(place)")
        }
      }
    }
    let again = try sync(store, endpoint)
    #expect(again.transferredNothing, "\(kind): a sync after the merge still transfers: \(again)")
  }

  // MARK: Helpers

  static var codec: ICSItemCodec {
    ICSItemCodec(
      now: Date(timeIntervalSince1970: 1_796_000_000), diagnostics: DiagnosticLog(),
      timeZone: TimeZone(identifier: "UTC")!,
      reportsFractions: false)
  }

  /// Gives `field` another value; the parent is one of the three parents.
  static func change(_ field: String, of reminder: inout Reminder, _ random: inout SeededGenerator) {
    guard field == "parent" else { return PropertyValues.change(field, of: &reminder, &random) }
    let others = (0..<3).map { "parent-\($0)" }.filter { $0 != reminder.parentID }
    reminder.parentID = others[Int.random(in: 0..<others.count, using: &random)]
  }

  static func nextField(after field: String) -> String {
    let names = Reminder.fields.map(\.name) + ["parent"]
    let index = names.firstIndex(of: field) ?? 0
    return names[(index + 1) % names.count]
  }

  static func rule(of field: String) -> ModelField<Reminder>.OnBothChanged {
    guard let declared = Reminder.fields.first(where: { $0.name == field }), case .whole(let rule) = declared.merging
    else { return .conflict }
    return rule
  }

  /// Whether two reminders hold the same value of a field, as iCalendar carries it
  /// (docs/formats-ics.md): a completion time is written for a completed reminder only.
  static func same(_ field: String, _ left: Reminder, _ right: Reminder) -> Bool {
    if field == "parent" { return left.parentID == right.parentID }
    if field == "completedAt", !left.isDone, !right.isDone { return true }
    if field == "extra" { return PropertyValues.userExtra(left) == PropertyValues.userExtra(right) }
    return Reminder.fields.first { $0.name == field }?.isSame(left, right) ?? false
  }

  private func sync(_ store: Store, _ endpoint: any SyncEndpoint) throws -> SyncReport {
    try syncOnce(store, endpoint, remote: "r", diagnostics: diagnostics)
  }

  /// Every item of the collection, decoded, by UID.
  private func remoteItems(
    _ endpoint: any SyncEndpoint, _ collection: RemoteCollection
  ) throws -> [String: (href: String, etag: String?, reminder: Reminder)] {
    guard case .full(let versions, _) = try endpoint.changes(in: collection, since: nil) else { return [:] }
    var items: [String: (href: String, etag: String?, reminder: Reminder)] = [:]
    let list = ReminderList(id: "list-\(Self.seed)", name: "Fields")
    for item in try endpoint.fetch(versions.map(\.href), in: collection) {
      guard case .reminder(let reminder) = try Self.codec.decode(item.body, name: item.href, in: list) else { continue }
      items[reminder.id] = (item.href, item.etag, reminder)
    }
    return items
  }
}
