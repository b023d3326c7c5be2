/// A reminder's priority, as a reminders app offers it.
public enum Priority: String, CaseIterable, Comparable, Sendable {
  case none, low, medium, high

  /// The value stored in the `priority` column: 0 none, 1 low, 2 medium, 3 high.
  public var storedValue: Int {
    switch self {
    case .none: 0
    case .low: 1
    case .medium: 2
    case .high: 3
    }
  }

  public init?(storedValue: Int) {
    guard let priority = Self.allCases.first(where: { $0.storedValue == storedValue }) else {
      return nil
    }
    self = priority
  }

  public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.storedValue < rhs.storedValue }
}
