#!/usr/bin/env bash
# The benchmark of issue 11: remconv side by side with the limits (libical, SQLite from C, cat)
# and the peers (python-icalendar, vobject, todoman, Python's csv and json), on the same files,
# in one run. Writes docs/benchmarks.md and its chart.
#
#   make bench                          the full run: 1k, 10k, 100k and 1M items
#   BENCH_SIZES=1000 make bench         the CI smoke test (under 2 minutes, no network)
#
# Settings (environment):
#   BENCH_SIZES    sizes in items (default "1000 10000 100000 1000000")
#   BENCH_RUNS     runs of each measurement; the median is reported (default 3; 1 in smoke runs)
#   BENCH_RUNS_1M  runs at sizes of 1M and more (default 1: a round at 1M takes half an hour here)
#   BENCH_CONFIG   release or debug (default release; debug in smoke runs, which only check that
#                  the benchmark works: their figures mean nothing)
#   BENCH_REPORT   the report (default docs/benchmarks.md for the full run, else bench/out/benchmarks.md)
#   BENCH_PEERS    venv: make bench/.venv with the newest icalendar, vobject and matplotlib from
#                  PyPI when missing (default for the full run); existing: use it only if it is
#                  there (default for smoke runs); none: skip the PyPI peers
#   BENCH_TIMEOUT  seconds after which one measured command is stopped (default 3600)
#   BENCH_PROFILE  cases (shell patterns, as BENCH_CASES) whose callgrind profile is kept: for each,
#                  bench/out/profile/CASE.callgrind and the inclusive top functions in CASE.txt
#                  (callgrind_annotate --inclusive=yes), e.g. BENCH_PROFILE="import:ics*"
#   BENCH_CASES    only the cases whose names match one of these space-separated shell patterns
#                  (default: every case), e.g. BENCH_CASES="libical-lines* sqlite-* import:ics*"
#                  for the .ics import goal on both corpora; sqlite-c (the process) stands for
#                  sqlite-insert and sqlite-read. Applies to the timed runs and the counts alike.
#                  A filtered run writes bench/out/benchmarks.md unless BENCH_REPORT says otherwise.
#                  A run naming only view:, count: and search: cases makes each size's JSON Lines
#                  and store and nothing else, e.g. BENCH_CASES="view:* count:* search:*".
#                  One count runs only when named here: import:ics@producers-whole-folds, the
#                  producers' file folded only between characters (the same text otherwise).
#
# Two corpora: bench/generate.py's (remconv's own JSON Lines, turned into the other formats by
# remconv) and bench/generate_producers.py's (an .ics as Apple, Nextcloud, tasks.org, Thunderbird
# and Outlook write it: long notes in many scripts and emoji, folds inside multi-byte characters,
# absolute alarm triggers, Windows TZIDs, VTIMEZONEs; its JSON Lines and CSV made by remconv from
# it, and the SQLite floor's rows from that JSON Lines). The second corpus's cases end in
# "@producers": the .ics import (first and again), the .ics conversion to CSV, the JSON Lines
# import, and libical and the SQLite floor on its files, so that the .ics import goal is judged on
# both. It is run at sizes up to 100k.
#
# The views, counts and search of issue 26 (cases view:*, count:lists, search:*) run on each
# size's store beside the sqlite3 shell running the same query (CASE@sqlite3), and beside
# Taskwarrior and todoman at 10k (CASE@taskwarrior, CASE@todoman): run_views_round.
#
# A smoke run is one with BENCH_SIZES set and every size below 100000.
#
# Every measured command runs under /usr/bin/time: wall time, user and system CPU time, and peak
# RSS. The machine may be shared, so user CPU time is reported beside wall time, and the runs are
# interleaved: round 1 runs every case of a size once, then round 2 does, so drift hits all
# cases alike. Raw figures go to bench/out/results.tsv, the machine's load to bench/out/load.tsv.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

default_sizes="1000 10000 100000 1000000"
sizes=${BENCH_SIZES:-$default_sizes}
smoke=1
for size in $sizes; do (( size >= 100000 )) && smoke=0; done
[ -z "${BENCH_SIZES:-}" ] && smoke=0
if (( smoke )); then
  runs=${BENCH_RUNS:-1}
  config=${BENCH_CONFIG:-debug}
  peers=${BENCH_PEERS:-existing}
  report=${BENCH_REPORT:-bench/out/benchmarks.md}
else
  runs=${BENCH_RUNS:-3}
  config=${BENCH_CONFIG:-release}
  peers=${BENCH_PEERS:-venv}
  report=${BENCH_REPORT:-docs/benchmarks.md}
