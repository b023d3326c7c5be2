import Foundation

/// UIDs: fresh ones for new items, derived ones for sources that carry none.
public enum StableID {
  /// A new random UID in the upper-case UUID form reminders apps use.
  public static func make() -> String { UUID().uuidString }

  /// A UID derived from what identifies an item in a source without UIDs, so that importing
  /// the same file twice finds the same items. `parts` are joined unambiguously before hashing.
  public static func derived(_ parts: [String]) -> String {
    var hasher = SHA256()
    for part in parts {
      hasher.update(Array(String(part.utf8.count).utf8))
      hasher.update([0x3A])
      hasher.update(Array(part.utf8))
    }
    let digest = hasher.finalize()
    let hex = digest.prefix(16).map { byte in
      let text = String(byte, radix: 16, uppercase: true)
      return byte < 16 ? "0" + text : text
    }.joined()
    // Shaped like a UUID so tools that expect one accept it; the version nibble says "name-based".
    let characters = Array(hex)
    func slice(_ range: Range<Int>) -> String { String(characters[range]) }
    return slice(0..<8) + "-" + slice(8..<12) + "-5" + slice(13..<16) + "-" + slice(16..<20) + "-"
      + slice(20..<32)
  }
}

/// Derives UIDs for one source without UIDs, telling apart items that look the same.
///
/// Two identical lines ("Buy milk" twice in one list) are two items: the second gets the
/// occurrence number in its key, so both survive and a re-import still finds each.
public final class DerivedIDGenerator {
  private var occurrences: [String: Int] = [:]

  public init() {}

  public func next(_ parts: [String]) -> String {
    let key = parts.joined(separator: "\u{1F}")
    let count = occurrences[key, default: 0] + 1
    occurrences[key] = count
    return StableID.derived(count == 1 ? parts : parts + ["#\(count)"])
  }
}
