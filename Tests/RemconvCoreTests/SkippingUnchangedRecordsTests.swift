import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// An import that skips the records the store holds unchanged (`KnownRecords`, `RecordDigest`)
/// must end exactly where an import that decodes and merges every record ends: same rows, same
/// report, same warnings. Each test runs one sequence of imports and store changes twice, on
/// a store whose imports skip and on one whose imports do not, and compares after every step.
@Suite struct SkippingUnchangedRecordsTests {
  /// One step of a scenario: an import of `text`, or a change made to the store by hand.
  enum Step {
    case importing(String, format: String, name: String = "tasks", list: String? = nil)
    case changing(String)
  }

  /// What an import left, compared between the two stores.
  struct Outcome: Equatable, CustomStringConvertible {
    var counts: [Int]
    var warnings: [String]
    var rows: [String]

    var description: String { "counts \(counts)\nwarnings \(warnings)\nrows\n" + rows.joined(separator: "\n") }
  }

  /// Two stores fed the same steps, one through `KnownRecords`.
  final class Pair {
    let directory = TemporaryDirectory()
    let skipping: Store
    let decoding: Store
    /// Records skipped by the skipping store's last import.
    private(set) var lastSkipped = 0

    init() throws {
      skipping = try Store(path: directory.file("skipping.sqlite"))
      decoding = try Store(path: directory.file("decoding.sqlite"))
    }

    deinit {
      skipping.close()
      decoding.close()
    }

    /// Runs `step` on both stores and expects the same outcome.
    @discardableResult
    func run(_ step: Step, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Outcome {
      let known = KnownRecords()
      let skipped = try Self.apply(step, to: skipping, knownRecords: known)
      let decoded = try Self.apply(step, to: decoding, knownRecords: nil)
      lastSkipped = known.skippedCount
      #expect(skipped == decoded, "the skipping import differs from the decoding one", sourceLocation: sourceLocation)
      return skipped
    }

    static func apply(_ step: Step, to store: Store, knownRecords: KnownRecords?) throws -> Outcome {
      switch step {
      case .changing(let sql):
        try store.database.execute(sql)
        return Outcome(counts: [], warnings: [], rows: try rows(of: store))
      case .importing(let text, let format, let name, let list):
        let diagnostics = DiagnosticLog()
        let source = InputSource.file(name + "." + format)
        let bytes = ByteReader(bytes: Array(text.utf8), name: source.displayName)
        let makeReader = try #require(FormatRegistry.named(format)?.makeReader)
        var readerOptions = ReaderOptions()
        readerOptions.timeZone = TimeZone(identifier: "Europe/Berlin")!
        readerOptions.listName = list
        let reader = try makeReader(
          ReaderContext(source: source, diagnostics: diagnostics, options: readerOptions, preopened: bytes))
        var options = Importer.Options()
        options.targetList = list
        let report = try Importer.run(
          reader: reader, into: store, source: source, format: format, options: options, diagnostics: diagnostics,
          knownRecords: knownRecords)
        return Outcome(
          counts: [
            report.added, report.updated, report.unchanged, report.rejected, report.listsAdded, report.listsUpdated,
          ],
          warnings: report.diagnostics.map { "\($0.code) \(fresh($0.uid) ?? "-") \($0.location?.line ?? 0)" },
          rows: try rows(of: store))
      }
    }

    /// A random UID (given to a duplicate, different in each store) as `fresh`.
    static func fresh(_ uid: String?) -> String? {
      guard let uid, uid.range(of: "^[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-", options: .regularExpression) != nil else {
        return uid
      }
      return "fresh"
    }

    /// Every list and reminder, all columns but the source digest; a UID an import made up
    /// for a duplicate (random each time) shows as `fresh`.
    static func rows(of store: Store) throws -> [String] {
      let lists = try store.database.rows(
        "SELECT uid, name, symbol, color, created_at, extra FROM lists ORDER BY name_key"
      ).map { row in (0..<6).map { "\(row.value(at: $0))" }.joined(separator: "|") }
      let reminders = try store.database.rows(
        """
        SELECT CASE WHEN r.extra LIKE '%originalId%' THEN 'fresh' ELSE r.uid END, l.uid, p.uid, r.title, r.notes,
          r.is_done, r.completed_at, r.flagged, r.due, r.due_kind, r.due_tz, r.priority, r.tags, r.url, r.created_at,
          r.edited_at, r.extra
        FROM reminders r JOIN lists l ON l.id = r.list_id LEFT JOIN reminders p ON p.id = r.parent_id
        ORDER BY 1, r.title, r.notes
        """
      ).map { row in (0..<17).map { "\(row.value(at: $0))" }.joined(separator: "|") }
      return lists + reminders
    }
  }