fi
# A filtered run must not replace the full run's report.
read -r -a case_patterns <<<"${BENCH_CASES:-}"
(( ${#case_patterns[@]} )) && report=${BENCH_REPORT:-bench/out/benchmarks.md}
read -r -a profile_patterns <<<"${BENCH_PROFILE:-}"
# profiled CASE: whether BENCH_PROFILE asks for the case's profile.
profiled() {
  local pattern
  for pattern in "${profile_patterns[@]}"; do
    # shellcheck disable=SC2053
    [[ $1 == $pattern ]] && return 0
  done
  return 1
}
# wanted CASE: whether BENCH_CASES selects the case.
wanted() {
  (( ${#case_patterns[@]} )) || return 0
  local pattern
  for pattern in "${case_patterns[@]}"; do
    # shellcheck disable=SC2053
    [[ $1 == $pattern || ${1/#sqlite-c/sqlite-insert} == $pattern || ${1/#sqlite-c/sqlite-read} == $pattern ]] &&
      return 0
  done
  return 1
}
# producers_wanted: whether BENCH_CASES selects a case of the producers' corpus (its files
# take minutes to make).
producers_wanted() {
  (( ${#case_patterns[@]} )) || return 0
  local pattern
  for pattern in "${case_patterns[@]}"; do
    [[ $pattern == *producers* || $pattern == "*" || $pattern == *"@*" ]] && return 0
  done
  return 1
}
# views_only: whether BENCH_CASES selects only views, counts and searches (issue 26), for which a
# size needs its JSON Lines and the store imported from it, not the other formats nor the oldest
# schema's store (at 1M these take longer than the views' rounds).
views_only() {
  (( ${#case_patterns[@]} )) || return 1
  local pattern
  for pattern in "${case_patterns[@]}"; do
    [[ $pattern == view:* || $pattern == count:* || $pattern == search:* ]] || return 1
  done
}
runs_large=${BENCH_RUNS_1M:-1}
timeout_seconds=${BENCH_TIMEOUT:-3600}
out=bench/out
data=$out/data
work=$out/work
mkdir -p "$data" "$work" "$out/bin"
results=$out/results.tsv
load=$out/load.tsv
notes=$out/notes.txt
: >"$notes"
note() { echo "bench: $*" >&2; echo "$*" >>"$notes"; }

for tool in /usr/bin/time cc pkg-config sqlite3 python3; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is needed" >&2; exit 69; }
done
started_at=$(date -u +%Y-%m-%dT%H:%M:%SZ)
started_seconds=$SECONDS
# The commit measured: the sources as the run starts (the build below is of these).
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD -- Sources Package.swift 2>/dev/null || commit="$commit (with uncommitted changes to Sources)"

# --- Build ---------------------------------------------------------------------------------
echo "bench: building remconv ($config)" >&2
swift build -c "$config" --product remconv >&2
remconv="$(swift build -c "$config" --show-bin-path)/remconv"
cc -O2 -o "$out/bin/libical_parse" bench/libical_parse.c $(pkg-config --cflags --libs libical)
cc -O2 -o "$out/bin/sqlite_insert" bench/sqlite_insert.c -lsqlite3
cc -O2 -o "$out/bin/sqlite_store_insert" bench/sqlite_store_insert.c -lsqlite3
has_validate=0
if "$remconv" validate --help >/dev/null 2>&1; then has_validate=1; else
  note "remconv validate is not in this build: the validate figures are skipped"
fi

# --- Peers ---------------------------------------------------------------------------------
venv=bench/.venv
venv_python=""
if [ "$peers" = venv ] && [ ! -x "$venv/bin/python" ]; then
  echo "bench: making $venv (icalendar, vobject, matplotlib from PyPI)" >&2
  if ! { python3 -m venv "$venv" && "$venv/bin/pip" install --quiet --disable-pip-version-check \
      --timeout 20 --retries 1 icalendar vobject matplotlib; } >&2; then
    rm -rf "$venv"
  fi
fi
if [ "$peers" != none ] && [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import icalendar, vobject" 2>/dev/null; then
  venv_python=$venv/bin/python
else
  note "no $venv with icalendar and vobject (BENCH_PEERS=$peers): the PyPI peers are skipped"
fi
debian_icalendar=0
if /usr/bin/python3 -c "import icalendar" 2>/dev/null; then debian_icalendar=1; else
  note "Debian's python3-icalendar is not installed: its figures are skipped"
fi
todoman=$(command -v todoman || true)
[ -n "$todoman" ] || note "todoman is not installed: its figures are skipped"
vdirsyncer=$(command -v vdirsyncer || true)
[ -n "$vdirsyncer" ] || note "vdirsyncer is not installed: its sync figures are skipped"
taskwarrior=$(command -v task || true)
[ -n "$taskwarrior" ] || note "Taskwarrior (task) is not installed: its view figures are skipped"
# taskwarrior_in BASE ARGS...: Taskwarrior on the data made from BASE's store, without questions.
taskwarrior_in() {
  local base=$1
  shift
  TZ=UTC TASKRC="$root/$base.task/taskrc" TASKDATA="$root/$base.task" \
    "$taskwarrior" rc.confirmation=off rc.verbose=nothing rc.gc=off rc.detection=off "$@"
}

# --- Measuring -----------------------------------------------------------------------------
printf 'size\tcase\tround\twall\tuser\tsys\trss_kb\tstatus\n' >"$results"
printf 'when\tload1\tload5\tload15\n' >"$load"
sample_load() { printf '%s\t%s\n' "$(date -u +%H:%M:%S)" "$(cut -d' ' -f1-3 /proc/loadavg | tr ' ' '\t')" >>"$load"; }
# The load average every 15 s while the benchmark runs (and at each round's start and end).
( while sleep 15; do sample_load; done ) &
sampler=$!
trap 'kill "$sampler" 2>/dev/null || true' EXIT

# measure SIZE CASE ROUND COMMAND...: runs the command under /usr/bin/time (output discarded)
# and appends its figures. A failure is recorded (status) and reported; it fails a smoke run at
# its end (a smoke run is there to show that every case still works), not a full one.
failures=0
measure() {
  local size=$1 name=$2 round=$3
  shift 3
  wanted "$name" || return 0
  local timing=$work/timing
  local status=0
  /usr/bin/time -f '%e %U %S %M' -o "$timing" timeout "$timeout_seconds" "$@" >"$work/stdout" 2>"$work/stderr" || status=$?
  local figures
  figures=$(tail -n 1 "$timing")
  if (( status != 0 )); then
    echo "bench: $name at $size failed (status $status): $(tail -n 3 "$work/stderr" | tr '\n' ' ')" >&2
    echo "$name at $size failed with status $status" >>"$notes"
    failures=$((failures + 1))
  fi
  printf '%s\t%s\t%s\t%s\t%s\n' "$size" "$name" "$round" "$(echo "$figures" | tr ' ' '\t')" "$status" >>"$results"
}

# record SIZE CASE ROUND WALL USER RSS: a figure a program measured itself (the SQLite phases).
record() { printf '%s\t%s\t%s\t%s\t%s\t0\t%s\t0\n' "$1" "$2" "$3" "$4" "$5" "$6" >>"$results"; }

# The steps after 0001 as one script for the sqlite3 shell: the floor of a migration. The shell
# has no remconv_name_key() (0005's list-name key; a list per 200 reminders), so lower(trim())
# stands in for it, nor 0008's remconv_due_day() and remconv_search_text(), for which the date
# part of the due and lower() stand in; the history rows and the checks remconv adds are not in it.
{
  echo "PRAGMA foreign_keys = OFF;"
  echo "BEGIN;"
  for migration in Migrations/*.sql; do
    case $migration in */0001_*) continue ;; esac
    sed -e 's/remconv_name_key(name)/lower(trim(name))/g' \
      -e "s/remconv_due_day(due, due_tz)/CAST(julianday(substr(due, 1, 10)) - 2440587.5 AS INTEGER)/g" \
      -e "s/remconv_search_text(title, notes)/lower(title) || char(31) || lower(notes)/g" "$migration"
    echo ";"
  done
  echo "COMMIT;"
} >"$work/migrations.sql"
# The floor of a migration that keeps the full check of its result (issue 26): the same script
# with `PRAGMA integrity_check` before COMMIT, in the 512 MiB page cache remconv's upgrade uses
# (Migrator.pageCacheMebibytes), so that the shell's check reads the upgraded pages from memory
# as remconv's does. -bail does not stop on a failed check: the check's output is compared.
{
  echo "PRAGMA cache_size = -524288;"
  sed -e '$d' "$work/migrations.sql"
  echo "PRAGMA integrity_check;"
  echo "COMMIT;"
} >"$work/migrations-checked.sql"

# The formats every store is exported to, and those imported (issue 11's list).
export_formats=(json jsonl csv csv:todoist ics vdir opml taskwarrior jcal)
import_formats=(ics csv json jsonl opml)

prepare_size() {
  local size=$1 base=$data/c$size
  # Made again when the generator changed since (the files would no longer be its output).
  local current=0
  [ -f "$base.ready" ] && [ ! bench/generate.py -nt "$base.ready" ] && current=1
  if (( ! current )) && views_only; then
    if [ ! -f "$base.store-ready" ] || [ bench/generate.py -nt "$base.store-ready" ]; then
      echo "bench: generating $size items (the store only)" >&2
      python3 bench/generate.py "$size" >"$base.jsonl.tmp" && mv "$base.jsonl.tmp" "$base.jsonl"
      rm -f "$base.sqlite" "$base.sqlite-wal" "$base.sqlite-shm"
      "$remconv" import "$base.jsonl" --store "$base.sqlite" --quiet
      touch "$base.store-ready"
    fi
  elif (( ! current )); then
    echo "bench: generating $size items" >&2
    python3 bench/generate.py "$size" >"$base.jsonl.tmp" && mv "$base.jsonl.tmp" "$base.jsonl"
    python3 bench/generate.py "$size" --tsv >"$base.tsv"
    # The other formats come from remconv itself, so every file holds the same reminders.
    for format in ics csv json opml; do
      "$remconv" convert "$base.jsonl" --to "$format" -o "$base.$format" --force --quiet
    done
    bench/make_old_store.sh "$size" "$base-0001.sqlite"
    # The store every export, validate and vdir is made from.
    rm -f "$base.sqlite" "$base.sqlite-wal" "$base.sqlite-shm"
    "$remconv" import "$base.jsonl" --store "$base.sqlite" --quiet
    touch "$base.ready"
  fi
  # Taskwarrior's own data of the same reminders, for the views (issue 26): made once.
  if [ "$size" = 10000 ] && [ -n "$taskwarrior" ] && [ ! -f "$base.task/ready" ]; then
    rm -rf "$base.task" && mkdir -p "$base.task"
    "$remconv" export --store "$base.sqlite" --format taskwarrior -o "$base.task/export.json" --force --quiet
    : >"$base.task/taskrc"
    taskwarrior_in "$base" rc.hooks=off import "$base.task/export.json" >/dev/null 2>&1
    touch "$base.task/ready"
  fi
  if [ "$size" = 10000 ] && [ -n "$todoman" ] && [ ! -d "$base.vdir" ]; then
    "$remconv" export --store "$base.sqlite" --format vdir -o "$base.vdir" --quiet
    mkdir -p "$work/todoman"
    printf 'path = "%s/*"\ncache_path = "%s"\ndate_format = "%%Y-%%m-%%d"\ntime_format = "%%H:%%M"\n' \
      "$root/$base.vdir" "$root/$work/todoman/cache.sqlite3" >"$work/todoman/config.py"
  fi
}

# sqlite_floor SIZE ROUND ROWS.tsv SUFFIX: the SQLite floor on those rows, recorded as
# sqlite-c, sqlite-insert and sqlite-read (each with the suffix, "@producers" for the second corpus).
sqlite_floor() {
  local size=$1 round=$2 rows=$3 suffix=$4
  wanted "sqlite-c$suffix" || return 0
  : >"$work/stdout"
  measure "$size" "sqlite-c$suffix" "$round" "$out/bin/sqlite_insert" "$rows" "$work/floor.sqlite"
  # rows N insert W s user U s read W s user U s (B bytes)
  local insert_wall insert_user read_wall read_user rss
  read -r _ _ _ insert_wall _ _ insert_user _ _ read_wall _ _ read_user _ <"$work/stdout" || true
  rss=$(awk -F'\t' -v s="$size" -v r="$round" -v c="sqlite-c$suffix" '$1 == s && $2 == c && $3 == r { print $7 }' "$results")
  record "$size" "sqlite-insert$suffix" "$round" "${insert_wall:-0}" "${insert_user:-0}" "${rss:-0}"
  record "$size" "sqlite-read$suffix" "$round" "${read_wall:-0}" "${read_user:-0}" "${rss:-0}"
  rm -f "$work/floor.sqlite"*
}

# csv_import_floors SIZE ROUND FILE.csv STORE: issue 26's CSV import goal beside import:csv. The
# sqlite3 shell's own `.import --csv` of the file into a new file (sqlite3-import:csv), and the
# SQLite part of the import alone: the rows the import wrote (STORE) inserted into a new, empty
# store of the same schema with prepared statements (sqlite-store:csv, bench/sqlite_store_insert.c,
# its insert phase as it measures it).
csv_import_floors() {
  local size=$1 round=$2 file=$3 store=$4
  rm -f "$work/shell.sqlite"*
  measure "$size" "sqlite3-import:csv" "$round" sqlite3 "$work/shell.sqlite" ".import --csv $file t"
  rm -f "$work/shell.sqlite"*
  wanted "sqlite-store:csv" && [ -f "$store" ] || return 0
  head -n 1 "$file" >"$work/header.csv"
  rm -f "$work/empty.sqlite"*
  "$remconv" import "$work/header.csv" --store "$work/empty.sqlite" --quiet
  # rows N insert W s user U s
  local wall user
  read -r _ _ _ wall _ _ user _ < <("$out/bin/sqlite_store_insert" "$store" "$work/empty.sqlite") || true
  record "$size" "sqlite-store:csv" "$round" "${wall:-0}" "${user:-0}" 0
  rm -f "$work/empty.sqlite"*
}

# The second corpus (bench/generate_producers.py): the .ics as its producers write it; the
# JSON Lines and CSV are remconv's reading of it, the floor's rows that JSON Lines as stored.
prepare_producers() {
  local size=$1 base=$data/p$size
  if [ ! -f "$base.ready" ] || [ bench/generate_producers.py -nt "$base.ready" ] || [ bench/generate.py -nt "$base.ready" ]; then
    echo "bench: generating $size items as their producers write them" >&2
    python3 bench/generate_producers.py "$size" >"$base.ics.tmp" && mv "$base.ics.tmp" "$base.ics"
    "$remconv" convert "$base.ics" --to jsonl -o "$base.jsonl" --force --quiet
    "$remconv" convert "$base.ics" --to csv -o "$base.csv" --force --quiet
    python3 bench/generate_producers.py --tsv-from "$base.jsonl" >"$base.tsv"
    touch "$base.ready"
  fi
}

run_producers_round() {
  local size=$1 round=$2 base=$data/p$size
  local store=$work/store.sqlite
  measure "$size" libical-lines@producers "$round" "$out/bin/libical_parse" "$base.ics" lines
  sqlite_floor "$size" "$round" "$base.tsv" @producers
  rm -f "$store" "$store-wal" "$store-shm"
  measure "$size" "import:ics@producers" "$round" "$remconv" import "$base.ics" --store "$store" --quiet
  measure "$size" "reimport:ics@producers" "$round" "$remconv" import "$base.ics" --store "$store" --quiet
  rm -f "$store" "$store-wal" "$store-shm"
  measure "$size" "import:jsonl@producers" "$round" "$remconv" import "$base.jsonl" --store "$store" --quiet
  rm -f "$store" "$store-wal" "$store-shm"
  measure "$size" "convert:ics>csv@producers" "$round" "$remconv" convert "$base.ics" --to csv -o "$work/convert.csv" --force
  rm -f "$work"/convert.*
}

# The views, counts and search of issue 26 on the store of BASE: remconv beside the sqlite3
# shell running the query remconv runs for it on the same file (the candidates of the view, with
# the columns a view shows, in its order), and beside Taskwarrior and todoman at 10k. The day
# is the machine's (TZ=UTC): the corpus has dues on every day of the year's first 28 days of
# each month. The searched word is one of the corpus's (bench/generate.py's WORDS).
run_views_round() {
  local size=$1 round=$2 base=$data/c$size
  local store=$base.sqlite
  local day
  day=$(TZ=UTC date +%s)
  day=$((day / 86400))
  local columns="r.uid, r.title, r.notes, r.due, r.due_tz, r.priority, r.flagged, r.is_done, r.parent_id, l.name"
  local from="FROM reminders r JOIN lists l ON l.id = r.list_id"
  local scope where
  for scope in today scheduled flagged all completed; do
    case $scope in
      today) where="r.due_day BETWEEN $((day - 2)) AND $((day + 2))" ;;
      scheduled) where="r.due_day IS NOT NULL" ;;
      flagged) where="r.flagged IS NOT 0" ;;
      all) where="1" ;;
      completed) where="r.is_done IS NOT 0" ;;
    esac
    measure "$size" "view:$scope" "$round" env TZ=UTC "$remconv" show --scope "$scope" --store "$store"
    measure "$size" "view:$scope@sqlite3" "$round" sqlite3 -readonly "$store" \
      "SELECT $columns $from WHERE $where ORDER BY r.list_id, r.id"
  done
  measure "$size" "view:list" "$round" env TZ=UTC "$remconv" show "List 000" --store "$store"
  measure "$size" "view:list@sqlite3" "$round" sqlite3 -readonly "$store" \
    "SELECT $columns $from WHERE r.list_id = (SELECT id FROM lists WHERE name_key = 'list 000') ORDER BY r.id"
  measure "$size" "view:today-json" "$round" env TZ=UTC "$remconv" show --scope today --json --store "$store"
  measure "$size" "count:lists" "$round" env TZ=UTC "$remconv" lists --store "$store"
  measure "$size" "count:lists@sqlite3" "$round" sqlite3 -readonly "$store" \
    "SELECT * FROM lists ORDER BY id;
     SELECT list_id, CAST(is_done AS INTEGER) <> 0, CAST(flagged AS INTEGER) <> 0, due_day IS NOT NULL, count(*)
       FROM reminders GROUP BY 1, 2, 3, 4;
     SELECT list_id, is_done, flagged, due, due_tz FROM reminders WHERE due_day BETWEEN $((day - 2)) AND $((day + 2))"
  measure "$size" "search:forecast" "$round" env TZ=UTC "$remconv" search forecast --store "$store"
  measure "$size" "search:forecast@sqlite3" "$round" sqlite3 -readonly "$store" \
    "SELECT $columns $from WHERE instr(r.search_text, 'forecast') > 0 ORDER BY r.list_id, r.id"
  [ "$size" = 10000 ] || return 0
  if [ -n "$taskwarrior" ] && [ -f "$base.task/ready" ]; then
    local task=(bench/peers/task_report.sh env TZ=UTC TASKRC="$root/$base.task/taskrc" TASKDATA="$root/$base.task"
      "$taskwarrior" rc.confirmation=off rc.verbose=nothing rc.gc=off rc.detection=off)
    measure "$size" "view:today@taskwarrior" "$round" "${task[@]}" due:today list
    measure "$size" "view:all@taskwarrior" "$round" "${task[@]}" list
    measure "$size" "count:lists@taskwarrior" "$round" "${task[@]}" projects
    measure "$size" "search:forecast@taskwarrior" "$round" "${task[@]}" /forecast/ list
  fi
  if [ -n "$todoman" ] && [ -d "$base.vdir" ]; then
    # Warm: its cache is made before the first measurement.
    local todo=(env HOME="$root/$work/todoman" TZ=UTC LANG=C.UTF-8 "$todoman" --config "$work/todoman/config.py")
    (( round == 1 )) && "${todo[@]}" list >/dev/null 2>&1
    measure "$size" "view:today@todoman" "$round" "${todo[@]}" list --due 24
    measure "$size" "view:all@todoman" "$round" "${todo[@]}" list
    measure "$size" "search:forecast@todoman" "$round" "${todo[@]}" list --grep forecast
  fi
}

# run_sync_round SIZE ROUND: two-way sync without a server (issue 23), up to 100k. The store of
# the size into an empty vdir (a first sync: every item written and synced to disk, then
# recorded), the same again (nothing changed: one listing, no item read or written), an empty
# store from that vdir, and remconv as a bridge from that vdir to another empty one (two syncs,
# one command) beside vdirsyncer syncing the same two kinds of folders.
run_sync_round() {
  local size=$1 round=$2 base=$data/c$size sync=$work/sync
  wanted "sync:*" || return 0
  rm -rf "$sync" && mkdir -p "$sync"
  cp "$base.sqlite" "$sync/store.sqlite"
  "$remconv" remote add bench "$sync/a" --store "$sync/store.sqlite" --quiet
  measure "$size" "sync:store>vdir" "$round" "$remconv" sync bench --store "$sync/store.sqlite" --quiet
  measure "$size" "sync:noop" "$round" "$remconv" sync bench --store "$sync/store.sqlite" --quiet
  "$remconv" remote add bench "$sync/a" --store "$sync/empty.sqlite" --quiet
  measure "$size" "sync:vdir>store" "$round" "$remconv" sync bench --store "$sync/empty.sqlite" --quiet
  "$remconv" remote add a "$sync/a" --store "$sync/bridge.sqlite" --quiet
  "$remconv" remote add b "$sync/b" --store "$sync/bridge.sqlite" --quiet
  measure "$size" "sync:vdir>vdir" "$round" sh -c '"$1" sync a --store "$2" --quiet && "$1" sync b --store "$2" --quiet' \
    sh "$remconv" "$sync/bridge.sqlite"
  if [ -n "$vdirsyncer" ]; then
    mkdir -p "$sync/peer-b"
    printf '[general]\nstatus_path = "%s/status"\n[pair p]\na = "a"\nb = "b"\ncollections = ["from a"]\n[storage a]\ntype = "filesystem"\npath = "%s/a"\nfileext = ".ics"\n[storage b]\ntype = "filesystem"\npath = "%s/peer-b"\nfileext = ".ics"\n' \
      "$root/$sync" "$root/$sync" "$root/$sync" >"$sync/vdirsyncer.conf"
    yes | "$vdirsyncer" -c "$sync/vdirsyncer.conf" discover >/dev/null 2>&1 || true
    measure "$size" "sync:vdir>vdir@vdirsyncer" "$round" "$vdirsyncer" -c "$sync/vdirsyncer.conf" sync
    measure "$size" "sync:noop@vdirsyncer" "$round" "$vdirsyncer" -c "$sync/vdirsyncer.conf" sync
  fi
  rm -rf "$sync"
}

run_round() {
  local size=$1 round=$2 base=$data/c$size
  run_views_round "$size" "$round"
  (( size <= 100000 )) && run_sync_round "$size" "$round"
  local store=$work/store.sqlite
  sample_load
  # The limits.
  measure "$size" cat "$round" cat "$base.ics"
  measure "$size" libical-lines "$round" "$out/bin/libical_parse" "$base.ics" lines
  # The whole-file route holds the whole tree: about 5 GB at 1M, so it is measured up to 100k.
  (( size <= 100000 )) && measure "$size" libical-whole "$round" "$out/bin/libical_parse" "$base.ics" whole
  sqlite_floor "$size" "$round" "$base.tsv" ""
  # Imports into a new store, then the same file again (nothing changes).
  for format in "${import_formats[@]}"; do
    rm -f "$store" "$store-wal" "$store-shm"
    measure "$size" "import:$format" "$round" "$remconv" import "$base.$format" --store "$store" --quiet
    [ "$format" = csv ] && csv_import_floors "$size" "$round" "$base.csv" "$store"
    measure "$size" "reimport:$format" "$round" "$remconv" import "$base.$format" --store "$store" --quiet
  done
  rm -f "$store" "$store-wal" "$store-shm"
  # Conversions without a store.
  measure "$size" "convert:ics>csv" "$round" "$remconv" convert "$base.ics" --to csv -o "$work/convert.csv" --force
  measure "$size" "convert:ics>json" "$round" "$remconv" convert "$base.ics" --to json -o "$work/convert.json" --force
  measure "$size" "convert:csv>csv" "$round" "$remconv" convert "$base.csv" --to csv -o "$work/convert.csv" --force
  measure "$size" "convert:jsonl>jsonl" "$round" "$remconv" convert "$base.jsonl" --to jsonl -o "$work/convert.jsonl" --force
  measure "$size" "convert:json>json" "$round" "$remconv" convert "$base.json" --to json -o "$work/convert.json" --force
  rm -f "$work"/convert.*
  # Exports of the store, in every format.
  for format in "${export_formats[@]}"; do
    # A vdir is one file per reminder, each written beside its target, synced and renamed:
    # about 5 ms a file on this disk, so it is measured up to 10k only.
    [ "$format" = vdir ] && (( size > 10000 )) && continue
    rm -rf "$work/export"
    measure "$size" "export:$format" "$round" "$remconv" export --store "$base.sqlite" --format "$format" -o "$work/export" --force --quiet
  done
  rm -rf "$work/export"
  if (( has_validate )); then
    measure "$size" validate "$round" "$remconv" validate --store "$base.sqlite" --quiet
  fi
  # The oldest schema to the head, against a plain copy of the same store.
  if wanted migrate:0001 || wanted vacuum-into || wanted migrate-sql || wanted migrate-sql-checked; then
  rm -f "$work"/old*
  cp "$base-0001.sqlite" "$work/old.sqlite"
  measure "$size" "migrate:0001" "$round" "$remconv" migrate up --store "$work/old.sqlite" --quiet
  rm -f "$work"/old*
  cp "$base-0001.sqlite" "$work/old.sqlite"
  measure "$size" vacuum-into "$round" sqlite3 "$work/old.sqlite" "VACUUM INTO '$work/old-copy.sqlite'"
  rm -f "$work"/old*
  # What any migrator must at least pay: the released steps' SQL alone, in one transaction.
  cp "$base-0001.sqlite" "$work/old.sqlite"
  measure "$size" migrate-sql "$round" sqlite3 -bail "$work/old.sqlite" ".read $work/migrations.sql"
  rm -f "$work"/old*
  # What a migrator that keeps the full check of its result must at least pay.
  cp "$base-0001.sqlite" "$work/old.sqlite"
  measure "$size" migrate-sql-checked "$round" sqlite3 -bail "$work/old.sqlite" ".read $work/migrations-checked.sql"
  if wanted migrate-sql-checked && [ "$(cat "$work/stdout")" != ok ]; then
    echo "bench: the shell's integrity_check of the migrated $size store did not say ok" >&2
    echo "migrate-sql-checked at $size: the integrity_check did not say ok" >>"$notes"
    failures=$((failures + 1))
  fi
  rm -f "$work"/old*
  fi
  # The peers. python-icalendar needs about 9 kB per item, so it is not run at 1M (9 GB); it,
  # vobject and todoman take 10 to 100 times remconv's time and run in the first round only.
  measure "$size" python-csv "$round" python3 bench/python_csv.py "$base.csv" "$work/peer.out"
  measure "$size" python-json "$round" python3 bench/peers/json_roundtrip.py json "$base.json" "$work/peer.out"
  measure "$size" python-jsonl "$round" python3 bench/peers/json_roundtrip.py jsonl "$base.jsonl" "$work/peer.out"
  rm -f "$work/peer.out"
  (( round == 1 )) || { sample_load; return; }
  if (( size <= 100000 )); then
    if [ -n "$venv_python" ]; then
      measure "$size" python-icalendar "$round" "$venv_python" bench/peers/ics_icalendar.py "$base.ics"
      measure "$size" vobject "$round" "$venv_python" bench/peers/ics_vobject.py "$base.ics"
    fi
    if (( debian_icalendar )); then
      measure "$size" python-icalendar-debian "$round" /usr/bin/python3 bench/peers/ics_icalendar.py "$base.ics"
    fi
  fi
  if [ "$size" = 10000 ] && [ -n "$todoman" ]; then
    # Cold: todoman's cache is removed first, as on a first run.
    rm -f "$work/todoman/cache.sqlite3"
    measure "$size" todoman "$round" env HOME="$root/$work/todoman" TZ=UTC LANG=C.UTF-8 \
      "$todoman" --config "$work/todoman/config.py" --porcelain list --status ANY
  fi
  sample_load
}

for size in $sizes; do
  prepare_size "$size"
  # The producers' corpus up to 100k: its 1M file would be 2.1 GB (and its JSON Lines, CSV and
  # rows as much again), and the goal it is there for is judged at 100k.
  (( size <= 100000 )) && producers_wanted && prepare_producers "$size"
  rounds=$runs
  (( size >= 1000000 )) && rounds=$runs_large
  for round in $(seq 1 "$rounds"); do
    echo "bench: $size items, round $round of $rounds" >&2
    run_round "$size" "$round"
    (( size > 100000 )) || ! producers_wanted || run_producers_round "$size" "$round"
  done
done
# --- Instructions --------------------------------------------------------------------------
# The goals that compare remconv with a limit or a peer, counted in instructions by callgrind
# on the 10k files (the smallest size in a smoke run): unlike times, the counts do not move with
# the machine's load, so they show what a change did between two runs.
instructions=$out/instructions.tsv
printf 'size\tcase\tinstructions\tstatus\n' >"$instructions"
count_size=10000
[[ " $sizes " == *" 10000 "* ]] || count_size=$(echo "$sizes" | tr ' ' '\n' | sort -n | head -n 1)
# count CASE COMMAND...: the instructions the command executes, children included.
count() {
  local name=$1
  shift
  wanted "$name" || return 0
  local status=0 collected
  valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$work/callgrind.%p" "$@" \
    >"$work/stdout" 2>"$work/callgrind.err" || status=$?
  collected=$(sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' "$work/callgrind.err" | awk '{ total += $1 } END { printf "%.0f\n", total }')
  if profiled "$name"; then
    mkdir -p "$out/profile"
    local kept=$out/profile/${name//[^A-Za-z0-9@._-]/_}
    # The largest of the processes' profiles (the measured program's, not a shell's).
    mv "$(ls -S "$work"/callgrind.[0-9]* | head -n 1)" "$kept.callgrind"
    callgrind_annotate --inclusive=yes "$kept.callgrind" 2>/dev/null | head -n 120 >"$kept.txt" || true
  fi
  rm -f "$work"/callgrind.[0-9]*
  if (( status != 0 )); then
    echo "bench: counting $name failed (status $status)" >&2
    failures=$((failures + 1))
  fi
  printf '%s\t%s\t%s\t%s\n' "$count_size" "$name" "$collected" "$status" >>"$instructions"
}
if command -v valgrind >/dev/null; then
  echo "bench: counting instructions at $count_size items (callgrind)" >&2
  base=$data/c$count_size
  store=$work/store.sqlite
  count libical-lines "$out/bin/libical_parse" "$base.ics" lines
  rm -f "$work/floor.sqlite"*
  count sqlite-insert "$out/bin/sqlite_insert" "$base.tsv" "$work/floor.sqlite" insert-only
  rm -f "$work/floor.sqlite"*
  count python-csv python3 bench/python_csv.py "$base.csv" "$work/peer.out"
  count python-jsonl python3 bench/peers/json_roundtrip.py jsonl "$base.jsonl" "$work/peer.out"
  rm -f "$work/peer.out"
  for format in ics csv jsonl; do
    rm -f "$store" "$store-wal" "$store-shm"
    count "import:$format" "$remconv" import "$base.$format" --store "$store" --quiet
    count "reimport:$format" "$remconv" import "$base.$format" --store "$store" --quiet
  done
  rm -f "$store" "$store-wal" "$store-shm"
  count "convert:ics>csv" "$remconv" convert "$base.ics" --to csv -o "$work/convert.csv" --force
  count "convert:csv>csv" "$remconv" convert "$base.csv" --to csv -o "$work/convert.csv" --force
  count "convert:jsonl>jsonl" "$remconv" convert "$base.jsonl" --to jsonl -o "$work/convert.jsonl" --force
  rm -f "$work"/convert.*
  # The second corpus: the .ics import goal's three terms, and the same conversion.
  base=$data/p$count_size
  if [ -f "$base.ready" ]; then
    count libical-lines@producers "$out/bin/libical_parse" "$base.ics" lines
    rm -f "$work/floor.sqlite"*
    count sqlite-insert@producers "$out/bin/sqlite_insert" "$base.tsv" "$work/floor.sqlite" insert-only
    rm -f "$work/floor.sqlite"* "$store" "$store-wal" "$store-shm"
    # Its files are six times the first corpus's, and a debug build's count of them takes longer
    # than the rest of a smoke run's counts: a smoke run, whose timed round has already run these
    # cases, counts only the limits on this corpus, to stay fast.
    if (( ! smoke )) || (( ${#case_patterns[@]} )); then
      count "import:ics@producers" "$remconv" import "$base.ics" --store "$store" --quiet
      count "reimport:ics@producers" "$remconv" import "$base.ics" --store "$store" --quiet
      count "convert:ics>csv@producers" "$remconv" convert "$base.ics" --to csv -o "$work/convert.csv" --force
    fi
    rm -f "$store" "$store-wal" "$store-shm" "$work"/convert.*
    # Counted only when BENCH_CASES names it: the same file folded only between characters, to
    # tell what folds inside UTF-8 sequences cost.
    if [[ " ${BENCH_CASES:-} " == *" import:ics@producers-whole-folds "* ]]; then
      if [ ! -f "$base-whole-folds.ics" ] || [ bench/generate_producers.py -nt "$base-whole-folds.ics" ]; then
        python3 bench/generate_producers.py "$count_size" --whole-character-folds >"$base-whole-folds.ics"
      fi
      count "import:ics@producers-whole-folds" "$remconv" import "$base-whole-folds.ics" --store "$store" --quiet
      rm -f "$store" "$store-wal" "$store-shm"
    fi
  fi
else
  note "valgrind is not installed: the instruction counts are skipped"
fi

if (( smoke )) && (( ! ${#case_patterns[@]} )); then
  note "smoke run: remconv's instructions on the producers' corpus are not counted (its timed round ran every case)"
fi
if (( ! smoke )); then
  note "vdir export (one synced file per reminder) is measured up to 10k only, libical's whole-file parse (5 GB at 1M) and the producers' corpus (2.1 GB at 1M) up to 100k"
  note "python-icalendar, vobject and todoman run once per size (their times are 10 to 100 times remconv's)"
fi
if (( ! smoke )) && [[ " $sizes " != *" 1000000 "* ]]; then
  note "the 1M size was not run: the goals measured at 1M are not judged"
fi

# --- Report --------------------------------------------------------------------------------
report_python=python3
[ -n "$venv_python" ] && "$venv_python" -c "import matplotlib" 2>/dev/null && report_python=$venv_python
"$report_python" bench/report.py --results "$results" --load "$load" --notes "$notes" --report "$report" \
  --instructions "$instructions" \
  --date "$started_at" --commit "$commit" --config "$config" --runs "$runs" \
  --seconds $((SECONDS - started_seconds)) --sizes "$sizes" \
  --icalendar-version "$([ -n "$venv_python" ] && "$venv_python" -c 'import icalendar; print(icalendar.__version__)' || echo none)" \
  --debian-icalendar-version "$( (( debian_icalendar )) && /usr/bin/python3 -c 'import icalendar; print(icalendar.__version__)' || echo none)" \
  --vobject-version "$([ -n "$venv_python" ] && "$venv_python" -c 'from importlib.metadata import version; print(version("vobject"))' || echo none)"
echo "bench: report in $report ($((SECONDS - started_seconds)) s)" >&2
if (( smoke && failures > 0 )); then
  echo "bench: $failures measured command(s) failed: see above" >&2
  exit 1
fi
