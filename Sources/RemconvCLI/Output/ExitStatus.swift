import RemconvCore

/// The exit statuses of remconv, after sysexits(3). This is the one place errors become codes.
public enum ExitStatus: Int32, CaseIterable, Sendable {
  /// Success, `--help`, `--version`.
  case ok = 0
  /// The command ran and found problems (`validate` findings).
  case findings = 1
  /// EX_USAGE: the command line is wrong.
  case usage = 64
  /// EX_DATAERR: the input is malformed or refused, or the store file is not a remconv store.
  case dataError = 65
  /// EX_NOINPUT: an input file or a named item does not exist, or the store a read needs.
  case noInput = 66
  /// EX_UNAVAILABLE: the remote of a sync cannot be reached (after bounded retries).
  case unavailable = 69
  /// EX_SOFTWARE: an internal error (a bug).
  case software = 70
  /// EX_CANTCREAT: an output cannot be created (exists without --force, no permission).
  case cannotCreate = 73
  /// EX_IOERR: reading or writing failed (disk full, read-only store).
  case ioError = 74
  /// EX_TEMPFAIL: the store is busy with another writer; try again.
  case busy = 75
  /// EX_NOPERM: the store was written by a newer remconv and is never written by this one, or
  /// the remote of a sync refused the credentials.
  case storeTooNew = 77
  /// EX_CONFIG: the store needs an upgrade and `--no-upgrade` was given, or a migration
  /// already applied no longer matches this remconv's copy.
  case upgradeRefused = 78

  /// What each status means, for `--help` and the README.
  public var meaning: String {
    switch self {
    case .ok: "success"
    case .findings: "the command ran and found problems (validate)"
    case .usage: "the command line is wrong"
    case .dataError: "the input is malformed or refused, or the file is not a remconv store"
    case .noInput: "an input file, list or reminder does not exist, or the store for a command that only reads"
    case .unavailable: "the remote of a sync cannot be reached"
    case .software: "internal error"
    case .cannotCreate: "an output cannot be created (exists: use --force; the store or one of its files)"
    case .ioError: "reading or writing failed (disk full, read-only store, standard output)"
    case .busy: "the store is busy with another writer"
    case .storeTooNew: "the store was written by a newer remconv, or a sync's remote refused the credentials"
    case .upgradeRefused: "the store needs an upgrade (--no-upgrade given) or a migration was altered"
    }
  }

  /// The status for an error thrown by a command.
  static func from(_ error: any Error) -> ExitStatus {
    switch error {
    case let error as RemconvError:
      switch error {
      case .malformedInput, .invalidInput, .notAStore, .migrationFailed: return .dataError
      case .inputMissing, .notFound: return .noInput
      case .cannotCreateOutput: return .cannotCreate
      case .ioFailure: return .ioError
      case .storeBusy: return .busy
      case .storeTooNew: return .storeTooNew
      case .upgradeRefused, .migrationTampered: return .upgradeRefused
      case .conflict: return .dataError
      }
    case let error as SyncError:
      switch error {
      case .authenticationRefused: return .storeTooNew
      case .unreachable: return .unavailable
      case .malformedResponse, .refused, .massDeletionRefused, .invalidSyncToken: return .dataError
      }
    case let failure as ImportFailure:
      if let underlying = failure.underlying { return from(underlying) }
      return .dataError
    case is UsageError, is AmbiguousReminderID:
      return .usage
    case let error as SQLiteError:
      if error.isBusy { return .busy }
      if error.isIOFailure || error.isReadOnly { return .ioError }
      return .software
    default:
      return .software
    }
  }
}
