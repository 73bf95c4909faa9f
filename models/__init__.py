"""PCM Planner models: pure, typed, documented analytical and trace-driven models.

Nothing here imports Streamlit. Submodules are imported lazily by callers
(``from models import file_cache``) so ``import models`` stays cheap.

Modules
-------
- :mod:`models.devices` -- the device catalogue (:class:`~models.devices.DeviceProfile`).
- :mod:`models.storage.file_cache` -- file-cache break-even (Park & Bahn 2020, eqs. 1-3).
- :mod:`models.data` -- bundled data loading by name.
"""

__all__ = ["__version__"]
__version__ = "0.1.0"
