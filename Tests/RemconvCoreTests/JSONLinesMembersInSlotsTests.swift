import RemconvTestSupport
import Testing

@testable import RemconvCore

/// The JSON Lines reader puts each line's members straight in their slots, the storage reused
/// from line to line: nothing of a line stays for the next, and names met twice are told as a
/// whole parse tells them.
struct JSONLinesMembersInSlotsTests {
  /// The records the reader gives for `lines`, with its warnings; each reminder decoded as a
  /// conversion does, or kept raw and decoded as an import does.
  private func read(_ lines: [String], raw: Bool = false) throws -> (
    lists: [ReminderList], reminders: [Reminder], warnings: [String]
  ) {
    let diagnostics = DiagnosticLog()
    let makeReader = try #require(FormatRegistry.named("jsonl")?.makeReader)
    let reader = try makeReader(
      ReaderContext(
        source: .file("input.jsonl"), diagnostics: diagnostics,
        preopened: ByteReader(bytes: Array(lines.joined(separator: "\n").utf8), name: "input.jsonl")))
    var lists: [ReminderList] = []
    var reminders: [Reminder] = []
    if raw {
      let rawReader = try #require(reader as? any RawRecordReader)
      while let record = try rawReader.nextRecord() {
        switch record {
        case .record(.list(let list)): lists.append(list)
        case .record(.reminder(let reminder, _)): reminders.append(reminder)
        case .raw: reminders.append(try rawReader.decodeRaw().reminder)
        case .record(let other): Issue.record("unexpected \(other)")
        }
      }
    } else {
      while let record = try reader.next() {
        switch record {
        case .list(let list): lists.append(list)
        case .reminder(let reminder, _): reminders.append(reminder)
        default: Issue.record("unexpected \(record)")
        }
      }
    }
    return (lists, reminders, diagnostics.entries.map(\.message))
  }

  @Test(arguments: [false, true])
  func aLineKeepsNothingOfTheLineBefore(raw: Bool) throws {
    let (_, reminders, warnings) = try read(
      [
        ##"{"list":"L","listColor":"#AABBCC","id":"a","title":"full","notes":"n","url":"u","tags":["t"],"##
          + #""recurrence":{"rule":"FREQ=DAILY"},"alarms":[{"offset":-60}],"isDone":true,"#
          + #""dueDate":"2026-03-02","unknown":1,"extra":{"k":true}}"#,
        #"{"list":"L","id":"b","title":"bare"}"#,
        #"{"list":"M","listId":"M-1","title":"no id","priority":"low"}"#,
      ], raw: raw)
    #expect(warnings.isEmpty, "\(warnings)")
    try #require(reminders.count == 3)
    let full = reminders[0]
    #expect(full.notes == "n" && full.url == "u" && full.tags == ["t"] && full.isDone)
    #expect(full.recurrence == Recurrence(rule: "FREQ=DAILY"))
    #expect(full.alarms == [Alarm(trigger: .relative(seconds: -60, to: .due))])
    #expect(full.extra == ["k": .bool(true), "json": .object(["unknown": .number("1")])])
    for bare in reminders[1...] {
      #expect(bare.notes == "" && bare.url == nil && bare.tags == [] && !bare.isDone, "\(bare.title)")
      #expect(bare.recurrence == nil && bare.alarms == [] && bare.dueDate == nil, "\(bare.title)")
      #expect(bare.extra == [:], "\(bare.title)")
    }
    #expect(reminders[1].id == "b")
    #expect(reminders[1].listID == reminders[0].listID)
    #expect(reminders[2].listID == "M-1")
    #expect(reminders[2].id != "b")
    #expect(reminders[2].priority == .low)
  }

  /// A name twice at the line's top (a reminder key, a list key, an unknown name, one name in
  /// two canonically equivalent spellings) or inside a value: the last value is read, the
  /// earlier kept and reported, as before.
  @Test(arguments: [false, true])
  func namesMetTwiceAreToldWhereverTheyStand(raw: Bool) throws {
    let (lists, reminders, warnings) = try read(
      [
        #"{"list":"A","id":"r1","title":"first","list":"B","title":"second"}"#,
        #"{"list":"C","id":"r2","title":"t","x":1,"x":2,"caf\#u{E9}":3,"cafe\#u{301}":4}"#,
        #"{"list":"C","id":"r3","title":"t","extra":{"a":1,"a":[2]}}"#,
        #"{"list":"C","id":"r4","title":"clean"}"#,
      ], raw: raw)
    try #require(reminders.count == 4)
    #expect(lists.map(\.name) == ["B", "C"])
    #expect(reminders[0].title == "second")
    #expect(
      reminders[0].extra["duplicateKeys"]
        == .object(["/list": .array([.string("A")]), "/title": .array([.string("first")])]))
    #expect(reminders[1].extra["json"] == .object(["x": .number("2"), "caf\u{E9}": .number("4")]))
    #expect(
      reminders[1].extra["duplicateKeys"]
        == .object(["/x": .array([.number("1")]), "/caf\u{E9}": .array([.number("3")])]))
    #expect(reminders[2].extra["a"] == .array([.number("2")]))
    #expect(reminders[2].extra["duplicateKeys"] == .object(["/extra/a": .array([.number("1")])]))
    #expect(reminders[3].extra == [:])
    #expect(warnings.filter { $0.contains("comes twice") }.count == 5, "\(warnings)")
  }

  /// Errors as a whole parse gives them (messages as the code before the slots gave them).
  @Test(arguments: [
    (#"[1,2]"#, "input.jsonl:1: a JSON Lines record must be an object"),
    (#"  "text""#, "input.jsonl:1: a JSON Lines record must be an object"),
    (#"{"title":"t",}"#, "input.jsonl:1:14: malformed JSON: expected a member name in quotes"),
    (#"{"title":"t"} x"#, "input.jsonl:1:15: malformed JSON: unexpected text after the JSON value"),
    (#"{"title":"t","extra":{"a":[1,}}"#, "input.jsonl:1:30: malformed JSON: unexpected character '}'"),
    (#"{"title":"t","extra":{"a":1,"a":{"b":[1,}}}"#, "input.jsonl:1:41: malformed JSON: unexpected character '}'"),
  ])
  func aLineThatIsNotAnObjectOrNotJSONIsRefused(_ line: String, _ message: String) throws {
    #expect {
      _ = try read([line])
    } throws: { error in
      "\(error)".contains(message)
    }
  }
}
