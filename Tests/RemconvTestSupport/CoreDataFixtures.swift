import Foundation
import RemconvCore

/// Builds synthetic Apple Reminders and SwiftData databases after the layouts public readers
/// document. Never real data: every row is made up here.
///
/// Column sources:
/// - [icalPal] ajrosen/icalPal `lib/reminder.rb`: `ZREMCDREMINDER.ZALLDAY`, `ZDUEDATE`, `ZFLAGGED`,
///   `ZNOTES`, `ZPRIORITY` (1 high, 5 medium, 9 low, 0 none), `ZTITLE`, `ZCOMPLETED`,
///   `ZMARKEDFORDELETION`, `ZLIST`; `ZREMCDBASELIST.ZBADGEEMBLEM`, `ZCOLOR` (an archived colour
///   whose objects hold the symbolic name and the hex value), `ZNAME`, `ZPARENTLIST`,
///   `ZSHARINGSTATUS`.
/// - [rex] rex/mcp-apple-reminders `docs/SQLITE_SCHEMA.md`: `Z_PK`, `ZCKIDENTIFIER` (EventKit's
///   identifiers), `ZCOMPLETIONDATE`, `ZCREATIONDATE`, `ZLASTMODIFIEDDATE`, `ZPARENTREMINDER`,
///   `ZICSURL`, `ZACCOUNT`; hashtags as `ZREMCDHASHTAGLABEL.ZNAME` joined through `ZREMCDOBJECT`
///   rows with `ZREMINDER3` and `ZHASHTAGLABEL`; sections in `ZREMCDBASESECTION`.
/// - [notes] `shared/reference/apple-stores.md` §2.1: `ZDACALENDARITEMUNIQUEIDENTIFIER` (the
///   iCalendar UID), `ZTIMEZONE`; alarms and recurrence rules as `ZREMCDOBJECT` rows told apart
///   by `Z_ENT`; older stores keeping lists in `ZREMCDOBJECT` with the name in `ZNAME1`.
/// - [reminders] recurrence and alarms: novkostya/ios-backup-parser's reminders fixture
///   (`REMCDRecurrenceRule` rows with `ZFREQUENCY`, `ZINTERVAL`, `ZOCCURRENCECOUNT`, `ZENDDATE`);
///   the RemCTL reader's recurrence and early-reminder serialisation (`ZFREQUENCY` as EventKit's
///   frequency 0–3, JSON `ZDAYSOFTHEWEEK` of `dayOfTheWeek`/`weekNumber`, `ZDAYSOFTHEMONTH`,
///   `ZMONTHSOFTHEYEAR`, `ZSETPOSITIONS`; `ZDUEDATEDELTAALERTSDATA` with `dueDateDeltaUnit` 0–4 and
///   `dueDateDeltaCount`) and its alarm query (an alarm's `ZTRIGGER` naming its trigger row, with
///   `ZTIMEINTERVAL`, `ZDATECOMPONENTSDATA` as JSON date components, `ZTITLE`/`ZLATITUDE`/
///   `ZLONGITUDE` of a location); the trigger entities' names (`REMCDAlarmTimeIntervalTrigger`,
///   `REMCDAlarmDateTrigger`, `REMCDAlarmLocationTrigger`) from ReminderKit's `cdEntityName`.
/// - [core data] fatbobman.com "How Core Data Saves Data in SQLite": `Z_PRIMARYKEY(Z_ENT,
///   Z_NAME, Z_SUPER, Z_MAX)`, `Z_METADATA(Z_VERSION, Z_UUID, Z_PLIST)`, `Z_PK`/`Z_ENT`/`Z_OPT`,
///   dates as seconds since 2001-01-01.
public enum CoreDataFixtures {
  /// Which Apple layout to build.
  public enum AppleLayout: Sendable {
    /// Lists in `ZREMCDBASELIST`; reminders with all-day flag, zone and iCalendar UID.
    case current
    /// Lists as `REMCDList` rows of `ZREMCDOBJECT` (name in `ZNAME1`); reminders without
    /// `ZALLDAY`, `ZTIMEZONE` and `ZDACALENDARITEMUNIQUEIDENTIFIER` [notes].
    case older
  }

  /// Core Data seconds (since 2001-01-01T00:00:00Z) of an RFC 3339 instant [core data].
  public static func seconds(_ iso: String) -> Double {
    Double(Timestamp(iso: iso)!.millisecondsSinceEpoch) / 1000 - 978_307_200
  }

