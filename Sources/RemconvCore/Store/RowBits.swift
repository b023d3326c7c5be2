/// A set of row ids as one bit each: SQLite gives rows ascending ids from 1, so a million rows
/// take 125 KB where a `Set<Int64>` takes about 10 MB (the merge engine's rows met, the cycle
/// search's rows explored). Ids beyond what a bitset should hold (a store whose ids were set
/// by hand) go to a plain set.
struct RowBits {
  private static let bitLimit: Int64 = 1 << 26
  private var words: [UInt64] = []
  private var others = Set<Int64>()

  func contains(_ row: Int64) -> Bool {
    guard row >= 0, row < Self.bitLimit else { return others.contains(row) }
    let word = Int(row >> 6)
    return word < words.count && words[word] & (1 << UInt64(row & 63)) != 0
  }

  mutating func insert(_ row: Int64) {
    guard row >= 0, row < Self.bitLimit else {
      others.insert(row)
      return
    }
    let word = Int(row >> 6)
    if word >= words.count {
      words.append(contentsOf: repeatElement(0, count: max(word + 1 - words.count, words.count)))
    }
    words[word] |= 1 << UInt64(row & 63)
  }

  /// Every row in the set, ascending.
  var sorted: [Int64] {
    var rows: [Int64] = []
    for (index, bits) in words.enumerated() where bits != 0 {
      for bit in 0..<64 where bits & (1 << UInt64(bit)) != 0 { rows.append(Int64(index * 64 + bit)) }
    }
    return others.isEmpty ? rows : (rows + others).sorted()
  }
}
