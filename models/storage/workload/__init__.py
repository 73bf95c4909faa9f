"""Which file workloads suit PCM? Filebench personalities on ext4-DAX PCM vs page-cached storage.

Seed 000 ran four Filebench personalities (Table 1) on PCM mounted with ext4-DAX and on
ext4 over HDD / SSD with the page cache, and found PCM far ahead on fsync-heavy,
write-intensive work (varmail, fileserver) but not on read-mostly, cache-friendly work
(webserver, webproxy). This package predicts that with a mean-value model, one module per
step:

1. :mod:`~models.storage.workload.configs` -- the storage configurations (file-system mode,
   device, CPU cores, page cache, VM host) and their sources;
2. :mod:`~models.storage.workload.personalities` -- Table 1 presets and the §4.6 features;
3. :mod:`~models.storage.workload.demands` -- the service demand of every flowop on the CPU,
   device, host and journal stations, one small function per flowop kind, built from the
   measured costs of :mod:`~models.storage.workload.costs` (system calls, page-cache hit
   ratio by Che's approximation, jbd2 commit, the kernel flusher's dirty write-back);
4. :mod:`~models.storage.workload.mva` -- exact Mean Value Analysis of the closed network
   (one customer per thread, think time 0);
5. :mod:`~models.storage.workload.group_commit` -- concurrent fsyncs sharing one jbd2
   commit, a fixed point of the MVA solution at each thread count;
6. :mod:`~models.storage.workload.fit` -- throughput [ops/s] and latency [ms] vs threads
   (:func:`evaluate`) and the sweeps of the paper's figures; its fixed points compiled in
   :mod:`~models.storage.workload.kernel` (the tolerances declared once in
   :mod:`~models.storage.workload.roots`);
7. :mod:`~models.storage.workload.fast` -- :func:`evaluate_many`, the throughput over many
   samples of a configuration's values at once (same arithmetic, for uncertainty bands).

The comparison with the paper's figures and the model's known gaps are in
``docs/models/workload.md``.

Examples
--------
>>> from models.storage import workload as wf
>>> r = wf.evaluate(wf.paper_workload("varmail"), "pcm-dax", threads=4)
>>> r.to_frame().columns.tolist()
['workload', 'config', 'threads', 'ops_per_s', 'latency_ms', 'hit_ratio']

References
----------
.. [1] Seed 000: Filebench on a DAX PCM file system (Table 1, Figs. 2-5, §4.5-4.6).
.. [2] E. Lazowska, J. Zahorjan, G. Graham, K. Sevcik, "Quantitative System Performance",
   Prentice-Hall 1984, ch. 6 (exact MVA) and ch. 8 (load-dependent stations).
.. [3] H. Che, Y. Tung, Z. Wang, "Hierarchical Web caching systems: modeling, design and
   experimental results", IEEE JSAC 20(7), 2002 (LRU characteristic time).
"""

from models.storage.filebench import Workload, load_workload
from models.storage.workload.configs import (
    CPU_CORES_PAPER,
    HEADLINE_CONFIGS,
    HOST_MEMORY_BYTES,
    PAGE_CACHE_BYTES,
    PAPER_CONFIGS,
    VIRT_PER_OP_NS,
    StorageConfig,
    config_names,
    get_config,
    provenance_keys_for,
)
from models.storage.workload.costs import (
    fsync_costs,
    hit_ratio,
    journal_commit_ns,
    metadata_latency,
    writeback_share,
    writeback_shares,
)
from models.storage.workload.demands import FLOWOP_DEMANDS, STATIONS, flowop_demands
from models.storage.workload.fast import evaluate_many
from models.storage.workload.fit import (
    IOSIZES,
    WorkloadResult,
    compare,
    evaluate,
    sweep_files,
    sweep_iosize,
    sweep_threads,
)
from models.storage.workload.group_commit import GATED_WAIT, batched_demands, group_commit_batch
from models.storage.workload.mva import MvaResult, mva
from models.storage.workload.personalities import (
    PERSONALITIES,
    TABLE1,
    WorkloadFeatures,
    as_workload,
    paper_workload,
    workload_features,
)

__all__ = [
    "provenance_keys_for",
    "PAPER_CONFIGS",
    "HEADLINE_CONFIGS",
    "writeback_share",
    "writeback_shares",
    "CPU_CORES_PAPER",
    "PAGE_CACHE_BYTES",
    "HOST_MEMORY_BYTES",
    "VIRT_PER_OP_NS",
    "TABLE1",
    "PERSONALITIES",
    "IOSIZES",
    "STATIONS",
    "GATED_WAIT",
    "FLOWOP_DEMANDS",
    "Workload",
    "load_workload",
    "StorageConfig",
    "config_names",
    "get_config",
    "metadata_latency",
    "fsync_costs",
    "hit_ratio",
    "journal_commit_ns",
    "flowop_demands",
    "batched_demands",
    "group_commit_batch",
    "MvaResult",
    "mva",
    "WorkloadResult",
    "evaluate",
    "evaluate_many",
    "paper_workload",
    "as_workload",
    "WorkloadFeatures",
    "workload_features",
    "sweep_threads",
    "sweep_iosize",
    "sweep_files",
    "compare",
]
