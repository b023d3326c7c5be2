internal import CICal
import Foundation

@testable import RemconvCore

/// libical as the tests' oracle: what it makes of an input, for `LibICalDifferentialTests` to
/// hold remconv's own parser against. The product never parses a VTODO with libical; this folder
/// is the tests' one place that imports the C module (Scripts/check-boundaries.sh).
enum LibICalOracle {
  /// The product's lock: libical's error state and built-in zones are process-wide, and the
  /// product's readers (VTIMEZONEs) run concurrently in other suites.
  private static var lock: NSLock { libicalLock }

  /// An `X-LIC-ERROR` that libical put into a component.
  struct Problem: Equatable, CustomStringConvertible {
    var message: String
    /// `VALUE-PARSE-ERROR`, `PROPERTY-PARSE-ERROR`, `PARAMETER-NAME-PARSE-ERROR`, …
    var kind: String
    /// True when libical dropped the property (it drops only the parameter for parameter errors).
    var dropsProperty: Bool {
      kind == "VALUE-PARSE-ERROR" || kind == "PROPERTY-PARSE-ERROR" || kind == "COMPONENT-PARSE-ERROR"
    }
    var description: String { "\(kind): \(message)" }
  }

  /// A DATE or DATE-TIME as libical holds it.
  struct Time: Equatable, CustomStringConvertible {
    /// `YYYYMMDD` or `YYYYMMDDTHHMMSS`, with `Z` when UTC.
    var text: String
    var tzid: String?
    var description: String { (tzid.map { "TZID=\($0):" } ?? "") + text }
  }

  /// The values of one VTODO as libical reads them.
  struct Todo {
    var uid: String?
    var summary: String?
    var description: String?
    var status: String?
    var due: Time?
    var dtstart: Time?
    var priority: Int32?
    var completed: Time?
    /// Each RELATED-TO: its value and RELTYPE (nil when absent).
    var relatedTo: [(value: String, type: String?)] = []
    var categories: [String] = []
    var hasRecurrenceID = false
    /// The errors in the VTODO and its sub-components.
    var problems: [Problem] = []
  }

  /// What libical made of a whole input: nil when it made no component of it at all.
  static func todos(in bytes: [UInt8]) -> [Todo]? {
    withParsed(bytes) { root in
      var todos: [Todo] = []
      collectTodos(in: root, into: &todos)
      return todos
    }
  }

  /// The problems libical reports for one component and its sub-components, in order; nil when
  /// it makes no component of the text.
  static func problems(inComponent bytes: [UInt8]) -> [Problem]? {
    withParsed(bytes) { root in
      var problems: [Problem] = []
      collectProblems(in: root, into: &problems)
      return problems
    }
  }

  /// `body` of the tree libical parses from `bytes`, freed afterwards; nil when there is none.
  private static func withParsed<Result>(_ bytes: [UInt8], _ body: (OpaquePointer) -> Result) -> Result? {
    lock.withLock {
      guard let root = parse(bytes) else { return nil }
      defer { icalcomponent_free(root) }
      return body(root)
    }
  }

  private static func parse(_ bytes: [UInt8]) -> OpaquePointer? {
    var terminated = bytes
    terminated.append(0)
    return terminated.withUnsafeBufferPointer { buffer in
      buffer.baseAddress.flatMap { base in
        base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { icalparser_parse_string($0) }
      }
    }
  }

  private static func collectTodos(in component: OpaquePointer, into todos: inout [Todo]) {
    if icalcomponent_isa(component) == ICAL_VTODO_COMPONENT {
      todos.append(todo(component))
      return
    }
    var child = icalcomponent_get_first_component(component, ICAL_ANY_COMPONENT)
    while let current = child {
      collectTodos(in: current, into: &todos)
      child = icalcomponent_get_next_component(component, ICAL_ANY_COMPONENT)
    }
  }

  /// A value's text: UTF-8, else ISO-8859-1, as remconv reads a line that is not UTF-8.
  private static func text(_ pointer: UnsafePointer<CChar>) -> String {
    let bytes = UnsafeBufferPointer(start: pointer, count: strlen(pointer)).map { UInt8(bitPattern: $0) }
    return String(validating: bytes, as: UTF8.self) ?? String(bytes.map { Character(Unicode.Scalar($0)) })
  }

