#!/usr/bin/env bash
# Fuzzes one format with libFuzzer: its reader, format detection, the merge engine and the
# store, and the round trip through its writer (Fuzz/Sources/FuzzHarness.swift).
#
#   Scripts/fuzz.sh FORMAT SECONDS [libFuzzer flags...]   SECONDS 0: no time limit
#   Scripts/fuzz.sh --formats                             the formats there is a harness for
#
# Seeds, for a format NAME (a ':' in it is also looked up as '-' and '_', and as the part after
# it): Samples/NAME/, every Tests/**/Fixtures/NAME/ and Tests/**/Fixtures/*/NAME/ (malformed/NAME,
# csv/ticktick),
# Fuzz/regressions/NAME/, and $FUZZ_EXTRA_SEEDS (a folder) when set. Dictionary:
# Fuzz/dictionaries/NAME.dict when there is one.
# The corpus grows in .build/fuzz/corpus/NAME/, inputs that crash, hang (over 10 s) or take
# more than 1 GB land in .build/fuzz/findings/NAME/, the log in .build/fuzz/logs/NAME.log.
# Environment: FUZZ_RUNS=N stops after N executions; FUZZ_SANITIZE=address adds AddressSanitizer.
# Prints one summary line: executions, seconds, executions per second, peak RSS, findings.
# Exits 1 when libFuzzer found something.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build/fuzz
binary="$scratch/release/remconv-fuzz"

build() {
  swift build -c release --scratch-path "$scratch" --product remconv-fuzz \
    -Xswiftc "-sanitize=fuzzer${FUZZ_SANITIZE:+,$FUZZ_SANITIZE}" -Xswiftc -DREMCONV_LIBFUZZER \
    -Xswiftc -use-ld=lld >&2
}

if [ "${1:-}" = "--formats" ]; then
  build
  "$binary" --formats
  exit 0
fi
if [ $# -lt 2 ]; then
  echo "usage: Scripts/fuzz.sh FORMAT SECONDS [libFuzzer flags...] | --formats" >&2
  exit 64
fi
format="$1"
seconds="$2"
shift 2
build

# The folder names a format's files may live under.
names=("$format" "${format//:/-}" "${format//:/_}")
[[ "$format" == *:* ]] && names+=("${format#*:}")

folder="${format//:/-}"
corpus="$scratch/corpus/$folder"
findings="$scratch/findings/$folder"
log="$scratch/logs/$folder.log"
mkdir -p "$corpus" "$findings" "$(dirname "$log")"
seeds=0
for name in $(printf '%s\n' "${names[@]}" | sort -u); do
  # Fixtures/NAME, and one level down: Fixtures/malformed/NAME, and a dialect's own folder in
  # its family's (Fixtures/csv/ticktick for csv:ticktick).
  for directory in "Samples/$name" "Fuzz/regressions/$name" $(find Tests -type d -path "*/Fixtures/$name" 2>/dev/null) \
    $(find Tests -type d -path "*/Fixtures/*/$name" 2>/dev/null); do
    [ -d "$directory" ] || continue
    while IFS= read -r -d '' file; do
      # Named by content, so a seed is copied once however often it is found.
      cp "$file" "$corpus/seed-$(sha1sum "$file" | cut -c1-16)"
      seeds=$((seeds + 1))
    done < <(find "$directory" -type f -size -1024k ! -name '*.tsv' -print0)
  done
done
if [ -n "${FUZZ_EXTRA_SEEDS:-}" ]; then
  while IFS= read -r -d '' file; do
    cp "$file" "$corpus/seed-$(sha1sum "$file" | cut -c1-16)"
    seeds=$((seeds + 1))
  done < <(find "$FUZZ_EXTRA_SEEDS" -type f -size -1024k -print0)
fi

flags=(-timeout=10 -rss_limit_mb=1024 -print_final_stats=1 -artifact_prefix="$findings/")
[ "$seconds" != 0 ] && flags+=(-max_total_time="$seconds")
[ -n "${FUZZ_RUNS:-}" ] && flags+=(-runs="$FUZZ_RUNS")
for name in "${names[@]}"; do
  if [ -f "Fuzz/dictionaries/$name.dict" ]; then
    flags+=(-dict="Fuzz/dictionaries/$name.dict")
    break
  fi
done

# The harness rewrites its input file and scratch store for every execution: in memory when
# /dev/shm is there, so that the disk's write-back does not set the pace. libFuzzer ends the
# process with exit(), so the harness cannot remove its folder: this script does.
memory=/tmp
[ -d /dev/shm ] && [ -w /dev/shm ] && memory=/dev/shm
TMPDIR=$(mktemp -d "$memory/remconv-fuzz.XXXXXX")
export TMPDIR
trap 'rm -rf "$TMPDIR"' EXIT

echo "fuzz: $format: $seeds seed file(s), corpus $corpus, log $log" >&2
started=$(date +%s)
marker="$scratch/logs/.started-$folder"
touch "$marker"
status=0
REMCONV_FUZZ_FORMAT="$format" SWIFT_BACKTRACE=enable=no "$binary" "${flags[@]}" "$@" "$corpus" >"$log" 2>&1 || status=$?
elapsed=$(( $(date +%s) - started ))

stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -n 1; }
executions=$(stat number_of_executed_units)
rate=$(stat average_exec_per_sec)
rss=$(stat peak_rss_mb)
found=$(find "$findings" -type f -newer "$marker" | wc -l)
echo "fuzz: $format: ${executions:-?} executions in ${elapsed} s (${rate:-?}/s), peak RSS ${rss:-?} MB, $found new finding(s) in $findings"
if [ $status -ne 0 ]; then
  echo "fuzz: $format: libFuzzer stopped with status $status; the end of $log:" >&2
  tail -n 40 "$log" >&2
  exit 1
fi
