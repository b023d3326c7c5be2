import Foundation
import RemconvCLI
import RemconvCore
import RemconvTestSupport
import Testing

@Suite struct CommandLineTests {
  @Test(arguments: ["import", "export", "convert", "formats"])
  func helpGoesToStandardOutputWithStatusZero(command: String) {
    let bench = TestBench()
    let long = bench.run([command, "--help"])
    #expect(long.status == .ok)
    #expect(long.output.hasPrefix("OVERVIEW: "))
    #expect(long.output.contains("USAGE: remconv \(command)"))
    #expect(long.errors.isEmpty)
    #expect(bench.run([command, "-h"]).output == long.output)
    #expect(bench.run(["help", command]).output == long.output)
  }

  @Test func rootHelpListsCommandsAndExitCodes() {
    let result = TestBench().run(["--help"])
    #expect(result.status == .ok)
    for word in ["import", "export", "convert", "EXIT STATUS:", "64", "75"] {
      #expect(result.output.contains(word))
    }
  }

  @Test func versionPrintsTheVersion() {
    let result = TestBench().run(["--version"])
    #expect(result.status == .ok)
    #expect(result.output == "remconv \(RemconvVersion.current)\n")
  }

  struct UsageCase: Sendable, CustomTestStringConvertible {
    let arguments: [String]
    let message: String
    var testDescription: String { arguments.joined(separator: " ") }
  }

  @Test(arguments: [
    UsageCase(arguments: ["imprt", "x"], message: "Error: Unknown command 'imprt'. Did you mean 'import'?"),
    UsageCase(
      arguments: ["import", "x", "--fromat", "json"],
      message: "Error: Unknown option '--fromat'. Did you mean '--format'?"),
    UsageCase(arguments: ["import"], message: "Error: Missing expected argument '<input>'"),
    UsageCase(arguments: ["import", "a", "b"], message: "Error: Unexpected argument 'b'"),
    UsageCase(arguments: ["import", "a", "--format"], message: "Error: Missing value for '-f, --format <format>'"),
    UsageCase(
      arguments: ["import", "a", "--format", "docx"], message: "Error: The value 'docx' is invalid for '--format'"),
    UsageCase(arguments: ["import", "a", "--dry-run=yes"], message: "Error: The flag '--dry-run' takes no value"),
    UsageCase(arguments: ["export", "-x"], message: "Error: Unknown option '-x'"),
    UsageCase(arguments: [], message: "Error: Missing command"),
    UsageCase(arguments: ["convert", "a.json"], message: "Error: Missing value for '--to <format>'"),
  ])
  func usageErrorsExit64WithUsage(_ usage: UsageCase) {
    let result = TestBench().run(usage.arguments)
    #expect(result.status == .usage)
    #expect(result.errors.contains(usage.message), "\(result.errors)")
    #expect(result.errors.contains("Usage: "))
    #expect(result.output.isEmpty)
  }

