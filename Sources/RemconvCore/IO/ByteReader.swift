import Foundation

/// A buffered reader of bytes from a file descriptor, for the streaming format readers.
///
/// Formats parse bytes, not `Character`s: Swift treats `"\r\n"` as one Character, and a
/// byte-level parser is both correct and fast. Memory stays at one buffer whatever the size
/// of the input.
///
/// No text format remconv reads has a NUL byte, and one is the sign of UTF-16, UTF-32 or a
/// binary file given by mistake; C libraries behind some formats would silently cut a string at
/// it. So the reader refuses one (and a UTF-16 or UTF-32 byte order mark) as malformed input
/// naming the line and column, when the format reaches it.
public final class ByteReader {
  public static let bufferSize = 1 << 16

  public let name: String
  private let descriptor: Int32
  private let ownsDescriptor: Bool
  /// A fixed allocation rather than an array: an array stored in a class is checked for
  /// exclusive access at run time on every use, and the parsers use it for every line or run.
  private let buffer: UnsafeMutableBufferPointer<UInt8>
  private var position = 0
  /// Bytes of `buffer` that may be read: `filled`, or fewer when a refused byte follows.
  private var count = 0
  /// Bytes held in `buffer`.
  private var filled = 0
  private var reachedEnd = false
  /// Where `lineEnd(from:)` last found a line feed and a carriage return in this buffer
  /// (`count` when there was none); -1 until it searches.
  private var nextLineFeed = -1
  private var nextCarriageReturn = -1
  /// Bytes consumed before the current buffer, for offsets in messages.
  public private(set) var consumedBefore = 0
  /// Why the input stops being text at `buffer[count]`, once found.
  private var refusal: String?
  /// Line feeds in the buffers already consumed, and the offset where the last line began:
  /// the line and column of a refused byte.
  private var lineFeedsBefore = 0
  private var lineStartBefore = 0

  public init(fileDescriptor: Int32, name: String, ownsDescriptor: Bool) {
    self.descriptor = fileDescriptor
    self.name = name
    self.ownsDescriptor = ownsDescriptor
    self.buffer = .allocate(capacity: Self.bufferSize)
  }

  /// A reader over in-memory bytes (tests, and inputs already in memory).
  public init(bytes: [UInt8], name: String) {
    self.descriptor = -1
    self.ownsDescriptor = false
    self.name = name
    self.buffer = .allocate(capacity: max(bytes.count, 1))
    _ = self.buffer.initialize(from: bytes)
    self.count = bytes.count
    self.filled = bytes.count
    self.reachedEnd = true
    screen(from: 0)
  }

  deinit {
    buffer.deallocate()
    if ownsDescriptor { close(descriptor) }
  }

