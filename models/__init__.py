"""PCM Planner models: pure, typed, documented analytical and trace-driven models.

Nothing here imports Streamlit. Packages are grouped by the role PCM / SCM plays, as the
app's navigation is; callers import the module they need (``from models.storage import
file_cache``), so ``import models`` stays cheap.

Packages
--------
- :mod:`models.storage` -- PCM as storage: file-cache break-even and simulation, Filebench
  workloads on PCM-DAX vs page-cached storage, device characterization, the HDD model and
  a PCM write cache in front of it.
- :mod:`models.memory` -- PCM as memory: virtual-memory paging on SCM and NVM memory
  extensions behind DRAM.
- :mod:`models.endurance` -- how long PCM lasts: lifetime, write reduction, wear leveling.
- :mod:`models.traces` -- block and memory traces: readers, bundled and synthetic traces,
  statistics.
- :mod:`models.sim` -- cache-simulation kernels (LRU stack distances, SHARDS, policies).
- :mod:`models.planner` -- on top of all of them: ranks a workload library by PCM benefit
  in each role.

Shared by every package: :mod:`models._base` (input and result contracts),
:mod:`models.devices` (the device catalogue) and :mod:`models.data` (bundled data by name).
"""

__all__ = ["__version__"]
__version__ = "0.1.0"
