import Foundation
import RemconvCLI
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// A password in a remote's URL (issue 41, finding 8) is never stored, printed or used.
@Suite struct RemoteCredentialTests {
  static let secret = "s3cret-in-the-url"

  @Test(arguments: ["http://ana:\(secret)@127.0.0.1:1/dav/", "https://ana@example.org/dav/"])
  func aURLWithAUserOrPasswordIsRefusedAndNothingIsStored(_ url: String) throws {
    let bench = TestBench()
    let added = bench.run(["remote", "add", "cal", url])
    #expect(added.status == .usage, "\(added.errors)")
    #expect(added.errors.contains("--password-env") && added.errors.contains("--user"), "\(added.errors)")
    #expect(!(added.output + added.errors).contains(Self.secret))
    #expect(!FileManager.default.fileExists(atPath: bench.storePath), "a refused command created the store")
  }

  /// A remote an earlier remconv stored with its password in the URL: shown without it, and a
  /// sync refuses it before any request.
  @Test func aStoredURLWithAPasswordIsShownWithoutItAndNotSynced() throws {
    let bench = TestBench()
    #expect(bench.run(["list", "create", "Work"]).status == .ok)
    let store = try Store(path: bench.storePath)
    try store.write {
      try store.addRemote(
        RemoteConfiguration(name: "old", url: "http://ana:\(Self.secret)@127.0.0.1:1/dav/", user: nil, password: nil))
    }
    store.close()
    for arguments in [
      ["remote", "list"], ["remote", "list", "--json"], ["sync", "old"], ["sync", "old", "--report", "json"],
    ] {
      let result = bench.run(arguments)
      #expect(!(result.output + result.errors).contains(Self.secret), "\(arguments) printed the password")
      if arguments[0] == "sync" {
        #expect(result.status == .storeTooNew, "\(arguments): \(result.errors)")
        #expect(result.errors.contains("URL holds a user name or password"), "\(result.errors)")
      } else {
        #expect(result.status == .ok && result.output.contains("ana:***@127.0.0.1"), "\(arguments): \(result.output)")
      }
    }
  }
}
