import Foundation
import RemconvCLI
import RemconvCore
import RemconvTestSupport
import Testing

/// What every refused input must show: a documented exit status that is not "internal error",
/// an error naming the file (and the line when the input has one), and the store exactly as
/// it was (compared as `export --format json`).
enum Refusal {
  /// A bench holding the JSON sample, and its export.
  static func seededBench() -> (TestBench, String) {
    let bench = TestBench()
    bench.run(["import", Repository.path("Samples/json/reminders.json")])
    return (bench, bench.snapshot())
  }

  /// Checks a refusal; `location` is `LINE`, `LINE:COLUMN`, `LINE:` (any column) or nil (the
  /// file alone); `anyLine` asks for some line.
  static func check(
    _ result: CLIResult, path: String, exit: RemconvCLI.ExitStatus = .dataError, location: String? = nil,
    anyLine: Bool = false,
    message: String? = nil, bench: TestBench, before: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    #expect(
      result.status == exit, "exit \(result.status.rawValue), stderr: \(result.errors.prefix(600))",
      sourceLocation: sourceLocation)
    #expect(result.status != .software && result.status != .ok, sourceLocation: sourceLocation)
    #expect(result.errors.contains("remconv: error: "), "\(result.errors.prefix(600))", sourceLocation: sourceLocation)
    if let location {
      let expected = path + ":" + location + (location.hasSuffix(":") ? "" : ":")
      #expect(
        result.errors.contains(expected), "no '\(expected)' in: \(result.errors.prefix(600))",
        sourceLocation: sourceLocation)
    } else if anyLine {
      // The file, or for a folder format one of the files in it, with a line.
      let pattern = NSRegularExpression.escapedPattern(for: path) + #"(/[^:\n]+)?:[0-9]+[:\s]"#
      #expect(
        result.errors.range(of: pattern, options: .regularExpression) != nil,
        "no line in: \(result.errors.prefix(600))", sourceLocation: sourceLocation)
    } else {
      #expect(result.errors.contains(path), "\(result.errors.prefix(600))", sourceLocation: sourceLocation)
    }
    if let message {
      #expect(
        result.errors.contains(message), "no '\(message)' in: \(result.errors.prefix(600))",
        sourceLocation: sourceLocation)
    }
    #expect(result.output.isEmpty, sourceLocation: sourceLocation)
    #expect(bench.snapshot() == before, "the store changed", sourceLocation: sourceLocation)
  }
}

/// Every file of `Fixtures/malformed/FORMAT/` is refused as its `expectations.tsv` line says.
///
/// A folder per format (named as `FormatFolders` finds it); each `expectations.tsv` line is
/// `file<TAB>options<TAB>exit<TAB>line[:column]<TAB>message`, options `-` for none, location `-`
/// for none and `LINE:` for any column. A file whose options hold `--strict` is a warning
/// without it: then the import succeeds and warns at the same place.
@Suite struct MalformedInputTests {
  static let root = Repository.path("Tests/RemconvCLITests/Fixtures/malformed")

  struct MalformedFile: Sendable, CustomTestStringConvertible {
    let folder: String
    let file: String
    let options: [String]
    let exit: Int32
    let location: String?
    let message: String
    var path: String { MalformedInputTests.root + "/" + folder + "/" + file }
    var testDescription: String { folder + "/" + file }
  }

