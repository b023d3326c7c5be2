import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// Imports a JSON Lines text into `store` through the real reader, merge engine and importer.
@discardableResult
func importLines(
  _ lines: [String], into store: Store, name: String = "input.jsonl", options: Importer.Options = Importer.Options()
) throws -> ImportReport {
  let diagnostics = DiagnosticLog()
  let source = InputSource.file(name)
  let bytes = ByteReader(bytes: Array(lines.joined(separator: "\n").utf8), name: name)
  let makeReader = try #require(FormatRegistry.named("jsonl")?.makeReader)
  let reader = try makeReader(ReaderContext(source: source, diagnostics: diagnostics, preopened: bytes))
  return try Importer.run(
    reader: reader, into: store, source: source, format: "jsonl", options: options, diagnostics: diagnostics)
}

/// The permission bits of a file.
func permissions(of path: String) throws -> Int {
  let attributes = try FileManager.default.attributesOfItem(atPath: path)
  return try #require(attributes[.posixPermissions] as? Int)
}

@Suite struct StoreSafetyTests {
  @Test func theStoreItsJournalsAndItsFolderArePrivate() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("new/folder/store.sqlite")
    let store = try Store(path: path)
    defer { store.close() }
    try importLines([#"{"list":"L","id":"a","title":"one"}"#], into: store)
    #expect(try permissions(of: path) == 0o600)
    #expect(try permissions(of: path + "-wal") == 0o600)
    #expect(try permissions(of: path + "-shm") == 0o600)
    #expect(try permissions(of: directory.file("new/folder")) == 0o700)
  }

  @Test func aBackupIsCreatedPrivateAndNeverThroughALink() throws {
    let directory = TemporaryDirectory()
    let store = try Store(path: directory.file("store.sqlite"))
    defer { store.close() }
    try importLines([#"{"list":"L","id":"a","title":"one"}"#], into: store)
    let backup = directory.file("backup.sqlite")
    try store.database.backup(to: backup)
    #expect(try permissions(of: backup) == 0o600)
    let copy = try Store(path: backup)
    #expect(try copy.reminderCount() == 1)
    copy.close()

    let victim = directory.write("victim.txt", "keep me")
    let link = directory.file("link.sqlite")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
    #expect(throws: SQLiteError.self) { try store.database.backup(to: link) }
    #expect(directory.read("victim.txt") == "keep me")
  }

  @Test func anExportInsideAWriteSeesWhatTheWriteIsAboutToCommit() throws {
    let directory = TemporaryDirectory()
    let store = try Store(path: directory.file("store.sqlite"))
    defer { store.close() }
    let count = try store.write(commit: false) {
      let list = try store.insertList(ReminderList(id: "list", name: "Inbox"))
      try store.insertReminder(Reminder(id: "r", listID: "list", title: "pending"), listRowID: list, parentRowID: nil)
      return try store.read { try store.reminderCount() }
    }
    #expect(count == 1)
    #expect(try store.reminderCount() == 0)
  }

  /// Text is bound by length: a NUL character (valid JSON, `\u0000`) used to end it there.
  @Test func textWithANULAndEmptyTextSurviveTheStore() throws {
    let directory = TemporaryDirectory()
    let store = try Store(path: directory.file("store.sqlite"))
    defer { store.close() }
    let title = "before\u{0}after"
    try store.write {
      let list = try store.insertList(ReminderList(id: "list", name: "Inbox"))
      try store.insertReminder(
        Reminder(id: "r1", listID: "list", title: title, notes: ""), listRowID: list, parentRowID: nil)
    }
    let stored = try #require(try store.reminder(uid: "r1"))
    #expect(stored.reminder.title == title)
    #expect(stored.reminder.notes == "")
    #expect(try store.database.scalar("SELECT typeof(notes) FROM reminders") == .text("text"))
    let key = try store.database.scalar("SELECT remconv_name_key(?)", [.text("Before\u{0}After")])
    #expect(key == .text(ListName.key(for: "Before\u{0}After")))
    #expect(key != .text(ListName.key(for: "Before")))
  }

  /// Texts and blobs bound in place for one step: a failing bind (a parameter that does not
  /// exist) throws with SQLite's code and leaves no binding behind, and the statement runs
  /// again with new values.
  @Test func executeBindsInPlaceAndLeavesNothingBoundAfterAFailure() throws {
    let directory = TemporaryDirectory()
    let database = try Database(path: directory.file("t.sqlite"), mode: .create)
    defer { database.close() }
    try database.execute("CREATE TABLE t (a, b)")
    let insert = try database.statement("INSERT INTO t (a, b) VALUES (?, ?)")
    #expect(throws: SQLiteError.self) {
      try insert.execute(binding: [.text("first"), .blob([1, 2]), .text("no third parameter")])
    }
    #expect(try database.scalar("SELECT count(*) FROM t") == .integer(0))
    // Nothing of the failed call is bound: run with no values, the row is two NULLs.
    try insert.execute(binding: [])
    try insert.execute(binding: [.text("x\u{0}y"), .blob([0, 255])])
    try insert.execute(binding: [.integer(7), .real(0.5)])
    let rows = try database.rows("SELECT a, b FROM t ORDER BY rowid").map { [$0.value(at: 0), $0.value(at: 1)] }
    #expect(rows == [[.null, .null], [.text("x\u{0}y"), .blob([0, 255])], [.integer(7), .real(0.5)]])
  }

  /// A `ParameterRow` binds as the `SQLValue`s it stands for: empty text stays text, a NUL
  /// stays inside its text, blobs and NULLs as given; a row of more values than parameters is
  /// refused, and the row is reused for the next with its earlier values gone.
  @Test func aParameterRowBindsLikeTheValuesItHolds() throws {
    let directory = TemporaryDirectory()
    let database = try Database(path: directory.file("t.sqlite"), mode: .create)
    defer { database.close() }
    try database.execute("CREATE TABLE t (a, b, c, d)")
    let insert = try database.statement("INSERT INTO t (a, b, c, d) VALUES (?, ?, ?, ?)")
    var row = ParameterRow()
    row.append("Crème brûlée for the whole team \u{0} 🌿")
    row.append("" as String?)
    row.appendBlob { $0.append(contentsOf: [0, 255, 7]) }
    row.append(nil as Int64?)
    row.append(42 as Int64?)
    #expect(throws: SQLiteError.self) { try insert.execute(binding: &row) }
    #expect(try database.scalar("SELECT count(*) FROM t") == .integer(0))
    row.removeAll()
    row.append("Crème brûlée for the whole team \u{0} 🌿")
    row.append("" as String?)
    row.appendBlob { $0.append(contentsOf: [0, 255, 7]) }
    row.append(nil as String?)
    try insert.execute(binding: &row)
    row.removeAll()
    row.append(-5 as Int64?)
    row.appendNull()
    row.appendText { $0.append(contentsOf: "folded".utf8) }
    row.appendBlob { _ in }
    try insert.execute(binding: &row)
    let rows = try database.rows("SELECT a, b, c, d FROM t ORDER BY rowid").map { row in
      (0..<4).map { row.value(at: $0) }
    }
    #expect(
      rows == [
        [.text("Crème brûlée for the whole team \u{0} 🌿"), .text(""), .blob([0, 255, 7]), .null],
        [.integer(-5), .null, .text("folded"), .blob([])],
      ])
  }

  /// A row's texts stay bound in place after its run (the statement keeps their buffer until
  /// the next binds every parameter again): rows of every length, one after another, each
  /// stored as it was given, and a row binding fewer values than the statement's parameters is
  /// refused with nothing written.
  @Test func aStatementKeepsTheBufferItsLastRowIsBoundTo() throws {
    let directory = TemporaryDirectory()
    let database = try Database(path: directory.file("t.sqlite"), mode: .create)
    defer { database.close() }
    try database.execute("CREATE TABLE t (a, b, c)")
    let insert = try database.statement("INSERT INTO t (a, b, c) VALUES (?, ?, ?)")
    var random = SeededGenerator(seed: 26)
    var row = ParameterRow()
    var expected: [[SQLValue]] = []
    for round in 0..<300 {
      // Now and then a text long enough to make the row's buffer grow.
      let length =
        round % 17 == 0 ? Int.random(in: 1000...9000, using: &random) : Int.random(in: 0...30, using: &random)
      let text = String(repeating: "é", count: length) + "#\(round)"
      row.removeAll()
      row.append(text)
      row.append(Int64(round))
      row.appendBlob { $0.append(contentsOf: Array(repeating: UInt8(round % 251), count: round % 5)) }
      try insert.execute(binding: &row)
      expected.append([
        .text(text), .integer(Int64(round)), .blob(Array(repeating: UInt8(round % 251), count: round % 5)),
      ])
    }
    row.removeAll()
    row.append("a row short of a parameter")
    row.append(1 as Int64?)
    #expect(throws: SQLiteError.self) { try insert.execute(binding: &row) }
    let rows = try database.rows("SELECT a, b, c FROM t ORDER BY rowid").map { row in
      (0..<3).map { row.value(at: $0) }
    }
    #expect(rows == expected)
  }

  /// The write path binds every column and the derived ones as they are defined: the folded
  /// search text as `ReminderIndexValues.searchText` spells it, the due day, the digest's bytes.
  @Test func aWrittenReminderRowHoldsItsDerivedColumnsAndDigest() throws {
    let directory = TemporaryDirectory()
    let store = try Store(path: directory.file("store.sqlite"))
    defer { store.close() }
    let reminder = Reminder(
      id: "r1", listID: "list", title: "Straße Café ＡＢＣ", notes: "Ｌine two\nÜberweisung",
      dueDate: try DueDate(isoText: "2027-03-04T10:15:00", timeZone: "Europe/Berlin"), tags: ["a;b", "naïve"])
    let digest = RecordDigest(high: 0x0102_0304_0506_0708, low: 0x1112_1314_1516_1718)
    try store.write {
      let list = try store.insertList(ReminderList(id: "list", name: "Inbox"))
      let row = try store.insertReminder(reminder, listRowID: list, parentRowID: nil, sourceDigest: digest)
      var changed = reminder
      changed.notes = ""
      changed.url = nil
      try store.insertReminder(changed, listRowID: list, parentRowID: row)
    }
    let rows = try store.database.rows(
      "SELECT search_text, due_day, source_digest, tags, notes, parent_id, url FROM reminders ORDER BY id"
    ).map { row in (0..<7).map { row.value(at: $0) } }
    let day = ReminderIndexValues.dueDay(due: "2027-03-04T10:15:00", timeZone: "Europe/Berlin").map(SQLValue.integer)
    #expect(
      rows == [
        [
          .text(ReminderIndexValues.searchText(title: reminder.title, notes: reminder.notes)), day ?? .null,
          .blob(digest.bytes), .text(#"["a;b","naïve"]"#), .text(reminder.notes), .null, .null,
        ],
        [
          .text(ReminderIndexValues.searchText(title: reminder.title, notes: "")), day ?? .null, .null,
          .text(#"["a;b","naïve"]"#), .text(""), .integer(1), .null,
        ],
      ])
    #expect(day != nil)
  }

  /// Found by the fuzz harness (CSV, then JSON): two lists with blank names and different UIDs
  /// both became the default list's name, and the second insert broke the unique-name index,
  /// reported as an I/O failure.
  @Test func blankListNamesBecomeTheDefaultListWithAWarning() throws {
    let directory = TemporaryDirectory()
    let store = try Store(path: directory.file("store.sqlite"))
    defer { store.close() }
    let report = try importLines(
      [
        #"{"list":"  ","listId":"A","id":"a1","title":"one"}"#, #"{"list":"","listId":"B","id":"b1","title":"two"}"#,
        #"{"list":"input","listId":"C","id":"c1","title":"three"}"#,
      ], into: store)
    #expect(report.added == 3)
    #expect(report.listsAdded == 1)
    #expect(
      report.diagnostics.filter { $0.code == "blank-list-name" }.map(\.message) == [
        "the list A has a blank name; it is named 'input'", "the list B has a blank name; it is named 'input'",
      ])
    #expect(try store.lists().map(\.list.name) == ["input"])
    // A known list renamed blank keeps its name.
    try importLines([#"{"list":"Named","listId":"N","id":"n1","title":"four"}"#], into: store)
    try importLines([#"{"list":" ","listId":"N","id":"n1","title":"four"}"#], into: store)
    #expect(try store.lists().map(\.list.name) == ["input", "Named"])
  }

  @Test func tooManyItemsFailTheImportAndWriteNothing() throws {
    let directory = TemporaryDirectory()
    let store = try Store(path: directory.file("store.sqlite"))
    defer { store.close() }
    var options = Importer.Options()
    options.maximumItems = 5
    // One list record and four reminders fit; the fifth reminder is the sixth item.
    let lines = (1...5).map { #"{"list":"L","id":"r\#($0)","title":"item \#($0)"}"# }
    do {
      try importLines(lines, into: store, options: options)
      Issue.record("the limit was not applied")
    } catch let failure as ImportFailure {
      let message = "\(failure.underlying.map { "\($0)" } ?? "")"
      #expect(message == "input.jsonl:5: more than 5 items: the limit of one import or conversion (split the input)")
    }
    #expect(try store.reminderCount() == 0)
    try importLines(Array(lines.prefix(4)), into: store, options: options)
    #expect(try store.reminderCount() == 4)
  }

  @Test(arguments: ["jsonl", "json"])
  func tooManyItemsFailAConversion(to output: String) throws {
    let lines = (1...5).map { #"{"list":"L","id":"r\#($0)","title":"item \#($0)"}"# }
    let source = InputSource.file("input.jsonl")
    let diagnostics = DiagnosticLog()
    let makeReader = try #require(FormatRegistry.named("jsonl")?.makeReader)
    let reader = try makeReader(
      ReaderContext(
        source: source, diagnostics: diagnostics,
        preopened: ByteReader(bytes: Array(lines.joined(separator: "\n").utf8), name: "input.jsonl")))
    let makeWriter = try #require(FormatRegistry.named(output)?.makeWriter)
    let writer = try makeWriter(WriterContext(target: .stream(ByteWriter()), diagnostics: diagnostics))
    do {
      _ = try Converter.run(
        reader: reader, writer: writer, writerType: type(of: writer), source: source, diagnostics: diagnostics,
        maximumItems: 3)
      Issue.record("the limit was not applied")
    } catch {
      // A grouped writer's conversion goes through a staging import, which wraps the error.
      let underlying = (error as? ImportFailure)?.underlying ?? error
      #expect(
        "\(underlying)" == "input.jsonl:3: more than 3 items: the limit of one import or conversion (split the input)")
    }
  }

  /// A 10,000-deep chain of subtasks imports, re-imports as unchanged in linear time (the
  /// cycle check used to walk every ancestor of every reminder again), and exports whole.
  @Test(.timeLimit(.minutes(1)))
  func aTenThousandDeepOutlineReimportsAndExports() throws {
    let directory = TemporaryDirectory()
    let store = try Store(path: directory.file("store.sqlite"))
    defer { store.close() }
    let depth = 10_000
    let lines = (0..<depth).map { level in
      let parent = level == 0 ? "null" : "\"n\(level - 1)\""
      return #"{"list":"Deep","id":"n\#(level)","title":"level \#(level)","parentId":\#(parent)}"#
    }
    #expect(try importLines(lines, into: store).added == depth)
    #expect(try importLines(lines, into: store).unchanged == depth)
    let writer = ByteWriter()
    let makeWriter = try #require(FormatRegistry.named("jsonl")?.makeWriter)
    let jsonl = try makeWriter(WriterContext(target: .stream(writer), diagnostics: DiagnosticLog()))
    #expect(try Exporter.run(from: store, to: jsonl, options: Exporter.Options()) == depth)
  }
}
