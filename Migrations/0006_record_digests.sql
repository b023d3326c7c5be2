-- The digest of the source record each reminder was last imported from (16 bytes, see
-- RecordDigest in the sources): a later import that reads a record with the same digest knows
-- the reminder is already as that record would leave it, and skips decoding and merging it.
-- NULL for rows no import has written cleanly: they are merged in full, as before.
--
-- A digest vouches for the row only while nothing else has changed it, so the triggers clear
-- it whenever anything but an import that sets a new one touches the row (an edit, a repair,
-- a parent attached later), whenever the row's list changes (a renamed list may no longer be
-- the one a record's list name finds), and on the subtasks of a reminder whose UID changes
-- (their records name the old UID). An import that finds a row unchanged but without a digest
-- gives it one, so the cache heals on the next import.
ALTER TABLE reminders ADD COLUMN source_digest BLOB;

CREATE INDEX reminders_by_source_digest ON reminders(source_digest) WHERE source_digest IS NOT NULL;

CREATE TRIGGER reminders_source_digest_on_update AFTER UPDATE ON reminders
  WHEN NEW.source_digest IS NOT NULL AND NEW.source_digest IS OLD.source_digest
BEGIN
  UPDATE reminders SET source_digest = NULL WHERE id = NEW.id;
END;

CREATE TRIGGER reminders_source_digest_on_uid AFTER UPDATE OF uid ON reminders
  WHEN NEW.uid IS NOT OLD.uid
BEGIN
  UPDATE reminders SET source_digest = NULL WHERE parent_id = NEW.id AND source_digest IS NOT NULL;
END;

CREATE TRIGGER lists_source_digest_on_update AFTER UPDATE ON lists
BEGIN
  UPDATE reminders SET source_digest = NULL WHERE list_id = NEW.id AND source_digest IS NOT NULL;
END;
