#!/usr/bin/env bash
# Makes the fixture stores of Tests/RemconvCoreTests/Fixtures/stores/: one store per earlier
# schema version, written the way that version of remconv wrote it, with realistic data.
#
# Each store is made with the sqlite3 CLI from the migration files 0001..N (as released), a
# history table with the checksums of those files, user_version and application_id, then the
# data of Fixtures/stores/source/data-NNNN*.sql in that version's columns. Stores are in WAL
# mode, as remconv keeps them. The migration tests upgrade copies of them to the head and
# compare every row, field by field.
#
#   Scripts/make-fixture-stores.sh          rewrite the stores
#   Scripts/make-fixture-stores.sh --check  fail if the stores differ from what the script makes
#
# Run it after adding a migration (add a data file for the version that just became "earlier").
# The sqlite3 CLI has no remconv_name_key(); step 0005 calls it only while copying rows into
# the rebuilt table, and that table is empty when the script applies the step, so the script
# substitutes lower(trim(name)) there: the schema is the same. Likewise 0008's
# remconv_due_day() and remconv_search_text() fill rows that are not there yet.
set -euo pipefail
cd "$(dirname "$0")/.."
out=Tests/RemconvCoreTests/Fixtures/stores
src=$out/source
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

command -v sqlite3 >/dev/null || { echo "error: the sqlite3 CLI is needed (apt-get install sqlite3)" >&2; exit 1; }

# The checksum remconv records (Migration.checksum): line endings unified, trailing blanks
# removed from every line and trailing newlines from the end, then SHA-256.
checksum() {
  printf '%s' "$(sed -e 's/\r$//' -e 's/\r/\n/g' -e 's/[ \t]*$//' "$1")" | sha256sum | cut -d' ' -f1
}

# When each version was applied, and by which remconv (fixed so the stores are reproducible).
applied_at=("" 2024-03-02T08:14:00Z 2024-09-15T20:00:00Z 2025-04-20T11:30:00Z 2025-12-01T07:45:00Z
  2026-06-01T09:00:00Z 2026-11-29T21:00:00Z 2026-12-01T09:00:00Z 2026-12-01T18:00:00Z 2027-03-01T09:00:00Z
  2027-06-01T09:00:00Z 2027-09-01T09:00:00Z 2027-12-01T09:00:00Z 2028-03-01T09:00:00Z 2028-06-01T09:00:00Z)

# make NAME STEPS FUTURE_STEP_FILE DATA_FILE...: a store at step STEPS (plus the future step
# when given) holding the data files.
make() {
  local name=$1 steps=$2 future=$3
  shift 3
  local files=()
  # The first STEPS files in order: numbers may leave a gap (a step given to another branch).
  while IFS= read -r file; do files+=("$file"); done < <(ls Migrations/[0-9][0-9][0-9][0-9]_*.sql | head -n "$steps")
  if [ -n "$future" ]; then files+=("$future"); fi
  {
    echo "PRAGMA foreign_keys = OFF;"
    echo "BEGIN;"
    # First, as the migrator does: a step may read the history (0007 does).
    echo "CREATE TABLE remconv_migrations (id TEXT PRIMARY KEY, checksum TEXT NOT NULL, tool_version TEXT NOT NULL, applied_at TEXT NOT NULL);"
    for file in "${files[@]}"; do
      sed -e 's/remconv_name_key(name)/lower(trim(name))/' -e 's/remconv_due_day(due, due_tz)/NULL/' \
        -e "s/remconv_search_text(title, notes)/''/" "$file"
      echo ";"
    done
    local number=0
    for file in "${files[@]}"; do
      number=$((number + 1))
      local tool="0.0.$number"
      if [ "$file" = "$future" ]; then tool="0.3.0"; fi
      printf "INSERT INTO remconv_migrations VALUES ('%s', '%s', '%s', '%s');\n" \
        "$(basename "$file" .sql)" "$(checksum "$file")" "$tool" "${applied_at[$number]}"
    done
    for data in "$@"; do cat "$data"; done
    echo "PRAGMA user_version = $number;"
    echo "PRAGMA application_id = $((0x52454D43));"
    echo "COMMIT;"
    echo "VACUUM;"
    echo "PRAGMA journal_mode = WAL;"
  } | sqlite3 -bail "$tmp/$name" >/dev/null
}

make v0001.sqlite 1 "" "$src/data-0001.sql"
make v0002.sqlite 2 "" "$src/data-0002.sql"
make v0003.sqlite 3 "" "$src/data-0003.sql"
make v0004.sqlite 4 "" "$src/data-0004.sql"
make v0002-orphan-reminder.sqlite 2 "" "$src/data-0002.sql" "$src/extra-orphan-reminder.sql"
make v0004-duplicate-names.sqlite 4 "" "$src/data-0004-duplicate-names.sql"
make v0005.sqlite 5 "" "$src/data-0005.sql"
make v0006.sqlite 6 "" "$src/data-0006.sql"
make v0007.sqlite 7 "" "$src/data-0007.sql"
make v0008.sqlite 8 "" "$src/data-0008.sql"
make v0011.sqlite 11 "" "$src/data-0008.sql" "$src/data-0011.sql"
# A store of a newer remconv: every step of this one, then one it does not know (numbered far
# ahead so that steps added here never meet it).
head_steps=$(ls Migrations/[0-9][0-9][0-9][0-9]_*.sql | wc -l)
make v9001-newer.sqlite "$head_steps" "$src/9001_locations_and_attachments.sql" "$src/data-9001-newer.sql"

if [ "${1:-}" = "--check" ]; then
  status=0
  for made in "$tmp"/*.sqlite; do
    name=$(basename "$made")
    if [ ! -f "$out/$name" ] || ! diff -q <(sqlite3 "$made" .dump) <(sqlite3 "file:$out/$name?immutable=1" .dump) >/dev/null; then
      echo "error: $out/$name is stale: run Scripts/make-fixture-stores.sh" >&2
      status=1
    fi
  done
  exit $status
fi
mv "$tmp"/*.sqlite "$out/"
ls -l "$out"/*.sqlite
