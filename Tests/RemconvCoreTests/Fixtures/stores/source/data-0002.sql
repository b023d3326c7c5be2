-- A store written by remconv 0.0.2 (schema 0002): notes and a priority (0 none, 1 low,
-- 2 medium, 3 high). Notes span lines, one with Windows line endings, one with a tab.
INSERT INTO lists (id, name, symbol, color, created_at) VALUES
  (1, 'Einkäufe', 'cart', '#34C759', '2024-03-02T08:15:00Z'),
  (2, 'Arbeit', 'briefcase', '#007AFF', '2024-03-02T08:16:30Z'),
  (3, 'Caf' || char(101, 769) || ' Ideen', 'cup.and.saucer', NULL, '2024-05-17T19:02:11Z'),
  (4, '🏠 Zuhause', 'house', '#FF9500', '2025-01-09T12:00:00Z'),
  (7, 'Garten', 'leaf', '#8E8E93', '2025-08-12T17:30:45Z');

INSERT INTO reminders (id, list_id, title, is_done, due, flagged, notes, priority) VALUES
  (1, 1, 'Milch (laktosefrei)', 0, '2026-12-01', 0, '2 Liter, Filiale am Markt', 2),
  (2, 1, 'Äpfel, Birnen & Bananen', 1, NULL, 0, '', 0),
  (3, 1, 'Brot "Dinkel" vom Bäcker', 0, '2026-12-01T09:30:00', 1, 'vor 10 Uhr, sonst ausverkauft', 3),
  (4, 2, 'Quartalsbericht an Frau Müller schicken', 0, '2026-12-15T16:00:00Z', 1,
     'Zahlen aus Q3:' || char(13, 10) || '- Umsatz' || char(13, 10) || '- Kosten', 3),
  (5, 2, 'Reisekosten einreichen', 1, '2026-11-20', 0, 'Belege im Ordner "2026/11"', 1),
  (6, 2, 'Call with the Tokyo office 東京', 0, '2026-12-03T01:00:00Z', 0,
     'Agenda:' || char(10) || '1. Roadmap' || char(10) || '2.' || char(9) || 'Hiring', 2),
  (7, 3, 'Latte-Art üben ☕', 0, NULL, 0, '', 1),
  (8, 4, 'Heizung entlüften', 0, 'next friday', 0, 'Schlüssel liegt in der Schublade', 0),
  (9, 4, 'Müll rausbringen (Mo/Do)', 1, '2026-11-23', 1, '', 0),
  (10, 7, 'Tomaten ausgeizen 🍅', 0, '2026-06-01', 0, 'nur die großen Triebe', 1),
  (11, 7, 'Rasen mähen', 1, '2026-05-30T18:00:00', 0, '', 0);
