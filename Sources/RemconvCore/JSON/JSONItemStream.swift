/// Streams the items of a JSON document made of containers of items, one item at a time.
///
/// Other apps' JSON exports nest their tasks in envelopes: Microsoft Graph pages
/// (`{"value":[…]}`), lists holding tasks (`{"displayName":…,"tasks":[…]}`), Google Takeout
/// (`{"items":[{"title":…,"items":[…]}]}`), or a bare array or a sequence of objects
/// (Taskwarrior). This stream walks any of those shapes:
///
/// ```
/// document  := node | "[" node, … "]" | node node …   (the last only with `allowsSequence`)
/// node      := item | container
/// container := "{" members …, itemsKey: "[" node, … "]", members … "}"
/// ```
/// An object becomes a container when one of its members named in `itemsKeys` holds an array;
/// any other object is an item and is parsed whole. Only the current item and the members of
/// the containers around it are held in memory.
public final class JSONItemStream {
  /// What the stream found next.
  public enum Event {
    /// A container's items array begins. `members` are the members met before it (a container
    /// whose items come before its name sees them only in `containerEnd`).
    case containerStart(members: [String: JSONValue], itemsKey: String, depth: Int, SourceLocation)
    /// A container ended; `trailing` are its members after the items array.
    case containerEnd(trailing: [String: JSONValue], depth: Int)
    /// An item, with the number of containers around it.
    case item(members: [String: JSONValue], depth: Int, SourceLocation)
  }

  public let parser: JSONParser
  /// Told of each member name that comes twice in a container, at any depth, with the pointer
  /// from that object, and of an item's that the reader did not take with
  /// `keepItemDuplicates`; nil: not looked for.
  public var onDuplicateKey: ((JSONDuplicateKey) -> Void)? {
    didSet {
      parser.onDuplicateKey = onDuplicateKey.map { _ in { [unowned self] in self.found.append($0) } }
    }
  }
  /// What the object being read has had twice so far.
  private var found: [JSONDuplicateKey] = []
  /// The repeated names of the last `.item`, until the reader takes them.
  public private(set) var itemDuplicates: [JSONDuplicateKey] = []
  private let itemsKeys: Set<String>
  private let allowsSequence: Bool

  private enum Frame {
    /// Inside an array of nodes at `depth`.
    case array(ElementCursor, depth: Int)
    /// Inside a container object after its items array.
    case containerRest(MemberCursor, members: [String: JSONValue], depth: Int)
  }
  private var stack: [Frame] = []
  private var started = false
  private var finished = false

  /// - Parameters:
  ///   - itemsKeys: the member names whose array values hold nodes (`value`, `items`, `tasks`).
  ///   - allowsSequence: accept several top-level objects one after another, each optionally
  ///     followed by a comma (Taskwarrior's one-object-per-line export).
  public init(parser: JSONParser, itemsKeys: Set<String>, allowsSequence: Bool = false) {
    self.parser = parser
    self.itemsKeys = itemsKeys
    self.allowsSequence = allowsSequence
  }

  public func next() throws(RemconvError) -> Event? {
    report(&itemDuplicates)
    if finished { return nil }
    if !started {
      started = true
      switch try parser.peekToken() {
      case nil: throw parser.error("the input is empty")
      case UInt8(ascii: "["):
        _ = try parser.reader.next()
        stack.append(.array(ElementCursor(), depth: 0))
      case UInt8(ascii: "{"):
        return try readObject(depth: 0)
      default:
        throw parser.error("expected a JSON object or array")
      }
    }
    while true {
      guard let frame = stack.popLast() else {
        if allowsSequence {
          // A comma after an object is tolerated: files joined by hand often have one.
          _ = try parser.consume(UInt8(ascii: ","))
          if let byte = try parser.peekToken() {
            guard byte == UInt8(ascii: "{") else { throw parser.error("expected a JSON object") }
            return try readObject(depth: 0)
          }
        }
        if try parser.peekToken() != nil { throw parser.error("unexpected text after the document") }
        finished = true
        return nil
      }
      switch frame {
      case .array(var cursor, let depth):
        guard try cursor.nextElement(parser) else { continue }
        stack.append(.array(cursor, depth: depth))
        guard try parser.peekToken() == UInt8(ascii: "{") else {
          throw parser.error("expected a JSON object in the array")
        }
        return try readObject(depth: depth)
      case .containerRest(var cursor, var members, let depth):
        while let key = try cursor.nextMember(parser) {
          try readMember(key, at: cursor.keyLocation, depth: depth, into: &members)
        }
        report(&found)
        return .containerEnd(trailing: members, depth: depth)
      }
    }
  }

