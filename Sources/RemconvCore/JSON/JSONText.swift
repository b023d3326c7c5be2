/// Writes JSON text: compact, keys in a stable order, non-ASCII kept as UTF-8.
public enum JSONText {
  /// A JSON value as compact text with sorted keys (deterministic for golden files).
  public static func encode(_ value: JSONValue) -> String {
    var output = ""
    append(value, to: &output)
    return output
  }

  public static func append(_ value: JSONValue, to output: inout String) {
    switch value {
    case .null: output += "null"
    case .bool(let flag): output += flag ? "true" : "false"
    case .number(let text): output += text
    case .string(let text): appendString(text, to: &output)
    case .array(let items):
      output += "["
      for (index, item) in items.enumerated() {
        if index > 0 { output += "," }
        append(item, to: &output)
      }
      output += "]"
    case .object(let members):
      output += "{"
      for (index, key) in members.keys.sorted().enumerated() {
        if index > 0 { output += "," }
        appendString(key, to: &output)
        output += ":"
        if let member = members[key] { append(member, to: &output) }
      }
      output += "}"
    }
  }

  /// A quoted, escaped JSON string.
  public static func quoted(_ text: String) -> String {
    var output = ""
    appendString(text, to: &output)
    return output
  }

  public static func appendString(_ text: String, to output: inout String) {
    output += "\""
    var needsEscape = false
    for byte in text.utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C {
      needsEscape = true
      break
    }
    if !needsEscape {
      output += text
      output += "\""
      return
    }
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      case "\u{08}": output += "\\b"
      case "\u{0C}": output += "\\f"
      case "\u{00}"..."\u{1F}":
        let hex = String(scalar.value, radix: 16)
        output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: output.unicodeScalars.append(scalar)
      }
    }
    output += "\""
  }
}
