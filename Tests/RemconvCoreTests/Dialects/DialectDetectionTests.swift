import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// Detection from content: each dialect by its own member names, never by text in a value.
@Suite struct DialectDetectionTests {
  @Test func theHeadKnowsKeysFromValues() {
    let head = JSONHead(Array(#"  {"kind": "tasks#tasks", "notes": "say \"status\": x", "n": 1, "items": ["a"]}"#.utf8))
    #expect(head.firstByte == UInt8(ascii: "{"))
    #expect(head.keys == ["kind", "notes", "n", "items"])
    #expect(head.values(of: "kind") == ["tasks#tasks"])
    #expect(head.values(of: "notes") == [#"say "status": x"#])
    #expect(head.values(of: "items").isEmpty, "an array element is not the member's value")
  }

  @Test func aHeadCutMidStringIsRead() {
    let head = JSONHead(Array(#"[{"description":"Pay rent","uuid":"5fe4a0c6-0c16-4c2c-92a4"#.utf8))
    #expect(head.keys == ["description", "uuid"])
    #expect(TaskwarriorFormat.descriptor.sniff?(Array(#"[{"description":"Pay rent","uuid":"5fe4"#.utf8)) == true)
  }

  /// A remconv document whose notes quote other apps' JSON is still remconv's.
  @Test func quotedJSONInNotesDoesNotChangeTheFormat() throws {
    let folder = TemporaryDirectory()
    let notes =
      ##"{\"kind\":\"tasks#task\",\"@odata.type\":\"#microsoft.graph.todoTask\",\"description\":\"x\",\"uuid\":\"y\"}"##
    let document =
      #"{"format":"remconv","version":1,"lists":[{"id":"L","name":"N","reminders":[{"id":"R","title":"T","notes":""#
      + notes + #""}]}]}"#
    let path = folder.write("pasted", document)
    #expect(try FormatRegistry.detect(for: .file(path)).name == "json")
    for format in [
      TaskwarriorFormat.descriptor, MicrosoftToDoFormat.descriptor, GoogleTasksFormat.descriptor, JCalFormat.descriptor,
    ] {
      #expect(format.sniff?(Array(document.utf8)) == false, "\(format.name)")
    }
  }

  @Test func dialectsComeBeforeTheGenericJSONFormats() throws {
    let names = FormatRegistry.all.map(\.name)
    let json = try #require(names.firstIndex(of: "json"))
    for dialect in ["taskwarrior", "mstodo", "googletasks", "jcal"] {
      let index = try #require(names.firstIndex(of: dialect))
      #expect(index < json, "\(dialect)")
    }
    #expect(FormatRegistry.detect(forOutput: "out.json")?.name == "json", "no dialect claims .json for output")
  }
}
