/// What a sync did (or, with `--dry-run`, would do): `remconv sync --report json` prints it.
public struct SyncReport: Sendable, Equatable {
  /// Items created or replaced on the remote.
  public var uploaded = 0
  /// Reminders added or changed in the store from the remote.
  public var downloaded = 0
  /// Items deleted from the remote (deleted in the store since the last sync).
  public var deletedRemote = 0
  /// Reminders deleted from the store (deleted on the remote since the last sync).
  public var deletedLocal = 0
  public var conflicts: [SyncConflict] = []
  /// Remote items that could not be read, and writes the remote refused: left as they are.
  public var skipped: [SyncSkippedItem] = []
  /// Collections created on the remote, lists created in the store (by name).
  public var collectionsCreated: [String] = []
  public var listsCreated: [String] = []
  /// Collections renamed or recoloured after their lists, lists after their collections.
  public var collectionsUpdated: [String] = []
  public var listsUpdated: [String] = []
  /// Reminders written to the remote with times whose fractions of a second iCalendar cut
  /// (not counting those whose cut times the remote already held): warned about once.
  public var fractionsCut = 0

  public init() {}

  /// Whether the sync transferred anything.
  public var transferredNothing: Bool {
    uploaded == 0 && downloaded == 0 && deletedRemote == 0 && deletedLocal == 0 && collectionsCreated.isEmpty
      && listsCreated.isEmpty && collectionsUpdated.isEmpty && listsUpdated.isEmpty
  }
}

/// A reminder both sides changed since they last agreed.
public struct SyncConflict: Sendable, Equatable {
  public enum Kind: String, Sendable {
    /// Both edited: the store and the remote keep the merge, with the remote's value in the
    /// conflicting fields; the local version is kept whole as a conflict copy.
    case editedOnBothSides = "edited-on-both-sides"
    /// Deleted in the store, edited on the remote: the remote's version comes back.
    case deletedLocallyEditedRemotely = "deleted-locally-edited-remotely"
    /// Edited in the store, deleted on the remote: the local version goes up again.
    case editedLocallyDeletedRemotely = "edited-locally-deleted-remotely"
  }

  public var kind: Kind
  public var uid: String
  public var title: String
  public var list: String
  /// The fields both sides changed (edited-on-both-sides).
  public var fields: [String]
  /// The UID of the conflict copy holding the local version (edited-on-both-sides).
  public var copyUID: String?
}

/// An item the sync left alone, and why.
public struct SyncSkippedItem: Sendable, Equatable {
  public var list: String
  public var href: String
  public var reason: String
}

extension SyncReport {
  /// Adds what one collection's pass did.
  mutating func add(_ other: SyncReport) {
    uploaded += other.uploaded
    downloaded += other.downloaded
    deletedRemote += other.deletedRemote
    deletedLocal += other.deletedLocal
    conflicts += other.conflicts
    skipped += other.skipped
    collectionsCreated += other.collectionsCreated
    listsCreated += other.listsCreated
    collectionsUpdated += other.collectionsUpdated
    listsUpdated += other.listsUpdated
    fractionsCut += other.fractionsCut
  }
}
