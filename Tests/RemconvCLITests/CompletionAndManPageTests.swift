import Foundation
import RemconvCore
import RemconvTestSupport
import Testing

@testable import RemconvCLI

/// The completion scripts and the man page: generated from the command definitions, valid in
/// their shells and in roff, and complete. The shells and roff tools are run when installed
/// (Scripts/bootstrap.sh --test installs zsh, fish, groff and mandoc); without them only the
/// structural checks run, and the tests that need one are reported as skipped, never passed.
/// In CI (`CI` set), which installs them, a missing one fails the test.
@Suite struct CompletionAndManPageTests {
  static func tool(_ name: String) -> String? {
    ["/usr/bin/", "/bin/", "/usr/local/bin/"].map { $0 + name }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  /// Whether a test needing `name` runs: when it is installed, and always in CI.
  static func runs(with name: String) -> Bool {
    tool(name) != nil || ProcessInfo.processInfo.environment["CI"] != nil
  }

  /// The tool's path; a missing one (in CI) fails the test, naming what installs it.
  static func required(_ name: String) throws -> String {
    try #require(tool(name), "\(name) is not installed: Scripts/bootstrap.sh --test installs it")
  }

  /// Runs a program; returns its status, stdout and stderr.
  static func execute(_ path: String, _ arguments: [String], environment: [String: String]? = nil) throws -> (
    Int32, String, String
  ) {
    let run = try Program.run(path, arguments, environment: environment)
    return (run.status, run.output, run.errors)
  }

  static func script(_ shell: String) -> String {
    TestBench().run(["completions", shell]).output
  }

  // MARK: Structure

  @Test(arguments: ["bash", "zsh", "fish"])
  func everyScriptNamesEveryCommandSubcommandAndOption(shell: String) {
    let script = Self.script(shell)
    for command in CLI.configurations {
      #expect(script.contains(command.name), "\(shell): \(command.name)")
      for subcommand in command.subcommands {
        #expect(script.contains(subcommand.name), "\(shell): \(subcommand.name)")
      }
      for option in command.options + command.subcommands.flatMap(\.options) + GlobalOptions.specs {
        // bash and zsh spell options out; fish declares them with -l NAME.
        let spelling = shell == "fish" ? "-l \(option.name)" : "--\(option.name)"
        #expect(script.contains(spelling), "\(shell): \(command.name) \(option.name)")
      }
    }
  }

  @Test func theBashScriptListsEachCommandsOwnOptions() {
    let script = Self.script("bash")
    for command in CLI.configurations where command.subcommands.isEmpty {
      let spellings = (command.options + GlobalOptions.specs).flatMap(CompletionScripts.CommandTree.spellings)
      let line = "    '\(command.name)') echo '\(spellings.joined(separator: " "))' ;;"
      #expect(script.contains(line), "\(command.name)")
    }
  }

  @Test func noOptionNameIsAFlagInOneCommandAndTakesAValueInAnother() {
    // The scripts skip the word after any value-taking spelling when they look for the
    // command: that is only right if no spelling is a flag elsewhere.
    let all = GlobalOptions.specs + CLI.configurations.flatMap { $0.options + $0.subcommands.flatMap(\.options) }
    let valued = Set(all.filter { !$0.isFlag }.flatMap(CompletionScripts.CommandTree.spellings))
    let flags = Set(all.filter(\.isFlag).flatMap(CompletionScripts.CommandTree.spellings))
    #expect(valued.isDisjoint(with: flags), "\(valued.intersection(flags))")
  }

  @Test func anUnknownShellIsAUsageError() {
    let bench = TestBench()
    #expect(bench.run(["completions", "tcsh"]).status == .usage)
    #expect(bench.run(["completions"]).status == .usage)
  }

  // MARK: bash

  @Test func theBashScriptParses() throws {
    let bash = try #require(Self.tool("bash"))
    let bench = TestBench()
    let file = bench.directory.write("remconv.bash", Self.script("bash"))
    let (status, _, errors) = try Self.execute(bash, ["-n", file])
    #expect(status == 0, "\(errors)")
  }

  /// What bash offers for a command line ending in `words` (the last one being completed).
  static func bashCompletions(_ words: [String], bench: TestBench, script: String) throws -> [String] {
    let bash = try #require(tool("bash"))
    let file = bench.directory.write("remconv.bash", script)
    let quoted = (["remconv"] + words).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
    let program = """
      source '\(file)'
      COMP_WORDS=(\(quoted.joined(separator: " ")))
      COMP_CWORD=\(words.count)
      _remconv
      printf '%s\\n' "${COMPREPLY[@]}"
      """
    var environment = ProcessInfo.processInfo.environment
    environment["REMCONV_STORE"] = bench.storePath
    let (status, output, errors) = try execute(bash, ["-c", program], environment: environment)
    #expect(status == 0, "\(errors)")
    return output.split(separator: "\n").map(String.init).sorted()
  }

  @Test func bashCompletesCommandsSubcommandsOptionsAndValues() throws {
    let bench = try AppFixture.bench()
    let script = Self.script("bash")
    #expect(try Self.bashCompletions(["sh"], bench: bench, script: script) == ["show"])
    #expect(try Self.bashCompletions(["list", ""], bench: bench, script: script) == ["create", "delete", "edit"])
    #expect(
      try Self.bashCompletions(["show", "--scope", ""], bench: bench, script: script)
        == ReminderScope.allCases.map(\.rawValue).sorted())
    #expect(try Self.bashCompletions(["add", "X", "--priority", "h"], bench: bench, script: script) == ["high"])
    #expect(try Self.bashCompletions(["list", "create", "X", "--c"], bench: bench, script: script) == ["--color"])
    #expect(try Self.bashCompletions(["help", "list", "d"], bench: bench, script: script) == ["delete"])
    #expect(try Self.bashCompletions(["export", "--color", "=", "n"], bench: bench, script: script) == ["never"])
  }

