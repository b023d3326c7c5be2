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
  /// Whether `bytes` are UTF-8 as RFC 3629 defines it: no overlong form, no surrogate, nothing
  /// past U+10FFFF. What `String(validUTF8:)` answers, without making the text: a reader that
  /// only needs the answer (the CSV parser, for every cell with a byte above 0x7F) paid for a
  /// string it let go of at once.
  static func areValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let count = bytes.count
    var index = 0
    while index < count {
      let lead = bytes[index]
      if lead < 0x80 {
        index += 1
        continue
      }
      // The length of the sequence, and the range its second byte must lie in (RFC 3629 §4).
      let length: Int
      var lowest: UInt8 = 0x80
      var highest: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0: (length, lowest) = (3, 0xA0)
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED: (length, highest) = (3, 0x9F)
      case 0xF0: (length, lowest) = (4, 0x90)
      case 0xF1...0xF3: length = 4
      case 0xF4: (length, highest) = (4, 0x8F)
      default: return false
      }
      guard count - index >= length, (lowest...highest).contains(bytes[index + 1]) else { return false }
      for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 { return false }
      index += length
    }
    return true
  }
}
