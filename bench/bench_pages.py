"""Page speed in a real browser (issue 18): cold start, page visit, and rerun after one input change.

Starts the app's server and a reference server (an empty Streamlit page with one number input,
served with the app's own ``.streamlit/config.toml``),
drives Debian's Chromium through Playwright, and prints per page the median time of

- **visit**: open the page's URL until the script finished (new session each time);
- **rerun**: change one number input (a different value each time, so no cached result is reused
  unless the page caches by input) until the script finished,

with the same times of the reference page measured in the same run, so the ratios survive a
noisy, shared machine. Also the **cold start**: server launch to the first chart drawn, with an
empty numba cache and with the cache warm (``NUMBA_CACHE_DIR``).

First, without a browser, the **server-side CPU** of each page's rerun (Streamlit's AppTest in this
process, ``time.process_time``: what a rerun costs the server's GIL-bound core, whatever else loads
the machine), after one input change and with the same inputs, the figure cache
(``app/components/charts.py``) off and on alternately, against an empty page measured the same way
(``--server-only`` stops there and prints ``ratio:`` = median page rerun CPU / the empty page's;
``--profile PAGE`` prints a cProfile of one rerun).

Goals (issue 18): rerun <= 300 ms on closed-form pages, <= 2 s on trace-driven pages and on pages
solved iteratively per Monte Carlo sample (:data:`ITERATIVE`); cold start <= 6 s. Usage::

    python bench/bench_pages.py [--repeat 3] [--rounds 1] [--pages lifetime,paging] [--app-root DIR] [--no-cold]
                                [--server-only | --no-server] [--profile lifetime]

``--app-root`` benches another checkout (e.g. ``git archive HEAD | tar -x -C /tmp/base``) for a
before / after comparison. Last line: ``ratio:`` median rerun over all pages / reference rerun.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from _common import ROOT, print_ratio
from playwright.sync_api import TimeoutError as PlaywrightTimeout

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
#: Pages whose every number is a closed-form expression, evaluated vectorised (their How sure? bands
#: too): goal 300 ms. The others replay traces, or (:data:`ITERATIVE`) solve a model iteratively for
#: every configuration and every Monte Carlo sample: goal 2 s.
CLOSED_FORM = {"break-even", "lifetime", "device-characterization", "devices", "home", "validation"}
#: Pages whose model is solved iteratively per sample. The Filebench page runs exact MVA inside the
#: group-commit and write-back fixed points: ~10-80 MVA solutions per configuration and input sample,
#: 6 configurations x 1,000 samples for its p5-p95 band after each change. Seed 000 gives measurements,
#: not a closed form; by the mission's rule ("closed form where the paper is, trace-driven or Monte
#: Carlo where it is not") the page is not closed form.
ITERATIVE = {"workloads"}


def page_goal(page: str) -> tuple[str, float]:
    """(kind, rerun goal [s]) of a page: ``closed-form`` 0.3 s, ``iterative`` or ``trace`` 2 s (issue 18)."""
    if page in CLOSED_FORM:
        return "closed-form", 0.3
    return ("iterative" if page in ITERATIVE else "trace"), 2.0
REFERENCE_PAGE = '''import streamlit as st
st.title("Reference")
st.number_input("x", value=1.0, key="x")
st.write(st.session_state["x"])
'''
#: Where the reference page shows its input's value: its rerun has finished when that text changes. The
#: script state alone cannot tell: a 3 ms run's "running" and "notRunning" often reach the frontend in one
#: React render, so the attribute never changes (17 of 40 reference reruns on the 2-core machine), which
#: stalled :func:`rerun` (15 s + 300 s timeouts) and left only the slower reruns in the reference median.
REFERENCE_DONE = '[data-testid="stMarkdown"]'
_OBSERVE = """(content) => {
  const app = document.querySelector('[data-testid="stApp"]');
  window.__done = [];
  for (const o of window.__obs || []) o.disconnect();
  const state = new MutationObserver((records) => { const now = performance.now();
      for (const r of records) if (r.oldValue === 'running') window.__done.push(now); });
  state.observe(app, {attributes: true, attributeOldValue: true, attributeFilter: ['data-test-script-state']});
  window.__obs = [state];
  const shown = content && document.querySelector(content);
  if (shown) {  // the element's container: React may replace the element itself
    const text = new MutationObserver(() => window.__done.push(performance.now()));
    text.observe(shown.parentElement, {subtree: true, childList: true, characterData: true});
    window.__obs.push(text);
  }
  return performance.now();
}"""
#: A run finished after t0: the script state left "running" (records keep the old value, so a run
#: too short to be seen between two observer callbacks still counts), or the watched content changed.
_FINISHED_AFTER = "(t0) => (window.__done || []).some((t) => t >= t0)"
_FINISH_TIME = "(t0) => Math.min(...window.__done.filter((t) => t >= t0))"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def reference_app(root: Path) -> tuple[Path, Path]:
    """(script, folder) of the reference page, in a new temporary folder with the app's own
    ``.streamlit/config.toml``: like for like, the same server options as the app (without it the
    reference ran Streamlit's default ``runner.postScriptGC``, a full ``gc.collect()`` after each run:
    its rerun took 80-107 ms instead of 28 ms, 54-67 ms of it the collection)."""
    tmp = Path(tempfile.mkdtemp(prefix="bench-pages-"))
    (tmp / "ref.py").write_text(REFERENCE_PAGE)
    (tmp / ".streamlit").mkdir()
    (tmp / ".streamlit" / "config.toml").write_bytes((root / ".streamlit" / "config.toml").read_bytes())
    return tmp / "ref.py", tmp


def start_server(script: Path, root: Path, env_extra: dict | None = None) -> tuple[subprocess.Popen, str, float]:
    """Start ``streamlit run script`` from ``root``; (process, url, seconds until healthy)."""
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(root), **(env_extra or {})}
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(script), "--server.port", str(port),
         "--server.address", "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats", "false"],
        cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 120
    while time.time() < deadline:
        try:
            if urllib.request.urlopen(url + "/_stcore/health", timeout=2).read() == b"ok":
                return proc, url, time.perf_counter() - t0
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError(f"server for {script} did not become healthy")


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


def wait_done(pg, timeout_ms: int = 300_000) -> None:
    pg.wait_for_function(
        "() => { const a = document.querySelector('[data-testid=\"stApp\"]');"
        " const drawn = document.querySelector('h1') || document.querySelector('[data-testid=\"stException\"]');"
        " return a && drawn && a.getAttribute('data-test-script-state') === 'notRunning'; }",
        timeout=timeout_ms)


def visit(pg, url: str) -> float:
    """Seconds from navigation to the script having finished (a fresh session: a full page load)."""
    t0 = time.perf_counter()
    pg.goto(url)
    wait_done(pg)
    return time.perf_counter() - t0


def _first_visible(pg, selector: str, numeric: bool = False):
    els = pg.locator(selector)
    try:  # widgets are drawn just after the script state settles
        els.first.wait_for(state="visible", timeout=3_000)
    except PlaywrightTimeout:
        return None
    for i in range(els.count()):
        el = els.nth(i)
        if el.is_visible() and el.is_enabled():
            if numeric:
                try:
                    float((el.input_value() or "").replace(",", ""))
                except ValueError:
                    continue
            return el
    return None


def _number(text: str) -> float:
    return float(text.replace(",", "") or 0)


def _new_text(value: str, k: int, base: str | None = None) -> str:
    """The k-th new value of an input now showing ``value``: ``base`` (what the page showed first;
    default ``value``) raised by 5 % (k + 1), so every rerun is one change from the page's defaults and
    the figure does not depend on ``--repeat`` (compounding changes had run device characterization's
    I/O depth from 64 to ~500 by the ninth rerun); never ``value`` itself."""
    base = value if base is None else base
    v = _number(base)
    is_int = not any(c in base for c in ".eE")
    new = v * (1 + 0.05 * (k + 1)) if v else k + 1.0
    text = str(round(new)) if is_int else f"{new:.6g}"
    if _number(text) == _number(value):
        now = _number(value)
        text = str(int(now) + 1) if is_int else f"{now + 0.5:.6g}"
    return text


#: The value each input (page URL, label) showed when first changed: the base of :func:`_new_text`.
_BASES: dict[tuple[str, str], str] = {}


def _next_text(where: str, label: str, value: str, k: int) -> str:
    """:func:`_new_text` of an input, from the value it showed first (:data:`_BASES`)."""
    return _new_text(value, k, _BASES.setdefault((where, label), value))


#: Label of the input the last :func:`rerun` changed (printed with the page's row).
CHANGED: list[str] = [""]


def _label(el) -> str:
    return el.evaluate("e => (e.closest('[data-testid=\\\"stNumberInput\\\"],[data-testid=\\\"stTextInput\\\"],"
                       "[data-testid=\\\"stSlider\\\"]')?.querySelector('label')?.innerText || '').trim()")


def rerun(pg, k: int, content: str | None = None) -> float | None:
    """Seconds from changing one input (the first visible number input, else a numeric text input,
    else a slider) to the rerun having finished; None when the page has none. ``content``: a selector
    of an element whose text the run changes (the reference page's :data:`REFERENCE_DONE`), also
    taken as the run's end."""
    el = _first_visible(pg, '[data-testid="stNumberInput"] input')
    el = el or _first_visible(pg, '[data-testid="stTextInput"] input', numeric=True)
    if el is not None:
        CHANGED[0] = _label(el)
        el.fill(_next_text(pg.url.split("?")[0], CHANGED[0], el.input_value(), k))
        t0 = pg.evaluate(_OBSERVE, content)
        el.press("Enter")
    else:
        el = _first_visible(pg, '[data-testid="stSlider"] [role="slider"]')
        if el is None:
            return None
        CHANGED[0] = _label(el)
        el.focus()
        t0 = pg.evaluate(_OBSERVE, content)
        el.press("ArrowRight" if k % 2 == 0 else "ArrowLeft")
    try:  # Enter commits a number input; if no run starts (the frontend kept the old value), blur it
        pg.wait_for_function(_FINISHED_AFTER, arg=t0, timeout=15_000)
    except PlaywrightTimeout:
        el.press("Tab")
        try:
            pg.wait_for_function(_FINISHED_AFTER, arg=t0, timeout=300_000)
        except PlaywrightTimeout:
            return None
    t1 = pg.evaluate(_FINISH_TIME, t0)
    return (t1 - t0) / 1e3


#: Recorded in the page from its first byte (epoch ms): the title drawn, the first Plotly chart element
#: added by Streamlit, that chart drawn by Plotly.js (its SVG), the script finished.
_COLD_OBSERVER = """(() => {
  const c = window.__cold = {};
  new MutationObserver(() => {
    const now = performance.timeOrigin + performance.now();
    if (!c.h1 && document.querySelector('h1')) c.h1 = now;
    if (!c.chart && document.querySelector('[data-testid="stPlotlyChart"]')) c.chart = now;
    if (!c.drawn && document.querySelector('.js-plotly-plot .main-svg')) c.drawn = now;
    const a = document.querySelector('[data-testid="stApp"]');
    if (!c.done && c.h1 && a && a.getAttribute('data-test-script-state') === 'notRunning') c.done = now;
  }).observe(document, {subtree: true, childList: true, attributes: true});
})()"""
#: Columns of the cold-start breakdown [s]: (label, start event, end event).
COLD_PHASES = [
    ("server up", "launch", "healthy"),
    ("browser loads app", "healthy", "run start"),
    ("shell (main.py)", "run start", "page start"),
    ("page to 1st chart", "page start", "chart"),
    ("browser draw", "chart", "drawn"),
    ("launch to chart", "launch", "drawn"),
    ("page done", "launch", "page end"),
    ("server CPU to page", "cpu 0", "cpu page start"),
    ("server CPU to chart", "cpu 0", "cpu drawn"),
    ("page CPU", "cpu page start", "cpu page end"),
]


def _cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) process ``pid`` has used (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def install_warm(root: Path, numba_dir: str, pages: list[str] | None) -> float:
    """The install step's warm-up (``python -m app.warmup``, as ``make run`` and the Docker build do)
    into an empty ``numba_dir`` (also the disk cache's home); seconds. ``pages``: only these (their
    numba kernels and disk-cached results are the ones they would get from warming every page)."""
    env = {**os.environ, "PYTHONPATH": str(root), "NUMBA_CACHE_DIR": numba_dir}
    t = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "app.warmup", *(["--pages", ",".join(pages)] if pages else [])],
                       cwd=root, env=env, capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(f"python -m app.warmup failed:\n{r.stdout[-2000:]}{r.stderr[-2000:]}")
    return time.perf_counter() - t


