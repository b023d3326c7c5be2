-- A store written by remconv 0.0.3 (schema 0003): stable UIDs (upper-case UUIDs and ones
-- kept from other apps), created/edited times (one with milliseconds), completion times, and
-- due dates with their kind: date, floating, UTC and zoned.
INSERT INTO lists (id, name, symbol, color, created_at, uid) VALUES
  (1, 'Einkäufe', 'cart', '#34C759', '2024-03-02T08:15:00Z', '6C1D0B52-3E6A-4C7B-9B9E-2F0A51D3C1A1'),
  (2, 'Arbeit', 'briefcase', '#007AFF', '2024-03-02T08:16:30Z', 'A0B8F3E4-71C2-4E55-8D7A-0C2B9E6F4D12'),
  (3, 'Caf' || char(101, 769) || ' Ideen', 'cup.and.saucer', NULL, '2024-05-17T19:02:11Z', 'caldav-list-7781@example.org'),
  (4, '🏠 Zuhause', 'house', '#FF9500', '2025-01-09T12:00:00Z', '0F5E2D7C-9A41-4B3E-A6C8-5D1E7F9B2C30');

INSERT INTO reminders (id, list_id, title, is_done, due, flagged, notes, priority, uid, created_at,
    edited_at, completed_at, due_kind, due_tz) VALUES
  (1, 1, 'Milch (laktosefrei)', 0, '2026-12-01', 0, '2 Liter', 2,
     'E1A2B3C4-D5E6-4F70-8192-A3B4C5D6E7F8', '2026-11-28T19:20:00Z', '2026-11-28T19:20:00Z', NULL, 'date', NULL),
  (2, 1, 'Äpfel, Birnen & Bananen', 1, NULL, 0, '', 0,
     'F2B3C4D5-E6F7-4081-92A3-B4C5D6E7F809', '2026-11-27T10:00:00Z', '2026-11-28T08:12:45.250Z', '2026-11-28T08:12:45.250Z', NULL, NULL),
  (3, 2, 'Standup mit dem Team', 0, '2026-12-02T09:15:00', 1, 'jeden Werktag', 1,
     '20261202T091500-standup@work.example', '2026-11-01T12:00:00Z', '2026-11-29T07:59:59Z', NULL, 'floating', NULL),
  (4, 2, 'Quartalsbericht an Frau Müller schicken', 0, '2026-12-15T16:00:00Z', 1, 'Zahlen aus Q3', 3,
     '3C4D5E6F-7081-4923-A4B5-C6D7E8F90A1B', '2026-10-15T08:00:00Z', '2026-11-02T17:45:00Z', NULL, 'utc', NULL),
  (5, 2, 'Call with the New York office', 0, '2026-12-10T14:00:00', 0, 'Zoom link in the invite', 2,
     '4D5E6F70-8192-4A34-B5C6-D7E8F90A1B2C', '2026-11-20T09:30:00Z', '2026-11-20T09:30:00Z', NULL, 'zoned', 'America/New_York'),
  (6, 3, 'Latte-Art üben ☕', 0, NULL, 0, '', 1,
     'todoman-4a7c9e21b3f84d0e', '2025-02-01T15:00:00Z', '2025-02-01T15:00:00Z', NULL, NULL, NULL),
  (7, 4, 'Heizung entlüften', 0, 'next friday', 0, 'Schlüssel in der Schublade', 0,
     '5E6F7081-92A3-4B45-86D7-E8F90A1B2C3D', '2025-01-09T12:00:00Z', '2025-01-09T12:00:00Z', NULL, NULL, NULL),
  (8, 4, 'Müll rausbringen (Mo/Do)', 1, '2026-11-23', 1, '', 0,
     '6F708192-A3B4-4C56-97E8-F90A1B2C3D4E', '2026-11-16T07:00:00Z', '2026-11-23T06:58:00Z', '2026-11-23T06:58:00Z', 'date', NULL);
