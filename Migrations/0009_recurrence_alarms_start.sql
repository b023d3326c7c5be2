-- A reminder's start date, recurrence and alarms as fields of their own (issue 22); before,
-- they were kept only in the `extra` of the format they came from.
--
-- start, start_kind, start_tz: the start date as due, due_kind and due_tz keep the due date
--   (the ISO text without zone; date, floating, utc or zoned; the IANA zone of a zoned one),
--   so validation and the views read both dates alike.
-- recurrence: NULL for a one-off, else a JSON object (ScheduleJSON): the RRULE value, its
--   EXDATEs and RDATEs, and whether it repeats from the due date or from completion. Views
--   find repeating reminders by `recurrence IS NOT NULL`.
-- alarms: a JSON array of alarms (ScheduleJSON), '[]' for none.
--
-- The step adds columns and moves no data: what earlier versions kept of these in `extra` is
-- lifted into them when a reminder is read (ExtraScheduleLifting; docs/migrations.md says why).
-- Adding columns fires no trigger, so every source digest stays as it was.
ALTER TABLE reminders ADD COLUMN start TEXT;
ALTER TABLE reminders ADD COLUMN start_kind TEXT;
ALTER TABLE reminders ADD COLUMN start_tz TEXT;
ALTER TABLE reminders ADD COLUMN recurrence TEXT;
ALTER TABLE reminders ADD COLUMN alarms TEXT NOT NULL DEFAULT '[]';
