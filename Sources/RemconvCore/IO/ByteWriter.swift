import Foundation

/// A buffered writer of bytes: to a file descriptor, or to memory for tests.
public final class ByteWriter {
  private enum Destination {
    case descriptor(Int32, name: String)
    case memory
  }

  private let destination: Destination
  private var buffer: [UInt8] = []
  private let flushThreshold = 1 << 16
  /// Everything written, for a memory writer.
  public private(set) var memory: [UInt8] = []

  public init(fileDescriptor: Int32, name: String) {
    destination = .descriptor(fileDescriptor, name: name)
    buffer.reserveCapacity(flushThreshold * 2)
  }

  /// A writer that keeps what it is given in `memory`.
  public init() { destination = .memory }

  public static func standardOutput() -> ByteWriter { ByteWriter(fileDescriptor: 1, name: "<stdout>") }

  @inline(__always)
  public func write(_ text: String) throws(RemconvError) {
    var text = text
    text.withUTF8 { buffer.append(contentsOf: $0) }
    if buffer.count >= flushThreshold { try flush() }
  }

  @inline(__always)
  public func write(bytes: some Collection<UInt8>) throws(RemconvError) {
    buffer.append(contentsOf: bytes)
    if buffer.count >= flushThreshold { try flush() }
  }

  @inline(__always)
  public func write(byte: UInt8) throws(RemconvError) {
    buffer.append(byte)
    if buffer.count >= flushThreshold { try flush() }
  }

  public func flush() throws(RemconvError) {
    guard !buffer.isEmpty else { return }
    switch destination {
    case .memory:
      memory.append(contentsOf: buffer)
    case .descriptor(let descriptor, let name):
      var written = 0
      while written < buffer.count {
        let result = buffer.withUnsafeBytes { raw -> Int in
          guard let base = raw.baseAddress else { return 0 }
          return Foundation.write(descriptor, base + written, raw.count - written)
        }
        if result < 0 {
          if errno == EINTR { continue }
          let reason = String(cString: strerror(errno)).lowercased()
          throw .ioFailure("\(name): write failed: \(reason)")
        }
        written += result
      }
    }
    buffer.removeAll(keepingCapacity: true)
  }

  /// What was written so far, as text (memory writers).
  public var text: String {
    String(decoding: memory + buffer, as: UTF8.self)
  }
}
