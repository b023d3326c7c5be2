-- Stable UIDs, created/edited timestamps, the completion date, and the kind and zone of a
-- due date. This step moves data: it gives every existing row a UID, classifies the due
-- dates stored so far by their shape, and stamps done reminders with a completion time.
ALTER TABLE lists ADD COLUMN uid TEXT;
ALTER TABLE reminders ADD COLUMN uid TEXT;
ALTER TABLE reminders ADD COLUMN created_at TEXT;
ALTER TABLE reminders ADD COLUMN edited_at TEXT;
ALTER TABLE reminders ADD COLUMN completed_at TEXT;
ALTER TABLE reminders ADD COLUMN due_kind TEXT;
ALTER TABLE reminders ADD COLUMN due_tz TEXT;

-- UIDs in the upper-case UUID v4 form.
UPDATE lists SET uid = upper(
  substr(hex(randomblob(4)), 1, 8) || '-' || substr(hex(randomblob(2)), 1, 4) || '-4' ||
  substr(hex(randomblob(2)), 2, 3) || '-' ||
  substr('89AB', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2, 3) || '-' ||
  hex(randomblob(6)))
WHERE uid IS NULL;
UPDATE reminders SET uid = upper(
  substr(hex(randomblob(4)), 1, 8) || '-' || substr(hex(randomblob(2)), 1, 4) || '-4' ||
  substr(hex(randomblob(2)), 2, 3) || '-' ||
  substr('89AB', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2, 3) || '-' ||
  hex(randomblob(6)))
WHERE uid IS NULL;

-- Before this step a due date was stored as text only: a date (2026-11-30), a date-time with
-- a Z (UTC) or without (floating). Its kind follows from its shape.
UPDATE reminders SET due_kind = CASE
    WHEN due IS NULL THEN NULL
    WHEN length(due) = 10 THEN 'date'
    WHEN due LIKE '%Z' THEN 'utc'
    ELSE 'floating'
  END;

-- Older versions had no timestamps: the list's creation time is the best lower bound known.
UPDATE reminders SET created_at = (SELECT created_at FROM lists WHERE lists.id = reminders.list_id);
UPDATE reminders SET edited_at = created_at;
UPDATE reminders SET completed_at = edited_at WHERE is_done = 1;

CREATE INDEX lists_by_uid ON lists(uid);
CREATE INDEX reminders_by_uid ON reminders(uid);