  @Test func bashCompletesListNamesAskedFromTheProgramBeingCompleted() throws {
    // The program on the line stands for remconv: it records its arguments and prints names.
    let bench = TestBench()
    let record = bench.directory.file("arguments")
    let program = bench.directory.write(
      "remconv", "#!/bin/sh\necho \"$@\" > '\(record)'\nprintf 'Big Shop\\nGroceries\\nWork\\n'\n")
    _ = try Self.execute("/bin/chmod", ["+x", program])
    let bash = try #require(Self.tool("bash"))
    let file = bench.directory.write("complete.bash", Self.script("bash"))
    func complete(_ words: String) throws -> [String] {
      let line =
        "source '\(file)'; COMP_WORDS=('\(program)' \(words)); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _remconv; printf '%s\\n' \"${COMPREPLY[@]}\""
      let (status, output, errors) = try Self.execute(bash, ["-c", line])
      #expect(status == 0, "\(errors)")
      return output.split(separator: "\n").map(String.init).sorted()
    }
    #expect(try complete("show ''") == ["Big\\ Shop", "Groceries", "Work"])
    #expect(try String(contentsOfFile: record, encoding: .utf8) == "lists --names\n")
    #expect(try complete("--store /tmp/s.sqlite add X --list G") == ["Groceries"])
    #expect(try String(contentsOfFile: record, encoding: .utf8) == "--store /tmp/s.sqlite lists --names\n")
  }

  // MARK: zsh and fish

