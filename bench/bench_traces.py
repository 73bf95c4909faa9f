"""Benchmark: trace readers and block splitting vs a plain per-line Python parser.

Measured in the same run on generated in-memory text (seeded):

- MQSim ASCII (``read_mqsim``, pandas C engine in blocks) vs a per-line ``str.split`` loop;
- valgrind lackey (``read_lackey``, NumPy over raw bytes) vs a per-line Python loop;
- ``split_blocks`` throughput [block accesses/s].

Prints requests/s for each and the speed-up; the last line is ``ratio: N`` (MQSim reader
speed-up over the Python reference).

  .venv/bin/python bench/bench_traces.py [--requests 2000000]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.traces.blocks import split_blocks  # noqa: E402
from models.traces.formats import read_lackey, read_mqsim  # noqa: E402


def _mqsim_text(n: int, rng) -> bytes:
    t = np.cumsum(rng.integers(1000, 100_000, n))
    lines = np.char.add(t.astype(str), " ")
    for col in (rng.integers(0, 4, n), rng.integers(0, 1 << 30, n), rng.choice([8, 16, 32, 64], n),
                rng.integers(0, 2, n)):
        lines = np.char.add(np.char.add(lines, col.astype(str)), " ")
    return ("\n".join(lines.tolist()) + "\n").encode()


def _lackey_text(n: int, rng) -> bytes:
    kinds = np.array(["I ", " L", " S", " M"])[rng.integers(0, 4, n)]
    addr = rng.integers(0x400000, 0x7FFFFFFF, n)
    parts = [f"{k} {a:08x},{s}" for k, a, s in zip(kinds.tolist(), addr.tolist(), rng.choice([1, 4, 8], n).tolist(),
                                                     strict=True)]
    return ("\n".join(parts) + "\n").encode()


def _py_mqsim(data: bytes):
    t, d, lba, size, typ = [], [], [], [], []
    for line in data.decode().splitlines():
        f = line.split()
        if not f:
            continue
        t.append(int(f[0]))
        d.append(int(f[1]))
        lba.append(int(f[2]))
        size.append(int(f[3]))
        typ.append(int(f[4]))
    return np.array(t), np.array(lba), np.array(size)


def _py_lackey(data: bytes):
    addr, size = [], []
    for line in data.decode().splitlines():
        if line[:2] in ("I ", " L", " S", " M"):
            a, s = line[3:].strip().split(",")
            addr.append(int(a, 16))
            size.append(int(s))
    return np.array(addr, dtype=np.uint64), np.array(size)


def _time(fn, *a, **k):
    t0 = time.perf_counter()
    out = fn(*a, **k)
    return out, time.perf_counter() - t0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=2_000_000)
    args = ap.parse_args(argv)
    rng = np.random.default_rng(42)
    n = args.requests

    text = _mqsim_text(n, rng)
    ours, t_ours = _time(read_mqsim, text)
    ref, t_ref = _time(_py_mqsim, text)
    assert np.array_equal(ours.offset_bytes, ref[1] * 512) and np.array_equal(ours.size_bytes, ref[2] * 512)
    mq_ratio = t_ref / t_ours
    print(f"mqsim  {n:,} lines {len(text) / 2**20:.0f} MiB: ours {n / t_ours / 1e6:.2f} M req/s, "
          f"python {n / t_ref / 1e6:.2f} M req/s, speed-up {mq_ratio:.1f}x")

    lk = _lackey_text(n, rng)
    m, t_m = _time(read_lackey, lk)
    r, t_r = _time(_py_lackey, lk)
    assert np.array_equal(m.address, r[0]) and np.array_equal(m.size, r[1])
    print(f"lackey {n:,} lines: ours {n / t_m / 1e6:.2f} M refs/s, python {n / t_r / 1e6:.2f} M refs/s, "
          f"speed-up {t_r / t_m:.1f}x")

    acc, t_s = _time(split_blocks, ours, 4096)
    print(f"split_blocks: {len(acc):,} block accesses ({acc.n_unique:,} distinct) in {t_s:.2f} s = "
          f"{len(acc) / t_s / 1e6:.1f} M accesses/s")
    print(f"ratio: {mq_ratio:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
