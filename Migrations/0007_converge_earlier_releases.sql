-- Brings the stores made by the earlier released texts of 0003 and 0005 to the schema and
-- values today's steps give, and changes no value in any other store. Those stores recorded the
-- earlier checksums, which this remconv accepts (MigrationHistory.legacyChecksums names each
-- with the commit that released it); released files are never edited, so the difference is
-- corrected here.
--
-- 1. The 0003 released in b99ed97 gave a due text its kind by length and last letter: any
--    10-character text became 'date', any text ending in Z or z 'utc', any other text
--    'floating'. Today's 0003 gives a kind only to the three exact shapes and none to any
--    other text, which keeps its value and is reported invalid when read. In the stores that
--    recorded that 0003, each reminder whose kind is not the one today's 0003 gives gets that
--    one. The rows remconv wrote since have one of the three shapes and their kind already.
--    Only those stores are touched: any other store keeps every kind as it is.
UPDATE reminders SET due_kind = CASE
    WHEN due GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]' THEN 'date'
    WHEN due GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z' THEN 'utc'
    WHEN due GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]' THEN 'floating'
    ELSE NULL
  END
WHERE due_kind IN ('date', 'utc', 'floating')
  AND due_kind IS NOT CASE
    WHEN due GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]' THEN 'date'
    WHEN due GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z' THEN 'utc'
    WHEN due GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]' THEN 'floating'
    ELSE NULL
  END
  AND EXISTS (
    SELECT 1 FROM remconv_migrations
    WHERE id = '0003_uids_timestamps_due_kind'
      AND checksum = '926a0e8c1f216709ddd9456e18696c46e9c70c977be1342e4b05e5e4ae2697ad');

-- 2. The 0005 released in b99ed97 and the one of 7f2be86 made lists.created_at NOT NULL;
--    today's 0005 lets it be NULL (a list imported without a creation time). SQLite cannot drop
--    a NOT NULL in place, so `lists` is rebuilt to today's definition the way 0005 does it, in
--    the safe order (create the new table, copy, drop the old one, rename the new one), copying
--    every column of every row as it is. Dropping the old table drops its index and the 0006
--    trigger on it; both are made again as they were. In a store whose `lists` is already
--    today's, the result is the same table with the same rows. Names that the first 0005
--    trimmed were trimmed when it ran; what they were before is not in the store.
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
  SELECT id, uid, name, name_key, symbol, color, created_at, extra FROM lists;

DROP TABLE lists;
ALTER TABLE lists_rebuilt RENAME TO lists;

CREATE INDEX lists_by_uid ON lists(uid);

CREATE TRIGGER lists_source_digest_on_update AFTER UPDATE ON lists
BEGIN
  UPDATE reminders SET source_digest = NULL WHERE list_id = NEW.id AND source_digest IS NOT NULL;
END;
