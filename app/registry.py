"""The app's pages, by navigation section. Each view module lives in ``app/views/``.

Add a page by adding a row here: (section, file in app/views, title, icon, url path).
"""

from __future__ import annotations

PAGES: list[tuple[str, str, str, str, str]] = [
    ("Overview", "home.py", "Home", ":material/home:", "home"),
    ("Overview", "devices.py", "Device catalogue", ":material/memory:", "devices"),
    ("Overview", "validation.py", "Validation against the papers", ":material/fact_check:", "validation"),
    ("Storage", "break_even.py", "File-cache break-even", ":material/balance:", "break-even"),
    ("Storage", "file_cache_sim.py", "File-cache simulation", ":material/cached:", "file-cache-sim"),
    ("Storage", "trace_explorer.py", "Trace explorer", ":material/query_stats:", "trace-explorer"),
    ("Storage", "workload.py", "Filebench workloads", ":material/work:", "workloads"),
    ("Storage", "device_char.py", "Device characterization", ":material/speed:", "device-characterization"),
    ("Storage", "hdd_model.py", "HDD model", ":material/album:", "hdd-model"),
    ("Storage", "write_cache.py", "PCM write cache (HALO)", ":material/save_as:", "write-cache"),
    ("Memory", "paging.py", "Virtual memory on SCM", ":material/view_module:", "paging"),
    ("Memory", "memory_extension.py", "NVM memory extension", ":material/memory_alt:", "memory-extension"),
    ("Endurance", "lifetime.py", "Memory-extension lifetime", ":material/hourglass_bottom:", "lifetime"),
    ("Endurance", "write_reduction.py", "Write reduction", ":material/compress:", "write-reduction"),
    ("Endurance", "wear.py", "Wear leveling", ":material/grid_on:", "wear-leveling"),
    ("Planner", "planner.py", "Target-workload finder", ":material/target:", "planner"),
    ("Planner", "fleet.py", "Fleet results", ":material/dns:", "fleet"),
]

SECTIONS = ["Overview", "Storage", "Memory", "Endurance", "Planner"]

#: The default page's url key: Streamlit serves the default page at the app's root, so links and the benchmark
#: open it at "/" (:func:`page_path`); "/home" typed by hand reaches it through a hidden page (app/main.py).
DEFAULT_PAGE = "home"


def page_path(url: str) -> str:
    """The path a browser opens for page ``url`` (the last column of :data:`PAGES`): ``""`` for the default page.

    >>> page_path("home"), page_path("lifetime")
    ('', 'lifetime')
    """
    return "" if url == DEFAULT_PAGE else url
