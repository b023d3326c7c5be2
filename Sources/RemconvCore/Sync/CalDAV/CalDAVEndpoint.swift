import Foundation

/// A CalDAV account (or one calendar of it) as a sync remote.
///
/// - Discovery (RFC 6764, 5397, 4791 §6.2.1): the URL given is tried as it is, then
///   `/.well-known/caldav` on its origin when it names no principal or calendar (tried in this
///   order, a server that answers at its root saves the redirect at each sync); a calendar there
///   makes a single-collection remote; otherwise its `calendar-home-set`, or that of its
///   `current-user-principal`, is listed with one `PROPFIND Depth: 1`, keeping the calendars
///   whose `supported-calendar-component-set` holds VTODO (or that do not say). The home found
///   is kept in the store (`discoveredHome`): the next sync lists it at once, one request in
///   all, and discovers again only when it no longer answers as a calendar home (gone, moved,
///   refused, or now a calendar or no collection at all).
/// - Reading: a full listing is one `calendar-query` with a VTODO component filter and nothing
///   else (servers' filters on tasks' properties are unreliable), ETags only; bodies are fetched
///   by `calendar-multiget` in batches. After that, `sync-collection` (RFC 6578) with the stored
///   token; when the token the collection listing already showed is the stored one, nothing
///   changed and no request is made. A server without sync tokens gets its `getctag` compared
///   the same way (the listing asks for it only until the store holds a sync token for every
///   collection), and the engine compares ETags of a full listing when either changed; a
///   token the server rejects (403/409 `valid-sync-token`, or no support for the report) is
///   `SyncError.invalidSyncToken`, and the engine lists in full.
/// - Writing: `PUT` with `If-None-Match: *` to create, `PUT` or `DELETE` with `If-Match` to
///   change; the ETag of a `PUT` answer is used only when the server sent a strong one.
/// - HTTP as `HTTPClient` does it: credentials only to the URL's origin, redirects followed by
///   hand, bounded retries, at most a few requests in flight.
public final class CalDAVEndpoint: SyncEndpoint {
  /// Items per `calendar-multiget`.
  static let batchSize = 100

  private let client: HTTPClient
  private let startURL: URL
  private let origin: Origin
  /// Where new calendars go; nil until discovered, and when the URL names one calendar.
  private var home: URL?
  /// The home an earlier sync discovered, tried before discovering again.
  private let knownHome: URL?
  /// What a listing of collections asks of each: `getctag` only while the store does not know
  /// the server for one that gives sync tokens. Radicale computes each of the two in a pass
  /// over every item of the calendar; a collection's name, colour and components cost nothing.
  private let collectionProperties: [String]
  private var discoveredSingleCollection = false
  /// The sync token and ctag of each collection, as the last listing of collections showed.
  private var states: [String: CollectionState] = [:]

  private struct CollectionState {
    var syncToken: String?
    var ctag: String?

    /// The token `changes(in:since:)` hands out for this state.
    var token: String? { syncToken.map { "sync:" + $0 } ?? ctag.map { "ctag:" + $0 } }
  }

  /// An endpoint for `url`, authenticating as `user` with `password` when given; `knownHome` is
  /// the calendar home an earlier sync discovered (`discoveredHome`), ignored when it is not on
  /// the origin of `url`. `storedTokens` are the tokens the store holds for the remote's
  /// collections, one for each (nil where it holds none): when every one is a sync token, the
  /// listing of collections asks for sync tokens alone.
  ///
  /// - Throws: `SyncError.refused` when `url` is not an http or https URL.
  public init(
    url: URL, user: String?, password: String?, policy: HTTPPolicy = .standard, knownHome: URL? = nil,
    storedTokens: [String?] = []
  ) throws(SyncError) {
    guard let origin = Origin(url) else { throw .refused("\(url): not an http or https URL") }
    startURL = url
    self.origin = origin
    self.knownHome = knownHome.flatMap { Origin($0) == origin ? $0 : nil }
    let syncTokensKnown = !storedTokens.isEmpty && storedTokens.allSatisfy { $0?.hasPrefix("sync:") == true }
    collectionProperties = Self.collectionProperties(askingCTag: !syncTokensKnown)
    let credentials = user.map { HTTPCredentials(origin: origin, user: $0, password: password ?? "") }
    client = HTTPClient(credentials: credentials, policy: policy)
  }

