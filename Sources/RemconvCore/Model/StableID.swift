import Foundation

/// UIDs: fresh ones for new items, derived ones for sources that carry none.
public enum StableID {
  /// A new random UID in the upper-case UUID form reminders apps use.
  public static func make() -> String { UUID().uuidString }

  /// A UID derived from what identifies an item in a source without UIDs, so that importing
  /// the same file twice finds the same items. `parts` are joined unambiguously before hashing.
  public static func derived(_ parts: [String]) -> String {
    uid(fromDigest: digest(of: parts))
  }

  /// The SHA-256 of `parts`, each prefixed with its length so that no two lists of parts
  /// hash the same text.
  static func digest(of parts: [String]) -> [UInt8] {
    var hasher = SHA256()
    for part in parts {
      hasher.update(Array(String(part.utf8.count).utf8))
      hasher.update([0x3A])
      hasher.update(Array(part.utf8))
    }
    return hasher.finalize()
  }

  /// The first 128 bits of a digest as an upper-case UUID, the version nibble saying
  /// "name-based", so tools that expect a UUID accept it.
  static func uid(fromDigest digest: [UInt8]) -> String {
    let hex = digest.prefix(16).map { byte in
      let text = String(byte, radix: 16, uppercase: true)
      return byte < 16 ? "0" + text : text
    }.joined()
    let characters = Array(hex)
    func slice(_ range: Range<Int>) -> String { String(characters[range]) }
    return slice(0..<8) + "-" + slice(8..<12) + "-5" + slice(13..<16) + "-" + slice(16..<20) + "-"
      + slice(20..<32)
  }
}

/// Derives UIDs for one source without UIDs, telling apart items that look the same.
///
/// Two identical lines ("Buy milk" twice in one list) are two items: the second gets the
/// occurrence number in its key, so both survive and a re-import still finds each. What it
/// remembers of each item is the first 128 bits of the digest its UID is made from: 16 bytes
/// an item however long its title, where keeping the keys themselves grew with the text.
public final class DerivedIDGenerator {
  /// An item's key: the first 128 bits of its SHA-256.
  private struct KeyDigest: Hashable {
    let high: UInt64
    let low: UInt64

    init(_ digest: [UInt8]) {
      high = digest[0..<8].reduce(0) { $0 << 8 | UInt64($1) }
      low = digest[8..<16].reduce(0) { $0 << 8 | UInt64($1) }
    }
  }

  private var seen: Set<KeyDigest> = []
  /// How often each key that came more than once has come.
  private var repeats: [KeyDigest: Int] = [:]

  public init() {}

  public func next(_ parts: [String]) -> String {
    let digest = StableID.digest(of: parts)
    let key = KeyDigest(digest)
    guard seen.insert(key).inserted else {
      let count = repeats[key, default: 1] + 1
      repeats[key] = count
      return StableID.derived(parts + ["#\(count)"])
    }
    return StableID.uid(fromDigest: digest)
  }
}
