import Foundation
import RemconvCLI
import RemconvTestSupport
import Testing

@testable import RemconvCore

@Suite struct OPMLWriterTests {
  private static let list = ReminderList(id: "L", name: "Inbox")

  @Test func exportOfTheSampleMatchesTheGoldenFile() {
    let bench = TestBench()
    #expect(bench.run(["import", Repository.path("Samples/json/reminders.json")]).status == .ok)
    let result = bench.run(["export", "--format", "opml"])
    #expect(result.status == .ok)
    #expect(result.output == Repository.read("Samples/opml/reminders.opml"))
  }

  @Test func goldenFileShowsDoneNotesNestingAndEmptyLists() {
    let golden = Repository.read("Samples/opml/reminders.opml")
    #expect(golden.contains(#"<outline text="Vanilla pods" _complete="true" _status="checked""#))
    #expect(golden.contains(#"_note="Vanilla pods&#10;Cream (35%)&#10;Caster sugar — not icing sugar""#))
    #expect(golden.contains(#"<outline text="Someday" created="Sat, 04 Jul 2026 10:00:00 GMT" remconv:kind="list""#))
    #expect(golden.contains(##"remconv:color="#AF52DE"/>"##))
    #expect(golden.contains(#"remconv:dueDate="2026-11-30T09:00:00" remconv:dueTimeZone="Europe/Berlin""#))
  }

  @Test func attributeValuesAreEscapedAndLineBreaksAreCharacterReferences() throws {
    let reminder = Reminder(
      id: "R", listID: "L", title: "Say \"hi\" & <wave>", notes: "one\ntwo\r\nthree\tfour",
      url: "https://x.example/?a=1&b=2")
    let text = try OPMLTest.write([(Self.list, [(reminder, 0)])])
    #expect(text.contains(#"text="Say &quot;hi&quot; &amp; &lt;wave&gt;""#))
    #expect(text.contains(#"_note="one&#10;two&#13;&#10;three&#9;four""#))
    #expect(text.contains(#"remconv:url="https://x.example/?a=1&amp;b=2""#))
    let back = try OPMLTest.read(text)
    #expect(back.reminders.first?.notes == reminder.notes)
    #expect(back.reminders.first?.title == reminder.title)
  }

  @Test func controlCharactersXMLCannotCarryAreReplacedAndReported() throws {
    let diagnostics = DiagnosticLog()
    let reminder = Reminder(id: "R", listID: "L", title: "bell\u{07}here\u{FFFF}, keep \u{FFFD}\u{EFBF}")
    let text = try OPMLTest.write([(Self.list, [(reminder, 0)])], diagnostics: diagnostics)
    #expect(text.contains("text=\"bell\u{FFFD}here\u{FFFD}, keep \u{FFFD}\u{EFBF}\""))
    #expect(diagnostics.entries.first?.message.contains("2 control character(s) of text") == true)
    #expect(diagnostics.entries.map(\.code) == ["cannot-carry"])
    #expect(diagnostics.entries.first?.uid == "R")
    #expect(try OPMLTest.read(text).reminders.first?.title == "bell\u{FFFD}here\u{FFFD}, keep \u{FFFD}\u{EFBF}")
  }

