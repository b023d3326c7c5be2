import Foundation
import Testing

@testable import RemconvCore

/// The fast paths at the model boundary and the store's search column give what the slow
/// paths give: the text rule's word-at-a-time scan, the search column's ASCII folding, and the
/// CSV and JSON Lines readers' decoding at once for conversions.
@Suite struct ModelBoundaryTests {
  /// Every C0 byte at every position of texts of 0 to 20 characters, ASCII, two-byte and
  /// four-byte ones (every offset within the scan's eight-byte words): the rule finds exactly
  /// the bytes it removes (not tab, LF, CR).
  @Test func theTextRuleFindsEveryControlCharacterAtEveryPosition() {
    for filler in ["a", "é", "😀", "~\u{7F}"] {
      for length in 0...20 {
        let text = String(repeating: filler, count: length)
        #expect(TextRule.cleaned(text) == nil, "\(text.debugDescription) is clean")
        for position in 0...length {
          for control in UInt8(0)..<0x20 {
            let dirty =
              String(repeating: filler, count: position) + String(UnicodeScalar(control))
              + String(repeating: filler, count: length - position)
            let found = TextRule.cleaned(dirty)
            if control == 0x09 || control == 0x0A || control == 0x0D {
              #expect(found == nil, "\(control) at \(position) of \(length) × \(filler) is kept")
            } else {
              #expect(found == text, "\(control) at \(position) of \(length) × \(filler) is removed")
            }
          }
        }
      }
    }
  }

  /// A reminder or list with nothing to clean is not copied or reported; one with something is.
  @Test func aCleanReminderIsLeftAloneAndADirtyOneCleaned() throws {
    var reminder = Reminder(
      id: "R1", listID: "L1", title: "Buy milk\tnow", notes: "line\r\nnext", tags: ["home"], url: "https://example.com")
    #expect(TextRule.cleaned(reminder) == nil)
    #expect(TextRule.cleaned(ReminderList(id: "L1", name: "Inbox")) == nil)
    reminder.tags.append("a\u{1}b")
    reminder.url = "https://exa\u{0}mple.com"
    let cleaned = try #require(TextRule.cleaned(reminder))
    #expect(cleaned.0.tags == ["home", "ab"] && cleaned.0.url == "https://example.com")
    #expect(cleaned.fields == ["tags", "url"])
  }

  /// ASCII text folds for the search column as Foundation folds it, every byte in every case.
  @Test func asciiFoldsAsFoundationFolds() {
    let foundation = { (text: String) in
      text.precomposedStringWithCanonicalMapping.folding(options: ReminderSearch.options, locale: nil)
    }
    var every = ""
    for byte in UInt8(0)..<0x80 {
      let text = "Ab" + String(UnicodeScalar(byte)) + "zZ"
      #expect(ReminderIndexValues.fold(text) == foundation(text), "byte \(byte)")
      every.unicodeScalars.append(UnicodeScalar(byte))
    }
    #expect(ReminderIndexValues.fold(every) == foundation(every))
    #expect(ReminderIndexValues.fold("already folded") == "already folded")
    #expect(Array(ReminderIndexValues.fold("Café").utf8) == Array(foundation("Café").utf8))
    #expect(Array(ReminderIndexValues.fold("CAFÉ Ｗide").utf8) == Array(foundation("CAFÉ Ｗide").utf8))
  }

  /// A record as read, compared by value (a reminder's `extra` is a dictionary: its description's
  /// order is not its value).
  enum Read: Equatable {
    case list(ReminderList)
    case reminder(Reminder, String)
    case other(String)

    init(_ record: SourceRecord) {
      switch record {
      case .list(let list): self = .list(list)
      case .reminder(let reminder, let location): self = .reminder(reminder, "\(location)")
      default: self = .other("\(record)")
      }
    }
  }

  /// A conversion reads CSV and JSON Lines decoded at once (`next()`); an import reads them raw
  /// and decodes on request: both give the same records and the same diagnostics.
  @Test(arguments: [
    (
      "csv",
      "title,list,notes,due,tags,id,colour\nBuy milk,Home,two\nCall Ann,Work,,2026-03-01,\"a,b\",R2,x\n"
        + ",Empty list\nPay rent,Home,,not a date,,R3\n"
    ),
    (
      "jsonl",
      #"{"list":"Home","title":"Buy milk","notes":"two"}"# + "\n"
        + #"{"list":"Work","listId":"L2","title":"Call Ann","id":"R2","due":"2026-03-01","tags":["a","b"],"x":1}"#
        + "\n" + #"{"list":"Home","title":"Pay rent","id":"R3","due":"not a date","title":"again"}"# + "\n"
    ),
  ])
  func decodingAtOnceReadsAsDecodingOnRequest(format: String, text: String) throws {
    func records(raw: Bool) throws -> (records: [Read], diagnostics: [String]) {
      let diagnostics = DiagnosticLog()
      let source = InputSource.file("tasks." + format)
      let bytes = ByteReader(bytes: Array(text.utf8), name: source.displayName)
      let makeReader = try #require(FormatRegistry.named(format)?.makeReader)
      let reader = try makeReader(ReaderContext(source: source, diagnostics: diagnostics, preopened: bytes))
      var records: [Read] = []
      if raw {
        let rawReader = try #require(reader as? any RawRecordReader)
        while let read = try rawReader.nextRecord() {
          switch read {
          case .record(let record): records.append(Read(record))
          case .raw(let location): records.append(.reminder(try rawReader.decodeRaw().reminder, "\(location)"))
          }
        }
      } else {
        while let record = try reader.next() { records.append(Read(record)) }
      }
      return (records, diagnostics.entries.map { "\($0)" })
    }
    let atOnce = try records(raw: false)
    let onRequest = try records(raw: true)
    #expect(atOnce.records.count >= 5)
    #expect(atOnce.records == onRequest.records)
    #expect(atOnce.diagnostics == onRequest.diagnostics)
  }
}
