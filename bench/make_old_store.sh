#!/usr/bin/env bash
# Makes a store of N reminders in the oldest schema (0001), as the first remconv wrote it, for
# the migration benchmark: bench/make_old_store.sh N OUT.sqlite
#
# The schema and history are made the way Scripts/make-fixture-stores.sh makes the fixture
# stores (the migration file as released, a history row with its checksum, user_version,
# application_id, WAL); the rows come from one recursive SQL statement, so a million take
# seconds. Lists: N/200 (1 to 500), named "List 000"...; reminders spread over them with every
# due-date shape 0001 stored (none, a date, UTC, floating), done and flagged ones, and titles
# with non-ASCII text.
set -euo pipefail
cd "$(dirname "$0")/.."
count=$1
out=$2
lists=$(( count / 200 ))
(( lists < 1 )) && lists=1
(( lists > 500 )) && lists=500
migration=$(ls Migrations/0001_*.sql)
# The checksum remconv records (Migration.checksum), as in Scripts/make-fixture-stores.sh.
checksum=$(printf '%s' "$(sed -e 's/\r$//' -e 's/\r/\n/g' -e 's/[ \t]*$//' "$migration")" | sha256sum | cut -d' ' -f1)
rm -f "$out" "$out-wal" "$out-shm"
{
  echo "PRAGMA foreign_keys = OFF;"
  echo "BEGIN;"
  cat "$migration"
  echo ";"
  echo "CREATE TABLE remconv_migrations (id TEXT PRIMARY KEY, checksum TEXT NOT NULL, tool_version TEXT NOT NULL, applied_at TEXT NOT NULL);"
  echo "INSERT INTO remconv_migrations VALUES ('$(basename "$migration" .sql)', '$checksum', '0.0.1', '2024-03-02T08:14:00Z');"
  cat <<SQL
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < $lists - 1)
INSERT INTO lists (id, name, symbol, color, created_at)
  SELECT i + 1, printf('List %03d', i), 'list.bullet', printf('#%06X', (i * 2654435761) % 16777215),
    printf('2024-%02d-%02dT08:00:00Z', 1 + i % 12, 1 + i % 28)
  FROM n;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < $count - 1)
INSERT INTO reminders (id, list_id, title, is_done, due, flagged)
  SELECT i + 1, 1 + i % $lists,
    printf('%s #%d', CASE i % 4 WHEN 0 THEN 'Call Renée about the café' WHEN 1 THEN 'Überweisung prüfen'
      WHEN 2 THEN 'Buy milk, eggs' ELSE 'Tōkyō trip: passport' END, i),
    i % 5 = 0,
    CASE i % 4
      WHEN 0 THEN NULL
      WHEN 1 THEN printf('2025-%02d-%02d', 1 + i % 12, 1 + i % 28)
      WHEN 2 THEN printf('2025-%02d-%02dT%02d:00:00Z', 1 + i % 12, 1 + i % 28, i % 24)
      ELSE printf('2025-%02d-%02dT09:30:00', 1 + i % 12, 1 + i % 28)
    END,
    i % 7 = 0
  FROM n;
SQL
  echo "PRAGMA user_version = 1;"
  echo "PRAGMA application_id = $((0x52454D43));"
  echo "COMMIT;"
  echo "PRAGMA journal_mode = WAL;"
} | sqlite3 -bail "$out" >/dev/null
