/// `--format json`: remconv's own document, lists holding their reminders.
///
/// ```json
/// {"format":"remconv","version":1,"lists":[{"id":…,"name":…,"reminders":[{…}]}]}
/// ```
/// The reader streams: it holds one reminder at a time, unless a list object puts its
/// `reminders` before its `name` (then that list's reminders wait for it, up to
/// `Reader.maximumWaitingReminders`). Other members after `reminders` (a producer that sorts
/// keys puts `symbol` there) update the list once it closes, so a re-import of such a file
/// reports the list as updated; an `id` there is refused, since its reminders went out under
/// the id derived from the name.
public enum RemconvJSONFormat {
  public static let formatName = "remconv"
  public static let version = 1

  public static let descriptor = FormatDescriptor(
    name: "json", summary: "remconv's JSON document (lists with their reminders)", extensions: ["json"],
    isDirectory: false,
    makeReader: { context in try Reader(context: context) },
    makeWriter: { context in try Writer(context: context) },
    sniff: { head in
      let text = String(decoding: head, as: UTF8.self)
      return text.drop { $0.isWhitespace }.hasPrefix("{") && text.contains("\"remconv\"")
    })

  final class Reader: RawRecordReader {
    /// How many reminders of one list may wait for the list's `name` (they are held in memory).
    static let maximumWaitingReminders = 100_000

    private let context: ReaderContext
    private let parser: JSONParser
    private let derivedIDs = DerivedIDGenerator()
    private var pending: [SourceRecord] = []

    /// Where the parser stands in the document.
    private enum State {
      case start
      /// Inside `"lists": [`, before a list object or `]`.
      case lists(first: Bool)
      /// Inside a list object, before a member or `}`.
      case listMembers(first: Bool)
      /// Inside a list's `"reminders": [`, before a reminder or `]`.
      case reminders(first: Bool)
      case done
    }
    private var state = State.start
    private var listMembers: [String: JSONValue] = [:]
    /// The earlier values of the list's members whose name came twice, kept in its extra.
    private var listDuplicates: [JSONDuplicateKey] = []
    private var listLocation = SourceLocation(file: "")
    private var currentList: ReminderList?
    /// The members `currentList` was decoded from, and the warnings that decoding gave.
    private var emittedMembers: [String: JSONValue] = [:]
    /// How many of `listDuplicates` the emitted list carries.
    private var emittedDuplicateCount = 0
    private var emittedDiagnostics: Set<Diagnostic> = []
    /// Reminders met before their list's `id` and `name` (only when a producer orders keys so).
    private var waiting: [([String: JSONValue], [JSONDuplicateKey], SourceLocation)] = []
    /// What the digest of a reminder of `currentList` depends on besides its bytes.
    private var digestContext: RecordDigest?
    /// The raw reminder's bytes, and the UID of its list.
    private var raw = (value: JSONParser.CapturedValue(bytes: [], location: SourceLocation(file: "")), listID: "")

    init(context: ReaderContext) throws {
      self.context = context
      parser = JSONParser(reader: try context.openByteReader())
    }

