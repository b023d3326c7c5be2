import Foundation

/// An element name with its namespace: servers choose their own prefixes (`D:`, `d:`, none),
/// so names are compared by namespace URI and local name only.
struct DAVName: Hashable, Sendable, CustomStringConvertible {
  var namespace: String
  var local: String

  static let davNamespace = "DAV:"
  static let calDAVNamespace = "urn:ietf:params:xml:ns:caldav"
  static let calendarServerNamespace = "http://calendarserver.org/ns/"
  static let appleNamespace = "http://apple.com/ns/ical/"

  static func dav(_ local: String) -> DAVName { DAVName(namespace: davNamespace, local: local) }
  static func calDAV(_ local: String) -> DAVName { DAVName(namespace: calDAVNamespace, local: local) }

  static let multistatus = dav("multistatus")
  static let response = dav("response")
  static let href = dav("href")
  static let status = dav("status")
  static let propstat = dav("propstat")
  static let prop = dav("prop")
  static let syncToken = dav("sync-token")
  static let resourceType = dav("resourcetype")
  static let displayName = dav("displayname")
  static let getETag = dav("getetag")
  static let currentUserPrincipal = dav("current-user-principal")
  static let collection = dav("collection")
  static let validSyncToken = dav("valid-sync-token")
  static let calendar = calDAV("calendar")
  static let calendarHomeSet = calDAV("calendar-home-set")
  static let calendarData = calDAV("calendar-data")
  static let supportedComponents = calDAV("supported-calendar-component-set")
  static let component = calDAV("comp")
  static let getCTag = DAVName(namespace: calendarServerNamespace, local: "getctag")
  static let calendarColor = DAVName(namespace: appleNamespace, local: "calendar-color")

  var description: String { "{\(namespace)}\(local)" }
}

/// An element of a WebDAV answer, read whole: answers are a few kilobytes to a few megabytes
/// (one batch of items), and a tree lets each property be read by name.
struct DAVElement: Sendable {
  var name: DAVName
  var attributes: [String: String]
  var children: [DAVElement]
  /// The element's own character data (CDATA included), not its children's.
  var text: String

  func child(_ name: DAVName) -> DAVElement? { children.first { $0.name == name } }
  func children(_ name: DAVName) -> [DAVElement] { children.filter { $0.name == name } }

  /// The text with surrounding white space removed (servers indent their XML).
  var trimmedText: String { text.trimmingCharacters(in: .whitespacesAndNewlines) }

  /// Parses a whole document with libxml2 (through `XMLStreamReader`: no entities expanded, no
  /// network, libxml2's limits kept).
  ///
  /// - Throws: `SyncError.malformedResponse` naming `url` and the line, for a body that is not
  ///   well-formed XML (a truncated answer included).
  static func parse(_ body: [UInt8], from url: String) throws(SyncError) -> DAVElement {
    do {
      let reader = try XMLStreamReader(bytes: ByteReader(bytes: body, name: url), documentName: url)
      var open: [DAVElement] = []
      var root: DAVElement?
      while let event = try reader.next() {
        switch event {
        case .start(let tag):
          var attributes: [String: String] = [:]
          for attribute in tag.attributes { attributes[attribute.localName] = attribute.value }
          open.append(
            DAVElement(
              name: DAVName(namespace: tag.namespace ?? "", local: tag.localName), attributes: attributes,
              children: [], text: ""))
        case .text(let text, _):
          if !open.isEmpty { open[open.count - 1].text += text }
        case .end:
          guard let element = open.popLast() else { continue }
          if open.isEmpty { root = element } else { open[open.count - 1].children.append(element) }
        }
      }
      guard let root else { throw RemconvError.ioFailure("the document is empty") }
      return root
    } catch {
      throw .malformedResponse("the server sent malformed XML: \(error)")
    }
  }
}

/// One `DAV:response` of a multistatus: a resource, its status or the properties found.
struct DAVResponse: Sendable {
  /// The href as the server wrote it (a path or a full URL, percent-encoded).
  var href: String
  /// The status of the resource as a whole (`404` for a deletion in a sync report), when given.
  var status: Int?
  /// The properties the server answered with 200, by name.
  var properties: [DAVName: DAVElement]

  func property(_ name: DAVName) -> DAVElement? { properties[name] }
}

/// A `207 Multi-Status` answer (RFC 4918 §13, RFC 6578 §6.4 for its sync token).
struct Multistatus: Sendable {
  var responses: [DAVResponse]
  /// The token of a `sync-collection` report.
  var syncToken: String?

