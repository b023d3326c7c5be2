/// A reminder's alarm: when it goes off, and how.
public struct Alarm: Hashable, Sendable {
  /// What a relative trigger is counted from.
  public enum Anchor: String, Hashable, Sendable {
    case due, start
  }

  /// When the alarm goes off.
  public enum Trigger: Hashable, Sendable {
    /// At an instant.
    case absolute(Timestamp)
    /// `seconds` after the reminder's due or start date (negative: before it).
    case relative(seconds: Int, to: Anchor)
  }

  public var trigger: Trigger
  /// "DISPLAY", "AUDIO", "EMAIL", ... as the source gave it.
  public var action: String
  /// The alarm's description.
  public var text: String?

  public init(trigger: Trigger, action: String = "DISPLAY", text: String? = nil) {
    self.trigger = trigger
    self.action = action
    self.text = text
  }
}
