import Foundation

/// Where the store lives: `--store PATH`, else `$REMCONV_STORE`, else
/// `$XDG_DATA_HOME/remconv/reminders.sqlite` (`~/.local/share/remconv/reminders.sqlite`).
public enum StoreLocation {
  public static func resolve(explicit: String?, environment: [String: String]) -> String {
    if let explicit, !explicit.isEmpty { return explicit }
    if let fromEnvironment = environment["REMCONV_STORE"], !fromEnvironment.isEmpty {
      return fromEnvironment
    }
    let dataHome: String
    if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
      dataHome = xdg
    } else {
      let home = environment["HOME"] ?? NSHomeDirectory()
      dataHome = home + "/.local/share"
    }
    return dataHome + "/remconv/reminders.sqlite"
  }
}
