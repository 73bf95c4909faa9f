"""Load bench (issue 20): many concurrent sessions against one Streamlit server on loopback.

Starts ``streamlit run app/main.py`` on a free loopback port, then

1. **reference** (same run, no load): one session opens the home page and reruns it
   (median of ``--ref-reruns``);
2. **load**: ``--sessions`` protocol-level clients, each one websocket speaking Streamlit's own
   protocol (``BackMsg.rerun_script`` with the page's URL path; ``ForwardMsg`` deltas until
   ``script_finished``), as a browser tab does. Each session opens ``--pages-per-session``
   pages (rotated so every page is visited) and reruns each ``--reruns`` times; the sessions
   start together. Alongside, ``--browsers`` real Chromium tabs (Playwright, one browser, one
   context per tab) load pages until the load ends.

Bounded in count (sessions x pages x reruns) and time (``--deadline-s``: no new run starts after
it; each run times out after ``--run-timeout-s``).

Prints, per page: runs, p50/p95 of the first run (page opened in the session) and of the
reruns [s], errors; then the errors by kind (an exception element, an error box, a run not
finished successfully, a timeout, a dropped connection), the server's peak RSS (process tree,
sampled every 0.2 s) and the last line ``ratio:`` = p95 rerun of the closed-form pages under load
/ home-page rerun alone.

Goal on the 2-core machine (issue 20): 40 sessions, 0 errors, server RSS <= 2 GB, rerun p95 <= 3 s
on closed-form pages (measured with ``--think-s 15``; RSS also with ``--think-s 0``, all sessions
rerunning at once). Run: ``python bench/bench_load.py`` (``make load`` runs both); about 2-4 minutes
each. The server's limits are read from its environment: ``PCM_RUN_SLOTS`` (page runs at once,
default 4), ``PCM_HEAVY_SLOTS`` (cache misses at once, default the CPU count), ``PCM_FIGURE_CACHE``
(0: off), ``PCM_MALLOC_TUNE`` (0: glibc's malloc untouched: no arena cap, no trims) -- set them
to 0 for a before / after comparison (app/components/heavy.py, charts.py). The caches' byte
budgets are in ``.streamlit/config.toml`` (read by the server started here, as by ``make run``).

``--starvation`` runs issue 42's starvation pass instead: ``--flood-sessions`` (4) sessions each upload a
blank-line flood (a zstd file of ``--flood-mib`` MiB of newlines around two requests) to the trace explorer
while ``--sessions`` (20) others rerun a closed-form page (``--starve-page``, default home) ``--reruns`` times;
it reports the closed-form reruns' p50/p95 (goal p95 <= 3 s) and the uploads' times. The uploads go as a
browser sends them: the file's URLs asked for over the websocket, the bytes PUT with the XSRF cookie and
header, then a rerun with the uploader's widget state.

The warm-up's peak RSS includes any slow first visit: a page whose disk cache is stale (models
edited since ``make warm``) computes it then (the lifetime page's trace rates: ~1.7 GB, 30+ s);
first visits over 10 s are named in the output.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import defaultdict
from pathlib import Path

try:
    import psutil
except ImportError:  # optional (the bench extra): /proc is read instead
    psutil = None
import websockets
from _common import ROOT
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from app.registry import PAGES

#: Pages whose results are closed-form (no trace replay): the rerun goal applies to them.
CLOSED_FORM = ("home", "devices", "break-even", "workloads", "lifetime", "device-characterization")
ALERT_ERROR = 1  # Alert.Format.ERROR
#: The default page is served at the root URL (page name "").
DEFAULT_PAGE = "home"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, round(q * (len(xs) - 1))))]


class Stats:
    """Run times [s] and errors, by page."""

    def __init__(self) -> None:
        self.first: dict[str, list[float]] = defaultdict(list)
        self.rerun: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, int] = defaultdict(int)
        self.by_page_errors: dict[str, int] = defaultdict(int)
        self.samples: list[str] = []
        self.home_alone = float("nan")  # home-page rerun alone [s] (the reference)
        self.warm: Stats | None = None  # each page opened once, alone, before the load
        self.wall = 0.0
        self.browser_pages = 0
        self.warm_peak_rss = 0  # server peak RSS up to the end of the warm-up [bytes]

    def error(self, page: str, kind: str, detail: str = "") -> None:
        self.errors[kind] += 1
        self.by_page_errors[page] += 1
        if len(self.samples) < 5:
            self.samples.append(f"{page}: {kind} {detail[:200]}")


async def _run_page(ws, page: str, timeout_s: float) -> tuple[float, list[tuple[str, str]]]:
    """One rerun of ``page`` in the session: (wall time [s], problems)."""
    msg = BackMsg()
    msg.rerun_script.query_string = ""
    msg.rerun_script.page_name = "" if page == DEFAULT_PAGE else page
    t0 = time.perf_counter()
    await ws.send(msg.SerializeToString())
    problems = []
    async with asyncio.timeout(timeout_s):
        while True:
            fwd = ForwardMsg()
            fwd.ParseFromString(await ws.recv())
            kind = fwd.WhichOneof("type")
            if kind == "delta" and fwd.delta.WhichOneof("type") == "new_element":
                el = fwd.delta.new_element
                what = el.WhichOneof("type")
                if what == "exception":
                    problems.append(("exception", f"{el.exception.type}: {el.exception.message}"))
                elif what == "alert" and el.alert.format == ALERT_ERROR:
                    problems.append(("error box", el.alert.body))
            elif kind == "page_not_found":
                problems.append(("page not found", page))
            elif kind == "script_finished":
                if fwd.script_finished != ForwardMsg.FINISHED_SUCCESSFULLY:
                    problems.append(("not finished", ForwardMsg.ScriptFinishedStatus.Name(fwd.script_finished)))
                return time.perf_counter() - t0, problems


async def _session(url: str, pages: list[str], reruns: int, stats: Stats, deadline: float, timeout_s: float,
                   start: asyncio.Event, think_s: float = 0.0, seed: int = 0) -> None:
    rng = random.Random(seed)
    await start.wait()
    page = pages[0]
    try:
        async with websockets.connect(url, subprotocols=["streamlit"], max_size=None, open_timeout=timeout_s,
                                      ping_interval=None) as ws:
            for page in pages:
                for k in range(1 + reruns):
                    if think_s:  # a user reads the page before the next interaction
                        await asyncio.sleep(rng.uniform(0, 2 * think_s))
                    if time.monotonic() > deadline:
                        return
                    try:
                        dt, problems = await _run_page(ws, page, timeout_s)
                    except TimeoutError:
                        stats.error(page, "timeout")
                        return  # the connection is in an unknown state
                    (stats.first if k == 0 else stats.rerun)[page].append(dt)
                    for kind, detail in problems:
                        stats.error(page, kind, detail)
    except (OSError, websockets.WebSocketException) as e:
        stats.error(page, "connection", repr(e))


async def _browsers(base: str, pages: list[str], n: int, stats: Stats, stop: asyncio.Event, timeout_s: float) -> int:
    """``n`` Chromium tabs loading pages until ``stop``; returns the pages loaded."""
    if n <= 0:
        return 0
    if not Path(CHROMIUM).exists():
        print(f"(no real browsers: {CHROMIUM} missing; `make test` installs it)")
        return 0
    from playwright.async_api import async_playwright

    done = 0
    script = ("() => { const a = document.querySelector('[data-testid=\"stApp\"]');"
              " const drawn = document.querySelector('h1') || document.querySelector('[data-testid=\"stException\"]');"
              " return a && drawn && a.getAttribute('data-test-script-state') === 'notRunning'; }")

    async def tab(browser, k: int) -> None:
        nonlocal done
        ctx = await browser.new_context(viewport={"width": 1280, "height": 1600})
        pg = await ctx.new_page()
        i = k
        while not stop.is_set():
            page = pages[i % len(pages)]
            i += 1
            t0 = time.perf_counter()
            try:
                await pg.goto(f"{base}/{'' if page == DEFAULT_PAGE else page}", timeout=timeout_s * 1000)
                await pg.wait_for_function(script, timeout=timeout_s * 1000)
            except Exception as e:  # noqa: BLE001 - counted as an error of the page
                stats.error(page, "browser", repr(e))
                continue
            stats.first[f"browser:{page}"].append(time.perf_counter() - t0)
            if await pg.locator('[data-testid="stException"]').count():
                stats.error(page, "browser exception")
            done += 1
        await ctx.close()

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS, headless=True)
        await asyncio.gather(*(tab(browser, k) for k in range(n)))
        await browser.close()
    return done


def _rss(pid: int) -> int:
    """Resident memory of ``pid`` and its children [bytes] (psutil, or /proc on Linux without it)."""
    if psutil is not None:
        proc = psutil.Process(pid)
        return proc.memory_info().rss + sum(c.memory_info().rss for c in proc.children(recursive=True))
    with open(f"/proc/{pid}/status") as f:
        return next(int(ln.split()[1]) * 1024 for ln in f if ln.startswith("VmRSS:"))


def _cpu_s(pid: int) -> float:
    """CPU time (user + system) of ``pid`` and its children so far [s]."""
    if psutil is not None:
        procs = [psutil.Process(pid)]
        procs += procs[0].children(recursive=True)
        return sum(sum(p.cpu_times()[:2]) for p in procs)
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss_sampler(pid: int, out: dict, stop: threading.Event) -> None:
    while not stop.is_set():
        try:
            rss = _rss(pid)
        except Exception:  # noqa: BLE001 - the server is gone (psutil.Error, OSError): stop sampling
            break
        out["peak"] = max(out.get("peak", 0), rss)
        out["last"] = rss
        stop.wait(0.2)


def _flood(mib: int) -> bytes:
    """A zstd block trace: one request, ``mib`` MiB of newlines, one request (what issue 42's four tabs uploaded)."""
    import zstandard

    return zstandard.ZstdCompressor().compress(b"0 0 8 8 1\n" + b"\n" * (mib << 20) + b"1 0 16 8 0\n")


def _xsrf_cookie(base: str) -> str:
    """The server's XSRF cookie (set by the health endpoint, as the browser's first request gets it)."""
    import http.cookiejar

    jar = http.cookiejar.CookieJar()
    urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar)).open(base + "/_stcore/health",
                                                                                timeout=30).read()
    return next((c.value for c in jar if c.name == "_streamlit_xsrf"), "")


