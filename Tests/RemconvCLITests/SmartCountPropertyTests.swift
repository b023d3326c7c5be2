import Foundation
import RemconvCLI
import RemconvCore
import RemconvTestSupport
import Testing

/// On randomly generated stores, the counts `remconv lists` shows equal the lengths of the
/// views (`show --scope`, `show LIST`) and of the scoped exports: one rule decides all three.
@Suite struct SmartCountPropertyTests {
  /// A small deterministic generator (SplitMix64), so a failing seed can be rerun.
  struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  /// A remconv JSON document of `count` reminders over a few lists, with due dates of every
  /// kind scattered over the days around the fixed clock (and near midnight in several
  /// zones), done and flagged states, and subtasks several levels deep.
  static func randomStore(seed: UInt64, count: Int) -> String {
    var random = SeededGenerator(state: seed)
    let listCount = Int.random(in: 2...5, using: &random)
    let zones = ["Europe/Berlin", "America/New_York", "Asia/Tokyo", "Pacific/Kiritimati", "Pacific/Pago_Pago", "UTC"]
    var lists = (0..<listCount).map { index in (id: "L\(index)", name: "List \(index)", reminders: [String]()) }
    var idsByList = [[String]](repeating: [], count: listCount)
    for index in 0..<count {
      let list = Int.random(in: 0..<listCount, using: &random)
      let id = String(format: "R%05d-%016llX", index, random.next())
      var members = ["\"id\":\"\(id)\"", "\"title\":\"Reminder \(index)\""]
      let done = Int.random(in: 0..<4, using: &random) == 0
      members.append("\"isDone\":\(done)")
      if done { members.append("\"completedAt\":\"2026-11-28T12:00:00Z\"") }
      members.append("\"flagged\":\(Int.random(in: 0..<4, using: &random) == 0)")
      let day = Int.random(in: 27...30, using: &random)
      let hour = [0, 1, 9, 12, 22, 23].randomElement(using: &random) ?? 0
      let time = String(format: "2026-11-%02dT%02d:%02d:00", day, hour, Int.random(in: 0..<60, using: &random))
      switch Int.random(in: 0..<5, using: &random) {
      case 0: break
      case 1: members.append("\"dueDate\":\"2026-11-\(day)\"")
      case 2: members.append("\"dueDate\":\"\(time)\"")
      case 3: members.append("\"dueDate\":\"\(time)Z\"")
      default:
        members.append("\"dueDate\":\"\(time)\",\"dueTimeZone\":\"\(zones.randomElement(using: &random) ?? "UTC")\"")
      }
      members.append("\"priority\":\"\(Priority.allCases.randomElement(using: &random)?.rawValue ?? "none")\"")
      if !idsByList[list].isEmpty, Bool.random(using: &random) {
        members.append("\"parentId\":\"\(idsByList[list].randomElement(using: &random) ?? "")\"")
      }
      idsByList[list].append(id)
      lists[list].reminders.append("{" + members.joined(separator: ",") + "}")
    }
    let listObjects = lists.map { list in
      "{\"id\":\"\(list.id)\",\"name\":\"\(list.name)\",\"reminders\":[\(list.reminders.joined(separator: ",\n"))]}"
    }
    return "{\"format\":\"remconv\",\"version\":1,\"lists\":[\n\(listObjects.joined(separator: ",\n"))\n]}\n"
  }

  @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
  func countsEqualViewsAndScopedExports(seed: UInt64) throws {
    // Each seed also runs in another zone, so the day's edges fall elsewhere.
    let zone = ["Europe/Berlin", "America/New_York", "Asia/Tokyo", "Pacific/Kiritimati"][Int(seed % 4)]
    let bench = TestBench(environment: ["TZ": zone])
    let file = bench.directory.write("random.json", Self.randomStore(seed: seed, count: 300))
    try #require(bench.run(["import", file]).status == .ok)

    let summary = try JSONOutput.object(bench.run(["lists", "--json"]).output)
    let counts = try #require(summary["counts"] as? [String: Int])
    for scope in ReminderScope.counted {
      let count = try #require(counts[scope.rawValue])
      let view = try JSONOutput.object(bench.run(["show", "--scope", scope.rawValue, "--json"]).output)
      #expect(view["count"] as? Int == count, "seed \(seed) \(scope) view count")
      #expect(try JSONOutput.array(view, "reminders").count == count, "seed \(seed) \(scope) view")
      let exported = bench.run(["export", "--scope", scope.rawValue, "--format", "jsonl"]).output
      #expect(exported.split(separator: "\n").count == count, "seed \(seed) \(scope) export")
      // The day grouping shows the same reminders.
      let grouped = try JSONOutput.object(bench.run(["show", "-s", scope.rawValue, "--group", "day", "--json"]).output)
      #expect(try JSONOutput.array(grouped, "reminders").count == count)
    }
    let completed = try JSONOutput.object(bench.run(["show", "--scope", "completed", "--json"]).output)
    let completedExport = bench.run(["export", "--scope", "completed", "--format", "jsonl"]).output
    #expect(completed["count"] as? Int == completedExport.split(separator: "\n").count)

    var openTotal = 0
    for list in try JSONOutput.array(summary, "lists") {
      let name = try #require(list["name"] as? String)
      let open = try #require(list["openCount"] as? Int)
      let view = try JSONOutput.object(bench.run(["show", name, "--json"]).output)
      #expect(view["count"] as? Int == open, "seed \(seed) list \(name)")
      let exported = bench.run(["export", "--scope", "all", "--list", name, "--format", "jsonl"]).output
      #expect(exported.split(separator: "\n").count == open)
      openTotal += open
    }
    #expect(openTotal == counts["all"])
    // Every reminder is in All or Completed, never both.
    let total = bench.run(["export", "--format", "jsonl"]).output.split(separator: "\n").count
    #expect(total == openTotal + (completed["count"] as? Int ?? -1))
  }

  @Test func theGeneratedStoresCoverEveryDueKindAndToday() throws {
    let document = Self.randomStore(seed: 1, count: 300)
    #expect(document.contains("\"dueTimeZone\""))
    #expect(document.contains("Z\""))
    #expect(document.contains("\"parentId\""))
    let bench = TestBench()
    let file = bench.directory.write("random.json", document)
    try #require(bench.run(["import", file]).status == .ok)
    let counts = try #require(try JSONOutput.object(bench.run(["lists", "--json"]).output)["counts"] as? [String: Int])
    #expect((counts["today"] ?? 0) > 0)
    #expect((counts["flagged"] ?? 0) > 0)
    #expect((counts["scheduled"] ?? 0) < (counts["all"] ?? 0))
  }
}
