"""Benchmark: the HDD stream model's compiled kernels vs the vectorised NumPy form they replaced (seed 003).

The HDD stream behind a write cache (:func:`models.storage.hdd.stream_service_ms`, positioned rotational
latency, generic 7200 rpm drive) on ``--requests`` requests: half LBN-sorted 4 KiB writes a few blocks apart
(HALO destages), half random reads. Measured in the same run, best of ``--repeat``, after a warm-up call:

- the model (``stream_service_ms``: one compiled pass for the terms, one for the service times);
- the reference: the vectorised NumPy form before the kernels (``reference_service_ms`` of
  ``tests/models/storage/test_hdd_stream_kernel.py``, which checks the two agree bit for bit).

Each line says the load average at its start (the machine is shared). The last line is ``ratio: N`` =
reference time / kernel time.

  .venv/bin/python bench/bench_hdd_stream.py [--requests 1000000]
"""

from __future__ import annotations

import argparse
import os

import numpy as np
from _common import print_ratio, timed

from models.storage import hdd
from tests.models.storage.test_hdd_stream_kernel import reference_service_ms


def _stream(spec, n: int, rng: np.random.Generator):
    """(lbn, nblocks, is_write): ``n // 2`` sorted writes a few blocks apart, then random reads."""
    k = n // 2
    writes = spec.block_count // 5 + np.cumsum(rng.integers(8, 64, k))
    reads = rng.integers(0, spec.block_count - 64, n - k)
    lb = np.concatenate([writes, reads]) % (spec.block_count - 64)
    return lb, np.full(n, 8), np.arange(n) < k


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    spec = hdd.generic_drive()
    lb, nb, w = _stream(spec, a.requests, np.random.default_rng(0))
    hdd.stream_service_ms(spec, lb[:10], nb[:10], w[:10], rotation="positioned")  # warm-up: compiled kernels
    print(f"load {os.getloadavg()[0]:.2f}")
    t_kernel, got = timed(hdd.stream_service_ms, spec, lb, nb, w, rotation="positioned", repeat=a.repeat)
    print(f"kernels:   {t_kernel:.3f} s ({a.requests / t_kernel / 1e6:.1f} M requests/s); load {os.getloadavg()[0]:.2f}")
    t_ref, want = timed(reference_service_ms, spec, lb, nb, w, "positioned", repeat=a.repeat)
    print(f"reference: {t_ref:.3f} s ({a.requests / t_ref / 1e6:.1f} M requests/s); load {os.getloadavg()[0]:.2f}")
    print(f"same bits: {np.array_equal(got.view(np.int64), want.view(np.int64))}")
    print_ratio(t_ref, t_kernel)


if __name__ == "__main__":
    main()
