-- List names become unique after trimming, NFC normalisation and case folding. SQLite cannot
-- add a NOT NULL column filled from other rows and a UNIQUE constraint in place, so this step
-- follows SQLite's 12-step table rebuild (https://sqlite.org/lang_altertable.html#otheralter).
--
-- The migrator runs every step with foreign keys off (PRAGMA foreign_keys cannot change inside
-- a transaction), so dropping the old `lists` table cannot cascade-delete reminders, and it
-- runs foreign_key_check and counts every list's reminders before committing. Names that
-- would collide are resolved before this step by the preflight (--on-duplicate).
-- remconv_name_key() is registered by remconv on its connection: trim, NFC, case fold.
CREATE TABLE lists_rebuilt (
  id INTEGER PRIMARY KEY,
  uid TEXT NOT NULL,
  name TEXT NOT NULL,
  name_key TEXT NOT NULL UNIQUE,
  symbol TEXT NOT NULL DEFAULT 'list.bullet',
  color TEXT,
  created_at TEXT,
  extra TEXT NOT NULL DEFAULT '{}'
);

INSERT INTO lists_rebuilt (id, uid, name, name_key, symbol, color, created_at, extra)
  SELECT id, uid, trim(name), remconv_name_key(name), symbol, color, created_at, extra
  FROM lists;

DROP TABLE lists;
ALTER TABLE lists_rebuilt RENAME TO lists;

CREATE INDEX lists_by_uid ON lists(uid);