  static let csv = #"""
    id,title,notes,isDone,dueDate,priority,parentId,tags,list,listId
    a,Buy milk,two litres,false,2026-12-01,high,,shop;food,Home,L1
    b,Call Ann,,false,2026-12-02T09:30:00,none,,,Home,L1
    c,Milk brand,"semi-skimmed, ""organic""",false,,low,a,,Home,L1
    d,File taxes,,true,,medium,,,Work,L2

    """#

  static let jsonl = """
    {"list":"Home","listId":"L1","id":"a","title":"Buy milk","tags":["shop"],"dueDate":"2026-12-01"}
    {"list":"Home","listId":"L1","id":"c","title":"Milk brand","parentId":"a"}
    {"list":"Work","listId":"L2","id":"d","title":"File taxes","isDone":true,"priority":"medium"}

    """

  static let json = """
    {"format":"remconv","version":1,"lists":[
      {"id":"L1","name":"Home","reminders":[
        {"id":"a","title":"Buy milk","dueDate":"2026-12-01"},
        {"id":"c","title":"Milk brand","parentId":"a"}]},
      {"id":"L2","name":"Work","reminders":[{"id":"d","title":"File taxes","priority":"high"}]}]}
    """

  static let ics = """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:-//Test//EN\r
    X-WR-CALNAME:Home\r
    BEGIN:VTODO\r
    UID:a\r
    SUMMARY:Buy milk\r
    DUE;VALUE=DATE:20261201\r
    RELATED-TO;RELTYPE=CHILD:c\r
    END:VTODO\r
    BEGIN:VTODO\r
    UID:c\r
    SUMMARY:Milk brand\r
    DESCRIPTION:semi-skimmed\\, organic\r
    END:VTODO\r
    BEGIN:VTODO\r
    UID:e\r
    SUMMARY:Water plants\r
    DUE;TZID=Europe/Berlin:20261203T080000\r
    RRULE:FREQ=WEEKLY\r
    END:VTODO\r
    END:VCALENDAR\r

