"""Fuzz campaign over the trace readers (issue 20): N mutated files per format, outcome counts, peak RSS.

Each case mutates a valid sample of a format (token insertions, byte flips, cuts), optionally
gzip/zstd-compresses or truncates it, and reads it twice (default chunk size and a small one).
Outcomes: ``ok`` (a trace), ``clean`` (one of :data:`models.errors.INPUT_ERRORS` with a short
message), ``crash`` (any other exception) and ``wrong`` (accepted with out-of-domain values, a
truncated compressed file accepted, or a result that depends on the chunk size or on a leading
UTF-8 BOM). The tokens include issue 42's shapes (lone CRs, BOMs, multi-page lackey accesses, an
ambiguous CSV header). MQSim cases
also compare against an exact oracle. Goal: 0 crash, 0 wrong, peak RSS <= 1 GB.

Then the bombs (:data:`BOMBS`, issue 42): small hostile inputs through the CLI, each in its own
process, reporting its peak RSS (the child's own ``VmHWM``; ``ru_maxrss`` carries the parent's across exec) and its
CPU time beside an empty run's (the interpreter start, measured in the same run; CPU, not wall time, which on a
shared machine measures its load): big-extent requests (one 1 TiB request; 95 of
4 GiB through plan / mrc / trace-stats / writecache), blank-line and comment-line floods, nested JSON / TOML
and a sweep grid of 10^8 tasks. Each must end (a result or a clean refusal, exit 0 or 2) within 1 GB and 10 s
beyond the empty run; a bomb with a known answer (the footprint, the hit ratio at the footprint) must give it.

    python bench/fuzz.py                 # 10,000 cases per format, then the bombs
    python bench/fuzz.py --cases 500 --seed 3 --format mqsim
    python bench/fuzz.py --cases 0       # the bombs only
    python bench/fuzz.py --quick         # 300 cases per format, then the bombs
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

import numpy as np
import zstandard
from _common import ROOT, peak_rss_bytes  # _common puts the repository root on sys.path

from models.errors import INPUT_ERRORS
from models.traces import read_trace
from models.traces.formats import EXAMPLE_OPTIONS, EXAMPLES, read_memtrace_npz

SAMPLES = EXAMPLES
TOKENS = [b"0", b"-1", b"8.0", b"1e3", b"nan", b"inf", b"True", b"x", b",", b" ", b"\n", b"\t", b"\r\n", b'"', b"#",
          b"4294967296", b"18014398509481979", b"9223372036854775807", b"9223372036854775808",
          b"99999999999999999999", b"\xff\xfe", b"\x00", b"+", b"0x10", b"W", b"R", b"Q", b"C", b" L ", b"I  ",
          b"Hit", b"8,0", b"781000000", b"x" * 70_000,
          # issue 42: lone CRs before whitespace-only lines, BOMs, multi-page lackey accesses, ambiguous CSV headers
          b"\r", b"\r \n", b"\n\r\t\n", b"\xef\xbb\xbf", b" S 1000,12288\n", b"time,offset,size,is_write,dev\n",
          # big extents: 1 TiB in sectors, 4 GiB in sectors and in bytes
          b"2147483648", b"8388608", b"4294967296 "]
#: Binary formats (a BOM is no text marker there).
BINARY = ("oraclegeneral", "lcs", "vscsi", "npz")


def _npz_sample() -> bytes:
    buf = io.BytesIO()
    np.savez_compressed(buf, line_delta=np.array([1, 1, -1]), line_bytes=np.int64(64), kind=np.uint8([1, 2, 3]),
                        size=np.uint8([8, 8, 8]), meta=np.array('{"program": "x"}'))
    return buf.getvalue()


def mutate(rng: random.Random, data: bytes) -> bytes:
    b = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        i = rng.randint(0, len(b))
        op = rng.random()
        if op < 0.5:
            b[i:i + rng.randint(0, 4)] = rng.choice(TOKENS)
        elif op < 0.8 and b:
            j = min(i, len(b) - 1)
            b[j] ^= 1 << rng.randint(0, 7)
        else:
            b[i:i + rng.randint(1, 8)] = b""
    return bytes(b)


def read(fmt: str, data: bytes, **kw):
    if fmt == "npz":
        return read_memtrace_npz(data, **kw)
    return read_trace(data, fmt, **EXAMPLE_OPTIONS.get(fmt, {}), **kw)


def columns(t) -> tuple:
    names = ("address", "size", "kind") if hasattr(t, "address") else \
        ("time_ns", "is_write", "offset_bytes", "size_bytes", "device")
    return tuple(getattr(t, c).tobytes() for c in names)


def out_of_domain(t) -> bool:
    if hasattr(t, "address"):
        return bool(len(t) and ((t.size < 1).any() or (t.kind > 3).any()))
    return bool(len(t) and ((t.size_bytes <= 0).any() or (t.offset_bytes < 0).any() or (t.device < 0).any()))


def outcome(fmt: str, data: bytes, **kw) -> tuple[str, object]:
    try:
        t = read(fmt, data, **kw)
    except INPUT_ERRORS as e:
        return ("clean", None) if len(str(e)) < 1000 else ("wrong", "message quotes too much")
    except Exception:  # noqa: BLE001 - a crash is what we count
        return "crash", traceback.format_exc(limit=3)
    return ("wrong", "out-of-domain value") if out_of_domain(t) else ("ok", columns(t))


def case(rng: random.Random, fmt: str, base: bytes) -> tuple[str, str]:
    data = mutate(rng, base)
    kind, res = outcome(fmt, data)
    if kind in ("crash", "wrong"):
        return kind, f"{data[:200]!r}: {res}"
    if fmt not in BINARY and outcome(fmt, b"\xef\xbb\xbf" + data) != (kind, res):
        return "wrong", f"{data[:200]!r}: a leading BOM changes the result"
    if fmt != "npz":
        kind2, res2 = outcome(fmt, data, chunk_bytes=rng.randint(1, 64))
        if kind2 == "crash":
            return kind2, f"{data[:200]!r}: {res2}"
        if (kind2, res2) != (kind, res):
            return "wrong", f"{data[:200]!r}: depends on the chunk size"
        codec = rng.choice([None, gzip.compress, zstandard.ZstdCompressor().compress])
        if codec is not None:
            z = codec(data)
            if outcome(fmt, z) != (kind, res):
                return "wrong", f"{data[:200]!r}: compressed differs"
            cut = z[: rng.randint(4, len(z) - 1)]  # keep the magic bytes (a shorter cut is plain text)
            k3, r3 = outcome(fmt, cut)
            if k3 == "crash":
                return k3, f"truncated {codec}: {r3}"
            if k3 == "ok":
                return "wrong", f"{data[:200]!r}: truncated compressed file accepted"
    return kind, ""


#: Peak RSS ceiling of one bomb [bytes] and its time beyond an empty run [s] (issue 42's "must hold").
BOMB_RSS = 1_000_000_000
BOMB_EXTRA_S = 10.0
#: Kill a bomb after this long [s] (reported as a failure).
BOMB_TIMEOUT_S = 120.0


def _bomb_files(d: Path) -> dict[str, Path]:
    """The hostile inputs, written into ``d``."""
    f = {}
    f["tib"] = d / "tib.trace"
    f["tib"].write_text("0 0 0 2147483648 1\n")  # one 1 TiB request (sizes in sectors)
    f["big95"] = d / "big95.trace"
    f["big95"].write_text("".join(f"{i} 0 {i * 8388608} 8388608 0\n" for i in range(95)))  # 95 x 4 GiB
    f["flood"] = d / "flood.trace.zst"
    f["flood"].write_bytes(zstandard.ZstdCompressor().compress(b"0 0 8 8 1\n" + b"\n" * (64 << 20) + b"1 0 16 8 0\n"))
    # 95 x 4 GiB at 7 places 2 GiB apart (halves overlap): footprint 8 x 2**19 blocks, so at that cache size
    # every access but the first of each block hits: 1 - 4/95 = 0.9578947368
    f["big95r"] = d / "big95r.trace"
    f["big95r"].write_text("".join(f"{i} 0 {(i % 7) * 4194304} 8388608 0\n" for i in range(95)))
    f["comments"] = d / "comments.trace"
    f["comments"].write_bytes(b"0 0 8 8 1\n" + b"# a comment line\n" * (3 << 20) + b"1 0 16 8 0\n")
    f["tabs"] = d / "tabs.trace.gz"
    f["tabs"].write_bytes(gzip.compress(b"0 0 8 8 1\n" + b" \t \n# c\n" * (4 << 20) + b"1 0 16 8 0\n"))
    f["fio"] = d / "nested.json"
    f["fio"].write_text('{"jobs": ' + '{"a": ' * 100_000 + "1" + "}" * 100_001)  # an object nested 100,000 deep
    f["sweep_nested"] = d / "nested.toml"
    f["sweep_nested"].write_text("a = " + "[" * 100_000 + "]" * 100_000 + "\n")
    vals = ", ".join(str(k + 1) for k in range(100))
    f["sweep_grid"] = d / "grid.toml"
    f["sweep_grid"].write_text(f'[[traces]]\nname = "t"\nsource = "mqsim:tpcc-small"\n[[models]]\nmodel = "mrc"\n'
                               f'grid = {{ points = [{vals}], seed = [{vals}], block_size = [{", ".join(["4096"] * 100)}], '
                               f'shards_rate = [{", ".join(str((k + 1) / 1000) for k in range(100))}] }}\n')
    return f


#: (name, CLI arguments with {file} placeholders, text the output must hold when the run answers (exit 0): a
#: known answer, so an answer that is silently wrong fails).
BOMBS = [
    ("empty run", ["--help"], None),
    ("writecache 1 TiB request", ["writecache", "{tib}", "--cache-mb", "64"], "halo,64,1,0,"),  # a read: one extent
    ("writecache 95 x 4 GiB", ["writecache", "{big95}", "--cache-mb", "64"], None),
    ("plan 95 x 4 GiB", ["plan", "--block-trace", "{big95}", "--device", "pcm-samsung-20nm"],
     "needs data: more memory than the run's budget"),  # block roles refused by name, the storage replay answers
    ("mrc 95 x 4 GiB (every size)", ["mrc", "{big95}"], None),
    ("mrc 95 x 4 GiB --points 20", ["mrc", "{big95}", "--points", "20"], "99614720,0,0,exact"),
    ("mrc 95 x 4 GiB overlapping --sizes", ["mrc", "{big95r}", "--sizes", "4194304"],
     "4194304,0.9578947368"),
    ("mrc 1 TiB request --points 10", ["mrc", "{tib}", "--points", "10"], "268435456,0,0,exact"),
    ("trace-stats 95 x 4 GiB", ["trace-stats", "{big95}"], "footprint_blocks,99614720"),
    ("trace-stats 1 TiB request", ["trace-stats", "{tib}"], "footprint_blocks,268435456"),
    ("trace-stats 64 MiB of newlines (zstd)", ["trace-stats", "{flood}"], "requests,2"),
    ("trace-stats 48 MiB of blank/comment lines (gzip)", ["trace-stats", "{tabs}"], "requests,2"),
    ("trace-stats 48 MiB of comment lines", ["trace-stats", "{comments}"], "requests,2"),
    ("plan --fio nested JSON", ["plan", "--fio", "{fio}", "--device", "pcm-samsung-20nm"], None),
    ("sweep nested TOML", ["sweep", "{sweep_nested}", "--out", "{out}"], None),
    ("sweep 10^8-task grid", ["sweep", "{sweep_grid}", "--out", "{out}"], None),
]

_CHILD = """
import contextlib, io, json, sys
from cli.main import main
err, out = io.StringIO(), io.StringIO()
try:
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        rc = main(json.loads(sys.argv[1]))
except SystemExit as e:
    rc = e.code if isinstance(e.code, int) else 1
