"""Statistics of memory-reference traces in the style of Park & Bahn's Tables 1-2.

The bundled traces are valgrind lackey recordings stored in the compact ``.npz`` format
(:mod:`models.traces.formats.npz`) and loaded by name with :func:`models.traces.load`
(``lackey:sqlite`` or ``sqlite``). Only data references (lackey ``L``, ``S``, ``M``) are
kept: instruction fetches go through a separate instruction TLB on real CPUs, and the
paper's Tables 1-2 count reads and writes only.

References
----------
.. [1] N. Nethercote, J. Seward, "Valgrind: a framework for heavyweight dynamic binary
   instrumentation", PLDI 2007 (Lackey: the example tool, ``--trace-mem=yes``).
.. [2] Y. Park, H. Bahn, "Issues in File Caching and Virtual Memory Paging with Fast SCM
   Storage", ASTESJ 5(5), 2020, doi:10.25046/aj050581 (seed 004), Tables 1-2.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from models.traces.core import MemTrace
from models.traces.loader import bundled_traces, load

__all__ = ["memtrace_stats", "memtrace_table"]


def memtrace_stats(trace: MemTrace, *, page_size_bytes: int = 4096) -> dict:
    """Table 1/2-style statistics of a memory trace.

    Reads are loads (``L``) and the read half of modifies (``M``); writes are stores (``S``)
    and modifies; ``total`` counts references (an ``M`` once). The footprint is the number
    of distinct ``page_size_bytes`` pages touched times the page size [MB = 1e6 bytes];
    the paper does not state its footprint unit or page size, so the 4 KiB-page footprint is
    given in MiB as well.

    >>> s = memtrace_stats(MemTrace([0, 8, 4096], [8, 8, 8], [1, 2, 3]))
    >>> s["reads"], s["writes"], s["total"], s["pages"]
    (2, 2, 3, 2)
    """
    k = trace.kind
    n_l = int(np.count_nonzero(k == 1))
    n_s = int(np.count_nonzero(k == 2))
    n_m = int(np.count_nonzero(k == 3))
    n_i = int(np.count_nonzero(k == 0))
    pages = int(len(np.unique(trace.address >> np.uint64(int(page_size_bytes).bit_length() - 1))))
    fp = pages * page_size_bytes
    return {
        "trace": trace.name,
        "footprint_MB": fp / 1e6,
        "footprint_MiB": fp / 2**20,
        "pages": pages,
        "page_size_bytes": int(page_size_bytes),
        "reads": n_l + n_m,
        "writes": n_s + n_m,
        "loads": n_l,
        "stores": n_s,
        "modifies": n_m,
        "instructions": n_i,
        "total": n_l + n_s + n_m,  # data references: instruction fetches are counted separately
    }


def memtrace_table(names: list[str] | None = None, *, max_refs: int | None = None) -> pd.DataFrame:
    """Table 1/2 analogue for the bundled memory traces: footprint [MB], reads, writes, total, program.

    ``names`` are bundled memory-trace names (default: all); ``max_refs`` keeps the first
    references of each.

    >>> memtrace_table(["sqlite"], max_refs=1000)[["trace", "total"]].to_dict("records")
    [{'trace': 'sqlite', 'total': 1000}]
    """
    rows = []
    for n in names if names is not None else [b.split(":", 1)[1] for b in bundled_traces("memory")]:
        t = load(n, kind="memory", max_requests=max_refs)
        row = memtrace_stats(t)
        row["program"] = t.meta.get("program", "")
        row["description"] = t.meta.get("description", "")
        rows.append(row)
    return pd.DataFrame(rows)
