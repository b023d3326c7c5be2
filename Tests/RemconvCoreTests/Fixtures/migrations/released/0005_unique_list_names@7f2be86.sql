-- List names become unique by their key: trimmed, NFC-normalised and case-folded, so `Home`,
-- `home` and ` HOME ` are one name. SQLite cannot add a NOT NULL column filled from other rows
-- and a UNIQUE constraint in place, so this step follows SQLite's 12-step table rebuild
-- (https://sqlite.org/lang_altertable.html#otheralter) in its safe order: create the new
-- table, copy, drop the old one, rename the new one. Renaming the old table first would
-- rewrite `reminders.list_id REFERENCES lists` to point at the renamed table.
--
-- It cannot cascade-delete reminders: the migrator turns foreign keys off before its
-- transaction (PRAGMA foreign_keys is a no-op inside one, and is rejected in these files),
-- checks that they are off, and after the step compares every table's row count and every
-- list's reminders with the counts taken before it, so a lost row rolls the upgrade back.
--
-- Names that collide are resolved by the preflight before this step runs (--on-duplicate
-- rename|merge|fail); names themselves are copied unchanged. A list that an older version
-- stored without a UID gets a fresh one here (the column becomes NOT NULL).
-- remconv_name_key() is registered by remconv on its connection: ListName.key(for:).
CREATE TABLE lists_rebuilt (
  id INTEGER PRIMARY KEY,
  uid TEXT NOT NULL,
  name TEXT NOT NULL,
  name_key TEXT NOT NULL UNIQUE,
  symbol TEXT NOT NULL DEFAULT 'list.bullet',
  color TEXT,
  created_at TEXT NOT NULL,
  extra TEXT NOT NULL DEFAULT '{}'
);

INSERT INTO lists_rebuilt (id, uid, name, name_key, symbol, color, created_at, extra)
  SELECT id,
    coalesce(uid, upper(
      substr(hex(randomblob(4)), 1, 8) || '-' || substr(hex(randomblob(2)), 1, 4) || '-4' ||
      substr(hex(randomblob(2)), 2, 3) || '-' ||
      substr('89AB', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2, 3) || '-' ||
      hex(randomblob(6)))),
    name, remconv_name_key(name), symbol, color, created_at, extra
  FROM lists;

DROP TABLE lists;
ALTER TABLE lists_rebuilt RENAME TO lists;

CREATE INDEX lists_by_uid ON lists(uid);