def _put(url: str, name: str, data: bytes, xsrf: str) -> int:
    boundary = "pcmplannerbench"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n"
            f"Content-Type: application/octet-stream\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
    req = urllib.request.Request(url, data=body, method="PUT", headers={
        "Content-Type": f"multipart/form-data; boundary={boundary}", "X-Xsrftoken": xsrf,
        "Cookie": f"_streamlit_xsrf={xsrf}"})
    return urllib.request.urlopen(req, timeout=120).status


async def _recv_until(ws, want, timeout_s: float):
    """ForwardMsgs until ``want(msg)`` returns something (returned) or the script finishes (None)."""
    async with asyncio.timeout(timeout_s):
        while True:
            fwd = ForwardMsg()
            fwd.ParseFromString(await ws.recv())
            got = want(fwd)
            if got is not None:
                return got


async def _flood_session(base: str, url: str, data: bytes, stats: Stats, timeout_s: float, start: asyncio.Event,
                         k: int) -> None:
    """Open the trace explorer with the upload source, upload ``data`` as a browser does, wait for the run."""
    from streamlit.proto.Common_pb2 import FileURLs

    page = "trace-explorer"
    xsrf = await asyncio.to_thread(_xsrf_cookie, base)
    await start.wait()
    try:
        async with websockets.connect(url, subprotocols=["streamlit"], max_size=None, open_timeout=timeout_s,
                                      ping_interval=None,
                                      additional_headers={"Cookie": f"_streamlit_xsrf={xsrf}"}) as ws:
            msg = BackMsg()
            msg.rerun_script.query_string = "trace_source=upload"
            msg.rerun_script.page_name = page
            await ws.send(msg.SerializeToString())
            seen = {}

            def scan(fwd):
                if fwd.WhichOneof("type") == "new_session":
                    seen["session"] = fwd.new_session.initialize.session_id
                elif fwd.WhichOneof("type") == "delta" and fwd.delta.WhichOneof("type") == "new_element" \
                        and fwd.delta.new_element.WhichOneof("type") == "file_uploader" and "uploader" not in seen:
                    seen["uploader"] = fwd.delta.new_element.file_uploader.id
                return True if fwd.WhichOneof("type") == "script_finished" else None

            await _recv_until(ws, scan, timeout_s)
            if "uploader" not in seen or "session" not in seen:
                stats.error(page, "no upload widget", str(seen))
                return
            req = BackMsg()
            req.file_urls_request.request_id = f"r{k}"
            req.file_urls_request.file_names.append(f"flood{k}.trace.zst")
            req.file_urls_request.session_id = seen["session"]
            await ws.send(req.SerializeToString())
            urls = await _recv_until(ws, lambda f: f.file_urls_response if f.WhichOneof("type") == "file_urls_response"
                                     else None, timeout_s)
            fu = urls.file_urls[0]
            up_url = fu.upload_url if fu.upload_url.startswith("http") else base + fu.upload_url
            t0 = time.perf_counter()
            await asyncio.to_thread(_put, up_url, f"flood{k}.trace.zst", data, xsrf)
            run = BackMsg()
            run.rerun_script.query_string = "trace_source=upload"
            run.rerun_script.page_name = page
            w = run.rerun_script.widget_states.widgets.add()
            w.id = seen["uploader"]
            info = w.file_uploader_state_value.uploaded_file_info.add()
            info.file_id, info.name, info.size = fu.file_id, f"flood{k}.trace.zst", len(data)
            info.file_urls.CopyFrom(FileURLs(file_id=fu.file_id, upload_url=fu.upload_url, delete_url=fu.delete_url))
            await ws.send(run.SerializeToString())
            await _recv_until(ws, lambda f: True if f.WhichOneof("type") == "script_finished" else None, timeout_s)
            stats.first["upload:" + page].append(time.perf_counter() - t0)
    except TimeoutError:
        stats.error("upload:" + page, "timeout")
    except (OSError, websockets.WebSocketException) as e:
        stats.error("upload:" + page, "connection", repr(e))


