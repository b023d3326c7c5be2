#!/usr/bin/env bash
# compare-instructions.sh BASE HEAD [SIZE [SYNC_SIZE]]: instructions (valgrind's callgrind) of two
# remconv binaries on the same generated corpus (bench/generate.py): imports of the .ics, CSV
# and JSON Lines into a new store and re-imports of the same (SIZE items, default 10000), and a
# vdir sync (SYNC_SIZE items, default 2000): store to an empty folder, a no-op, folder to an
# empty store. Instructions are the same for the same binary and input whatever the machine's
# load, so the two columns show what a change did. Prints a Markdown table.
set -euo pipefail
base=$1 head=$2 size=${3:-10000} sync_size=${4:-2000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
here=$(cd "$(dirname "$0")" && pwd)
python3 "$here/generate.py" "$size" > "$work/c.jsonl"
"$head" convert "$work/c.jsonl" --to ics -o "$work/c.ics" --force --quiet
"$head" convert "$work/c.jsonl" --to csv -o "$work/c.csv" --force --quiet
head -n "$sync_size" "$work/c.jsonl" > "$work/s.jsonl"

count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

# measure BIN LABEL: one line per case, "case count"
measure() {
  local bin=$1 dir=$work/$2
  mkdir -p "$dir"
  for format in ics csv jsonl; do
    echo "import:$format $(count "$bin" import "$work/c.$format" --store "$dir/$format.sqlite" --quiet)"
    echo "reimport:$format $(count "$bin" import "$work/c.$format" --store "$dir/$format.sqlite" --quiet)"
  done
  "$bin" import "$work/s.jsonl" --store "$dir/s.sqlite" --quiet
  "$bin" remote add v "$dir/vdir" --store "$dir/s.sqlite" --quiet
  echo "sync:store>vdir $(count "$bin" sync v --store "$dir/s.sqlite" --quiet)"
  echo "sync:noop $(count "$bin" sync v --store "$dir/s.sqlite" --quiet)"
  "$bin" remote add v "$dir/vdir" --store "$dir/e.sqlite" --quiet
  echo "sync:vdir>store $(count "$bin" sync v --store "$dir/e.sqlite" --quiet)"
}

measure "$base" base > "$work/base.txt"
measure "$head" head > "$work/head.txt"
echo "| case | items | base | head | change |"
echo "| --- | ---: | ---: | ---: | ---: |"
paste "$work/base.txt" "$work/head.txt" | while read -r name before _ after; do
  items=$size
  case $name in sync:*) items=$sync_size ;; esac
  awk -v n="$name" -v i="$items" -v b="$before" -v a="$after" \
    'BEGIN { printf "| `%s` | %d | %.1f M | %.1f M | %+.1f %% |\n", n, i, b / 1e6, a / 1e6, (a - b) * 100 / b }'
done
