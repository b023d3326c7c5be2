import Foundation
import RemconvCLI
import RemconvCore
import RemconvTestSupport
import Testing

/// `list create|edit|delete`, and the subcommand handling of the command line around them.
@Suite struct AppListTests {
  @Test func createMakesAListWithItsSymbolAndColour() throws {
    let bench = TestBench()
    let result = bench.run(["list", "create", "Errands", "--symbol", "car", "--color", "red"])
    #expect(result.status == .ok)
    #expect(result.errors == "remconv: created the list \"Errands\"\n")
    let lists = try JSONOutput.array(JSONOutput.object(bench.run(["lists", "--json"]).output), "lists")
    let errands = try #require(lists.first)
    #expect(errands["name"] as? String == "Errands")
    #expect(errands["symbol"] as? String == "car")
    #expect(errands["color"] as? String == "#FF3B30")
    #expect(errands["createdAt"] as? String == "2026-11-29T10:00:00Z")
    #expect(bench.run(["list", "create", "Plain"]).status == .ok)
    let plain = try JSONOutput.array(JSONOutput.object(bench.run(["lists", "--json"]).output), "lists").last
    #expect(plain?["symbol"] as? String == ReminderList.defaultSymbol)
    #expect(plain?["color"] is NSNull)
  }

  @Test(arguments: ["groceries", " GROCERIES ", "Groceries"])
  func listNamesStayUniqueWhateverTheirCase(name: String) throws {
    let bench = try AppFixture.bench()
    let result = bench.run(["list", "create", name])
    #expect(result.status == .dataError)
    #expect(result.errors.contains("a list named 'Groceries' already exists"))
  }

  @Test func listNamesStayUniqueWhateverTheirNormalisation() throws {
    let bench = TestBench()
    #expect(bench.run(["list", "create", "Caf\u{E9}"]).status == .ok)
    #expect(bench.run(["list", "create", "Cafe\u{301}"]).status == .dataError)
    #expect(bench.run(["list", "create", "CAFÉ"]).status == .dataError)
    // The name is found the same way.
    #expect(bench.run(["add", "Espresso", "--list", "cafe\u{301}"]).status == .ok)
  }

  @Test func createRefusesBlankNamesAndBadValues() throws {
    let bench = TestBench()
    #expect(bench.run(["list", "create", "  "]).status == .dataError)
    #expect(bench.run(["list", "create", "A", "--color", "#12345"]).status == .usage)
    #expect(bench.run(["list", "create", "A", "--color", "mauve"]).status == .usage)
    #expect(bench.run(["list", "create", "A", "--symbol", "two words"]).status == .usage)
    #expect(bench.run(["lists", "--names"]).output.isEmpty)
  }

