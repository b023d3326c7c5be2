-- What a store at schema 0011 (sync discovery) holds beyond 0008's data (data-0008.sql, loaded
-- before this file): a reminder a Nextcloud sync wrote with its start, recurrence and alarm in
-- the columns of 0009 (as remconv 0011 wrote them; due_day and search_text as it computed them),
-- and the sync state of 0010 and 0011 for the remote it came from.
INSERT INTO reminders (id, list_id, title, is_done, due, flagged, notes, priority, uid, created_at,
    edited_at, completed_at, due_kind, due_tz, parent_id, tags, url, extra, source_digest, due_day, search_text,
    start, start_kind, start_tz, recurrence, alarms) VALUES
  (12, 2, 'Zahnarzt (Kontrolle)', 0, '2027-01-15T08:30:00', 0, 'Praxis am Markt, 2. OG', 0,
     'nextcloud-zahnarzt-91ab@example.org', '2027-07-01T10:00:00Z', '2027-07-01T10:00:00Z', NULL, 'zoned', 'Europe/Berlin',
     NULL, '[]', NULL, '{}', NULL, 20833, 'zahnarzt (kontrolle)' || char(31) || 'praxis am markt, 2. og',
     '2027-01-15T08:00:00', 'zoned', 'Europe/Berlin',
     '{"additionalDates":[],"basis":"due","exceptionDates":[],"rule":"FREQ=MONTHLY;INTERVAL=6"}',
     '[{"action":"DISPLAY","offset":-3600,"relatedTo":"start","text":"Zahnarzt"}]');

INSERT INTO sync_remotes (id, name, url, user_name, password_kind, password_reference, discovered_home) VALUES
  (1, 'nextcloud', 'https://cloud.example.org/remote.php/dav', 'anna', 'env', 'REMCONV_NEXTCLOUD_PASSWORD',
     'https://cloud.example.org/remote.php/dav/calendars/anna/');

INSERT INTO sync_collections (id, remote_id, href, display_name, list_uid, sync_token) VALUES
  (1, 1, '/remote.php/dav/calendars/anna/arbeit/', 'Arbeit', 'A0B8F3E4-71C2-4E55-8D7A-0C2B9E6F4D12',
     'http://sabre.io/ns/sync/4711');

INSERT INTO sync_items (collection_id, href, etag, uid, base, local_digest) VALUES
  (1, '/remote.php/dav/calendars/anna/arbeit/nextcloud-zahnarzt-91ab.ics', '"9f2c4e1a"',
     'nextcloud-zahnarzt-91ab@example.org',
     CAST('BEGIN:VCALENDAR' || char(13, 10) || 'VERSION:2.0' || char(13, 10) || 'END:VCALENDAR' || char(13, 10) AS BLOB),
     X'3B8E0C7A51D24F96A0E13C5B7D9F2468');
