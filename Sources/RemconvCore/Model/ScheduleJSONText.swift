/// The JSON text of a recurrence and of alarms written straight as bytes: what
/// `JSONText.encode(ScheduleJSON.value(…))` writes, without building the value's dictionaries and
/// sorting their keys for every reminder written. Each writer and every import's stored row
/// spell these values; the members stand in the order that encoding sorts them into (the keys
/// are ASCII, so that order is their bytes' order), and `ScheduleJSONTextTests` hold the two
/// spellings equal.
extension ScheduleJSON {
  /// `JSONText.encode(value(recurrence))`.
  public static func text(_ recurrence: Recurrence) -> String {
    var output: [UInt8] = []
    append(recurrence, to: &output)
    return String(decoding: output, as: UTF8.self)
  }

  /// `JSONText.encode(value(alarms))`.
  public static func text(_ alarms: [Alarm]) -> String {
    var output: [UInt8] = []
    append(alarms, to: &output)
    return String(decoding: output, as: UTF8.self)
  }

  /// Appends `JSONText.encode(value(recurrence))`.
  public static func append(_ recurrence: Recurrence, to output: inout [UInt8]) {
    output += #"{"additionalDates":"#.utf8
    append(recurrence.additionalDates, to: &output)
    output += #","basis":"#.utf8
    JSONText.appendString(recurrence.basis.rawValue, to: &output)
    output += #","exceptionDates":"#.utf8
    append(recurrence.exceptionDates, to: &output)
    output += #","rule":"#.utf8
    JSONText.appendString(recurrence.rule, to: &output)
    output.append(UInt8(ascii: "}"))
  }

  /// Appends `JSONText.encode(value(alarms))`.
  public static func append(_ alarms: [Alarm], to output: inout [UInt8]) {
    JSONText.appendArray(alarms, to: &output) { alarm, output in
      output += #"{"action":"#.utf8
      JSONText.appendString(alarm.action, to: &output)
      switch alarm.trigger {
      case .absolute(let instant):
        output += #","at":"#.utf8
        JSONText.appendString(instant.description, to: &output)
      case .relative(let seconds, let anchor):
        output += #","offset":"#.utf8
        output += String(seconds).utf8
        output += #","relatedTo":"#.utf8
        JSONText.appendString(anchor.rawValue, to: &output)
      }
      output += #","text":"#.utf8
      if let text = alarm.text { JSONText.appendString(text, to: &output) } else { output += "null".utf8 }
      output.append(UInt8(ascii: "}"))
    }
  }

  /// A bound on the length of `text(recurrence)` in bytes without writing it: every text at its
  /// longest escaped (six bytes a byte) and room for the names, punctuation and date-times.
  /// What a reader checks an item's size with (`JSONLinesFormat.lineLengthBound`).
  static func lengthBound(_ recurrence: Recurrence) -> Int {
    (recurrence.exceptionDates + recurrence.additionalDates).reduce(128 + textBound(recurrence.rule)) {
      $0 + 64 + textBound($1.timeZoneIdentifier ?? "")
    }
  }

  /// A bound on the length of `text(alarms)` in bytes, as `lengthBound(_:)` of a recurrence.
  static func lengthBound(_ alarms: [Alarm]) -> Int {
    alarms.reduce(2) { $0 + 128 + textBound($1.action) + textBound($1.text ?? "") }
  }

  private static func textBound(_ text: String) -> Int { 6 * text.utf8.count + 2 }

  /// The dates of a recurrence's lists, each `{"date":…}` with `"timeZone"` when zoned.
  private static func append(_ dates: [DueDate], to output: inout [UInt8]) {
    JSONText.appendArray(dates, to: &output) { date, output in
      output += #"{"date":"#.utf8
      JSONText.appendString(date.isoText, to: &output)
      if let zone = date.timeZoneIdentifier {
        output += #","timeZone":"#.utf8
        JSONText.appendString(zone, to: &output)
      }
      output.append(UInt8(ascii: "}"))
    }
  }
}
