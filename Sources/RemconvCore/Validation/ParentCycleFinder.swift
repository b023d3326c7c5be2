/// Finds cycles in the subtask relation without recursion, so a chain of any length is fine.
///
/// Every row has at most one parent, so each weakly connected piece holds at most one cycle,
/// and one walk up from every unvisited row finds all of them in linear time: a walk that
/// meets its own path has found a cycle; one that meets an earlier walk or a top-level row
/// has not.
struct ParentCycleFinder {
  /// Subtask rows in ascending order, with their parent rows alongside.
  private var rows: [Int64] = []
  private var parents: [Int64] = []

  /// Adds one (row, parent) link; rows must come in ascending order (the store's row order).
  mutating func add(row: Int64, parent: Int64) {
    rows.append(row)
    parents.append(parent)
  }

  /// Every cycle, each as its rows in parent order starting from its lowest row.
  func cycles() -> [[Int64]] {
    enum Mark: UInt8 { case unvisited, onPath, done }
    var marks = [Mark](repeating: .unvisited, count: rows.count)
    var found: [[Int64]] = []
    var path: [Int] = []
    for start in rows.indices where marks[start] == .unvisited {
      path.removeAll(keepingCapacity: true)
      var current: Int? = start
      while let index = current {
        if marks[index] == .done { break }
        if marks[index] == .onPath {
          if let begin = path.lastIndex(of: index) {
            found.append(Self.normalized(path[begin...].map { rows[$0] }))
          }
          break
        }
        marks[index] = .onPath
        path.append(index)
        current = position(of: parents[index])
      }
      for index in path { marks[index] = .done }
    }
    return found.sorted { ($0.first ?? 0) < ($1.first ?? 0) }
  }

  /// The index of `row` among the subtask rows, by binary search (nil: top-level or missing).
  private func position(of row: Int64) -> Int? {
    var low = 0
    var high = rows.count
    while low < high {
      let middle = (low + high) / 2
      if rows[middle] < row { low = middle + 1 } else { high = middle }
    }
    return low < rows.count && rows[low] == row ? low : nil
  }

  /// A cycle rotated to start at its lowest row, so one cycle reads the same however found.
  static func normalized(_ cycle: [Int64]) -> [Int64] {
    guard let lowest = cycle.indices.min(by: { cycle[$0] < cycle[$1] }) else { return cycle }
    return Array(cycle[lowest...] + cycle[..<lowest])
  }

  /// The scoped search: walks up from each start it is given one parent at a time through a
  /// lookup (the store's), for checking a few rows of a big store without loading every link.
  /// The starts are fed one at a time, so that they can be stepped from the store instead of
  /// held: what it keeps is a bit per row explored and the cycles found.
  struct ScopedSearch {
    private var explored = RowBits()
    private var seen = Set<[Int64]>()
    private var found: [[Int64]] = []

    /// Follows `start`'s parents until a top-level row, a row explored before, or a cycle.
    mutating func walk(from start: Int64, parentOf: (Int64) throws -> Int64?) rethrows {
      guard !explored.contains(start) else { return }
      var path: [Int64] = []
      var onPath = Set<Int64>()
      var current: Int64? = start
      while let row = current, !explored.contains(row) {
        if onPath.contains(row) {
          if let begin = path.firstIndex(of: row) {
            let cycle = ParentCycleFinder.normalized(Array(path[begin...]))
            if seen.insert(cycle).inserted { found.append(cycle) }
          }
          break
        }
        onPath.insert(row)
        path.append(row)
        current = try parentOf(row)
      }
      // Every row of this walk has been followed to its end: walking it again finds nothing new.
      for row in path { explored.insert(row) }
    }

    /// The cycles found, each from its lowest row, in the order of their lowest rows.
    var cycles: [[Int64]] { found.sorted { ($0.first ?? 0) < ($1.first ?? 0) } }
  }
}
