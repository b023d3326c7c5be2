/// Writes JSON text: compact, keys in a stable order, non-ASCII kept as UTF-8.
///
/// Text is built as bytes and made a string once: appending to a `String` piece by piece costs
/// several times more, and this runs for every value of every item written.
public enum JSONText {
  /// A JSON value as compact text with sorted keys (deterministic for golden files).
  public static func encode(_ value: JSONValue) -> String {
    var output: [UInt8] = []
    append(value, to: &output)
    return String(decoding: output, as: UTF8.self)
  }

  public static func append(_ value: JSONValue, to output: inout [UInt8]) {
    switch value {
    case .null: output += "null".utf8
    case .bool(let flag): output += (flag ? "true" : "false").utf8
    case .number(let text): output += text.utf8
    case .string(let text): appendString(text, to: &output)
    case .array(let items):
      output.append(UInt8(ascii: "["))
      for (index, item) in items.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        append(item, to: &output)
      }
      output.append(UInt8(ascii: "]"))
    case .object(let members):
      output.append(UInt8(ascii: "{"))
      for (index, key) in members.keys.sorted().enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        appendString(key, to: &output)
        output.append(UInt8(ascii: ":"))
        if let member = members[key] { append(member, to: &output) }
      }
      output.append(UInt8(ascii: "}"))
    }
  }

  /// Appends an array of strings as `append(.array(…))` writes it, without a `JSONValue` per string.
  public static func appendStrings(_ strings: [String], to output: inout [UInt8]) {
    appendArray(strings, to: &output) { appendString($0, to: &$1) }
  }

  /// Appends `items` as an array, each item written by `appendItem`: values spelled straight as
  /// bytes, without a `JSONValue`.
  static func appendArray<Item>(
    _ items: [Item], to output: inout [UInt8], _ appendItem: (Item, inout [UInt8]) -> Void
  ) {
    output.append(UInt8(ascii: "["))
    for (index, item) in items.enumerated() {
      if index > 0 { output.append(UInt8(ascii: ",")) }
      appendItem(item, &output)
    }
    output.append(UInt8(ascii: "]"))
  }

  /// A quoted, escaped JSON string.
  public static func quoted(_ text: String) -> String {
    var output: [UInt8] = []
    output.reserveCapacity(text.utf8.count + 2)
    appendString(text, to: &output)
    return String(decoding: output, as: UTF8.self)
  }

  /// Appends `text` quoted: `"` and `\` escaped, control characters as `\n`, `\r`, `\t`, `\b`,
  /// `\f` or `\u00XX`.
  public static func appendString(_ text: String, to output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    var text = text
    text.withUTF8 { bytes in
      var runStart = 0
      for index in bytes.indices {
        let byte = bytes[index]
        guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
        runStart = index + 1
        switch byte {
        case 0x22: output += #"\""#.utf8
        case 0x5C: output += #"\\"#.utf8
        case 0x0A: output += #"\n"#.utf8
        case 0x0D: output += #"\r"#.utf8
        case 0x09: output += #"\t"#.utf8
        case 0x08: output += #"\b"#.utf8
        case 0x0C: output += #"\f"#.utf8
        default:
          let hex = Array("0123456789abcdef".utf8)
          output += #"\u00"#.utf8
          output.append(hex[Int(byte >> 4)])
          output.append(hex[Int(byte & 0x0F)])
        }
      }
      output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }
    output.append(UInt8(ascii: "\""))
  }
}
