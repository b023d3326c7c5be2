/// What a writer's format has no place for, by what it is, with how many items it concerns:
/// reported once at the end as one `cannot-carry` warning each, instead of one per item.
struct UncarriedTally {
  private var counts: [String: Int] = [:]

  mutating func count(_ what: String) {
    counts[what, default: 0] += 1
  }

  /// Counts the list attributes a format without list metadata drops.
  mutating func countListMetadata(of list: ReminderList) {
    if list.symbol != ReminderList.defaultSymbol || list.color != nil || list.createdAt != nil || !list.extra.isEmpty {
      count("list symbols, colours, creation times and extra data (lists)")
    }
  }

  func report(format: String, to diagnostics: DiagnosticLog) {
    for (what, count) in counts.sorted(by: { $0.key < $1.key }) {
      diagnostics.warning("cannot-carry", "\(format) cannot carry \(what): \(count)")
    }
  }
}
