-- A step of a future remconv (0.3.0), unknown to this one: a location on reminders and a table
-- of attachments. Only the fixture of a newer store applies it.
ALTER TABLE reminders ADD COLUMN location TEXT;

CREATE TABLE attachments (
  id INTEGER PRIMARY KEY,
  reminder_id INTEGER NOT NULL REFERENCES reminders(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  bytes BLOB
);