    """

  static let opml = """
    <?xml version="1.0" encoding="UTF-8"?>
    <opml version="2.0" xmlns:remconv="https://remconv.dev/opml/1">
      <head><title>Reminders</title></head>
      <body>
        <outline text="Home" remconv:kind="list" remconv:id="L1">
          <outline text="Buy milk" category="shop" remconv:id="a" remconv:dueDate="2026-12-01">
            <outline text="Milk brand" remconv:id="c"/>
            <outline text="Oat milk"/>
          </outline>
        </outline>
        <outline text="Work" remconv:kind="list" remconv:id="L2">
          <outline text="File taxes" _complete="true" remconv:id="d" remconv:priority="medium"
            remconv:completedAt="2026-11-20T10:00:00Z"/>
        </outline>
      </body>
    </opml>
    """

  /// Each format's sample, its reminders, and how many of them carry a UID of their own (only
  /// those can be skipped: OPML's "Oat milk" has none).
  static let formats: [(format: String, text: String, count: Int, withUID: Int)] = [
    ("csv", csv, 4, 4), ("jsonl", jsonl, 3, 3), ("json", json, 3, 3), ("ics", ics, 3, 3), ("opml", opml, 4, 3),
  ]

  @Test(arguments: formats.map(\.format))
  func aSecondImportOfTheSameFileSkipsEveryRecordAndChangesNothing(format: String) throws {
    let (_, text, count, withUID) = try #require(Self.formats.first { $0.format == format })
    let pair = try Pair()
    let first = try pair.run(.importing(text, format: format))
    #expect(first.counts[0] == count)
    #expect(pair.lastSkipped == 0)
    let second = try pair.run(.importing(text, format: format))
    #expect(second.counts == [0, 0, count, 0, 0, 0])
    #expect(pair.lastSkipped == withUID)
    #expect(second.rows == first.rows)
  }

  @Test(arguments: formats.map(\.format))
  func aReminderChangedInTheStoreIsMergedAgainNotSkipped(format: String) throws {
    let (_, text, _, withUID) = try #require(Self.formats.first { $0.format == format })
    let pair = try Pair()
    try pair.run(.importing(text, format: format))
    try pair.run(.changing("UPDATE reminders SET title = 'Changed by hand', is_done = 1 WHERE uid = 'c'"))
    let again = try pair.run(.importing(text, format: format))
    #expect(again.counts[1] == 1, "the file's version is written back")
    #expect(pair.lastSkipped == withUID - 1)
    #expect(!again.rows.contains { $0.contains("Changed by hand") })
    try pair.run(.importing(text, format: format))
    #expect(pair.lastSkipped == withUID, "the merge stored the digest again")
  }

  @Test(arguments: formats.map(\.format))
  func aRenamedListMakesItsRemindersMergedAgain(format: String) throws {
    let (_, text, _, _) = try #require(Self.formats.first { $0.format == format })
    let pair = try Pair()
    try pair.run(.importing(text, format: format))
    try pair.run(.changing("UPDATE lists SET name = 'Renamed', name_key = 'renamed' WHERE name = 'Home'"))
    try pair.run(.importing(text, format: format))
    try pair.run(.importing(text, format: format, list: "Elsewhere"))
    #expect(pair.lastSkipped == 0, "another target list is another context")
  }

  @Test func aChangedRecordIsMergedAndTheOthersAreSkipped() throws {
    let pair = try Pair()
    try pair.run(.importing(Self.csv, format: "csv"))
    let changed = Self.csv.replacingOccurrences(of: "Call Ann", with: "Call Ann and Bob")
    let outcome = try pair.run(.importing(changed, format: "csv"))
    #expect(outcome.counts == [0, 1, 3, 0, 0, 0])
    #expect(pair.lastSkipped == 3)
  }

  @Test func aRecordThatComesTwiceIsSkippedOnceAndReportedAsADuplicate() throws {
    let pair = try Pair()
    let twice =
      Self.jsonl + #"{"list":"Work","listId":"L2","id":"d","title":"File taxes","isDone":true,"priority":"medium"}"#
    try pair.run(.importing(Self.jsonl, format: "jsonl"))
    let outcome = try pair.run(.importing(twice, format: "jsonl"))
    #expect(outcome.warnings.contains { $0.hasPrefix("duplicate-uid d") })
    #expect(pair.lastSkipped == 3)
  }

  /// A CSV row's digest covers where its cells end and which were quoted, not only its bytes:
  /// rows that spell the same bytes in other cells, or quote an empty cell another leaves
  /// bare, are other records.
  @Test func aCSVRowWhoseCellsSplitOrQuoteTheSameBytesOtherwiseIsMergedAgain() throws {
    let header = "id,title,notes,list\n"
    let pair = try Pair()
    try pair.run(.importing(header + "a,Buy milk,oat,Home\n", format: "csv"))
    try pair.run(.importing(header + "a,Buy milk,oat,Home\n", format: "csv"))
    #expect(pair.lastSkipped == 1)
    let split = try pair.run(.importing(header + "a,Buy milko,at,Home\n", format: "csv"))
    #expect(pair.lastSkipped == 0)
    #expect(split.rows.contains { $0.contains("Buy milko") })
    try pair.run(.importing(header + "a,Buy milk,,Home\n", format: "csv"))
    try pair.run(.importing(header + "a,Buy milk,\"\",Home\n", format: "csv"))
    #expect(pair.lastSkipped == 0)
    try pair.run(.importing(header + "a,Buy milk,\"\",Home\n", format: "csv"))
    #expect(pair.lastSkipped == 1)
  }

  @Test func recordsWithoutUIDsAreNeverSkipped() throws {
    // A derived UID depends on the records before (two identical lines are two items), so
    // such a record alone does not say which reminder it gives.
    let rows = """
      title,notes,list
      Buy milk,,Home
      Buy milk,,Home
      Buy bread,fresh,Home

