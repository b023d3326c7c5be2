-- Notes and a priority (0 none, 1 low, 2 medium, 3 high).
ALTER TABLE reminders ADD COLUMN notes TEXT NOT NULL DEFAULT '';
ALTER TABLE reminders ADD COLUMN priority INTEGER NOT NULL DEFAULT 0;
