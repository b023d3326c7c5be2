// These helpers reach remconv's internals (`@testable`), which only a build for testing allows:
// a release build (`swift build -c release`, `make demo`) builds this target without them.
#if DEBUG
  import Foundation

  @testable import RemconvCore

  /// Stores with known defects, for the validator's tests: a store created by remconv, filled
  /// with a small clean baseline, then broken with raw SQL with foreign keys off, the way a hand
  /// edit in `sqlite3`, a crash or an older tool breaks one.
  public enum DefectStores {
    /// Two lists and four reminders, every relationship and value sound:
    ///
    /// - Home (#1, `LIST-HOME`): `REM-1` "Call plumber" (due 2026-11-30, high) with the subtask
    ///   `REM-2` "Find the warranty", itself the parent of `REM-3` "Scan it" (done).
    /// - Work (#2, `LIST-WORK`): `REM-4` "Send report" (due 09:00 Europe/Berlin).
    ///
    /// Their `due_day` and `search_text` are set as remconv's write path sets them.
    public static let baseline = """
      INSERT INTO lists (id, uid, name, name_key, created_at) VALUES
        (1, 'LIST-HOME', 'Home', 'home', '2026-01-01T09:00:00Z'),
        (2, 'LIST-WORK', 'Work', 'work', '2026-01-02T09:00:00Z');
      INSERT INTO reminders (id, uid, list_id, parent_id, title, notes, is_done, completed_at, due,
          due_kind, due_tz, priority, tags, created_at, edited_at) VALUES
        (1, 'REM-1', 1, NULL, 'Call plumber', 'About the boiler', 0, NULL, '2026-11-30', 'date', NULL,
          3, '["house"]', '2026-11-01T10:00:00Z', '2026-11-02T10:00:00Z'),
        (2, 'REM-2', 1, 1, 'Find the warranty', '', 0, NULL, NULL, NULL, NULL,
          0, '[]', '2026-11-01T11:00:00Z', '2026-11-03T11:00:00Z'),
        (3, 'REM-3', 1, 2, 'Scan it', '', 1, '2026-11-04T08:00:00Z', NULL, NULL, NULL,
          0, '[]', '2026-11-01T12:00:00Z', '2026-11-04T08:00:00Z'),
        (4, 'REM-4', 2, NULL, 'Send report', '', 0, NULL, '2026-11-30T09:00:00', 'zoned', 'Europe/Berlin',
          2, '[]', '2026-11-05T09:00:00Z', '2026-11-05T09:00:00Z');
      UPDATE reminders SET due_day = remconv_due_day(due, due_tz), search_text = remconv_search_text(title, notes);
      """

    /// Creates a store at `path` with remconv, fills it with the baseline and runs `defect` on it
    /// with foreign keys off. Returns the store, open.
    public static func make(at path: String, defect: String) throws -> Store {
      let store = try Store(path: path)
      try breakStore(store, with: baseline)
      try breakStore(store, with: defect)
      return store
    }

    /// Runs `body` on a store in a fresh temporary folder, the baseline broken by `defect`; the
    /// store is closed and the folder removed afterwards.
    public static func withStore<T>(defect: String, _ body: (Store) throws -> T) throws -> T {
      let directory = TemporaryDirectory()
      return try withExtendedLifetime(directory) {
        let store = try make(at: directory.file("store.sqlite"), defect: defect)
        defer { store.close() }
        return try body(store)
      }
    }

    /// Runs raw SQL on an open store with foreign keys off, as `sqlite3` would by default.
    public static func breakStore(_ store: Store, with sql: String) throws {
      // PRAGMA foreign_keys cannot change inside a transaction: switch it around the batch.
      try store.database.execute("PRAGMA foreign_keys = OFF")
      defer { try? store.database.execute("PRAGMA foreign_keys = ON") }
      try store.database.execute(sql)
    }

    /// A bench whose store holds the baseline broken by `defect`.
    public static func bench(defect: String) throws -> TestBench {
      let bench = TestBench()
      let store = try make(at: bench.storePath, defect: defect)
      store.close()
      return bench
    }

    /// `dump(_:)` of a bench's store.
    public static func dump(_ bench: TestBench) throws -> String {
      let store = try Store(path: bench.storePath)
      defer { store.close() }
      return try dump(store)
    }

    /// Every row of both tables as text, for "nothing changed" comparisons.
    public static func dump(_ store: Store) throws -> String {
      var lines: [String] = []
      for table in ["lists", "reminders"] {
        for row in try store.database.rows("SELECT * FROM \(table) ORDER BY id") {
          lines.append(table + ": " + (0..<row.count).map { "\(row.value(at: $0))" }.joined(separator: " | "))
        }
      }
      return lines.joined(separator: "\n")
    }
  }
#endif
