"""Generate an MSR Cambridge CSV of ``n`` requests (bench input; plain or gzip), in blocks of rows.

Not a benchmark itself (``make bench`` runs ``bench/bench_*.py`` only). The requests are a seeded
mix of a hot set and a uniform cold range so reuse statistics have something to count.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np

__all__ = ["write_msr_csv"]


def _rows(rng: np.random.Generator, start: int, m: int) -> bytes:
    """``m`` CSV lines from request ``start`` on; formatted by Arrow's compute kernels (no Python loop per line)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    ticks = 128166372003061629 + (start + np.arange(m, dtype=np.int64)) * 1000
    hot = rng.random(m) < 0.7
    block = np.where(hot, rng.integers(0, 50_000, m), rng.integers(0, 20_000_000, m))
    size = 512 * rng.choice(np.array([1, 8, 16, 64, 128]), m, p=[0.1, 0.5, 0.2, 0.15, 0.05])
    write = rng.random(m) < 0.4
    resp = rng.integers(100, 100_000, m)
    disk = rng.integers(0, 3, m)

    def text(a: np.ndarray):
        return pc.cast(pa.array(a), pa.string())

    typ = pc.if_else(pa.array(write), "Write", "Read")
    last = pc.binary_join_element_wise(text(resp), pa.scalar(""), "\n")  # the line's end rides on its last field
    lines = pc.binary_join_element_wise(text(ticks), pa.scalar("hm"), text(disk), typ, text(block * 4096),
                                        text(size), last, ",")
    off = np.frombuffer(lines.buffers()[1], np.int32, m + 1, offset=4 * lines.offset)
    return lines.buffers()[2].to_pybytes()[off[0]:off[-1]]


def write_msr_csv(path: str | Path, n: int, *, seed: int = 41, compress: bool = False, rows: int = 500_000) -> Path:
    """Write ``n`` MSR requests to ``path`` (gzip level 1 when ``compress``); return the path."""
    path = Path(path)
    rng = np.random.default_rng(seed)
    opener = (lambda p: gzip.open(p, "wb", compresslevel=1)) if compress else (lambda p: open(p, "wb"))
    with opener(path) as fh:
        for start in range(0, n, rows):
            fh.write(_rows(rng, start, min(rows, n - start)))
    return path
