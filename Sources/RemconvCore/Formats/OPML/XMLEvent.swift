/// One step through an XML document, as `XMLStreamReader` delivers it.
///
/// Every start has an end, an empty element (`<outline/>`) included, so consumers count depth
/// without special cases. Comments, processing instructions and the document type declaration
/// are not events: OPML has no use for them.
enum XMLEvent {
  case start(XMLStartTag)
  case end(localName: String)
  /// Character data (CDATA sections included), possibly only white space, with the line of
  /// its first character that is not white space (its first line when it is all white space).
  case text(String, line: Int?)
}

/// An element's start tag with its attributes, decoded to Swift strings.
struct XMLStartTag {
  var localName: String
  /// The namespace URI of the element, nil when it has none.
  var namespace: String?
  var attributes: [XMLAttribute]
  /// The 0-based depth: 0 for the root element.
  var depth: Int
  /// The line of the tag, when libxml2 knows it.
  var line: Int?
}

/// One attribute of a start tag. Namespace declarations (`xmlns`, `xmlns:p`) are not attributes.
struct XMLAttribute {
  var localName: String
  /// The namespace URI, nil for an attribute without a prefix.
  var namespace: String?
  /// The prefix the document used: kept for an attribute whose prefix no namespace declares.
  var prefix: String?
  var value: String

  /// The name as written in the document (`remconv:id`, `_note`).
  var qualifiedName: String { prefix.map { "\($0):\(localName)" } ?? localName }
}