  @Test func storeLocationPrecedence() {
    let environment = ["HOME": "/home/ada", "XDG_DATA_HOME": "/xdg", "REMCONV_STORE": "/env/store.sqlite"]
    #expect(StoreLocation.resolve(explicit: "/flag.sqlite", environment: environment) == "/flag.sqlite")
    #expect(StoreLocation.resolve(explicit: nil, environment: environment) == "/env/store.sqlite")
    var withoutStore = environment
    withoutStore["REMCONV_STORE"] = nil
    #expect(StoreLocation.resolve(explicit: nil, environment: withoutStore) == "/xdg/remconv/reminders.sqlite")
    withoutStore["XDG_DATA_HOME"] = nil
    #expect(
      StoreLocation.resolve(explicit: nil, environment: withoutStore)
        == "/home/ada/.local/share/remconv/reminders.sqlite")
    withoutStore["XDG_DATA_HOME"] = "relative/is/ignored"
    #expect(
      StoreLocation.resolve(explicit: nil, environment: withoutStore)
        == "/home/ada/.local/share/remconv/reminders.sqlite")
  }

  @Test func storeOptionIsAcceptedInAnyPosition() {
    let bench = TestBench()
    let sample = Repository.path("Samples/json/reminders.json")
    let first = bench.directory.file("first.sqlite")
    let second = bench.directory.file("second.sqlite")
    #expect(bench.run(["--store", first, "import", sample]).status == .ok)
    #expect(bench.run(["import", sample, "--store", second]).status == .ok)
    #expect(bench.run(["import", "--store=\(second)", sample]).status == .ok)
    #expect(FileManager.default.fileExists(atPath: first))
    #expect(FileManager.default.fileExists(atPath: second))
    #expect(!FileManager.default.fileExists(atPath: bench.storePath))
  }

  @Test func xdgDataHomeIsTheDefaultLocation() {
    let bench = TestBench()
    bench.environment["REMCONV_STORE"] = nil
    bench.environment["XDG_DATA_HOME"] = bench.directory.file("data")
    #expect(bench.run(["import", Repository.path("Samples/json/reminders.json")]).status == .ok)
    #expect(FileManager.default.fileExists(atPath: bench.directory.file("data/remconv/reminders.sqlite")))
  }

  @Test func theStoreIsCreatedPrivate() throws {
    let bench = TestBench()
    bench.run(["import", Repository.path("Samples/json/reminders.json")])
    let attributes = try FileManager.default.attributesOfItem(atPath: bench.storePath)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
  }

  @Test func missingInputExits66() {
    let result = TestBench().run(["import", "/nonexistent/tasks.json"])
    #expect(result.status == .noInput)
    #expect(result.errors.contains("/nonexistent/tasks.json: no such file or directory"))
  }

  @Test func aFileThatIsNotAStoreIsRefusedAndLeftUntouched() throws {
    let bench = TestBench()
    let notAStore = bench.directory.write("notes.txt", "my shopping list, not a database\n")
    let result = bench.run(["--store", notAStore, "import", Repository.path("Samples/json/reminders.json")])
    #expect(result.status == .dataError)
    #expect(result.errors.contains("not a SQLite database"))
    #expect(bench.directory.read("notes.txt") == "my shopping list, not a database\n")
  }

  @Test func exportNeverOverwritesWithoutForce() {
    let bench = TestBench()
    bench.run(["import", Repository.path("Samples/json/reminders.json")])
    let target = bench.directory.write("out.json", "precious")
    let refused = bench.run(["export", "-o", target])
    #expect(refused.status == .cannotCreate)
    #expect(bench.directory.read("out.json") == "precious")
    #expect(bench.run(["export", "-o", target, "--force"]).status == .ok)
    #expect(bench.directory.read("out.json") == bench.snapshot())
  }

  @Test func exportNeverFollowsASymbolicLinkAtTheTarget() throws {
    let bench = TestBench()
    bench.run(["import", Repository.path("Samples/json/reminders.json")])
    let victim = bench.directory.write("victim.txt", "do not touch")
    let link = bench.directory.file("export.json")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
    #expect(bench.run(["export", "-o", link]).status == .cannotCreate)
    #expect(bench.run(["export", "-o", link, "--force"]).status == .ok)
    #expect(bench.directory.read("victim.txt") == "do not touch")
    let replaced = try FileManager.default.attributesOfItem(atPath: link)
    #expect((replaced[.type] as? FileAttributeType) == .typeRegular)
  }

  @Test func hostileTextIsStoredAsDataNotSQL() {
    let bench = TestBench()
    let hostile = #"Robert'); DROP TABLE reminders;--"#
    let input = bench.directory.write(
      "hostile.json",
      #"{"format":"remconv","version":1,"lists":[{"id":"x' OR '1'='1","name":"\#(hostile)","reminders":[{"id":"'; DELETE FROM lists;--","title":"\#(hostile)"}]}]}"#
    )
    #expect(bench.run(["import", input]).status == .ok)
    let snapshot = bench.snapshot()
    #expect(snapshot.contains(#""title":"Robert'); DROP TABLE reminders;--""#))
    #expect(snapshot.contains(#""id":"'; DELETE FROM lists;--""#))
  }
}
