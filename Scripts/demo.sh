#!/usr/bin/env bash
# The main job on a fresh demo store: import every sample in Samples/, show what the store
# holds, export it in every format. Prints where the store and the exports are.
set -euo pipefail
cd "$(dirname "$0")/.."
store="${1:-$PWD/.build/demo/reminders.sqlite}"
remconv="$(swift build -c release --show-bin-path)/remconv"
out="$(dirname "$store")/export"
rm -rf "$(dirname "$store")"
mkdir -p "$out"
export REMCONV_STORE="$store"

echo "== demo store: $store"
for sample in Samples/*/*; do
  case "$sample" in
    Samples/vdir/*) continue ;;
    # Microsoft To Do writes an all-day due as its user's local midnight in UTC; this sample's
    # user is in Berlin, so the dates are read in that zone.
    Samples/mstodo/*) TZ=Europe/Berlin "$remconv" import "$sample" ;;
    *) "$remconv" import "$sample" ;;
  esac
done
if [ -d Samples/vdir ]; then "$remconv" import Samples/vdir --format vdir; fi

echo "== what the store holds"
if "$remconv" help lists >/dev/null 2>&1; then
  "$remconv" lists
else
  "$remconv" export --format jsonl | cut -c1-120
fi

echo "== exports in $out"
for format in $("$remconv" formats | awk '$2 ~ /write/ {print $1}'); do
  case "$format" in
    vdir) "$remconv" export --format vdir -o "$out/vdir" --force ;;
    todoist-backup) "$remconv" export --format todoist-backup -o "$out/todoist-backup.zip" --force ;;
    *) "$remconv" export --format "$format" -o "$out/reminders.${format//:/-}" --force ;;
  esac
done
ls -l "$out"