    func nextRecord() throws -> ReadRecord? {
      while true {
        if !pending.isEmpty { return .record(pending.removeFirst()) }
        switch state {
        case .start:
          try readHeader()
        case .lists(let first):
          if try parser.consume(UInt8(ascii: "]")) {
            try finishDocument()
            continue
          }
          if !first { try parser.expect(UInt8(ascii: ","), "',' or ']' after a list") }
          _ = try parser.peekToken()
          listLocation = parser.location
          try parser.expect(UInt8(ascii: "{"), "a list object")
          listMembers = [:]
          listDuplicates = []
          currentList = nil
          digestContext = nil
          emittedMembers = [:]
          emittedDuplicateCount = 0
          emittedDiagnostics = []
          waiting = []
          state = .listMembers(first: true)
        case .listMembers(let first):
          if try parser.consume(UInt8(ascii: "}")) {
            if currentList != nil, listMembers != emittedMembers || listDuplicates.count != emittedDuplicateCount {
              try emitLateMembers()
            }
            let list = emitListIfNeeded()
            for (object, duplicates, location) in waiting {
              pending.append(.reminder(decode(object, duplicates, listID: list.id, location), location))
            }
            waiting = []
            state = .lists(first: false)
            continue
          }
          if !first { try parser.expect(UInt8(ascii: ","), "',' or '}' in a list") }
          _ = try parser.peekToken()
          let keyLocation = parser.location
          let key = try parser.parseString()
          try parser.expect(UInt8(ascii: ":"), "':'")
          if key == "reminders" {
            // A second `reminders` array is read like the first: its reminders join the list.
            if listMembers["name"] != nil { _ = emitListIfNeeded() }
            try parser.expect(UInt8(ascii: "["), "an array of reminders")
            state = .reminders(first: true)
          } else {
            let pointer = JSONDuplicateKey.pointer("", appending: key)
            var found: [JSONDuplicateKey] = []
            let value = try parser.parse(parser.captureValue(depth: 2), duplicates: &found, under: pointer)
            if let dropped = listMembers.updateValue(value, forKey: key) {
              found.append(JSONDuplicateKey(pointer: pointer, key: key, dropped: dropped, location: keyLocation))
            }
            for duplicate in found {
              duplicate.report(
                to: context.diagnostics, uid: listMembers["id"]?.stringValue, keptIn: "the list's extra.duplicateKeys")
            }
            listDuplicates += found
            state = .listMembers(first: false)
          }
        case .reminders(let first):
          if try parser.consume(UInt8(ascii: "]")) {
            state = .listMembers(first: false)
            continue
          }
          if !first { try parser.expect(UInt8(ascii: ","), "',' or ']' after a reminder") }
          state = .reminders(first: false)
          _ = try parser.peekToken()
          let location = parser.location
          let captured = try parser.captureValue(depth: 3)
          if let list = currentList {
            raw = (captured, list.id)
            return .raw(location)
          }
          let (object, duplicates) = try parseReminder(captured)
          guard waiting.count < Self.maximumWaitingReminders else {
            throw RemconvError.invalidInput(
              "more than \(Self.maximumWaitingReminders) reminders before their list's \"name\": the limit of what waits for it (put \"id\" and \"name\" before \"reminders\")",
              at: listLocation)
          }
          waiting.append((object, duplicates, location))
        case .done:
          return nil
        }
      }
    }

    func digestOfRaw() -> RecordDigest {
      let seed = digestContext ?? context.recordDigestContext(format: "json", [raw.listID])
      digestContext = seed
      return RecordDigest(of: raw.value.bytes, seed: seed)
    }

    func decodeRaw() throws -> DecodedReminder {
      let (object, duplicates) = try parseReminder(raw.value)
      return (decode(object, duplicates, listID: raw.listID, raw.value.location), object["id"]?.stringValue, true)
    }

    /// Nothing to let go of: the next reminder replaces the raw one.
    func passOverRaw() {}

    private func parseReminder(_ captured: JSONParser.CapturedValue) throws -> (
      [String: JSONValue], [JSONDuplicateKey]
    ) {
      var duplicates: [JSONDuplicateKey] = []
      guard case .object(let object) = try parser.parse(captured, duplicates: &duplicates) else {
        throw RemconvError.malformedInput("a reminder must be a JSON object", at: captured.location)
      }
      return (object, duplicates)
    }

    /// Queues the current list once and returns it.
    private func emitListIfNeeded() -> ReminderList {
      if let currentList { return currentList }
      let list = decodeList()
      currentList = list
      emittedMembers = listMembers
      emittedDuplicateCount = listDuplicates.count
      pending.append(.list(list))
      return list
    }

    /// Queues the list again with the members that came after its reminders.
    private func emitLateMembers() throws {
      if emittedMembers["id"] == nil, listMembers["id"] != nil {
        throw RemconvError.malformedInput(
          "a list's \"id\" must come before its \"reminders\" (they were read under the list's name)", at: listLocation)
      }
      let list = decodeList()
      emittedMembers = listMembers
      emittedDuplicateCount = listDuplicates.count
      if list != currentList {
        currentList = list
        pending.append(.list(list))
      }
    }

    /// Decodes the list's members, reporting each warning once however often it is decoded.
    private func decodeList() -> ReminderList {
      let scratch = DiagnosticLog()
      var list = ReminderJSON.decodeList(
        listMembers, fallbackName: context.source.baseName ?? "Reminders", at: listLocation, diagnostics: scratch)
      JSONDuplicateKey.keep(listDuplicates, in: &list.extra)
      for diagnostic in scratch.entries where emittedDiagnostics.insert(diagnostic).inserted {
        context.diagnostics.report(diagnostic)
      }
      return list
    }

