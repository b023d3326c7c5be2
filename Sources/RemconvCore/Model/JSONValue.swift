/// A JSON value. Numbers keep their source text so that values carried through `extra`
/// (a Taskwarrior urgency, a 64-bit id) come back exactly as they were written.
public enum JSONValue: Hashable, Sendable {
  case null
  case bool(Bool)
  case number(String)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  public subscript(key: String) -> JSONValue? {
    if case .object(let members) = self { return members[key] }
    return nil
  }

  public var stringValue: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  public var boolValue: Bool? {
    if case .bool(let flag) = self { return flag }
    return nil
  }

  public var numberText: String? {
    if case .number(let text) = self { return text }
    return nil
  }

  public var intValue: Int? {
    guard case .number(let text) = self else { return nil }
    if let value = Int(text) { return value }
    if let value = Double(text), value == value.rounded(), abs(value) < 1e15 { return Int(value) }
    return nil
  }

  public var arrayValue: [JSONValue]? {
    if case .array(let items) = self { return items }
    return nil
  }

  public var objectValue: [String: JSONValue]? {
    if case .object(let members) = self { return members }
    return nil
  }

  public var isNull: Bool { self == .null }

  public static func number(_ value: Int) -> JSONValue { .number(String(value)) }
}
