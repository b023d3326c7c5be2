import Testing

@testable import RemconvCore

/// The JSON parser notices member names that come twice in one object and says what the last
/// value replaced, where, and under which pointer.
@Suite struct JSONDuplicateKeyTests {
  private func parse(_ text: String) throws -> (JSONValue, [JSONDuplicateKey]) {
    var duplicates: [JSONDuplicateKey] = []
    let value = try JSONParser.parse(bytes: Array(text.utf8), name: "in.json", firstLine: 3, duplicates: &duplicates)
    return (value, duplicates)
  }

  @Test func everyEarlierValueIsReportedWithItsPointerAndPlace() throws {
    let (value, duplicates) = try parse(
      #"{"a":1,"b":{"x/y":true,"x/y":false},"a":2,"c":[{"k":"p"},{"k":"q","k":"r"}],"a":3}"#)
    #expect(value["a"] == .number("3"), "the last value is used")
    #expect(value["b"]?["x/y"] == .bool(false))
    #expect(duplicates.map(\.pointer) == ["/b/x~1y", "/a", "/c/1/k", "/a"])
    #expect(duplicates.map(\.dropped) == [.bool(true), .number("1"), .string("q"), .number("2")])
    #expect(duplicates.map(\.location.description) == ["in.json:3:24", "in.json:3:37", "in.json:3:67", "in.json:3:77"])
  }

  @Test func canonicallyEquivalentNamesAreOneNameAndTheEarlierSpellingIsKept() throws {
    let (value, duplicates) = try parse("{\"caf\u{E9}\":1,\"cafe\u{301}\":2}")
    guard case .object(let members) = value else {
      Issue.record("not an object")
      return
    }
    #expect(members.count == 1)
    let duplicate = try #require(duplicates.first)
    #expect(Array(duplicate.key.unicodeScalars) == Array("caf\u{E9}".unicodeScalars))
    #expect(duplicate.dropped == .number("1"))
  }

  @Test func aCleanDocumentHasNone() throws {
    let (_, duplicates) = try parse(#"{"a":{"a":{"a":[{"a":1},{"a":2}]}},"b":[1,1]}"#)
    #expect(duplicates.isEmpty)
  }

  @Test func droppedValuesAreKeptInSourceOrder() {
    let location = SourceLocation(file: "in.json", line: 1, column: 1)
    var extra: [String: JSONValue] = ["duplicateKeys": .object(["/t": .array([.string("0")])])]
    JSONDuplicateKey.keep(
      [
        JSONDuplicateKey(pointer: "/t", key: "t", dropped: .string("1"), location: location),
        JSONDuplicateKey(pointer: "/t", key: "t", dropped: .string("2"), location: location),
      ], in: &extra)
    #expect(extra["duplicateKeys"] == .object(["/t": .array([.string("0"), .string("1"), .string("2")])]))
  }
}
