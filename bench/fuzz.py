"""Fuzz campaign over the trace readers (issue 20): N mutated files per format, outcome counts, peak RSS.

Each case mutates a valid sample of a format (token insertions, byte flips, cuts), optionally
gzip/zstd-compresses or truncates it, and reads it twice (default chunk size and a small one).
Outcomes: ``ok`` (a trace), ``clean`` (one of :data:`models.errors.INPUT_ERRORS` with a short
message), ``crash`` (any other exception) and ``wrong`` (accepted with out-of-domain values, a
truncated compressed file accepted, or a result that depends on the chunk size or on a leading
UTF-8 BOM). The tokens include issue 42's shapes (lone CRs, BOMs, multi-page lackey accesses, an
ambiguous CSV header). MQSim cases
also compare against an exact oracle. Goal: 0 crash, 0 wrong, peak RSS <= 1 GB.

    python bench/fuzz.py                 # 10,000 cases per format
    python bench/fuzz.py --cases 500 --seed 3 --format mqsim
"""

from __future__ import annotations

import argparse
import gzip
import io
import random
import resource
import sys
import time
import traceback

import numpy as np
import zstandard
from _common import ROOT  # noqa: F401 - puts the repository root on sys.path

from models.errors import INPUT_ERRORS
from models.traces import read_trace
from models.traces.formats import EXAMPLE_OPTIONS, EXAMPLES, read_memtrace_npz

SAMPLES = EXAMPLES
TOKENS = [b"0", b"-1", b"8.0", b"1e3", b"nan", b"inf", b"True", b"x", b",", b" ", b"\n", b"\t", b"\r\n", b'"', b"#",
          b"4294967296", b"18014398509481979", b"9223372036854775807", b"9223372036854775808",
          b"99999999999999999999", b"\xff\xfe", b"\x00", b"+", b"0x10", b"W", b"R", b"Q", b"C", b" L ", b"I  ",
          b"Hit", b"8,0", b"781000000", b"x" * 70_000,
          # issue 42: lone CRs before whitespace-only lines, BOMs, multi-page lackey accesses, ambiguous CSV headers
          b"\r", b"\r \n", b"\n\r\t\n", b"\xef\xbb\xbf", b" S 1000,12288\n", b"time,offset,size,is_write,dev\n"]
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


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=10_000, help="cases per format (default 10,000)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--format", action="append", help="formats (default: all)")
    args = ap.parse_args(argv)
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
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{'total':10s} {total['ok']:7d} {total['clean']:7d} {total['crash']:7d} {total['wrong']:7d}")
    print(f"peak RSS: {rss_mb:.0f} MB")
    return 1 if total["crash"] or total["wrong"] else 0


if __name__ == "__main__":
    sys.exit(main())
