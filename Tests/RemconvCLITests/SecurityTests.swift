import Foundation
import RemconvCLI
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// Hostile text is data wherever it goes, and outputs never overwrite or follow a link.
@Suite struct SecurityTests {
  /// Text that means something to SQL, to `LIKE`, to C strings or to a terminal.
  static let hostileTexts = [
    #"Robert'); DROP TABLE reminders;--"#,
    #"' OR '1'='1"#,
    #""; DELETE FROM lists; --"#,
    #"%_\ LIKE wildcards and \ escape"#,
    "before\u{0}after a NUL",
    "?1 ?2 :name @name $name",
    "/* comment */ SELECT 1;",
    "\u{202E}right-to-left\u{1B}[31m escape",
  ]

  /// A document with `text` in every text field of a list and of two reminders, and in the
  /// fields that do not parse (kept in `extra.invalid`).
  static func document(_ texts: [String]) -> JSONValue {
    let lists: [JSONValue] = texts.enumerated().map { index, text in
      let reminders: [JSONValue] = [
        .object([
          "id": .string("parent-\(index)-" + text), "title": .string(text), "notes": .string(text),
          "tags": .array([.string(text), .string(text + " 2")]), "url": .string(text), "priority": .string("high"),
          "extra": .object([text: .string(text)]),
        ]),
        .object([
          "id": .string("child-\(index)-" + text), "title": .string("Subtask " + text),
          "parentId": .string("parent-\(index)-" + text),
          // Not a colour, an instant or a zone: warned about and kept, not lost.
          "dueDate": .string("2026-12-01T09:00:00"), "dueTimeZone": .string(text), "completedAt": .string(text),
        ]),
      ]
      return .object([
        "id": .string("list-\(index)-" + text), "name": .string("List \(index) " + text), "symbol": .string(text),
        "color": .string(text), "extra": .object([text: .array([.string(text)])]), "reminders": .array(reminders),
      ])
    }
    return .object(["format": .string("remconv"), "version": .number("1"), "lists": .array(lists)])
  }

  @Test func hostileTextInEveryFieldIsStoredAsDataAndComesBackWhole() throws {
    let bench = TestBench()
    let input = bench.directory.write("hostile.json", JSONText.encode(Self.document(Self.hostileTexts)))
    let imported = bench.run(["import", input])
    #expect(imported.status == .ok, "\(imported.errors)")
    let schemaBefore = try Self.schema(of: bench.storePath)

    let exported = try JSONParser.parse(bench.snapshot())
    let lists = try #require(exported["lists"]?.arrayValue)
    #expect(lists.count == Self.hostileTexts.count)
    for (index, text) in Self.hostileTexts.enumerated() {
      let list = try #require(lists.first { $0["id"]?.stringValue == "list-\(index)-" + text }, "list \(index)")
      // The model's text fields hold no C0 control characters but tab, LF and CR (the text
      // rule, docs/formats.md): a NUL or an ESC is removed, with a warning; UIDs and `extra`
      // keep them as data.
      let cleaned = Self.withoutControlCharacters(text)
      if cleaned != text {
        // Printed with its control characters escaped, as every diagnostic is.
        #expect(
          imported.errors.contains("(UID list-\(index)-" + Self.escaped(text) + ") [control-character]"),
          "\(imported.errors)")
      }
      #expect(list["name"]?.stringValue == "List \(index) " + cleaned)
      #expect(list["symbol"]?.stringValue == cleaned)
      #expect(list["extra"]?[text] == .array([.string(text)]))
      #expect(list["extra"]?["invalid"]?["color"] == .string(text))
      let reminders = try #require(list["reminders"]?.arrayValue)
      let parent = try #require(reminders.first { $0["id"]?.stringValue == "parent-\(index)-" + text })
      for key in ["title", "notes", "url"] { #expect(parent[key]?.stringValue == cleaned, "\(key) of list \(index)") }
      #expect(parent["tags"] == .array([.string(cleaned), .string(cleaned + " 2")]))
      #expect(parent["extra"]?[text] == .string(text))
      let child = try #require(reminders.first { $0["id"]?.stringValue == "child-\(index)-" + text })
      #expect(child["parentId"]?.stringValue == "parent-\(index)-" + text)
      #expect(child["extra"]?["invalid"]?["dueTimeZone"] == .string(text))
      #expect(child["extra"]?["invalid"]?["completedAt"] == .string(text))
    }

    // Nothing ran as SQL, and a second import finds every item unchanged.
    #expect(try Self.schema(of: bench.storePath) == schemaBefore)
    let again = bench.run(["import", input, "--report", "json"])
    let report = try JSONParser.parse(again.output)
    #expect(report["added"] == .number("0"))
    #expect(report["updated"] == .number("0"))
    #expect(report["unchanged"] == .number("\(2 * Self.hostileTexts.count)"))
  }

