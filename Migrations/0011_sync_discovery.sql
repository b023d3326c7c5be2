-- What discovery found for a CalDAV remote (issue 23), so that a sync does not ask for it again:
-- discovered_home is the calendar home's URL (the one PROPFIND Depth 1 that lists a sync's
-- collections and their tokens); NULL before the first sync, for a vdir, and for a URL that
-- names one calendar. A home that no longer answers as one is forgotten and discovered again.
ALTER TABLE sync_remotes ADD COLUMN discovered_home TEXT;
