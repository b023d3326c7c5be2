-- Rows a 0.0.2 store could hold (due was free text then), added to the v0002 fixture before
-- remconv b99ed97 upgrades it: a list whose name has spaces around it, and due texts of
-- shapes the first 0003 misclassified.
INSERT INTO lists (id, name, symbol, color, created_at) VALUES
  (8, '  Reisen 2026 ', 'airplane', '#5856D6', '2025-10-01T06:00:00Z');
INSERT INTO reminders (id, list_id, title, is_done, due, flagged, notes, priority) VALUES
  (12, 8, 'Pass verlängern', 0, 'tomorrow!!', 1, 'vor März', 3),
  (13, 8, 'Visum beantragen', 0, 'soon, Z', 0, '', 2),
  (14, 8, 'Flug buchen', 0, '2026-03-01T09:00+01:00', 0, 'Fensterplatz', 1),
  (15, 8, 'Koffer packen', 1, '2026-03-1', 0, '', 0),
  (16, 8, 'Reiseapotheke', 0, '2026-03-01T09:00:00z', 0, '', 0),
  (17, 8, 'Hotel bestätigen', 0, '2026-03-02', 0, '', 0);
