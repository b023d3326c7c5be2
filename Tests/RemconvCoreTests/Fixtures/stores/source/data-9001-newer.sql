-- A store written by a newer remconv (0.3.0) that applied a step this remconv does not know,
-- 9001_locations_and_attachments: it added a column and a table. This remconv must read it
-- (export) and never write it.
INSERT INTO lists (id, uid, name, name_key, symbol, color, created_at, extra) VALUES
  (1, '6C1D0B52-3E6A-4C7B-9B9E-2F0A51D3C1A1', 'Einkäufe', 'einkäufe', 'cart', '#34C759', '2024-03-02T08:15:00Z', '{}'),
  (2, 'A0B8F3E4-71C2-4E55-8D7A-0C2B9E6F4D12', 'Arbeit', 'arbeit', 'briefcase', '#007AFF', '2024-03-02T08:16:30Z', '{}');

INSERT INTO reminders (id, list_id, title, is_done, due, flagged, notes, priority, uid, created_at,
    edited_at, completed_at, due_kind, due_tz, parent_id, tags, url, extra, location) VALUES
  (1, 1, 'Milch (laktosefrei)', 0, '2026-12-01', 0, '2 Liter', 2,
     'E1A2B3C4-D5E6-4F70-8192-A3B4C5D6E7F8', '2026-11-28T19:20:00Z', '2026-11-28T19:20:00Z', NULL, 'date', NULL,
     NULL, '["einkauf"]', NULL, '{}', 'Markthalle, Stand 4'),
  (2, 2, 'Release 2.4 vorbereiten', 0, '2026-12-12T17:00:00Z', 1, '', 3,
     '8B9CADBE-CFD0-4E12-B345-6789ABCDEF01', '2026-11-10T09:00:00Z', '2026-11-29T08:30:00Z', NULL, 'utc', NULL,
     NULL, '[]', NULL, '{}', NULL);

INSERT INTO attachments (id, reminder_id, name, bytes) VALUES (1, 2, 'checklist.txt', CAST('1. tag 2. build' AS BLOB));
