#!/usr/bin/env bash
# OPML benchmark (issue 7): remconv on a generated outliner-style file. `make bench` measures
# remconv's own OPML (every outline with its UID); this measures what an outliner writes
# instead, with no UIDs (every one derived), Workflowy HTML and Logseq markers.
#
#   bench/opml.sh [ITEMS]        (default 100000)
#
# Generates bench/out/outline-ITEMS.opml deterministically (bench/opml_generate.py), then times
# with hyperfine, side by side:
#   python iterparse    Python's streaming ElementTree reading the file (bench/opml_python.py)
#   convert --to jsonl  remconv convert FILE (streamed: parse, decode, write)
#   import              remconv import FILE into a fresh store (one transaction)
#   export              remconv export --format opml from that store
# and prints the peak memory of each remconv run. Results go to bench/out/opml-ITEMS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
items="${1:-100000}"
command -v hyperfine >/dev/null || { echo "bench/opml.sh needs hyperfine" >&2; exit 69; }
python="${PYTHON:-python3}"
swift build -c release --product remconv >/dev/null
remconv="$(swift build -c release --show-bin-path)/remconv"
out="bench/out"
mkdir -p "$out"
input="$out/outline-$items.opml"
[ -f "$input" ] || "$python" bench/opml_generate.py "$items" "$input"
store="$out/opml-bench-$items.sqlite"
echo "== $items items, $(du -h "$input" | cut -f1) in $input"

# hyperfine pairs the --prepare options with the commands in order (one --prepare alone would
# apply to every command, and empty the store before the export).
hyperfine --warmup 1 --runs "${RUNS:-5}" --export-markdown "$out/opml-$items.md" \
  --prepare true -n "python iterparse (read)" "$python bench/opml_python.py $input" \
  --prepare true -n "remconv convert --to jsonl" "$remconv convert $input --to jsonl -o $out/opml-convert.jsonl --force" \
  --prepare "rm -f $store $store-wal $store-shm" -n "remconv import" "$remconv import $input --store $store --quiet" \
  --prepare true -n "remconv export --format opml" \
  "$remconv export --format opml --store $store -o $out/opml-export.opml --force --quiet"

cmp -s "$out/opml-export.opml" /dev/null && { echo "the export wrote nothing" >&2; exit 1; }
echo "== $(grep -c '<outline' "$out/opml-export.opml") outlines exported"
echo "== peak memory (maximum resident set size)"
for run in "convert $input --to jsonl -o $out/opml-convert.jsonl --force" \
           "export --format opml --store $store -o $out/opml-export.opml --force --quiet"; do
  /usr/bin/time -f "%M KiB  remconv ${run%% *}" "$remconv" $run 2>&1 >/dev/null | tail -n 1
done
rm -f "$store" "$store-wal" "$store-shm"
/usr/bin/time -f "%M KiB  remconv import" "$remconv" import "$input" --store "$store" --quiet 2>&1 | tail -n 1
echo "== results in $out/opml-$items.md"
