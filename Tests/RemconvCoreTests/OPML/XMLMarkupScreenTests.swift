import Foundation
import Testing

@testable import RemconvCore

/// The screen before libxml2: what it drops, what it passes untouched, where it refuses.
@Suite struct XMLMarkupScreenTests {
  /// The screened text, fed whole and then a byte at a time (a construct cut by a buffer
  /// boundary is screened alike).
  static func screened(_ text: String) throws -> String {
    var whole = XMLMarkupScreen(documentName: "d.opml")
    var output: [UInt8] = []
    try Array(text.utf8).withUnsafeBufferPointer { try whole.screen($0, into: &output) }
    whole.finish(into: &output)
    var bytewise = XMLMarkupScreen(documentName: "d.opml")
    var pieces: [UInt8] = []
    for byte in text.utf8 {
      try [byte].withUnsafeBufferPointer { try bytewise.screen($0, into: &pieces) }
    }
    bytewise.finish(into: &pieces)
    #expect(pieces == output)
    return String(decoding: output, as: UTF8.self)
  }

  @Test func commentsAndInstructionsAreDroppedKeepingTheirLineBreaks() throws {
    #expect(try Self.screened("<a>x<!-- <b c=\"d\"> -- \n--></a>") == "<a>x\n</a>")
    #expect(try Self.screened("<a><?pi one\ntwo?>y</a>") == "<a>\ny</a>")
    #expect(try Self.screened("<a><!--->x--></a>") == "<a></a>")
  }

  @Test func theDeclarationCDATAAndDoctypePassUntouched() throws {
    let declaration = "<?xml version=\"1.0\"?>\n<a/>"
    #expect(try Self.screened(declaration) == declaration)
    let cdata = "<a><![CDATA[<!-- kept --> <?pi kept?>]]></a>"
    #expect(try Self.screened(cdata) == cdata)
    let doctype = "<!DOCTYPE a [<!ENTITY e \"<!-- x -->\">]><a>&e;</a>"
    #expect(try Self.screened(doctype) == doctype)
    // An instruction after anything else is not the declaration.
    #expect(try Self.screened("<a/><?xml version=\"1.0\"?>") == "<a/>")
  }

  @Test func attributeValuesMayHoldQuotesAndGreaterThan() throws {
    let tag = "<a b=\"it's > <!-- not a comment\" c='say \"hi\"'>t<!--x--></a>"
    #expect(try Self.screened(tag) == "<a b=\"it's > <!-- not a comment\" c='say \"hi\"'>t</a>")
  }

  @Test func moreAttributesThanTheLimitAreRefusedAtTheElementsLine() throws {
    func element(_ count: Int) -> String {
      "<opml>\n\n<a " + (0..<count).map { "a\($0)=\"\"" }.joined(separator: " ") + "/></opml>"
    }
    _ = try Self.screened(element(XMLMarkupScreen.maximumAttributes))
    let error = #expect(throws: RemconvError.self) { try Self.screened(element(XMLMarkupScreen.maximumAttributes + 1)) }
    #expect(error?.description == "d.opml:3: an element has more than 1000 attributes: the limit of one element")
  }

  @Test func commentsBeyondTheirCountAreRefused() throws {
    let many = "<a>" + String(repeating: "<!---->", count: XMLMarkupScreen.maximumMarkupNotes) + "</a>"
    #expect(try Self.screened(many) == "<a></a>")
    #expect(throws: RemconvError.self) { try Self.screened(many + "<?p?>") }
  }
}
