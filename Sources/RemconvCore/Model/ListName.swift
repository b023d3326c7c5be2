import Foundation

/// The rule that makes list names unique.
public enum ListName {
  /// The key two names collide on: trimmed, NFC-normalised and case-folded, so `Groceries`,
  /// ` groceries ` and a decomposed `Gröceries` against a precomposed one are the same list.
  public static func key(for name: String) -> String {
    name.trimmingCharacters(in: .whitespacesAndNewlines)
      .precomposedStringWithCanonicalMapping
      .folding(options: [.caseInsensitive], locale: nil)
      .precomposedStringWithCanonicalMapping
  }

  /// The name as stored: trimmed and NFC-normalised, case kept.
  public static func normalized(_ name: String) -> String {
    name.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
  }
}