  /// The HTTP requests sent so far (each attempt and redirect counted).
  public var requestsSent: Int { client.requestsSent }

  // MARK: Collections

  /// The calendar home's URL once `collections()` found one.
  public var discoveredHome: String? { home?.absoluteString }

  public func collections() throws(SyncError) -> [RemoteCollection] {
    if let knownHome, let found = try collectionsOfKnownHome(knownHome) {
      home = knownHome
      return found
    }
    switch try discover() {
    case .collection(let response, let url):
      discoveredSingleCollection = true
      let path = try canonicalPath(response.href, base: url)
      guard let collection = remoteCollection(response, path: path) else {
        throw .refused("\(url): the calendar does not accept tasks (VTODO)")
      }
      return [collection]
    case .home(let home):
      self.home = home
      let listing = try multistatus(homeListing(home))
      guard let found = try calendars(in: listing, home: home) else {
        throw .malformedResponse("\(home): the calendar home's listing does not name the home")
      }
      return found
    }
  }

  private func homeListing(_ home: URL) -> HTTPRequest {
    request("PROPFIND", home, depth: "1", body: DAVRequestBody.propfind(collectionProperties))
  }

  /// The calendars the listing of `home` names, nil when it does not name `home` itself as a
  /// collection that is no calendar (not a calendar home, or no longer one).
  private func calendars(in listing: Multistatus, home: URL) throws(SyncError) -> [RemoteCollection]? {
    let homePath = try canonicalPath(home.absoluteString, base: home)
    var own: DAVResponse?
    var others: [(path: String, response: DAVResponse)] = []
    for response in listing.responses {
      let path = try canonicalPath(response.href, base: home)
      if path == homePath { own = response } else { others.append((path, response)) }
    }
    let ownTypes = Set(own?.property(.resourceType)?.children.map(\.name) ?? [])
    guard ownTypes.contains(.collection), !ownTypes.contains(.calendar) else { return nil }
    return others.compactMap { remoteCollection($0.response, path: $0.path) }.sorted { $0.href < $1.href }
  }

  /// The calendars of the home an earlier sync discovered, in one request; nil when it no
  /// longer answers as that calendar home (gone, moved, refused, malformed), and discovery
  /// must run again. A server that cannot be reached fails the sync as discovery would.
  private func collectionsOfKnownHome(_ home: URL) throws(SyncError) -> [RemoteCollection]? {
    do {
      let response = try client.send(homeListing(home))
      guard response.status == 207, response.url == home else { return nil }
      return try calendars(in: try multistatus(response, for: nil), home: home)
    } catch .unreachable(let message) {
      throw .unreachable(message)
    } catch {
      return nil
    }
  }

  public func createCollection(displayName: String, color: String?) throws(SyncError) -> RemoteCollection {
    if home == nil, !discoveredSingleCollection { _ = try collections() }
    guard let home else {
      throw .refused(
        "\(startURL) names one calendar: remconv cannot create one for the list '\(displayName)' there; "
          + "give the server's or the calendar home's URL to sync several lists")
    }
    let name = UUID().uuidString.lowercased()
    let url = home.appendingPathComponent(name, isDirectory: true)
    let normalizedColor = color.flatMap(ListColor.normalized)
    let response = try client.send(
      request(
        "MKCALENDAR", url, depth: nil,
        body: DAVRequestBody.makeCalendar(displayName: displayName, color: normalizedColor))
    )
    let path = try canonicalPath(url.absoluteString, base: url)
    switch response.status {
    case 200, 201:
      states[path] = nil
      return RemoteCollection(href: path, displayName: displayName, color: normalizedColor)
    case 405, 409:
      // A retry of a MKCALENDAR whose answer was lost finds the calendar there already.
      if let existing = try collections().first(where: { $0.href == path }) { return existing }
      throw refusal(of: "creating the calendar '\(displayName)'", response)
    default:
      throw refusal(of: "creating the calendar '\(displayName)'", response)
    }
  }

