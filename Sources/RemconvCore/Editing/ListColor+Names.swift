import Foundation

extension ListColor {
  /// Apple's system colours (light appearance), by the names a person would type.
  public static let named: [(name: String, hex: String)] = [
    ("red", "#FF3B30"), ("orange", "#FF9500"), ("yellow", "#FFCC00"), ("green", "#34C759"),
    ("mint", "#00C7BE"), ("teal", "#30B0C7"), ("cyan", "#32ADE6"), ("blue", "#007AFF"),
    ("indigo", "#5856D6"), ("purple", "#AF52DE"), ("pink", "#FF2D55"), ("brown", "#A2845E"),
    ("gray", "#8E8E93"),
  ]

  /// A colour as typed on the command line: `#RGB`, `#RRGGBB` or a name from `named`
  /// (any case), as `#RRGGBB`; nil for anything else.
  public static func parse(_ text: String) -> String? {
    let lowered = text.trimmingCharacters(in: .whitespaces).lowercased()
    if let known = named.first(where: { $0.name == lowered }) { return known.hex }
    return normalized(text)
  }
}
