#!/usr/bin/env bash
# Sync with a CalDAV server (issue 23): remconv beside vdirsyncer (Debian's) and the floor, a bare
# client loop doing nothing but the same PUTs, each against a fresh Radicale (Debian's, with
# htpasswd authentication) on 127.0.0.1, with the same N reminders.
#
# Measured for each client: the first sync (every item uploaded), a sync with nothing to do,
# and a sync after 10 edits; the wall time of each, the HTTP requests Radicale logged for it and
# the load average when it began. The floor's steps are the same N creates, then the same 10
# updates (`If-Match`). Then the two clients' syncs with nothing to do, alternated for a few
# rounds (each against its own server, which holds the same N items), and their medians.
# Prints Markdown tables (docs/benchmarks.md, "Sync with a CalDAV server").
#
# Usage: bench/sync-caldav.sh [N]
#   N               reminders (or BENCH_SYNC_N); 2,000 in a full run (Radicale 3.1.8 takes some
#                   200 s for 2,000 creates whoever sends them), a tenth of the smallest size in
#                   a smoke run (BENCH_SIZES set, every size below 100000, as bench/run.sh
#                   decides), 100 for the CI's BENCH_SIZES=1000
#   BENCH_CONFIG    the remconv build measured, release or debug (as bench/run.sh: release,
#                   debug in a smoke run); REMCONV_BINARY names another binary
#   BENCH_SYNC_ROUNDS  rounds of the alternated syncs with nothing to do (5; 1 in a smoke run)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
smoke=0
if [ -n "${BENCH_SIZES:-}" ]; then
  smoke=1
  smallest=
  for size in $BENCH_SIZES; do
    (( size >= 100000 )) && smoke=0
    if [ -z "$smallest" ] || (( size < smallest )); then smallest=$size; fi
  done
fi
if (( smoke )); then
  config=${BENCH_CONFIG:-debug}
  count=${1:-${BENCH_SYNC_N:-$(( smallest / 10 > 10 ? smallest / 10 : 10 ))}}
  rounds=${BENCH_SYNC_ROUNDS:-1}
else
  config=${BENCH_CONFIG:-release}
  count=${1:-${BENCH_SYNC_N:-2000}}
  rounds=${BENCH_SYNC_ROUNDS:-5}
fi
if [ -z "${REMCONV_BINARY:-}" ]; then
  (cd "$root" && swift build -c "$config" --product remconv >&2)
  remconv="$(cd "$root" && swift build -c "$config" --show-bin-path)/remconv"
else
  remconv=$REMCONV_BINARY
fi
python=/usr/bin/python3
vdirsyncer=$(command -v vdirsyncer || true)
[ -x "$remconv" ] || { echo "no remconv binary at $remconv" >&2; exit 1; }
[ -n "$vdirsyncer" ] || { echo "vdirsyncer is not installed (Scripts/bootstrap.sh --bench)" >&2; exit 1; }
work=$(mktemp -d)
user=bench
password=bench-password
export DAV_PW=$password
servers=()
trap 'for fd in "${servers[@]}"; do eval "exec $fd>&-"; done; wait; rm -rf "$work"' EXIT

# start_radicale NAME: a fresh Radicale logging every request to $work/NAME.log; sets $url.
start_radicale() {
  local name=$1 folder=$work/$1
  mkdir -p "$folder"
  mkfifo "$folder/stdin"
  "$python" "$root/Tests/Servers/davserver.py" radicale "$folder" "$user" "$password" "$work/$name.log" \
    <"$folder/stdin" >"$folder/ready" &
  local fd
  exec {fd}>"$folder/stdin"
  servers+=("$fd")
  until grep -q READY "$folder/ready" 2>/dev/null; do sleep 0.1; done
  url=$(awk '/READY/ {print $2}' "$folder/ready")
}

requests() { grep -c "request for" "$work/$1.log" || true; }

# timed NAME LABEL COMMAND...: runs COMMAND, records its wall time and the requests it made
# in the table (and, as NAME LABEL SECONDS LOAD, in $work/times).
timed() {
  local name=$1 label=$2
  shift 2
  local before start end load seconds
  before=$(requests "$name")
  load=$(cut -d' ' -f1 /proc/loadavg)
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  end=$(date +%s.%N)
  seconds=$(printf '%.2f' "$(echo "$end - $start" | bc)")
  printf '| %s | %s | %s s | %d | %s |\n' "$name" "$label" "$seconds" \
    $(($(requests "$name") - before)) "$load" >>"$work/table"
  echo "$name|$label|$seconds|$load" >>"$work/times"
}

# median NAME LABEL FIELD: the median of a field (3 seconds, 4 load) of NAME's rows whose label
# starts with LABEL.
median() {
  awk -F'|' -v name="$1" -v label="$2" -v field="$3" '$1 == name && index($2, label) == 1 {print $field}' "$work/times" |
    sort -n | awk '{value[NR] = $1} END {print NR % 2 ? value[(NR + 1) / 2] : (value[NR / 2] + value[NR / 2 + 1]) / 2}'
}

# The reminders: one VTODO per file, as a vdir collection `bench`.
mkdir -p "$work/data/bench"
echo bench >"$work/data/bench/displayname"
"$python" - "$work/data/bench" "$count" <<'PY'
import sys
folder, count = sys.argv[1], int(sys.argv[2])
for index in range(1, count + 1):
    with open("%s/bench-%05d.ics" % (folder, index), "w", newline="") as handle:
        handle.write("\r\n".join([
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//remconv bench//EN", "BEGIN:VTODO",
            "UID:bench-%05d" % index, "DTSTAMP:20260101T000000Z", "SUMMARY:Reminder %d" % index,
            "DUE;VALUE=DATE:2026%02d%02d" % (1 + index % 12, 1 + index % 28), "END:VTODO", "END:VCALENDAR", ""]))
