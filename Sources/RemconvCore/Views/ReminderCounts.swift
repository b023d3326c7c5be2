/// The counts a reminders app shows in its sidebar, always derived from the reminders.
public struct ReminderCounts: Sendable {
  /// Reminders not done, by list row id (lists without any are absent).
  public private(set) var openByList: [Int64: Int] = [:]
  /// Reminders in each scope of `ReminderScope.counted` (and `completed`).
  public private(set) var byScope: [ReminderScope: Int] = [:]

  public init() {}

  /// Counts the store's reminders on `today`, streaming them (one pass, facts only). Call it
  /// inside `store.read` with the query of the lists, so both see one snapshot.
  public init(store: Store, today: Today) throws {
    try store.forEachReminderFacts { listRowID, facts in
      add(facts, inListRow: listRowID, today: today)
    }
  }

  /// Counts one more reminder.
  public mutating func add(_ facts: ReminderFacts, inListRow listRowID: Int64, today: Today) {
    for scope in ReminderScope.allCases where scope.contains(facts, today: today) {
      byScope[scope, default: 0] += 1
    }
    if ReminderScope.all.contains(facts, today: today) { openByList[listRowID, default: 0] += 1 }
  }

  public func open(inListRow listRowID: Int64) -> Int { openByList[listRowID] ?? 0 }

  public func count(_ scope: ReminderScope) -> Int { byScope[scope] ?? 0 }
}
