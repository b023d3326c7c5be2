/// Takes the members of one object from another app's JSON apart, losing nothing.
///
/// Each member a reader maps is taken once; what is left is the source's own data, which the
/// reader keeps in `extra` under its format's key so the writer (or the user) gets it back. A
/// value of the wrong shape is a warning naming the member, and the raw value is kept in
/// `extra.invalid`. A `null` member counts as absent.
struct JSONObjectFields {
  /// The members not taken yet.
  private(set) var remaining: [String: JSONValue]
  let location: SourceLocation
  /// The UID of the item, for warnings, once known.
  var uid: String?
  let diagnostics: DiagnosticLog
  private(set) var invalid: [String: JSONValue] = [:]

  init(_ members: [String: JSONValue], location: SourceLocation, diagnostics: DiagnosticLog) {
    remaining = members
    self.location = location
    self.diagnostics = diagnostics
  }

  /// Removes a member and returns its value (nil when absent or null).
  mutating func take(_ key: String) -> JSONValue? {
    guard let value = remaining.removeValue(forKey: key), !value.isNull else { return nil }
    return value
  }

  /// Keeps `value` in `extra.invalid` and warns with `message`.
  mutating func reject(_ key: String, _ value: JSONValue, _ message: String) {
    invalid[key] = value
    diagnostics.warning("invalid-value", "\(message) (kept in extra.invalid)", at: location, uid: uid)
  }

  mutating func string(_ key: String) -> String? {
    guard let value = take(key) else { return nil }
    if let text = value.stringValue { return text }
    reject(key, value, "\(key) should be a string")
    return nil
  }

  mutating func bool(_ key: String) -> Bool? {
    guard let value = take(key) else { return nil }
    if let flag = value.boolValue { return flag }
    reject(key, value, "\(key) should be true or false")
    return nil
  }

  mutating func array(_ key: String) -> [JSONValue]? {
    guard let value = take(key) else { return nil }
    if let items = value.arrayValue { return items }
    reject(key, value, "\(key) should be an array")
    return nil
  }

  mutating func object(_ key: String) -> [String: JSONValue]? {
    guard let value = take(key) else { return nil }
    if let members = value.objectValue { return members }
    reject(key, value, "\(key) should be an object")
    return nil
  }

  /// An array of strings; any other shape is rejected whole.
  mutating func strings(_ key: String) -> [String]? {
    guard let value = take(key) else { return nil }
    if let items = value.arrayValue, items.allSatisfy({ $0.stringValue != nil }) {
      return items.compactMap(\.stringValue)
    }
    reject(key, value, "\(key) should be an array of strings")
    return nil
  }

  /// An instant in a string, read by `parse`; `expected` names the form in the warning.
  mutating func timestamp(_ key: String, expected: String, parse: (String) -> Timestamp?) -> Timestamp? {
    guard let text = string(key) else { return nil }
    if let value = parse(text) { return value }
    reject(key, .string(text), "\(key): '\(text)' is not \(expected)")
    return nil
  }

  /// `extra` for the item: `kept` (the format's own members) under `formatKey`, and the
  /// rejected values under `invalid`.
  func extra(formatKey: String, kept: [String: JSONValue]) -> [String: JSONValue] {
    var extra: [String: JSONValue] = [:]
    if !kept.isEmpty { extra[formatKey] = .object(kept) }
    if !invalid.isEmpty { extra["invalid"] = .object(invalid) }
    return extra
  }
}
