-- The state of two-way sync with remotes (issue 23): which remotes there are, which list each
-- of a remote's collections pairs with, and for every paired item the version both sides
-- last agreed on (the merge base of the next sync).
--
-- sync_remotes: a remote by name; where its password comes from (an environment variable or a
--   command), never the password itself.
CREATE TABLE sync_remotes (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  url TEXT NOT NULL,
  user_name TEXT,
  password_kind TEXT CHECK (password_kind IN ('env', 'command')),
  password_reference TEXT,
  CHECK ((password_kind IS NULL) = (password_reference IS NULL))
);

-- sync_collections: one of a remote's collections and the list it pairs with, by the list's
--   UID (a list rebuilt by a migration keeps it); sync_token is the remote's token for its
--   state after the last sync (NULL: list it in full).
CREATE TABLE sync_collections (
  id INTEGER PRIMARY KEY,
  remote_id INTEGER NOT NULL REFERENCES sync_remotes(id) ON DELETE CASCADE,
  href TEXT NOT NULL,
  display_name TEXT,
  list_uid TEXT NOT NULL,
  sync_token TEXT,
  UNIQUE (remote_id, href),
  UNIQUE (remote_id, list_uid)
);

-- sync_items: a paired item. etag is the remote's version stamp (NULL when a write's answer
--   carried none: the next listing supplies it); base is the item's bytes as both sides last
--   agreed on them; local_digest is the digest of the reminder as the store held it then, so
--   a reminder changed since is found without decoding anything. A reminder deleted from the
--   store keeps its row here until the remote confirms the deletion: the row is the tombstone,
--   whatever deleted the reminder.
CREATE TABLE sync_items (
  collection_id INTEGER NOT NULL REFERENCES sync_collections(id) ON DELETE CASCADE,
  href TEXT NOT NULL,
  etag TEXT,
  uid TEXT NOT NULL,
  base BLOB NOT NULL,
  local_digest BLOB NOT NULL,
  PRIMARY KEY (collection_id, href)
) WITHOUT ROWID;
CREATE INDEX sync_items_by_uid ON sync_items(collection_id, uid);