  @Test func outlinesNestAndCloseByDepth() throws {
    func reminder(_ id: String, parent: String? = nil) -> Reminder {
      Reminder(id: id, listID: "L", parentID: parent, title: id)
    }
    let text = try OPMLTest.write([
      (
        Self.list,
        [
          (reminder("a"), 0), (reminder("b", parent: "a"), 1), (reminder("c", parent: "b"), 2),
          (reminder("d", parent: "a"), 1), (reminder("e"), 0),
        ]
      ),
      (ReminderList(id: "E", name: "Empty"), []),
    ])
    #expect(
      text.contains(
        """
            <outline text="Inbox" remconv:kind="list" remconv:id="L">
              <outline text="a" remconv:id="a">
                <outline text="b" remconv:id="b">
                  <outline text="c" remconv:id="c"/>
                </outline>
                <outline text="d" remconv:id="d"/>
              </outline>
              <outline text="e" remconv:id="e"/>
            </outline>
            <outline text="Empty" remconv:kind="list" remconv:id="E"/>
          </body>
        """))
    let back = try OPMLTest.read(text)
    #expect(back.reminders.map(\.parentID) == [nil, "a", "b", "a", nil])
    #expect(back.lists.map(\.name) == ["Inbox", "Empty"])
  }

  @Test func aParentOutsideTheOutlineIsNamed() throws {
    let orphan = Reminder(id: "child", listID: "L", parentID: "elsewhere", title: "Child")
    let text = try OPMLTest.write([(Self.list, [(orphan, 0)])])
    #expect(text.contains(#"remconv:parentId="elsewhere""#))
    #expect(try OPMLTest.read(text).reminders.first?.parentID == "elsewhere")
  }

  @Test func titlesThatWouldReadAsMarkupOrMarkersAreMarkedLiteral() throws {
    let titles = ["DONE is a word", "a <b>bold</b> claim", "R&amp;D budget", "[#A] grade", "Plain"]
    let reminders = titles.enumerated().map { Reminder(id: "R\($0.offset)", listID: "L", title: $0.element) }
    let text = try OPMLTest.write([(Self.list, reminders.map { ($0, 0) })])
    #expect(text.components(separatedBy: #"remconv:literal="true""#).count == 5)
    let back = try OPMLTest.read(text)
    #expect(back.reminders.map(\.title) == titles)
    #expect(back.reminders.allSatisfy { !$0.isDone && $0.priority == .none })
  }

  @Test func anOutlinersTextIsWrittenBackWhileItStillSaysTheSame() throws {
    let original = "TODO [#A] Pay the rent DEADLINE: <2026-11-30 Mon>"
    let due = DueDate.date(try #require(LocalDate(iso: "2026-11-30")))
    var reminder = Reminder(
      id: "R", listID: "L", title: "Pay the rent", dueDate: due, priority: .high,
      extra: ["opml": .object(["text": .string(original)])])
    var text = try OPMLTest.write([(Self.list, [(reminder, 0)])])
    #expect(text.contains(#"text="TODO [#A] Pay the rent DEADLINE: &lt;2026-11-30 Mon&gt;""#))

    reminder.isDone = true  // the marker says TODO: the original no longer holds
    text = try OPMLTest.write([(Self.list, [(reminder, 0)])])
    #expect(text.contains(#"text="Pay the rent" _complete="true" _status="checked""#))
    #expect(!text.contains("TODO"))
    let back = try #require(try OPMLTest.read(text).reminders.first)
    #expect(back.isDone && back.priority == .high && back.dueDate == due)
  }

  @Test func keptAttributesAreWrittenBackWithTheirNamespaces() throws {
    let reminder = Reminder(
      id: "R", listID: "L", title: "T", url: "https://example.com/a",
      extra: [
        "opml": .object([
          "type": .string("link"), "Priority": .string("High"), "{https://bike.example/ns}rowid": .string("r2"),
          "_status": .string("indeterminate"), "not a name": .string("x"), "expanded": .bool(true),
        ]),
        "ical": .object(["X-A": .string("1")]),
      ])
    let text = try OPMLTest.write([(Self.list, [(reminder, 0)])])
    #expect(text.contains(#"url="https://example.com/a""#))
    #expect(!text.contains("remconv:url"))
    #expect(
      text.contains(#"Priority="High""#) && text.contains(#"_status="indeterminate""#) && text.contains(#"type="link""#)
    )
    #expect(text.contains(#"xmlns:ns1="https://bike.example/ns" ns1:rowid="r2""#))
    let back = try #require(try OPMLTest.read(text).reminders.first)
    #expect(back == reminder)
  }

  @Test func tagsAndTimesUseOPMLAttributesWhenTheyCanAndRemconvOnesWhenNot() throws {
    let plain = Reminder(
      id: "A", listID: "L", title: "A", tags: ["home", "errands"], createdAt: Timestamp(iso: "2026-11-27T18:02:11Z"))
    let awkward = Reminder(
      id: "B", listID: "L", title: "B", tags: ["a,b", "c"], createdAt: Timestamp(iso: "2026-11-27T18:02:11.250Z"))
    let text = try OPMLTest.write([(Self.list, [(plain, 0), (awkward, 0)])])
    #expect(text.contains(#"created="Fri, 27 Nov 2026 18:02:11 GMT" category="home,errands""#))
    #expect(text.contains(#"remconv:tags="[&quot;a,b&quot;,&quot;c&quot;]""#))
    #expect(text.contains(#"remconv:createdAt="2026-11-27T18:02:11.250Z""#))
    #expect(try OPMLTest.read(text).reminders == [plain, awkward])
  }
}

