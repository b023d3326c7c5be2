import Foundation
import Testing

@testable import RemconvCore

/// How Apple Reminders' stored values become the model's (issue 24).
@Suite struct CoreDataValuesTests {
  /// Core Data seconds of an RFC 3339 instant.
  static func seconds(_ iso: String) -> Double {
    Double(Timestamp(iso: iso)!.millisecondsSinceEpoch) / 1000 - CoreDataValues.referenceDateOffset
  }

  @Test func theReferenceDateIsTwoThousandOne() {
    #expect(CoreDataValues.timestamp(0)?.description == "2001-01-01T00:00:00Z")
    #expect(CoreDataValues.timestamp(0.25)?.millisecondsSinceEpoch == 978_307_200_250)
    #expect(CoreDataValues.timestamp(.nan) == nil)
    #expect(CoreDataValues.timestamp(1e300) == nil)
  }

  @Test func anAllDayDueIsTheDayOfItsStoredMidnight() {
    let due = CoreDataValues.appleDue(Self.seconds("2026-11-29T00:00:00Z"), allDay: true, timeZone: "Asia/Tokyo")
    #expect(due == .date(LocalDate(year: 2026, month: 11, day: 29)!))
  }

  /// The wall time follows the zone's offset at that instant: summer and winter in New York.
  @Test func aZonedDueIsTheWallTimeInItsZoneOnEitherSideOfDaylightSaving() throws {
    let summer = CoreDataValues.appleDue(
      Self.seconds("2026-07-01T13:00:00Z"), allDay: false, timeZone: "America/New_York")
    #expect(summer?.description == "2026-07-01T09:00:00 America/New_York")
    let winter = CoreDataValues.appleDue(
      Self.seconds("2026-12-01T14:00:00Z"), allDay: false, timeZone: "America/New_York")
    #expect(winter?.description == "2026-12-01T09:00:00 America/New_York")
  }

  @Test func aDueWithoutAKnownZoneStaysAnInstant() {
    let instant = Self.seconds("2026-11-29T14:30:00Z")
    #expect(CoreDataValues.appleDue(instant, allDay: false, timeZone: nil)?.description == "2026-11-29T14:30:00Z")
    #expect(CoreDataValues.appleDue(instant, allDay: false, timeZone: "GMT+1")?.description == "2026-11-29T14:30:00Z")
  }

  /// A colour archived by `NSKeyedArchiver` as Reminders stores it: the root object refers to
  /// its symbolic name and hex value by UID. Made with Python's `plistlib` (`UID` values,
  /// `FMT_BINARY`) from a `$objects` array of `$null`, the colour object, `custom`,
  /// `#FF2968FF` and its class.
  @Test func anArchivedColourGivesItsHexValueAndName() {
    let archive =
      "62706c6973743030d4010203040506191c5924617263686976657258246f626a656374735424746f70582476657273696f6e5f100f4e534b657965644172636869766572a5070811121355246e756c6cd4090a0b0c0d0e0f105624636c6173735f1013636b53796d626f6c6963436f6c6f724e616d655f10156461456e756d657261746564436f6c6f724e616d655b6461486578537472696e67800480028000800356637573746f6d59234646323936384646d2141516175824636c61737365735a24636c6173736e616d65a217185852454d436f6c6f72584e534f626a656374d11a1b54726f6f74800112000186a008111b242932444a505960768e9a9c9ea0a2a9b3b8c1cccfd8e1e4e9eb0000000000000101000000000000001d000000000000000000000000000000f0"
    var bytes: [UInt8] = []
    var index = archive.startIndex
    while index < archive.endIndex {
      let next = archive.index(index, offsetBy: 2)
      bytes.append(UInt8(archive[index..<next], radix: 16)!)
      index = next
    }
    let color = ArchivedColor(bytes)
    #expect(color.hex == "#FF2968")
    #expect(color.symbolicName == nil, "custom is no name")
    let garbage = ArchivedColor(Array("not a property list".utf8))
    #expect(garbage.hex == nil && garbage.symbolicName == nil)
  }
}
