"""DiskSim validation traces: ``R|W Hit|Miss lbn nsectors service_us interarrival_us``.

References
----------
Bucy, Schindler, Schlosser, Ganger, "The DiskSim Simulation Environment Version 4.0
Reference Manual", CMU-PDL-08-101, 2008 (validation traces).
"""

from __future__ import annotations

import numpy as np

from models.traces.core import BlockTrace
from models.traces.formats.parsing import (
    I64_MAX,
    Chunk,
    check_sector_size,
    finish_chunk,
    float_column,
    op_column,
    parse_source,
    read_frame,
    scaled_column,
)
from models.traces.source import CHUNK_BYTES, MAX_INPUT_BYTES, MAX_LINE_BYTES

__all__ = ["read_disksim_validate", "DESCRIPTION", "PATTERN"]

DESCRIPTION = "DiskSim validation: R|W Hit|Miss lbn nsectors service_us interarrival_us"
#: A data line, for format detection.
PATTERN = r"^\s*[RW]\s+[A-Za-z]+\s+\d+\s+\d+\s+[\d.]+\s+[\d.]+\s*$"
_FIELDS = ["op", "cache", "lbn", "nsectors", "service_us", "interarrival_us"]


def read_disksim_validate(src, *, sector_size: int = 512, name: str | None = None, max_requests: int | None = None,
                          progress=None, chunk_bytes: int = CHUNK_BYTES,
                max_line_bytes: int = MAX_LINE_BYTES, max_input_bytes: int = MAX_INPUT_BYTES) -> BlockTrace:
    """Read a DiskSim validation trace (``R|W Hit|Miss lbn nsectors service_us interarrival_us``).

    These traces (DiskSim ``valid/*.trace``) record a measured drive's service time per
    request. Arrival times are the cumulative sum of the interarrival column; the measured
    service times go to ``meta["service_us"]`` [us], the interarrival times to
    ``meta["interarrival_us"]`` [us] and the drive-cache label (Hit, Miss, Doub, Trip) to
    ``meta["cache"]``. Sectors are 512 bytes.

    Examples
    --------
    >>> t = read_disksim_validate(b"W Hit 8 2 663.0 10.0\\nR Miss 0 1 1.5 5.0\\n")
    >>> t.time_ns.tolist(), t.size_bytes.tolist(), t.meta["service_us"].tolist()
    ([0, 5000], [1024, 512], [663.0, 1.5])
    """
    check_sector_size(sector_size)

    def parse(block, line0, state):
        ck = Chunk("disksim", block, line0)
        df = read_frame(ck, _FIELDS, r"\s+")
        op = op_column(df, "op", "op", ck, {"r": False, "w": True})
        inter = float_column(df, "interarrival_us", "interarrival_us", ck)
        if (inter < 0).any():
            r = int(np.argmax(inter < 0))
            ck.fail(r, "interarrival_us", "is negative", str(inter[r]))
        service = float_column(df, "service_us", "service_us", ck)
        if (service < 0).any():
            r = int(np.argmax(service < 0))
            ck.fail(r, "service_us", "is negative", str(service[r]))
        with np.errstate(over="ignore"):  # an overflow to inf is reported just below
            t_us = np.cumsum(inter) + state.get("t_us", 0.0)
            late = ~(np.round(t_us * 1e3) < 2.0**63)
        if late.any():
            r = int(np.argmax(late))
            ck.fail(r, "interarrival_us", f"makes the arrival time exceed {I64_MAX // 1000} us",
                    df["interarrival_us"].iloc[r])
        if len(t_us):
            state["t_us"] = float(t_us[-1])
        cache = df["cache"].astype("string").to_numpy(dtype=object, na_value="")
        cols = {
            "time_ns": np.round(t_us * 1e3).astype(np.int64),
            "is_write": op,
            "offset_bytes": scaled_column(df, "lbn", "lbn", ck, sector_size),
            "size_bytes": scaled_column(df, "nsectors", "nsectors", ck, sector_size),
            "device": np.zeros(len(df), np.int32),
            "meta:service_us": service,
            "meta:interarrival_us": inter,
            "meta:cache": cache.astype(str),
        }
        return finish_chunk(ck, cols, "lbn", "nsectors")

    return parse_source(src, parse, fmt="disksim", name=name, max_requests=max_requests, progress=progress,
                        chunk_bytes=chunk_bytes, max_line_bytes=max_line_bytes,
                        max_input_bytes=max_input_bytes, meta={"sector_size": sector_size}, comment="#")