  /// Reads a multistatus body.
  ///
  /// - Throws: `SyncError.malformedResponse` when the body is not XML, its root is not
  ///   `DAV:multistatus`, or a response has no href.
  init(parsing body: [UInt8], from url: String) throws(SyncError) {
    let root = try DAVElement.parse(body, from: url)
    guard root.name == .multistatus else {
      throw .malformedResponse("\(url): expected a DAV multistatus, the server sent <\(root.name.local)>")
    }
    var responses: [DAVResponse] = []
    for element in root.children(.response) {
      guard let href = element.child(.href)?.trimmedText, !href.isEmpty else {
        throw .malformedResponse("\(url): a multistatus response without an href")
      }
      var properties: [DAVName: DAVElement] = [:]
      for propstat in element.children(.propstat) {
        guard Self.statusCode(propstat.child(.status)?.trimmedText) == 200 else { continue }
        for property in propstat.child(.prop)?.children ?? [] { properties[property.name] = property }
      }
      responses.append(
        DAVResponse(
          href: href, status: element.child(.status).flatMap { Self.statusCode($0.trimmedText) },
          properties: properties))
    }
    self.responses = responses
    syncToken = root.child(.syncToken)?.trimmedText
  }

  /// The code of an HTTP status line (`HTTP/1.1 404 Not Found` → 404).
  static func statusCode(_ line: String?) -> Int? {
    guard let line else { return nil }
    let parts = line.split(separator: " ")
    guard parts.count >= 2 else { return nil }
    return Int(parts[1])
  }
}

/// Builds the small XML request bodies of CalDAV, with every value escaped.
enum DAVRequestBody {
  static let declaration = #"<?xml version="1.0" encoding="utf-8"?>"#
  static let namespaces =
    #"xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:CS="http://calendarserver.org/ns/" "#
    + #"xmlns:A="http://apple.com/ns/ical/""#

  /// `PROPFIND` of the given properties, written as prefixed names (`D:displayname`).
  static func propfind(_ properties: [String]) -> [UInt8] {
    let props = properties.map { "<\($0)/>" }.joined()
    return Array("\(declaration)<D:propfind \(namespaces)><D:prop>\(props)</D:prop></D:propfind>".utf8)
  }

  /// Every VTODO's ETag (RFC 4791 §7.8): a component filter and nothing else, since servers'
  /// filters on tasks' properties are unreliable (the client filters instead).
  static let calendarQuery = Array(
    (declaration + "<C:calendar-query \(namespaces)><D:prop><D:getetag/></D:prop>"
      + #"<C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VTODO"/></C:comp-filter></C:filter>"#
      + "</C:calendar-query>").utf8)

  /// The ETags and bodies of `hrefs` (RFC 4791 §7.9).
  static func calendarMultiget(_ hrefs: [String]) -> [UInt8] {
    let list = hrefs.map { "<D:href>\(escape($0))</D:href>" }.joined()
    return Array(
      (declaration + "<C:calendar-multiget \(namespaces)><D:prop><D:getetag/><C:calendar-data/></D:prop>"
        + list + "</C:calendar-multiget>").utf8)
  }

  /// What changed since `token` (RFC 6578 §3.2), ETags only.
  static func syncCollection(token: String) -> [UInt8] {
    Array(
      (declaration + "<D:sync-collection \(namespaces)><D:sync-token>\(escape(token))</D:sync-token>"
        + "<D:sync-level>1</D:sync-level><D:prop><D:getetag/></D:prop></D:sync-collection>").utf8)
  }

  /// A calendar for reminders (RFC 4791 §5.3.1) with its name and colour.
  static func makeCalendar(displayName: String, color: String?) -> [UInt8] {
    let colorProperty = color.map { "<A:calendar-color>\(escape($0))</A:calendar-color>" } ?? ""
    return Array(
      (declaration + "<C:mkcalendar \(namespaces)><D:set><D:prop>"
        + "<D:displayname>\(escape(displayName))</D:displayname>\(colorProperty)"
        + #"<C:supported-calendar-component-set><C:comp name="VTODO"/></C:supported-calendar-component-set>"#
        + "</D:prop></D:set></C:mkcalendar>").utf8)
  }

  /// `PROPPATCH` of a calendar's display name and Apple colour, each only when given.
  static func propertyUpdate(displayName: String?, color: String?) -> [UInt8] {
    let name = displayName.map { "<D:displayname>\(escape($0))</D:displayname>" } ?? ""
    let colorProperty = color.map { "<A:calendar-color>\(escape($0))</A:calendar-color>" } ?? ""
    return Array(
      (declaration + "<D:propertyupdate \(namespaces)><D:set><D:prop>\(name)\(colorProperty)</D:prop></D:set>"
        + "</D:propertyupdate>").utf8)
  }

  static func escape(_ text: String) -> String {
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count)
    for character in text.unicodeScalars {
      switch character {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      case "\"": escaped += "&quot;"
      case "'": escaped += "&apos;"
      default: escaped.unicodeScalars.append(character)
      }
    }
    return escaped
  }
}
