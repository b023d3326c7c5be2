-- Subtasks (a parent reminder), tags, a URL, and the `extra` bags that keep what a source
-- carried beyond the model (JSON text), on reminders and on lists.
ALTER TABLE reminders ADD COLUMN parent_id INTEGER REFERENCES reminders(id) ON DELETE CASCADE;
ALTER TABLE reminders ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';
ALTER TABLE reminders ADD COLUMN url TEXT;
ALTER TABLE reminders ADD COLUMN extra TEXT NOT NULL DEFAULT '{}';
ALTER TABLE lists ADD COLUMN extra TEXT NOT NULL DEFAULT '{}';

CREATE INDEX reminders_by_parent ON reminders(parent_id);
