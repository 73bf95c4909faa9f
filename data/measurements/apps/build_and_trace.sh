#!/usr/bin/env bash
# Build seed 002's six DOE proxy applications from ../shared/apps (unmodified upstream sources,
# copied to a scratch folder and built there; nothing of them is copied into the project), run each
# natively (median of repeated runs: the time base) and under valgrind lackey (data-reference
# counts of the whole run, one window of references kept as a compact .npz memory trace), and
# snapshot page versions of a longer native run for the write-reduction schemes.
#
#   data/measurements/apps/build_and_trace.sh                 # all six
#   data/measurements/apps/build_and_trace.sh lulesh minife   # some (lulesh xsbench rsbench simplemoc minife miniamr)
#
# Environment: APPS (default <project>/../shared/apps), WORK (scratch, default a fresh mktemp -d,
# removed at the end), PYTHON (default .venv/bin/python), VALGRIND (default valgrind), REPEATS
# (native runs per app, default 11), KEEP (data references kept per trace, default 4000000),
# PAGES (page pairs per app, default 300), SNAP=0 to skip the page snapshots, TRACE=0 to skip
# the lackey runs (re-time only).
#
# Outputs: data/traces/mem/<app>.npz (loads as lackey:<app>), data/measurements/apps/apps.csv
# (one row per app: whole-run counts, native CPU and wall times, ns per data reference, write
# rates; see lackey_post.py), data/measurements/apps/<app>.counts.json / <app>.timing.json,
# data/pages/app_page_pairs.npz (page version pairs, data/pages format).
#
# Counting: data references = lackey L + S + M lines (a modify is one reference); instruction
# fetches (I) are counted separately and are never data references.
# miniAMR needs an MPI (apt-get install libopenmpi-dev openmpi-bin); its start-up (MPI_Init and
# MPI_Finalize of a one-rank singleton run) is measured with a trivial MPI program and subtracted
# from its native time; under valgrind Open MPI's progress polling adds a run-dependent number of
# references, so only a window after the start-up is traced with lackey; its whole-run count (the time
# base) comes from valgrind cachegrind (Dr + Dw = L + S + M) of the run minus that of the trivial MPI
# program, medians of 3 runs each (they agree to 0.1 %).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
APPS=${APPS:-$(cd "$ROOT/.." && pwd)/shared/apps}
PY=${PYTHON:-$ROOT/.venv/bin/python}
VG=${VALGRIND:-valgrind}
REPEATS=${REPEATS:-11}
KEEP=${KEEP:-4000000}
PAGES=${PAGES:-300}
SNAP=${SNAP:-1}
TRACE=${TRACE:-1}
OUT=$ROOT/data/traces/mem
mkdir -p "$OUT"
if [[ -z "${WORK:-}" ]]; then
  WORK=$(mktemp -d)
  trap 'rm -rf "$WORK"' EXIT
