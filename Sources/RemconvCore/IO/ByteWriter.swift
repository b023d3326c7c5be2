import Foundation

/// A buffered writer of bytes: to a file descriptor, or to memory for tests.
public final class ByteWriter {
  private enum Destination {
    case descriptor(Int32, name: String)
    case memory
  }

  private let destination: Destination
  /// The pending bytes: a fixed allocation rather than an array, because an array stored in a
  /// class is checked for exclusive access at run time on every append, which writers make
  /// for every field.
  private let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 << 16)
  private var count = 0
  /// Everything written, for a memory writer.
  public private(set) var memory: [UInt8] = []
  /// The first write that failed. Later flushes throw it again without writing, so that a
  /// caller that ignored one failure (a line printed with `try?`) still learns of it at the
  /// last flush, and nothing is written after a gap.
  public private(set) var failure: RemconvError?

  public init(fileDescriptor: Int32, name: String) {
    destination = .descriptor(fileDescriptor, name: name)
  }

  /// A writer that keeps what it is given in `memory`.
  public init() { destination = .memory }

  deinit { buffer.deallocate() }

  public static func standardOutput() -> ByteWriter { ByteWriter(fileDescriptor: 1, name: "<stdout>") }

  @inline(__always)
  public func write(_ text: String) throws(RemconvError) {
    var text = text
    try text.withUTF8 { bytes in Result { () throws(RemconvError) in try write(buffer: bytes) } }.get()
  }

  @inline(__always)
  public func write(bytes: some Collection<UInt8>) throws(RemconvError) {
    let contiguous = bytes.withContiguousStorageIfAvailable { bytes in
      Result { () throws(RemconvError) in try write(buffer: bytes) }
    }
    if let contiguous { return try contiguous.get() }
    for byte in bytes { try write(byte: byte) }
  }

  @inline(__always)
  public func write(byte: UInt8) throws(RemconvError) {
    if count == buffer.count { try flush() }
    buffer[count] = byte
    count += 1
  }

  /// Copies `bytes` into the buffer, flushing it as it fills.
  public func write(buffer bytes: UnsafeBufferPointer<UInt8>) throws(RemconvError) {
    guard var source = bytes.baseAddress else { return }
    var left = bytes.count
    while left > 0 {
      if count == buffer.count { try flush() }
      let chunk = min(left, buffer.count - count)
      (buffer.baseAddress! + count).initialize(from: source, count: chunk)
      count += chunk
      source += chunk
      left -= chunk
    }
  }

  public func flush() throws(RemconvError) {
    if let failure { throw failure }
    guard count > 0 else { return }
    let pending = UnsafeBufferPointer(rebasing: buffer[..<count])
    switch destination {
    case .memory:
      memory.append(contentsOf: pending)
    case .descriptor(let descriptor, let name):
      var written = 0
      while written < pending.count {
        let result = Foundation.write(descriptor, pending.baseAddress! + written, pending.count - written)
        if result < 0 {
          if errno == EINTR { continue }
          let reason = String(cString: strerror(errno)).lowercased()
          let error = RemconvError.ioFailure("\(name): write failed: \(reason)")
          failure = error
          count = 0
          throw error
        }
        written += result
      }
    }
    count = 0
  }

  /// What was written so far, as text (memory writers).
  public var text: String {
    String(decoding: memory + UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
  }
}
