import Foundation
import RemconvTestSupport
import Testing

/// The C boundary of Package.swift: each C module is imported in one folder only, and no
/// `OpaquePointer` leaves those folders. `Scripts/check-boundaries.sh` is the check; running it
/// here makes `swift test` alone enforce it, as `make test` does.
@Suite struct BoundaryTests {
  static let script = Repository.path("Scripts/check-boundaries.sh")

  @Test func theRepositoryKeepsItsCBoundaries() throws {
    let outcome = try Program.run("/bin/bash", [Self.script])
    #expect(outcome.status == 0, "\(outcome.errors)")
    #expect(outcome.errors.isEmpty, "\(outcome.errors)")
  }

  /// The check itself finds what it is for: the script, run on a copy of the tree with one
  /// C import and one `OpaquePointer` outside their folders, fails and names both files.
  @Test func theCheckFailsOnAnImportOrAPointerOutsideItsFolder() throws {
    let directory = TemporaryDirectory()
    let files = [
      "Scripts/check-boundaries.sh": try String(contentsOfFile: Self.script, encoding: .utf8),
      "Sources/RemconvCore/Store/SQLite/Connection.swift": "import CSQLite\nlet p: OpaquePointer? = nil\n",
      "Sources/RemconvCore/Formats/JSON/Leak.swift": "import CLibXML2\n",
      "Sources/RemconvCore/Merge/Handle.swift": "struct Handle { let raw: OpaquePointer }\n",
      "Tests/RemconvCoreTests/Peek.swift": "@preconcurrency import CICal\n",
    ]
    for (path, contents) in files {
      let url = URL(fileURLWithPath: directory.file(path))
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try contents.write(to: url, atomically: true, encoding: .utf8)
    }
    let outcome = try Program.run("/bin/bash", [directory.file("Scripts/check-boundaries.sh")])
    #expect(outcome.status == 1, "\(outcome.errors)")
    for offender in [
      "Sources/RemconvCore/Formats/JSON/Leak.swift", "Sources/RemconvCore/Merge/Handle.swift",
      "Tests/RemconvCoreTests/Peek.swift",
    ] {
      #expect(outcome.errors.contains(offender), "\(offender) not named: \(outcome.errors)")
    }
    #expect(!outcome.errors.contains("Store/SQLite/Connection.swift"), "\(outcome.errors)")
  }
}