@Suite struct OPMLTextTests {
  @Test func htmlBecomesPlainText() {
    #expect(HTMLText.plain("The <b>bold</b>, <i>it</i> &amp; <u>under</u>").text == "The bold, it & under")
    #expect(HTMLText.plain("a < b and c > d").text == "a < b and c > d")
    #expect(HTMLText.plain("x&nbsp;y &#39;q&#x27; &unknown; & z").text == "x\u{A0}y 'q' &unknown; & z")
    #expect(
      HTMLText.plain("<a href=\"https://e.example/?a=1&amp;b=2\">link</a> and <!-- note --> <br>end").text
        == "link and   end")
    #expect(
      HTMLText.plain("<a href='https://one.example'>1</a><a href=two>2</a>").links == ["https://one.example", "two"])
    #expect(HTMLText.plain("<span class=\"colored c-red\">red</span>").text == "red")
    #expect(HTMLText.plain("unclosed <b tag").text == "unclosed <b tag")
    for edge in ["<", "a <", "<!-", "<!--", "&", "x &#", "&#x110000;", "&#0;", "</", "<1>"] {
      #expect(HTMLText.plain(edge).text == edge)
    }
    #expect(HTMLText.plain("<A HREF=\"https://e.example/Ü\">Ü</A>").links == ["https://e.example/Ü"])
  }

  @Test func logseqMarkersAreReadOnlyAtTheStart() throws {
    let done = OutlineText(interpreting: "DONE [#B] Ship it SCHEDULED: <2026-12-01 Tue 09:30 .+1w>", taskMarkers: true)
    #expect(done.title == "Ship it" && done.isDone == true && done.priority == .medium)
    #expect(done.due == .floating(try #require(LocalDateTime(iso: "2026-12-01T09:30:00"))))
    #expect(OutlineText(interpreting: "Not DONE yet", taskMarkers: true).isLiteral)
    #expect(OutlineText(interpreting: "DONE", taskMarkers: true).isLiteral)
    #expect(OutlineText(interpreting: "DONE [#A] x", taskMarkers: false) == OutlineText(literal: "DONE [#A] x"))
    #expect(OutlineText(interpreting: "CANCELED Trip", taskMarkers: true).isDone == true)
  }

  @Test func rfc822DatesAreReadInTheirVariantsAndWrittenInGMT() throws {
    let instant = Timestamp(iso: "2026-11-27T18:02:11Z")
    #expect(RFC822Date.parse("Fri, 27 Nov 2026 18:02:11 GMT") == instant)
    #expect(RFC822Date.parse("27 Nov 26 19:02:11 +0100") == instant)
    #expect(RFC822Date.parse("Fri, 27 November 2026 13:02:11 EST") == instant)
    #expect(RFC822Date.parse("2026-11-27T18:02:11Z") == instant)
    // White space around an ISO instant, ASCII or not, is trimmed.
    #expect(RFC822Date.parse(" 2026-11-27T18:02:11Z\n") == instant)
    #expect(RFC822Date.parse("\u{A0}2026-11-27T18:02:11Z\u{2003}") == instant)
    #expect(RFC822Date.parse("Fri, 27 Nov 2026 18:02 GMT") == Timestamp(iso: "2026-11-27T18:02:00Z"))
    #expect(RFC822Date.parse("Mon, 31 Oct 2005 19:23:00 GMT") == Timestamp(iso: "2005-10-31T19:23:00Z"))
    #expect(RFC822Date.parse("31 Feb 2026 10:00:00 GMT") == nil)
    #expect(RFC822Date.parse("yesterday") == nil)
    #expect(RFC822Date.parse("Fri, 27 Nov 2026 18:02:11") == nil)
    #expect(
      RFC822Date.format(try #require(Timestamp(iso: "2026-11-27T18:02:11.999Z"))) == "Fri, 27 Nov 2026 18:02:11 GMT")
    #expect(RFC822Date.format(try #require(Timestamp(iso: "1969-12-31T23:59:59Z"))) == "Wed, 31 Dec 1969 23:59:59 GMT")
  }
}