  /// The text without the C0 control characters the text rule removes.
  static func withoutControlCharacters(_ text: String) -> String {
    String(
      String.UnicodeScalarView(
        text.unicodeScalars.filter { $0.value >= 0x20 || [0x09, 0x0A, 0x0D].contains($0.value) }))
  }

  @Test(arguments: hostileTexts)
  func hostileListNamesAreLookedUpAsText(text: String) throws {
    let bench = TestBench()
    bench.run(["import", bench.directory.write("hostile.json", JSONText.encode(Self.document([text])))])
    bench.run(["import", Repository.path("Samples/json/reminders.json")])
    let one = bench.run(["export", "--list", "List 0 " + Self.withoutControlCharacters(text)])
    #expect(one.status == .ok, "\(one.errors)")
    #expect(try JSONParser.parse(one.output)["lists"]?.arrayValue?.count == 1)
    let none = bench.run(["export", "--list", text])
    #expect(none.status == .noInput)
    #expect(bench.run(["import", Repository.path("Samples/jsonl/reminders.jsonl"), "--list", text]).status == .ok)
    #expect(bench.snapshot().contains(JSONText.quoted(text)))
  }

  /// The only `LIKE` of the store: typed UID prefixes match literally.
  /// `text` as a diagnostic prints it: each control character but line breaks and tabs as
  /// its escape.
  static func escaped(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x09, 0x0A, 0x0D: result.unicodeScalars.append(scalar)
      case 0x00..<0x20, 0x7F..<0xA0, 0x2028, 0x2029:
        result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// What a diagnostic quotes from outside (here a file's name) cannot reach the terminal as
  /// an escape sequence or a bell (issue 41, finding 14).
  @Test func controlCharactersADiagnosticQuotesAreEscaped() throws {
    let bench = TestBench()
    let path = bench.directory.write("bad\u{1B}[2J\u{07}.json", "{not json")
    let result = bench.run(["import", path])
    #expect(result.status == .dataError, "\(result.errors)")
    #expect(!result.errors.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(result.errors)")
    #expect(result.errors.contains("bad\\u{1B}[2J\\u{7}.json"), "\(result.errors)")
  }

  @Test func uidPrefixesMatchLiterally() throws {
    let directory = TemporaryDirectory()
    let store = try Store(path: directory.file("store.sqlite"))
    defer { store.close() }
    try store.write {
      let list = try store.insertList(ReminderList(id: "list", name: "Inbox"))
      for uid in ["a%b", "axb", "a_c", "abc", #"a\d"#, "A%B"] {
        try store.insertReminder(Reminder(id: uid, listID: "list", title: uid), listRowID: list, parentRowID: nil)
      }
    }
    // Case does not matter (ids are typed by hand); wildcards do not work.
    #expect(try store.reminders(uidPrefix: "a%").map(\.reminder.id) == ["a%b", "A%B"])
    #expect(try store.reminders(uidPrefix: "a_").map(\.reminder.id) == ["a_c"])
    #expect(try store.reminders(uidPrefix: #"a\"#).map(\.reminder.id) == [#"a\d"#])
    #expect(try store.reminders(uidPrefix: "%").isEmpty)
  }

  static func schema(of path: String) throws -> [String] {
    let store = try Store(path: path)
    defer { store.close() }
    return try store.database.rows("SELECT type || ' ' || name FROM sqlite_schema ORDER BY name").compactMap {
      $0.string(0)
    }
  }

  // MARK: Outputs

  /// A conversion checks its output before it opens its input: a large .ics is read once
  /// when its reader opens, which would be wasted on an output it may not write.
  @Test func convertRefusesAnExistingOutputBeforeItOpensTheInput() throws {
    let bench = TestBench()
    let output = bench.directory.write("out.csv", "kept\n")
    let missing = bench.directory.file("missing.ics")
    let refused = bench.run(["convert", missing, "-o", output])
    #expect(refused.status == .cannotCreate)
    #expect(refused.errors.contains("\(output): already exists (use --force to replace it)"))
    #expect(!refused.errors.contains("missing.ics"))
    #expect(try String(contentsOfFile: output, encoding: .utf8) == "kept\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: bench.directory.path).sorted() == ["out.csv"])
  }

  @Test func aDanglingLinkAtTheTargetIsNeitherFollowedNorReplacedWithoutForce() throws {
    let bench = TestBench()
    bench.run(["import", Repository.path("Samples/json/reminders.json")])
    let planted = bench.directory.file("planted")
    let link = bench.directory.file("export.json")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: planted)
    let refused = bench.run(["export", "-o", link])
    #expect(refused.status == .cannotCreate)
    #expect(refused.errors.contains("\(link): already exists (use --force to replace it)"))
    #expect(!FileManager.default.fileExists(atPath: planted))
    #expect(bench.run(["export", "-o", link, "--force"]).status == .ok)
    #expect(!FileManager.default.fileExists(atPath: planted))
    #expect((try FileManager.default.attributesOfItem(atPath: link)[.type] as? FileAttributeType) == .typeRegular)
  }

