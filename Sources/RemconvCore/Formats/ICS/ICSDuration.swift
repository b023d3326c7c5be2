/// An RFC 5545 DURATION (§3.3.6) as a number of seconds: what a relative alarm TRIGGER holds.
///
/// A day is read as 86 400 seconds and a week as seven days; an alarm's offset is kept exact
/// rather than nominal (a `-P1D` before a due date across a DST change rings 24 hours before).
enum ICSDuration {
  /// The seconds of a DURATION; nil when the text is not one, or its numbers pass a century.
  static func seconds(_ text: Substring) -> Int? {
    if case .seconds(let value) = scan(text) { value } else { nil }
  }

  /// Whether the text is a DURATION, however large its numbers.
  static func isWellFormed(_ text: Substring) -> Bool {
    if case .malformed = scan(text) { false } else { true }
  }

  private enum Scanned {
    case malformed, tooLarge
    case seconds(Int)
  }

  /// `[+|-]P` then weeks, or days and/or `T` with hours, minutes, seconds in that order, each
  /// `T` followed by at least one.
  private static func scan(_ text: Substring) -> Scanned {
    let sign = text.first == "-" ? -1 : 1
    var rest = text.first == "+" || text.first == "-" ? text.dropFirst() : text
    guard rest.first == "P" else { return .malformed }
    rest = rest.dropFirst()
    var tooLarge = false
    // The number before `designator`, or nil when none is there; a number too large to keep
    // counts as zero and marks the result too large.
    func take(_ designator: Character) -> Int? {
      guard let end = rest.firstIndex(where: { !$0.isASCII || !$0.isNumber }), end != rest.startIndex,
        rest[end] == designator
      else { return nil }
      let number = Int(rest[..<end]).flatMap { $0 <= 3_155_760_000 ? $0 : nil }
      if number == nil { tooLarge = true }
      rest = rest[rest.index(after: end)...]
      return number ?? 0
    }
    var total = 0
    var wellFormed: Bool
    if let weeks = take("W") {
      total = weeks * 604_800
      wellFormed = rest.isEmpty
    } else {
      let days = take("D")
      total = (days ?? 0) * 86_400
      if rest.first == "T" {
        rest = rest.dropFirst()
        var hasTime = false
        for (designator, unit) in [("H", 3600), ("M", 60), ("S", 1)] as [(Character, Int)] {
          if let number = take(designator) {
            total += number * unit
            hasTime = true
          }
        }
        wellFormed = hasTime && rest.isEmpty
      } else {
        wellFormed = days != nil && rest.isEmpty
      }
    }
    guard wellFormed else { return .malformed }
    return tooLarge || total > 3_155_760_000 ? .tooLarge : .seconds(sign * total)
  }

  /// The shortest DURATION for `seconds`: `-PT15M`, `-P1D`, `PT0S`, `-P1DT1H30M`.
  static func text(seconds: Int) -> String {
    var text = seconds < 0 ? "-P" : "P"
    var rest = seconds.magnitude
    if rest == 0 { return "PT0S" }
    if rest % 604_800 == 0 { return text + "\(rest / 604_800)W" }
    if rest >= 86_400 {
      text += "\(rest / 86_400)D"
      rest %= 86_400
    }
    if rest == 0 { return text }
    text += "T"
    if rest >= 3600 { text += "\(rest / 3600)H" }
    if rest % 3600 >= 60 { text += "\(rest % 3600 / 60)M" }
    if rest % 60 > 0 { text += "\(rest % 60)S" }
    return text
  }
}
