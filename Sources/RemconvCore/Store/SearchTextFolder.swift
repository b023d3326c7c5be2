import Foundation

/// Folds text as the search column holds it: exactly Foundation's folding of the text's NFC
/// form (`SearchTextFolder.foundationFold`), but asked of Foundation once per distinct piece of
/// text and copied from then on.
///
/// Why a text's fold is the fold of its pieces: Foundation composes the text (NFC), then folds
/// it cluster by cluster, a cluster being a character and the marks after it. Neither step
/// looks back past a scalar that starts a cluster and composes with nothing before it (a
/// *boundary*: combining class 0, not a mark, a grapheme extender or an emoji modifier, not a
/// Hangul vowel or final jamo). So the text is cut before each boundary, and each piece (most
/// are one scalar) is folded by Foundation the first time it is met. `SearchTextFolderTests`
/// checks the boundary rule against Foundation for every assigned scalar after characters of
/// many scripts, and the whole fold against Foundation on random texts.
///
/// Foundation's fold costs some 30,000 instructions for a short title (a bridge to `NSString`
/// and two passes over it); a piece met before costs a table lookup and a copy.
final class SearchTextFolder {
  /// Foundation's fold of `text`, the definition the folder reproduces.
  static func foundationFold(_ text: String) -> String {
    text.precomposedStringWithCanonicalMapping.folding(options: ReminderSearch.options, locale: nil)
  }

