/// Writes a JSON array of VCALENDARs, one per list, each component on its own line: the
/// lines the `.ics` writer writes (`ICSFormat.Lines`), translated by `JCalTranslation`, so a
/// reminder is the same VTODO in both, with the VTIMEZONEs its times need.
final class JCalWriter: ReminderWriter {
  static let inputOrder = WriterInputOrder.groupedByList

  private let output: ByteWriter
  private let source: ICSFormat.Lines
  private var listCount = 0
  private var componentCount = 0

  init(context: WriterContext) throws {
    output = try context.requireStream("jcal")
    source = ICSFormat.Lines(context: context)
    try output.write("[")
  }

  func beginList(_ list: ReminderList) throws {
    try output.write(listCount == 0 ? "\n" : ",\n")
    listCount += 1
    componentCount = 0
    let properties = source.begin(list).dropFirst().map(JCalTranslation.property(of:))
    try output.write("[\"vcalendar\",")
    try output.write(JSONText.encode(.array(properties)))
    try output.write(",[")
  }

  func write(_ reminder: Reminder, in list: ReminderList, depth: Int) throws {
    for component in JCalTranslation.components(of: source.lines(for: reminder)) {
      try output.write(componentCount == 0 ? "\n" : ",\n")
      componentCount += 1
      try output.write(JSONText.encode(component))
    }
  }

  func endList(_ list: ReminderList) throws {
    try output.write(componentCount == 0 ? "]]" : "\n]]")
  }

  func finish() throws {
    try output.write(listCount == 0 ? "]\n" : "\n]\n")
    try output.flush()
  }
}