def cold_start(root: Path, numba_dir: str, page: str, browser) -> dict[str, float]:
    """One cold start of ``page``: a new server process (caches in ``numba_dir``) and a new browser tab.

    Returns epoch seconds of: ``launch`` (server process started), ``healthy`` (its health check
    answers), ``run start`` / ``page start`` / ``page end`` (app/main.py's first run started, its
    shell imported, its page script ended: ``PCM_TIMING_LOG``; ``cpu <event>``: the server process's
    CPU seconds then, a measure the machine's load changes little; ``cpu drawn``: when the bench saw
    the chart drawn or the page script ended, whichever came first), and from the browser ``h1`` (title
    drawn), ``chart`` (first Plotly chart element added), ``drawn`` (that chart drawn), ``done``
    (script finished). A page without a chart: ``chart`` and ``drawn`` are its title.
    The browser is already running (as a user's is); its tab opens once the server is healthy.
    """
    from app.registry import page_path

    log = Path(tempfile.mkdtemp(prefix="cold-")) / "timing.log"
    t = {"launch": time.time()}
    proc, url, _ = start_server(root / "app" / "main.py", root,
                                {"NUMBA_CACHE_DIR": numba_dir, "PCM_TIMING_LOG": str(log)})
    t["healthy"] = time.time()
    try:
        ctx = browser.new_context(viewport={"width": 1400, "height": 2000})
        ctx.add_init_script(_COLD_OBSERVER)
        pg = ctx.new_page()
        pg.goto(f"{url}/{page_path(page)}")
        # the first chart drawn (a page without one: its script finished): the server's CPU then
        pg.wait_for_function("() => window.__cold && (window.__cold.drawn || (window.__cold.done && "
                             "!document.querySelector('[data-testid=\"stPlotlyChart\"]')))", timeout=300_000)
        t["cpu drawn"] = _cpu_seconds(proc.pid)
        wait_done(pg)
        got = pg.evaluate("() => window.__cold")
        ctx.close()
    finally:
        stop(proc)
    t["cpu 0"] = 0.0  # the server process's CPU from its launch
    t.update({k: v / 1e3 for k, v in got.items()})
    t.setdefault("chart", t["h1"])
    t.setdefault("drawn", t["chart"])
    for line in log.read_text().splitlines() if log.exists() else []:
        at, cpu, _pid, what = line.split(" ", 3)
        t.setdefault(what, float(at))  # the first run's
        t.setdefault(f"cpu {what}", float(cpu))  # the server process's CPU seconds then
    if "cpu page end" in t:  # the chart was sent before the page script ended
        t["cpu drawn"] = min(t["cpu drawn"], t["cpu page end"])
    return t


