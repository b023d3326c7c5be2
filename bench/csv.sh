#!/usr/bin/env bash
# CSV benchmark (issue 11): remconv against Python's csv module on the same generated file.
#
#   bench/csv.sh [ROWS]        (default 100000; the issue's figure is 1000000)
#
# Generates bench/out/reminders-ROWS.csv deterministically (bench/csv_generate.py), then times
# with hyperfine, side by side:
#   python csv      read + write the file with Python's csv module (bench/python_csv.py)
#   convert         remconv convert FILE --to csv (streamed: parse, decode, write)
#   import          remconv import FILE into a fresh store (one transaction)
#   export          remconv export --format csv from that store
# and prints the peak memory of each remconv run. Results go to bench/out/csv-ROWS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
rows="${1:-100000}"
command -v hyperfine >/dev/null || { echo "bench/csv.sh needs hyperfine" >&2; exit 69; }
python="${PYTHON:-python3}"
swift build -c release --product remconv >/dev/null
remconv="$(swift build -c release --show-bin-path)/remconv"
out="bench/out"
mkdir -p "$out"
input="$out/reminders-$rows.csv"
[ -f "$input" ] || "$python" bench/csv_generate.py "$rows" "$input"
store="$out/bench-$rows.sqlite"
echo "== $rows rows, $(du -h "$input" | cut -f1) in $input"

# One --prepare per command, in order: only the import starts from an empty store.
hyperfine --warmup 1 --runs "${RUNS:-5}" --export-markdown "$out/csv-$rows.md" \
  --prepare ":" -n "python csv (read+write)" "$python bench/python_csv.py $input $out/python-out.csv" \
  --prepare ":" -n "remconv convert --to csv" "$remconv convert $input --to csv -o $out/convert-out.csv --force" \
  --prepare "rm -f $store $store-wal $store-shm" -n "remconv import" "$remconv import $input --store $store --quiet" \
  --prepare ":" -n "remconv export --format csv" "$remconv export --format csv --store $store -o $out/export-out.csv --force --quiet"

# The generator writes remconv's own CSV, so a lossless conversion gives the input back.
if cmp -s "$input" "$out/convert-out.csv"; then
  echo "== convert wrote the input back byte for byte"
else
  echo "== convert changed the file: $out/convert-out.csv differs from $input" >&2
  exit 1
fi

echo "== peak memory (maximum resident set size)"
for run in "convert $input --to csv -o $out/convert-out.csv --force" \
           "export --format csv --store $store -o $out/export-out.csv --force --quiet"; do
  /usr/bin/time -f "%M KiB  remconv ${run%% *}" "$remconv" $run 2>&1 >/dev/null | tail -n 1
done
rm -f "$store" "$store-wal" "$store-shm"
/usr/bin/time -f "%M KiB  remconv import" "$remconv" import "$input" --store "$store" --quiet 2>&1 | tail -n 1
echo "== results in $out/csv-$rows.md"
