/// A 128-bit digest of one source record as read (its bytes, or its fields before they are
/// typed) together with everything else its meaning depends on: the format, the reader's
/// options, the record's surroundings in the file (a CSV header, an iCalendar calendar), the
/// version of remconv.
///
/// The store keeps, with each reminder, the digest of the record it was last imported from
/// when that import wrote it cleanly; a later import that meets a record with the same digest
/// knows the store already holds what decoding and merging it would give, and skips both
/// (`UnchangedRecordSkipper`). 128 bits because a collision would skip a changed record: with a million
/// stored digests the chance that a changed record matches one is about 2^-108.
///
/// The hash is MurmurHash3's x64 128-bit construction (public domain, Austin Appleby): fast on
/// long inputs, well mixed, and not cryptographic, which is fine for a cache of the user's own
/// files. Its output is part of the store's format (digests are compared across runs), so a
/// change to it needs `RecordDigest.version` raised, which makes every stored digest miss once.
public struct RecordDigest: Hashable, Sendable {
  public let high: UInt64
  public let low: UInt64

  /// Part of every digest's context: raise it when the hash or any format's digest input changes.
  static let version = "remconv-record-digest-2"

  public init(high: UInt64, low: UInt64) {
    self.high = high
    self.low = low
  }

  /// The digest of `bytes`, seeded with `seed` (the record's context).
  public init(of bytes: UnsafeRawBufferPointer, seed: RecordDigest) {
    let c1: UInt64 = 0x87c3_7b91_1142_53d5
    let c2: UInt64 = 0x4cf5_ad43_2745_937f
    var h1 = seed.high
    var h2 = seed.low
    let count = bytes.count
    let blocks = count / 16
    for block in 0..<blocks {
      var k1 = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: block * 16, as: UInt64.self))
      var k2 = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: block * 16 + 8, as: UInt64.self))
      k1 &*= c1
      k1 = Self.rotate(k1, 31)
      k1 &*= c2
      h1 ^= k1
      h1 = Self.rotate(h1, 27)
      h1 &+= h2
      h1 = h1 &* 5 &+ 0x52dc_e729
      k2 &*= c2
      k2 = Self.rotate(k2, 33)
      k2 &*= c1
      h2 ^= k2
      h2 = Self.rotate(h2, 31)
      h2 &+= h1
      h2 = h2 &* 5 &+ 0x3849_5ab5
    }
    // The last 0 to 15 bytes, little-endian, as the construction reads them: copied into 16
    // zeroed bytes and loaded as two words (most cells are shorter than a block, so this runs
    // for nearly every piece hashed; a loop of shifts cost a byte each).
    let tail = blocks * 16
    var last: (UInt64, UInt64) = (0, 0)
    withUnsafeMutableBytes(of: &last) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[tail...])) }
    var k1 = UInt64(littleEndian: last.0)
    var k2 = UInt64(littleEndian: last.1)
    if count - tail > 8 {
      k2 &*= c2
      k2 = Self.rotate(k2, 33)
      k2 &*= c1
      h2 ^= k2
    }
    if count > tail {
      k1 &*= c1
      k1 = Self.rotate(k1, 31)
      k1 &*= c2
      h1 ^= k1
    }
    h1 ^= UInt64(count)
    h2 ^= UInt64(count)
    h1 &+= h2
    h2 &+= h1
    h1 = Self.finalMix(h1)
    h2 = Self.finalMix(h2)
    h1 &+= h2
    h2 &+= h1
    high = h1
    low = h2
  }

  public init(of bytes: [UInt8], seed: RecordDigest) {
    self = bytes.withUnsafeBytes { RecordDigest(of: $0, seed: seed) }
  }

  /// The digest of a record's context: the digest version, then `parts` in order.
  public init(context parts: [String]) {
    var digest = RecordDigest(high: 0, low: 0).appending(Self.version)
    for part in parts { digest = digest.appending(part) }
    self = digest
  }

  /// This digest followed by a piece of a record: the digest of `text` seeded with this one.
  /// A record's digest is its pieces chained so; each step mixes in the piece's length, so
  /// pieces cannot run into each other, and chaining needs no buffer to gather them in.
  public func appending(_ text: String) -> RecordDigest {
    let utf8 = text.utf8
    if let digest = utf8.withContiguousStorageIfAvailable({ RecordDigest(of: UnsafeRawBufferPointer($0), seed: self) })
    {
      return digest
    }
    return RecordDigest(of: Array(utf8), seed: self)
  }

  /// This digest followed by a mark (a flag, an absent value), told apart from any text.
  public func appending(marker: UInt64) -> RecordDigest {
    RecordDigest(high: high ^ Self.finalMix(marker &+ 1), low: low &+ 0x9e37_79b9_7f4a_7c15)
  }

  /// The 16 bytes stored, big-endian.
  public var bytes: [UInt8] {
    withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) { Array($0) }
  }

  /// The digest stored as `bytes`; nil for anything but 16 bytes.
  public init?(bytes: [UInt8]) {
    guard bytes.count == 16 else { return nil }
    high = bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) }
    low = bytes[8..<16].reduce(0) { $0 << 8 | UInt64($1) }
  }

  @inline(__always)
  private static func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
    value << count | value >> (64 - count)
  }

  @inline(__always)
  private static func finalMix(_ value: UInt64) -> UInt64 {
    var k = value
    k ^= k >> 33
    k &*= 0xff51_afd7_ed55_8ccd
    k ^= k >> 33
    k &*= 0xc4ce_b9fe_1a85_ec53
    k ^= k >> 33
    return k
  }
}

/// What the merge engine and the import stage (`UnchangedRecordSkipper`) tell each other
/// about record digests: the engine answers whether the store holds a record's reminder
/// unchanged, the stage hands it the digests of the records it decoded cleanly, to be stored
/// with their reminders. Formats never see it.
public final class KnownRecords {
  /// Answers whether a record digest names a reminder this import may leave as it is; set by
  /// the import once its merge engine runs.
  var lookup: ((RecordDigest) throws -> Bool)?
  /// Digests of records decoded cleanly, with the UID of the reminder each gave: the merge
  /// engine takes each as the stage hands it the reminder, so a short list searched from its
  /// end costs less than hashing every UID into a dictionary.
  private var noted: [(uid: String, digest: RecordDigest)] = []
  /// More noted digests than this means the engine is not taking them: the oldest go.
  private static let notedLimit = 64
  /// How many records were skipped.
  public private(set) var skippedCount = 0

  public init() {}

  /// True when the store holds the reminder a record with this digest gives, unchanged since
  /// the import that stored it: the record is not decoded.
  public func holdsUnchanged(_ digest: RecordDigest) throws -> Bool {
    guard let lookup, try lookup(digest) else { return false }
    skippedCount += 1
    return true
  }

  /// Notes the digest of the record that gave the reminder `uid`, decoded cleanly.
  public func note(_ digest: RecordDigest, forUID uid: String) {
    if noted.count >= Self.notedLimit { noted.removeFirst(noted.count / 2) }
    noted.append((uid, digest))
  }

  /// The digest noted last for `uid`, once.
  func take(forUID uid: String) -> RecordDigest? {
    guard let index = noted.lastIndex(where: { $0.uid == uid }) else { return nil }
    return noted.remove(at: index).digest
  }
}
