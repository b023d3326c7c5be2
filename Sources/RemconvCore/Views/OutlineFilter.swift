/// Keeps some items of an outline and gives each kept item its depth among the kept ones.
///
/// The store hands out reminders in outline order (every parent before its subtasks) with
/// their depth. When a filter leaves a parent out, its kept subtasks move up under their
/// nearest kept ancestor, or to the top level, so that an outline writer or a view never sees
/// a subtask deeper than the item before it allows.
public struct OutlineFilter: Sendable {
  /// The original depths of the kept items that are ancestors of the next item.
  private var keptAncestors: [Int] = []

  public init() {}

  /// Visits the next item, at `depth` in the full outline. Returns its depth among the kept
  /// items, or nil when it is not kept.
  public mutating func visit(depth: Int, kept: Bool) -> Int? {
    while let last = keptAncestors.last, last >= depth { keptAncestors.removeLast() }
    guard kept else { return nil }
    defer { keptAncestors.append(depth) }
    return keptAncestors.count
  }
}
