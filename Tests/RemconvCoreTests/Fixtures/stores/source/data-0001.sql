-- A store written by remconv 0.0.1 (schema 0001): lists, and reminders with a title, a done
-- state, a due date and a flag. Names and titles as people write them: umlauts, a decomposed
-- accent (NFD, as macOS file names have it), emoji, CJK, quotes, surrounding spaces; due dates
-- of every shape that version stored, and one it accepted as free text.
INSERT INTO lists (id, name, symbol, color, created_at) VALUES
  (1, 'Einkäufe', 'cart', '#34C759', '2024-03-02T08:15:00Z'),
  (2, 'Arbeit', 'briefcase', '#007AFF', '2024-03-02T08:16:30Z'),
  (3, 'Caf' || char(101, 769) || ' Ideen', 'cup.and.saucer', NULL, '2024-05-17T19:02:11Z'),
  (4, '🏠 Zuhause', 'house', '#FF9500', '2025-01-09T12:00:00Z'),
  (5, '  Reisen 2026 ', 'airplane', NULL, '2025-06-30T21:45:00Z'),
  (6, 'Leer', 'list.bullet', NULL, '2025-07-01T06:00:00Z');

INSERT INTO reminders (id, list_id, title, is_done, due, flagged) VALUES
  (1, 1, 'Milch (laktosefrei)', 0, '2026-12-01', 0),
  (2, 1, 'Äpfel, Birnen & Bananen', 1, NULL, 0),
  (3, 1, 'Brot "Dinkel" vom Bäcker', 0, '2026-12-01T09:30:00', 1),
  (4, 2, 'Quartalsbericht an Frau Müller schicken', 0, '2026-12-15T16:00:00Z', 1),
  (5, 2, 'Reisekosten einreichen', 1, '2026-11-20', 0),
  (6, 2, 'Call with the Tokyo office 東京', 0, '2026-12-03T01:00:00Z', 0),
  (7, 3, 'Latte-Art üben ☕', 0, NULL, 0),
  (8, 4, 'Heizung entlüften', 0, 'next friday', 0),
  (9, 4, 'Müll rausbringen (Mo/Do)', 1, '2026-11-23', 1),
  (10, 5, 'Pass verlängern', 0, '2026-01-31', 1),
  (11, 5, 'Zugtickets Wien → Berlin', 0, '2026-02-14T07:05:00', 0),
  (13, 1, 'It''s a long list: ' || 'Zwiebeln, Knoblauch, Ingwer, Koriander, Limetten, Kokosmilch, Reis', 0, NULL, 0);
