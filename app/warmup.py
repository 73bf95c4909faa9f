"""Warm the app at install time: ``python -m app.warmup`` (run by ``make`` and the Docker build).

Runs every page once, headless, with its default inputs (Streamlit's AppTest), so that

- the numba kernels the pages use are compiled into ``$NUMBA_CACHE_DIR`` (``cache=True``): a fresh
  server then loads them instead of compiling on the first visit;
- slow input-free results over the bundled data are saved on disk
  (:mod:`app.components.diskcache`), e.g. the lifetime page's trace-derived write rates.

Prints the seconds per page; exits 1 if a page raised (the app would show an error there).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(description="Warm the app at install time: run every page once.")
    ap.add_argument("--pages", default="", help="comma-separated url paths (default: every page; the "
                    "cold-start bench warms only the pages it measures)")
    a = ap.parse_args(argv)
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from streamlit.testing.v1 import AppTest

    from app.registry import PAGES

    if a.pages:
        wanted = [p for p in a.pages.split(",") if p]
        unknown = sorted(set(wanted) - {p[4] for p in PAGES})
        if unknown:
            ap.error(f"unknown page(s) {', '.join(unknown)}; pages: {', '.join(p[4] for p in PAGES)}")
        PAGES = [p for p in PAGES if p[4] in wanted]  # noqa: N806 - the registry's name
    failed = []
    t_all = time.perf_counter()
    for _section, file, title, _icon, _url in PAGES:
        t = time.perf_counter()
        at = AppTest.from_file(str(ROOT / "app" / "views" / file), default_timeout=1800).run()
        dt = time.perf_counter() - t
        bad = [e.message for e in at.exception]
        print(f"{title:40s} {dt:7.1f} s{'  ERROR: ' + bad[0][:200] if bad else ''}", flush=True)
        if bad:
            failed.append(title)
    print(f"warmed {len(PAGES)} pages in {time.perf_counter() - t_all:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