  /// A `PROPPATCH` of the calendar's `displayname` and Apple `calendar-color`: a property the
  /// server does not answer with 200 is refused (it applies all or none, RFC 4918 §9.2).
  public func updateCollection(_ collection: RemoteCollection, displayName: String?, color: String?) throws(SyncError)
    -> RemoteCollection
  {
    let url = try self.url(forPath: collection.href)
    let normalizedColor = color.flatMap(ListColor.normalized)
    let response = try client.send(
      request(
        "PROPPATCH", url, depth: nil,
        body: DAVRequestBody.propertyUpdate(displayName: displayName, color: normalizedColor)))
    // A server without PROPPATCH, or one that forbids it on calendars, refuses only this.
    if [400, 403, 405, 409, 501].contains(response.status) {
      throw refusal(of: "changing the calendar's name or colour", response)
    }
    let answer = try multistatus(response, for: nil)
    let changed = Set(answer.responses.flatMap(\.properties.keys))
    let wanted = (displayName == nil ? [] : [DAVName.displayName]) + (normalizedColor == nil ? [] : [.calendarColor])
    guard wanted.allSatisfy(changed.contains) else {
      throw .refused("\(url): the server refused to change the calendar's name or colour")
    }
    var updated = collection
    if let displayName { updated.displayName = displayName }
    if let normalizedColor { updated.color = normalizedColor }
    return updated
  }

  // MARK: Reading

  public func changes(in collection: RemoteCollection, since token: String?) throws(SyncError) -> RemoteChanges {
    let url = try self.url(forPath: collection.href)
    if let token {
      let state = states[collection.href]
      if state?.token == token { return .delta(changed: [], deleted: [], token: token) }
      guard token.hasPrefix("sync:") else { throw .invalidSyncToken }
      return try changesSince(syncToken: String(token.dropFirst(5)), collection: collection, url: url)
    }
    // The token is read before the listing: whatever changes in between is seen again next time.
    var state = states[collection.href]
    if state == nil { state = try currentState(of: url) }
    let listing = try multistatus(request("REPORT", url, depth: "1", body: DAVRequestBody.calendarQuery))
    var items: [RemoteItemVersion] = []
    for response in listing.responses {
      let path = try canonicalPath(response.href, base: url)
      guard path != collection.href, let etag = response.property(.getETag)?.trimmedText, !etag.isEmpty else {
        continue
      }
      items.append(RemoteItemVersion(href: path, etag: etag))
    }
    return .full(items: items, token: state?.token)
  }

  /// The longest `calendar-data` libxml2 reads as one text (its `XML_MAX_TEXT_LENGTH`, kept):
  /// an item whose data, escaped as XML, is longer would make the whole answer unreadable.
  static let longestItemText = 10_000_000

  public func cannotReadBack(_ body: [UInt8]) -> String? {
    // `&`, `<` and `>` are escaped in an answer (`&amp;`, `&lt;`, `&gt;`), a CR as `&#13;`.
    let escaped = body.reduce(0) { length, byte in
      switch byte {
      case UInt8(ascii: "&"): length + 5
      case UInt8(ascii: "<"), UInt8(ascii: ">"), 0x0D: length + 4
      default: length + 1
      }
    }
    guard escaped > Self.longestItemText else { return nil }
    return "\(body.count) bytes (\(escaped) in an answer), more than the \(Self.longestItemText) a server's "
      + "answer may hold for one item"
  }

