#!/usr/bin/env python3
"""Snapshot the memory of real running processes twice and bundle sampled page version pairs.

Used to build ``data/pages/page_pairs.npz`` for the write-reduction model
(``models/endurance/write_reduction.py``, seed 002 section 5.1). Needs Linux and the right to read
``/proc/PID/mem`` of the child processes it starts (run as root, or with
``kernel.yama.ptrace_scope = 0`` as the same user).

What it does, per workload:

1. starts the workload as a child process (``sys.executable -c CODE``) with a minimal,
   fixed environment (no inherited variables: nothing of the caller's environment can end
   up in the sampled stack pages);
2. waits until the child prints ``ready`` (its data is initialised) and lets it run for
   ``--warmup`` seconds;
3. stops it (SIGSTOP), reads ``/proc/PID/maps`` and keeps the private writable mappings
   (``rw-p``: heap, anonymous memory, stack, writable data of the interpreter and libraries:
   what an OS would move to a memory extension; read-only and shared mappings are
   skipped), keeps the pages present in RAM according to ``/proc/PID/pagemap`` (bit 63),
   samples ``2 x --pages`` of them uniformly (seeded) and reads their contents from
   ``/proc/PID/mem`` (version 1); resumes it (SIGCONT);
4. lets it run for ``--interval`` seconds, stops it again, re-reads the same pages
   (version 2) where they are still mapped and present, then kills the child;
5. keeps ``--pages`` pairs uniformly at random (seeded).

Version 1 plays the page's content when it was last brought from the NVM (the copy an
inclusive memory extension still holds), version 2 its content at eviction. A pair with
identical versions is a clean page (no write-back under inclusion). Pages whose content
was rewritten with identical bytes (silent stores) look clean here although the MMU dirty
bit would be set: the sample slightly overstates clean pages.

Output: one ``.npz`` (``numpy.savez_compressed``) with ``old`` and ``new`` (uint8, n x 4096),
``workload`` (int8 index into ``workload_names``), ``region`` (int8 index into
``region_names``: heap, anon, stack, data) and ``meta`` (JSON string: date, kernel, Python,
NumPy and SQLite versions, options).

Usage::

    sudo .venv/bin/python data/pages/snapshot_pages.py --out data/pages/page_pairs.npz \\
        --pages 1500 --interval 4 --seed 2026
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import signal
import subprocess
import sys
import time

import numpy as np

PAGE = 4096

# --- workloads: each prints "ready" once initialised, then works until killed ------------------

NUMPY_WORKLOAD = r"""
import sys, numpy as np
rng = np.random.default_rng(7)
# Structured-grid solver state (an HPC proxy in miniature): a 1536x1536 float64 field updated by
# a Jacobi sweep on a moving band of rows, integer mesh connectivity (small ints), a CSR matrix
# (int32 column indices, float64 values), a histogram and a Python dict of per-cell objects.
n = 1536
u = np.zeros((n, n)); u[0, :] = 1.0; u[:, 0] = 0.5
conn = np.stack([np.arange(n * 64) + k for k in range(4)], axis=1).astype(np.int64) % (n * 64)
rows = np.repeat(np.arange(n * 64, dtype=np.int32), 5)
cols = (rows + rng.integers(-3, 4, size=rows.size)).clip(0, n * 64 - 1).astype(np.int32)
vals = rng.standard_normal(rows.size)
x = np.ones(n * 64); y = np.zeros(n * 64)
hist = np.zeros(4096, dtype=np.int64)
cells = {i: {"id": i, "state": "active", "energy": 0.0} for i in range(60000)}
print("ready", flush=True)
it = 0
while True:
    lo = 1 + (it * 64) % (n - 130)
    u[lo:lo + 128, 1:-1] = 0.25 * (u[lo - 1:lo + 127, 1:-1] + u[lo + 1:lo + 129, 1:-1]
                                   + u[lo:lo + 128, :-2] + u[lo:lo + 128, 2:])
    y[:] = 0.0
    np.add.at(y, rows[: rows.size // 8], vals[: rows.size // 8] * x[cols[: rows.size // 8]])
    hist += np.bincount((np.abs(y[:4096]) * 100).astype(np.int64) % 4096, minlength=4096)
    for i in range(it * 500 % 60000, it * 500 % 60000 + 500):
        c = cells[i]; c["energy"] += 1.0
        if it % 7 == 0: c["state"] = "done"
    it += 1
"""

SQLITE_WORKLOAD = r"""
import sys, sqlite3, random
random.seed(11)
db = sqlite3.connect(":memory:")
db.execute("PRAGMA cache_size=-65536")
db.execute("CREATE TABLE orders(id INTEGER PRIMARY KEY, customer INTEGER, item TEXT, qty INTEGER,"
           " price REAL, status TEXT)")
db.execute("CREATE INDEX by_customer ON orders(customer)")
items = ["widget", "gadget", "sprocket", "flange", "gear", "bolt", "nut", "washer"]
db.executemany("INSERT INTO orders(customer, item, qty, price, status) VALUES (?,?,?,?,?)",
               ((random.randrange(20000), random.choice(items), random.randrange(1, 50),
                 round(random.uniform(1, 500), 2), "new") for _ in range(300000)))
db.commit()
print("ready", flush=True)
n = 300000
while True:
    for _ in range(2000):
        op = random.random()
        if op < 0.4:
            db.execute("UPDATE orders SET status=?, qty=qty+1 WHERE id=?",
                       (random.choice(["paid", "shipped", "returned"]), random.randrange(1, n)))
        elif op < 0.7:
            db.execute("INSERT INTO orders(customer, item, qty, price, status) VALUES (?,?,?,?,?)",
                       (random.randrange(20000), random.choice(items), random.randrange(1, 50),
                        round(random.uniform(1, 500), 2), "new")); n += 1
        else:
            db.execute("SELECT sum(qty*price) FROM orders WHERE customer=?",
                       (random.randrange(20000),)).fetchone()
    db.commit()
"""

WORKLOADS = {"python-numpy": NUMPY_WORKLOAD, "python-sqlite": SQLITE_WORKLOAD}
REGIONS = ("heap", "anon", "stack", "data")
CLEAN_ENV = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/nonexistent", "PYTHONHASHSEED": "0",
             "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}


def writable_private_ranges(pid: int) -> list[tuple[int, int, str]]:
    """(start, end, region) of the ``rw-p`` mappings of ``pid`` (no [vvar]/[vsyscall]/[vdso])."""
    out = []
    with open(f"/proc/{pid}/maps") as f:
        for line in f:
            parts = line.split()
            lo, hi = (int(x, 16) for x in parts[0].split("-"))
            perms = parts[1]
            path = parts[5] if len(parts) > 5 else ""
            if perms != "rw-p" or path in ("[vvar]", "[vsyscall]", "[vdso]", "[vvar_vclock]"):
                continue
            region = "heap" if path == "[heap]" else "stack" if path.startswith("[stack") else (
                "anon" if path == "" else "data")
            out.append((lo, hi, region))
    return out


def present_pages(pid: int, ranges) -> tuple[np.ndarray, np.ndarray]:
    """Addresses of the pages present in RAM (pagemap bit 63) and their region index."""
    addrs, regs = [], []
    with open(f"/proc/{pid}/pagemap", "rb") as pm:
        for lo, hi, region in ranges:
            n = (hi - lo) // PAGE
            pm.seek(lo // PAGE * 8)
            raw = np.frombuffer(pm.read(n * 8), dtype=np.uint64)
            present = (raw >> np.uint64(63)) & np.uint64(1)
            idx = np.nonzero(present)[0]
            addrs.append(lo + idx.astype(np.int64) * PAGE)
            regs.append(np.full(idx.size, REGIONS.index(region), dtype=np.int8))
    if not addrs:
        return np.zeros(0, np.int64), np.zeros(0, np.int8)
    return np.concatenate(addrs), np.concatenate(regs)


def read_pages(pid: int, addrs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Contents of the pages at ``addrs`` (n x 4096 uint8) and a mask of those read."""
    out = np.zeros((addrs.size, PAGE), dtype=np.uint8)
    ok = np.zeros(addrs.size, dtype=bool)
    with open(f"/proc/{pid}/mem", "rb", buffering=0) as mem:
        for i, a in enumerate(addrs.tolist()):
            try:
                mem.seek(a)
                b = mem.read(PAGE)
            except OSError:
                continue
            if b is not None and len(b) == PAGE:
                out[i] = np.frombuffer(b, dtype=np.uint8)
                ok[i] = True
    return out, ok


def snapshot_pair(pid: int, *, pages: int, rng: np.random.Generator, run, empty: str | None = None):
    """Read up to ``2 * pages`` sampled present writable pages of the stopped process ``pid``, let it
    work (SIGCONT, ``run()``, SIGSTOP) and read them again.

    Returns ``(addrs, regs, old, new, keep)``; ``keep`` marks the pages read both times and still
    present. ``empty``: message of the RuntimeError raised when no page is present (None: go on).
    """
    addrs, regs = present_pages(pid, writable_private_ranges(pid))
    if empty is not None and addrs.size == 0:
        raise RuntimeError(empty)
    pick = np.sort(rng.choice(addrs.size, size=min(addrs.size, 2 * pages), replace=False))
    addrs, regs = addrs[pick], regs[pick]
    old, ok1 = read_pages(pid, addrs)
    os.kill(pid, signal.SIGCONT)
    run()
    os.kill(pid, signal.SIGSTOP)
    still, _ = present_pages(pid, writable_private_ranges(pid))
    new, ok2 = read_pages(pid, addrs)
    return addrs, regs, old, new, ok1 & ok2 & np.isin(addrs, still)


def kept_pages(keep: np.ndarray, pages: int, rng: np.random.Generator) -> np.ndarray:
    """Indices of the ``keep`` pages, a sorted random ``pages`` of them when there are more."""
    idx = np.nonzero(keep)[0]
    if idx.size > pages:
        idx = np.sort(rng.choice(idx, size=pages, replace=False))
    return idx


def snapshot_workload(name: str, code: str, *, pages: int, warmup_s: float, interval_s: float,
                      rng: np.random.Generator) -> dict:
    """Run one workload and return its sampled page pairs."""
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, env=CLEAN_ENV,
                            text=True)
    try:
        line = proc.stdout.readline()
        if line.strip() != "ready":
            raise RuntimeError(f"{name}: workload did not start (got {line!r})")
        time.sleep(warmup_s)
        os.kill(proc.pid, signal.SIGSTOP)
        addrs, regs, old, new, keep = snapshot_pair(
            proc.pid, pages=pages, rng=rng, run=lambda: time.sleep(interval_s),
            empty=f"{name}: no present writable pages (pagemap unreadable?)")
    finally:
        proc.kill()
        proc.wait()
    idx = kept_pages(keep, pages, rng)
    return {"old": old[idx], "new": new[idx], "region": regs[idx], "present_pages": int(addrs.size)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="data/pages/page_pairs.npz", help="output .npz file")
    ap.add_argument("--pages", type=int, default=1500, help="page pairs kept per workload")
    ap.add_argument("--warmup", type=float, default=2.0, help="seconds of work before version 1 [s]")
    ap.add_argument("--interval", type=float, default=4.0, help="seconds of work between versions [s]")
    ap.add_argument("--seed", type=int, default=2026, help="sampling seed")
    ap.add_argument("--workloads", default=",".join(WORKLOADS), help="comma-separated subset")
    args = ap.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    names = [w for w in args.workloads.split(",") if w]
    for w in names:
        if w not in WORKLOADS:
            ap.error(f"--workloads: unknown workload {w!r}; valid: {', '.join(WORKLOADS)}")
    olds, news, wl, rg = [], [], [], []
    for i, w in enumerate(names):
        r = snapshot_workload(w, WORKLOADS[w], pages=args.pages, warmup_s=args.warmup,
                              interval_s=args.interval, rng=rng)
        dirty = np.any(r["old"] != r["new"], axis=1)
        print(f"{w}: {len(r['old'])} pairs, {dirty.mean():.1%} changed", file=sys.stderr)
        olds.append(r["old"])
        news.append(r["new"])
        rg.append(r["region"])
        wl.append(np.full(len(r["old"]), i, dtype=np.int8))
    import sqlite3

    meta = {
        "made": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d"),
        "kernel": platform.release(), "python": platform.python_version(), "numpy": np.__version__,
        "sqlite": sqlite3.sqlite_version, "page_bytes": PAGE, "pages_per_workload": args.pages,
        "warmup_s": args.warmup, "interval_s": args.interval, "seed": args.seed,
        "script": "data/pages/snapshot_pages.py",
    }
    np.savez_compressed(
        args.out, old=np.concatenate(olds), new=np.concatenate(news), workload=np.concatenate(wl),
        region=np.concatenate(rg), workload_names=np.array(names), region_names=np.array(REGIONS),
        meta=np.array(json.dumps(meta)),
    )
    print(f"wrote {args.out} ({os.path.getsize(args.out) / 1e6:.2f} MB)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