except BaseException as e:
    rc, err = 99, io.StringIO(f"{type(e).__name__}: {e}")
with open("/proc/self/status") as fh:  # the child's own peak (ru_maxrss would carry the parent's across exec)
    peak = next(int(line.split()[1]) for line in fh if line.startswith("VmHWM:")) * 1024
import resource
ru = resource.getrusage(resource.RUSAGE_SELF)  # this process's own CPU time (the work, whatever the machine's load)
print(json.dumps({"rc": rc, "err": err.getvalue()[-300:], "out": out.getvalue()[-20000:], "maxrss": peak,
                  "cpu": ru.ru_utime + ru.ru_stime}))
"""


def run_bombs() -> int:
    """Run :data:`BOMBS`, print one row each; the number that failed."""
    failed = 0
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryDirectory() as tmp:
        files = {k: str(v) for k, v in _bomb_files(Path(tmp)).items()}
        files["out"] = str(Path(tmp) / "out.parquet")
        print(f"\n{'bomb':48s} {'exit':>4s} {'peak MB':>8s} {'wall s':>6s} {'cpu-empty s':>11s}  verdict / message")
        base = None
        worst = {"rss": 0.0, "s": 0.0}
        for name, args, expect in BOMBS:
            argv = [a.format(**files) for a in args]
            t0 = time.perf_counter()
            try:
                p = subprocess.run([sys.executable, "-c", _CHILD, json.dumps(argv)], capture_output=True, text=True,
                                   env=env, timeout=BOMB_TIMEOUT_S, cwd=tmp)
                wall = time.perf_counter() - t0
                out = json.loads(p.stdout.strip().splitlines()[-1]) if p.stdout.strip() else \
                    {"rc": p.returncode, "err": p.stderr[-300:], "maxrss": float("nan"), "cpu": float("nan")}
            except subprocess.TimeoutExpired:
                wall, out = time.perf_counter() - t0, {"rc": "kill", "err": f"timeout {BOMB_TIMEOUT_S:.0f} s",
                                                       "maxrss": float("nan"), "cpu": float("nan")}
            if base is None:
                base = out["cpu"]
            extra = out["cpu"] - base  # CPU time beyond the empty run's: wall time on a shared machine is its load
            wrong = out["rc"] == 0 and expect is not None and expect not in out.get("out", "")
            ok = out["rc"] in (0, 2) and out["maxrss"] <= BOMB_RSS and extra <= BOMB_EXTRA_S and not wrong
            failed += not ok
            worst["rss"], worst["s"] = max(worst["rss"], out["maxrss"]), max(worst["s"], extra)
            msg = ("WRONG answer (expected " + expect + ") " if wrong else "") + \
                ("answered" if out["rc"] == 0 and expect else " ".join(str(out["err"]).split())[-110:])
            print(f"{name:48s} {out['rc']!s:>4s} {out['maxrss'] / 1e6:8.0f} {wall:6.1f} {extra:11.1f}  "
                  f"{'ok' if ok else 'FAIL'} {msg}", flush=True)
    print(f"bombs: {failed} failed; max peak RSS {worst['rss'] / 1e6:.0f} MB, max CPU time beyond the empty run "
          f"{worst['s']:.1f} s")
    return failed


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=10_000, help="cases per format (default 10,000)")
    ap.add_argument("--quick", action="store_true", help="300 cases per format, then the bombs (a few minutes)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--format", action="append", help="formats (default: all)")
    ap.add_argument("--no-bombs", action="store_true", help="skip the bombs (BOMBS)")
    args = ap.parse_args(argv)
    if args.quick:
        args.cases = min(args.cases, 300)
    samples = dict(SAMPLES, npz=_npz_sample())
    total = {"ok": 0, "clean": 0, "crash": 0, "wrong": 0}
    print(f"{'format':10s} {'ok':>7s} {'clean':>7s} {'crash':>7s} {'wrong':>7s} {'s':>6s}")
    for fmt in args.format or list(samples):
        rng = random.Random(f"{args.seed}:{fmt}")
        counts = {"ok": 0, "clean": 0, "crash": 0, "wrong": 0}
        shown = 0
        t0 = time.perf_counter()
        for _ in range(args.cases):
            kind, why = case(rng, fmt, samples[fmt])
            counts[kind] += 1
            if kind in ("crash", "wrong") and shown < 3:
                print(f"  {fmt} {kind}: {why}", file=sys.stderr)
                shown += 1
        for k in total:
            total[k] += counts[k]
        print(f"{fmt:10s} {counts['ok']:7d} {counts['clean']:7d} {counts['crash']:7d} {counts['wrong']:7d} "
              f"{time.perf_counter() - t0:6.1f}", flush=True)
    rss_mb = peak_rss_bytes() / 1e6
    print(f"{'total':10s} {total['ok']:7d} {total['clean']:7d} {total['crash']:7d} {total['wrong']:7d}")
    print(f"peak RSS: {rss_mb:.0f} MB")
    bombs_failed = 0 if args.no_bombs else run_bombs()
    return 1 if total["crash"] or total["wrong"] or bombs_failed else 0


if __name__ == "__main__":
    sys.exit(main())
