#!/usr/bin/env bash
# Sync with a CalDAV server (issue 23): remconv beside vdirsyncer (Debian's) and the floor, a bare
# client loop doing nothing but the same PUTs, each against a fresh Radicale (Debian's, with
# htpasswd authentication) on 127.0.0.1, with the same N reminders (BENCH_SYNC_N, 2,000 by
# default: Radicale 3.1.8 takes some 200 s for 2,000 creates whoever sends them).
#
# Measured for each client: the first sync (every item uploaded), a sync with nothing to do,
# and a sync after 10 edits; the wall time of each and the HTTP requests Radicale logged for it.
# Prints a Markdown table (docs/benchmarks.md, "Sync with a CalDAV server").
#
# Usage: bench/sync-caldav.sh [N]   (REMCONV_BINARY to use another build than .build/release)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
count=${1:-${BENCH_SYNC_N:-2000}}
remconv=${REMCONV_BINARY:-$root/.build/release/remconv}
python=/usr/bin/python3
vdirsyncer=$(command -v vdirsyncer || true)
[ -x "$remconv" ] || { echo "build remconv first: swift build -c release" >&2; exit 1; }
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

# timed NAME LABEL COMMAND...: runs COMMAND, records its wall time and the requests it made.
timed() {
  local name=$1 label=$2
  shift 2
  local before start end
  before=$(requests "$name")
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  end=$(date +%s.%N)
  printf '| %s | %s | %.2f s | %d |\n' "$name" "$label" "$(echo "$end - $start" | bc)" \
    $(($(requests "$name") - before)) >>"$work/table"
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

# The floor: the same PUTs, one after the other, from a bare loop.
start_radicale floor
curl -s -o /dev/null -u "$user:$password" -X MKCALENDAR "${url}$user/bench/"
floor() {
  "$python" - "$url$user/bench/" "$work/data/bench" "$user" "$password" <<'PY'
import base64, http.client, os, sys, urllib.parse
target, folder, user, password = sys.argv[1:]
parts = urllib.parse.urlsplit(target)
auth = "Basic " + base64.b64encode(("%s:%s" % (user, password)).encode()).decode()
for name in sorted(os.listdir(folder)):
    if not name.endswith(".ics"):
        continue
    with open(os.path.join(folder, name), "rb") as handle:
        body = handle.read()
    connection = http.client.HTTPConnection(parts.hostname, parts.port)
    connection.request("PUT", parts.path + name, body=body, headers={
        "Authorization": auth, "If-None-Match": "*", "Content-Type": "text/calendar; charset=utf-8"})
    response = connection.getresponse()
    response.read()
    assert response.status in (201, 204), (name, response.status)
    connection.close()
PY
}
timed floor "first sync (PUTs only)" floor

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

echo "Sync with Radicale 3.1.8, $count reminders, $(nproc) cores (load $(cut -d' ' -f1 /proc/loadavg))"
echo
echo "| client | step | time | requests |"
echo "| --- | --- | --- | --- |"
cat "$work/table"
