import Foundation

extension String {
  /// The text when `bytes` are UTF-8, else nil.
  ///
  /// `String(validating:as:)` is generic code the compiler does not specialise; decoding
  /// (which repairs) and comparing is several times faster, and exact: a repair writes U+FFFD
  /// where the input has bytes that are not UTF-8, so the result differs from the input.
  init?(validUTF8 bytes: [UInt8]) {
    guard let text = bytes.withUnsafeBufferPointer({ String(validUTF8: $0) }) else { return nil }
    self = text
  }

  /// The text when `bytes` are UTF-8, else nil (see `init?(validUTF8:)` of an array).
  init?(validUTF8 bytes: UnsafeBufferPointer<UInt8>) {
    var text = String(decoding: bytes, as: UTF8.self)
    let same = text.withUTF8 { decoded in
      guard decoded.count == bytes.count else { return false }
      guard let first = bytes.baseAddress, let second = decoded.baseAddress else { return bytes.isEmpty }
      return memcmp(first, second, bytes.count) == 0
    }
    guard same else { return nil }
    self = text
  }
}

/// Checks of UTF-8 bytes that need no `String`.
enum UTF8Bytes {
  /// The offset of the first byte that breaks UTF-8 (overlong forms and surrogates included).
  static func firstInvalid(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var index = 0
    let count = bytes.count
    while index < count {
      let lead = bytes[index]
      if lead < 0x80 {
        index += 1
        continue
      }
      let length: Int
      var minimum: UInt32
      var scalar: UInt32
      switch lead {
      case 0xC2...0xDF: (length, minimum, scalar) = (2, 0x80, UInt32(lead & 0x1F))
      case 0xE0...0xEF: (length, minimum, scalar) = (3, 0x800, UInt32(lead & 0x0F))
      case 0xF0...0xF4: (length, minimum, scalar) = (4, 0x10000, UInt32(lead & 0x07))
      default: return index
      }
      guard index + length <= count else { return index }
      for offset in 1..<length {
        let continuation = bytes[index + offset]
        guard continuation & 0xC0 == 0x80 else { return index }
        scalar = scalar << 6 | UInt32(continuation & 0x3F)
      }
      if scalar < minimum || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) { return index }
      minimum = 0
      index += length
    }
    return nil
  }

  /// Whether `bytes` are UTF-8: what `String(validUTF8:)` answers, without making the text. A
  /// reader that only needs the answer (the CSV parser, for every cell with a byte above 0x7F)
  /// paid for a string it let go of at once.
  static func areValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { firstInvalid(bytes) == nil }
}