    /// Reads `{` and the members before `lists`, leaving the parser inside the lists array.
    private func readHeader() throws {
      try parser.skipByteOrderMark()
      if try parser.peekToken() == nil { throw parser.error("the input is empty") }
      try parser.expect(UInt8(ascii: "{"), "a JSON object")
      var sawFormat = false
      var first = true
      while true {
        if try parser.consume(UInt8(ascii: "}")) {
          if !sawFormat { throw parser.error("not a remconv document (no \"format\": \"remconv\")") }
          try expectEnd()
          state = .done
          return
        }
        if !first { try parser.expect(UInt8(ascii: ","), "',' or '}'") }
        first = false
        let key = try parser.parseString()
        try parser.expect(UInt8(ascii: ":"), "':'")
        switch key {
        case "format":
          let value = try parser.parseValue()
          guard value.stringValue == formatName else {
            throw parser.error("\"format\" is \(JSONText.encode(value)), not \"remconv\"")
          }
          sawFormat = true
        case "version":
          let value = try parser.parseValue()
          // A whole number from 1 up; beyond this one, however large, it is a later version.
          guard case .number(let text) = value, let number = Double(text), number.isFinite, number >= 1,
            number == number.rounded()
          else {
            throw parser.error("\"version\" is \(JSONText.encode(value)), not a version number (\(version) or later)")
          }
          guard number == Double(version) else {
            throw parser.error("version \(text) is newer than this remconv reads (\(version))")
          }
        case "lists":
          guard sawFormat else { throw parser.error("\"format\": \"remconv\" must come before \"lists\"") }
          try parser.expect(UInt8(ascii: "["), "an array of lists")
          state = .lists(first: true)
          return
        default:
          _ = try parser.parseValue()
        }
      }
    }

    /// After the lists array: any further members, then `}` and the end of input. A second
    /// `lists` is read like the first (the last-wins rule would drop every list of the first).
    private func finishDocument() throws {
      while try parser.consume(UInt8(ascii: ",")) {
        _ = try parser.peekToken()
        let location = parser.location
        let key = try parser.parseString()
        try parser.expect(UInt8(ascii: ":"), "':'")
        if key == "lists" {
          context.diagnostics.warning(
            "duplicate-key", "the member \"lists\" comes twice in the document: the lists of both are read",
            at: location)
          try parser.expect(UInt8(ascii: "["), "an array of lists")
          state = .lists(first: true)
          return
        }
        _ = try parser.parseValue()
      }
      try parser.expect(UInt8(ascii: "}"), "'}' at the end of the document")
      try expectEnd()
      state = .done
    }

    private func expectEnd() throws {
      if try parser.peekToken() != nil { throw parser.error("unexpected text after the document") }
    }

    /// Decodes a reminder; the earlier values of its repeated names are reported (after the
    /// caller noted the warning count: such a record is never skipped as unchanged) and kept.
    private func decode(
      _ object: [String: JSONValue], _ duplicates: [JSONDuplicateKey], listID: String, _ location: SourceLocation
    ) -> Reminder {
      ReminderJSON.decodeReminder(
        object, listID: listID, at: location, diagnostics: context.diagnostics, derivedIDs: derivedIDs,
        duplicates: duplicates)
    }
  }

  final class Writer: ReminderWriter {
    static let inputOrder = WriterInputOrder.groupedByList
    private let output: ByteWriter
    private var listCount = 0
    private var reminderCountInList = 0

    init(context: WriterContext) throws {
      output = try context.requireStream("json")
      try output.write("{\n  \"format\": \"\(formatName)\",\n  \"version\": \(version),\n  \"lists\": [")
    }

    func beginList(_ list: ReminderList) throws {
      try output.write(listCount == 0 ? "\n    {\n" : ",\n    {\n")
      listCount += 1
      reminderCountInList = 0
      for (key, value) in ReminderJSON.listMembers(list) {
        try output.write("      \(JSONText.quoted(key)): \(value),\n")
      }
      try output.write("      \"reminders\": [")
    }

    func write(_ reminder: Reminder, in list: ReminderList, depth: Int) throws {
      try output.write(reminderCountInList == 0 ? "\n        " : ",\n        ")
      reminderCountInList += 1
      var object: [UInt8] = [UInt8(ascii: "{")]
      ReminderJSON.appendMembers(of: reminder, to: &object)
      object.append(UInt8(ascii: "}"))
      try output.write(bytes: object)
    }

    func endList(_ list: ReminderList) throws {
      try output.write(reminderCountInList == 0 ? "]\n    }" : "\n      ]\n    }")
    }

    func finish() throws {
      try output.write(listCount == 0 ? "]\n}\n" : "\n  ]\n}\n")
      try output.flush()
    }
  }
}
