-- Fewer indexes on reminders, each of which every write keeps and a first import builds
-- (issue 20: a first import of 10k records spent a tenth of its instructions building the
-- indexes only reads use).
--
-- The day and state of a reminder in one index instead of two: "today" reads a range of
-- days, the counts of `remconv lists` read the four columns they group by without the table,
-- and scheduled, flagged, completed and all read the list index in their order, as before.
DROP INDEX reminders_by_due_day;
DROP INDEX reminders_by_state;
CREATE INDEX reminders_by_due_day_state ON reminders(due_day, is_done, flagged, list_id);

-- Exact UID lookups read the index of folded UIDs (0008, upper(uid)) and compare the UID
-- itself on the row they find: one index of UIDs instead of two.
DROP INDEX reminders_by_uid;

-- Subtasks only: the rows without a parent (most of them) were the bulk of the index, and no
-- query looks them up there (top-level rows are read by list). A lookup by parent (a cascade,
-- a subtree, a trigger) compares parent_id with a value, which implies IS NOT NULL.
DROP INDEX reminders_by_parent;
CREATE INDEX reminders_by_parent ON reminders(parent_id) WHERE parent_id IS NOT NULL;
