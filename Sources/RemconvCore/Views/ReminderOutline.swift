/// Places some reminders of one list in the list's outline without reading the rest of it:
/// where `Store.forEachReminder(inListRow:)` would put them (every parent before its subtasks,
/// siblings in row order), each with its depth among the reminders placed.
///
/// That order is the order of the paths of row ids from each reminder's outline root down to
/// it, and a reminder's depth among those placed is the number of its ancestors placed with
/// it, so only the ancestors of the placed reminders are read (most reminders have none).
struct ReminderOutline {
  let store: Store
  let listRowID: Int64
  /// The row ids from the outline root down to each reminder met so far.
  private var paths: [Int64: [Int64]] = [:]

  init(store: Store, listRowID: Int64) {
    self.store = store
    self.listRowID = listRowID
  }

  /// `reminders` (of this list) in outline order with their depths among themselves, or nil
  /// when an ancestor chain runs into a cycle: the full walk places those by rules of its own.
  mutating func place<Item>(
    _ reminders: [Item], rowID: (Item) -> Int64, parentRowID: (Item) -> Int64?
  ) throws -> [(item: Item, depth: Int)]? {
    // Reminders without a parent, in row order, are in outline order already (most lists).
    if reminders.allSatisfy({ parentRowID($0) == nil }) { return reminders.map { ($0, 0) } }
    var placed: [(path: [Int64], item: Item)] = []
    placed.reserveCapacity(reminders.count)
    for item in reminders {
      guard let path = try path(to: rowID(item), parent: parentRowID(item)) else { return nil }
      placed.append((path, item))
    }
    placed.sort { $0.path.lexicographicallyPrecedes($1.path) }
    let kept = Set(reminders.map(rowID))
    return placed.map { placed in (placed.item, placed.path.dropLast().count(where: kept.contains)) }
  }

  /// The path to `rowID`, whose parent row is `parent`; nil on a cycle.
  private mutating func path(to rowID: Int64, parent: Int64?) throws -> [Int64]? {
    if let known = paths[rowID] { return known }
    // Up the chain until a reminder whose path is known or which is a root of the outline (no
    // parent, itself as parent, or a parent that is not a reminder of this list).
    var chain: [Int64] = [rowID]
    var next = parent
    var prefix: [Int64] = []
    while let candidate = next, candidate != chain.last {
      if let known = paths[candidate] {
        prefix = known
        break
      }
      guard let link = try store.outlineLink(ofReminderRow: candidate), link.listRowID == listRowID else { break }
      if chain.contains(candidate) { return nil }
      chain.append(candidate)
      next = link.parentRowID
    }
    var path = prefix
    for id in chain.reversed() {
      path.append(id)
      paths[id] = path
    }
    return path
  }
}
