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

  /// Whether two names are the same Unicode scalars. Swift's `==` compares canonically
  /// equivalent text as equal (a decomposed `Gro` + U+0308 equals a precomposed `Grö`), which
  /// is right for keys but hides a stored spelling that differs from the normalised one.
  public static func sameScalars(_ left: String, _ right: String) -> Bool {
    left.utf8.elementsEqual(right.utf8)
  }
}