  /// Reads an object at `depth` up to its items array (a container) or its end (an item).
  private func readObject(depth: Int) throws(RemconvError) -> Event {
    let location = parser.location
    let start = parser.reader.offset
    try parser.expect(UInt8(ascii: "{"), "a JSON object")
    var cursor = MemberCursor()
    var members: [String: JSONValue] = [:]
    while let key = try cursor.nextMember(parser) {
      if itemsKeys.contains(key), try parser.peekToken() == UInt8(ascii: "[") {
        guard depth < InputLimits.maximumNestingDepth / 2 else {
          throw parser.error("nested deeper than the limit of \(InputLimits.maximumNestingDepth)")
        }
        _ = try parser.reader.next()
        stack.append(.containerRest(cursor, members: [:], depth: depth))
        stack.append(.array(ElementCursor(), depth: depth + 1))
        report(&found)
        return .containerStart(members: members, itemsKey: key, depth: depth, location)
      }
      try readMember(key, at: cursor.keyLocation, depth: depth, into: &members)
      // Each member is bounded as it is read; together they are one item.
      if parser.reader.offset - start > InputLimits.maximumItemSize {
        throw .invalidInput(
          "an object is larger than the limit of \(InputLimits.maximumItemSize) bytes of one item", at: location)
      }
    }
    if !found.isEmpty {
      itemDuplicates = found
      found = []
    }
    return .item(members: members, depth: depth, location)
  }

  /// Takes the repeated names of the last `.item`: each is reported with `uid` and its earlier
  /// value kept in `extra.duplicateKeys` of what the item became.
  public func keepItemDuplicates(in extra: inout [String: JSONValue], uid: String?, diagnostics: DiagnosticLog) {
    guard !itemDuplicates.isEmpty else { return }
    for duplicate in itemDuplicates {
      duplicate.report(to: diagnostics, uid: uid, keptIn: "extra.duplicateKeys")
    }
    JSONDuplicateKey.keep(itemDuplicates, in: &extra)
    itemDuplicates = []
  }

  private func report(_ duplicates: inout [JSONDuplicateKey]) {
    guard !duplicates.isEmpty else { return }
    if let onDuplicateKey { duplicates.forEach(onDuplicateKey) }
    duplicates = []
  }

  /// Parses one member's value into `members`; a name met before in the object is reported.
  private func readMember(
    _ key: String, at keyLocation: SourceLocation?, depth: Int, into members: inout [String: JSONValue]
  ) throws(RemconvError) {
    guard onDuplicateKey != nil else {
      members[key] = try parser.parseValue(depth: depth * 2 + 1)
      return
    }
    // Pointers are made only for what repeats: a clean member costs a count comparison.
    let before = found.count
    let value = try parser.parseValue(depth: depth * 2 + 1)
    if found.count > before {
      for index in before..<found.count { found[index] = found[index].nested(under: key) }
    }
    if let dropped = members.updateValue(value, forKey: key) {
      found.append(
        JSONDuplicateKey(
          pointer: JSONDuplicateKey.pointer("", appending: key), key: key, dropped: dropped,
          location: keyLocation ?? parser.location))
    }
  }
}