  public func fetch(_ hrefs: [String], in collection: RemoteCollection) throws(SyncError) -> [RemoteItem] {
    let url = try self.url(forPath: collection.href)
    let wanted = Set(hrefs)
    let requests = stride(from: 0, to: hrefs.count, by: Self.batchSize).map { start in
      let batch = Array(hrefs[start..<min(start + Self.batchSize, hrefs.count)])
      return request("REPORT", url, depth: "1", body: DAVRequestBody.calendarMultiget(batch))
    }
    var items: [RemoteItem] = []
    for (outcome, sent) in zip(client.sendAll(requests), requests) {
      let response = try outcome.get()
      let answer = try multistatus(response, for: sent)
      for element in answer.responses {
        let path = try canonicalPath(element.href, base: url)
        guard wanted.contains(path), let etag = element.property(.getETag)?.trimmedText,
          let data = element.property(.calendarData)?.text
        else { continue }
        // A calendar may mix events with tasks: a sync report names both, only tasks are synced.
        guard data.contains("BEGIN:VTODO") else { continue }
        items.append(RemoteItem(href: path, etag: etag, body: Array(data.utf8)))
      }
    }
    return items
  }

  // MARK: Writing

  public func apply(_ writes: [RemoteWrite], in collection: RemoteCollection) throws(SyncError)
    -> [RemoteWriteResult]
  {
    let base = try url(forPath: collection.href)
    var hrefs: [String] = []
    var requests: [HTTPRequest] = []
    for write in writes {
      switch write {
      case .create(let name, let body):
        let url = base.appendingPathComponent(name, isDirectory: false)
        hrefs.append(try canonicalPath(url.absoluteString, base: url))
        requests.append(Self.put(url, body: body, condition: ("If-None-Match", "*")))
      case .update(let href, let etag, let body):
        hrefs.append(href)
        requests.append(Self.put(try url(forPath: href), body: body, condition: ("If-Match", Self.quoted(etag))))
      case .delete(let href, let etag):
        hrefs.append(href)
        requests.append(
          HTTPRequest(method: "DELETE", url: try url(forPath: href), headers: ["If-Match": Self.quoted(etag)]))
      }
    }
    // The token the collection listing showed is older than these writes: the next full listing
    // reads a fresh one, so that the writes are not reported back as changes.
    states[collection.href] = nil
    var results: [RemoteWriteResult] = []
    for ((outcome, write), href) in zip(zip(client.sendAll(requests), writes), hrefs) {
      let response = try outcome.get()
      results.append(Self.result(of: write, at: href, response))
    }
    return results
  }

  private static func put(_ url: URL, body: [UInt8], condition: (String, String)) -> HTTPRequest {
    HTTPRequest(
      method: "PUT", url: url, headers: ["Content-Type": "text/calendar; charset=utf-8", condition.0: condition.1],
      body: body)
  }

  private static func result(of write: RemoteWrite, at href: String, _ response: HTTPResponse) -> RemoteWriteResult {
    let status = response.status
    switch write {
    case .create, .update:
      if (200..<300).contains(status), status != 207 {
        // A weak ETag, or none, means the server may have rewritten the body: the engine then
        // reads the ETag from its next listing (RFC 4791 §5.3.4).
        let etag = response.header("etag").flatMap { $0.hasPrefix("W/") ? nil : $0 }
        if case .create = write { return .created(href: href, etag: etag) }
        return .updated(href: href, etag: etag)
      }
      if status == 412 { return .preconditionFailed(href: href) }
      if status == 404, case .update = write { return .preconditionFailed(href: href) }
    case .delete:
      if (200..<300).contains(status) && status != 207 || status == 404 || status == 410 {
        return .deleted(href: href)
      }
      if status == 412 { return .preconditionFailed(href: href) }
    }
    return .rejected(href: href, reason: reason(response))
  }

  // MARK: Discovery

  private enum Discovery {
    case home(URL)
    case collection(DAVResponse, URL)
  }

  private static func collectionProperties(askingCTag: Bool) -> [String] {
    ["D:resourcetype", "D:displayname", "A:calendar-color", "C:supported-calendar-component-set", "D:sync-token"]
      + (askingCTag ? ["CS:getctag"] : [])
  }