      """
    let pair = try Pair()
    try pair.run(.importing(rows, format: "csv"))
    try pair.run(.importing(rows, format: "csv"))
    #expect(pair.lastSkipped == 0)
    try pair.run(
      .importing(
        rows.replacingOccurrences(of: "Buy milk,,Home\nBuy bread", with: "Buy milk,oat,Home\nBuy bread"), format: "csv")
    )
  }

  @Test func aRecordWithAWarningIsMergedEveryTimeSoTheWarningIsRepeated() throws {
    let rows = """
      id,title,dueDate,list
      a,Buy milk,not a date,Home
      b,Call Ann,,Home

      """
    let pair = try Pair()
    let first = try pair.run(.importing(rows, format: "csv"))
    #expect(!first.warnings.isEmpty)
    let second = try pair.run(.importing(rows, format: "csv"))
    #expect(second.warnings == first.warnings.filter { !$0.hasPrefix("unknown") })
    #expect(pair.lastSkipped == 1)
  }

  @Test func aSubtaskBeforeItsParentIsMergedUntilItsLinkIsStored() throws {
    let lines = """
      {"list":"Home","listId":"L1","id":"c","title":"Milk brand","parentId":"a"}
      {"list":"Home","listId":"L1","id":"a","title":"Buy milk"}

      """
    let pair = try Pair()
    try pair.run(.importing(lines, format: "jsonl"))
    try pair.run(.importing(lines, format: "jsonl"))
    #expect(pair.lastSkipped == 1, "the subtask's parent was attached after it was written")
    try pair.run(.importing(lines, format: "jsonl"))
    #expect(pair.lastSkipped == 2)
  }

  @Test func aParentWhoseUIDChangesMakesItsSubtasksMergedAgain() throws {
    let pair = try Pair()
    try pair.run(.importing(Self.jsonl, format: "jsonl"))
    try pair.run(.changing("UPDATE reminders SET uid = 'a2' WHERE uid = 'a'"))
    let outcome = try pair.run(.importing(Self.jsonl, format: "jsonl"))
    #expect(outcome.counts[0] == 1, "a is new again")
    #expect(pair.lastSkipped == 1, "only d: c names a, which is another reminder now")
  }

  @Test func aDeletedReminderIsImportedAgain() throws {
    let pair = try Pair()
    try pair.run(.importing(Self.ics, format: "ics"))
    try pair.run(.changing("DELETE FROM reminders WHERE uid = 'e'"))
    let outcome = try pair.run(.importing(Self.ics, format: "ics"))
    #expect(outcome.counts[0] == 1)
  }

  @Test func aChangedTimeZoneDefinitionChangesEveryVTODOsDigest() throws {
    let zone = """
      BEGIN:VTIMEZONE\r
      TZID:Custom\r
      BEGIN:STANDARD\r
      DTSTART:19700101T000000\r
      TZOFFSETFROM:+0100\r
      TZOFFSETTO:+0100\r
      END:STANDARD\r
      END:VTIMEZONE\r