/// Steps through the members of an object whose `{` was consumed.
struct MemberCursor {
  private var first = true
  /// Where the last member's name began.
  private(set) var keyLocation: SourceLocation?

  /// The next member's name with its `:` consumed, or nil after the closing `}`.
  mutating func nextMember(_ parser: JSONParser) throws(RemconvError) -> String? {
    if try parser.consume(UInt8(ascii: "}")) { return nil }
    if !first { try parser.expect(UInt8(ascii: ","), "',' or '}' in an object") }
    first = false
    guard try parser.peekToken() == UInt8(ascii: "\"") else { throw parser.error("expected a member name in quotes") }
    if parser.onDuplicateKey != nil { keyLocation = parser.location }
    let key = try parser.parseString()
    try parser.expect(UInt8(ascii: ":"), "':' after a member name")
    return key
  }
}

/// Steps through the elements of an array whose `[` was consumed.
struct ElementCursor {
  private var first = true

  /// True when an element follows (its separator consumed), false after the closing `]`.
  mutating func nextElement(_ parser: JSONParser) throws(RemconvError) -> Bool {
    if try parser.consume(UInt8(ascii: "]")) { return false }
    if !first { try parser.expect(UInt8(ascii: ","), "',' or ']' in an array") }
    first = false
    return true
  }
}

/// What the first bytes of a JSON file show, for format detection.
///
/// Scans the head token by token (strings are skipped whole, so a note containing
/// `"status":` is not mistaken for a key) and collects the member names it sees and the
/// string values that follow them. A head cut off mid-string is fine: the partial token is
/// ignored.
public struct JSONHead {
  /// The first significant byte (`{` or `[` for JSON).
  public let firstByte: UInt8?
  /// Member names, in the order met.
  public let keys: [String]
  /// Each member whose value is a string, with that value, in the order met.
  public let stringMembers: [(key: String, value: String)]

  public init(_ head: [UInt8]) {
    var keys: [String] = []
    var members: [(key: String, value: String)] = []
    /// The member name just read, while its value is awaited.
    var awaitingValue: String?
    var index = 0
    var first: UInt8?
    let count = head.count
    // Skip a UTF-8 byte-order mark.
    if count >= 3, head[0] == 0xEF, head[1] == 0xBB, head[2] == 0xBF { index = 3 }
    while index < count {
      let byte = head[index]
      if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
        index += 1
        continue
      }
      if first == nil { first = byte }
      guard byte == UInt8(ascii: "\"") else {
        if byte != UInt8(ascii: ":") { awaitingValue = nil }
        index += 1
        continue
      }
      var end = index + 1
      var bytes: [UInt8] = []
      var closed = false
      while end < count {
        let current = head[end]
        if current == UInt8(ascii: "\\") {
          if end + 1 < count { bytes.append(head[end + 1]) }
          end += 2
          continue
        }
        if current == UInt8(ascii: "\"") {
          closed = true
          break
        }
        bytes.append(current)
        end += 1
      }
      guard closed else { break }
      let text = String(decoding: bytes, as: UTF8.self)
      var after = end + 1
      while after < count, [0x20, 0x09, 0x0A, 0x0D].contains(head[after]) { after += 1 }
      if after < count, head[after] == UInt8(ascii: ":") {
        keys.append(text)
        awaitingValue = text
      } else {
        if let key = awaitingValue { members.append((key, text)) }
        awaitingValue = nil
      }
      index = end + 1
    }
    firstByte = first
    self.keys = keys
    stringMembers = members
  }

  public var startsAsJSON: Bool { firstByte == UInt8(ascii: "{") || firstByte == UInt8(ascii: "[") }

  public func hasKey(_ key: String) -> Bool { keys.contains(key) }

  /// The string values given to `key`.
  public func values(of key: String) -> [String] {
    stringMembers.filter { $0.key == key }.map(\.value)
  }
}
