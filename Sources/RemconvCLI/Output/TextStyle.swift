/// ANSI styling of terminal output, or none: every method returns its text unchanged when
/// colour is off, so a view renders the same characters either way.
public struct TextStyle: Sendable {
  public let enabled: Bool

  public init(enabled: Bool) { self.enabled = enabled }

  /// Whether to colour: `always` forces it, `never` refuses it; `auto` colours a terminal
  /// unless `NO_COLOR` is set to anything non-empty (no-color.org) or `TERM` is `dumb`.
  static func usesColor(mode: String, isTerminal: Bool, environment: [String: String]) -> Bool {
    switch mode {
    case "always": return true
    case "never": return false
    default:
      if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
      if environment["TERM"] == "dumb" { return false }
      return isTerminal
    }
  }

  public func bold(_ text: String) -> String { wrap(text, "1") }
  public func dim(_ text: String) -> String { wrap(text, "2") }
  public func red(_ text: String) -> String { wrap(text, "31") }
  public func orange(_ text: String) -> String { wrap(text, "38;5;208") }
  public func blue(_ text: String) -> String { wrap(text, "34") }

  /// `text` in a `#RRGGBB` colour (24-bit), unchanged when the colour does not parse.
  public func color(_ text: String, hex: String?) -> String {
    guard enabled, let hex, let rgb = Self.components(of: hex) else { return text }
    return wrap(text, "38;2;\(rgb.0);\(rgb.1);\(rgb.2)")
  }

  private func wrap(_ text: String, _ code: String) -> String {
    guard enabled, !text.isEmpty else { return text }
    return "\u{1B}[\(code)m\(text)\u{1B}[0m"
  }

  private static func components(of hex: String) -> (Int, Int, Int)? {
    let digits = Array(hex.utf8.dropFirst())
    guard hex.hasPrefix("#"), digits.count == 6, let value = Int(String(decoding: digits, as: UTF8.self), radix: 16)
    else { return nil }
    return (value >> 16, (value >> 8) & 0xFF, value & 0xFF)
  }
}

/// Text as a terminal shows it: how many columns it takes, and a form safe to print.
enum TerminalText {
  /// Replaces what would move the cursor or start an escape sequence: line breaks and tabs
  /// become spaces, other control characters U+FFFD. A title holding `ESC[2J` must not clear
  /// the user's screen, and one holding a newline must not break the columns.
  static func printable(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isUnprintable) else { return text }
    var result = ""
    result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x09, 0x0A, 0x0D: result.unicodeScalars.append(" ")
      case _ where isUnprintable(scalar): result.unicodeScalars.append("\u{FFFD}")
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// C0 and C1 controls, DEL, and the Unicode line and paragraph separators.
  /// `text` with each control character but line breaks and tabs written as its escape
  /// (`\u{1B}`): a diagnostic keeps its lines and shows what it quotes.
  static func escapingControls(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { isUnprintable($0) && !"\n\r\t".unicodeScalars.contains($0) })
    else { return text }
    var result = ""
    for scalar in text.unicodeScalars {
      if isUnprintable(scalar), !"\n\r\t".unicodeScalars.contains(scalar) {
        result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  private static func isUnprintable(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00..<0x20, 0x7F..<0xA0, 0x2028, 0x2029: true
    default: false
    }
  }

  /// `text` as `printable` makes it, with its `width`.
  static func measured(_ text: String) -> (text: String, width: Int) {
    if let width = simpleWidth(text) { return (text, width) }
    let printable = printable(text)
    return (printable, width(printable))
  }

  /// The width of a text of printable ASCII and Latin letters and signs (U+00A0 to U+02FF but
  /// the soft hyphen), which `printable` leaves as it is: one column a scalar, as none of them
  /// is wide, a mark or a control, nor joins a grapheme cluster with another of them. Other text
  /// is measured by `standaloneScalarsWidth`; nil when that cannot tell either.
  private static func simpleWidth(_ text: String) -> Int? {
    var text = text
    let width = text.withUTF8 { bytes -> Int? in
      var width = 0
      var index = 0
      while index < bytes.count {
        switch bytes[index] {
        case 0x20..<0x7F: index += 1
        case 0xC2:
          // U+0080 to U+00BF: the C1 controls and the soft hyphen are not simple.
          guard index + 1 < bytes.count, bytes[index + 1] >= 0xA0, bytes[index + 1] != 0xAD else { return nil }
          index += 2
        case 0xC3...0xCB:
          // U+00C0 to U+02FF.
          index += 2
        default: return nil
        }
        width += 1
      }
      return width
    }
    return width ?? standaloneScalarsWidth(text)
  }

  /// The width of a text each of whose scalars is a grapheme cluster of its own with a known
  /// width: those of `simpleWidth`, Greek and Cyrillic letters (one column), and the scalars
  /// `width(of:)` finds wide (East Asian wide letters, emoji shown as emoji: two columns) that
  /// neither extend a cluster nor start one with what follows (marks, emoji modifiers, regional
  /// indicators, conjoining Hangul jamo). A title in Japanese or with an emoji is measured
  /// without breaking it into `Character`s. Nil for any other text; `TerminalTextTests` checks
  /// the result against `clusterWidth` for every scalar this accepts, alone and after others.
  static func standaloneScalarsWidth(_ text: String) -> Int? {
    var width = 0
    for scalar in text.unicodeScalars {
      let value = scalar.value
      switch value {
      case 0x20..<0x7F, 0xA0...0x2FF:
        guard value != 0xAD else { return nil }
        width += 1
      case 0x370...0x3FF, 0x400...0x52F:
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .otherLetter: width += 1
        default: return nil
        }
      case 0x1100...0x115F, 0x1F1E6...0x1F1FF, 0x1F3FB...0x1F3FF:
        return nil
      default:
        let properties = scalar.properties
        guard isWide(value) || properties.isEmojiPresentation, !properties.isGraphemeExtend else { return nil }
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return nil
        default: width += 2
        }
      }
    }
    return width
  }

  /// The columns `text` takes on a terminal: 2 for wide (East Asian, emoji) characters, 0 for
  /// combining marks, 1 otherwise, counted per grapheme cluster.
  static func width(_ text: String) -> Int {
    // Printable ASCII and Latin letters, by far the most common, are one column a scalar.
    simpleWidth(text) ?? clusterWidth(text)
  }

  /// The width of `text` counted per grapheme cluster, the definition `width` keeps to.
  static func clusterWidth(_ text: String) -> Int {
    var total = 0
    for character in text {
      total += character.isASCII ? 1 : width(of: character)
    }
    return total
  }

  private static func width(of character: Character) -> Int {
    var visible = false
    for scalar in character.unicodeScalars {
      let properties = scalar.properties
      if properties.isEmojiPresentation || isWide(scalar.value) { return 2 }
      switch properties.generalCategory {
      case .nonspacingMark, .enclosingMark, .format, .control: continue
      default: visible = true
      }
    }
    // An emoji sequence made of text-presentation scalars plus U+FE0F shows as wide.
    if character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
    return visible ? 1 : 0
  }

  /// East Asian Wide and Fullwidth ranges (Unicode's EastAsianWidth.txt, W and F).
  private static func isWide(_ value: UInt32) -> Bool {
    switch value {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
      0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
      0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
      return true
    default:
      return false
    }
  }

  /// `text` followed by spaces up to `columns` display columns.
  static func padded(_ text: String, to columns: Int) -> String {
    let missing = columns - width(text)
    return missing > 0 ? text + String(repeating: " ", count: missing) : text
  }
}
