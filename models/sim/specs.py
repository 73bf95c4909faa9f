"""The cache simulators' registrations (:mod:`models.spec`): one policy at one size, and the LRU hit-ratio curve."""

from __future__ import annotations

from models.spec import REQUIRED, SWEEP_BLOCK_BYTES, ModelSpec, SweepHook, register


def sweep_cache_sim(ctx, device, p: dict):
    """Sweep adapter: one cache policy at one size (``cache_blocks`` or ``cache_fraction`` of the footprint)."""
    from models.sim import simulate

    acc = ctx.blocks(p["block_size"])
    if (p["cache_blocks"] is None) == (p["cache_fraction"] is None):
        raise ValueError("cache_sim: give exactly one of cache_blocks [blocks] or cache_fraction [-]")
    c = p["cache_blocks"] if p["cache_blocks"] is not None else max(1, round(p["cache_fraction"] * acc.n_unique))
    r = simulate(acc.block, int(c), p["policy"], is_write=acc.is_write, ghost_blocks=p["ghost_blocks"])
    return r.to_frame().assign(footprint_blocks=acc.n_unique)


def sweep_mrc(ctx, device, p: dict):
    """Sweep adapter: the LRU hit-ratio curve at log-spaced sizes, exact or SHARDS."""
    from models.sim import hit_ratio_curve, shards_mrc
    from models.sim.primitives import access_bytes
    from models.sim.stack_distance import log_sizes

    acc = ctx.blocks(p["block_size"])
    sizes = log_sizes(acc.n_unique, int(p["points"]))
    w = access_bytes(ctx.trace, acc)
    if p["shards_rate"] is not None:
        curve = shards_mrc(acc.block, rate=float(p["shards_rate"]), sizes=sizes, weights=w, seed=int(p["seed"]))
    else:
        curve = hit_ratio_curve(acc.block, sizes=sizes, weights=w)
    return curve.to_frame()


register(ModelSpec(
    name="cache_sim",
    title="one cache policy (LRU, FIFO, CLOCK, admission control) at one size: hits, misses, write-backs",
    module="models.sim.policies",
    evaluate="models.sim.policies:simulate",
    result="models.sim.policies:SimResult",
    provenance=("sim.",),
    seeds=("004",),
    cli=("cache-sim",),
    page="file-cache-sim",
    sweep=(SweepHook("cache_sim", "block", None,
                     {"policy": REQUIRED, "cache_blocks": None, "cache_fraction": None,
                      "block_size": SWEEP_BLOCK_BYTES, "ghost_blocks": None},
                     "models.sim.specs:sweep_cache_sim",
                     "one cache policy (lru, fifo, clock, ac) at one size [blocks or fraction of footprint]"),),
))

register(ModelSpec(
    name="mrc",
    title="miss-ratio curves: exact LRU (Mattson stack distances), SHARDS, MiniSim for FIFO/CLOCK",
    module="models.sim.stack_distance",
    evaluate="models.sim.stack_distance:hit_ratio_curve",
    result="models.sim.stack_distance:HitRatioCurve",
    provenance=("sim.",),
    seeds=("003",),
    cli=("mrc",),
    page="trace-explorer",
    sweep=(SweepHook("mrc", "block", None,
                     {"block_size": SWEEP_BLOCK_BYTES, "points": 20, "shards_rate": None, "seed": 0},
                     "models.sim.specs:sweep_mrc", "LRU hit-ratio curve at log-spaced sizes, exact or SHARDS"),),
))