async def _starvation(a, base: str) -> Stats:
    """Issue 42's starvation pass (see the module docstring)."""
    url = base.replace("http", "ws", 1) + "/_stcore/stream"
    go = asyncio.Event()
    go.set()
    warm = Stats()  # the closed-form page's first visit fills its caches (a cold start is not starvation)
    await _session(url, [a.starve_page], 1, warm, time.monotonic() + 300, a.run_timeout_s, go)
    stats = Stats()
    stats.warm = warm
    stats.home_alone = statistics.median(warm.rerun[a.starve_page]) if warm.rerun[a.starve_page] else float("nan")
    data = _flood(a.flood_mib)
    start = asyncio.Event()
    deadline = time.monotonic() + a.deadline_s
    floods = [asyncio.create_task(_flood_session(base, url, data, stats, a.run_timeout_s, start, k))
              for k in range(a.flood_sessions)]
    await asyncio.sleep(1.0)  # the flood sessions fetch their XSRF cookies first
    start.set()
    await asyncio.sleep(a.flood_head_start_s)  # the uploads are parsing when the cheap reruns begin
    cheap = [asyncio.create_task(_session(url, [a.starve_page], a.reruns, stats, deadline, a.run_timeout_s, go,
                                          a.think_s, s)) for s in range(a.sessions)]
    t0 = time.perf_counter()
    await asyncio.gather(*cheap)
    stats.wall = time.perf_counter() - t0
    stats.samples.append(f"uploads still running when the cheap reruns ended: {sum(not f.done() for f in floods)} "
                         f"of {len(floods)}")
    await asyncio.gather(*floods)
    return stats


