"""The storage models' registrations (:mod:`models.spec`): file-cache break-even and simulation, Filebench
workloads, device characterization, the HDD model and the PCM write cache."""

from __future__ import annotations

from models.spec import REQUIRED, SWEEP_BLOCK_BYTES, ModelSpec, SweepHook, register


def sweep_file_cache(ctx, device, p: dict):
    """Sweep adapter: a file-cache tier in front of a catalogue device, none / LRU / AC access time."""
    from models.storage.file_cache_sim import file_cache_curves

    acc = ctx.blocks(p["block_size"])
    opts = {k: p[k] for k in ("ghost_fraction", "insertion", "storage_path") if p[k] is not None}
    return file_cache_curves(acc.block, device, block_size_bytes=int(p["block_size"]),
                             cache_fractions=[float(p["cache_fraction"])], **opts)


def sweep_write_cache(ctx, device, p: dict):
    """Sweep adapter: a PCM write cache (HALO / LRU / none) in front of an HDD drive."""
    from models.storage.write_cache import run_write_cache

    r = run_write_cache(ctx.trace, p["policy"], float(p["cache_mb"]), drive=device,
                        lru_granularity=p["lru_granularity"])
    return r.to_frame()


register(ModelSpec(
    name="breakeven",
    title="file-cache break-even access count n* = (Tm - t)/(T - t) (seed 004 eqs. 1-3, Figure 2)",
    module="models.storage.file_cache",
    evaluate="models.storage.file_cache:break_even_hits",
    inputs="models.storage.file_cache:BreakEvenInputs",
    result="models.storage.file_cache:BreakEven",
    provenance=("file_cache.",),
    seeds=("004",),
    cli=("breakeven",),
    page="break-even",
    uncertainty="models.storage.uncertainty:breakeven_model",
))

register(ModelSpec(
    name="file_cache_sim",
    title="no cache / LRU / admission-controlled file cache vs cache size, and the share of blocks reused above n*",
    module="models.storage.file_cache_sim",
    evaluate="models.storage.file_cache_sim:file_cache_curves",
    result="models.storage.file_cache_sim:BreakEvenShare",
    provenance=("file_cache_sim.", "file_cache."),
    seeds=("004",),
    page="file-cache-sim",
    uncertainty="models.storage.uncertainty:file_cache_time_model",
    sweep=(SweepHook("file_cache", "block", "catalogue",
                     {"cache_fraction": REQUIRED, "block_size": SWEEP_BLOCK_BYTES, "ghost_fraction": None,
                      "insertion": None, "storage_path": None},
                     "models.storage.specs:sweep_file_cache",
                     "file-cache tier in front of a catalogue device: none / LRU / AC access time"),),
    roles=("file-cache",),
))

register(ModelSpec(
    name="workload",
    title="Filebench personalities on PCM-DAX vs page-cached HDD/SSD: flowop demands and exact MVA (seed 000)",
    module="models.storage.workload.fit",
    evaluate="models.storage.workload.fast:evaluate_many",
    inputs="models.storage.workload.configs:StorageConfig",
    result="models.storage.workload.fit:WorkloadResult",
    provenance=("workload.",),
    seeds=("000",),
    cli=("workload",),
    page="workloads",
    uncertainty="models.storage.uncertainty:workload_model",
    roles=("storage", "storage-vs-hdd", "storage-vs-ssd"),
))

register(ModelSpec(
    name="device_char",
    title="device characterization: random/sequential and write/read latency ratios vs I/O depth, fio fit (seed 001)",
    module="models.storage.device_char",
    evaluate="models.storage.device_char:latency_us",
    inputs="models.storage.device_char:CharProfile",
    result="models.storage.device_char:ProfileFit",
    provenance=("device_char.",),
    seeds=("001",),
    page="device-characterization",
    uncertainty="models.storage.uncertainty:device_mix_model",
))

register(ModelSpec(
    name="hdd",
    title="HDD service time: seek, rotation and transfer from DiskSim drive descriptions (seed 003 §III)",
    module="models.storage.hdd.service",
    evaluate="models.storage.hdd.service:predict_service_ms",
    inputs="models.storage.hdd.spec:DriveSpec",
    result="models.storage.hdd.validation:DriveValidation",
    provenance=("hdd.",),
    seeds=("003",),
    cli=("hdd",),
    page="hdd-model",
    uncertainty="models.storage.uncertainty:hdd_model",
))

register(ModelSpec(
    name="writecache",
    title="PCM write cache in front of an HDD: HALO (Algorithm 1) vs LRU, traffic and HDD time (seed 003)",
    module="models.storage.write_cache",
    evaluate="models.storage.write_cache:run_write_cache",
    inputs="models.storage.write_cache:HaloParams",
    result="models.storage.write_cache:WriteCacheResult",
    provenance=("write_cache.", "hdd."),
    seeds=("003",),
    cli=("writecache",),
    page="write-cache",
    uncertainty="models.storage.uncertainty:writecache_model",
    sweep=(SweepHook("write_cache", "block", "drive",
                     {"policy": "halo", "cache_mb": REQUIRED, "lru_granularity": "sector"},
                     "models.storage.specs:sweep_write_cache",
                     "PCM write cache in front of an HDD drive (HALO / LRU / none)"),),
    roles=("write-cache",),
))
