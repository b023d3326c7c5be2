// swift-tools-version: 6.2
import PackageDescription

/// Settings every Swift target shares.
///
/// `ExistentialAny` makes every existential spelled `any P`, so the cost of a protocol-typed
/// value is visible where it is paid (the format readers and writers are used both ways).
/// `MemberImportVisibility` stops a file from using members it never imported, which keeps the
/// C modules confined to the files that import them.
let swiftSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
  name: "remconv",
  products: [
    .library(name: "RemconvCore", targets: ["RemconvCore"]),
    .executable(name: "remconv", targets: ["remconv"]),
  ],
  targets: [
    // C libraries, each behind one system-library target. Their Swift importers live in one
    // folder each: checked by Scripts/check-boundaries.sh, which `make test` runs and
    // BoundaryTests (RemconvCoreTests) runs in `swift test`.
    .systemLibrary(
      name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    .systemLibrary(
      name: "CICal", pkgConfig: "libical", providers: [.apt(["libical-dev"])]),
    .systemLibrary(
      name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
    .systemLibrary(
      name: "CLibArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"])]),

    // The converter core: model, formats, store, migrations, merge engine, validation.
    .target(
      name: "RemconvCore",
      dependencies: ["CSQLite", "CICal", "CLibXML2", "CLibArchive"],
      swiftSettings: swiftSettings),
    // Argument parsing, commands, output and exit codes; a library so tests run it in-process.
    .target(
      name: "RemconvCLI",
      dependencies: ["RemconvCore"],
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "remconv",
      dependencies: ["RemconvCLI"],
      swiftSettings: swiftSettings),
    // The fuzz harness of every readable format: a libFuzzer binary when built by
    // Scripts/fuzz.sh, an input replayer otherwise (see docs/reliability.md).
    .executableTarget(
      name: "remconv-fuzz",
      dependencies: ["RemconvCore"],
      path: "Fuzz/Sources",
      swiftSettings: swiftSettings + [.enableExperimentalFeature("Extern")]),

    // Helpers shared by the test targets: temporary folders, in-process CLI runs, fixtures.
    .target(
      name: "RemconvTestSupport",
      dependencies: ["RemconvCLI", "RemconvCore"],
      path: "Tests/RemconvTestSupport",
      swiftSettings: swiftSettings),
    .testTarget(
      name: "RemconvCoreTests",
      // CICal for the libical oracle of the differential test (Tests/RemconvCoreTests/LibICalOracle).
      dependencies: ["RemconvCore", "RemconvTestSupport", "CICal"],
      exclude: ["Fixtures"],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "RemconvCLITests",
      dependencies: ["RemconvCLI", "RemconvCore", "RemconvTestSupport"],
      exclude: ["Fixtures"],
      swiftSettings: swiftSettings),
  ],
  swiftLanguageModes: [.v6]
)
