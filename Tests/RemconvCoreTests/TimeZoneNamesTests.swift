import Foundation
import Testing

@testable import RemconvCore

/// The zone check a view's read makes once a zone (`TimeZoneNames.isKnownWithoutTheList`)
/// says what `TimeZoneNames.isKnown` says.
@Suite struct TimeZoneNamesTests {
  @Test func theCheckWithoutTheListAgreesWithTheList() {
    let names =
      TimeZone.knownTimeZoneIdentifiers + [
        "UTC", "GMT", "EST", "GMT+1", "Etc/GMT+12", "Asia/Calcutta", "Asia/Kolkata", "Europe/Kyiv", "Mars/Olympus",
        "Europe/berlin", "Europe/", "/", "", "America/Argentina/Buenos_Aires",
      ]
    for name in names {
      #expect(TimeZoneNames.isKnownWithoutTheList(name) == TimeZoneNames.isKnown(name), "\(name)")
    }
    #expect(!TimeZoneNames.isKnownWithoutTheList("Mars/Olympus"))
  }

  @Test func aViewReadsDueDatesAsTheStoreReaderDoes() throws {
    for (text, zone) in [
      ("2027-05-23T19:15:00", "America/Los_Angeles"), ("2027-05-23T19:15:00", "Mars/Olympus"),
      ("2027-05-23T19:15:00", "EST"), ("2027-05-23", nil), ("2027-05-23T19:15:00Z", nil),
    ] as [(String, String?)] {
      let expected = try? DueDate(isoText: text, timeZone: zone)
      let read = try? DueDate(isoText: text, timeZone: zone, zoneIsKnown: TimeZoneNames.isKnownWithoutTheList)
      #expect(read == expected, "\(text) \(zone ?? "-")")
    }
  }
}
