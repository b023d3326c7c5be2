/// Screens the bytes of an XML document before libxml2 parses them, for what libxml2 cannot be
/// told to bound:
/// - the attributes of one start tag: libxml2 checks each new attribute against every earlier
///   one of the element, so its time grows with the square of their count (200,000 attributes
///   ran past two minutes); more than `maximumAttributes` is refused here, before libxml2 has
///   seen the tag's rest, and so is a start tag larger than one item;
/// - comments and processing instructions: libxml2's reader keeps them as nodes of the open
///   element (`<body>` for everything between outlines), so a file of comments grew memory
///   with its size. They carry nothing remconv reads, so they are dropped here as they stream
///   by, their line breaks kept (libxml2 still counts the lines); more than
///   `maximumMarkupNotes` of them, or more than `maximumMarkupNoteBytes` together, are refused,
///   which also ends an endless stream of them.
///
/// The XML declaration (a processing instruction at the very start) is passed on, as are CDATA
/// sections and declarations (`<!DOCTYPE …>`, whose entities the reader refuses), untouched.
/// The screen only drops or passes bytes: what is malformed stays for libxml2 to report.
struct XMLMarkupScreen {
  static let maximumAttributes = 1_000
  static let maximumMarkupNotes = 100_000
  static let maximumMarkupNoteBytes = InputLimits.maximumFieldSize

  private static let commentStart: [UInt8] = Array("<!--".utf8)
  private static let cdataStart: [UInt8] = Array("<![CDATA[".utf8)

  private enum State {
    case text
    /// After `<`, while the next bytes decide what follows (held in `pending`).
    case opening
    case tag
    case comment
    case instruction(kept: Bool)
    case cdata
    case declaration
  }

  private let documentName: String
  private var state = State.text
  private var pending: [UInt8] = []
  /// In a tag or declaration: the quote an attribute value or literal is open with, else 0.
  private var quote: UInt8 = 0
  /// Nesting of `[` in a declaration (a DOCTYPE's internal subset).
  private var brackets = 0
  /// The last bytes seen inside a comment, instruction or CDATA section, for its terminator.
  private var last: (UInt8, UInt8) = (0, 0)
  private var attributes = 0
  private var tagBytes = 0
  private var tagLine = 1
  private var line = 1
  private var emittedAnything = false
  private var notes = 0
  private var noteBytes = 0

  init(documentName: String) {
    self.documentName = documentName
  }