  /// `followingLinks: false` refuses a symbolic link (`O_NOFOLLOW`): for the files of a
  /// folder, which must not lead outside it.
  public static func open(path: String, followingLinks: Bool = true) throws(RemconvError) -> ByteReader {
    let descriptor = Foundation.open(path, O_RDONLY | O_CLOEXEC | (followingLinks ? 0 : O_NOFOLLOW))
    guard descriptor >= 0 else {
      let reason = errno == ELOOP && !followingLinks ? "is a symbolic link" : String(cString: strerror(errno))
      throw .inputMissing("\(path): \(reason.lowercased())")
    }
    var status = stat()
    if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
      Foundation.close(descriptor)
      throw .invalidInput("\(path): is a directory, not a file")
    }
    return ByteReader(fileDescriptor: descriptor, name: path, ownsDescriptor: true)
  }

  /// The offset of the next byte from the start of the input.
  public var offset: Int { consumedBefore + position }

  /// The bytes consumed since `offset`, while the buffer still holds them all (nil once a
  /// refill has dropped some): a reader keeps a run of lines it may meet again.
  public func bufferedBytes(since offset: Int) -> [UInt8]? {
    guard offset >= consumedBefore, offset <= self.offset else { return nil }
    return Array(UnsafeBufferPointer(rebasing: buffer[(offset - consumedBefore)..<position]))
  }

  /// Consumes `expected` when the buffer holds it next, and after it a byte that does not
  /// continue its last line (no space or tab, no line feed after a carriage return); false,
  /// with nothing consumed, otherwise (also when the buffer ends first).
  public func consume(ifBufferedNext expected: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let last = expected.last, position + expected.count < count else { return false }
    let after = buffer[position + expected.count]
    guard after != 0x20, after != 0x09, last != 0x0D || after != 0x0A,
      memcmp(buffer.baseAddress! + position, expected.baseAddress!, expected.count) == 0
    else { return false }
    position += expected.count
    return true
  }

  /// Goes back to the first byte, for a second reading of an input held in memory or in a
  /// file that can seek (a regular file, a spooled input): the iCalendar pre-scan reads a
  /// file again the thorough way when its quick reading meets something it does not judge.
  public func rewind() throws(RemconvError) {
    position = 0
    consumedBefore = 0
    nextLineFeed = -1
    nextCarriageReturn = -1
    lineFeedsBefore = 0
    lineStartBefore = 0
    // Bytes in memory are all in the buffer, screened once; a file is read again.
    guard descriptor >= 0 else { return }
    guard lseek(descriptor, 0, SEEK_SET) == 0 else {
      throw .ioFailure("\(name): cannot read the input again: \(String(cString: strerror(errno)).lowercased())")
    }
    count = 0
    filled = 0
    reachedEnd = false
    refusal = nil
  }

  /// The next byte without consuming it.
  @inline(__always)
  public func peek() throws(RemconvError) -> UInt8? {
    if position < count { return buffer[position] }
    guard try refill() else { return nil }
    return buffer[position]
  }

  /// The next byte.
  @inline(__always)
  public func next() throws(RemconvError) -> UInt8? {
    if position < count {
      defer { position += 1 }
      return buffer[position]
    }
    guard try refill() else { return nil }
    defer { position += 1 }
    return buffer[position]
  }

  /// Reads one line, without its terminator. A line ends at LF, CRLF or a lone CR. Nil at the
  /// end of input. A line longer than `limit` bytes is an error, not an allocation.
  public func readLine(limit: Int = InputLimits.maximumLineLength) throws(RemconvError) -> [UInt8]? {
    var line: [UInt8] = []
    return try appendLine(to: &line, limit: limit) ? line : nil
  }

  /// Reads one line like `readLine`, appending it to `line` (whose storage a caller may reuse);
  /// false (nothing appended) at the end of input. The limit applies to the bytes appended.
  public func appendLine(to line: inout [UInt8], limit: Int = InputLimits.maximumLineLength) throws(RemconvError)
    -> Bool
  {
    let startCount = line.count
    var sawAnything = false
    while true {
      if position >= count {
        guard try refill() else { return sawAnything }
      }
      sawAnything = true
      let start = position
      let end = lineEnd(from: start)
      line.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<end]))
      position = end
      if line.count - startCount > limit {
        throw .invalidInput("a line is longer than the limit of \(limit) bytes", at: location(of: position))
      }
      if end < count {
        let terminator = buffer[end]
        position += 1
        if terminator == 0x0D, try peek() == 0x0A { position += 1 }
        return true
      }
    }
  }

  /// Consumes one line like `appendLine` without copying it anywhere (a reader that needs few
  /// lines of a file passes over the others); false at the end of input. No limit applies:
  /// nothing is allocated.
  public func skipLine() throws(RemconvError) -> Bool {
    var sawAnything = false
    while true {
      if position >= count {
        guard try refill() else { return sawAnything }
      }
      sawAnything = true
      let end = lineEnd(from: position)
      position = end
      if end < count {
        let terminator = buffer[end]
        position += 1
        if terminator == 0x0D, try peek() == 0x0A { position += 1 }
        return true
      }
    }
  }

  /// The index of the first CR or LF in `buffer[start..<count]`, or `count`. Found with
  /// `memchr` (vectorised in libc; a byte-by-byte loop was a twentieth of an iCalendar
  /// conversion), and remembered: a search from before the byte found last finds it again, so
  /// each byte is searched at most once for each, whichever line ending the input uses.
  private func lineEnd(from start: Int) -> Int {
    let base = buffer.baseAddress!
    func find(_ byte: Int32) -> Int {
      memchr(base + start, byte, count - start).map { $0.assumingMemoryBound(to: UInt8.self) - base } ?? count
    }
    if nextLineFeed < start { nextLineFeed = find(0x0A) }
    if nextCarriageReturn < start { nextCarriageReturn = find(0x0D) }
    return min(nextLineFeed, nextCarriageReturn)
  }

  /// Hands the buffered, unread bytes to `body`, refilling as needed, until `body` says it is
  /// done. `body` returns how many bytes it consumed (all of them unless done). Returns false
  /// when the input ended before `body` was done. Scanners use this to run tight loops over
  /// the buffer instead of calling `next()` per byte.
  public func scan(
    _ body: (UnsafeBufferPointer<UInt8>) throws(RemconvError) -> (consumed: Int, done: Bool)
  ) throws(RemconvError) -> Bool {
    while true {
      if position >= count {
        guard try refill() else { return false }
      }
      let start = position
      let end = count
      let result = try body(UnsafeBufferPointer(rebasing: buffer[start..<end]))
      position += result.consumed
      if result.done { return true }
    }
  }

  /// Reads everything that is left (bounded by `limit`).
  public func readAll(limit: Int = InputLimits.maximumItemSize) throws(RemconvError) -> [UInt8] {
    var result: [UInt8] = []
    while true {
      if position < count {
        result.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[position..<count]))
        position = count
      }
      if result.count > limit {
        throw .invalidInput("\(name): larger than the limit of \(limit) bytes")
      }
      guard try refill() else { return result }
    }
  }

  /// The first `length` bytes of the input, without consuming them (for format detection).
  /// Only valid before anything was read.
  public func peekPrefix(_ length: Int) throws(RemconvError) -> [UInt8] {
    precondition(consumedBefore == 0 && position == 0, "peekPrefix after reading")
    nextLineFeed = -1
    nextCarriageReturn = -1
    while filled < min(length, buffer.count), !reachedEnd {
      let received = read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
      if received < 0 {
        if errno == EINTR { continue }
        throw .ioFailure("\(name): read failed: \(String(cString: strerror(errno)).lowercased())")
      }
      if received == 0 {
        reachedEnd = true
      } else {
        let start = filled
        filled += received
        if refusal == nil {
          count = filled
          screen(from: start)
        }
      }
    }
    return Array(UnsafeBufferPointer(rebasing: buffer[0..<min(filled, length)]))
  }

  private func refill() throws(RemconvError) -> Bool {
    if let refusal { throw refusalError(refusal) }
    guard !reachedEnd else { return false }
    countLineFeeds()
    consumedBefore += filled
    position = 0
    count = 0
    filled = 0
    nextLineFeed = -1
    nextCarriageReturn = -1
    while true {
      let received = read(descriptor, buffer.baseAddress, buffer.count)
      if received < 0 {
        if errno == EINTR { continue }
        let reason = String(cString: strerror(errno))
        throw .ioFailure("\(name): read failed: \(reason.lowercased())")
      }
      if received == 0 {
        reachedEnd = true
        return false
      }
      count = received
      filled = received
      screen(from: 0)
      if count == 0, let refusal { throw refusalError(refusal) }
      return true
    }
  }

  /// Looks for what makes the input not UTF-8 text in `buffer[start..<filled]`: a NUL byte, or
  /// (at the very start) a UTF-16 or UTF-32 byte order mark. Reading (`count`) stops before it.
  private func screen(from start: Int) {
    guard refusal == nil else { return }
    if consumedBefore == 0, start < 2, filled >= 2,
      (buffer[0] == 0xFF && buffer[1] == 0xFE) || (buffer[0] == 0xFE && buffer[1] == 0xFF)
    {
      refusal =
        "the input is UTF-16 or UTF-32 (it starts with a byte order mark); remconv reads UTF-8: convert it first, e.g. with iconv -f UTF-16 -t UTF-8"
      count = 0
      return
    }
    let base = buffer.baseAddress!
    if start < filled, let hit = memchr(base + start, 0, filled - start) {
      let found = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
      refusal = "a NUL byte: this is not UTF-8 text (UTF-16, or a binary file?)"
      count = found
    }
  }

  /// Adds the line feeds of the buffer about to be replaced to the running count.
  private func countLineFeeds() {
    let (lineFeeds, lastLineStart) = lineFeeds(before: count)
    lineFeedsBefore += lineFeeds
    if let lastLineStart { lineStartBefore = consumedBefore + lastLineStart }
  }

  /// The line feeds in `buffer[0..<end]`, and the index just after the last one.
  private func lineFeeds(before end: Int) -> (count: Int, lastLineStart: Int?) {
    let base = buffer.baseAddress!
    var found = 0
    var lastLineStart: Int?
    var index = 0
    while index < end, let hit = memchr(base + index, 0x0A, end - index) {
      found += 1
      index = UnsafeRawPointer(hit) - UnsafeRawPointer(base) + 1
      lastLineStart = index
    }
    return (found, lastLineStart)
  }

  /// The line and column of `buffer[index]`, counting line feeds.
  private func location(of index: Int) -> SourceLocation {
    let (lineFeeds, lastLineStart) = lineFeeds(before: index)
    let lineStart = lastLineStart.map { consumedBefore + $0 } ?? lineStartBefore
    return SourceLocation(
      file: name, line: lineFeedsBefore + lineFeeds + 1, column: consumedBefore + index - lineStart + 1)
  }

  /// The error for a refused byte at `buffer[count]`.
  private func refusalError(_ reason: String) -> RemconvError {
    .malformedInput(reason, at: location(of: count))
  }
}

