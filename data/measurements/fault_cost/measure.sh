#!/usr/bin/env bash
# Measure the cost of a 4 KiB page fault resolved from a memory-speed source (fault_cost.c) and
# write fault_cost.csv (one row per method and repetition) next to this script.
#   data/measurements/fault_cost/measure.sh [pages=4096] [repetitions=9]
# Needs userfaultfd (root or vm.unprivileged_userfaultfd=1). Summarised by models/memory/measured.py.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
cc -O2 -pthread -o "$W/fault_cost" "$HERE/fault_cost.c"
{
  echo "# fault_cost.c on $(uname -srm), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs, $(date -u +%Y-%m-%d)"
  "$W/fault_cost" "${1:-4096}" "${2:-9}"
} > "$HERE/fault_cost.csv"
cat "$HERE/fault_cost.csv"
