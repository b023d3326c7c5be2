#!/usr/bin/env bash
# Imports every file of a corpus folder (ics/, csv/, json/, opml/) into a scratch store, one
# store per file. A file must import, or fail with a located error (exit 65); a crash or any
# other exit status fails the check. Prints one line per file and a total.
set -uo pipefail
cd "$(dirname "$0")/.."
corpus="${1:?usage: corpus-check.sh CORPUS_DIR}"
remconv="$(swift build -c release --show-bin-path)/remconv"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
passed=0
failed=0
for file in "$corpus"/*/*; do
  [ -f "$file" ] || continue
  case "$file" in *.md) continue ;; esac
  store="$scratch/$(basename "$file").sqlite"
  output=$("$remconv" import "$file" --store "$store" --quiet 2>&1)
  status=$?
  if [ $status -eq 0 ]; then
    echo "ok      $file"
    passed=$((passed + 1))
  elif [ $status -eq 65 ] && echo "$output" | grep -qE ':[0-9]+(:[0-9]+)?: '; then
    echo "refused $file: $(echo "$output" | head -n 1)"
    passed=$((passed + 1))
  else
    echo "FAILED  $file (exit $status): $(echo "$output" | head -n 3)"
    failed=$((failed + 1))
  fi
done
echo "corpus: $passed passed, $failed failed"
[ $failed -eq 0 ]
