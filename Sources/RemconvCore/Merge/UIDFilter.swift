/// A set of UIDs that may answer "maybe" for a UID it does not hold, never "no" for one it
/// does (a Bloom filter: two bits of a fixed table per UID, from its 128-bit digest).
///
/// What a merge into an empty repository knows of the UIDs it wrote: a UID the filter does
/// not hold is in no row, so the repository need not be asked for it. A "maybe" costs the
/// look-up it saves elsewhere, so the answer never decides anything alone. The table is fixed
/// (1 MiB): memory stays flat at any size; past some millions of UIDs it answers "maybe" more
/// often, and the merge asks the repository more often.
struct UIDFilter {
  private var words: [UInt64]
  private static let wordCount = 1 << 17
  private static let seed = RecordDigest(context: ["uid-filter"])

  init() {
    words = [UInt64](repeating: 0, count: Self.wordCount)
  }

  mutating func insert(_ uid: String) {
    let (first, second) = Self.bits(of: uid)
    words[first >> 6] |= 1 << UInt64(first & 63)
    words[second >> 6] |= 1 << UInt64(second & 63)
  }

  /// False only for a UID never inserted.
  func mayContain(_ uid: String) -> Bool {
    let (first, second) = Self.bits(of: uid)
    return words[first >> 6] & 1 << UInt64(first & 63) != 0 && words[second >> 6] & 1 << UInt64(second & 63) != 0
  }

  /// The two bits of `uid` in the table.
  private static func bits(of uid: String) -> (Int, Int) {
    var uid = uid
    let digest = uid.withUTF8 { RecordDigest(of: UnsafeRawBufferPointer($0), seed: seed) }
    let mask = UInt64(wordCount * 64 - 1)
    return (Int(digest.high & mask), Int(digest.low & mask))
  }
}

/// The handles of the reminders a merge into an empty repository added last, by UID: a table of
/// fixed size where each UID has one slot (from its digest), a later UID replacing an earlier
/// one in the same slot. It answers only for the UID it holds, compared whole; a UID it lost is
/// looked up in the repository as before. Memory stays flat at any size.
///
/// A subtask's parent most often comes shortly before it in a source: what a first merge asks
/// of each subtask's parent is answered here, without a query.
struct AddedHandles {
  private var slots: [(uid: String, handle: ReminderHandle)?]
  private static let slotCount = 1 << 12
  private static let seed = RecordDigest(context: ["added-handles"])

  init() {
    slots = Array(repeating: nil, count: Self.slotCount)
  }

  mutating func note(_ handle: ReminderHandle, uid: String) {
    slots[Self.slot(of: uid)] = (uid, handle)
  }

  /// The handle noted last under `uid`, unless another UID took its slot since.
  func handle(uid: String) -> ReminderHandle? {
    guard let entry = slots[Self.slot(of: uid)], entry.uid == uid else { return nil }
    return entry.handle
  }

  private static func slot(of uid: String) -> Int {
    var uid = uid
    let digest = uid.withUTF8 { RecordDigest(of: UnsafeRawBufferPointer($0), seed: seed) }
    return Int(digest.low & UInt64(slotCount - 1))
  }
}
