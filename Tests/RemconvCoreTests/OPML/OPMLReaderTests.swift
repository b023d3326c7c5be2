import Foundation
import RemconvCLI
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// Each producer's conventions, read from fixtures modelled on their exports.
@Suite struct OPMLProducerTests {
  @Test func workflowyHTMLLinksNotesAndCompletion() throws {
    let records = try OPMLTest.read(file: OPMLTest.fixture("workflowy.opml"))
    let weekend = try #require(records.list(named: "Weekend"))
    #expect(records.lists.map(\.name) == ["Weekend"])

    let paint = try #require(records.reminder(titled: "Buy white paint for the fence"))
    #expect(paint.listID == weekend.id)
    #expect(paint.notes == "Two litres\nAsk about primer")
    #expect(paint.extra["opml"]?["text"] == .string("Buy <b>white</b> paint for the <i>fence</i>"))

    let court = try #require(records.reminder(titled: "Book the tennis court"))
    #expect(court.url == "https://example.com/court?day=sat&time=10")

    let bike = try #require(records.reminder(titled: "Fix the bike #errands"))
    let chain = try #require(records.reminder(titled: "Order a new chain"))
    let pump = try #require(records.reminder(titled: "Pump the tyres"))
    let find = try #require(records.reminder(titled: "Find the pump"))
    #expect(bike.parentID == nil && bike.extra.isEmpty)
    #expect(chain.isDone && chain.parentID == bike.id)
    #expect(!pump.isDone && pump.parentID == bike.id)
    #expect(find.parentID == pump.id && find.listID == weekend.id)
    #expect(records.reminder(titled: "Tom & Jerry night")?.extra["opml"]?["text"] == .string("Tom &amp; Jerry night"))

    // No <title>: top-level tasks go to the import's default list (the file's name).
    let card = try #require(records.reminder(titled: "Renew the library card"))
    let bank = try #require(records.reminder(titled: "Call the bank"))
    #expect(card.isDone && card.listID.isEmpty)
    #expect(bank.notes == "About the new card" && bank.listID.isEmpty)
    #expect(records.diagnostics.entries.isEmpty)
  }

  @Test func omniOutlinerStatusNotesAndOtherAttributes() throws {
    let records = try OPMLTest.read(file: OPMLTest.fixture("omnioutliner.opml"))
    #expect(records.lists.map(\.name) == ["Garden", "Kitchen"])
    let tulips = try #require(records.reminder(titled: "Plant tulip bulbs"))
    #expect(tulips.isDone)
    #expect(tulips.notes == "Before the first frost\nRed and yellow")
    #expect(tulips.extra["opml"]?["Priority"] == .string("High"))
    #expect(records.reminder(titled: "Rake the leaves")?.isDone == false)
    let roses = try #require(records.reminder(titled: "Prune the roses"))
    #expect(!roses.isDone)
    #expect(roses.extra["opml"]?["_status"] == .string("indeterminate"))
    #expect(records.reminder(titled: "Buy secateurs")?.parentID == roses.id)
    let kettle = try #require(records.reminder(titled: "Descale the kettle"))
    #expect(kettle.createdAt == Timestamp(iso: "2026-11-03T07:30:00Z"))
  }

  @Test func dynalistCompleteAndCheckbox() throws {
    let records = try OPMLTest.read(file: OPMLTest.fixture("dynalist.opml"))
    #expect(records.lists.map(\.name) == ["Books", "Articles"])
    let book = try #require(records.reminder(titled: "The Left Hand of Darkness"))
    #expect(book.isDone && book.notes == "Le Guin, 1969")
    #expect(book.extra["opml"]?["checkbox"] == .string("true"))
    #expect(records.reminder(titled: "Piranesi")?.isDone == false)
    #expect(records.reminder(titled: "Out of the Tar Pit")?.extra["opml"]?["color"] == .string("2"))
  }

  @Test func logseqMarkersPrioritiesAndDates() throws {
    let records = try OPMLTest.read(file: OPMLTest.fixture("logseq.opml"))
    #expect(records.lists.map(\.name) == ["Errands"])
    let rent = try #require(records.reminder(titled: "Pay the rent"))
    #expect(!rent.isDone && rent.priority == .high)
    #expect(rent.dueDate == .date(try #require(LocalDate(iso: "2026-11-30"))))
    #expect(rent.extra["opml"]?["text"] == .string("TODO [#A] Pay the rent DEADLINE: <2026-11-30 Mon>"))
    #expect(records.reminder(titled: "Return the library books")?.isDone == true)
    let reading = try #require(records.reminder(titled: "Read about OPML"))
    #expect(reading.dueDate == .floating(try #require(LocalDateTime(iso: "2026-12-01T09:30:00"))))
    #expect(records.reminder(titled: "The spec at opml.org")?.parentID == reading.id)
    // Logseq titles every export "untitled": that is no list name.
    let plants = try #require(records.reminder(titled: "Water the plants"))
    #expect(plants.listID.isEmpty && !plants.isDone)
  }

