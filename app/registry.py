"""The app's pages, by navigation section. Each view module lives in ``app/views/``.

Add a page by adding a row here: (section, file in app/views, title, icon, url path).
"""

from __future__ import annotations

PAGES: list[tuple[str, str, str, str, str]] = [
    ("Overview", "home.py", "Home", ":material/home:", "home"),
    ("Overview", "devices.py", "Device catalogue", ":material/memory:", "devices"),
    ("Storage", "break_even.py", "File-cache break-even", ":material/balance:", "break-even"),
]

SECTIONS = ["Overview", "Storage", "Memory", "Endurance", "Planner"]
