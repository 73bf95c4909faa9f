"""The planner's reason in words for a Filebench workload (seed 000 §4.6's four features)."""

from __future__ import annotations

import math

from models.storage import workload as wf

__all__ = ["describe_filebench"]


def describe_filebench(features: wf.WorkloadFeatures, hit: float, speedup: float, ref: str) -> str:
    """§4.6 reason in words, e.g. ``"fsync-heavy, 1:1 R/W, low locality -> PCM-DAX 180× faster than HDD"``.

    ``features`` from :func:`models.storage.workload.workload_features`, ``hit`` the
    page-cache hit ratio [-], ``speedup`` PCM-DAX over ``ref`` [x].

    >>> f = wf.WorkloadFeatures(fsyncs_per_100_ops=15.4, write_share=0.5, reads=2, writes=2,
    ...                         fileset_bytes=8e8, nfiles=50_000, iosize_bytes=1 << 20, file_size_bytes=16384)
    >>> describe_filebench(f, 0.5, 180, "HDD")
    'fsync-heavy, 1:1 R/W, low locality (50% cache hits), 1 MiB I/O -> PCM-DAX 180× faster than HDD'
    """
    parts = []
    f = features.fsyncs_per_100_ops
    parts.append("fsync-heavy" if f >= 5 else ("some fsyncs" if f > 0 else "no fsync"))
    r, w = features.reads, features.writes
    g = math.gcd(int(r), int(w)) or 1
    parts.append(f"{int(r) // g}:{int(w) // g} R/W" + (" (write-intensive)" if w > r else ""))
    parts.append(f"{'low' if hit < 0.9 else 'high'} locality ({hit:.0%} cache hits)")
    io = features.iosize_bytes
    if io == io:
        parts.append(f"{io / (1 << 20):g} MiB I/O" if io >= 1 << 20 else f"{io / 1024:g} KiB I/O")
    def num(x):
        return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"

    verdict = (f"PCM-DAX {num(speedup)}× faster than {ref}" if speedup >= 1
               else f"PCM-DAX {num(1 / speedup)}× slower than {ref}")
    return ", ".join(parts) + " -> " + verdict