  @Test func todoistConverterTasksWithNotesAtTheTopLevel() throws {
    let records = try OPMLTest.read(file: OPMLTest.fixture("todoist.opml"))
    let project = try #require(records.list(named: "Moving house"))
    #expect(records.lists.count == 1)
    let movers = try #require(records.reminder(titled: "@errands Book the movers"))
    #expect(movers.listID == project.id)
    #expect(movers.notes == "Ask three companies for quotes\n\nImage \"boxes.png\": https://example.com/boxes.png")
    #expect(records.reminder(titled: "Compare the quotes")?.parentID == movers.id)
    #expect(records.reminder(titled: "Cancel the internet contract")?.listID == project.id)
  }

  @Test func flatOutlineGoesToTheDocumentTitle() throws {
    let records = try OPMLTest.read(file: OPMLTest.fixture("flat.opml"))
    let groceries = try #require(records.list(named: "Groceries"))
    #expect(records.reminders.map(\.title) == ["Milk", "Bread", "Eggs"])
    #expect(records.reminders.allSatisfy { $0.listID == groceries.id && $0.parentID == nil })
  }

  @Test func flatOutlineGoesToTheListOptionOrTheFileName() {
    let bench = TestBench()
    #expect(bench.run(["import", OPMLTest.fixture("flat.opml"), "--list", "Shopping"]).status == .ok)
    #expect(bench.run(["import", OPMLTest.fixture("flat-untitled.opml")]).status == .ok)
    let snapshot = bench.snapshot()
    #expect(snapshot.contains("\"name\": \"Shopping\""))
    #expect(snapshot.contains("\"name\": \"flat-untitled\""))
    #expect(!snapshot.contains("\"name\": \"Groceries\""))
  }
}

/// The rules of the reader that no single producer shows.
@Suite struct OPMLReaderRuleTests {
  @Test func topLevelOutlinesAreListsOnlyWithChildrenAndNoTaskSignal() throws {
    let records = try OPMLTest.read(
      OPMLTest.document(
        """
            <outline text="Project"><outline text="Step"/></outline>
            <outline text="Empty project" remconv:kind="list"/>
            <outline text="Done parent" _complete="true"><outline text="Child"/></outline>
            <outline text="Noted parent" _note="n"><outline text="Child 2"/></outline>
            <outline text="Leaf"></outline>
        """))
    #expect(records.lists.map(\.name) == ["Project", "Empty project", "Test"])
    let test = try #require(records.list(named: "Test"))
    #expect(records.reminder(titled: "Done parent")?.listID == test.id)
    #expect(records.reminder(titled: "Child")?.parentID == records.reminder(titled: "Done parent")?.id)
    #expect(records.reminder(titled: "Noted parent")?.listID == test.id)
    #expect(records.reminder(titled: "Leaf")?.listID == test.id)
  }

