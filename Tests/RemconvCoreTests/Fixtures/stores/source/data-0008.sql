-- A store written by remconv at schema 0008 (view index columns): 0007's data, plus a reminder
-- a Nextcloud import wrote (its DTSTART, RRULE, EXDATE and VALARM kept in extra.ical.lines,
-- as remconv kept them before 0009), with due_day and search_text as remconv 0008 computed
-- them (a copy of v0007 with this reminder, upgraded by remconv to 0008 and read back).
INSERT INTO lists (id, name, name_key, symbol, color, created_at, uid, extra) VALUES
  (1, 'Einkäufe', 'einkäufe', 'cart', '#34C759', '2024-03-02T08:15:00Z', '6C1D0B52-3E6A-4C7B-9B9E-2F0A51D3C1A1', '{}'),
  (2, 'Arbeit', 'arbeit', 'briefcase', '#007AFF', '2024-03-02T08:16:30Z', 'A0B8F3E4-71C2-4E55-8D7A-0C2B9E6F4D12',
     '{"ical":{"X-WR-CALNAME":"Arbeit","X-APPLE-CALENDAR-COLOR":"#007AFF"}}'),
  (3, 'Caf' || char(101, 769) || ' Ideen', 'caf' || char(233) || ' ideen', 'cup.and.saucer', NULL, '2024-05-17T19:02:11Z', 'caldav-list-7781@example.org', '{}'),
  (4, 'Renovierung 2026', 'renovierung 2026', 'hammer', '#AF52DE', '2026-01-05T10:00:00Z', '7A8B9CAD-BECF-4D01-A234-56789ABCDEF0',
     '{"taskwarrior":{"project":"renovierung"}}'),
  (5, 'HOME Office', 'home office', 'house', '#FF9500', '2026-06-10T07:30:00Z', '3F2E1D0C-BA98-4765-8432-10FEDCBA9876', '{}'),
  (6, 'Garten', 'garten', 'leaf', '#30B0C7', NULL, 'D2C3B4A5-9687-4A1B-8C2D-3E4F5A6B7C8D', '{"ics":{"X-WR-CALNAME":"Garten"}}');

INSERT INTO reminders (id, list_id, title, is_done, due, flagged, notes, priority, uid, created_at,
    edited_at, completed_at, due_kind, due_tz, parent_id, tags, url, extra) VALUES
  (1, 1, 'Milch (laktosefrei)', 0, '2026-12-01', 0, '2 Liter', 2,
     'E1A2B3C4-D5E6-4F70-8192-A3B4C5D6E7F8', '2026-11-28T19:20:00Z', '2026-11-28T19:20:00Z', NULL, 'date', NULL,
     NULL, '["einkauf","wöchentlich"]', NULL, '{}'),
  (2, 2, 'Release 2.4 vorbereiten', 0, '2026-12-12T17:00:00Z', 1, 'Checkliste im Wiki', 3,
     '8B9CADBE-CFD0-4E12-B345-6789ABCDEF01', '2026-11-10T09:00:00Z', '2026-11-29T08:30:00Z', NULL, 'utc', NULL,
     NULL, '["release","q4"]', 'https://wiki.example.com/releases/2.4?view=checklist&lang=de',
     '{"ical":{"X-APPLE-SORT-ORDER":"3","CATEGORIES":"release,q4"}}'),
  (3, 2, 'Changelog schreiben', 1, NULL, 0, '', 2,
     '9CADBECF-D0E1-4F23-8456-789ABCDEF012', '2026-11-10T09:05:00Z', '2026-11-25T16:20:00Z', '2026-11-25T16:20:00Z', NULL, NULL,
     2, '[]', NULL, '{}'),
  (4, 2, 'Release-Notes übersetzen (EN, 日本語)', 0, '2026-12-10T12:00:00', 0, '', 1,
     'ADBECFD0-E1F2-4034-9567-89ABCDEF0123', '2026-11-10T09:06:00Z', '2026-11-10T09:06:00Z', NULL, 'zoned', 'Asia/Tokyo',
     2, '["i18n"]', NULL, '{}'),
  (5, 2, 'Screenshots für die Release-Notes', 0, NULL, 0, '', 0,
     'BECFD0E1-F203-4145-A678-9ABCDEF01234', '2026-11-10T09:07:00Z', '2026-11-10T09:07:00Z', NULL, NULL, NULL,
     4, '[]', NULL, '{}'),
  (6, 3, 'Latte-Art üben ☕', 0, NULL, 0, '', 1,
     'todoman-4a7c9e21b3f84d0e', '2025-02-01T15:00:00Z', '2025-02-01T15:00:00Z', NULL, NULL, NULL,
     NULL, '["hobby"]', 'https://www.youtube.com/watch?v=latte-art-101', '{"ical":{"X-TODOMAN-PRIORITY":"5"}}'),
  (7, 4, 'Fliesen fürs Bad aussuchen', 0, '2026-02-28', 1, 'Budget: 40 €/m²', 2,
     'tw-2f1e0d9c-8b7a-4695-a4b3-c2d1e0f9a8b7', '2026-01-05T10:10:00Z', '2026-01-20T19:45:00Z', NULL, 'date', NULL,
     NULL, '["bad","einkauf"]', NULL, '{"taskwarrior":{"urgency":"8.2","annotations":[{"entry":"20260106T101500Z","description":"Muster bestellt"}]}}'),
  (8, 4, 'Heizung entlüften', 0, 'next friday', 0, '', 0,
     '5E6F7081-92A3-4B45-86D7-E8F90A1B2C3D', '2025-01-09T12:00:00Z', '2025-01-09T12:00:00Z', NULL, NULL, NULL,
     NULL, '[]', NULL, '{}'),
  (9, 6, 'Tomaten ausgeizen', 0, '2026-07-04T18:30:00', 0, 'nur die kräftigen Triebe', 1,
     'garden-20260601-tomaten@example.org', '2026-06-01T07:00:00Z', '2026-06-01T07:00:00Z', NULL, 'floating', NULL,
     NULL, '["garten"]', NULL, '{}'),
  (10, 6, 'Rasen vertikutieren', 1, '2026-04-12', 0, '', 0,
     'garden-20260301-rasen@example.org', '2026-03-01T07:00:00Z', '2026-04-12T16:00:00Z', '2026-04-12T16:00:00Z', 'date', NULL,
     NULL, '[]', NULL, '{}');

