import RemconvTestSupport
import Testing

@testable import RemconvCore

/// The JSON Lines writer's line prefixes, made once per list, and member names found by
/// comparing them with the keys of their length rather than by hashing.
struct JSONLinesListPrefixAndKeyTests {
  private func writtenLines(_ items: [(Reminder, ReminderList)]) throws -> [String] {
    let output = ByteWriter()
    let diagnostics = DiagnosticLog()
    let makeWriter = try #require(FormatRegistry.named("jsonl")?.makeWriter)
    let writer = try makeWriter(WriterContext(target: .stream(output), diagnostics: diagnostics))
    for (reminder, list) in items { try writer.write(reminder, in: list, depth: 0) }
    try writer.finish()
    return output.text.split(separator: "\n").map(String.init)
  }

  /// Reminders of two lists taking turns each carry their own list, and a list that comes back
  /// changed under the same id carries its new members, not the prefix made before.
  @Test
  func linesCarryTheirOwnListWhenListsTakeTurnsOrChange() throws {
    let home = ReminderList(id: "L1", name: "Home")
    let work = ReminderList(id: "L2", name: "Work", color: "#112233")
    var renamedHome = home
    renamedHome.name = "House"
    let lines = try writtenLines([
      (Reminder(id: "a", listID: "L1", title: "one"), home),
      (Reminder(id: "b", listID: "L2", title: "two"), work),
      (Reminder(id: "c", listID: "L1", title: "three"), home),
      (Reminder(id: "d", listID: "L1", title: "four"), renamedHome),
    ])
    #expect(lines.count == 4)
    let home1 = #"{"list":"Home","listId":"L1","listSymbol":"list.bullet","listColor":null,"listCreatedAt":null,"#
    let work2 =
      ##"{"list":"Work","listId":"L2","listSymbol":"list.bullet","listColor":"#112233","listCreatedAt":null,"##
    let house1 = #"{"list":"House","listId":"L1","listSymbol":"list.bullet","listColor":null,"listCreatedAt":null,"#
    let expected = [(home1, "a"), (work2, "b"), (home1, "c"), (house1, "d")]
    for (line, (prefix, id)) in zip(lines, expected) {
      #expect(line.hasPrefix(prefix + #""id":"\#(id)","#), "\(line)")
    }
  }

  /// Every key is found under its name, as the name index finds it; names of a key's length
  /// that are not its name, and names beyond ASCII, are found as the index finds them.
  @Test
  func namesFindTheKeysTheNameIndexFinds() {
    for key in ReminderKey.allCases { #expect(ReminderKey.named(key.name) == key) }
    for key in ListKey.allCases { #expect(ListKey.named(key.name) == key) }
    let others = ["", "ID", "Title", "notez", "listId", "tïtle", "i\u{0307}d", "extras", "a-name-longer-than-any-key"]
    for name in others {
      #expect(ReminderKey.named(name) == ReminderKey.byName[name], "\(name)")
      #expect(ListKey.named(name) == ListKey.byName[name], "\(name)")
      #expect(ReminderKey.named(name) == nil, "\(name)")
    }
  }

  /// Names of a key's length that are not a key stay in `extra.json`; the keys are read.
  @Test
  func nearMissNamesAreKeptAsUnknownMembers() throws {
    let line =
      #"{"list":"L","id":"r1","title":"read","Title":"kept","notez":"kept too","tïtle":"and this","isDone":true}"#
    let diagnostics = DiagnosticLog()
    let makeReader = try #require(FormatRegistry.named("jsonl")?.makeReader)
    let reader = try makeReader(
      ReaderContext(
        source: .file("input.jsonl"), diagnostics: diagnostics,
        preopened: ByteReader(bytes: Array(line.utf8), name: "input.jsonl")))
    var reminders: [Reminder] = []
    while let record = try reader.next() {
      if case .reminder(let reminder, _) = record { reminders.append(reminder) }
    }
    let reminder = try #require(reminders.first)
    #expect(reminders.count == 1)
    #expect(reminder.title == "read")
    #expect(reminder.isDone)
    #expect(
      reminder.extra["json"]
        == .object(["Title": .string("kept"), "notez": .string("kept too"), "tïtle": .string("and this")]))
  }
}
