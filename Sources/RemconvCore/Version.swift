/// The version of remconv, recorded in the migration history and printed by `--version`.
public enum RemconvVersion {
  public static let current = "0.1.0"
}
