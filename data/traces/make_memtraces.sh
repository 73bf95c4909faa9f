#!/usr/bin/env bash
# Record valgrind lackey memory-reference traces of five real programs and convert them to
# the compact bundled format data/traces/mem/<name>.npz (see models/traces/memtraces.py).
#
#   data/traces/make_memtraces.sh            # all traces
#   data/traces/make_memtraces.sh xz sort    # some of them (xz sort gcc sqlite numpy)
#
# Environment: PYTHON (default .venv/bin/python), WORK (scratch folder for the generated inputs,
# default a fresh mktemp -d, removed at the end), VALGRIND (default valgrind).
#
# Each program runs under `valgrind --tool=lackey --trace-mem=yes`; the trace streams into
# lackey_to_npz.py, which drops the first SKIP data references (program start-up: dynamic
# loader, libc and program initialisation), keeps the next KEEP data references
# (loads/stores/modifies; instruction fetches dropped) and then closes the pipe, so valgrind
# stops on SIGPIPE. All inputs are generated deterministically (numpy seed 2024), so a rerun
# with the same program versions gives the same traces up to ASLR (valgrind places the stack
# and mmap regions deterministically; absolute addresses can still differ between machines).
# Versions used for the bundled files are recorded in data/SOURCES.md and in each file's meta.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PY=${PYTHON:-$ROOT/.venv/bin/python}
VG=${VALGRIND:-valgrind}
OUT=$HERE/mem
mkdir -p "$OUT"
if [[ -z "${WORK:-}" ]]; then
  WORK=$(mktemp -d)
  trap 'rm -rf "$WORK"' EXIT
