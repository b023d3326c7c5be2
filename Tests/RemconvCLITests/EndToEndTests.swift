import Foundation
import RemconvCore
import RemconvTestSupport
import Testing

/// Runs the built `remconv` binary as a separate process, as a user or a pipeline would.
@Suite(.needsRemconvBinary) struct EndToEndTests {
  static let binary = RemconvBinary.path

  static func run(_ executable: String, _ arguments: [String], input: String? = nil, environment: [String: String])
    throws
    -> ProcessOutcome
  {
    try Program.run(executable, arguments, environment: environment, input: input)
  }

  @Test
  func aCopiedBinaryWorksWithoutTheCheckout() throws {
    let directory = TemporaryDirectory()
    let copy = directory.file("remconv")
    // Copied by cp in a process of its own: a copy written by this process has a descriptor open
    // for writing while other suites fork children, which inherit it, and exec then fails with
    // ETXTBSY ("Text file busy") until they exit.
    let cp = try Self.run("/bin/cp", [Self.binary, copy], environment: [:])
    #expect(cp.status == 0, "\(cp.errors)")
    let environment = [
      "HOME": directory.path, "REMCONV_STORE": directory.file("store.sqlite"), "PATH": "/usr/bin:/bin",
    ]
    let sample = Repository.read("Samples/json/reminders.json")
    let imported = try Self.run(copy, ["import", "-"], input: sample, environment: environment)
    #expect(imported.status == 0, "\(imported.errors)")
    #expect(imported.errors == "remconv: imported <stdin>: 11 added, 0 updated, 0 unchanged, 0 rejected, 4 new lists\n")
    let exported = try Self.run(copy, ["export"], environment: environment)
    #expect(exported.status == 0)
    #expect(exported.output == sample)
  }

  @Test
  func exitCodesReachTheShell() throws {
    let directory = TemporaryDirectory()
    let environment = ["HOME": directory.path, "REMCONV_STORE": directory.file("store.sqlite")]
    #expect(try Self.run(Self.binary, ["--version"], environment: environment).status == 0)
    #expect(try Self.run(Self.binary, ["import", "--bogus"], environment: environment).status == 64)
    #expect(
      try Self.run(Self.binary, ["import", directory.file("missing.json")], environment: environment).status == 66)
    let bad = try Self.run(
      Self.binary, ["import", "-", "--format", "json"], input: "{\"format\":\"remconv\",", environment: environment)
    #expect(bad.status == 65)
    #expect(bad.errors.hasPrefix("remconv: error: <stdin>:1:"))
  }

  @Test
  func noProgressLineWhenStderrIsAPipe() throws {
    let directory = TemporaryDirectory()
    var lines: [String] = []
    for index in 0..<3000 {
      lines.append(#"{"list":"Bulk","id":"bulk-\#(index)","title":"Item \#(index)"}"#)
    }
    let environment = ["HOME": directory.path, "REMCONV_STORE": directory.file("store.sqlite")]
    let result = try Self.run(
      Self.binary, ["import", "-", "--format", "jsonl"], input: lines.joined(separator: "\n"), environment: environment)
    #expect(result.status == 0)
    #expect(!result.errors.contains("\r"))
    #expect(result.errors.contains("3000 added"))
  }
}