fi
mkdir -p "$WORK"
export LC_ALL=C OMP_NUM_THREADS=1
# one-rank Open MPI without network transports (fewer start-up references)
export OMPI_MCA_btl=self OMPI_MCA_pml=ob1 OMPI_MCA_osc=^ucx OMPI_MCA_coll=self,basic,libnbc
SELECTED=("$@")
sel() { local n; [[ ${#SELECTED[@]} -eq 0 ]] && return 0; for n in "${SELECTED[@]}"; do [[ $n == "$1" ]] && return 0; done; return 1; }

# ------------------------------------------------------------------ build (README commands)
cc -O2 -o "$WORK/lackey_window" "$HERE/lackey_window.c"
B=$WORK/build
mkdir -p "$B"
build() {  # build NAME: copy the app's sources to $B and build them there
  case $1 in
    lulesh) cp -r "$APPS/LULESH" "$B/"; (cd "$B/LULESH" && g++ -O2 -DUSE_MPI=0 -o lulesh2.0 lulesh.cc lulesh-comm.cc lulesh-viz.cc lulesh-util.cc lulesh-init.cc) ;;
    xsbench) cp -r "$APPS/XSBench" "$B/"; make -s -C "$B/XSBench/openmp-threading" >/dev/null ;;
    rsbench) cp -r "$APPS/RSBench" "$B/"; make -s -C "$B/RSBench/openmp-threading" >/dev/null ;;
    simplemoc) cp -r "$APPS/SimpleMOC" "$B/"; make -s -C "$B/SimpleMOC/src" >/dev/null ;;
    minife) cp -r "$APPS/miniFE" "$B/"; make -s -C "$B/miniFE/ref/src" -f Makefile.gnu.serial >/dev/null ;;
    miniamr) cp -r "$APPS/miniAMR" "$B/"; make -s -C "$B/miniAMR/ref" >/dev/null
             printf '#include <mpi.h>\nint main(int c, char **v) { MPI_Init(&c, &v); MPI_Finalize(); return 0; }\n' > "$WORK/mpi_init_only.c"
             mpicc -O2 -o "$WORK/mpi_init_only" "$WORK/mpi_init_only.c" ;;
  esac
}
# SimpleMOC inputs: the upstream default.in with one assembly (traced: 3 coarse axial intervals,
# 4 azimuthal and 2 polar angles, 8 energy groups, 20 cm high, 0.2 cm ray separation; snapshot:
# 9 intervals, 8 azimuthal, 4 polar, 16 groups, 400 cm)
moc_inputs() {
  local d=$APPS/SimpleMOC/src/default.in
  sed -e '1s/^17/1/' -e '2s/^17/1/' -e '3s/^9/3/' -e '6s/^0.05/0.2/' -e '8s/^64/4/' -e '9s/^10/2/' \
      -e '10s/^100/8/' -e '15s/^400.0/20.0/' "$d" > "$WORK/moc_trace.in"
  sed -e '1s/^17/1/' -e '2s/^17/1/' -e '8s/^64/8/' -e '9s/^10/4/' -e '10s/^100/16/' "$d" > "$WORK/moc_snap.in"
}
AMR_OBJ=(--num_objects 1 --object 2 0 -1.71 -1.71 -1.71 0.04 0.04 0.04 1.7 1.7 1.7 0.0 0.0 0.0)

# app table: traced command, window skip [data refs] (about 40 % into the run: past the
# initialisation of the iterative apps), "stop" for window-only traces, snapshot command
cmd_of() {
  case $1 in
    lulesh) echo "$B/LULESH/lulesh2.0 -s 10 -i 8" ;;
    xsbench) echo "$B/XSBench/openmp-threading/XSBench -t 1 -s small -l 34 -g 100 -p 1000" ;;
    rsbench) echo "$B/RSBench/openmp-threading/rsbench -t 1 -s small -l 34 -p 40" ;;
    simplemoc) echo "$B/SimpleMOC/src/SimpleMOC -t 1 -i $WORK/moc_trace.in" ;;
    minife) echo "$B/miniFE/ref/src/miniFE.x -nx 10 -ny 10 -nz 10" ;;
    miniamr) echo "$B/miniAMR/ref/miniAMR.x --num_refine 2 --max_blocks 400 --nx 8 --ny 8 --nz 8 ${AMR_OBJ[*]} --num_tsteps 10 --checksum_freq 5" ;;
  esac
}
snap_of() {
  case $1 in
    lulesh) echo "$B/LULESH/lulesh2.0 -s 40 -i 100000" ;;
    xsbench) echo "$B/XSBench/openmp-threading/XSBench -t 1 -s small -l 34 -p 5000000" ;;
    rsbench) echo "$B/RSBench/openmp-threading/rsbench -t 1 -s small -l 34 -p 5000000" ;;
    simplemoc) echo "$B/SimpleMOC/src/SimpleMOC -t 1 -i $WORK/moc_snap.in" ;;
    minife) echo "$B/miniFE/ref/src/miniFE.x -nx 80 -ny 80 -nz 80" ;;
    miniamr) echo "$B/miniAMR/ref/miniAMR.x --num_refine 2 --max_blocks 4000 --nx 16 --ny 16 --nz 16 ${AMR_OBJ[*]} --num_tsteps 100000 --checksum_freq 5" ;;
  esac
}
skip_of() { case $1 in lulesh|xsbench|simplemoc) echo 9000000 ;; rsbench) echo 8500000 ;; minife) echo 6700000 ;; miniamr) echo 20000000 ;; esac; }
commit_of() { case $1 in lulesh) echo "LLNL/LULESH 3e01c40b" ;; xsbench) echo "ANL-CESAR/XSBench ba08e522" ;;
  rsbench) echo "ANL-CESAR/RSBench 34b64478" ;; simplemoc) echo "ANL-CESAR/SimpleMOC 4c51b8cb" ;;
  minife) echo "Mantevo/miniFE c79e0f7f" ;; miniamr) echo "Mantevo/miniAMR 635fef2f" ;; esac; }

