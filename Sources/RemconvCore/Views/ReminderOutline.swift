/// Places some reminders of one list in the list's outline without reading the rest of it:
/// where `Store.forEachReminder(inListRow:)` would put them (every parent before its subtasks,
/// siblings in row order), each with its depth among the reminders placed.
///
/// That order is a walk of the tree of the placed reminders and their ancestors, parents
/// before their subtasks and siblings in row order, and a reminder's depth among those placed
/// is the number of its ancestors placed with it, so only the ancestors of the placed
/// reminders are read (most reminders have none). The tree is held by node numbers (the
/// placed reminders first, then the ancestors read), so a reminder costs one dictionary entry
/// keyed by its row id and a place in a few flat arrays, however deep it sits.
struct ReminderOutline {
  let store: Store
  let listRowID: Int64
  /// What the store said of each ancestor row read so far (kept between calls).
  private var ancestors: [Int64: AncestorLink] = [:]
  /// The last call's tree: its reminders' links, which a later call asks of their subtasks
  /// (a list's Completed section placed after its members) instead of the store.
  private var placedBefore: Tree?

  private enum AncestorLink {
    /// Not a reminder of this list: the row under it is a root of the outline.
    case outside
    /// A root of the outline (no parent, or itself as parent).
    case root
    case child(of: Int64)
  }

  init(store: Store, listRowID: Int64) {
    self.store = store
    self.listRowID = listRowID
  }

  /// The positions `0..<count` of some reminders of this list (in row order, the row id and
  /// parent row id of each given by its position) in outline order, each with its depth among
  /// them, or nil when an ancestor chain runs into a cycle: the full walk places those by rules
  /// of its own. Positions, not the reminders themselves, so that a caller hands each out from
  /// where it is held instead of from a copy.
  mutating func place(
    count: Int, rowID: (Int) -> Int64, parentRowID: (Int) -> Int64?
  ) throws -> [(node: Int, depth: Int)]? {
    // Reminders without a parent, in row order, are in outline order already (most lists).
    if (0..<count).allSatisfy({ parentRowID($0) == nil }) { return (0..<count).map { ($0, 0) } }
    var tree = Tree(placed: count)
    for node in 0..<count { tree.add(rowID(node), as: node) }
    for node in 0..<count {
      var child = node
      var parent = parentRowID(node)
      // Up the chain until a root of the outline or a row already in the tree.
      while let parentRow = parent, parentRow != tree.rowIDs[child] {
        if let known = tree.node(of: parentRow) {
          tree.parents[child] = known
          break
        }
        let link = try ancestorLink(of: parentRow)
        if case .outside = link { break }
        let ancestor = tree.addAncestor(parentRow)
        tree.parents[child] = ancestor
        child = ancestor
        if case .child(let grandparent) = link { parent = grandparent } else { parent = nil }
      }
    }
    placedBefore = tree
    return tree.walk()
  }

  private mutating func ancestorLink(of rowID: Int64) throws -> AncestorLink {
    if let known = ancestors[rowID] { return known }
    // A root of that tree has no parent, itself as parent, or one outside the list: each of
    // which makes the row under it a child of a root, as `.root` does.
    if let tree = placedBefore, let node = tree.node(of: rowID) {
      return tree.parents[node] < 0 ? .root : .child(of: tree.rowIDs[tree.parents[node]])
    }
    let link: AncestorLink
    if let found = try store.outlineLink(ofReminderRow: rowID), found.listRowID == listRowID {
      link = found.parentRowID.map { .child(of: $0) } ?? .root
    } else {
      link = .outside
    }
    ancestors[rowID] = link
    return link
  }

  /// The placed reminders (nodes `0..<placed`) and their ancestors, each with its parent node.
  private struct Tree {
    let placed: Int
    private(set) var rowIDs: [Int64] = []
    /// Each node's parent node, -1 for a root.
    var parents: [Int] = []
    private var nodes: [Int64: Int] = [:]

    init(placed: Int) {
      self.placed = placed
      rowIDs.reserveCapacity(placed)
      parents.reserveCapacity(placed)
      nodes.reserveCapacity(placed)
    }

    func node(of rowID: Int64) -> Int? { nodes[rowID] }

    mutating func add(_ rowID: Int64, as node: Int) {
      rowIDs.append(rowID)
      parents.append(-1)
      nodes[rowID] = node
    }

    mutating func addAncestor(_ rowID: Int64) -> Int {
      add(rowID, as: rowIDs.count)
      return rowIDs.count - 1
    }

    /// The placed nodes, parents before their children and siblings in row order, each with
    /// the number of its placed ancestors; nil when a placed node is not under a root (its
    /// chain runs into a cycle).
    func walk() -> [(node: Int, depth: Int)]? {
      // Every node's children together, in row order, after the roots (parent -1).
      let order = rowIDs.indices.sorted { left, right in
        parents[left] != parents[right] ? parents[left] < parents[right] : rowIDs[left] < rowIDs[right]
      }
      let roots = order.firstIndex { parents[$0] >= 0 } ?? order.count
      var firstChild = [Int](repeating: order.count, count: rowIDs.count)
      for position in order.indices.reversed() where parents[order[position]] >= 0 {
        firstChild[parents[order[position]]] = position
      }
      var result: [(node: Int, depth: Int)] = []
      result.reserveCapacity(placed)
      // Positions in `order` still to visit, deepest last; each with its placed ancestors.
      var stack: [(position: Int, depth: Int)] = []
      for position in (0..<roots).reversed() { stack.append((position, 0)) }
      while let (position, depth) = stack.popLast() {
        let node = order[position]
        let isPlaced = node < placed
        if isPlaced { result.append((node, depth)) }
        var child = firstChild[node]
        let childDepth = isPlaced ? depth + 1 : depth
        let start = stack.count
        while child < order.count, parents[order[child]] == node {
          stack.append((child, childDepth))
          child += 1
        }
        stack[start...].reverse()
      }
      return result.count == placed ? result : nil
    }
  }
}
