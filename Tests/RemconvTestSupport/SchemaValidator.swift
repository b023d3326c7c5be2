import Foundation
import RemconvCore

/// Checks JSON against the published JSON Schemas in `docs/schema/`.
///
/// Supports the subset of draft 2020-12 those schemas use: `type`, `const`, `enum`, `pattern`,
/// `minLength`, `required`, `properties`, `additionalProperties: false`, `allOf`, `items`,
/// `$ref` (local and to a sibling file) and `unevaluatedProperties: false` (over `properties`
/// and those of `allOf`). An unknown keyword fails loudly rather than passing silently.
public struct SchemaValidator {
  private let documents: [String: JSONValue]
  private static let known: Set<String> = [
    "$schema", "$id", "$defs", "title", "description", "type", "const", "enum", "pattern", "minLength",
    "required", "properties", "additionalProperties", "allOf", "items", "$ref", "unevaluatedProperties",
  ]

  /// Loads every `*.schema.json` in `folder`.
  public init(folder: String) throws {
    var documents: [String: JSONValue] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name.hasSuffix(".schema.json") {
      let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
      documents[name] = try JSONParser.parse(text, name: name)
    }
    self.documents = documents
  }

  /// The problems of `value` against the schema file `name`; empty when valid.
  public func validate(_ value: JSONValue, against name: String) -> [String] {
    guard let schema = documents[name] else { return ["no schema \(name)"] }
    var problems: [String] = []
    check(value, schema, file: name, path: "$", problems: &problems)
    return problems
  }

  private func resolve(_ reference: String, from file: String) -> (JSONValue, String)? {
    let parts = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
    let target = parts[0].isEmpty ? file : String(parts[0])
    guard var node = documents[target] else { return nil }
    if parts.count > 1 {
      for component in parts[1].split(separator: "/") {
        guard let next = node[String(component)] else { return nil }
        node = next
      }
    }
    return (node, target)
  }

  private func typeName(_ value: JSONValue) -> String {
    switch value {
    case .null: "null"
    case .bool: "boolean"
    case .number(let text): Int(text) != nil ? "integer" : "number"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
  }

  /// The property names a schema evaluates (its own and those of its `allOf` and `$ref`s).
  private func evaluatedProperties(_ schema: JSONValue, file: String) -> Set<String> {
    var names = Set(schema["properties"]?.objectValue?.keys.map { $0 } ?? [])
    for part in schema["allOf"]?.arrayValue ?? [] {
      names.formUnion(evaluatedProperties(part, file: file))
    }
    if let reference = schema["$ref"]?.stringValue, let (target, targetFile) = resolve(reference, from: file) {
      names.formUnion(evaluatedProperties(target, file: targetFile))
    }
    return names
  }

  private func check(_ value: JSONValue, _ schema: JSONValue, file: String, path: String, problems: inout [String]) {
    guard let keywords = schema.objectValue else { return }
    for keyword in keywords.keys where !Self.known.contains(keyword) {
      problems.append("\(path): the schema uses unsupported keyword \(keyword)")
    }
    if let reference = schema["$ref"]?.stringValue {
      if let (target, targetFile) = resolve(reference, from: file) {
        check(value, target, file: targetFile, path: path, problems: &problems)
      } else {
        problems.append("\(path): unresolved $ref \(reference)")
      }
    }
    for part in schema["allOf"]?.arrayValue ?? [] {
      check(value, part, file: file, path: path, problems: &problems)
    }
    if let type = schema["type"] {
      let allowed = type.arrayValue?.compactMap(\.stringValue) ?? [type.stringValue ?? ""]
      let actual = typeName(value)
      if !allowed.contains(actual), !(actual == "integer" && allowed.contains("number")) {
        problems.append("\(path): \(actual) is not \(allowed.joined(separator: " or "))")
        return
      }
    }
    if let constant = schema["const"], constant != value {
      problems.append("\(path): \(JSONText.encode(value)) is not \(JSONText.encode(constant))")
    }
    if let choices = schema["enum"]?.arrayValue, !choices.contains(value) {
      problems.append("\(path): \(JSONText.encode(value)) is not one of \(JSONText.encode(.array(choices)))")
    }
    if case .string(let text) = value {
      if let minimum = schema["minLength"]?.intValue, text.count < minimum {
        problems.append("\(path): shorter than \(minimum)")
      }
      if let pattern = schema["pattern"]?.stringValue, text.range(of: pattern, options: .regularExpression) == nil {
        problems.append("\(path): '\(text)' does not match \(pattern)")
      }
    }
    if case .array(let items) = value, let itemSchema = schema["items"] {
      for (index, item) in items.enumerated() {
        check(item, itemSchema, file: file, path: "\(path)[\(index)]", problems: &problems)
      }
    }
    if case .object(let members) = value {
      for name in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where members[name] == nil {
        problems.append("\(path): missing required \(name)")
      }
      let properties = schema["properties"]?.objectValue ?? [:]
      for (name, member) in members {
        if let propertySchema = properties[name] {
          check(member, propertySchema, file: file, path: "\(path).\(name)", problems: &problems)
        }
      }
      if schema["additionalProperties"] == .bool(false) {
        for name in members.keys where properties[name] == nil {
          problems.append("\(path): unexpected property \(name)")
        }
      }
      if schema["unevaluatedProperties"] == .bool(false) {
        let evaluated = evaluatedProperties(schema, file: file)
        for name in members.keys where !evaluated.contains(name) {
          problems.append("\(path): unexpected property \(name)")
        }
      }
    }
  }
}