PY

# The floor: the same PUTs, one after the other, from a bare loop: the N creates
# (`If-None-Match: *`), then the 10 updates the clients sync (`If-Match`, the ETag each create's
# answer gave).
start_radicale floor
curl -s -o /dev/null -u "$user:$password" -X MKCALENDAR "${url}$user/bench/"
floor() {
  "$python" - "$1" "$url$user/bench/" "$work/data/bench" "$user" "$password" "$work/floor-etags" <<'PY'
import base64, http.client, os, sys, urllib.parse
step, target, folder, user, password, etags_path = sys.argv[1:]
parts = urllib.parse.urlsplit(target)
auth = "Basic " + base64.b64encode(("%s:%s" % (user, password)).encode()).decode()
names = sorted(name for name in os.listdir(folder) if name.endswith(".ics"))
etags = {}
if step == "edits":
    with open(etags_path) as handle:
        etags = dict(line.split(" ", 1) for line in handle.read().splitlines())
    names = names[:10]
for index, name in enumerate(names, 1):
    with open(os.path.join(folder, name), "rb") as handle:
        body = handle.read()
    headers = {"Authorization": auth, "Content-Type": "text/calendar; charset=utf-8"}
    if step == "edits":
        lines = [b"SUMMARY:Edited %d" % index if line.startswith(b"SUMMARY:") else line for line in body.split(b"\r\n")]
        body = b"\r\n".join(lines)
        headers["If-Match"] = etags[name]
    else:
        headers["If-None-Match"] = "*"
    connection = http.client.HTTPConnection(parts.hostname, parts.port)
    connection.request("PUT", parts.path + name, body=body, headers=headers)
    response = connection.getresponse()
    response.read()
    assert response.status in (201, 204), (name, response.status)
    etags[name] = response.getheader("ETag")
    connection.close()
if step == "creates":
    with open(etags_path, "w") as handle:
        handle.write("".join("%s %s\n" % item for item in etags.items()))
PY
}
timed floor "first sync (PUTs only)" floor creates
timed floor "10 edits (PUTs only)" floor edits

# remconv.
start_radicale remconv
store=$work/remconv.sqlite
"$remconv" import "$work/data" --format vdir --store "$store" --quiet
"$remconv" remote add dav "$url" --user "$user" --password-env DAV_PW --store "$store" --quiet
timed remconv "first sync" "$remconv" sync dav --store "$store" --quiet
timed remconv "no-op sync" "$remconv" sync dav --store "$store" --quiet
for index in $(seq 1 10); do
  "$remconv" edit "$(printf 'bench-%05d' "$index")" --title "Edited $index" --store "$store" --quiet >/dev/null
done
timed remconv "sync after 10 edits" "$remconv" sync dav --store "$store" --quiet

# vdirsyncer: the same folder against its own Radicale.
start_radicale vdirsyncer
mkdir -p "$work/vs/local" "$work/vs/status"
cp -r "$work/data/bench" "$work/vs/local/"
cat >"$work/vs/config" <<EOF
[general]
status_path = "$work/vs/status/"

[pair bench]
a = "local"
b = "radicale"
collections = ["from a"]

[storage local]
type = "filesystem"
path = "$work/vs/local/"
fileext = ".ics"

[storage radicale]
type = "caldav"
url = "$url"
username = "$user"
password = "$password"
EOF
{ yes || true; } | "$vdirsyncer" -c "$work/vs/config" discover >"$work/vs/discover.log" 2>&1 || { cat "$work/vs/discover.log" >&2; exit 1; }
timed vdirsyncer "first sync" "$vdirsyncer" -c "$work/vs/config" sync
timed vdirsyncer "no-op sync" "$vdirsyncer" -c "$work/vs/config" sync
for index in $(seq 1 10); do
  file=$(printf '%s/vs/local/bench/bench-%05d.ics' "$work" "$index")
  sed -i "s/^SUMMARY:.*/SUMMARY:Edited $index\r/" "$file"
done
timed vdirsyncer "sync after 10 edits" "$vdirsyncer" -c "$work/vs/config" sync

# The syncs with nothing to do again, the two clients alternated, each against its own server.
for round in $(seq 1 "$rounds"); do
  timed remconv "no-op sync, round $round" "$remconv" sync dav --store "$store" --quiet
  timed vdirsyncer "no-op sync, round $round" "$vdirsyncer" -c "$work/vs/config" sync
done

commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
echo "Sync with Radicale 3.1.8, $count reminders, remconv $config build of $commit, $(nproc) cores"
echo
echo "| client | step | time | requests | load |"
echo "| --- | --- | --- | --- | --- |"
cat "$work/table"
echo
remconv_median=$(median remconv "no-op sync, round" 3)
vdirsyncer_median=$(median vdirsyncer "no-op sync, round" 3)
echo "No-op syncs alternated, $rounds rounds: remconv median ${remconv_median} s (load median" \
  "$(median remconv "no-op sync, round" 4)), vdirsyncer median ${vdirsyncer_median} s (load median" \
  "$(median vdirsyncer "no-op sync, round" 4)), ratio $(echo "scale=3; $remconv_median / $vdirsyncer_median" | bc)"