  @Test(.enabled(if: runs(with: "zsh"), "needs zsh"))
  func theZshScriptParsesAndRegistersItself() throws {
    let zsh = try Self.required("zsh")
    let bench = TestBench()
    let folder = bench.directory.file("zfunc")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let file = folder + "/_remconv"
    try Self.script("zsh").write(toFile: file, atomically: true, encoding: .utf8)
    let (parsed, _, parseErrors) = try Self.execute(zsh, ["-n", file])
    #expect(parsed == 0, "\(parseErrors)")
    // compinit finds the file by its #compdef line; sourcing it defines every function (its
    // last line, the call, only works inside a completion and is silenced here).
    let program = """
      fpath=('\(folder)' $fpath); autoload -U compinit; compinit -u -D
      print -r -- $_comps[remconv]
      source '\(file)' 2>/dev/null
      whence -w _remconv _remconv_list_create _remconv_show _remconv_list_names
      """
    let (status, output, errors) = try Self.execute(zsh, ["-f", "-c", program])
    #expect(status == 0, "\(errors)")
    #expect(
      output
        == "_remconv\n_remconv: function\n_remconv_list_create: function\n_remconv_show: function\n_remconv_list_names: function\n"
    )
  }

  @Test(.enabled(if: runs(with: "fish"), "needs fish"))
  func fishCompletesLikeBash() throws {
    let fish = try Self.required("fish")
    let bench = try AppFixture.bench()
    let file = bench.directory.write("remconv.fish", Self.script("fish"))
    let (parsed, _, parseErrors) = try Self.execute(fish, ["-n", file])
    #expect(parsed == 0, "\(parseErrors)")
    func complete(_ line: String) throws -> [String] {
      let (status, output, errors) = try Self.execute(
        fish, ["--no-config", "-c", "source '\(file)'; complete -C '\(line)'"])
      #expect(status == 0)
      #expect(errors.isEmpty, "\(errors)")
      return output.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }.sorted()
    }
    #expect(try complete("remconv sh") == ["show"])
    #expect(try complete("remconv list ") == ["create", "delete", "edit"])
    #expect(try complete("remconv show --scope ") == ReminderScope.allCases.map(\.rawValue).sorted())
    #expect(try complete("remconv list create X --color r") == ["red"])
    #expect(try complete("remconv --color ") == ["always", "auto", "never"])
    #expect(try complete("remconv help list ") == ["create", "delete", "edit"])
  }

  // MARK: Man page

  @Test func theManPageDocumentsEveryCommandOptionAndExitStatus() {
    let page = TestBench().run(["man"]).output
    #expect(page.hasPrefix(".\\\" Generated by 'remconv man'"))
    #expect(page.contains(".TH REMCONV 1"))
    for command in CLI.configurations {
      #expect(page.contains(".SS \"\(command.name)\""), "\(command.name)")
      for subcommand in command.subcommands { #expect(page.contains(".SS \"\(command.name) \(subcommand.name)\"")) }
      for option in command.options + command.subcommands.flatMap(\.options) {
        #expect(
          page.contains("\\-\\-" + option.name.replacingOccurrences(of: "-", with: "\\-")),
          "\(command.name) --\(option.name)")
      }
    }
    for status in ExitStatus.allCases { #expect(page.contains(".B \(status.rawValue)\n")) }
    for variable in ManPage.environment { #expect(page.contains(".B \(variable.name)\n")) }
  }

  @Test func theManPageInDocsIsCurrent() {
    let committed = Repository.read("docs/remconv.1")
    #expect(committed == TestBench().run(["man"]).output, "docs/remconv.1 is out of date: run make man")
  }

  @Test func roffEscapesWhatWouldBeControlCharacters() {
    #expect(ManPage.text(".hidden") == "\\&.hidden")
    #expect(ManPage.text("'quote") == "\\&'quote")
    #expect(ManPage.text("a\\b") == "a\\eb")
    #expect(ManPage.text("Café") == "Caf\\[u00E9]")
    #expect(ManPage.code("--list") == "\\-\\-list")
    #expect(ManPage.paragraph(String(repeating: "word ", count: 40)).allSatisfy { $0.utf8.count <= 78 })
  }

  @Test(.enabled(if: runs(with: "groff"), "needs groff"))
  func groffRendersTheManPageWithoutWarnings() throws {
    let groff = try Self.required("groff")
    let bench = TestBench()
    let file = bench.directory.write("remconv.1", bench.run(["man"]).output)
    let (status, output, errors) = try Self.execute(groff, ["-man", "-Tutf8", "-ww", file])
    #expect(status == 0)
    #expect(errors.isEmpty, "\(errors)")
    #expect(output.contains("remconv list create"))
  }

  @Test(.enabled(if: runs(with: "mandoc"), "needs mandoc"))
  func mandocLintsTheManPage() throws {
    let mandoc = try Self.required("mandoc")
    let bench = TestBench()
    let file = bench.directory.write("remconv.1", bench.run(["man"]).output)
    let (_, output, errors) = try Self.execute(mandoc, ["-Tlint", file])
    // The page carries no date (it is generated, and reproducible): the one warning left.
    let findings = (output + errors).split(separator: "\n").filter { !$0.contains("missing date") }
    #expect(findings.isEmpty, "\(findings)")
  }
}
