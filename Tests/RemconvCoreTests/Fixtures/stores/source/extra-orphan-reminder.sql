-- Added to the schema-0002 store: a reminder that outlived its list (an older remconv ran with
-- foreign keys off for a while). An upgrade must keep it and report it, not fail on it.
INSERT INTO reminders (id, list_id, title, is_done, due, flagged, notes, priority) VALUES
  (40, 99, 'Verwaister Eintrag aus einer gelöschten Liste', 0, '2026-03-01', 0, 'Liste 99 gibt es nicht mehr', 1);
