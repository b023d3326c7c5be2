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
