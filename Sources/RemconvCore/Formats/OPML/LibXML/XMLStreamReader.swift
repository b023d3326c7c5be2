internal import CLibXML2

/// Streams an XML document from a `ByteReader` through libxml2's `xmlTextReader`, safely.
///
/// The reader holds one node at a time (libxml2 frees each subtree once it is passed), so memory
/// stays flat whatever the size of the document. Untrusted input is read with:
/// - no entity substitution (`XML_PARSE_NOENT` off) and no DTD loading or default attributes
///   (`DTDLOAD`, `DTDATTR` off): an external entity is never fetched, and a reference to any
///   entity declared in a DTD is refused rather than expanded, in text and in attribute values;
/// - no network (`NONET`) and no XInclude;
/// - libxml2's own limits kept (`XML_PARSE_HUGE` off): entity amplification is detected and
///   refused ("billion laughs"), text nodes and attribute values are capped at 10 MB, and
///   elements nest at most `InputLimits.maximumNestingDepth` deep;
/// - what libxml2 does not bound screened before it parses (`XMLMarkupScreen`): attributes per
///   element, comments and processing instructions (dropped as they stream by);
/// - every parser error sent to this reader (never to stderr), reported with line and column.
final class XMLStreamReader {
  /// The libxml2 parser options, as documented above.
  static let parserOptions: Int32 = {
    let options: [xmlParserOption] = [
      XML_PARSE_NONET, XML_PARSE_NOERROR, XML_PARSE_NOWARNING, XML_PARSE_NOCDATA, XML_PARSE_BIG_LINES,
    ]
    return Int32(options.reduce(0) { $0 | $1.rawValue })
  }()

  /// `xmlInitParser` once per process: it is not safe to race on first use in libxml2 2.9.
  private static let initialized: Bool = {
    xmlInitParser()
    return true
  }()

  private let reader: OpaquePointer
  private let input: InputBridge
  private let errors: ErrorCollector
  private let documentName: String
  /// The end event owed for an empty element (`<outline/>`), delivered next.
  private var owedEnd: String?
  /// The line the parser's position had reached after the last node: the line of the last start
  /// tag (libxml2 gives the line of its `>`) plus the line breaks of the text and comments since.
  /// libxml2's own line of a text node is where the parser stood when it first delivered part of
  /// the text, which can be anywhere inside it.
  private var line: Int?
  /// Called with libxml2's recoverable errors (an undeclared namespace prefix, ...).
  var onWarning: ((String, SourceLocation) -> Void)?

  init(bytes: ByteReader, documentName: String) throws(RemconvError) {
    _ = Self.initialized
    remconv_xml_silence_generic_errors()
    let input = InputBridge(bytes: bytes, screen: XMLMarkupScreen(documentName: documentName))
    let errors = ErrorCollector()
    let created = documentName.withCString { name in
      xmlReaderForIO(
        readThroughBridge, nil, Unmanaged.passUnretained(input).toOpaque(), name, nil, Self.parserOptions)
    }
    guard let created else {
      throw .ioFailure("\(documentName): libxml2 could not start a reader")
    }
    xmlTextReaderSetStructuredErrorHandler(created, collectError, Unmanaged.passUnretained(errors).toOpaque())
    self.documentName = documentName
    self.input = input
    self.errors = errors
    reader = created
  }

  deinit { xmlFreeTextReader(reader) }