  /// Whether a piece may start at `scalar`: what comes before it neither composes with it (NFC)
  /// nor takes it into its cluster (Foundation's folding).
  static func startsPiece(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.isASCII { return true }
    let properties = scalar.properties
    guard properties.canonicalCombiningClass == .notReordered, !properties.isGraphemeExtend,
      !properties.isEmojiModifier
    else { return false }
    switch properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark: return false
    default: break
    }
    // Hangul vowel and final jamo compose with the syllable or jamo before them.
    return !(0x1160...0x11FF).contains(scalar.value) && !(0xD7B0...0xD7FF).contains(scalar.value)
  }

  /// A scalar's entry: 0 until met; then `known`, `startsPiece`, and either `foldsToItself` or
  /// its fold's UTF-8 at `offset` (bits 32 to 63) in `arena`, `length` bytes (bits 8 to 15).
  private typealias Entry = UInt64
  private static let known: Entry = 1
  private static let startsPieceBit: Entry = 2
  private static let foldsToItself: Entry = 4

  /// Entries of every scalar, 256 to a page, a page allocated when one of its scalars is met.
  private let pages: UnsafeMutablePointer<UnsafeMutablePointer<Entry>?>
  private static let pageCount = 0x110000 >> 8
  /// The folds of scalars and pieces, one after another.
  private var arena: UnsafeMutablePointer<UInt8>
  private var arenaCount = 0
  private var arenaCapacity = 4096
  /// The folds of pieces of more than one scalar and at most 16 bytes (a letter and its marks,
  /// an emoji and its variation selector): an open-addressed table of `PieceSlot`s (a
  /// dictionary's hashing and access checks cost more than the fold it finds), allocated with
  /// the first such piece.
  private var pieceSlots: UnsafeMutablePointer<PieceSlot>?
  private var pieceCount = 0
  private static let pieceSlotCount = 1 << 16
  /// Beyond this many pieces (half the slots), a new piece is folded without being kept:
  /// memory stays bounded and probes short.
  private static let pieceLimit = pieceSlotCount / 2
  /// The fold being written.
  private var output: UnsafeMutablePointer<UInt8>
  private var outputCount = 0
  private var outputCapacity = 1024

  init() {
    pages = .allocate(capacity: Self.pageCount)
    pages.initialize(repeating: nil, count: Self.pageCount)
    arena = .allocate(capacity: arenaCapacity)
    output = .allocate(capacity: outputCapacity)
  }

  deinit {
    for page in 0..<Self.pageCount { pages[page]?.deallocate() }
    pages.deallocate()
    pieceSlots?.deallocate()
    arena.deallocate()
    output.deallocate()
  }

  /// `text` folded.
  func fold(_ text: String) -> String {
    var text = text
    // ASCII text without capitals folds to itself: no copy.
    let unchanged = text.withUTF8 { bytes in
      !bytes.contains { $0 >= 0x80 || $0 &- UInt8(ascii: "A") < 26 }
    }
    if unchanged { return text }
    outputCount = 0
    append(text)
    return madeString()
  }

  /// The folds of `first` and `second`, `separator` between them.
  func fold(_ first: String, _ second: String, separatedBy separator: UInt8) -> String {
    outputCount = 0
    append(first)
    appendOutput(separator)
    append(second)
    return madeString()
  }

  /// Appends the folds of `first` and `second`, `separator` between them, to `bytes`: the
  /// UTF-8 of `fold(_:_:separatedBy:)`, without making a `String` of it.
  func appendFold(_ first: String, _ second: String, separatedBy separator: UInt8, to bytes: inout [UInt8]) {
    outputCount = 0
    append(first)
    appendOutput(separator)
    append(second)
    bytes.append(contentsOf: UnsafeBufferPointer(start: output, count: outputCount))
  }

  private func madeString() -> String {
    String(decoding: UnsafeBufferPointer(start: output, count: outputCount), as: UTF8.self)
  }

  private func append(_ text: String) {
    var text = text
    text.withUTF8 { append(utf8: $0) }
  }

  /// Appends the fold of valid UTF-8: each piece (a boundary scalar and the scalars after it
  /// that are not) folded from the tables.
  ///
  /// Most pieces of most scripts fold to themselves (lower-case letters, CJK, Hebrew, digits,
  /// spaces): those are not copied one by one but left in a run (`runStart` up to the piece
  /// being read) that is copied at once when a piece with another fold ends it, or the text
  /// ends. A piece is appended one at a time only when its fold differs.
  private func append(utf8 bytes: UnsafeBufferPointer<UInt8>) {
    var runStart = 0
    var pieceStart = 0
    var pieceEntry: Entry = 0
    var pieceIsOneScalar = false
    // The piece is one scalar that folds to itself: it joins the run when it ends.
    var pieceIsVerbatim = false
    var index = 0
    while index < bytes.count {
      let lead = bytes[index]
      let scalarStart = index
      if lead < 0x80 {
        if !pieceIsVerbatim {
          endPiece(bytes, pieceStart..<scalarStart, entry: pieceEntry, isOneScalar: pieceIsOneScalar, run: &runStart)
        }
        // A run of ASCII: each byte but the last is a piece of its own (ASCII starts pieces);
        // capitals are lowered, the rest joins the run. The last waits for what follows it,
        // which may be a mark.
        while index + 1 < bytes.count, bytes[index + 1] < 0x80 {
          let byte = bytes[index]
          if byte &- UInt8(ascii: "A") < 26 {
            appendOutput(UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            appendOutput(byte | 0x20)
            runStart = index + 1
          }
          index += 1
        }
        // The entry of an ASCII piece is 0.
        pieceStart = index
        pieceEntry = 0
        pieceIsOneScalar = true
        pieceIsVerbatim = bytes[index] &- UInt8(ascii: "A") >= 26
        index += 1
        continue
      }
      let value: UInt32
      if lead < 0xE0 {
        value = UInt32(lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
        index += 2
      } else if lead < 0xF0 {
        value = UInt32(lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
        index += 3
      } else {
        value =
          UInt32(lead & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12 | UInt32(bytes[index + 2] & 0x3F) << 6
          | UInt32(bytes[index + 3] & 0x3F)
        index += 4
      }
      let entry = self.entry(value)
      if entry & Self.startsPieceBit != 0 {
        if !pieceIsVerbatim {
          endPiece(bytes, pieceStart..<scalarStart, entry: pieceEntry, isOneScalar: pieceIsOneScalar, run: &runStart)
        }
        pieceStart = scalarStart
        pieceEntry = entry
        pieceIsOneScalar = true
        pieceIsVerbatim = entry & Self.foldsToItself != 0
      } else {
        pieceIsOneScalar = false
        pieceIsVerbatim = false
      }
    }
    if !pieceIsVerbatim {
      endPiece(bytes, pieceStart..<bytes.count, entry: pieceEntry, isOneScalar: pieceIsOneScalar, run: &runStart)
    }
    appendOutput(UnsafeBufferPointer(rebasing: bytes[runStart...]))
  }

  /// Ends the piece `range`, which does not fold to itself: the run that starts at `run` is
  /// appended, then the piece folded, and a new run starts after it.
  @inline(__always)
  private func endPiece(
    _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, entry: Entry, isOneScalar: Bool, run: inout Int
  ) {
    guard !range.isEmpty else { return }
    appendOutput(UnsafeBufferPointer(rebasing: bytes[run..<range.lowerBound]))
    appendPiece(bytes, range, entry: entry, isOneScalar: isOneScalar)
    run = range.upperBound
  }

  /// Appends the fold of one piece: `entry` is its first scalar's (0 for ASCII).
  private func appendPiece(
    _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, entry: Entry, isOneScalar: Bool
  ) {
    guard !range.isEmpty else { return }
    if isOneScalar {
      if entry == 0 {
        let byte = bytes[range.lowerBound]
        appendOutput(byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte)
      } else if entry & Self.foldsToItself != 0 {
        appendOutput(UnsafeBufferPointer(rebasing: bytes[range]))
      } else {
        appendOutput(UnsafeBufferPointer(start: arena + Int(entry >> 32), count: Int(entry >> 8 & 0xFF)))
      }
      return
    }
    let piece = UnsafeBufferPointer(rebasing: bytes[range])
    guard let key = PieceSlot(piece) else {
      appendOutput(Self.foundationFold(String(decoding: piece, as: UTF8.self)))
      return
    }
    let slots: UnsafeMutablePointer<PieceSlot>
    if let existing = pieceSlots {
      slots = existing
    } else {
      slots = .allocate(capacity: Self.pieceSlotCount)
      slots.initialize(repeating: PieceSlot(), count: Self.pieceSlotCount)
      pieceSlots = slots
    }
    var slot = key.hash & (Self.pieceSlotCount - 1)
    while slots[slot].entry != 0 {
      if slots[slot].low == key.low, slots[slot].high == key.high, slots[slot].count == key.count {
        let folded = slots[slot].entry
        appendOutput(UnsafeBufferPointer(start: arena + Int(folded >> 32), count: Int(folded >> 8 & 0xFF)))
        return
      }
      slot = (slot + 1) & (Self.pieceSlotCount - 1)
    }
    let folded = Self.foundationFold(String(decoding: piece, as: UTF8.self))
    appendOutput(folded)
    if pieceCount < Self.pieceLimit, let stored = store(folded) {
      var kept = key
      kept.entry = stored | Self.known
      slots[slot] = kept
      pieceCount += 1
    }
  }

  /// The entry of the scalar `value`, made from Foundation's fold the first time.
  @inline(__always)
  private func entry(_ value: UInt32) -> Entry {
    if let page = pages[Int(value >> 8)] {
      let entry = page[Int(value & 0xFF)]
      if entry != 0 { return entry }
    }
    return newEntry(value)
  }

  /// The entry of a scalar met for the first time, kept in its page.
  private func newEntry(_ value: UInt32) -> Entry {
    let pageIndex = Int(value >> 8)
    let page: UnsafeMutablePointer<Entry>
    if let existing = pages[pageIndex] {
      page = existing
    } else {
      page = .allocate(capacity: 256)
      page.initialize(repeating: 0, count: 256)
      pages[pageIndex] = page
    }
    // Valid UTF-8 holds only scalar values.
    let scalar = Unicode.Scalar(value)!
    var entry = Self.known
    if Self.startsPiece(scalar) { entry |= Self.startsPieceBit }
    let folded = Self.foundationFold(String(scalar))
    if folded.unicodeScalars.elementsEqual(CollectionOfOne(scalar)) {
      entry |= Self.foldsToItself
    } else if let stored = store(folded) {
      entry |= stored
    } else {
      // A fold longer than an entry can say (none is known): the scalar is its own piece,
      // folded by Foundation each time.
      entry &= ~Self.startsPieceBit
    }
    page[Int(value & 0xFF)] = entry
    return entry
  }

  /// Keeps `folded` in the arena; its place as an entry's bits, nil when longer than 255 bytes.
  private func store(_ folded: String) -> Entry? {
    var folded = folded
    return folded.withUTF8 { bytes -> Entry? in
      guard bytes.count <= 0xFF else { return nil }
      if arenaCount + bytes.count > arenaCapacity {
        arenaCapacity = max(arenaCapacity * 2, arenaCount + bytes.count)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: arenaCapacity)
        grown.update(from: arena, count: arenaCount)
        arena.deallocate()
        arena = grown
      }
      if let base = bytes.baseAddress { (arena + arenaCount).update(from: base, count: bytes.count) }
      let entry = Entry(arenaCount) << 32 | Entry(bytes.count) << 8
      arenaCount += bytes.count
      return entry
    }
  }

  private func appendOutput(_ folded: String) {
    var folded = folded
    folded.withUTF8 { appendOutput($0) }
  }

  private func appendOutput(_ bytes: UnsafeBufferPointer<UInt8>) {
    reserveOutput(bytes.count)
    if bytes.count <= 8 {
      // A scalar's or a short piece's bytes: copied here rather than by a call to memmove.
      for index in 0..<bytes.count { output[outputCount + index] = bytes[index] }
    } else if let base = bytes.baseAddress {
      (output + outputCount).update(from: base, count: bytes.count)
    }
    outputCount += bytes.count
  }

  private func appendOutput(_ byte: UInt8) {
    reserveOutput(1)
    output[outputCount] = byte
    outputCount += 1
  }

  private func reserveOutput(_ count: Int) {
    guard outputCount + count > outputCapacity else { return }
    outputCapacity = max(outputCapacity * 2, outputCount + count)
    let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: outputCapacity)
    grown.update(from: output, count: outputCount)
    output.deallocate()
    output = grown
  }
}

/// A piece of at most 16 bytes of UTF-8 and its fold (`entry`: 0 for an empty slot).
private struct PieceSlot {
  var low: UInt64 = 0
  var high: UInt64 = 0
  var count = 0
  var entry: UInt64 = 0

  init() {}

  init?(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard bytes.count <= 16 else { return nil }
    count = bytes.count
    for index in 0..<bytes.count {
      if index < 8 {
        low |= UInt64(bytes[index]) << (8 * index)
      } else {
        high |= UInt64(bytes[index]) << (8 * (index - 8))
      }
    }
  }

  /// A multiplicative hash of the bytes, its high bits first.
  var hash: Int {
    let mixed = (low &* 0x9E37_79B9_7F4A_7C15) ^ (high &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(count)
    return Int(truncatingIfNeeded: (mixed ^ (mixed >> 29)) >> 16)
  }
}