INSERT INTO reminders (id, list_id, title, is_done, due, flagged, notes, priority, uid, created_at,
    edited_at, completed_at, due_kind, due_tz, parent_id, tags, url, extra) VALUES
  (11, 2, 'Wochenplanung', 0, '2026-12-01T09:00:00', 0, 'Board durchgehen', 0,
     'nextcloud-wochenplanung-3c1f@example.org', '2026-11-20T08:00:00Z', '2026-11-24T09:30:00Z', NULL, 'zoned', 'Europe/Berlin',
     NULL, '["team"]', NULL,
     '{"ical":{"lines":["DTSTART;TZID=Europe/Berlin:20261201T083000","RRULE:FREQ=WEEKLY;BYDAY=TU","EXDATE;TZID=Europe/Berlin:20261222T090000","X-NEXTCLOUD-BOARD:12","BEGIN:VALARM","ACTION:DISPLAY","DESCRIPTION:Wochenplanung","TRIGGER:-PT15M","END:VALARM"]}}');

UPDATE reminders SET due_day = 20788, search_text = 'milch (laktosefrei)' || char(31) || '2 liter' WHERE id = 1;
UPDATE reminders SET due_day = 20799, search_text = 'release 2.4 vorbereiten' || char(31) || 'checkliste im wiki' WHERE id = 2;
UPDATE reminders SET due_day = NULL, search_text = 'changelog schreiben' || char(31) WHERE id = 3;
UPDATE reminders SET due_day = 20797, search_text = 'release-notes ubersetzen (en, 日本語)' || char(31) WHERE id = 4;
UPDATE reminders SET due_day = NULL, search_text = 'screenshots fur die release-notes' || char(31) WHERE id = 5;
UPDATE reminders SET due_day = NULL, search_text = 'latte-art uben ☕' || char(31) WHERE id = 6;
UPDATE reminders SET due_day = 20512, search_text = 'fliesen furs bad aussuchen' || char(31) || 'budget: 40 €/m²' WHERE id = 7;
UPDATE reminders SET due_day = NULL, search_text = 'heizung entluften' || char(31) WHERE id = 8;
UPDATE reminders SET due_day = 20638, search_text = 'tomaten ausgeizen' || char(31) || 'nur die kraftigen triebe' WHERE id = 9;
UPDATE reminders SET due_day = 20555, search_text = 'rasen vertikutieren' || char(31) WHERE id = 10;
UPDATE reminders SET due_day = 20788, search_text = 'wochenplanung' || char(31) || 'board durchgehen' WHERE id = 11;

UPDATE reminders SET source_digest = X'5A0C9E4B7F1D2A3C8E6B0F9D4C2A1E7B' WHERE id = 9;
UPDATE reminders SET source_digest = X'C41F7A20D9E35B86A1F04C7E2D9B3A55' WHERE id = 10;
