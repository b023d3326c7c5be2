import Foundation
import RemconvCore

#if REMCONV_LIBFUZZER
  /// libFuzzer's entry for programs that have their own `main` (SwiftPM gives every executable
  /// one): runs the fuzzing loop with the command line's libFuzzer flags.
  @_extern(c, "LLVMFuzzerRunDriver")
  func runLibFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
  ) -> CInt

  /// The harness of this process; libFuzzer's callback is a C function and cannot capture it.
  nonisolated(unsafe) private var activeHarness: FuzzHarness?
#endif

/// `remconv-fuzz`: the fuzz harness of every readable format.
///
/// Built by `Scripts/fuzz.sh` with `-sanitize=fuzzer -D REMCONV_LIBFUZZER`, it is a libFuzzer
/// binary for the format in `$REMCONV_FUZZ_FORMAT` (an environment variable, so that libFuzzer's
/// own re-executions keep it) and takes libFuzzer's flags and corpus folders.
///
/// `remconv-fuzz --formats` lists the formats there is a harness for (every readable one).
///
/// Built normally (`swift build`), it replays inputs: `remconv-fuzz FORMAT FILE|FOLDER...` runs
/// each file through the same harness, prints what happened, and exits 1 if any input is a
/// finding — how a crash that libFuzzer saved is reproduced with a debugger-friendly build.
@main
enum FuzzMain {
  static func main() {
    if CommandLine.arguments.dropFirst().first == "--formats" {
      // For scripts: the formats there is a harness for, one per line.
      for name in FormatRegistry.readableNames { print(name) }
      exit(0)
    }
    #if REMCONV_LIBFUZZER
      exit(fuzz())
    #else
      exit(replay(Array(CommandLine.arguments.dropFirst())))
    #endif
  }

  static func harness(for name: String) -> FuzzHarness {
    guard let format = FormatRegistry.named(name), format.canRead else {
      printError(
        "remconv-fuzz: unknown or unreadable format '\(name)' (one of \(FormatRegistry.readableNames.joined(separator: ", ")))"
      )
      exit(64)
    }
    do {
      return try FuzzHarness(format: format)
    } catch {
      printError("remconv-fuzz: cannot set up the harness: \(error)")
      exit(70)
    }
  }

  static func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }

  #if REMCONV_LIBFUZZER
    static func fuzz() -> CInt {
      guard let name = ProcessInfo.processInfo.environment["REMCONV_FUZZ_FORMAT"] else {
        printError("remconv-fuzz: set REMCONV_FUZZ_FORMAT to the format to fuzz")
        return 64
      }
      activeHarness = harness(for: name)
      var argc = CommandLine.argc
      var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
      return runLibFuzzerDriver(&argc, &argv) { data, size in
        guard let harness = activeHarness else { return 0 }
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        do {
          _ = try harness.run(bytes)
        } catch {
          fatalError("remconv-fuzz: finding in \(harness.format.name): \(error)")
        }
        return 0
      }
    }
  #else
    static func replay(_ arguments: [String]) -> Int32 {
      guard arguments.count >= 2 else {
        printError("usage: remconv-fuzz FORMAT FILE|FOLDER...  (replays inputs through the fuzz harness)")
        return 64
      }
      let harness = harness(for: arguments[0])
      var findings = 0
      for path in arguments.dropFirst().flatMap(files(at:)) {
        guard let data = FileManager.default.contents(atPath: path) else {
          printError("\(path): cannot read")
          findings += 1
          continue
        }
        do {
          print("\(path): \(try harness.run(Array(data)))")
        } catch {
          print("\(path): FINDING: \(error)")
          findings += 1
        }
      }
      return findings == 0 ? 0 : 1
    }

    /// The files of a folder (sorted), or the path itself.
    static func files(at path: String) -> [String] {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
        return [path]
      }
      let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
      return names.sorted().map { path + "/" + $0 }
    }
  #endif
}