  /// Screens `chunk`, appending what libxml2 should see to `output`.
  mutating func screen(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) throws(RemconvError) {
    var index = 0
    while index < chunk.count {
      let byte = chunk[index]
      index += 1
      if byte == 0x0A { line += 1 }
      switch state {
      case .text:
        if byte == UInt8(ascii: "<") {
          state = .opening
          pending.removeAll(keepingCapacity: true)
          pending.append(byte)
          tagLine = line
        } else if !emittedAnything {
          emit(byte, into: &output)
        } else {
          // Copy a run of plain text at once.
          let start = index - 1
          while index < chunk.count, chunk[index] != UInt8(ascii: "<") {
            if chunk[index] == 0x0A { line += 1 }
            index += 1
          }
          output.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[start..<index]))
        }
      case .opening:
        pending.append(byte)
        try decide(into: &output)
      case .tag:
        // Copy a run of the tag at once, up to the next byte that matters: the quote that
        // closes a value, else a quote or `>`.
        let start = index - 1
        if !Self.mattersInTag(byte, quote: quote) {
          while index < chunk.count, !Self.mattersInTag(chunk[index], quote: quote) {
            if chunk[index] == 0x0A { line += 1 }
            index += 1
          }
          output.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[start..<index]))
          try countTagBytes(index - start)
          continue
        }
        output.append(byte)
        try countTagBytes(1)
        if quote != 0 {
          quote = 0
        } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
          // Every attribute has exactly one quoted value.
          quote = byte
          attributes += 1
          if attributes > Self.maximumAttributes {
            throw refusal("an element has more than \(Self.maximumAttributes) attributes: the limit of one element")
          }
        } else if byte == UInt8(ascii: ">") {
          state = .text
        }
      case .comment:
        try note(byte, into: &output)
        if byte == UInt8(ascii: ">"), last == (UInt8(ascii: "-"), UInt8(ascii: "-")) { state = .text }
        last = (last.1, byte)
      case .instruction(let kept):
        if kept { output.append(byte) } else { try note(byte, into: &output) }
        if byte == UInt8(ascii: ">"), last.1 == UInt8(ascii: "?") { state = .text }
        last = (last.1, byte)
      case .cdata:
        output.append(byte)
        if byte == UInt8(ascii: ">"), last == (UInt8(ascii: "]"), UInt8(ascii: "]")) { state = .text }
        last = (last.1, byte)
      case .declaration:
        output.append(byte)
        if quote != 0 {
          if byte == quote { quote = 0 }
        } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
          quote = byte
        } else if byte == UInt8(ascii: "[") {
          brackets += 1
        } else if byte == UInt8(ascii: "]") {
          brackets = max(0, brackets - 1)
        } else if byte == UInt8(ascii: ">"), brackets == 0 {
          state = .text
        }
      }
    }
  }

  private mutating func countTagBytes(_ count: Int) throws(RemconvError) {
    tagBytes += count
    if tagBytes > InputLimits.maximumItemSize {
      throw refusal("a start tag is larger than the limit of \(InputLimits.maximumItemSize) bytes of one item")
    }
  }

  /// Whether `byte` changes the state of a tag: inside a value only its closing quote does.
  @inline(__always)
  private static func mattersInTag(_ byte: UInt8, quote: UInt8) -> Bool {
    quote != 0 ? byte == quote : byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == UInt8(ascii: ">")
  }

  /// At the end of the input: what was held back goes on, for libxml2 to report as cut off.
  mutating func finish(into output: inout [UInt8]) {
    output.append(contentsOf: pending)
    pending.removeAll(keepingCapacity: true)
  }

  /// Decides, from the bytes after `<` held so far, what starts; waits for more when they
  /// could still begin a comment or a CDATA section.
  private mutating func decide(into output: inout [UInt8]) throws(RemconvError) {
    let comment = Self.commentStart
    let cdata = Self.cdataStart
    if pending.count == 2, pending[1] == UInt8(ascii: "?") {
      // The XML declaration must come first and is kept; any other instruction is dropped.
      let kept = !emittedAnything
      if kept { output.append(contentsOf: pending) } else { try startNote(into: &output) }
      emittedAnything = true
      state = .instruction(kept: kept)
      last = (0, 0)
      pending.removeAll(keepingCapacity: true)
      return
    }
    if pending.count <= comment.count, pending.elementsEqual(comment.prefix(pending.count)) {
      guard pending.count == comment.count else { return }
      try startNote(into: &output)
      state = .comment
      // `<!-->` does not close the comment it opens: the terminator needs its own dashes.
      last = (0, 0)
      pending.removeAll(keepingCapacity: true)
      return
    }
    if pending.count <= cdata.count, pending.elementsEqual(cdata.prefix(pending.count)) {
      guard pending.count == cdata.count else { return }
      state = .cdata
      last = (0, 0)
    } else if pending[1] == UInt8(ascii: "!") {
      state = .declaration
      quote = 0
      brackets = 0
    } else {
      state = .tag
      quote = 0
      attributes = 0
      tagBytes = pending.count
      if pending.last == UInt8(ascii: ">") { state = .text }
    }
    emittedAnything = true
    output.append(contentsOf: pending)
    pending.removeAll(keepingCapacity: true)
  }

  private mutating func emit(_ byte: UInt8, into output: inout [UInt8]) {
    // Whitespace and a byte order mark before the XML declaration would make it misplaced
    // anyway; anything else means an instruction from here on is not the declaration.
    if byte > 0x20, byte < 0x80 { emittedAnything = true }
    output.append(byte)
  }

  private mutating func startNote(into output: inout [UInt8]) throws(RemconvError) {
    notes += 1
    if notes > Self.maximumMarkupNotes {
      throw refusal(
        "more than \(Self.maximumMarkupNotes) comments and processing instructions: the limit of one document")
    }
  }

  /// A byte of a dropped comment or instruction: only its line breaks go on.
  private mutating func note(_ byte: UInt8, into output: inout [UInt8]) throws(RemconvError) {
    if byte == 0x0A { output.append(byte) }
    noteBytes += 1
    if noteBytes > Self.maximumMarkupNoteBytes {
      throw refusal(
        "comments and processing instructions larger than \(Self.maximumMarkupNoteBytes) bytes together: the limit of one document"
      )
    }
  }

  private func refusal(_ message: String) -> RemconvError {
    .malformedInput(message, at: SourceLocation(file: documentName, line: tagLine))
  }
}