  private func discover() throws(SyncError) -> Discovery {
    let wellKnown = try url(forPath: "/.well-known/caldav")
    var candidates = [startURL, wellKnown]
    var homeFallback: URL?
    var tried: [String] = []
    while !candidates.isEmpty {
      let candidate = candidates.removeFirst()
      tried.append(candidate.absoluteString)
      let response = try client.send(
        request(
          "PROPFIND", candidate, depth: "0",
          body: DAVRequestBody.propfind(["D:current-user-principal", "C:calendar-home-set"] + collectionProperties)))
      guard response.status == 207 else {
        if response.status >= 500 { throw unexpected(response) }
        continue
      }
      let answer = try multistatus(response, for: nil)
      let base = response.url
      guard let own = answer.responses.first else { continue }
      let types = Set(own.property(.resourceType)?.children.map(\.name) ?? [])
      if types.contains(.calendar) { return .collection(own, base) }
      if let home = own.property(.calendarHomeSet)?.child(.href)?.trimmedText {
        return .home(try resolve(home, base: base))
      }
      if let principal = own.property(.currentUserPrincipal)?.child(.href)?.trimmedText {
        let principalURL = try resolve(principal, base: base)
        let answer = try multistatus(
          request("PROPFIND", principalURL, depth: "0", body: DAVRequestBody.propfind(["C:calendar-home-set"])))
        if let home = answer.responses.first?.property(.calendarHomeSet)?.child(.href)?.trimmedText {
          return .home(try resolve(home, base: principalURL))
        }
      }
      // A plain collection given directly may be the calendar home itself.
      if candidate == startURL, types.contains(.collection) { homeFallback = base }
    }
    if let homeFallback { return .home(homeFallback) }
    throw .refused(
      "\(startURL): no CalDAV calendar or calendar home found (asked \(tried.joined(separator: ", ")))")
  }

  private func remoteCollection(_ response: DAVResponse, path: String) -> RemoteCollection? {
    let types = Set(response.property(.resourceType)?.children.map(\.name) ?? [])
    guard types.contains(.calendar) else { return nil }
    if let components = response.property(.supportedComponents) {
      let names = components.children(.component).compactMap { $0.attributes["name"]?.uppercased() }
      guard names.contains("VTODO") else { return nil }
    }
    states[path] = CollectionState(
      syncToken: response.property(.syncToken)?.trimmedText.nonEmpty,
      ctag: response.property(.getCTag)?.trimmedText.nonEmpty)
    let name = response.property(.displayName)?.trimmedText.nonEmpty
    let color = response.property(.calendarColor).flatMap { ListColor.normalized($0.trimmedText) }
    return RemoteCollection(href: path, displayName: name, color: color)
  }

  /// The sync token and ctag of a collection not met in a listing of collections.
  private func currentState(of url: URL) throws(SyncError) -> CollectionState {
    let answer = try multistatus(
      request("PROPFIND", url, depth: "0", body: DAVRequestBody.propfind(["CS:getctag", "D:sync-token"])))
    let own = answer.responses.first
    return CollectionState(
      syncToken: own?.property(.syncToken)?.trimmedText.nonEmpty, ctag: own?.property(.getCTag)?.trimmedText.nonEmpty)
  }

  // MARK: Sync reports

  private func changesSince(syncToken: String, collection: RemoteCollection, url: URL) throws(SyncError)
    -> RemoteChanges
  {
    var changed: [String: String] = [:]
    var order: [String] = []
    var deleted: Set<String> = []
    var token = syncToken
    // A server may truncate a long report (507 on the collection itself, RFC 6578 §3.6): the
    // rest comes with the token it gave.
    for _ in 0..<1_000 {
      let response = try client.send(
        request("REPORT", url, depth: "0", body: DAVRequestBody.syncCollection(token: token)))
      guard response.status == 207 else {
        // 403/409 `valid-sync-token` (RFC 6578 §3.2), or no support for the report; Xandikos
        // answers 500 to a token it does not know. A server failing on everything fails the full
        // listing that follows as well.
        if (400..<600).contains(response.status) { throw .invalidSyncToken }
        throw unexpected(response)
      }
      let answer = try multistatus(response, for: nil)
      var truncated = false
      for element in answer.responses {
        let path = try canonicalPath(element.href, base: url)
        if path == collection.href {
          truncated = truncated || element.status == 507
          continue
        }
        if element.status == 404 {
          deleted.insert(path)
          changed[path] = nil
        } else if let etag = element.property(.getETag)?.trimmedText.nonEmpty {
          if changed.updateValue(etag, forKey: path) == nil { order.append(path) }
          deleted.remove(path)
        }
      }
      guard let next = answer.syncToken?.nonEmpty else {
        throw .malformedResponse("\(url): a sync-collection answer without a sync-token")
      }
      token = next
      if !truncated {
        let versions = order.compactMap { path in changed[path].map { RemoteItemVersion(href: path, etag: $0) } }
        return .delta(changed: versions, deleted: deleted.sorted(), token: "sync:" + token)
      }
    }
    throw .malformedResponse("\(url): the sync-collection answers never ended")
  }

