-- Columns and indexes that let SQLite answer the views, counts, searches and ID lookups of
-- the reminders-app commands without reading every row (issue 26).
--
-- due_day: the date of a due's wall time in days since 1970-01-01, NULL when there is no due or
--   it does not parse; "scheduled" is due_day IS NOT NULL, and "today" reads the rows within
--   two days of the user's local date and applies the exact rule to those.
-- search_text: title and notes folded as a search compares them (case, diacritics, width),
--   separated by U+001F; a search reads the rows whose column holds the folded query.
-- remconv_due_day() and remconv_search_text() are registered by remconv on its connection
-- (ReminderIndexValues); the write path computes the same values for every row it writes.
ALTER TABLE reminders ADD COLUMN due_day INTEGER;
ALTER TABLE reminders ADD COLUMN search_text TEXT NOT NULL DEFAULT '';

-- 0006's trigger would clear every source digest on this update (the digest is unchanged):
-- filling derived columns changes nothing an import vouched for, so it is set aside meanwhile.
DROP TRIGGER reminders_source_digest_on_update;

UPDATE reminders SET due_day = remconv_due_day(due, due_tz), search_text = remconv_search_text(title, notes);

CREATE TRIGGER reminders_source_digest_on_update AFTER UPDATE ON reminders
  WHEN NEW.source_digest IS NOT NULL AND NEW.source_digest IS OLD.source_digest
BEGIN
  UPDATE reminders SET source_digest = NULL WHERE id = NEW.id;
END;

-- Today and scheduled by day, with the done state for the Completed sections.
CREATE INDEX reminders_by_due_day ON reminders(due_day, is_done);
-- The counts of `remconv lists` in one pass over an index instead of the table.
CREATE INDEX reminders_by_state ON reminders(is_done, flagged, list_id, due_day);
-- Short IDs and ID prefixes compare UIDs ASCII case-insensitively, as LIKE does.
CREATE INDEX reminders_by_folded_uid ON reminders(upper(uid));