  /// The next event, or nil at the end of the document.
  func next() throws(RemconvError) -> XMLEvent? {
    if let name = owedEnd {
      owedEnd = nil
      return .end(localName: name)
    }
    while true {
      let status = xmlTextReaderRead(reader)
      if status < 0 || errors.fatal != nil { throw failure() }
      reportWarnings()
      if status == 0 { return nil }
      switch xmlReaderTypes(UInt32(xmlTextReaderNodeType(reader))) {
      case XML_READER_TYPE_ELEMENT:
        let tag = try startTag()
        line = tag.line
        if xmlTextReaderIsEmptyElement(reader) == 1 { owedEnd = tag.localName }
        return .start(tag)
      case XML_READER_TYPE_END_ELEMENT:
        return .end(localName: string(xmlTextReaderConstLocalName(reader)))
      case XML_READER_TYPE_TEXT, XML_READER_TYPE_CDATA, XML_READER_TYPE_WHITESPACE,
        XML_READER_TYPE_SIGNIFICANT_WHITESPACE:
        let text = string(xmlTextReaderConstValue(reader))
        let start = line
        line = start.map { $0 + Self.lineBreaks(in: text.utf8) }
        let leading = text.utf8.prefix { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        return .text(text, line: start.map { $0 + Self.lineBreaks(in: leading) })
      case XML_READER_TYPE_ENTITY_REFERENCE:
        throw refusedEntity(string(xmlTextReaderConstName(reader)), line: lineOfCurrentNode())
      default:
        // Comments and processing instructions are not events, but their line breaks count.
        if let value = xmlTextReaderConstValue(reader) {
          line = line.map { $0 + Self.lineBreaks(in: string(value).utf8) }
        }
        continue  // comments, processing instructions, the document type declaration
      }
    }
  }

  /// The current element's start tag. Attribute values are read node by node, so an entity
  /// reference inside one is seen (and refused) instead of being expanded by libxml2.
  private func startTag() throws(RemconvError) -> XMLStartTag {
    let depth = Int(xmlTextReaderDepth(reader))
    let line = lineOfCurrentNode()
    guard depth < InputLimits.maximumNestingDepth else { throw tooDeep(line: line, column: nil) }
    var tag = XMLStartTag(
      localName: string(xmlTextReaderConstLocalName(reader)),
      namespace: optionalString(xmlTextReaderConstNamespaceUri(reader)),
      attributes: [], depth: depth, line: line)
    let count = xmlTextReaderAttributeCount(reader)
    if count > 0 {
      for index in 0..<count {
        guard xmlTextReaderMoveToAttributeNo(reader, index) == 1 else { continue }
        if xmlTextReaderIsNamespaceDecl(reader) == 1 { continue }
        let localName = string(xmlTextReaderConstLocalName(reader))
        let namespace = optionalString(xmlTextReaderConstNamespaceUri(reader))
        let prefix = optionalString(xmlTextReaderConstPrefix(reader))
        var value = ""
        while xmlTextReaderReadAttributeValue(reader) == 1 {
          switch xmlReaderTypes(UInt32(xmlTextReaderNodeType(reader))) {
          case XML_READER_TYPE_TEXT: value += string(xmlTextReaderConstValue(reader))
          case XML_READER_TYPE_ENTITY_REFERENCE: throw refusedEntity(string(xmlTextReaderConstName(reader)), line: line)
          default: continue
          }
        }
        tag.attributes.append(XMLAttribute(localName: localName, namespace: namespace, prefix: prefix, value: value))
      }
      xmlTextReaderMoveToElement(reader)
    }
    return tag
  }

  /// The line feeds in `bytes` (XML turns CR LF and a lone CR into a line feed).
  private static func lineBreaks<Bytes: Sequence<UInt8>>(in bytes: Bytes) -> Int {
    bytes.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
  }

  private func lineOfCurrentNode() -> Int? {
    guard let node = xmlTextReaderCurrentNode(reader) else { return nil }
    let line = xmlGetLineNo(node)
    return line > 0 ? Int(line) : nil
  }

  private func reportWarnings() {
    guard !errors.recoverable.isEmpty else { return }
    for error in errors.recoverable {
      onWarning?(error.message, SourceLocation(file: documentName, line: error.line, column: error.column))
    }
    errors.recoverable.removeAll()
  }

  /// The error for a read that failed: the input's own failure, else libxml2's first error in
  /// the document (errors inside an entity's text carry the entity's lines, not the file's).
  private func failure() -> RemconvError {
    if let inputFailure = input.failure { return inputFailure }
    // libxml2's reader calls an empty input "Extra content at the end of the document".
    if input.bytesRead == 0 {
      return .malformedInput(
        "malformed XML: the document is empty", at: SourceLocation(file: documentName, line: 1, column: 1))
    }
    let parserLine = Int(xmlTextReaderGetParserLineNumber(reader))
    let parserColumn = Int(xmlTextReaderGetParserColumnNumber(reader))
    guard let error = errors.fatal ?? errors.recoverable.first else {
      return .malformedInput(
        "malformed XML: the parser stopped",
        at: SourceLocation(file: documentName, line: parserLine, column: parserColumn))
    }
    let line = error.line ?? parserLine
    let column = error.column ?? parserColumn
    // libxml2 names its limits after the option that lifts them (XML_PARSE_HUGE), which is
    // deliberately off: say what the limit is instead.
    if error.message.hasPrefix("Excessive depth in document") { return tooDeep(line: line, column: column) }
    let location = SourceLocation(file: documentName, line: line, column: column)
    if Self.sizeLimitMessages.contains(where: error.message.contains) {
      return .malformedInput(
        "a text or attribute value is longer than the limit of \(XML_MAX_TEXT_LENGTH) bytes (\(error.message))",
        at: location)
    }
    return .malformedInput("malformed XML: \(error.message)", at: location)
  }

  /// The longest start tag, as written, that a writer whose output must be read back may write.
  /// libxml2 with `XML_PARSE_HUGE` off (as remconv reads OPML) looks ahead for a tag's end at
  /// most `XML_MAX_LOOKUP_LIMIT` bytes, counted from the start of its input buffer, which may
  /// still hold some of what came before the tag (150 bytes to 3.3 KiB in measurements with
  /// different content before it): 64 KiB less keeps well clear of that.
  static let maximumStartTagLength = Int(XML_MAX_LOOKUP_LIMIT) - 65_536

  /// libxml2's messages for a value over `XML_MAX_TEXT_LENGTH` (10 MB).
  private static let sizeLimitMessages = ["huge text node", "Huge input lookup", "length too long"]

  private func tooDeep(line: Int?, column: Int?) -> RemconvError {
    .malformedInput(
      "elements are nested deeper than the limit of \(InputLimits.maximumNestingDepth) levels",
      at: SourceLocation(file: documentName, line: line, column: column))
  }

  private func refusedEntity(_ name: String, line: Int?) -> RemconvError {
    .malformedInput(
      "the document uses the entity '&\(name);' declared in its DTD; remconv does not expand DTD entities",
      at: SourceLocation(file: documentName, line: line))
  }

  private func string(_ text: UnsafePointer<xmlChar>?) -> String {
    guard let text else { return "" }
    return String(cString: text)
  }

  private func optionalString(_ text: UnsafePointer<xmlChar>?) -> String? {
    text.map { String(cString: $0) }
  }
}

/// The `ByteReader` libxml2 pulls from, through an `XMLMarkupScreen`, and the failure it met,
/// if any.
private final class InputBridge {
  let bytes: ByteReader
  var failure: RemconvError?
  private(set) var bytesRead = 0
  private var screen: XMLMarkupScreen
  /// Screened bytes not yet handed to libxml2, from `start` on.
  private var screened: [UInt8] = []
  private var start = 0
  private var ended = false