  @Test func editRenamesAndRecoloursAList() throws {
    let bench = try AppFixture.bench()
    let result = bench.run(["list", "edit", "groceries", "--name", "Shopping", "--symbol", "bag", "--color", "#f90"])
    #expect(result.status == .ok)
    let lists = try JSONOutput.array(JSONOutput.object(bench.run(["lists", "--json"]).output), "lists")
    let shopping = try #require(lists.first)
    #expect(shopping["name"] as? String == "Shopping")
    #expect(shopping["symbol"] as? String == "bag")
    #expect(shopping["color"] as? String == "#FF9900")
    #expect(shopping["id"] as? String == "LIST-GROCERIES")
    #expect(shopping["openCount"] as? Int == 4)
    #expect(bench.run(["list", "edit", "Shopping", "--color", "none"]).status == .ok)
    #expect(
      try JSONOutput.array(JSONOutput.object(bench.run(["lists", "--json"]).output), "lists").first?["color"] is NSNull)
  }

  @Test func editMayChangeANamesCaseButNotTakeAnothersName() throws {
    let bench = try AppFixture.bench()
    #expect(bench.run(["list", "edit", "work", "--name", "WORK"]).status == .ok)
    #expect(bench.run(["lists", "--names"]).output == "Groceries\nWORK\nSomeday\n")
    let before = bench.snapshot()
    #expect(bench.run(["list", "edit", "WORK", "--name", "groceries"]).status == .dataError)
    #expect(bench.snapshot() == before)
    #expect(bench.run(["list", "edit", "WORK"]).status == .usage)
    #expect(bench.run(["list", "edit", "Nowhere", "--name", "X"]).status == .noInput)
  }

  @Test func deleteNeedsYesWhenStandardInputIsNotATerminal() throws {
    let bench = try AppFixture.bench()
    let before = bench.snapshot()
    let refused = bench.run(["list", "delete", "Work"])
    #expect(refused.status == .usage)
    #expect(
      refused.errors.hasPrefix("Error: This deletes the list \"Work\" and its 6 reminders: give --yes to confirm"))
    #expect(bench.snapshot() == before)
    let deleted = bench.run(["list", "delete", "Work", "--yes"])
    #expect(deleted.status == .ok)
    #expect(deleted.errors == "remconv: deleted the list \"Work\" and its 6 reminders\n")
    #expect(bench.run(["lists", "--names"]).output == "Groceries\nSomeday\n")
    #expect(bench.run(["export", "--format", "jsonl"]).output.split(separator: "\n").count == 5)
  }

  @Test func deleteAsksOnATerminal() throws {
    let bench = try AppFixture.bench()
    let kept = bench.runOnTerminal(["list", "delete", "Work"], input: "n\n")
    #expect(kept.status == .ok)
    #expect(kept.errors.hasPrefix("Delete the list \"Work\" and its 6 reminders? [y/N] "))
    #expect(bench.run(["lists", "--names"]).output.contains("Work"))
    let deleted = bench.runOnTerminal(["list", "delete", "Work"], input: "y\n")
    #expect(deleted.status == .ok)
    #expect(!bench.run(["lists", "--names"]).output.contains("Work"))
  }

  // MARK: Subcommands on the command line

  @Test func helpDescribesTheSubcommands() {
    let bench = TestBench()
    let help = bench.run(["list", "--help"])
    #expect(help.status == .ok)
    #expect(help.output.contains("USAGE: remconv list [create|edit|delete]"))
    #expect(help.output.contains("SUBCOMMANDS:\n  create                    Create a list."))
    let create = bench.run(["list", "create", "--help"])
    #expect(create.output.contains("USAGE: remconv list create <name> [--symbol <symbol>] [--color <color>]"))
    #expect(create.output == bench.run(["help", "list", "create"]).output)
    // The list's --color shadows the global one in its help.
    #expect(!create.output.contains("--color <when>"))
  }

  @Test func subcommandErrorsNameTheSubcommand() {
    let bench = TestBench()
    let unknown = bench.run(["list", "crate", "X"])
    #expect(unknown.status == .usage)
    #expect(unknown.errors.hasPrefix("Error: Unknown subcommand 'crate' of 'list'. Did you mean 'create'?"))
    let missing = bench.run(["list"])
    #expect(missing.status == .usage)
    #expect(missing.errors.hasPrefix("Error: Missing subcommand of 'list' (one of: create, edit, delete)"))
    // An option of another subcommand is not accepted.
    let wrong = bench.run(["list", "create", "X", "--yes"])
    #expect(wrong.status == .usage)
    #expect(wrong.errors.contains("Usage: remconv list create <name>"))
    #expect(bench.run(["help", "list", "remove"]).status == .usage)
  }

  @Test func quietSilencesTheConfirmations() throws {
    let bench = TestBench()
    let result = bench.run(["--quiet", "list", "create", "A", "--color", "blue"])
    #expect(result.status == .ok)
    #expect(result.errors.isEmpty)
    #expect(bench.run(["add", "B", "--list", "A", "-q"]).errors.isEmpty)
  }
}
