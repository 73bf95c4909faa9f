"""Seed 004's paging conclusions (§4-5, Figs. 6-13) checked on the bundled real traces.

The paper's traces (desktop apps, Table 1; Android apps, Table 2) are not public; ours are
valgrind lackey recordings of xz, sort, gcc (cc1), sqlite3 and a NumPy script under CPython
(data/SOURCES.md). Tests use
the first PREFIX data references of each trace (fast); the benchmark and the report use
the whole traces. Memory is "constrained" at 25 % of the 4 KiB-page footprint, the
situation the paper describes in §4.2 ("when the memory size is insufficient").

Where our traces disagree with the paper we test what is true and say so:

- "at 100x DRAM the smallest page (512 B) wins for all" (Fig. 9b/c) holds for xz only.
  sort and sqlite stream through their data (mostly compulsory faults on densely used
  pages), so with T_PF = latency + page/bandwidth larger pages win at every latency, as
  in the paper's Android results (Fig. 13); gcc's best page shrinks with slower storage
  but stops at 1-2 KiB.
- "at storage ~ DRAM latency larger pages (>= 4 KiB) win" (Fig. 9a) holds for xz, sort
  and sqlite; on its 1 M-reference prefix gcc under constrained memory prefers 2 KiB even
  at 1x (on the whole 5 M-reference trace it prefers 8 KiB, in line with the paper).
- numpy's window is one streaming copy (8-byte load + 8-byte store per word, every
  reference in a page seen once before moving on, no reuse): every page fault is
  compulsory, so large pages win at 1x and at 100x (2 MiB on the whole window, 64 KiB on
  the 1 M-reference prefix used here).
What holds on every trace: the best page size never grows when storage gets slower.
"""

from __future__ import annotations

import numpy as np
import pytest

from models.memory import paging as pg
from models.traces import bundled_traces, load
from models.traces.memtraces import memtrace_stats, memtrace_table

PREFIX = 1_000_000
FRACTION = 0.25
TRACES = ["xz", "sort", "gcc", "sqlite", "numpy"]


@pytest.fixture(scope="module")
def profiles():
    return {n: pg.profile_trace(load(n, max_requests=PREFIX), memory_fraction=[FRACTION, 1.0]) for n in TRACES}


def best(prof, k, frac=FRACTION):
    t = pg.paging_table(prof, pg.PagingInputs(memory_fraction=(frac,), latency_multiples=(k,)))
    return pg.best_page_sizes(t).iloc[0]


def test_bundle_has_four_real_traces_with_thousands_of_small_pages():
    assert {f"lackey:{n}" for n in TRACES} <= set(bundled_traces("memory"))
    tab = memtrace_table(TRACES)
    assert (tab["total"] >= 5_000_000).all()
    rw = tab.set_index("trace")[["reads", "writes"]]
    # like Table 1/2: loads dominate (M counts in both) -- except numpy's window, a copy loop (1 load : 1 store)
    assert (rw.drop("numpy").reads > rw.drop("numpy").writes).all()
    assert rw.loc["numpy", "reads"] == rw.loc["numpy", "writes"]
    # issue 4: at least four real traces with >= 2000 distinct 4 KiB pages in the bundled window
    # (xz, sort, sqlite, numpy; gcc has 780 = 3.2 MB in its 5 M-reference window, see data/SOURCES.md),
    # and thousands of 512 B pages (the smallest page studied) for every trace
    pages4k = dict(zip(tab["trace"], tab["pages"], strict=True))
    assert sum(p >= 2000 for p in pages4k.values()) >= 4, pages4k
    assert all(pages4k[n] >= 2000 for n in ("xz", "sort", "sqlite", "numpy")), pages4k
    assert pages4k["gcc"] > 700, pages4k
    for n in TRACES:
        assert memtrace_stats(load(n), page_size_bytes=512)["pages"] > 4000, n


def test_tlb_hit_rate_rises_with_page_size_and_flattens(profiles):
    # Figs. 6 and 11: a fixed TLB covers more memory with larger pages; the gain shrinks
    for n, prof in profiles.items():
        hr = prof.tlb_hit_rates([64])[:, 0]
        assert np.all(np.diff(hr) >= 0), n
        gains = np.diff(hr[:8])  # 512 B .. 64 KiB doublings
        assert gains[:3].sum() > gains[4:].sum(), n  # first doublings gain more than the last ones
        assert hr[-1] > 0.999, n  # 2 MiB pages: practically no TLB misses


def test_tlb_hit_rate_rises_steeply_then_slowly_with_tlb_size(profiles):
    # Fig. 10: sharp rise for the first ~20 entries, gradual afterwards (4 KiB pages)
    for n, prof in profiles.items():
        h = prof.pages[4096].lru_hit_rate([1, 20, 64, 256])
        assert h[1] - h[0] > h[3] - h[1], n


def test_storage_as_fast_as_dram_favours_pages_of_4kib_or_more(profiles):
    # Fig. 9(a). True for xz, sort and sqlite; gcc (cc1) prefers 2 KiB pages under constrained memory
    got = {n: int(best(p, 1)["best_page_amat"]) for n, p in profiles.items()}
    assert all(got[n] >= 4096 for n in ("xz", "sort", "sqlite", "numpy")), got
    assert got["gcc"] == 2048, got  # disagreement with the paper, documented in the module docstring
    # with the whole footprint in memory every trace prefers >= 4 KiB at 1x (TLB reach dominates)
    assert all(int(best(p, 1, 1.0)["best_page_amat"]) >= 4096 for p in profiles.values())


def test_slow_storage_favours_small_pages(profiles):
    # Fig. 9(b, c): at 100x DRAM the smallest page wins -- reproduced on xz only
    got = {n: int(best(p, 100)["best_page_amat"]) for n, p in profiles.items()}
    assert got["xz"] == 512, got
    # sort and sqlite: large pages win at every latency, as in the paper's Android study (Fig. 13)
    assert got["sort"] >= 4096 and got["sqlite"] >= 4096, got
    # numpy (a streaming copy, only compulsory faults): large pages win at every latency too -- 64 KiB on
    # this 1 M prefix, 2 MiB on the whole 5 M-reference window (data/SOURCES.md)
    assert got["numpy"] >= 65536, got
    # what holds everywhere: the best page never grows as storage slows down
    for n, p in profiles.items():
        seq = [int(best(p, k)["best_page_amat"]) for k in pg.LATENCY_MULTIPLES]
        assert seq == sorted(seq, reverse=True), (n, seq)


def test_fault_rate_alone_is_not_the_metric(profiles):
    # §4.3: the page size with the fewest faults is not the one with the lowest AMAT
    differs = []
    for n, p in profiles.items():
        for k in pg.LATENCY_MULTIPLES:
            b = best(p, k)
            if b["best_page_fault"] != b["best_page_amat"]:
                differs.append((n, k))
    assert ("xz", 1.0) in differs, differs


def test_tradeoff_decomposition_at_1x_and_100x(profiles):
    # at 1x larger-than-4K pages gain through address translation; at 100x xz's 512 B pages win on data access
    b1 = best(profiles["xz"], 1)
    assert b1["d_addr_ns"] < 0
    b100 = best(profiles["xz"], 100)
    assert b100["d_data_ns"] < 0 < b100["d_addr_ns"]