def _report_starvation(a, s: Stats) -> None:
    r = s.rerun.get(a.starve_page, [])
    f = s.first.get(a.starve_page, [])
    ups = s.first.get("upload:trace-explorer", [])
    print(f"starvation pass: {a.flood_sessions} sessions upload {a.flood_mib} MiB of newlines (zstd) to the trace "
          f"explorer while {a.sessions} sessions open and rerun '{a.starve_page}' {a.reruns} times")
    print(f"'{a.starve_page}' alone (rerun): {s.home_alone:.3f} s; under the uploads: {len(f)} first runs p95 "
          f"{_pct(f, .95):.2f} s, {len(r)} reruns p50 {_pct(r, .5):.2f} s, p95 {_pct(r, .95):.2f} s (goal <= 3 s)")
    print(f"uploads finished: {len(ups)}, times {', '.join(f'{x:.1f}' for x in sorted(ups))} s")
    print(f"errors: {sum(s.errors.values())} {dict(s.errors)}")
    for line in s.samples:
        print("  ", line)
    print(f"ratio: {_pct(r, .95) / s.home_alone:.2f}")


async def _main(a, base: str, rss: dict) -> Stats:
    url = base.replace("http", "ws", 1) + "/_stcore/stream"
    ref = Stats()
    go = asyncio.Event()
    go.set()
    await _session(url, ["home"], a.ref_reruns, ref, time.monotonic() + 120, a.run_timeout_s, go)
    if ref.errors or not ref.rerun["home"]:
        raise SystemExit(f"reference session failed: {dict(ref.errors)} {ref.samples}")
    home_alone = statistics.median(ref.rerun["home"])
    # every page once, alone: the first visit fills the server's caches (a cold start is not load)
    warm = Stats()
    await _session(url, [p[4] for p in PAGES if p[4] in a.pages], 0, warm, time.monotonic() + a.deadline_s,
                   2 * a.run_timeout_s, go)

    stats = Stats()
    stats.home_alone = home_alone
    stats.warm = warm
    stats.warm_peak_rss = rss.get("peak", 0)  # the server after opening every page once
    rss["peak"] = 0  # from here on: the load phase
    rss["cpu0"], rss["load0"] = _cpu_s(rss["pid"]), os.getloadavg()[0]
    start, stop = asyncio.Event(), asyncio.Event()
    deadline = time.monotonic() + a.deadline_s
    pages = list(a.pages)
    k = a.pages_per_session
    tasks = [asyncio.create_task(_session(url, [pages[(s * k + j) % len(pages)] for j in range(k)], a.reruns, stats,
                                          deadline, a.run_timeout_s, start, a.think_s, s)) for s in range(a.sessions)]
    browsers = asyncio.create_task(_browsers(base, [p for p in pages if p in CLOSED_FORM] or pages, a.browsers, stats,
                                             stop, a.run_timeout_s))
    t0 = time.perf_counter()
    start.set()
    await asyncio.gather(*tasks)
    stats.wall = time.perf_counter() - t0
    rss["cpu1"], rss["load1"] = _cpu_s(rss["pid"]), os.getloadavg()[0]
    stop.set()
    stats.browser_pages = await browsers
    return stats


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sessions", type=int, default=40)
    ap.add_argument("--pages-per-session", type=int, default=3)
    ap.add_argument("--reruns", type=int, default=2, help="reruns of each page after it is opened")
    ap.add_argument("--browsers", type=int, default=2, help="real Chromium tabs alongside (0: none)")
    ap.add_argument("--pages", nargs="+", default=[p[4] for p in PAGES if p[4] != "validation"],
                    help="URL paths (default: every page but the validation page, whose live ledger runs every claim)")
    ap.add_argument("--think-s", type=float, default=0.0,
                    help="mean pause before each run [s] (uniform 0..2x); 0: every session reruns at once (saturation)")
    ap.add_argument("--deadline-s", type=float, default=180.0)
    ap.add_argument("--run-timeout-s", type=float, default=90.0)
    ap.add_argument("--ref-reruns", type=int, default=5)
    ap.add_argument("--starvation", action="store_true",
                    help="issue 42's starvation pass (uploads of a blank-line flood vs closed-form reruns) instead")
    ap.add_argument("--flood-sessions", type=int, default=4, help="starvation pass: sessions uploading the flood")
    ap.add_argument("--flood-mib", type=int, default=64, help="starvation pass: MiB of newlines in the flood")
    ap.add_argument("--flood-head-start-s", type=float, default=3.0,
                    help="starvation pass: seconds the uploads run before the cheap reruns start")
    ap.add_argument("--starve-page", default="home", help="starvation pass: the closed-form page rerun")
    a = ap.parse_args(argv)
    if a.starvation and "--sessions" not in (argv if argv is not None else sys.argv):
        a.sessions = 20
    if not 1 <= a.sessions <= 200 or not 1 <= a.pages_per_session <= 20 or not 0 <= a.reruns <= 10:
        ap.error("sessions 1..200, pages-per-session 1..20, reruns 0..10")

    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    log = tempfile.TemporaryFile(mode="w+b")  # the server's log (a pipe left unread would block it)
    server = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app" / "main.py"), "--server.port", str(port),
         "--server.address", "127.0.0.1", "--server.headless", "true",
         # as deployed: no file watcher (a source file saved during the run would make Streamlit re-import
         # modules under the running sessions)
         "--server.fileWatcherType", "none"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    rss: dict = {"pid": server.pid}
    stop = threading.Event()
    try:
        t_end = time.time() + 90
        while time.time() < t_end:
            try:
                if urllib.request.urlopen(base + "/_stcore/health", timeout=2).read() == b"ok":
                    break
            except OSError:
                time.sleep(0.5)
        else:
            raise SystemExit("the server did not become healthy")
        sampler = threading.Thread(target=_rss_sampler, args=(server.pid, rss, stop), daemon=True)
        sampler.start()
        if a.starvation:
            s = asyncio.run(_starvation(a, base))
        else:
            s = asyncio.run(_main(a, base, rss))
    finally:
        stop.set()
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()

    if a.starvation:
        _report_starvation(a, s)
        return 0
    runs = sum(map(len, s.first.values())) + sum(map(len, s.rerun.values()))
    print(f"{a.sessions} sessions x {a.pages_per_session} pages x (1 + {a.reruns} reruns), think time {a.think_s:g} s, "
          f"{a.browsers} browser tabs; load phase {s.wall:.1f} s, {runs} runs ({runs / s.wall:.2f} per s)")
    print(f"server settings: PCM_RUN_SLOTS={os.environ.get('PCM_RUN_SLOTS', 'default (4)')}, "
          f"PCM_HEAVY_SLOTS={os.environ.get('PCM_HEAVY_SLOTS', 'default (CPU count, >= 2)')}, "
          f"PCM_FIGURE_CACHE={os.environ.get('PCM_FIGURE_CACHE', 'default (on)')}, "
          f"PCM_MALLOC_TUNE={os.environ.get('PCM_MALLOC_TUNE', 'default (on)')}")
    print(f"{'page':28s} {'first':>5s} {'p50 s':>7s} {'p95 s':>7s} {'reruns':>6s} {'p50 s':>7s} {'p95 s':>7s} "
          f"{'errors':>6s} {'alone s':>7s}")
    for page in [p for p in a.pages] + sorted(k for k in s.first if k.startswith("browser:")):
        f, r = s.first.get(page, []), s.rerun.get(page, [])
        alone = s.warm.first.get(page, [float("nan")])[0]
        err = s.by_page_errors.get(page.removeprefix("browser:"), 0) if not page.startswith("browser:") else ""
        print(f"{page:28s} {len(f):5d} {_pct(f, .5):7.2f} {_pct(f, .95):7.2f} {len(r):6d} {_pct(r, .5):7.2f} "
              f"{_pct(r, .95):7.2f} {err!s:>6s} {alone:7.2f}")
    closed = [x for p in CLOSED_FORM if p in a.pages for x in s.rerun.get(p, [])]
    allr = [x for v in s.rerun.values() for x in v]
    print(f"reruns: all pages p50 {_pct(allr, .5):.2f} s, p95 {_pct(allr, .95):.2f} s; closed-form pages p50 "
          f"{_pct(closed, .5):.2f} s, p95 {_pct(closed, .95):.2f} s (goal <= 3 s)")
    print(f"home rerun alone (reference): {s.home_alone:.3f} s; browser pages loaded: {s.browser_pages}")
    cpu = rss.get("cpu1", 0) - rss.get("cpu0", 0)
    print(f"server CPU in the load phase: {cpu:.0f} s = {cpu / s.wall:.2f} cores busy, {cpu / max(runs, 1):.2f} s per run "
          f"(one process: its Python runs on one core at a time); machine load average (1 min) "
          f"{rss.get('load0', float('nan')):.1f} at the start, {rss.get('load1', float('nan')):.1f} at the end "
          f"({os.cpu_count()} CPUs)")
    print(f"errors: {sum(s.errors.values())} {dict(s.errors)} (goal 0); warm-up errors: {dict(s.warm.errors)}")
    for line in s.samples + s.warm.samples:
        print("  e.g.", line)
    log.seek(0)
    errs = [ln for ln in log.read().decode(errors="replace").splitlines()
            if not ln.startswith(" ") and ("Error" in ln or "Exception" in ln)]  # an exception's last line
    if errs:
        print(f"server log: {len(errs)} error lines, e.g.")
        for ln in dict.fromkeys(errs[-40:]):
            print("  ", ln[:240])
    slow = {p: v[0] for p, v in s.warm.first.items() if v and v[0] > 10}
    if slow:
        print("slow first visits (over 10 s: a stale disk cache computed during the warm-up -- `make warm` first -- "
              "or a loaded machine): "
              + ", ".join(f"{p} {t:.0f} s" for p, t in slow.items()))
    print(f"server peak RSS: {max(s.warm_peak_rss, rss.get('peak', 0)) / 2**20:,.0f} MiB (warm-up "
          f"{s.warm_peak_rss / 2**20:,.0f} MiB, load phase {rss.get('peak', 0) / 2**20:,.0f} MiB), at the end "
          f"{rss.get('last', 0) / 2**20:,.0f} MiB (goal <= 2048 MiB)")
    print(f"ratio: {_pct(closed, .95) / s.home_alone:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
