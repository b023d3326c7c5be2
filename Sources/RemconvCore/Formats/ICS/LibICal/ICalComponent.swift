internal import CICal
import Foundation

/// Serialises every call into libical: its built-in time-zone table and error state are
/// process-wide, and remconv's tests run readers concurrently.
let libicalLock: NSLock = {
  // libical may be built to abort on errors; remconv wants them as X-LIC-ERROR properties.
  icalerror_set_errors_are_fatal(0)
  return NSLock()
}()

/// An `icalcomponent` tree that this value owns and frees.
final class ICalComponent {
  let handle: OpaquePointer

  /// Takes ownership of a root component (one with no parent).
  init(owning handle: OpaquePointer) {
    self.handle = handle
  }

  /// Parses one component's text; nil when libical finds no component in it.
  /// Call with `libicalLock` held.
  static func parse(_ text: [UInt8]) -> ICalComponent? {
    var terminated = text
    terminated.append(0)
    let root = terminated.withUnsafeBufferPointer { buffer in
      buffer.baseAddress.flatMap { base in
        base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { icalparser_parse_string($0) }
      }
    }
    return root.map(ICalComponent.init(owning:))
  }

  deinit {
    icalcomponent_free(handle)
  }

  /// The component serialised by libical (folded, CRLF). Call with `libicalLock` held.
  var serialized: String {
    guard let buffer = icalcomponent_as_ical_string_r(handle) else { return "" }
    defer { icalmemory_free_buffer(buffer) }
    return String(cString: buffer)
  }
}

/// libical as the product uses it: a source of VTIMEZONEs (the built-in zones, and the offsets of
/// a zone a file defines). It parses no VTODO: remconv's own parser does (docs/formats-ics.md).
enum LibICal {}
