-- The first schema: lists, and reminders with a title, a done state, a due date and a flag.
CREATE TABLE lists (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  symbol TEXT NOT NULL DEFAULT 'list.bullet',
  color TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE TABLE reminders (
  id INTEGER PRIMARY KEY,
  list_id INTEGER NOT NULL REFERENCES lists(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  is_done INTEGER NOT NULL DEFAULT 0,
  due TEXT,
  flagged INTEGER NOT NULL DEFAULT 0
);

CREATE INDEX reminders_by_list ON reminders(list_id);
