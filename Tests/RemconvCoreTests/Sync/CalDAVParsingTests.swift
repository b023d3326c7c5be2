import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// The pieces of the CalDAV client that need no server: multistatus bodies as servers spell
/// them, `Retry-After`, hrefs, and reading the password.
@Suite struct CalDAVParsingTests {
  /// The same answer as Radicale (default namespace), Xandikos (`ns0:`) and sabre (`d:`, `cal:`)
  /// write it, with the item in CDATA or escaped.
  @Test(arguments: [
    #"""
    <?xml version='1.0' encoding='utf-8'?>
    <multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><response><href>/a/b%20c.ics</href>
    <propstat><prop><getetag>"1"</getetag><C:calendar-data>BEGIN:VCALENDAR&#13;
    SUMMARY:Milk &amp; eggs&#13;
    END:VCALENDAR&#13;
    </C:calendar-data></prop><status>HTTP/1.1 200 OK</status></propstat>
    <propstat><prop><displayname/></prop><status>HTTP/1.1 404 Not Found</status></propstat></response>
    <response><href>/a/gone.ics</href><status>HTTP/1.1 404 Not Found</status></response>
    <sync-token>T2</sync-token></multistatus>
    """#,
    #"""
    <ns0:multistatus xmlns:ns0="DAV:" xmlns:ns1="urn:ietf:params:xml:ns:caldav"><ns0:response>
    <ns0:href>http://127.0.0.1:8080/a/b%20c.ics</ns0:href><ns0:propstat><ns0:status>HTTP/1.1 200 OK</ns0:status>
    <ns0:prop><ns0:getetag>"1"</ns0:getetag><ns1:calendar-data><![CDATA[BEGIN:VCALENDAR
    SUMMARY:Milk & eggs
    END:VCALENDAR
    ]]></ns1:calendar-data></ns0:prop></ns0:propstat></ns0:response>
    <ns0:response><ns0:href>/a/gone.ics</ns0:href><ns0:status>HTTP/1.1 404 Not Found</ns0:status></ns0:response>
    <ns0:sync-token>T2</ns0:sync-token></ns0:multistatus>
    """#,
    #"""
    <?xml version="1.0"?>
    <d:multistatus xmlns:d="DAV:" xmlns:cal="urn:ietf:params:xml:ns:caldav"><d:response><d:href>/a/b c.ics</d:href>
    <d:propstat><d:prop><d:getetag>&quot;1&quot;</d:getetag><cal:calendar-data>BEGIN:VCALENDAR
    SUMMARY:Milk &amp; eggs
    END:VCALENDAR
    </cal:calendar-data></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
    <d:response><d:href>/a/gone.ics</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>
    <d:sync-token>T2</d:sync-token></d:multistatus>
    """#,
  ])
  func aMultistatusReadsTheSameWhateverItsPrefixes(_ body: String) throws {
    let answer = try Multistatus(parsing: Array(body.utf8), from: "test")
    #expect(answer.syncToken == "T2")
    #expect(answer.responses.count == 2)
    let item = answer.responses[0]
    #expect(item.property(.getETag)?.trimmedText == "\"1\"")
    #expect(item.property(.displayName) == nil)
    let data = try #require(item.property(.calendarData)?.text)
    #expect(data.replacingOccurrences(of: "\r", with: "").contains("SUMMARY:Milk & eggs\nEND:VCALENDAR"))
    #expect(answer.responses[1].status == 404)
    let endpoint = try CalDAVEndpoint(
      url: try #require(URL(string: "http://127.0.0.1:8080/")), user: nil, password: nil)
    let base = try #require(URL(string: "http://127.0.0.1:8080/a/"))
    #expect(try endpoint.canonicalPath(item.href, base: base) == "/a/b%20c.ics")
  }

  @Test(arguments: [
    "<multistatus xmlns=\"DAV:\"><response><href>/a</href>",
    "<html><body>Service Unavailable</body></html>",
    "",
    "<multistatus xmlns=\"DAV:\"><response><status>HTTP/1.1 200 OK</status></response></multistatus>",
  ])
  func aBodyThatIsNoMultistatusIsMalformed(_ body: String) {
    let error = syncError { try Multistatus(parsing: Array(body.utf8), from: "http://server/a/") }
    guard case .malformedResponse(let message) = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(message.contains("http://server/a/") || message.contains("the server sent"))
  }

  @Test func retryAfterIsSecondsOrAnHTTPDate() throws {
    let now = try #require(ISO8601DateFormatter().date(from: "2026-12-01T20:00:00Z"))
    #expect(HTTPClient.retryAfter("120", now: now) == 120)
    #expect(HTTPClient.retryAfter("Tue, 01 Dec 2026 20:00:30 GMT", now: now) == 30)
    #expect(HTTPClient.retryAfter("Tue, 01 Dec 2026 19:00:00 GMT", now: now) == 0)
    #expect(HTTPClient.retryAfter("soon", now: now) == nil)
    #expect(HTTPClient.retryAfter(nil, now: now) == nil)
  }

  @Test func credentialsBelongToOneOrigin() throws {
    func origin(_ text: String) throws -> Origin? { Origin(try #require(URL(string: text))) }
    let given = try #require(try origin("https://DAV.example.com/remote.php/dav"))
    #expect(try origin("https://dav.example.com:443/x") == given)
    #expect(try origin("http://dav.example.com/x") != given)
    #expect(try origin("https://dav.example.com:8443/x") != given)
    #expect(try origin("https://evil.example.com/x") != given)
  }

  @Test func thePasswordComesFromAVariableOrTheFirstLineOfACommand() throws {
    #expect(try PasswordSource.environment("DAV_PW").resolve(environment: ["DAV_PW": "pw 1"]) == "pw 1")
    let unset = syncError { try PasswordSource.environment("DAV_PW").resolve(environment: [:]) }
    guard case .authenticationRefused = unset else { throw Failure("\(String(describing: unset))") }
    #expect(try PasswordSource.command("printf 'first line\\nsecond\\n'").resolve(environment: [:]) == "first line")
    let failing = syncError { try PasswordSource.command("echo leaked-secret; exit 3").resolve(environment: [:]) }
    guard case .authenticationRefused(let message) = failing else { throw Failure("\(String(describing: failing))") }
    #expect(message.contains("3"))
    #expect(!message.contains("leaked-secret"))
  }
}