  @Test func remconvAttributesAreReadWithTheirKinds() throws {
    let records = try OPMLTest.read(
      OPMLTest.document(
        """
            <outline text="L" remconv:kind="list" remconv:id="L1" remconv:symbol="cart" remconv:color="#ff9500" remconv:createdAt="2026-01-02T03:04:05.678Z">
              <outline text="A" remconv:id="A1" remconv:dueDate="2026-11-30T09:00:00" remconv:dueTimeZone="Europe/Berlin" remconv:priority="medium" remconv:flagged="true" remconv:tags="[&quot;a,b&quot;,&quot; c&quot;]" remconv:url="https://x.example/" remconv:editedAt="2026-11-01T00:00:00Z" remconv:completedAt="2026-11-02T00:00:00Z" _complete="true" remconv:extra="{&quot;ical&quot;:{&quot;X-A&quot;:&quot;1&quot;}}"/>
              <outline text="B" remconv:id="B1" remconv:dueDate="2026-11-30"/>
              <outline text="C" remconv:id="C1" remconv:dueDate="2026-11-30T08:00:00Z" remconv:parentId="A1"/>
              <outline text="D" remconv:id="D1" remconv:dueDate="2026-11-30T08:00:00"/>
            </outline>
        """))
    let list = try #require(records.lists.first)
    #expect(
      list
        == ReminderList(
          id: "L1", name: "L", symbol: "cart", color: "#FF9500", createdAt: Timestamp(iso: "2026-01-02T03:04:05.678Z")))
    let a = try #require(records.reminder(titled: "A"))
    let due = try #require(LocalDateTime(iso: "2026-11-30T09:00:00"))
    #expect(a.dueDate == .zoned(due, timeZone: "Europe/Berlin"))
    #expect(a.priority == .medium && a.flagged && a.isDone)
    #expect(a.tags == ["a,b", " c"] && a.url == "https://x.example/")
    #expect(
      a.editedAt == Timestamp(iso: "2026-11-01T00:00:00Z") && a.completedAt == Timestamp(iso: "2026-11-02T00:00:00Z"))
    #expect(a.extra == ["ical": .object(["X-A": .string("1")])])
    #expect(records.reminder(titled: "B")?.dueDate?.kind == .date)
    #expect(records.reminder(titled: "C")?.dueDate?.kind == .utc)
    #expect(records.reminder(titled: "C")?.parentID == "A1")
    #expect(records.reminder(titled: "D")?.dueDate?.kind == .floating)
    #expect(records.diagnostics.entries.isEmpty)
  }

  @Test func badValuesAreWarningsKeptInExtraInvalid() throws {
    let records = try OPMLTest.read(
      OPMLTest.document(
        """
            <outline text="L" remconv:kind="list">
              <outline text="Bad" remconv:id="X" remconv:priority="urgent" remconv:dueDate="2026-13-45" _complete="maybe" created="yesterday" remconv:flagged="yes"/>
            </outline>
        """))
    let bad = try #require(records.reminder(titled: "Bad"))
    #expect(bad.priority == .none && bad.dueDate == nil && !bad.isDone && !bad.flagged && bad.createdAt == nil)
    #expect(
      bad.extra["invalid"]
        == .object([
          "remconv:priority": .string("urgent"), "remconv:dueDate": .string("2026-13-45"),
          "_complete": .string("maybe"),
          "created": .string("yesterday"), "remconv:flagged": .string("yes"),
        ]))
    let warnings = records.diagnostics.entries
    #expect(warnings.count == 5)
    #expect(warnings.allSatisfy { $0.code == "invalid-value" && $0.uid == "X" && $0.location?.line == 6 })
  }

  @Test func otherNamespacesAndUnknownAttributesAreKept() throws {
    let records = try OPMLTest.read(
      OPMLTest.document(
        """
            <outline text="L" xmlns:bike="https://bike.example/ns" bike:rowid="r1" isComment="false">
              <outline text="T" bike:rowid="r2" type="link" url="https://example.com/a" remconv:future="1"/>
            </outline>
        """))
    let list = try #require(records.lists.first)
    #expect(
      list.extra["opml"] == .object(["{https://bike.example/ns}rowid": .string("r1"), "isComment": .string("false")]))
    let task = try #require(records.reminder(titled: "T"))
    #expect(task.url == "https://example.com/a")
    #expect(
      task.extra["opml"]
        == .object([
          "{https://bike.example/ns}rowid": .string("r2"), "type": .string("link"),
          "{\(OPMLFormat.namespace)}future": .string("1"),
        ]))
  }

  @Test func outlinesKeepTheirLineNumbers() throws {
    let records = try OPMLTest.read(
      OPMLTest.document("    <outline text=\"L\">\n      <outline text=\"T\"/>\n    </outline>"))
    #expect(records.locations.first?.line == 6)
    #expect(records.locations.first?.file == "outline.opml")
  }

  @Test func nonOutlineElementsAndStrayTextAreReportedAndIgnored() throws {
    let records = try OPMLTest.read(
      OPMLTest.document(
        "    <outline text=\"L\"><outline text=\"T\"><note>ignored <b>x</b></note></outline>stray</outline>"))
    #expect(records.reminders.map(\.title) == ["T"])
    #expect(records.diagnostics.entries.map(\.code) == ["ignored-element", "ignored-text"])
  }

  /// libxml2's own line of a text node is wherever the parser stood when it first delivered a
  /// part of it; the reader counts the line breaks since the last start tag instead.
  @Test(arguments: [
    ("<outline text=\"a\"/>\nstray\n", 2),  // after an empty element, on the next line
    ("<outline text=\"a\"/>stray\n\n\n", 1),  // on the element's line, with blank lines after
    ("<outline text=\"a\"/>\n\n\nstray", 4),  // after blank lines
    // after an end tag and a comment
    ("<outline text=\"a\"><outline text=\"a1\"/></outline>\n<!-- a\ncomment -->\n\nstray", 5),
    ("<outline text=\"a\"/>\n" + String(repeating: "a long paragraph of stray text\n", count: 40), 2),
    ("<outline text=\"a\"/>\n<![CDATA[\nstray\n]]>", 3),
  ])
  func strayTextIsReportedAtItsFirstLine(between: String, line: Int) throws {
    // The outline `L` opens on line 5 of the document; `between` starts on that line.
    let records = try OPMLTest.read(
      OPMLTest.document("    <outline text=\"L\">" + between + "<outline text=\"b\"/></outline>"))
    let stray = try #require(records.diagnostics.entries.first { $0.code == "ignored-text" })
    #expect(stray.location?.line == 4 + line)
  }

  @Test func aMissingBodyIsReportedAtTheRootElement() throws {
    do {
      _ = try OPMLTest.read(
        "<?xml version=\"1.0\"?>\n<opml version=\"2.0\">\n  <head><title>Inbox</title></head>\n</opml>\n")
      Issue.record("a document without <body> was read")
    } catch let error as RemconvError {
      #expect(error.description.contains("outline.opml:2: the OPML document has no <body>"), "\(error)")
    }
  }

  @Test func aDocumentThatIsNotOPMLIsRefused() {
    #expect(throws: RemconvError.self) {
      try OPMLTest.read("<?xml version=\"1.0\"?>\n<rss version=\"2.0\"><channel/></rss>\n")
    }
    #expect(throws: RemconvError.self) { try OPMLTest.read("<opml version=\"2.0\"><head/></opml>") }
  }

  @Test func identicalOutlinesWithoutIDsStayDistinct() throws {
    let records = try OPMLTest.read(
      OPMLTest.document("    <outline text=\"L\"><outline text=\"Milk\"/><outline text=\"Milk\"/></outline>"))
    #expect(records.reminders.count == 2)
    #expect(records.reminders[0].id != records.reminders[1].id)
    let again = try OPMLTest.read(
      OPMLTest.document("    <outline text=\"L\"><outline text=\"Milk\"/><outline text=\"Milk\"/></outline>"))
    #expect(again.reminders.map(\.id) == records.reminders.map(\.id))
  }

  @Test func anUndeclaredPrefixIsAWarningAndTheAttributeIsKept() throws {
    let text = OPMLTest.document("    <outline text=\"L\"><outline text=\"T\" foo:bar=\"x\"/></outline>")
    let records = try OPMLTest.read(text)
    #expect(records.diagnostics.entries.map(\.code) == ["xml-error"])
    #expect(records.diagnostics.entries.first?.message.contains("foo") == true)
    let task = try #require(records.reminder(titled: "T"))
    #expect(task.extra["opml"] == .object(["foo:bar": .string("x")]))
    // Not a name the writer can declare: it rides in remconv:extra and comes back the same.
    let written = try OPMLTest.write([(try #require(records.lists.first), [(task, 0)])])
    #expect(written.contains(#"remconv:extra="{&quot;opml&quot;:{&quot;foo:bar&quot;:&quot;x&quot;}}""#))
    #expect(try OPMLTest.read(written).reminder(titled: "T") == task)
  }

  @Test func standardInputIsDetectedAsOPML() {
    let bench = TestBench()
    let result = bench.run(["import", "-"], input: Repository.read("Samples/opml/reminders.opml"))
    #expect(result.status == .ok, "\(result.errors)")
    #expect(bench.snapshot() == Repository.read("Samples/json/reminders.json"))
  }

  @Test func theDeclaredEncodingIsHonoured() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("latin1.opml")
    let latin1: [UInt8] =
      Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<opml version=\"2.0\"><head><title>Caf".utf8) + [0xE9]
      + Array("</title></head><body><outline text=\"Cr".utf8) + [0xE8] + Array("me\"/></body></opml>\n".utf8)
    #expect(FileManager.default.createFile(atPath: path, contents: Data(latin1)))
    let records = try OPMLTest.read(file: path)
    #expect(records.lists.map(\.name) == ["Café"])
    #expect(records.reminders.map(\.title) == ["Crème"])
  }
}
