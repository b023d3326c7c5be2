import Foundation

/// A test-only hook: with `REMCONV_TEST_PAUSE_AT_STEP` set, the migrator stops at one point of
/// an upgrade, says so on standard error and sleeps, so that a test can kill the process there
/// with SIGKILL and check that the store is exactly the old or the new version.
///
/// Points: `0` after the backup is verified and before the first step; `N` after step N is
/// applied (inside the transaction, before the next step); `commit` right after COMMIT. The
/// line written is `remconv-test: paused at <point>`. After 60 seconds the run continues, so
/// a forgotten process does not hold the store's lock for ever. Unset, the hook does nothing.
///
/// It exists in debug builds only (the tests' build): a release binary neither reads the
/// variable nor pauses, so a stray variable in a user's environment cannot make an upgrade
/// sleep while it holds the store's lock. Documented in docs/migrations.md, "Test hook".
struct MigrationTestPause {
  let point: String?

  /// Whether this build has the hook (debug builds only).
  static var isCompiledIn: Bool {
    #if DEBUG
      true
    #else
      false
    #endif
  }

  /// The pause point `environment` asks for; nil in a release build.
  static func point(in environment: [String: String]) -> String? {
    #if DEBUG
      environment["REMCONV_TEST_PAUSE_AT_STEP"]
    #else
      nil
    #endif
  }

  func reached(_ name: String) {
    #if DEBUG
      guard let point, point == name else { return }
      let line = "remconv-test: paused at \(name)\n"
      _ = line.withCString { write(2, $0, strlen($0)) }
      let deadline = Date().addingTimeInterval(60)
      while Date() < deadline { usleep(50_000) }
    #endif
  }
}
