#!/usr/bin/env bash
# Instructions of the city study's workload (200 participants x 100 days, one thread) under
# callgrind: repeatable for a binary, whatever else the machine does. Prints the total.
#   scripts/callgrind.sh [ESMSIM]
set -euo pipefail
esmsim=$(realpath "${1:-.build/release/esmsim}")
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# valgrind 3.19 cannot read the debug information Swift 6.3 writes: count a stripped copy.
strip -o "$tmp/esmsim" "$esmsim"
valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$tmp/esmsim" run scenarios/city-study-benchmark.yaml \
  --participants 200 --duration 100d --threads 1 --output "$tmp/out" >/dev/null 2>"$tmp/log"
grep -E '^(summary|totals):' "$tmp/cg.out" | head -1 | awk '{printf "%s instructions (%.1f M)\n", $2, $2/1e6}'