fi
mkdir -p "$WORK"
export LC_ALL=C
# numpy trace: fixed str-hash seed (dict/set layouts, hence heap addresses, do not vary per run)
export PYTHONHASHSEED=0
want() { local n; for n in "${SELECTED[@]}"; do [[ $n == "$1" ]] && return 0; done; return 1; }
SELECTED=("$@")
sel() { [[ ${#SELECTED[@]} -eq 0 ]] || want "$1"; }

# ------------------------------------------------------------------ deterministic inputs
# numpy workload (the traced script itself; needs no input files). Start-up = interpreter + `import
# numpy` = 171,969,086 data references (measured for `python -c "import numpy"`), skipped below.
cat > "$WORK/numpy_work.py" <<'EOF'
import os

os.environ["OPENBLAS_NUM_THREADS"] = "1"  # one thread: a single, deterministic reference stream
import numpy as np  # noqa: E402

n = 1 << 21
# 2 Mi pseudo-random float64 (Knuth multiplicative hash, vectorised uint32 arithmetic): 16 MiB
x = ((np.arange(n, dtype=np.uint32) * np.uint32(2654435761)) >> np.uint32(8)).astype(np.float64)
X = np.fft.fft(x)  # complex128 FFT of 2 Mi points (pocketfft): 32 MiB in + 32 MiB out
p = np.abs(X)
s = np.sort(p)  # quicksort of 16 MiB
print(float(s[-1]), float(p.sum()))
EOF
if [[ ${#SELECTED[@]} -gt 0 ]] && ! { sel xz || sel sort || sel gcc || sel sqlite; }; then
  NO_INPUTS=1  # only programs without generated inputs were asked for
fi
if [[ ! -f "$WORK/.inputs-done" && -z "${NO_INPUTS:-}" ]]; then
"$PY" - "$WORK" <<'EOF'
import sys
from pathlib import Path
import numpy as np

w = Path(sys.argv[1])
rng = np.random.default_rng(2024)
# vocabulary of 20000 pseudo-words, Zipf-distributed use (compressible, text-like)
letters = np.frombuffer(b"etaoinshrdlcumwfgypbvkjxqz", np.uint8)
p = 1.0 / np.arange(1, 27) ** 0.9
p /= p.sum()
lens = rng.integers(2, 12, 20000)
words = [bytes(rng.choice(letters, n, p=p)).decode() for n in lens]
zipf = 1.0 / np.arange(1, len(words) + 1) ** 1.1
zipf /= zipf.sum()

def text_lines(n_lines, lo, hi):
    counts = rng.integers(lo, hi, n_lines)
    idx = rng.choice(len(words), int(counts.sum()), p=zipf)
    out, j = [], 0
    for c in counts:
        out.append(" ".join(words[i] for i in idx[j:j + c]))
        j += c
    return "\n".join(out) + "\n"

# xz input: ~24 MB of text
with open(w / "corpus.txt", "w") as f:
    for _ in range(12):
        f.write(text_lines(50_000, 3, 9))
# sort input: 1 000 000 random integers, one per line (9.9 MB)
nums = rng.integers(0, 10**9, 1_000_000)
(w / "nums.txt").write_text("".join(f"{v}\n" for v in nums))
# C source for cc1: 400 functions with loops, arrays, structs and switches
src = ["struct S { int a[16]; double d; struct S *next; };"]
for i in range(400):
    k = int(rng.integers(3, 9))
    body = [f"int f{i}(int *x, int n, struct S *s) {{", "  int acc = 0;"]
    for j in range(k):
        op = ["+", "-", "*", "^", "|"][int(rng.integers(0, 5))]
        c = int(rng.integers(1, 1000))
        body.append(f"  for (int i{j} = 0; i{j} < n; i{j}++) {{ acc = acc {op} x[i{j}] * {c} + s->a[i{j} & 15]; "
                    f"if (acc > {c * 7}) acc >>= 1; }}")
        body.append(f"  switch (acc & 7) {{ case 0: acc += {c}; break; case 1: acc ^= n; break; "
                    f"case 2: s = s->next ? s->next : s; break; case 3: acc -= (int)s->d; break; "
                    f"default: acc += f{max(i - 1, 0)}(x + 1, n - 1, s) * {j + 1}; }}" if i else
                    f"  acc += {c} * n;")
    body.append("  return acc;\n}")
    src.append("\n".join(body))
(w / "gen.c").write_text("\n\n".join(src) + "\n")
# sqlite workload: the database is built natively (not traced), the query is traced
rows = 300_000
ids = np.arange(1, rows + 1)
keys = (ids * 2654435761) % 1_000_003
vals = [f"{a:08x}{b:08x}{c:08x}" for a, b, c in rng.integers(0, 2**32, (rows, 3))]
with open(w / "build.sql", "w") as f:
    f.write("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;\n")
    f.write("CREATE TABLE t(id INTEGER PRIMARY KEY, k INTEGER, v TEXT, g INTEGER);\nBEGIN;\n")
    for i, k, v in zip(ids, keys, vals):
        f.write(f"INSERT INTO t VALUES({i},{k},'{v}',{i % 1000});\n")
    f.write("COMMIT;\nCREATE INDEX tk ON t(k);\n")
(w / "query.sql").write_text(
    "PRAGMA cache_size=-262144;\n"
    "SELECT count(*), sum(b.g) FROM t AS a JOIN t AS b ON b.id = (a.k % 300000) + 1 WHERE a.g < 900;\n"
    "SELECT g, count(*), max(v) FROM t GROUP BY g ORDER BY 2 DESC LIMIT 3;\n")
EOF
rm -f "$WORK/db.sqlite"
sqlite3 "$WORK/db.sqlite" < "$WORK/build.sql" > /dev/null
touch "$WORK/.inputs-done"
fi
# INPUTS_ONLY=1: stop after writing the inputs (data/measurements/programs/run.sh times the programs on them)
[[ -n ${INPUTS_ONLY:-} ]] && exit 0

CC1=$(gcc -print-prog-name=cc1)
VG_VERSION=$("$VG" --version)

# record NAME SKIP KEEP DESCRIPTION PROGRAM_VERSION -- COMMAND...
record() {
  local name=$1 skip=$2 keep=$3 desc=$4 version=$5
  shift 6
  local meta
  meta=$("$PY" -c 'import json,sys; print(json.dumps({"program": sys.argv[1], "program_version": sys.argv[2],
"description": sys.argv[3], "command": sys.argv[4], "recorder": sys.argv[5] + " --tool=lackey --trace-mem=yes"}))' \
    "$(basename "$1")" "$version" "$desc" "$*" "$VG_VERSION")
  echo "== $name: $* (skip $skip, keep $keep data refs)" >&2
  # valgrind keeps running when its log pipe closes (it blocks SIGPIPE), so it writes into a FIFO
  # and is killed once the converter has its window.
  local fifo=$WORK/lackey.fifo
  rm -f "$fifo"
  mkfifo "$fifo"
  (cd "$WORK" && exec "$VG" --tool=lackey --trace-mem=yes --log-fd=3 "$@" 3>"$fifo" 1>/dev/null 2>/dev/null </dev/null) &
  local vg=$!
  local rc=0
  "$PY" "$HERE/lackey_to_npz.py" "$OUT/$name.npz" --skip "$skip" --keep "$keep" --meta "$meta" < "$fifo" || rc=$?
  kill "$vg" 2>/dev/null || true
  sleep 1
  kill -9 "$vg" 2>/dev/null || true
  wait "$vg" 2>/dev/null || true
  rm -f "$fifo"
  [[ $rc -eq 0 ]] || { echo "conversion of $name failed ($rc)" >&2; exit 1; }
}

sel xz && record xz 2000000 10000000 "xz -6 compression of 24 MB of generated text (LZMA2, BT4 match finder, 8 MiB dictionary)" \
  "$(xz --version | head -1)" -- xz -6 -T1 -c corpus.txt
sel sort && record sort 2000000 5000000 "GNU sort -n of 1 000 000 random integers (9.9 MB), C locale, 256 MiB buffer" \
  "$(sort --version | head -1)" -- sort -n -S 256M nums.txt
sel gcc && record gcc 2000000 5000000 "GCC cc1 -O2 compiling a generated 400-function C file" \
  "$(gcc --version | head -1)" -- "$CC1" -quiet -O2 gen.c -o /dev/null
sel sqlite && record sqlite 2000000 5000000 "sqlite3: 270 000 primary-key lookups joined with a table scan on a 300 000-row (16 MB) database" \
  "sqlite3 $(sqlite3 --version | cut -d' ' -f1)" -- sqlite3 db.sqlite ".read query.sql"
sel numpy && record numpy 175000000 5000000 "NumPy $("$PY" -c 'import numpy; print(numpy.__version__)'): 16 MiB of hashed float64, complex FFT of 2 Mi points, abs, sort (one OpenBLAS thread, PYTHONHASHSEED=0)" \
  "$("$PY" -c 'import platform; print("CPython", platform.python_version())')" -- "$PY" numpy_work.py
ls -l "$OUT"
