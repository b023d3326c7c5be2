import Foundation
internal import CICal

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

/// The `X-LIC-ERROR` properties libical inserts where it could not parse something.
struct ICalProblem: Sendable, Equatable {
  /// libical's whole message.
  var message: String
  /// The `X-LIC-ERRORTYPE` (`VALUE-PARSE-ERROR`, `PROPERTY-PARSE-ERROR`, ...).
  var kind: String
  /// The component libical put the error in (`VTODO`, `VALARM`).
  var component: String

  /// True when libical dropped the property or line it complains about (it only drops a
  /// parameter for parameter errors).
  var dropsProperty: Bool {
    kind == "VALUE-PARSE-ERROR" || kind == "PROPERTY-PARSE-ERROR" || kind == "COMPONENT-PARSE-ERROR"
  }

  /// The text libical quotes after its message (the rejected value or line), maybe empty.
  var quotedText: String {
    guard let separator = message.range(of: ": ") else { return "" }
    return String(message[separator.upperBound...])
  }

  /// The property the message names (`in DTSTART property`, `for PRIORITY property`,
  /// `property name: LAST-MOD`).
  var propertyName: String? {
    if message.hasPrefix("Parse error in property name") { return quotedText.uppercased() }
    for marker in [" in ", " for "] {
      var searchStart = message.startIndex
      while let found = message.range(of: marker, range: searchStart..<message.endIndex) {
        let rest = message[found.upperBound...]
        if let space = rest.firstIndex(of: " "), rest[space...].hasPrefix(" property") {
          return String(rest[..<space]).uppercased()
        }
        searchStart = found.upperBound
      }
    }
    return nil
  }
}

/// libical as remconv uses it: a validator of components and a source of VTIMEZONEs.
enum LibICal {
  /// The problems libical reports for one component (and its sub-components), in order; nil
  /// when libical cannot make a component of the text at all.
  static func problems(inComponent text: [UInt8]) -> [ICalProblem]? {
    libicalLock.withLock {
      guard let root = ICalComponent.parse(text) else { return nil }
      var problems: [ICalProblem] = []
      collectProblems(in: root.handle, into: &problems)
      return problems
    }
  }

  private static func collectProblems(in component: OpaquePointer, into problems: inout [ICalProblem]) {
    // libical has no name for a kind it could not classify (`BEGIN:` with no name, found by
    // the fuzz harness): NULL, not a string.
    let componentName = icalcomponent_kind_to_string(icalcomponent_isa(component)).map { String(cString: $0) } ?? "unnamed component"
    var property = icalcomponent_get_first_property(component, ICAL_XLICERROR_PROPERTY)
    while let current = property {
      let message = icalproperty_get_xlicerror(current).map { String(cString: $0) } ?? ""
      var kind = ""
      if let parameter = icalproperty_get_first_parameter(current, ICAL_XLICERRORTYPE_PARAMETER),
        let name = icalparameter_enum_to_string(Int32(icalparameter_get_xlicerrortype(parameter).rawValue))
      {
        kind = String(cString: name)
      }
      problems.append(ICalProblem(message: message, kind: kind, component: componentName))
      property = icalcomponent_get_next_property(component, ICAL_XLICERROR_PROPERTY)
    }
    var child = icalcomponent_get_first_component(component, ICAL_ANY_COMPONENT)
    while let current = child {
      collectProblems(in: current, into: &problems)
      child = icalcomponent_get_next_component(component, ICAL_ANY_COMPONENT)
    }
  }
}