  /// An archived colour as Reminders writes it: `$objects` holding the symbolic name and the
  /// hex value [icalPal] (the archive's object graph is reduced to what a reader looks at).
  public static func colorArchive(symbolic: String, hex: String) throws -> [UInt8] {
    let plist: [String: Any] = [
      "$archiver": "NSKeyedArchiver", "$version": 100_000,
      "$objects": ["$null", ["$class": "REMColor"], symbolic, hex],
    ]
    return Array(try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0))
  }

  /// An open connection to a WAL database whose last rows are still only in its `-wal`:
  /// keep it until the test is done (closing it would checkpoint them into the file).
  public final class WALHolder {
    public let database: Database
    init(_ database: Database) { self.database = database }
    deinit { database.close() }
  }

  /// Makes a WAL database at `path` from `committed` SQL (checkpointed into the file) and
  /// `walOnly` SQL (left in the `-wal`).
  static func makeWAL(at path: String, committed: String, walOnly: String) throws -> WALHolder {
    let database = try Database(path: path, mode: .create)
    try database.execute("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0")
    try database.execute("BEGIN; \(committed); COMMIT")
    try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    if !walOnly.isEmpty { try database.execute("BEGIN; \(walOnly); COMMIT") }
    return WALHolder(database)
  }

  /// One Apple Reminders account (`Data-<UUID>.sqlite`).
  ///
  /// Current layout: a group "Home & Work" holding "Groceries" and "Work", a smart list and a
  /// list marked for deletion (both skipped); reminders covering every mapped column, a
  /// subtask, hashtags, an all-day, a zoned and a UTC due, a row marked for deletion; recurrence
  /// rules (every 2 weeks until a day; monthly on the 1st and 15th, 12 times; Monday, Wednesday,
  /// Friday until an instant, weeks from Monday; the last weekday of the month; the second
  /// Tuesday of March and September), alarms (15 minutes before, at a wall time, at a place),
  /// early reminders (15 minutes and a day before, and a month before, which is no fixed time);
  /// and "Added after the checkpoint", only in the `-wal`, with a rule of an unknown frequency.
  /// Entity numbers differ between layouts, as they do between OS versions.
  public static func appleReminders(at path: String, layout: AppleLayout, storeUUID: String) throws -> WALHolder {
    let entities: [(String, Int)] =
      layout == .current
      ? [
        ("REMCDBaseList", 3), ("REMCDList", 4), ("REMCDSmartList", 5), ("REMCDObject", 10), ("REMCDAlarm", 11),
        ("REMCDRecurrenceRule", 12), ("REMCDHashtag", 13), ("REMCDAlarmTimeIntervalTrigger", 14),
        ("REMCDAlarmDateTrigger", 15), ("REMCDAlarmLocationTrigger", 16), ("REMCDReminder", 20),
        ("REMCDHashtagLabel", 21), ("REMCDBaseSection", 22),
      ]
      : [("REMCDObject", 7), ("REMCDList", 9), ("REMCDAlarm", 8), ("REMCDReminder", 15)]
    let entity = Dictionary(uniqueKeysWithValues: entities)
    var sql = """
      CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
      CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
      INSERT INTO Z_METADATA VALUES (1, '\(storeUUID)', NULL);
      """
    for (name, number) in entities { sql += "INSERT INTO Z_PRIMARYKEY VALUES (\(number), '\(name)', 0, 0);\n" }
    let date = { (iso: String) in String(seconds(iso)) }
    switch layout {
    case .current:
      // [reminders] the early reminders of a reminder and an alarm's date components, as JSON.
      let earlyReminders =
        #"{"dueDateDeltaAlerts":[{"dueDateDeltaUnit":0,"dueDateDeltaCount":-15,"identifier":"D1"},"#
        + #"{"dueDateDeltaUnit":2,"dueDateDeltaCount":-1},{"dueDateDeltaUnit":4,"dueDateDeltaCount":-1}]}"#
      let dateComponents = #"{"year":2026,"month":11,"day":30,"hour":8,"minute":30,"second":0}"#
      let groceries = try hex(colorArchive(symbolic: "custom", hex: "#FF2968FF"))
      let work = try hex(colorArchive(symbolic: "blue", hex: "#1BADF8FF"))
      sql += """
        CREATE TABLE ZREMCDBASELIST (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER,
          ZMARKEDFORDELETION INTEGER, ZPARENTLIST INTEGER, ZSHARINGSTATUS INTEGER, ZCREATIONDATE TIMESTAMP,
          ZBADGEEMBLEM VARCHAR, ZCKIDENTIFIER VARCHAR, ZNAME VARCHAR, ZCOLOR BLOB, ZCKSERVERRECORDDATA BLOB);
        INSERT INTO ZREMCDBASELIST VALUES
          (1, \(entity["REMCDList"]!), 1, 0, NULL, 0, NULL, NULL, 'LIST-GROUP', 'Home & Work', NULL, NULL),
          (2, \(entity["REMCDList"]!), 1, 0, 1, 0, \(date("2026-10-02T08:15:00Z")), 'cart', 'LIST-GROCERIES',
            'Groceries', X'\(groceries)', X'00'),
          (3, \(entity["REMCDList"]!), 1, 0, 1, 1, NULL, NULL, 'LIST-WORK', 'Work', X'\(work)', NULL),
          (4, \(entity["REMCDSmartList"]!), 1, 0, NULL, 0, NULL, NULL, 'LIST-TODAY', 'Today', NULL, NULL),
          (5, \(entity["REMCDList"]!), 1, 1, NULL, 0, NULL, NULL, 'LIST-GONE', 'Gone', NULL, NULL);
        CREATE TABLE ZREMCDREMINDER (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZALLDAY INTEGER,
          ZCOMPLETED INTEGER, ZFLAGGED INTEGER, ZMARKEDFORDELETION INTEGER, ZPRIORITY INTEGER, ZACCOUNT INTEGER,
          ZLIST INTEGER, ZPARENTREMINDER INTEGER, ZCOMPLETIONDATE TIMESTAMP, ZCREATIONDATE TIMESTAMP,
          ZDUEDATE TIMESTAMP, ZLASTMODIFIEDDATE TIMESTAMP, ZCKIDENTIFIER VARCHAR,
          ZDACALENDARITEMUNIQUEIDENTIFIER VARCHAR, ZICSURL VARCHAR, ZNOTES VARCHAR, ZTIMEZONE VARCHAR,
          ZTITLE VARCHAR, ZDUEDATEDELTAALERTSDATA VARCHAR);
        INSERT INTO ZREMCDREMINDER VALUES
          (1, \(entity["REMCDReminder"]!), 3, 1, 0, 1, 0, 1, 1, 2, NULL, NULL, \(date("2026-11-27T18:02:11Z")),
            \(date("2026-11-29T00:00:00Z")), \(date("2026-11-28T07:45:00.250Z")), 'CK-OAT', 'UID-OAT', NULL,
            'Barista edition', NULL, 'Oat milk', NULL),
          (2, \(entity["REMCDReminder"]!), 1, 0, 0, 0, 0, 5, 1, 2, NULL, NULL, NULL, NULL, NULL, 'CK-INGREDIENTS',
            NULL, NULL, NULL, NULL, 'Ingredients', NULL),
          (3, \(entity["REMCDReminder"]!), 2, 0, 1, 0, 0, 9, 1, 2, 2, \(date("2026-11-28T16:20:00Z")), NULL, NULL,
            NULL, NULL, NULL, NULL, NULL, NULL, 'Vanilla pods', NULL),
          (4, \(entity["REMCDReminder"]!), 1, 0, 0, 0, 0, 0, 1, 3, NULL, NULL, NULL,
            \(date("2026-11-30T08:00:00Z")), NULL, 'CK-FORECAST', 'UID-FORECAST', 'https://example.com/ics', NULL,
            'Europe/Berlin', 'Send the forecast', NULL),
          (5, \(entity["REMCDReminder"]!), 1, 0, 0, 0, 0, 3, 1, 3, NULL, NULL, NULL,
            \(date("2026-11-29T14:30:00Z")), NULL, NULL, 'UID-STANDUP', NULL, NULL, NULL, 'Stand-up',
            '\(earlyReminders)'),
          (6, \(entity["REMCDReminder"]!), 1, 0, 0, 0, 1, 0, 1, 3, NULL, NULL, NULL, NULL, NULL, NULL,
            'UID-DELETED', NULL, NULL, NULL, 'Deleted in Reminders', NULL);
        CREATE TABLE ZREMCDHASHTAGLABEL (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
        INSERT INTO ZREMCDHASHTAGLABEL VALUES (1, \(entity["REMCDHashtagLabel"]!), 1, 'errands'),
          (2, \(entity["REMCDHashtagLabel"]!), 1, 'weekend');
        CREATE TABLE ZREMCDOBJECT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER,
          ZMARKEDFORDELETION INTEGER, ZREMINDER INTEGER, ZREMINDER2 INTEGER, ZREMINDER3 INTEGER,
          ZHASHTAGLABEL INTEGER, ZTRIGGER INTEGER, ZTIMEINTERVAL FLOAT, ZDATECOMPONENTSDATA BLOB, ZTITLE VARCHAR,
          ZLATITUDE FLOAT, ZLONGITUDE FLOAT, ZFREQUENCY INTEGER, ZINTERVAL INTEGER, ZOCCURRENCECOUNT INTEGER,
          ZENDDATE TIMESTAMP, ZFIRSTDAYOFTHEWEEK INTEGER, ZDAYSOFTHEWEEK VARCHAR, ZDAYSOFTHEMONTH VARCHAR,
          ZMONTHSOFTHEYEAR VARCHAR, ZSETPOSITIONS VARCHAR, ZCKIDENTIFIER VARCHAR);
        INSERT INTO ZREMCDOBJECT (Z_PK, Z_ENT, Z_OPT, ZMARKEDFORDELETION, ZREMINDER3, ZHASHTAGLABEL) VALUES
          (1, \(entity["REMCDHashtag"]!), 1, 0, 1, 1), (2, \(entity["REMCDHashtag"]!), 1, 0, 1, 2);
        INSERT INTO ZREMCDOBJECT (Z_PK, Z_ENT, Z_OPT, ZMARKEDFORDELETION, ZREMINDER, ZTRIGGER, ZCKIDENTIFIER) VALUES
          (3, \(entity["REMCDAlarm"]!), 1, 0, 1, 8, 'CK-ALARM'), (5, \(entity["REMCDAlarm"]!), 1, 1, 4, NULL, NULL),
          (10, \(entity["REMCDAlarm"]!), 1, 0, 4, 11, NULL), (12, \(entity["REMCDAlarm"]!), 1, 0, 5, 13, NULL);
        INSERT INTO ZREMCDOBJECT (Z_PK, Z_ENT, Z_OPT, ZMARKEDFORDELETION, ZTIMEINTERVAL, ZDATECOMPONENTSDATA, ZTITLE,
          ZLATITUDE, ZLONGITUDE) VALUES
          (8, \(entity["REMCDAlarmTimeIntervalTrigger"]!), 1, 0, -900.0, NULL, NULL, NULL, NULL),
          (11, \(entity["REMCDAlarmDateTrigger"]!), 1, 0, NULL, X'\(hex(Array(dateComponents.utf8)))', NULL, NULL, NULL),
          (13, \(entity["REMCDAlarmLocationTrigger"]!), 1, 0, NULL, NULL, 'Office', 52.52, 13.405);
        INSERT INTO ZREMCDOBJECT (Z_PK, Z_ENT, Z_OPT, ZMARKEDFORDELETION, ZREMINDER2, ZFREQUENCY, ZINTERVAL,
          ZOCCURRENCECOUNT, ZENDDATE, ZFIRSTDAYOFTHEWEEK, ZDAYSOFTHEWEEK, ZDAYSOFTHEMONTH, ZMONTHSOFTHEYEAR,
          ZSETPOSITIONS) VALUES
          (4, \(entity["REMCDRecurrenceRule"]!), 1, 0, 1, 1, 2, 0, \(date("2027-06-30T00:00:00Z")), 0, NULL, NULL, NULL,
            NULL),
          (9, \(entity["REMCDRecurrenceRule"]!), 1, 0, 4, 2, 1, 12, NULL, NULL, NULL, '[1,15]', NULL, NULL),
          (14, \(entity["REMCDRecurrenceRule"]!), 1, 0, 5, 1, 1, 0, \(date("2027-03-31T14:30:00Z")), 2,
            '[{"dayOfTheWeek":2,"weekNumber":0},{"dayOfTheWeek":4,"weekNumber":0},{"dayOfTheWeek":6,"weekNumber":0}]',
            NULL, NULL, NULL),
          (15, \(entity["REMCDRecurrenceRule"]!), 1, 0, 2, 2, 1, 0, NULL, 0,
            '[{"dayOfTheWeek":2},{"dayOfTheWeek":3},{"dayOfTheWeek":4},{"dayOfTheWeek":5},{"dayOfTheWeek":6}]', NULL,
            NULL, '[-1]'),
          (16, \(entity["REMCDRecurrenceRule"]!), 1, 0, 3, 3, 1, 0, NULL, 0, '[{"dayOfTheWeek":3,"weekNumber":2}]', NULL,
            '[3,9]', NULL);
        CREATE TABLE ZREMCDBASESECTION (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER,
          ZMARKEDFORDELETION INTEGER, ZLIST INTEGER, ZDISPLAYNAME VARCHAR);
        INSERT INTO ZREMCDBASESECTION VALUES (1, \(entity["REMCDBaseSection"]!), 1, 0, 3, 'Q4')
        """
      let walOnly = """
        INSERT INTO ZREMCDREMINDER (Z_PK, Z_ENT, Z_OPT, ZCOMPLETED, ZFLAGGED, ZMARKEDFORDELETION, ZPRIORITY, ZLIST,
          ZDACALENDARITEMUNIQUEIDENTIFIER, ZTITLE) VALUES
          (7, \(entity["REMCDReminder"]!), 1, 0, 0, 0, 0, 3, 'UID-WAL', 'Added after the checkpoint');
        INSERT INTO ZREMCDOBJECT (Z_PK, Z_ENT, Z_OPT, ZMARKEDFORDELETION, ZREMINDER3, ZHASHTAGLABEL) VALUES
          (6, \(entity["REMCDHashtag"]!), 1, 0, 7, 2);
        INSERT INTO ZREMCDOBJECT (Z_PK, Z_ENT, Z_OPT, ZMARKEDFORDELETION, ZREMINDER2, ZFREQUENCY, ZINTERVAL) VALUES
          (17, \(entity["REMCDRecurrenceRule"]!), 1, 0, 7, 9, 1)
        """
      return try makeWAL(at: path, committed: sql, walOnly: walOnly)
    case .older:
      sql += """
        CREATE TABLE ZREMCDOBJECT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER,
          ZMARKEDFORDELETION INTEGER, ZREMINDER INTEGER, ZCKIDENTIFIER VARCHAR, ZNAME1 VARCHAR,
          ZBADGEEMBLEM VARCHAR);
        INSERT INTO ZREMCDOBJECT VALUES
          (1, \(entity["REMCDList"]!), 1, 0, NULL, 'OLD-LIST-GROCERIES', 'Groceries', NULL),
          (2, \(entity["REMCDList"]!), 1, 0, NULL, NULL, 'Errands', 'car'),
          (3, \(entity["REMCDAlarm"]!), 1, 0, 1, NULL, NULL, NULL);
        CREATE TABLE ZREMCDREMINDER (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCOMPLETED INTEGER,
          ZFLAGGED INTEGER, ZMARKEDFORDELETION INTEGER, ZPRIORITY INTEGER, ZLIST INTEGER, ZDUEDATE TIMESTAMP,
          ZCKIDENTIFIER VARCHAR, ZNOTES VARCHAR, ZTITLE VARCHAR);
        INSERT INTO ZREMCDREMINDER VALUES
          (1, \(entity["REMCDReminder"]!), 1, 0, 0, 0, 5, 1, \(date("2026-12-01T10:00:00Z")), 'OLD-CK-BREAD', NULL,
            'Bread'),
          (2, \(entity["REMCDReminder"]!), 1, 0, 0, 0, 0, 2, NULL, NULL, NULL, 'Post office')
        """
      return try makeWAL(at: path, committed: sql, walOnly: "")
    }
  }

  /// A SwiftData `default.store` of the app's model, priority stored as the enum's raw value:
  /// text (`"high"`) or an integer (3), as the model declared it.
  public static func swiftData(at path: String, storeUUID: String, priorityAsText: Bool) throws -> WALHolder {
    let high = priorityAsText ? "'high'" : "3"
    let low = priorityAsText ? "'low'" : "1"
    let sql = """
      CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
      INSERT INTO Z_PRIMARYKEY VALUES (1, 'Reminder', 0, 2), (2, 'ReminderList', 0, 1);
      CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
      INSERT INTO Z_METADATA VALUES (1, '\(storeUUID)', NULL);
      CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
      CREATE TABLE ZREMINDERLIST (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCREATEDAT TIMESTAMP,
        ZCOLOR VARCHAR, ZNAME VARCHAR, ZSYMBOL VARCHAR);
      INSERT INTO ZREMINDERLIST VALUES (1, 2, 1, \(seconds("2026-09-14T09:00:00Z")), '#007aff', 'Work', 'briefcase');
      CREATE TABLE ZREMINDER (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFLAGGED INTEGER,
        ZISDONE INTEGER, ZLIST INTEGER, ZDUEDATE TIMESTAMP, ZNOTES VARCHAR, ZPRIORITY, ZTITLE VARCHAR);
      INSERT INTO ZREMINDER VALUES
        (1, 1, 1, 1, 0, 1, \(seconds("2026-11-30T08:00:00Z")), 'With the Forecast tab', \(high), 'Send the forecast')
      """
    let walOnly = "INSERT INTO ZREMINDER VALUES (2, 1, 1, 0, 1, 1, NULL, NULL, \(low), 'Expense report')"
    return try makeWAL(at: path, committed: sql, walOnly: walOnly)
  }

  private static func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02X", $0) }.joined()
  }
}
