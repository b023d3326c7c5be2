-- A schema-0004 store whose list names collide under the unique-name rule of step 0005
-- (trimmed, NFC, case-folded): Home / home / " HOME ", Café precomposed and decomposed. A list
-- already called "Home (2)" makes the rename skip that number, and one list has no UID.
INSERT INTO lists (id, name, symbol, color, created_at, uid, extra) VALUES
  (1, 'Home', 'house', '#FF9500', '2024-01-10T09:00:00Z', '11111111-AAAA-4AAA-8AAA-111111111111', '{}'),
  (2, 'Work', 'briefcase', '#007AFF', '2024-01-10T09:01:00Z', '22222222-BBBB-4BBB-9BBB-222222222222', '{}'),
  (3, 'home', 'list.bullet', NULL, '2024-06-01T18:30:00Z', '33333333-CCCC-4CCC-ACCC-333333333333',
     '{"ical":{"X-WR-CALNAME":"home"}}'),
  (4, ' HOME ', 'house.fill', '#FF3B30', '2025-02-14T07:00:00Z', '44444444-DDDD-4DDD-BDDD-444444444444', '{}'),
  (5, 'Home (2)', 'list.bullet', NULL, '2025-03-01T12:00:00Z', '55555555-EEEE-4EEE-8EEE-555555555555', '{}'),
  (6, 'Café', 'cup.and.saucer', NULL, '2025-04-01T08:00:00Z', '66666666-FFFF-4FFF-9FFF-666666666666', '{}'),
  (7, 'Caf' || char(101, 769), 'cup.and.saucer', '#A2845E', '2025-04-02T08:00:00Z', '77777777-0000-4000-A000-777777777777', '{}'),
  (8, 'Ideas', 'lightbulb', NULL, '2025-05-05T05:05:05Z', NULL, '{}');

INSERT INTO reminders (id, list_id, title, is_done, due, flagged, notes, priority, uid, created_at,
    edited_at, completed_at, due_kind, due_tz, parent_id, tags, url, extra) VALUES
  (1, 1, 'Fenster putzen', 0, '2026-12-05', 0, '', 1, 'R-0001', '2024-01-10T09:05:00Z', '2024-01-10T09:05:00Z', NULL, 'date', NULL, NULL, '[]', NULL, '{}'),
  (2, 1, 'Wäsche aufhängen', 1, NULL, 0, '', 0, 'R-0002', '2024-01-11T09:05:00Z', '2024-01-12T10:00:00Z', '2024-01-12T10:00:00Z', NULL, NULL, NULL, '[]', NULL, '{}'),
  (3, 2, 'Steuererklärung', 0, '2026-07-31', 1, '', 3, 'R-0003', '2024-02-01T09:00:00Z', '2024-02-01T09:00:00Z', NULL, 'date', NULL, NULL, '["steuer"]', NULL, '{}'),
  (4, 3, 'Glühbirne im Flur tauschen', 0, NULL, 0, '', 0, 'R-0004', '2024-06-01T18:31:00Z', '2024-06-01T18:31:00Z', NULL, NULL, NULL, NULL, '[]', NULL, '{}'),
  (5, 3, 'E27, warmweiß kaufen', 0, NULL, 0, '', 0, 'R-0005', '2024-06-01T18:32:00Z', '2024-06-01T18:32:00Z', NULL, NULL, NULL, 4, '[]', NULL, '{}'),
  (6, 4, 'Rauchmelder testen', 0, '2026-03-01T10:00:00', 1, 'alle drei', 2, 'R-0006', '2025-02-14T07:01:00Z', '2025-02-14T07:01:00Z', NULL, 'floating', NULL, NULL, '[]', NULL, '{}'),
  (7, 5, 'Keller aufräumen', 0, NULL, 0, '', 0, 'R-0007', '2025-03-01T12:01:00Z', '2025-03-01T12:01:00Z', NULL, NULL, NULL, NULL, '[]', NULL, '{}'),
  (8, 6, 'Bohnen bestellen', 0, NULL, 0, '', 0, 'R-0008', '2025-04-01T08:01:00Z', '2025-04-01T08:01:00Z', NULL, NULL, NULL, NULL, '[]', NULL, '{}'),
  (9, 7, 'Mühle entkalken', 0, '2026-01-15', 0, '', 0, 'R-0009', '2025-04-02T08:01:00Z', '2025-04-02T08:01:00Z', NULL, 'date', NULL, NULL, '[]', NULL, '{}'),
  (10, 8, 'App für Pflanzenpflege', 0, NULL, 0, '', 0, 'R-0010', '2025-05-05T05:06:00Z', '2025-05-05T05:06:00Z', NULL, NULL, NULL, NULL, '[]', NULL, '{}');