VG_VERSION=$("$VG" --version)
CC_VERSION=$(gcc --version | head -1)
for app in lulesh xsbench rsbench simplemoc minife miniamr; do
  sel "$app" || continue
  echo "== $app: build" >&2
  build "$app"
  [[ $app == simplemoc ]] && moc_inputs
  read -r -a CMD <<< "$(cmd_of "$app")"
  cd "$WORK"
  echo "== $app: $REPEATS native runs" >&2
  "$PY" "$HERE/lackey_post.py" time --out "$HERE/$app.timing.json" --repeats "$REPEATS" -- "${CMD[@]}"
  STOP=""
  if [[ $app == miniamr ]]; then
    "$PY" "$HERE/lackey_post.py" time --out "$HERE/$app.startup.json" --repeats "$REPEATS" -- "$WORK/mpi_init_only"
    STOP=stop
    # whole-run count for the time base: cachegrind (Dr + Dw = lackey L + S + M) of the run and of the
    # MPI_Init/MPI_Finalize-only program, 3 runs each (medians; the start-up is subtracted)
    for i in 1 2 3; do
      "$VG" --tool=cachegrind --cache-sim=yes --cachegrind-out-file="$WORK/amr.$i.cg" "${CMD[@]}" >/dev/null 2>&1 </dev/null
      "$VG" --tool=cachegrind --cache-sim=yes --cachegrind-out-file="$WORK/init.$i.cg" "$WORK/mpi_init_only" >/dev/null 2>&1 </dev/null
    done
    "$PY" "$HERE/lackey_post.py" wholerun --app "$WORK"/amr.?.cg --startup "$WORK"/init.?.cg --out "$HERE/$app.wholerun.json"
  fi
  if [[ $TRACE == 1 ]]; then
  echo "== $app: lackey (skip $(skip_of "$app"), keep $KEEP data refs)" >&2
  # valgrind keeps running when its log pipe closes, so for window-only traces it writes into a
  # FIFO and is killed once lackey_window has its window.
  rm -f "$WORK/lackey.fifo"; mkfifo "$WORK/lackey.fifo"
  nice "$VG" --tool=lackey --trace-mem=yes --log-fd=3 "${CMD[@]}" 3>"$WORK/lackey.fifo" >/dev/null 2>&1 </dev/null &
  vg=$!
  "$WORK/lackey_window" "$(skip_of "$app")" "$KEEP" "$WORK/$app.bin" $STOP < "$WORK/lackey.fifo" > "$HERE/$app.counts.json"
  if [[ -n $STOP ]]; then kill "$vg" 2>/dev/null || true; sleep 1; kill -9 "$vg" 2>/dev/null || true; fi
  wait "$vg" 2>/dev/null || true
  meta=$("$PY" -c 'import json,sys; print(json.dumps({"program": sys.argv[1], "program_version": sys.argv[2],
"description": sys.argv[3], "command": sys.argv[4], "compiler": sys.argv[5], "recorder": sys.argv[6] + " --tool=lackey --trace-mem=yes",
"script": "data/measurements/apps/build_and_trace.sh"}))' \
    "$app" "$(commit_of "$app")" "seed 002 Table 1 proxy application $app (one OpenMP thread)" \
    "$(cmd_of "$app" | sed "s#$B/##; s#$WORK/##g")" "$CC_VERSION" "$VG_VERSION")
  "$PY" "$HERE/lackey_post.py" pack "$app" --bin "$WORK/$app.bin" --counts "$HERE/$app.counts.json" \
    --meta "$meta" --out "$OUT/$app.npz"
  rm -f "$WORK/$app.bin"
  fi
  if [[ $SNAP == 1 ]]; then
    read -r -a SC <<< "$(snap_of "$app")"
    "$PY" "$HERE/lackey_post.py" snapshot --name "$app" --out "$WORK/$app.pages.npz" --pages "$PAGES" -- "${SC[@]}"
  fi
done
# page pairs of every app snapshotted in $WORK so far (all six when WORK is kept between runs)
ALL=()
for app in lulesh xsbench rsbench simplemoc minife miniamr; do
  [[ -f $WORK/$app.pages.npz ]] && ALL+=("$WORK/$app.pages.npz")
done
if [[ $SNAP == 1 && ${#ALL[@]} -gt 0 ]]; then
  "$PY" "$HERE/lackey_post.py" merge-pages "$ROOT/data/pages/app_page_pairs.npz" "${ALL[@]}"
fi
"$PY" "$HERE/lackey_post.py" table