  // MARK: Requests and answers

  private func request(_ method: String, _ url: URL, depth: String?, body: [UInt8]) -> HTTPRequest {
    // Xandikos answers 415 to a body without an XML media type.
    var headers = ["Content-Type": "application/xml; charset=utf-8"]
    if let depth { headers["Depth"] = depth }
    return HTTPRequest(method: method, url: url, headers: headers, body: body)
  }

  private func multistatus(_ request: HTTPRequest) throws(SyncError) -> Multistatus {
    try multistatus(client.send(request), for: request)
  }

  private func multistatus(_ response: HTTPResponse, for request: HTTPRequest?) throws(SyncError) -> Multistatus {
    guard response.status == 207 else { throw unexpected(response) }
    return try Multistatus(parsing: response.body, from: response.url.absoluteString)
  }

  private func unexpected(_ response: HTTPResponse) -> SyncError {
    if response.status >= 500 {
      return .unreachable("\(response.url): the server failed (\(Self.reason(response)))")
    }
    return .refused("\(response.url): unexpected answer (\(Self.reason(response)))")
  }

  private func refusal(of what: String, _ response: HTTPResponse) -> SyncError {
    .refused("\(response.url): the server refused \(what) (\(Self.reason(response)))")
  }

  /// `HTTP 409`, and the start of the server's explanation when it sent a short text one.
  private static func reason(_ response: HTTPResponse) -> String {
    let text = String(decoding: response.body.prefix(300), as: UTF8.self)
      .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty && !$0.hasPrefix("<?xml") }.joined(separator: " ")
    return "HTTP \(response.status)" + (text.isEmpty ? "" : ": \(text.prefix(200))")
  }

  private static func quoted(_ etag: String) -> String {
    etag.hasPrefix("\"") || etag.hasPrefix("W/") ? etag : "\"\(etag)\""
  }

  // MARK: Hrefs

  /// The characters left as they are in a path; everything else is percent-encoded.
  private static let pathCharacters: CharacterSet = {
    var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    allowed.insert(charactersIn: "-._~/!$&'()*+,;=:@")
    return allowed
  }()

  /// The path of `href` (a path or a full URL) on this remote's origin, percent-encoded one way
  /// whatever way the server encoded it: servers write the same href differently in different
  /// answers (Xandikos sends full, encoded URLs in some), and hrefs are compared as strings.
  func canonicalPath(_ href: String, base: URL) throws(SyncError) -> String {
    let url = try resolve(href, base: base)
    let encoded = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? url.path
    let decoded = encoded.removingPercentEncoding ?? encoded
    return decoded.addingPercentEncoding(withAllowedCharacters: Self.pathCharacters) ?? encoded
  }

  private func resolve(_ href: String, base: URL) throws(SyncError) -> URL {
    let candidate =
      URL(string: href, relativeTo: base)
      ?? href.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed).flatMap {
        URL(string: $0, relativeTo: base)
      }
    guard let url = candidate?.absoluteURL else {
      throw .malformedResponse("\(base): the server named an unusable href '\(href)'")
    }
    return url
  }

  /// The URL of a path on this remote's origin.
  private func url(forPath path: String) throws(SyncError) -> URL {
    var components = URLComponents()
    components.scheme = origin.scheme
    components.host = startURL.host
    components.port = startURL.port
    components.percentEncodedPath = path.hasPrefix("/") ? path : "/" + path
    guard let url = components.url else { throw .refused("\(path): not a usable path on \(origin)") }
    return url
  }
}

extension String {
  fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