      """
    let withZone = Self.ics.replacingOccurrences(of: "X-WR-CALNAME:Home\r\n", with: "X-WR-CALNAME:Home\r\n" + zone)
    let pair = try Pair()
    try pair.run(.importing(withZone, format: "ics"))
    try pair.run(.importing(withZone.replacingOccurrences(of: "+0100\r\nEND", with: "+0200\r\nEND"), format: "ics"))
    #expect(pair.lastSkipped == 0)
  }

  @Test func triggersClearADigestWhenAnythingElseChangesTheRow() throws {
    let directory = TemporaryDirectory()
    let store = try Store(path: directory.file("store.sqlite"))
    defer { store.close() }
    let known = KnownRecords()
    let bytes = ByteReader(bytes: Array(Self.jsonl.utf8), name: "tasks.jsonl")
    let diagnostics = DiagnosticLog()
    let source = InputSource.file("tasks.jsonl")
    let makeReader = try #require(FormatRegistry.named("jsonl")?.makeReader)
    let reader = try makeReader(
      ReaderContext(source: source, diagnostics: diagnostics, preopened: bytes))
    _ = try Importer.run(
      reader: reader, into: store, source: source, format: "jsonl", options: Importer.Options(),
      diagnostics: diagnostics,
      knownRecords: known)
    func digests() throws -> [String: Bool] {
      Dictionary(
        uniqueKeysWithValues: try store.database.rows("SELECT uid, source_digest IS NOT NULL FROM reminders").map {
          ($0.string(0) ?? "", $0.bool(1))
        })
    }
    #expect(try digests() == ["a": true, "c": true, "d": true])
    let row = try store.reminderRowID(uid: "d")
    try store.setParent(ofReminderRow: try #require(row), to: nil)
    #expect(try digests() == ["a": true, "c": true, "d": false], "an update of any column clears it")
    try store.database.execute("UPDATE lists SET color = 'red' WHERE uid = 'L1'")
    #expect(try digests() == ["a": false, "c": false, "d": false], "a change of the list clears its reminders'")
  }

  @Test func theDigestIsStableAndTellsPiecesApart() {
    let seed = RecordDigest(context: ["csv"])
    #expect(seed == RecordDigest(context: ["csv"]))
    #expect(seed.appending("ab").appending("c") != seed.appending("a").appending("bc"))
    #expect(seed.appending("") != seed.appending(marker: 0))
    #expect(RecordDigest(bytes: seed.bytes) == seed)
    // Pinned: stored digests are compared across runs and versions (see RecordDigest.version).
    let pinned = RecordDigest(
      of: Array("The quick brown fox jumps over the lazy dog".utf8), seed: RecordDigest(high: 0, low: 0))
    #expect(pinned.high == 0xe34b_bc7b_bc07_1b6c)
    #expect(pinned.low == 0x7a43_3ca9_c49a_9347)
  }

  /// The last bytes of a piece (0 to 15, past its 16-byte blocks) are loaded as two words:
  /// every length gives the digest of MurmurHash3's own byte-by-byte tail.
  @Test func everyTailLengthHashesAsTheConstructionReadsIt() {
    let text = Array("0123456789abcdefghijklmnopqrstuvwxyzÄÖÜ-äöü_ß!".utf8)
    let seeds = [RecordDigest(high: 0, low: 0), RecordDigest(context: ["csv"])]
    for seed in seeds {
      for count in 0...text.count {
        let piece = Array(text[..<count])
        let digest = RecordDigest(of: piece, seed: seed)
        let expected = Self.murmur3(piece, seed: seed)
        #expect(digest.high == expected.high && digest.low == expected.low, "\(count) bytes")
      }
    }
  }

  /// MurmurHash3 x64 128, its tail read a byte at a time as the reference does, seeded with
  /// both halves of `seed`.
  static func murmur3(_ bytes: [UInt8], seed: RecordDigest) -> (high: UInt64, low: UInt64) {
    let c1: UInt64 = 0x87c3_7b91_1142_53d5
    let c2: UInt64 = 0x4cf5_ad43_2745_937f
    func rotate(_ value: UInt64, _ by: UInt64) -> UInt64 { value << by | value >> (64 - by) }
    func mix(_ value: UInt64) -> UInt64 {
      var k = value
      k ^= k >> 33
      k &*= 0xff51_afd7_ed55_8ccd
      k ^= k >> 33
      k &*= 0xc4ce_b9fe_1a85_ec53
      return k ^ k >> 33
    }
    func word(_ offset: Int, _ count: Int) -> UInt64 {
      (0..<count).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[offset + $1]) }
    }
    var h1 = seed.high
    var h2 = seed.low
    let blocks = bytes.count / 16
    for block in 0..<blocks {
      let k1 = rotate(word(block * 16, 8) &* c1, 31) &* c2
      h1 = (rotate(h1 ^ k1, 27) &+ h2) &* 5 &+ 0x52dc_e729
      let k2 = rotate(word(block * 16 + 8, 8) &* c2, 33) &* c1
      h2 = (rotate(h2 ^ k2, 31) &+ h1) &* 5 &+ 0x3849_5ab5
    }
    let rest = bytes.count - blocks * 16
    if rest > 8 { h2 ^= rotate(word(blocks * 16 + 8, rest - 8) &* c2, 33) &* c1 }
    if rest > 0 { h1 ^= rotate(word(blocks * 16, min(rest, 8)) &* c1, 31) &* c2 }
    h1 ^= UInt64(bytes.count)
    h2 ^= UInt64(bytes.count)
    h1 &+= h2
    h2 &+= h1
    h1 = mix(h1)
    h2 = mix(h2)
    h1 &+= h2
    h2 &+= h1
    return (h1, h2)
  }
}
