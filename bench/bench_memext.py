"""Benchmark: memory-extension kernels and write-reduction counting (seed 002 models).

Measured in the same run (after a warm-up call that compiles the numba kernels):

1. the dedicated memory-extension kernel (``models.memory.memory_extension._memext_kernel``: the one replay
   loop ``_memext_resume`` over the whole stream, which adds
   the age-based policy, prefetching and time tracking) vs the shared FIFO kernel of
   ``models.sim.policies`` on the same 5M-reference page stream (results must agree);
   prefetching (depth 8) throughput too; the resumable kernel (``MemExtRun``, issue 41's streamed traces) fed
   1 M-reference pieces vs the whole-stream kernel on the same stream with the default bounded buffer (results
   must be equal);
2. DCW cell counting (``models.endurance.write_reduction.page_costs``) vs a plain NumPy reference
   (``np.unpackbits(old ^ new).sum``) on the bundled real page pairs (results must agree), and
   the MFWR image builder throughput [pages/s].

The last line is ``ratio: N`` = NumPy DCW reference time / our DCW time.

  .venv/bin/python bench/bench_memext.py [--references 5000000]
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
from _common import print_ratio, timed

from models.endurance import write_reduction as wr
from models.memory import memory_extension as me


def _pieces(stream, cfg, step: int = 1_000_000):
    """simulate_memext's result from the resumable kernel fed ``step`` references at a time."""
    run = me.MemExtRun(stream.vpn, cfg)
    for a in range(0, len(stream), step):
        run.feed(stream.ids[a:a + step], stream.is_write[a:a + step])
    return run.result()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--references", type=int, default=5_000_000)
    args = ap.parse_args(argv)

    s = me.synthetic_page_stream("indirection", footprint_pages=65_536, references=args.references,
                                 refs_per_visit=4, seed=1)
    # unbounded eviction buffer: the shared kernel's closed-form path applies (a finite buffer needs the
    # dedicated kernel's time tracking)
    cfg = me.MemExtConfig(dram_frac=0.25, eviction_buffer_pages=None)
    small = me.synthetic_page_stream("indirection", footprint_pages=256, references=4096, seed=1)
    me.simulate_memext(small, cfg, use_sim_kernels=False)  # compile
    me.simulate_memext(small, cfg)
    me.simulate_memext(small, cfg.model_copy(update={"prefetch_depth": 8}))
    t_shared, a = timed(me.simulate_memext, s, cfg)
    t_ours, b = timed(me.simulate_memext, s, cfg, use_sim_kernels=False)
    assert (a.full_misses, a.writebacks, a.evictions) == (b.full_misses, b.writebacks, b.evictions), "kernels disagree"
    assert np.isclose(a.time_ns, b.time_ns, rtol=1e-9), "kernels disagree on time"
    seq = me.synthetic_page_stream("streaming", footprint_pages=65_536, references=args.references,
                                   refs_per_visit=4, seed=1)
    t_pf, r = timed(me.simulate_memext, seq, cfg.model_copy(update={"prefetch_depth": 8}))
    n = len(s)
    print(f"memext FIFO, shared models.sim kernel: {n / t_shared / 1e6:.1f} M refs/s")
    print(f"memext FIFO, dedicated kernel:         {n / t_ours / 1e6:.1f} M refs/s "
          f"(x{t_shared / t_ours:.2f} vs shared)")
    print(f"memext FIFO + stride prefetch d=8:     {len(seq) / t_pf / 1e6:.1f} M refs/s "
          f"({r.prefetched_pages:,} pages prefetched)")
    bounded = me.MemExtConfig(dram_frac=0.25)  # the default bounded eviction buffer: the dedicated kernel
    _pieces(small, bounded)  # compile
    t_whole, w1 = timed(me.simulate_memext, s, bounded)
    t_res, w2 = timed(_pieces, s, bounded)
    assert w1 == w2, "the resumable kernel disagrees with the whole-stream kernel"
    print(f"memext resumable kernel, 1 M-ref pieces: {n / t_res / 1e6:.1f} M refs/s "
          f"(x{t_whole / t_res:.2f} vs the whole-stream kernel, {n / t_whole / 1e6:.1f} M refs/s)")

    pages = wr.load_page_pairs()
    wr.page_costs(wr.synthetic_page_pairs(4, seed=0))  # compile
    t_dcw, c = timed(wr.page_costs, pages, schemes=("inclusive+dcw+pin",))
    t_np, ref = timed(lambda: np.unpackbits(pages.old ^ pages.new, axis=1).sum(axis=1))
    assert np.array_equal(c.bits["inclusive+dcw+pin"], ref), "DCW counts disagree"
    t_mf, _ = timed(wr.page_costs, pages, schemes=("inclusive+mfwr-1w",))
    print(f"DCW+PIN cells, numba: {len(pages) / t_dcw:,.0f} pages/s; NumPy unpackbits: {len(pages) / t_np:,.0f} pages/s")
    print(f"MFWR-1W images: {len(pages) / t_mf:,.0f} pages/s")
    print_ratio(t_np, t_dcw)
    return 0


if __name__ == "__main__":
    sys.exit(main())
