import Foundation

/// One reminder as a remote calendar item: a VCALENDAR holding its VTODO (and overrides, and
/// the VTIMEZONEs they use), written and read by the `.ics` writer's and reader's own code, so a
/// synced item carries what a vdir export does and what remconv does not model comes back
/// byte for byte (`extra["ical"]`). What is read crosses the model boundary
/// (`ModelBoundaryReader`: item limits, the text rule) as an import's records do.
public final class ICSItemCodec {
  private let encoder: VTodoEncoder
  private let timezones: VTimezoneSource
  private let diagnostics: DiagnosticLog
  private let options: ReaderOptions

  /// `reportsFractions: false` leaves the fractions of a second that iCalendar cuts to the
  /// caller (a sync counts them once, `VTodoEncoder.fractionalInstants`).
  public init(now: Date, diagnostics: DiagnosticLog, timeZone: TimeZone = .current, reportsFractions: Bool = true) {
    encoder = VTodoEncoder(now: now, diagnostics: diagnostics, reportsFractions: reportsFractions)
    timezones = VTimezoneSource(diagnostics: diagnostics)
    self.diagnostics = diagnostics
    var options = ReaderOptions()
    options.timeZone = timeZone
    self.options = options
  }

  /// The item's bytes for `reminder`.
  public func encode(_ reminder: Reminder) throws(RemconvError) -> [UInt8] {
    let output = ByteWriter()
    var writer = FoldingLineWriter(output: output)
    try writer.write(Self.itemLines(reminder, encoder: encoder, timezones: timezones))
    try output.flush()
    return output.memory
  }

  /// The reminder an item holds, in `list`; nil (with the reason) when it holds no VTODO or
  /// one the reader refuses. `name` says where the item is, for warnings. Only the first
  /// reminder counts: a remote item is one UID (RFC 4791 §4.1). The `RELTYPE=CHILD` links the
  /// item states are added to `links` (a caller decoding many items gives each the same, and
  /// gives an item that names no parent of its own the one a parent names it the child of).
  public func decode(_ bytes: [UInt8], name: String, in list: ReminderList) throws(RemconvError) -> DecodedItem {
    try decode(bytes, name: name, in: list, links: ChildLinks())
  }

  func decode(_ bytes: [UInt8], name: String, in list: ReminderList, links: ChildLinks) throws(RemconvError)
    -> DecodedItem
  {
    let session = ICSReadSession(
      file: name, diagnostics: diagnostics, options: options, links: links, derivedIDs: DerivedIDGenerator())
    do {
      try ICSPrescan.scan(ByteReader(bytes: bytes, name: name), session: session)
      // Through the model boundary, as every import: the item limits, then the text rule.
      let reader = ModelBoundaryReader(
        ICSReader(
          bytes: ByteReader(bytes: bytes, name: name), session: session, itemList: list,
          derivation: ["sync", list.id, name], fallbackName: list.name, reportsMissingChildren: false),
        source: .file(name), limit: InputLimits.maximumItemCount, diagnostics: diagnostics)
      while let record = try reader.next() {
        switch record {
        case .reminder(let reminder, _): return .reminder(reminder)
        case .rejected(let reason, _, _): return .unreadable(reason)
        case .list, .skipped, .unchanged: continue
        }
      }
      return .unreadable("it holds no VTODO")
    } catch let error as RemconvError {
      return .unreadable(error.description)
    } catch {
      throw .ioFailure("\(name): \(error)")
    }
  }

  /// The unfolded lines of one item: a VCALENDAR holding the reminder's VTODO (and its
  /// overrides) after the VTIMEZONEs they use. A vdir export writes the same lines.
  static func itemLines(_ reminder: Reminder, encoder: VTodoEncoder, timezones: VTimezoneSource) -> [String] {
    let encoded = encoder.encode(reminder)
    var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:" + ICSFormat.productID]
    for tzid in encoded.tzids {
      if let zone = timezones.lines(for: tzid, keptBy: reminder) { lines += zone }
    }
    lines += encoded.lines
    lines.append("END:VCALENDAR")
    return lines
  }

  public enum DecodedItem: Sendable {
    case reminder(Reminder)
    case unreadable(String)
  }
}
