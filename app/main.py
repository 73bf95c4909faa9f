"""PCM Planner Streamlit entry point: ``streamlit run app/main.py``."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

_RUN_START = time.time(), time.process_time()
#: ``PCM_TIMING_LOG=<file>``: each run appends when it started, imported the shell and ran its page
#: (epoch seconds and the server process's CPU seconds; read by ``bench/bench_pages.py``'s cold start
#: for its breakdown). Unset: nothing is written.
_TIMING_LOG = os.environ.get("PCM_TIMING_LOG")


def _mark(what: str, at: tuple[float, float] | None = None) -> None:
    if _TIMING_LOG:
        t, cpu = at or (time.time(), time.process_time())
        with open(_TIMING_LOG, "a") as f:
            f.write(f"{t:.6f} {cpu:.6f} {os.getpid()} {what}\n")


import streamlit as st  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # running from a checkout without installation
    sys.path.insert(0, str(ROOT))

from app.components.heavy import install as limit_heavy_work  # noqa: E402
from app.components.heavy import run_slot  # noqa: E402
from app.registry import DEFAULT_PAGE, PAGES, SECTIONS  # noqa: E402

# Cache misses (model runs) of all sessions share PCM_HEAVY_SLOTS slots and page runs PCM_RUN_SLOTS:
# 40 sessions rerunning at once queue instead of all allocating (issue 20); see app/components/heavy.py.
limit_heavy_work()

st.set_page_config(page_title="PCM Planner", page_icon=":material/memory:", layout="wide")
# Also when started from another directory (no .streamlit/config.toml): the grid's own CSV export
# is off, every table has a formula-safe download button (app/components/tables.py).
st.set_option("client.disableDataExport", True)


views = Path(__file__).resolve().parent / "views"
nav: dict[str, list] = {s: [] for s in SECTIONS}
home = home_title = None
for section, file, title, icon, url in PAGES:
    default = url == DEFAULT_PAGE  # served at "/"; it still reserves its url_path, which "/home" below takes
    page = st.Page(str(views / file), title=title, icon=icon, url_path=f"_{url}" if default else url, default=default)
    nav.setdefault(section, []).append(page)
    if default:
        home, home_title = page, title


def _to_home() -> None:
    """``/home``, the default page's url key typed by hand: the default page (Streamlit serves it at "/" only,
    and "/home" showed "Page not found")."""
    st.switch_page(home)


# the registry's title, not home.title: a Page built in bare mode (the shell-import test) keeps none
nav[SECTIONS[0]].append(st.Page(_to_home, title=home_title, url_path=DEFAULT_PAGE, visibility="hidden"))
pg = st.navigation({k: v for k, v in nav.items() if v})
_mark("run start", _RUN_START)
_mark("page start")
with run_slot():  # at most PCM_RUN_SLOTS page runs at once; the others queue holding nothing
    try:
        pg.run()
    finally:
        _mark("page end")