/// Limits that protect remconv from hostile input; hitting one is an error naming the input.
public enum InputLimits {
  /// The longest physical line a line-based reader accepts (iCalendar, JSON Lines).
  public static let maximumLineLength = 16 << 20
  /// The largest single field, value or string (a CSV cell, a JSON string, an unfolded
  /// iCalendar property).
  public static let maximumFieldSize = 16 << 20
  /// The deepest nesting of JSON containers, OPML outlines or iCalendar components.
  public static let maximumNestingDepth = 256
  /// The most items (lists, reminders, skipped components) one import or conversion reads.
  /// Readers hold one item, but a little state grows with the input: the keys of UIDs derived
  /// for sources without UIDs, subtasks waiting for a parent that comes later, lists. This
  /// bounds that state and a runaway pipeline; it is ten times the largest benchmark.
  public static let maximumItemCount = 10_000_000
  /// The largest single item (one reminder with everything it holds), measured in one place
  /// for every reader: the JSON Lines line remconv writes for it, its list's members included
  /// (`ModelBoundaryReader`). What one import accepts, an export writes and a later import reads
  /// back. The same as the longest line, so that an item's JSON Lines line always fits.
  public static let maximumItemSize = 16 << 20
  /// How many times `maximumItemSize` the raw bytes of one item may take in a format that
  /// spells it longer than JSON Lines: iCalendar escapes at most double a text (`,` and `;`
  /// are one byte in JSON, `\,` and `\;` in iCalendar), and folding adds three bytes in 75.
  public static let rawItemSizeMultiple = 3
  /// A memory-safety cap on the bytes a reader holds for one item before it is decoded and
  /// measured (an iCalendar component with its overrides, an unfolded content line, a vdir
  /// item file): `rawItemSizeMultiple` times the item limit, so that every writer's output of
  /// an item the item limit accepts reads back, and the item limit then decides.
  public static let maximumRawItemSize = maximumItemSize * rawItemSizeMultiple
  /// The largest metadata file of a vdir collection (`displayname`, `color`, remconv's id,
  /// symbol and creation time): a name or a colour, never more. `remconv-extra` holds a list's
  /// `extra` and may be as large as an item.
  public static let maximumVdirMetadataSize = 4 << 10
}