  static func folders() -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
    return names.filter { name in
      var isDirectory: ObjCBool = false
      return FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &isDirectory)
        && isDirectory.boolValue
    }.sorted()
  }

  /// The lines of a folder's `expectations.tsv`, comments and blank lines left out.
  static func expectations(in folder: String) -> [MalformedFile] {
    let text = (try? String(contentsOfFile: root + "/" + folder + "/expectations.tsv", encoding: .utf8)) ?? ""
    return text.split(separator: "\n").compactMap { line in
      guard !line.hasPrefix("#") else { return nil }
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard fields.count == 5, let exit = Int32(fields[2]) else { return nil }
      return MalformedFile(
        folder: folder, file: fields[0],
        options: fields[1] == "-" ? [] : fields[1].split(separator: " ").map(String.init),
        exit: exit, location: fields[3] == "-" ? nil : fields[3], message: fields[4])
    }
  }

  static let allFiles: [MalformedFile] = folders().flatMap(expectations(in:))

  @Test(arguments: allFiles)
  func isRefusedCleanly(_ file: MalformedFile) throws {
    let format = try #require(FormatFolders.format(forFolder: file.folder))
    let documented = RemconvCLI.ExitStatus(rawValue: file.exit)
    let exit = try #require(documented, "exit \(file.exit) is not a documented status")
    let (bench, before) = Refusal.seededBench()
    let result = bench.run(["import", file.path, "--format", format.name] + file.options)
    Refusal.check(
      result, path: file.path, exit: exit, location: file.location, message: file.message, bench: bench, before: before)

    if file.options.contains("--strict") {
      // Without --strict the same problem is a warning at the same place, and the import lands.
      let lenient = bench.run(
        ["import", file.path, "--format", format.name] + file.options.filter { $0 != "--strict" })
      #expect(lenient.status == .ok, "\(lenient.errors)")
      #expect(
        lenient.errors.contains("remconv: warning: " + file.path + ":" + (file.location ?? "")), "\(lenient.errors)")
    }
  }

  @Test func everyFileHasOneExpectationAndEveryFolderAFormat() throws {
    for folder in Self.folders() {
      #expect(FormatFolders.format(forFolder: folder) != nil, "Fixtures/malformed/\(folder) names no readable format")
      let listed = Self.expectations(in: folder).map(\.file)
      #expect(Set(listed).count == listed.count, "\(folder)/expectations.tsv lists a file twice")
      let files = try FileManager.default.contentsOfDirectory(atPath: Self.root + "/" + folder).filter {
        $0 != "expectations.tsv"
      }
      #expect(
        Set(files) == Set(listed),
        "\(folder): files without an expectation \(Set(files).subtracting(listed).sorted()), expectations without a file \(Set(listed).subtracting(files).sorted())"
      )
    }
  }
}

/// The hostile cases that apply to every format (`HostileCase`), generated at test time for
/// every registered readable format, so that a format merged later is covered without a line
/// of test code. Each is imported with `--strict` into a store holding the sample.
///
/// A format may legitimately accept a case (a CSV cut at a cell boundary is still CSV): such a
/// pair is listed in `Fixtures/malformed/generated-exemptions.tsv` as
/// `format<TAB>case<TAB>why`, and must then be imported whole or refused cleanly.
@Suite struct GeneratedHostileInputTests {
  static let formats = FormatRegistry.readableNames

  static let exemptions: Set<String> = {
    let text =
      (try? String(contentsOfFile: MalformedInputTests.root + "/generated-exemptions.tsv", encoding: .utf8)) ?? ""
    return Set(
      text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
        let fields = line.split(separator: "\t")
        return fields.count >= 2 ? fields[0] + "\t" + fields[1] : nil
      })
  }()

  @Test(arguments: formats, HostileCase.allCases)
  func isRefusedCleanlyOrImportedWhole(formatName: String, hostileCase: HostileCase) throws {
    let format = try #require(FormatRegistry.named(formatName))
    let (bench, before) = Refusal.seededBench()
    let input: HostileInput
    do {
      input = try HostileInputGenerator(format: format, folder: bench.directory.path).make(hostileCase)
    } catch let reason as NotApplicable {
      // The format cannot carry what the case needs (UIDs, a writer): nothing to test.
      #expect(!reason.description.isEmpty)
      return
    }
    let result = bench.run(["import", input.path, "--format", format.name, "--strict", "--quiet"])
    let exempt = Self.exemptions.contains(formatName + "\t" + hostileCase.rawValue)
    if result.status == .ok, !hostileCase.mustBeRefused || exempt {
      // Imported: the store still exports, and holds everything it held before.
      let after = try JSONParser.parse(bench.snapshot())
      let ids = { (document: JSONValue) in
        Set(
          (document["lists"]?.arrayValue ?? []).flatMap { $0["reminders"]?.arrayValue ?? [] }.compactMap {
            $0["id"]?.stringValue
          })
      }
      #expect(ids(after).isSuperset(of: ids(try JSONParser.parse(before))))
      return
    }
    Refusal.check(result, path: input.path, anyLine: hostileCase.namesALine, bench: bench, before: before)
  }
}
