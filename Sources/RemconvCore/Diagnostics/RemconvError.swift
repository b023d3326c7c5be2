/// Errors with a meaning for the user, each mapped to one exit status by the CLI.
public enum RemconvError: Error, Sendable, CustomStringConvertible {
  /// The input is not well-formed for its format (EX_DATAERR).
  case malformedInput(String, at: SourceLocation, uid: String? = nil)
  /// The input holds something remconv refuses: an unknown format, a value out of range with
  /// `--strict`, a limit hit (EX_DATAERR).
  case invalidInput(String, at: SourceLocation? = nil)
  /// The input does not exist or cannot be read (EX_NOINPUT).
  case inputMissing(String)
  /// The output cannot be created (EX_CANTCREAT).
  case cannotCreateOutput(String)
  /// Reading or writing failed midway (EX_IOERR).
  case ioFailure(String)
  /// The store is busy with another writer beyond the busy timeout (EX_TEMPFAIL).
  case storeBusy(String)
  /// The store file is not a remconv store, or is damaged (EX_DATAERR).
  case notAStore(String)
  /// The store needs an upgrade and `--no-upgrade` was given.
  case upgradeRefused(String)
  /// The store was written by a newer remconv: it is never written.
  case storeTooNew(String)
  /// A migration already applied no longer matches its file.
  case migrationTampered(String)
  /// A migration could not be applied; nothing was changed.
  case migrationFailed(String)
  /// A request that cannot be carried out on this store (no such reminder, ambiguous id, ...).
  case notFound(String)
  case conflict(String)

  public var description: String {
    switch self {
    case .malformedInput(let message, let location, let uid):
      "\(location): \(message)" + (uid.map { " (UID \($0))" } ?? "")
    case .invalidInput(let message, let location):
      (location.map { "\($0): " } ?? "") + message
    case .inputMissing(let message), .cannotCreateOutput(let message), .ioFailure(let message),
      .storeBusy(let message), .notAStore(let message), .upgradeRefused(let message),
      .storeTooNew(let message), .migrationTampered(let message), .migrationFailed(let message),
      .notFound(let message), .conflict(let message):
      message
    }
  }
}