  @Test func aLinkToAFolderIsReplacedOnlyWithForceAndTheFolderIsUntouched() throws {
    let bench = TestBench()
    bench.run(["import", Repository.path("Samples/json/reminders.json")])
    let folder = bench.directory.file("folder")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let link = bench.directory.file("out.json")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder)
    #expect(bench.run(["export", "-o", link]).status == .cannotCreate)
    #expect(bench.run(["export", "-o", link, "--force"]).status == .ok)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [])
    #expect(bench.directory.read("out.json") == bench.snapshot())
  }

  @Test func aFolderAtTheTargetIsRefusedEvenWithForce() throws {
    let bench = TestBench()
    bench.run(["import", Repository.path("Samples/json/reminders.json")])
    let folder = bench.directory.file("out.json")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for arguments in [["export", "-o", folder], ["export", "-o", folder, "--force"]] {
      let result = bench.run(arguments)
      #expect(result.status == .cannotCreate)
      #expect(result.errors.contains("\(folder): is a directory"))
    }
  }

  @Test func convertNeverOverwritesWithoutForceNorFollowsALink() throws {
    let bench = TestBench()
    let sample = Repository.path("Samples/json/reminders.json")
    let existing = bench.directory.write("existing.jsonl", "precious\n")
    #expect(bench.run(["convert", sample, "-o", existing]).status == .cannotCreate)
    #expect(bench.directory.read("existing.jsonl") == "precious\n")
    let victim = bench.directory.write("victim.txt", "do not touch")
    let link = bench.directory.file("converted.jsonl")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
    #expect(bench.run(["convert", sample, "-o", link]).status == .cannotCreate)
    #expect(bench.run(["convert", sample, "-o", link, "--force"]).status == .ok)
    #expect(bench.directory.read("victim.txt") == "do not touch")
    #expect(bench.directory.read("converted.jsonl").hasPrefix(#"{"list":"#))
    // Nothing half-written is left beside the targets.
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: bench.directory.path).filter {
      $0.contains(".remconv-")
    }
    #expect(leftovers == [])
  }
}