def cold_report(root: Path, pages: list[str], repeat: int, warm: str) -> None:
    """Print the cold start of each of ``pages`` after a fresh install (empty ``NUMBA_CACHE_DIR`` and
    disk cache, then the install-time warm step ``warm``: "all" pages as ``make run`` does, "pages"
    only the measured ones, "none"): median over ``repeat`` server launches of the breakdown
    (:data:`COLD_PHASES`) and the goal comparison (launch to the first chart <= 6 s)."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="numba-cold-") as numba_dir:
        if warm != "none":
            dt = install_warm(root, numba_dir, None if warm == "all" else pages)
            print(f"install step: python -m app.warmup ({'every page' if warm == 'all' else ', '.join(pages)}) "
                  f"{dt:.0f} s into an empty NUMBA_CACHE_DIR")
        else:
            print("no install step: empty NUMBA_CACHE_DIR and disk cache at the first launch")
        print(f"cold start [s], median of {repeat} server launches (load average {os.getloadavg()[0]:.2f}): "
              "server launch -> first chart drawn in the browser (a page without a chart: its title)")
        print(f"{'page':12s} " + " ".join(f"{h:>19s}" for h, *_ in COLD_PHASES) + "  goal <= 6 s")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            for page in pages:
                runs = [cold_start(root, numba_dir, page, browser) for _ in range(repeat)]
                cells, total = [], None
                for label, a, b in COLD_PHASES:
                    d = [r[b] - r[a] for r in runs if a in r and b in r]
                    med = statistics.median(d) if d else None
                    total = med if label == "launch to chart" else total
                    cells.append("n/a" if med is None else f"{med:.2f}")
                each = ", ".join(f"{r['drawn'] - r['launch']:.2f}" for r in runs)
                ok = "ok" if total is not None and total <= 6 else "MISS"
                print(f"{page:12s} " + " ".join(f"{c:>19s}" for c in cells) + f"  {ok} (runs: {each})", flush=True)
            browser.close()


def _apptest_shared_bytecode() -> None:
    """Make AppTest keep compiled page bytecode between runs, as the server's ScriptCache does
    (AppTest compiles and rewrites the script's AST on every run: ~30 ms a page the server never pays)."""
    import streamlit.testing.v1.local_script_runner as lsr
    from streamlit.runtime.scriptrunner.script_cache import ScriptCache

    shared = ScriptCache()
    lsr.ScriptCache = lambda: shared


def _page_of(at) -> str:
    """The script an AppTest runs (the key of its inputs' bases; an object id can be reused after GC)."""
    return getattr(at, "_script_path", "") or str(id(at))


def _apptest_change(at, k: int) -> str | None:
    """Change one input of an AppTest page as :func:`rerun` does in the browser (the first enabled
    number input, else a numeric text input, else a slider); its label, None when there is none."""
    for w in at.number_input:
        if not w.disabled:
            v = w.value if w.value is not None else 0
            new = _next_text(_page_of(at), w.label, str(v), k)
            w.set_value(type(v)(float(new)) if isinstance(v, (int, float)) else float(new))
            return w.label
    for w in at.text_input:
        try:
            float((w.value or "").replace(",", ""))
        except ValueError:
            continue
        if not w.disabled:
            w.set_value(_next_text(_page_of(at), w.label, w.value, k))
            return w.label
    for w in at.slider:
        if not w.disabled and isinstance(w.value, (int, float)) and not isinstance(w.value, bool):
            lo, hi, v = w.min, w.max, w.value
            step = w.step or 1
            new = v + step if (k % 2 == 0 and v + step <= hi) or v - step < lo else v - step
            w.set_value(type(v)(new))
            return w.label
    return None


def _timed_run(at) -> tuple[float, float]:
    """(CPU [s] of this process, wall [s]) of one AppTest run."""
    c, t = time.process_time(), time.perf_counter()
    at.run()
    return time.process_time() - c, time.perf_counter() - t


def server_cpu(root: Path, pages: list[str], repeat: int, profile: str = "") -> tuple[list[float], float]:
    """Per-page server-side CPU of a rerun (Streamlit's AppTest, in process), figure cache off / on.

    CPU time (``time.process_time``) is what a rerun costs the server's one GIL-bound core whatever
    else loads the machine; the reference is an empty page with one number input, measured the same
    way in the same run. Per page, after a first visit: ``repeat`` reruns after one input change
    (a new value each time) and ``repeat`` reruns with the same inputs (what the load bench's
    sessions do), each alternating the figure cache (``app.components.charts.FIGURE_CACHE``) off and
    on, so both see the same page code, model caches and machine load. ``profile``: a url path whose
    next rerun is cProfiled (top 40, cumulative). Returns (median changed-input rerun CPU with the
    cache, per page; the reference's).
    """
    import cProfile
    import io
    import pstats
    import threading

    from streamlit.testing.v1 import AppTest

    from app.components.charts import FIGURE_CACHE
    from app.registry import PAGES

    _apptest_shared_bytecode()
    files = {p[4]: p[1] for p in PAGES}
    ref = AppTest.from_file(str(reference_app(root)[0])).run()
    ref_cpu = []
    for k in range(max(5, repeat)):
        _apptest_change(ref, k)
        ref_cpu.append(_timed_run(ref)[0])
    ref_med = statistics.median(ref_cpu)
    print(f"server side (AppTest in one process): reference empty page rerun {ref_med * 1e3:.1f} ms CPU; "
          "rerun CPU [s] after one input change / with the same inputs, figure cache off -> on")
    print(f"{'page':24s} {'kind':11s} {'visit':>6s} {'changed: off':>12s} {'on':>6s} {'same: off':>10s} {'on':>6s} "
          f"{'on / ref':>8s} {'goal':>5s}  input changed")
    totals = [0.0, 0.0, 0.0, 0.0]
    medians = []
    for page in pages:
        at = AppTest.from_file(str(root / "app" / "views" / files[page]), default_timeout=1800)
        FIGURE_CACHE.enabled = True
        visit_cpu, _ = _timed_run(at)
        if at.exception:
            print(f"{page:24s} ERROR {at.exception[0].message[:160]}")
            continue
        cpu: dict[tuple[str, bool], list[float]] = {(w, on): [] for w in ("changed", "same") for on in (False, True)}
        label = None
        for k in range(repeat):
            for on in (False, True):
                FIGURE_CACHE.enabled = on
                label = _apptest_change(at, 2 * k + on) or "(no numeric input: same inputs)"
                cpu["changed", on].append(_timed_run(at)[0])
        for _k in range(repeat):
            for on in (False, True):
                FIGURE_CACHE.enabled = on
                cpu["same", on].append(_timed_run(at)[0])
        FIGURE_CACHE.enabled = True
        if profile == page:
            prof = cProfile.Profile()
            _apptest_change(at, 2 * repeat + 1)
            threading.setprofile(lambda *_, p=prof: p.enable())  # the script runs in AppTest's own thread
            try:
                at.run()
            finally:
                threading.setprofile(None)
            out = io.StringIO()
            pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(40)
            print(out.getvalue())
        kind, goal = page_goal(page)
        med = {k: statistics.median(v) for k, v in cpu.items()}
        for i, k in enumerate((("changed", False), ("changed", True), ("same", False), ("same", True))):
            totals[i] += med[k]
        medians.append(med["changed", True])
        ok = "ok" if med["changed", True] <= goal else "MISS"
        print(f"{page:24s} {kind:11s} {visit_cpu:6.2f} {med['changed', False]:12.3f} {med['changed', True]:6.3f} "
              f"{med['same', False]:10.3f} {med['same', True]:6.3f} {med['changed', True] / ref_med:8.1f} {ok:>5s}  "
              f"{(label or '')[:36]}", flush=True)
    print(f"{'sum over the pages':36s} {totals[0]:12.3f} {totals[1]:6.3f} {totals[2]:10.3f} {totals[3]:6.3f}")
    print(f"figure cache: {len(FIGURE_CACHE)} figures, {FIGURE_CACHE.bytes / 2**20:.1f} MiB, {FIGURE_CACHE.hits} hits, "
          f"{FIGURE_CACHE.misses} misses. Server CPU is a lower bound of the browser's rerun time (goal 0.3 s "
          "closed-form, 2 s trace-driven or iterative: 'ok' = the CPU alone fits).")
    return medians, ref_med


def _quartiles(xs: list[float]) -> tuple[float, float]:
    """(p25, p75) of ``xs`` (the middle half of the reruns: the spread printed next to the median)."""
    q = statistics.quantiles(xs, n=4, method="inclusive") if len(xs) > 1 else [xs[0]] * 3
    return q[0], q[2]


def browser_report(root: Path, pages: list[str], repeat: int, rounds: int) -> None:
    """Visit and rerun times in Chromium per page, against the reference page in the same run.

    ``rounds`` passes over the reference and every page, each ``repeat`` visits and reruns: a page's
    figures are the median over all its reruns (and their p25-p75), its samples spread over the whole
    run rather than bunched in one stretch of a noisy machine. The k-th rerun of a page (counted over
    the rounds) changes its input to the k-th value of :func:`_new_text` (a new value every time, so no
    model result is reused from the cache)."""
    from playwright.sync_api import sync_playwright

    from app.registry import page_path

    app, url, _ = start_server(root / "app" / "main.py", root)
    ref, ref_url, _ = start_server(*reference_app(root))
    visits: dict[str, list[float]] = {}
    reruns: dict[str, list[float]] = {}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            ctx = browser.new_context(viewport={"width": 1400, "height": 2400})
            pg = ctx.new_page()
            visit(pg, ref_url)  # warm the reference server
            visit(pg, f"{url}/")  # server-side imports of the shell (the home page)
            labels: dict[str, str] = {}
            for r in range(rounds):
                for page, where, content in [("(reference)", ref_url, REFERENCE_DONE)] + [
                        (page, f"{url}/{page_path(page)}", None) for page in pages]:
                    visits.setdefault(page, []).extend(visit(pg, where) for _ in range(repeat))
                    CHANGED[0] = ""
                    times = (rerun(pg, r + rounds * i, content) for i in range(repeat))
                    reruns.setdefault(page, []).extend(t for t in times if t is not None)
                    labels[page] = CHANGED[0]
                print(f"round {r + 1} of {rounds} done", flush=True)
            browser.close()
    finally:
        stop(app)
        stop(ref)
    ref_rerun = statistics.median(reruns["(reference)"])
    lo, hi = _quartiles(reruns["(reference)"])
    print(f"reference (empty page): visit {statistics.median(visits['(reference)']) * 1e3:.0f} ms, rerun "
          f"{ref_rerun * 1e3:.0f} ms (p25-p75 {lo * 1e3:.0f}-{hi * 1e3:.0f} ms); {rounds} round(s) x {repeat}")
    print(f"{'page':26s} {'kind':12s} {'visit [s]':>10s} {'rerun [s]':>10s} {'p25-p75 [s]':>12s} {'rerun / ref':>12s} "
          f"{'goal':>6s}  input changed")
    medians = []
    for page in pages:
        kind, goal = page_goal(page)
        rv, rs = statistics.median(visits[page]), reruns.get(page, [])
        rr = statistics.median(rs) if rs else None
        spread = "" if rr is None else "{:.2f}-{:.2f}".format(*_quartiles(rs))
        ok = "" if rr is None else ("ok" if rr <= goal else "MISS")
        if rr is not None:
            medians.append(rr)
        print(f"{page:26s} {kind:12s} {rv:10.2f} {'n/a' if rr is None else f'{rr:.2f}':>10s} {spread:>12s} "
              f"{'' if rr is None else f'{rr / ref_rerun:.1f}':>12s} {ok:>6s}  {labels.get(page, '')[:40]}", flush=True)
    print_ratio(statistics.median(medians), ref_rerun)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="visits and reruns per page and round")
    ap.add_argument("--rounds", type=int, default=1,
                    help="passes over the reference and the pages (each page's median is over all its reruns)")
    ap.add_argument("--pages", default="", help="comma-separated url paths (default: every page)")
    ap.add_argument("--app-root", type=Path, default=ROOT)
    ap.add_argument("--no-cold", action="store_true", help="skip the cold-start measurement")
    ap.add_argument("--cold-page", default="lifetime",
                    help="comma-separated url paths whose cold start is measured (e.g. lifetime,home,break-even)")
    ap.add_argument("--cold-repeat", type=int, default=3, help="server launches per cold page (median)")
    ap.add_argument("--cold-warm", choices=("all", "pages", "none"), default="all",
                    help="install-time warm step before the cold starts: every page (as make run), only the "
                         "cold pages (same caches for them, faster), or none (empty caches)")
    ap.add_argument("--cold-only", action="store_true", help="only the cold start")
    ap.add_argument("--server-only", action="store_true",
                    help="only the server-side CPU per rerun (no browser, no cold start)")
    ap.add_argument("--no-server", action="store_true", help="skip the server-side CPU table")
    ap.add_argument("--profile", default="", help="url path of a page whose rerun is cProfiled (server side)")
    a = ap.parse_args()
    root = a.app_root.resolve()
    sys.path.insert(0, str(root))
    from app.registry import PAGES

    pages = [p[4] for p in PAGES]
    if a.pages:
        pages = [p for p in a.pages.split(",") if p]
    print(f"app: {root}; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} (a shared machine: "
          "compare the ratios, not the seconds)")
    if not a.no_server and not a.cold_only:
        medians, ref_med = server_cpu(root, pages, a.repeat, a.profile)
        if a.server_only:
            print_ratio(statistics.median(medians), ref_med)  # median page rerun CPU / empty page's
            return
    if not a.no_cold:
        cold_report(root, [p for p in a.cold_page.split(",") if p], a.cold_repeat, a.cold_warm)
        if a.cold_only:
            return

    browser_report(root, pages, a.repeat, a.rounds)


if __name__ == "__main__":
    main()
