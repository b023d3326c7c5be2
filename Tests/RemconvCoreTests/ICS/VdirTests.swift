import Foundation
import RemconvCLI
import RemconvTestSupport
import Testing

@testable import RemconvCore

@Suite struct VdirTests {
  private func sampleBench() -> TestBench {
    let bench = TestBench()
    #expect(bench.run(["import", Repository.path("Samples/json/reminders.json")]).status == .ok)
    return bench
  }

  private func contents(_ path: String) -> String {
    (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
  }

  /// The lists of a JSON snapshot by UID.
  private func listsByID(_ snapshot: String) throws -> [String: JSONValue] {
    var lists: [String: JSONValue] = [:]
    for list in try JSONParser.parse(snapshot)["lists"]?.arrayValue ?? [] {
      lists[list["id"]?.stringValue ?? ""] = list
    }
    #expect(!lists.isEmpty)
    return lists
  }

  /// The reminder lines of a JSON snapshot.
  private func reminderLines(_ snapshot: String) -> [String] {
    snapshot.split(separator: "\n").map(String.init).filter { $0.hasPrefix("        {\"id\"") }
      .map { $0.hasSuffix(",") ? String($0.dropLast()) : $0 }.sorted()
  }

  @Test func exportsAFolderPerListAndAFilePerReminder() throws {
    let bench = sampleBench()
    let root = bench.directory.file("vdir")
    let result = bench.run(["export", "--format", "vdir", "-o", root])
    #expect(result.status == .ok, "\(result.errors)")
    let folders = try FileManager.default.contentsOfDirectory(atPath: root).sorted()
    #expect(folders == ["Groceries", "Home", "Someday", "Work"])
    #expect(contents(root + "/Groceries/displayname") == "Groceries")
    #expect(contents(root + "/Groceries/color") == "#34C759")
    #expect(contents(root + "/Groceries/remconv-symbol") == "cart")
    let items = try FileManager.default.contentsOfDirectory(atPath: root + "/Work").filter { $0.hasSuffix(".ics") }
      .sorted()
    #expect(items.count == 4)
    let item = contents(root + "/Work/B1A7E0C2-0002-4F00-8000-000000000001.ics")
    #expect(
      item.hasPrefix(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//remconv//NONSGML remconv//EN\r\nBEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n"
      ))
    #expect(item.contains("DUE;TZID=Europe/Berlin:20261130T090000\r\n"))
    #expect(item.hasSuffix("END:VTODO\r\nEND:VCALENDAR\r\n"))
    #expect(item.components(separatedBy: "BEGIN:VTODO").count == 2)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: root + "/Someday").sorted() == [
        "color", "displayname", "remconv-created", "remconv-id", "remconv-symbol",
      ])
    #expect(contents(root + "/Someday/remconv-id") == "6F1C2B0E-5D7A-4C55-9F1E-3A1B2C3D4E04")
  }

  @Test func theSampleExportMatchesSamplesVdir() throws {
    let bench = sampleBench()
    let root = bench.directory.file("vdir")
    #expect(bench.run(["export", "--format", "vdir", "-o", root]).status == .ok)
    let sample = Repository.path("Samples/vdir")
    let written = try FileManager.default.subpathsOfDirectory(atPath: root).sorted()
    #expect(try FileManager.default.subpathsOfDirectory(atPath: sample).sorted() == written)
    for path in written {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isFolder), !isFolder.boolValue
      else { continue }
      #expect(
        ICSTest.withoutTimeZoneBodies(contents(root + "/" + path))
          == ICSTest.withoutTimeZoneBodies(contents(sample + "/" + path)),
        "Samples/vdir/\(path) differs")
    }
  }

  @Test func neverReplacesFilesWithoutForce() throws {
    let bench = sampleBench()
    let root = bench.directory.file("vdir")
    #expect(bench.run(["export", "--format", "vdir", "-o", root]).status == .ok)
    let again = bench.run(["export", "--format", "vdir", "-o", root])
    #expect(again.status == .cannotCreate)
    #expect(again.errors.contains("already exists"))
    #expect(bench.run(["export", "--format", "vdir", "-o", root, "--force"]).status == .ok)
  }

  @Test func refusesToWriteThroughALinkedListFolder() throws {
    let bench = sampleBench()
    let root = bench.directory.file("vdir")
    let outside = bench.directory.file("outside")
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: root + "/Groceries", withDestinationPath: outside)
    let result = bench.run(["export", "--format", "vdir", "-o", root])
    #expect(result.status == .cannotCreate)
    #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty)
  }

  @Test func fileNamesFromUIDsAreSafe() {
    #expect(VdirNames.safe("B1A7E0C2-0001-4F00-8000-000000000001") == "B1A7E0C2-0001-4F00-8000-000000000001")
    #expect(VdirNames.safe("a1b2@host.example") == "a1b2%40host.example")
    // An item is named as todoman names it: `<uid>.ics`, the `@` of its UIDs kept.
    #expect(VdirNames.item("a1b2@host.example") == "a1b2@host.example")
    #expect(VdirNames.item("../a@b/c") == "%2E.%2Fa@b%2Fc")
    #expect(VdirNames.safe("../../etc/passwd") == "%2E.%2F..%2Fetc%2Fpasswd")
    #expect(VdirNames.safe("..") == "%2E.")
    #expect(VdirNames.safe(".hidden") == "%2Ehidden")
    #expect(VdirNames.safe("bell\u{07}\nnew line") == "bell%07%0Anew%20line")
    #expect(VdirNames.safe("Café") == "Caf%C3%A9")
    #expect(VdirNames.safe("") == "%00")
    let long = String(repeating: "x", count: 500)
    let shortened = VdirNames.safe(long)
    #expect(shortened.utf8.count <= VdirNames.maximumLength)
    #expect(shortened != VdirNames.safe(long + "y"))
    for name in ["a1b2@host.example", "../../etc/passwd", "Work / Home", "Café"] {
      #expect(VdirNames.decoded(VdirNames.safe(name)) == name)
      #expect(!VdirNames.safe(name).contains("/"))
    }
  }

  @Test func anExportedVdirImportsToTheSameReminders() throws {
    let bench = sampleBench()
    let root = bench.directory.file("vdir")
    #expect(bench.run(["export", "--format", "vdir", "-o", root]).status == .ok)
    let second = TestBench()
    let result = second.run(["import", root])
    #expect(result.status == .ok, "\(result.errors)")
    #expect(result.errors.contains("4 new lists"))
    // The same lists with the same reminders; a vdir does not keep the order of its lists.
    #expect(try listsByID(second.snapshot()) == listsByID(bench.snapshot()))
  }

  @Test func readsACollectionGivenDirectlyAndIgnoresWhatIsNotAnItem() throws {
    let bench = TestBench()
    let folder = bench.directory.file("Errands")
    bench.directory.write("Errands/displayname", "Errands & more\n")
    bench.directory.write("Errands/color", "#ff2968ff")
    bench.directory.write("Errands/remconv-created", "yesterday")
    bench.directory.write(
      "Errands/a.ics", "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:a\r\nSUMMARY:First\r\nEND:VTODO\r\nEND:VCALENDAR\r\n")
    bench.directory.write("Errands/b.ics.tmp", "not an item")
    bench.directory.write("Errands/.hidden.ics", "not an item either")
    bench.directory.write("Errands/notes", "metadata, not an item")
    bench.directory.write(
      "Errands/no-uid.ics", "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nSUMMARY:Second\r\nEND:VTODO\r\nEND:VCALENDAR\r\n")
    bench.directory.write(
      "Errands/event.ics", "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:e\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
    let result = bench.run(["import", folder, "--report", "json"])
    #expect(result.status == .ok, "\(result.errors)")
    #expect(result.output.contains(#""VEVENT":1"#))
    let snapshot = bench.snapshot()
    #expect(snapshot.contains(#""name": "Errands & more""#))
    #expect(snapshot.contains(##""color": "#FF2968""##))
    #expect(reminderLines(snapshot).count == 2)
    #expect(result.errors.contains("Errands/remconv-created: 'yesterday' is not an ISO 8601 instant"))
    #expect(snapshot.contains(#""extra": {"vdir":{"invalid":{"remconv-created":"yesterday"}}}"#))
    // A UID-less item is named after its file, so a second import finds it again.
    let again = bench.run(["import", folder])
    #expect(again.errors.contains("0 added"))
  }

  @Test func aChildFileBeforeItsParentFileIsLinked() throws {
    let bench = TestBench()
    bench.directory.write(
      "v/Move/a-child.ics",
      "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:child\r\nSUMMARY:Child\r\nEND:VTODO\r\nEND:VCALENDAR\r\n")
    bench.directory.write(
      "v/Move/b-parent.ics",
      "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:parent\r\nSUMMARY:Parent\r\nRELATED-TO;RELTYPE=CHILD:child\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
    )
    #expect(bench.run(["import", bench.directory.file("v")]).status == .ok)
    #expect(
      bench.snapshot().contains(
        #""id":"child","title":"Child","notes":"","isDone":false,"completedAt":null,"flagged":false,"dueDate":null,"dueTimeZone":null,"startDate":null,"startTimeZone":null,"recurrence":null,"alarms":[],"priority":"none","parentId":"parent""#
      ))
  }

  @Test func aBrokenItemFailsTheImportWithItsFileAndLine() {
    let bench = TestBench()
    bench.directory.write("v/List/ok.ics", "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:ok\r\nEND:VTODO\r\nEND:VCALENDAR\r\n")
    bench.directory.write("v/List/z-broken.ics", "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:broken\r\nEND:VCALENDAR\r\n")
    let result = bench.run(["import", bench.directory.file("v")])
    #expect(result.status == .dataError)
    #expect(result.errors.contains("z-broken.ics:4"))
    #expect(reminderLines(bench.snapshot()).isEmpty)
  }
}
