import Foundation

/// A list of reminders, as a reminders app shows it in its sidebar.
public struct ReminderList: Hashable, Sendable {
  /// The symbol a list gets when its source names none.
  public static let defaultSymbol = "list.bullet"
  /// The list that holds orphan reminders (their list row is gone): `validate --fix` moves them
  /// there and an export writes them there, so neither leaves one out.
  public static let recoveredName = "Recovered"

  /// A stable UID.
  public var id: String
  /// Unique in a store after trimming, NFC normalisation and case folding (`ListName.key`).
  public var name: String
  /// An SF Symbol name.
  public var symbol: String
  /// `#RRGGBB`, upper case.
  public var color: String?
  public var createdAt: Timestamp?
  /// List-level properties of the source that the model does not carry.
  public var extra: [String: JSONValue]

  public init(
    id: String, name: String, symbol: String = ReminderList.defaultSymbol, color: String? = nil,
    createdAt: Timestamp? = nil, extra: [String: JSONValue] = [:]
  ) {
    self.id = id
    self.name = name
    self.symbol = symbol
    self.color = color
    self.createdAt = createdAt
    self.extra = extra
  }
}

/// Colours as `#RRGGBB`.
public enum ListColor {
  /// Normalises `#rgb`, `#rrggbb` and `#rrggbbaa` (Apple's form, alpha dropped) to `#RRGGBB`;
  /// nil for anything else.
  public static func normalized(_ text: String) -> String? {
    var hex = text.trimmingCharacters(in: .whitespaces)
    guard hex.hasPrefix("#") else { return nil }
    hex.removeFirst()
    guard hex.allSatisfy(\.isHexDigit) else { return nil }
    switch hex.count {
    case 3: hex = hex.map { "\($0)\($0)" }.joined()
    case 6: break
    case 8: hex = String(hex.prefix(6))
    default: return nil
    }
    return "#" + hex.uppercased()
  }
}
