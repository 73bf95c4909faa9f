#!/usr/bin/env bash
# Native time base of the five bundled lackey-traced programs (data/traces/mem/{xz,sort,gcc,sqlite,numpy}.npz,
# made by data/traces/make_memtraces.sh): time per data reference = median native CPU time of the run /
# data references of the same run, the method of data/measurements/apps/ (issue 15 point 1a).
#
#   data/measurements/programs/run.sh                 # all five
#   data/measurements/programs/run.sh sqlite numpy    # some (xz sort gcc sqlite numpy)
#
# Environment: WORK (scratch, default a fresh mktemp -d, removed at the end), PYTHON (default .venv/bin/python),
# VALGRIND (default valgrind), REPEATS (native runs, default 11), COUNTER (cachegrind | lackey, default cachegrind).
#
# Inputs: the deterministic inputs of make_memtraces.sh (INPUTS_ONLY=1), numpy seed 2024.
# Runs: the traced commands of data/SOURCES.md, in the scratch folder, LC_ALL=C, stdin /dev/null, stdout
# discarded -- except xz and gcc, whose whole traced runs are too long to count under valgrind here (xz 20 s,
# cc1 12 s of native CPU, i.e. hours under lackey, ~30 min each under cachegrind on the shared 2-core machine):
# they run on a PREFIX of the same input (xz: the first 1 MiB of corpus.txt; cc1: gen.c's struct and first 50
# of its 400 functions). Both programs read their input front to back, so the prefix run starts like the traced
# run; the traced window (data references 2 M .. 12 M of xz, 2 M .. 7 M of cc1) lies inside the prefix run
# (its whole-run count is in the CSV), and native time and count come from the same prefix run.
#
# Timing: data/measurements/apps/lackey_post.py time (perf stat -e task-clock: exact CPU time of the task and
# its threads; wall time kept too). Counting (data references = loads + stores + modifies, a modify once;
# instruction fetches never): COUNTER=cachegrind counts Dr + Dw with valgrind's cachegrind (cachegrind counts a
# modify as one read, so Dr + Dw = lackey L + S + M; about 100x faster than writing lackey's text trace);
# COUNTER=lackey pipes valgrind --tool=lackey --trace-mem=yes into data/measurements/apps/lackey_window.c.
# Outputs: data/measurements/programs/<name>.timing.json, <name>.counts.json, programs.csv (post.py table).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
PY=${PYTHON:-$ROOT/.venv/bin/python}
VG=${VALGRIND:-valgrind}
REPEATS=${REPEATS:-11}
COUNTER=${COUNTER:-cachegrind}
if [[ -z "${WORK:-}" ]]; then
  WORK=$(mktemp -d)
  trap 'rm -rf "$WORK"' EXIT
fi
mkdir -p "$WORK"
export LC_ALL=C PYTHONHASHSEED=0
SELECTED=("$@")
sel() { local n; [[ ${#SELECTED[@]} -eq 0 ]] && return 0; for n in "${SELECTED[@]}"; do [[ $n == "$1" ]] && return 0; done; return 1; }

WORK=$WORK INPUTS_ONLY=1 PYTHON=$PY bash "$ROOT/data/traces/make_memtraces.sh"
cd "$WORK"
head -c 1048576 corpus.txt > corpus_1M.txt
"$PY" -c 'import sys; p = open("gen.c").read().split("\n\n"); open("gen_50.c", "w").write("\n\n".join(p[:51]) + "\n")'
[[ $COUNTER == lackey ]] && cc -O2 -o "$WORK/lackey_window" "$ROOT/data/measurements/apps/lackey_window.c"
CC1=$(gcc -print-prog-name=cc1)

cmd_of() {
  case $1 in
    xz) echo "xz -6 -T1 -c corpus_1M.txt" ;;
    sort) echo "sort -n -S 256M nums.txt" ;;
    gcc) echo "$CC1 -quiet -O2 gen_50.c -o /dev/null" ;;
    sqlite) echo "sqlite3 db.sqlite .read%query.sql" ;;  # % = a space inside the argument
    numpy) echo "$PY numpy_work.py" ;;
  esac
}
for name in xz sort gcc sqlite numpy; do
  sel "$name" || continue
  read -r -a CMD <<< "$(cmd_of "$name")"
  CMD=("${CMD[@]//%/ }")
  echo "== $name: $REPEATS native runs: ${CMD[*]}" >&2
  "$PY" "$ROOT/data/measurements/apps/lackey_post.py" time --out "$HERE/$name.timing.json" --repeats "$REPEATS" -- "${CMD[@]}"
  echo "== $name: $COUNTER count" >&2
  if [[ $COUNTER == lackey ]]; then
    "$VG" --tool=lackey --trace-mem=yes --log-fd=3 "${CMD[@]}" 3>&1 >/dev/null 2>/dev/null </dev/null \
      | "$WORK/lackey_window" 1000000000000000 0 /dev/null > "$WORK/$name.lackey.json"
    "$PY" "$HERE/post.py" counts --lackey "$WORK/$name.lackey.json" --out "$HERE/$name.counts.json"
  else
    "$VG" --tool=cachegrind --cache-sim=yes --cachegrind-out-file="$WORK/$name.cg" "${CMD[@]}" >/dev/null 2>&1 </dev/null
    "$PY" "$HERE/post.py" counts --cachegrind "$WORK/$name.cg" --out "$HERE/$name.counts.json"
  fi
done
"$PY" "$HERE/post.py" table