  init(bytes: ByteReader, screen: XMLMarkupScreen) {
    self.bytes = bytes
    self.screen = screen
  }

  /// Fills `buffer` with up to `capacity` bytes; 0 at the end, -1 on a read error or a bound
  /// the screen refused. Screens whole runs of the reader's buffer (one call per byte was a
  /// tenth of reading an outline).
  func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int32 {
    do {
      while screened.count - start < capacity, !ended {
        if start > 0 {
          screened.removeSubrange(0..<start)
          start = 0
        }
        let more = try bytes.scan { chunk throws(RemconvError) in
          bytesRead += chunk.count
          try screen.screen(chunk, into: &screened)
          return (chunk.count, true)
        }
        if !more {
          ended = true
          screen.finish(into: &screened)
        }
      }
    } catch {
      failure = error
      return -1
    }
    let count = min(capacity, screened.count - start)
    if count > 0 {
      screened.withUnsafeBytes { source in
        if let base = source.baseAddress {
          UnsafeMutableRawPointer(buffer).copyMemory(from: base + start, byteCount: count)
        }
      }
    }
    start += count
    return Int32(count)
  }
}

/// libxml2's errors for one reader: the first fatal one, and recoverable ones not yet reported.
private final class ErrorCollector {
  struct ParserError {
    var message: String
    var line: Int?
    var column: Int?
    /// False for errors located inside an entity's replacement text.
    var inDocument: Bool
  }

  private(set) var fatal: ParserError?
  var recoverable: [ParserError] = []

  func record(_ error: ParserError, isFatal: Bool) {
    if isFatal {
      // Keep the first error located in the document itself; an earlier one inside an entity
      // is kept only until then.
      if fatal == nil || (fatal?.inDocument == false && error.inDocument) { fatal = error }
    } else {
      recoverable.append(error)
    }
  }
}

private let readThroughBridge: xmlInputReadCallback = { context, buffer, length in
  guard let context, let buffer, length > 0 else { return 0 }
  return Unmanaged<InputBridge>.fromOpaque(context).takeUnretainedValue().read(into: buffer, capacity: Int(length))
}

private let collectError: xmlStructuredErrorFunc = { context, error in
  guard let context, let error else { return }
  let level = error.pointee.level
  // Warnings (an unsupported version number, a relative namespace URI) change nothing.
  guard level == XML_ERR_ERROR || level == XML_ERR_FATAL else { return }
  var message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
  while message.last?.isWhitespace == true { message.removeLast() }
  let line = Int(error.pointee.line)
  let column = Int(error.pointee.int2)
  let collector = Unmanaged<ErrorCollector>.fromOpaque(context).takeUnretainedValue()
  collector.record(
    ErrorCollector.ParserError(
      message: message, line: line > 0 ? line : nil, column: column > 0 ? column : nil,
      inDocument: error.pointee.file != nil),
    isFatal: level == XML_ERR_FATAL)
}
