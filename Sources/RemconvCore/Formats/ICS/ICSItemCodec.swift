import Foundation

/// One reminder as a remote calendar item: a VCALENDAR holding its VTODO (and overrides, and
/// the VTIMEZONEs they use), written and read by the `.ics` writer's and reader's own code, so a
/// synced item carries what a vdir export does and what remconv does not model comes back
/// byte for byte (`extra["ical"]`).
public final class ICSItemCodec {
  private let encoder: VTodoEncoder
  private let timezones: VTimezoneSource
  private let diagnostics: DiagnosticLog
  private let options: ReaderOptions

  public init(now: Date, diagnostics: DiagnosticLog, timeZone: TimeZone = .current) {
    encoder = VTodoEncoder(now: now, diagnostics: diagnostics)
    timezones = VTimezoneSource(diagnostics: diagnostics)
    self.diagnostics = diagnostics
    var options = ReaderOptions()
    options.timeZone = timeZone
    self.options = options
  }

  /// The item's bytes for `reminder`.
  public func encode(_ reminder: Reminder) throws(RemconvError) -> [UInt8] {
    let encoded = encoder.encode(reminder)
    var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:" + ICSFormat.productID]
    for tzid in encoded.tzids {
      if let zone = timezones.lines(for: tzid, keptBy: reminder) { lines += zone }
    }
    lines += encoded.lines
    lines.append("END:VCALENDAR")
    let output = ByteWriter()
    var writer = FoldingLineWriter(output: output)
    try writer.write(lines)
    try output.flush()
    return output.memory
  }

  /// The reminder an item holds, in `list`; nil (with the reason) when it holds no VTODO or
  /// one the reader refuses. `name` says where the item is, for warnings. Only the first
  /// reminder counts: a remote item is one UID (RFC 4791 §4.1).
  public func decode(_ bytes: [UInt8], name: String, in list: ReminderList) throws(RemconvError) -> DecodedItem {
    let session = ICSReadSession(
      file: name, diagnostics: diagnostics, options: options, links: ChildLinks(), derivedIDs: DerivedIDGenerator())
    do {
      try ICSPrescan.scan(ByteReader(bytes: bytes, name: name), session: session)
      let reader = ICSReader(
        bytes: ByteReader(bytes: bytes, name: name), session: session, itemList: list,
        derivation: ["sync", list.id, name], fallbackName: list.name, reportsMissingChildren: false)
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

  public enum DecodedItem: Sendable {
    case reminder(Reminder)
    case unreadable(String)
  }
}
