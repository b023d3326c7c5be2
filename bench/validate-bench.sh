#!/usr/bin/env bash
# Times `remconv validate` against `remconv export --format jsonl` on a generated store.
#
#   bench/validate-bench.sh [COUNT]      COUNT reminders (default 1000000) in 10 lists
#
# The store is created and migrated by remconv itself (an export of a store that does not exist
# yet), then filled in one INSERT ... WITH RECURSIVE by the sqlite3 CLI: every due-date kind,
# done reminders with completion times, notes, tags and one reminder in five a subtask, all
# valid, so validate must find nothing. Needs sqlite3 and hyperfine; builds remconv in release.
# Prints hyperfine's table (also in .build/bench/validate/results.md).
set -euo pipefail
cd "$(dirname "$0")/.."

count="${1:-1000000}"
work="$PWD/.build/bench/validate"
swift build -c release --product remconv >&2
remconv="$(swift build -c release --show-bin-path)/remconv"

rm -rf "$work"
mkdir -p "$work"
store="$work/store-$count.sqlite"
export REMCONV_STORE="$store"
"$remconv" export --format jsonl >/dev/null

echo "generating $count reminders in $store" >&2
sqlite3 "$store" <<SQL
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10)
INSERT INTO lists (id, uid, name, name_key, created_at)
SELECT i, printf('B0000000-0000-4000-8000-%012d', i), 'List ' || i, 'list ' || i, '2026-01-01T00:00:00Z' FROM n;

-- Reminders come in blocks of 1000 per list, so a subtask (every fifth, under the one
-- before it) is always in its parent's list. Times advance a minute per reminder.
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $count),
  t(i, at) AS (SELECT i, 1767225600 + i * 60 FROM n)
INSERT INTO reminders (id, uid, list_id, parent_id, title, notes, is_done, completed_at, flagged,
  due, due_kind, due_tz, priority, tags, url, created_at, edited_at, extra)
SELECT i,
  printf('%08X-%04X-4%03X-8%03X-%012X', i, i % 65536, i % 4096, (i / 7) % 4096, (i * 2654435761) % 281474976710656),
  1 + ((i - 1) / 1000) % 10,
  CASE WHEN i % 5 = 0 THEN i - 1 END,
  'Reminder number ' || i,
  CASE WHEN i % 3 = 0 THEN 'Notes for reminder ' || i || char(10) || 'second line' ELSE '' END,
  i % 4 = 0,
  CASE WHEN i % 4 = 0 THEN strftime('%Y-%m-%dT%H:%M:%SZ', at + 7200, 'unixepoch') END,
  i % 11 = 0,
  CASE WHEN i % 7 = 0 THEN NULL ELSE CASE i % 4
    WHEN 0 THEN date(at, 'unixepoch')
    WHEN 1 THEN strftime('%Y-%m-%dT%H:%M:%S', at, 'unixepoch')
    WHEN 2 THEN strftime('%Y-%m-%dT%H:%M:%S', at, 'unixepoch')
    ELSE strftime('%Y-%m-%dT%H:%M:%SZ', at, 'unixepoch') END END,
  CASE WHEN i % 7 = 0 THEN NULL ELSE CASE i % 4
    WHEN 0 THEN 'date' WHEN 1 THEN 'floating' WHEN 2 THEN 'zoned' ELSE 'utc' END END,
  CASE WHEN i % 7 <> 0 AND i % 4 = 2 THEN 'Europe/Berlin' END,
  i % 4,
  CASE WHEN i % 6 = 0 THEN '["home","errands"]' ELSE '[]' END,
  CASE WHEN i % 13 = 0 THEN 'https://example.com/' || i END,
  strftime('%Y-%m-%dT%H:%M:%SZ', at, 'unixepoch'),
  strftime('%Y-%m-%dT%H:%M:%SZ', at + 3600, 'unixepoch'),
  CASE WHEN i % 17 = 0 THEN '{"ical":{"x-apple-sort":' || i || '}}' ELSE '{}' END
FROM t;
COMMIT;
SQL
ls -l "$store" >&2

# The generated store must be clean: validate exits 0.
"$remconv" validate --quiet

hyperfine --warmup 1 --runs "${RUNS:-3}" --export-markdown "$work/results.md" \
  --command-name "validate" "$remconv validate --quiet" \
  --command-name "validate --deep" "$remconv validate --deep --quiet" \
  --command-name "export --format jsonl" "$remconv export --format jsonl > /dev/null" \
  --command-name "import of 11 reminders (--dry-run), scoped checks included" \
  "$remconv import Samples/jsonl/reminders.jsonl --dry-run --quiet"

# The same store with 10,000 defects (1%): 2,500 orphans, 1,250 two-reminder cycles, 2,500
# duplicate UIDs, 2,500 bad priorities. Each run repairs a fresh copy (backup included).
broken="$work/broken-$count.sqlite"
cp "$store" "$broken"
sqlite3 "$broken" <<SQL
BEGIN;
UPDATE reminders SET list_id = 99 WHERE id % 400 = 1;
UPDATE reminders SET parent_id = id + 1 WHERE id % 800 = 5;
UPDATE reminders SET parent_id = id - 1 WHERE id % 800 = 6;
UPDATE reminders SET uid = (SELECT p.uid FROM reminders p WHERE p.id = reminders.id - 1) WHERE id % 400 = 3;
UPDATE reminders SET priority = 9 WHERE id % 400 = 7;
COMMIT;
SQL
repaired="$work/repaired-$count.sqlite"
REMCONV_STORE="$broken" "$remconv" validate --quiet | cut -d']' -f1 | sort | uniq -c >&2 || true
hyperfine --runs "${RUNS:-3}" --export-markdown "$work/results-fix.md" \
  --prepare "rm -f '$repaired'* && cp '$broken' '$repaired'" \
  --command-name "validate --fix (10,000 defects)" "REMCONV_STORE='$repaired' $remconv validate --fix --quiet > /dev/null"
REMCONV_STORE="$repaired" "$remconv" validate --quiet
cat "$work/results.md" "$work/results-fix.md"
