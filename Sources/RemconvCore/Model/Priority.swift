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

extension Priority {
  /// iCalendar's PRIORITY (RFC 5545 §3.8.1.9, shared by `ics`, `vdir` and `jcal`) read as the
  /// model's four levels: 1–4 high, 5 medium, 6–9 low, 0 and anything else undefined.
  public init(iCalendarNumber number: Int) {
    switch number {
    case 1...4: self = .high
    case 5: self = .medium
    case 6...9: self = .low
    default: self = .none
    }
  }

  /// The PRIORITY written for this level: 1, 5 or 9, nothing for none.
  public var iCalendarNumber: Int? {
    switch self {
    case .high: 1
    case .medium: 5
    case .low: 9
    case .none: nil
    }
  }
}
