"""The allow-list of ``tests/models/test_provenance.py``: numeric constants of ``models/`` that are not model parameters.

Every other module-level UPPER_CASE numeric constant of ``models/`` reads the registry
(``param("<model>.<name>").value``, :mod:`models.provenance`); one listed here says why it is not a
model input.
"""

#: Module-level numeric constants of ``models/`` that are not model parameters (units, formats,
#: limits, sweep grids, the papers' own figures used only for comparison), each with the reason.
#: ``tests/models/test_provenance.py`` fails on any other UPPER_CASE numeric constant that does
#: not read :func:`models.provenance.param`.
NOT_PARAMETERS: dict[str, str] = {
    "models.uncertainty.core.NEGLIGIBLE_SPREAD": "wording threshold of the How sure? sentence (a band under 0.1 % of "
                                                 "the point names no decisive input), not a model input",
    "models.endurance.lifetime.SECONDS_PER_YEAR": "unit (Julian year)",
    "models.endurance.lifetime.GB": "unit (decimal gigabyte)",
    "models.planner.economics.GB": "unit (decimal gigabyte, the unit prices are quoted in)",
    "models.planner.economics.MONTHS_PER_YEAR": "unit (months in a year, lifetimes in words)",
    "models.endurance.wear._CODE": "scheme codes",
    "models.endurance.wear.PAPER_LIFE_RATE": "paper figure for comparison (the validation ledger), not an input",
    "models.endurance.wear.PAPER_IMPROVEMENT_SFC_VS_SG": "paper figure for comparison, not an input",
    "models.endurance.write_reduction.PAGE_BYTES": "unit (4 KiB page of the page pairs)",
    "models.endurance.write_reduction._WORDS": "unit (4-byte words per page)",
    "models.endurance.write_reduction._LINE_WORDS": "unit (4-byte words per line)",
    "models.endurance.write_reduction.PAPER_SAVINGS": "paper figures for comparison, not an input",
    "models.memory.memory_extension.PAGE_BYTES": "unit (4 KiB OS page)",
    "models.memory.memory_extension.DRAM_FRACTIONS": "sweep grid of the paper's figures",
    "models.memory.memory_extension.PAPER_SLOWDOWN_25": "paper figures for comparison (the derivation of "
                                                        "memext.fault_overhead_paper_ns starts from them)",
    "models.memory.memory_extension._COUNTER_MAX": "policy codes",
    "models.memory.memext_stream._CHUNK_BYTES_PER_REF": "memory cost charged against the run's budget (derived from "
                                                        "the dtypes of a chunk's temporaries)",
    "models.planner.spec_roots.LOG10_XTOL": "tolerance of the spec-target root finder [decades], a numerical setting",
    "models.planner.spec_roots.GRID_POINTS": "points of the log grid bracketing a spec target (numerical grid)",
    "models.planner.target_bands._STEP": "first step of the band's root search from the point [decades] (a search "
                                         "step, x2; the root is then refined to LOG10_XTOL), not a model input",
    "models.planner.target_bands._PROBE": "probe step beside the point for each band corner's slope [decades] (a "
                                          "numerical step of the root search), not a model input",
    "models.planner.target_bands._MAX_ITER": "iteration cap of a numerical method (the band's regula falsi)",
    "models.planner.fleet.WARM_REQUESTS": "requests of the warm-up plan each fleet worker runs once before its volumes "
                                          "(imports and compiled kernels loaded; speed only, its rows are discarded)",
    "models.memory.paging.PAGE_SIZES": "sweep grid (the paper's page sizes)",
    "models.memory.paging.LATENCY_MULTIPLES": "sweep grid (the paper's relative latencies)",
    "models.memory.paging.REFERENCE_PAGE_BYTES": "unit (4 KiB page defining memory fractions)",
    "models.nesting.MAX_DEPTH": "input limit (nesting levels of a JSON/TOML document a user gives), not a model input",
    "models.sim.policies._RING": "policy codes (the ring kernel per policy: counter ceiling 0 FIFO, 1 CLOCK, "
                                 "-1 = read at run time for age)",
    "models.sim.primitives._ONE": "math constant",
    "models.sim.shards._ONE": "math constant",
    "models.sim.shards._SCALE": "math constant (2^53)",
    "models.sim.sampling._SCALE": "math constant (2^53)",
    "models.sim.shards._PREFIX": "chunk length of the fixed-size pre-filter (speed only, same results)",
    "models.sim.sampling._GOLDEN": "splitmix64 hash constant",
    "models.sim.sampling._MIX1": "splitmix64 hash constant",
    "models.sim.sampling._MIX2": "splitmix64 hash constant",
    "models.sim.stack_distance._ONE": "math constant",
    "models.traces.stream_mrc._ONE": "math constant",
    "models.traces.stream_mrc._LIN_BINS": "histogram layout of streamed fixed-size SHARDS (distances kept exactly "
                                           "below it)",
    "models.traces.stream_mrc._PER_OCTAVE": "histogram resolution of streamed fixed-size SHARDS (bins per octave)",
    "models.traces.stream_mrc._N_BINS": "histogram size of streamed fixed-size SHARDS (bins up to 2**63)",
    "models.storage.file_cache_sim.DEFAULT_FRACTIONS": "sweep grid (x axis of Figures 3-5)",
    "models.storage.file_cache.STEADY_SIZES": "measurement grid (block sizes of data/measurements/insertion_cost)",
    "models.storage.file_cache.SAME_RUN_SIZES": "measurement grid (the zram block sizes of data/measurements/insertion_cost)",
    "models.storage.workload.roots.WB_RTOL": "numerical tolerance of a fixed point, not a model parameter",
    "models.storage.workload.roots.SECANT_ITERS": "iteration cap of a numerical method (the secant steps before "
                                                  "its fallback), not a model parameter",
    "models.storage.filebench.MAX_THREADS": "input limit",
    "models.storage.filebench.MAX_FILES": "input limit",
    "models.storage.filebench.MAX_IOSIZE_BYTES": "input limit",
    "models.storage.filebench._MULT": "unit suffixes",
    "models.storage.hdd.spec.SECTOR_BYTES": "unit (512 B sector)",
    "models.storage.hdd.coverage.PARAMETERS": "DiskSim parameter switch values the model implements (a coverage "
                                              "table), not inputs",
    "models.storage.hdd.validation.DISKSIM_DEMERIT_MS": "DiskSim's own results for comparison, not an input",
    "models.storage.workload.costs.BLOCK": "unit (4 KiB file-system block)",
    "models.storage.workload.fit.IOSIZES": "sweep grid (I/O sizes of seed 000 Fig. 5)",
    "models.storage.workload.personalities.TABLE1": "seed 000 Table 1 (published): the paper's workload "
                                                    "settings, a workload definition rather than a model constant",
    "models.storage.write_cache.SECTOR_BYTES": "unit (512 B sector)",
    "models.storage.write_cache.BLOCK_SECTORS": "format (4 KiB PCM block = 8 sectors, one 8-bit bitmap)",
    "models.storage.write_cache.REGION_SECTORS": "format (HALO's 1 MiB bucket region, seed 003 §III)",
    "models.storage.write_cache.PAPER_CACHE_MB": "sweep grid (the paper's cache sizes, Figures 6-8)",
    "models.traces.blocks.MAX_BLOCK_ACCESSES": "memory limit",
    "models.traces.blocks.SPLIT_BYTES_PER_ACCESS": "memory cost charged against the run's budget (measured, "
                                                   "source in its comment), not a model input",
    "models.sim.mrc.EXACT_BYTES_PER_ACCESS": "memory cost charged against the run's budget (measured, source in its "
                                             "comment), not a model input",
    "models.storage.write_cache.REGION_BYTES": "memory cost charged against the run's budget per 1 MiB region of "
                                                "HALO's bucket table (three int64, from the kernel's arrays), not a model input",
    "models.storage.write_cache.ITEM_BYTES": "memory cost charged against the run's budget (measured, source in its "
                                             "comment), not a model input",
    "models.budget.AVAILABLE_FRACTION": "memory limit (share of the machine's available memory one run may use)",
    "models.budget.DEFAULT_CAP_BYTES": "memory limit (1 GiB per run by default, the issue 42 ceiling)",
    "models.budget._UNITS": "unit suffixes",
    "models.traces.source.PARSED_REQUEST_BYTES": "memory cost charged against the run's budget per parsed request, "
                                                 "not a model input",
    "models.sweep.spec.TASK_BYTES": "memory cost charged against the run's budget per sweep task, not a model input",
    "models.traces.source.TEXT_BYTES_CHARGE": "memory cost charged against the run's budget per byte of text read, "
                                              "not a model input",
    "models.budget._FALLBACK_AVAILABLE": "memory limit (assumed available memory when /proc/meminfo is unreadable)",
    "models.traces.formats.csv._READ_OPS": "format (SCSI opcodes)",
    "models.traces.formats.csv._WRITE_OPS": "format (SCSI opcodes)",
    "models.traces.formats.lackey._HEX": "format (parser table)",
    "models.traces.formats.lackey._KIND_OF": "format (parser table)",
    "models.traces.formats.npz.FORMAT_VERSION": "format version",
    "models.traces.formats.vscsi._TEST": "format (records libCacheSim's vscsi version test reads)",
    "models.traces.formats.npz.LINE_BYTES": "format (64-byte address granularity)",
    "models.traces.formats.parsing.I64_MAX": "math constant",
    "models.traces.formats.parsing.TIME_UNITS": "units",
    "models.planner.memory_read.BYTES_PER_REFERENCE": "memory cost charged against the run's budget per reference of "
                                                       "a plan's memory trace (measured peak RSS, source in its "
                                                       "comment): the work limit in bytes, not a model input",
    "models.planner.memory_read._UNBOUNDED": "no limit (the read of a run without a memory budget)",
    "models.traces.formats.npz.SLICE_REFERENCES": "references a streamed .npz read decompresses at a time (memory "
                                                  "only; the columns handed on do not depend on it)",
    "models.memory.page_table.BYTES_PER_SLOT": "memory cost of the streamed memory roles' page table (uint64 page "
                                               "and uint64 id + 1 per slot, from its array), charged to the run's "
                                               "budget",
    "models.memory.page_table._FIB": "math constant (Fibonacci hashing multiplier, 2**64 / golden ratio)",
    "models.memory.page_table._LOOKAHEAD": "speed only (references whose table slot is prefetched ahead; no effect "
                                           "on any value)",
    "models.memory.paging_stream._ONE": "math constant",
    "models.memory.paging_stream._LOOKAHEAD": "speed only (references whose page state is prefetched ahead; no "
                                              "effect on any value)",
    "models.memory.paging_stream._POSITIONS_PER_PAGE": "speed and memory only (bit-set positions per distinct page: "
                                                       "how often the live marks are renumbered; no effect on any "
                                                       "value)",
    "models.memory.paging_stream.BYTES_PER_PAGE": "memory cost of the streamed paging role's second pass per "
                                                  "distinct page (from its arrays), charged to the run's budget",
    "models.planner.stream_plan.IN_MEMORY_MAX_BYTES": "work limit in bytes (a block trace file larger than it is "
                                                      "planned by streaming, not loaded whole), not a model input",
    "models.traces.loader.DEFAULT_SYNTHETIC_REQUESTS": "trace length of a preset loaded by name (a size, "
                                                       "not a property of the workload)",
    "models.planner.rank.SYNTHETIC_REQUESTS": "trace length of each synthetic preset of the library ranking (a size "
                                              "of the generated trace, not a property of the workload)",
    "models.traces.source.CHUNK_BYTES": "reader buffer size",
    "models.traces.source.MAX_LINE_BYTES": "input limit",
    "models.traces.source._ASCII_SPACE": "byte class table (the ASCII bytes str.strip removes)",
    "models.traces.formats.arrow_csv.ARROW_BLOCK_BYTES": "the pieces Arrow's threads parse a block in (speed "
                                                          "only: the rows are the same whatever the size)",
    "models.traces.formats.parsing._LOOK_LINES": "lines looked at one by one before a vectorised pass (speed only; "
                                                 "the result does not depend on it)",
    "models.traces.stream_stats.MAX_VALUE_ENTRIES": "memory limit (entries of an exact percentile table of a streamed "
                                                    "trace; past it the percentiles come from a histogram and say so)",
    "models.traces.stream_stats.SIGNIFICANT_BITS": "resolution of that histogram (percentile error < 2**-12), "
                                                   "not a model input",
    "models.traces.stream_stats.BATCH_REQUESTS": "batch size of the streamed statistics (memory vs passes over "
                                                 "the state; the result does not depend on it)",
    "models.traces.stream_stats.MAX_SAMPLE_HALVINGS": "retry limit (times the streamed statistics halve their "
                                                      "sampling rate and read the source again), not a model input",
    "models.traces.prefetch.PREFETCH_BLOCKS": "reader buffer depth (text blocks read ahead of the parse)",
    "models.traces.formats.objects._SLOTS_PER_OBJECT": "hash table sizing (slots per distinct object: load factor 1/2)",
    "models.traces.formats.objects._FIB": "math constant (Fibonacci hashing multiplier, 2**64 / golden ratio)",
    "models.traces.stream_stats.MAX_LOAD": "hash table sizing (load factor of the streamed state's table)",
    "models.traces.stream_stats._FIB": "math constant (Fibonacci hashing multiplier, 2**64 / golden ratio)",
    "models.traces.stream_stats._BLOCK_BITS": "key layout (bits of the block number in a (device, block) key)",
    "models.traces.stream_stats.SLICE_ACCESSES": "block accesses expanded per pass of the streamed statistics "
                                                 "(memory only; the result does not depend on it)",
    "models.traces.stream_stats.STATE_BYTES_PER_BLOCK": "memory estimate of the streamed state (4 int64 per distinct "
                                                        "block + an insert copy), charged to the run's memory budget",
    "models.traces.stream_stats.PASS_BYTES_PER_ACCESS": "memory estimate of a streamed pass per block access, "
                                                        "charged to the run's memory budget",
    "models.traces.block_table._INT32_MAX": "integer range (the largest int32: the table's ids, and its counts until "
                                            "they widen to int64)",
    "models.traces.block_table.MIN_SAMPLE_RATE": "work limit (the lowest SHARDS rate the block table falls back to "
                                                  "before the budget's refusal stands: 12 halvings)",
    "models.traces.block_table._FILTER_BYTES_PER_KEY": "memory cost of the block table's downsampling copy (key, "
                                                        "id, count and id map per key), a budget estimate",
    "models.traces.block_table.TABLE_BYTES_PER_SLOT": "memory cost of the streamed block table (int64 key, int32 id "
                                                      "and count per slot, from its arrays), charged to the run's "
                                                      "memory budget",
    "models.traces.block_table.SLICE_ACCESSES": "block accesses whose ids are looked up at once (memory only; the "
                                                "result does not depend on it)",
    "models.sim.policies.LRU_STATE_BYTES_PER_ID": "memory cost of the resumable LRU's state (2 int32 + 2 bool per id, "
                                                  "from its arrays), charged to the run's memory budget",
    "models.sim.policies._LRU_SCALARS": "array layout (the scalars the resumable LRU carries), not a model input",
    "models.planner.role_file_cache._BLOCK": "unit (the 4 KiB page the file-cache role has always split the trace "
                                             "into: split_blocks' and file_cache_curves' default), not a new input",
    "models.storage.write_cache_stream.MAX_LOAD": "hash table sizing (load factor of the streamed write cache's "
                                                  "first-pass sets)",
    "models.storage.write_cache_stream.KEY_BLOCK_BITS": "key layout (bits of the block number in a (device, block) key)",
    "models.storage.write_cache_stream._KEY_MASK": "key layout (the block-number bits of a (device, block) key)",
    "models.storage.write_cache_stream._REGION_BLOCKS_SHIFT": "unit conversion (log2 of the 4 KiB blocks in a 1 MiB "
                                                              "region)",
    "models.storage.write_cache_stream._FIB": "math constant (Fibonacci hashing multiplier, 2**64 / golden ratio)",
    "models.storage.write_cache_stream._WRITTEN_BYTES": "memory estimate per written block of the streamed write "
                                                        "cache (3 int64), charged to the run's memory budget",
    "models.storage.write_cache_stream._PCM_BYTES": "memory estimate of HALO's PCM arrays per block (3 int64 + 1 "
                                                    "byte), charged to the run's memory budget",
    "models.storage.write_cache_stream._SIZE_BYTES": "memory estimate per distinct write size (2 int64), charged to "
                                                     "the run's memory budget",
    "models.storage.write_cache_stream.BATCH_REQUESTS": "batch size of the streamed write cache (speed and memory "
                                                        "only; the result does not depend on it)",
    "models.traces.stream_mrc.STATE_BYTES_PER_BLOCK": "memory bound of the streamed LRU curve's state per distinct "
                                                        "block (derived from its arrays), quoted in messages",
    "models.traces.stream_mrc.PASS_BYTES_PER_ACCESS": "memory estimate of a streamed MRC pass per block access, "
                                                        "charged to the run's memory budget",
    "models.traces.stream_mrc._MIN_WINDOW_WORDS": "smallest window of access positions of the streamed MRC (memory "
                                                   "vs compactions)",
    "models.traces.stream_mrc._BLOCK_BITS": "key layout (bits of the block number in a (device, block) key)",
    "models.traces.stream_mrc._FIB": "math constant (Fibonacci hashing multiplier, 2**64 / golden ratio)",
    "models.traces.stream_mrc._SCALE": "math constant (2**53, the hash range of the SHARDS threshold)",
    "models.traces.extents.MIN_MEAN_BLOCKS": "speed switch (mean request size from which block quantities are "
                                             "computed per extent; equal results, tested), not a model input",
    "models.traces.extents.BYTES_PER_REQUEST": "memory estimate of the extent pass per request, charged to the run's "
                                               "memory budget",
    "models.traces.extent_mrc.SIZE_BYTES": "memory estimate per cache size of a hit-ratio curve, charged to the run's "
                                           "memory budget",
    "models.errors.MAX_MESSAGE_CHARS": "message format (longest message shown)",
    "models.csv_safety._VECTOR_ROWS": "speed switch (rows from which a text column is checked vectorised; same results), not a model input",
    "models.traces.source.MAX_INPUT_BYTES": "input limit",
    "models.traces.source.QUOTE_CHARS": "message format (quoted content length)",
    "models.traces.source.GZIP_MAGIC": "format (magic bytes)",
    "models.traces.source.ZSTD_MAGIC": "format (magic bytes)",
    "models.traces.formats.parsing.DEVICE_MAX": "math constant (int32 range)",
    "models.traces.formats.npz._META_CHARS": "input limit",
    "models.traces.formats.EXAMPLES": "format examples (generated test fixtures)",
    "models.traces.formats.lcs.MAGIC": "format (magic number)",
    "models.traces.formats.lcs.HEADER_BYTES": "format (header size)",
    "models.traces.formats.lcs._END_MAGIC_AT": "format (header layout)",
    "models.traces.formats.lcs._WRITE_OPS": "format (libCacheSim operation codes)",
    "models.traces.formats.lcs._READ_OPS": "format (libCacheSim operation codes)",
    "models.traces.formats.objects.OBJECT_SLOT_BITS": "layout (an object's address slot, 4 GiB)",
    "models.traces.formats.objects._SLOT_BYTES": "layout (an object's address slot, 4 GiB)",
    "models.traces.formats.objects.MAX_OBJECTS": "math constant (slots within the int64 byte range)",
    "models.traces.formats.objects._SHARED_LOOKUP_MAX_NEW": "speed only (new objects per request above which a block "
                                                             "is numbered in one pass; no effect on any value)",
    "models.traces.formats.objects._LOOKAHEAD": "speed only (ids whose table slot is prefetched ahead; no effect on "
                                                "any value)",
    "models.traces.formats.records._NS_PER_S": "unit (nanoseconds per second)",
    "models.traces.formats.records._NO_TIME": "math constant (int64 maximum: no time kept yet)",
    "models.traces.formats.records._MAX_OP": "format (highest libCacheSim operation code, req_op_e)",
    "models.traces.formats.records._RECORDS_PER_RUN": "speed only (records in one run of the split decode; measured, "
                                                             "see its comment; no effect on any value)",
    "models.traces.detect._PEEK_BYTES": "reader buffer size (format sniffing)",
    "models.sweep.hostshare.STALE_S": "house-keeping age of a sweep's leftover shared-split folder (no model input)",
    "models.spec.SWEEP_BLOCK_BYTES": "default analysis block size of the sweep adapters (the CLI's --block-size default)",
    "models.traces.blocks.MAX_REQUEST_BLOCKS": "memory limit",
    "models.storage.write_cache.MAX_CACHE_MB": "input limit",
    "models.traces.synthetic.KIB": "unit",
    "models.traces.synthetic.GIB": "unit",
}