  private static func todo(_ component: OpaquePointer) -> Todo {
    var todo = Todo()
    func first(_ kind: icalproperty_kind) -> OpaquePointer? { icalcomponent_get_first_property(component, kind) }
    todo.uid = first(ICAL_UID_PROPERTY).flatMap(icalproperty_get_uid).map(text)
    todo.summary = first(ICAL_SUMMARY_PROPERTY).flatMap(icalproperty_get_summary).map(text)
    todo.description = first(ICAL_DESCRIPTION_PROPERTY).flatMap(icalproperty_get_description).map(text)
    todo.status = first(ICAL_STATUS_PROPERTY).flatMap { icalproperty_status_to_string(icalproperty_get_status($0)) }
      .map { String(cString: $0) }
    todo.due = first(ICAL_DUE_PROPERTY).map { time(icalproperty_get_due($0), of: $0) }
    todo.dtstart = first(ICAL_DTSTART_PROPERTY).map { time(icalproperty_get_dtstart($0), of: $0) }
    todo.completed = first(ICAL_COMPLETED_PROPERTY).map { time(icalproperty_get_completed($0), of: $0) }
    todo.priority = first(ICAL_PRIORITY_PROPERTY).map(icalproperty_get_priority)
    todo.hasRecurrenceID = first(ICAL_RECURRENCEID_PROPERTY) != nil
    var related = icalcomponent_get_first_property(component, ICAL_RELATEDTO_PROPERTY)
    while let current = related {
      let value = icalproperty_get_relatedto(current).map { String(cString: $0) } ?? ""
      let type = icalproperty_get_first_parameter(current, ICAL_RELTYPE_PARAMETER)
        .flatMap {
          icalparameter_get_xvalue($0) ?? icalparameter_enum_to_string(Int32(icalparameter_get_reltype($0).rawValue))
        }
        .map { String(cString: $0) }
      todo.relatedTo.append((value, type))
      related = icalcomponent_get_next_property(component, ICAL_RELATEDTO_PROPERTY)
    }
    var category = icalcomponent_get_first_property(component, ICAL_CATEGORIES_PROPERTY)
    while let current = category {
      if let value = icalproperty_get_categories(current) { todo.categories.append(text(value)) }
      category = icalcomponent_get_next_property(component, ICAL_CATEGORIES_PROPERTY)
    }
    collectProblems(in: component, into: &todo.problems)
    return todo
  }

  private static func time(_ value: icaltimetype, of property: OpaquePointer) -> Time {
    let text =
      icaltime_as_ical_string_r(value).map { buffer in
        defer { icalmemory_free_buffer(buffer) }
        return String(cString: buffer)
      } ?? ""
    let tzid = icalproperty_get_first_parameter(property, ICAL_TZID_PARAMETER).flatMap(icalparameter_get_tzid)
      .map { String(cString: $0) }
    return Time(text: text, tzid: tzid)
  }

  private static func collectProblems(in component: OpaquePointer, into problems: inout [Problem]) {
    var property = icalcomponent_get_first_property(component, ICAL_XLICERROR_PROPERTY)
    while let current = property {
      let message = icalproperty_get_xlicerror(current).map { String(cString: $0) } ?? ""
      var kind = ""
      if let parameter = icalproperty_get_first_parameter(current, ICAL_XLICERRORTYPE_PARAMETER),
        let name = icalparameter_enum_to_string(Int32(icalparameter_get_xlicerrortype(parameter).rawValue))
      {
        kind = String(cString: name)
      }
      problems.append(Problem(message: message, kind: kind))
      property = icalcomponent_get_next_property(component, ICAL_XLICERROR_PROPERTY)
    }
    var child = icalcomponent_get_first_component(component, ICAL_ANY_COMPONENT)
    while let current = child {
      collectProblems(in: current, into: &problems)
      child = icalcomponent_get_next_component(component, ICAL_ANY_COMPONENT)
    }
  }
}
