#!/usr/bin/env python3
"""Post-processing for ``build_and_trace.sh``: native timing, trace packing, page snapshots.

Subcommands
-----------
``time --out OUT.json --repeats N -- CMD...``
    Runs CMD natively N times (stdout/stderr discarded, one OpenMP thread) and writes the wall
    times [s] (``time.perf_counter`` around the run) and the CPU times [s] (``perf stat -e
    task-clock``: exact CPU time of the task; without perf, user + system from
    ``getrusage(RUSAGE_CHILDREN)``, tick-sampled) with their medians, quartiles, min, max.
``pack NAME --bin W.bin --counts C.json --meta JSON --out OUT.npz``
    Packs the window written by ``lackey_window`` (records <u64 address, u8 size, u8 kind>) into
    the project's compact memory-trace ``.npz`` (``models/traces/formats/npz.py``, data
    references only) with the whole-run counts in its metadata.
``table``
    Writes ``apps.csv`` (next to this script) from every ``<app>.counts.json`` and
    ``<app>.timing.json`` there (``<app>.startup.json``: a start-up to subtract, miniAMR's MPI).
``snapshot --name NAME --out P.npz --pages K --warmup S --interval S -- CMD...``
    Runs CMD natively, stops it after ``--warmup`` seconds of its CPU time, reads ``2 K`` sampled
    present pages of its private writable mappings (version 1), resumes it for ``--interval``
    CPU seconds, stops it, re-reads them (version 2) and keeps K pairs (the method of
    ``data/pages/snapshot_pages.py``, whose helpers it uses). Needs the right to read
    ``/proc/PID/mem``.
``wholerun --app A.cg... --startup S.cg... --out W.json``
    Whole-run data references from valgrind cachegrind output files (``Dr + Dw``: cachegrind counts a
    modify once, as a read, so this is lackey's L + S + M), median over the repeated runs of the
    application and of its start-up program; for applications lackey can trace only in a window
    (miniAMR: MPI), whose time base is then (CPU time - start-up CPU time) / (references - start-up
    references).
``merge-pages OUT.npz IN.npz...``
    Merges per-app snapshots into one page-pair file in ``data/pages/`` format.

The per-app row of ``apps.csv``: whole-run data references (lackey L + S + M; instruction fetches
are never data references), loads, stores, modifies, bytes stored (S + M sizes), instruction
fetches, native times (median wall; CPU median, quartiles, min), time per data reference [ns] =
median CPU time / data references (low = fastest run, high = upper quartile; CPU rather than wall
time because the build machine's two cores are shared: CPU time excludes waiting for them;
``wall_ns_per_data_ref`` gives the wall-time figure), data writes per second and bytes stored per
second of CPU time. Window-only traces (miniAMR) take their whole-run count from ``<app>.wholerun.json``
(cachegrind, start-up subtracted; ``counter`` says which count a row uses).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "data" / "pages"))

from models.traces.formats import save_memtrace_npz  # noqa: E402

REC = np.dtype([("address", "<u8"), ("size", "u1"), ("kind", "u1")])
CSV_FIELDS = ["app", "data_refs", "loads", "stores", "modifies", "bytes_stored", "instruction_fetches",
              "native_runs", "wall_median_s", "cpu_median_s", "cpu_q25_s", "cpu_q75_s", "cpu_min_s",
              "startup_cpu_s", "ns_per_data_ref", "ns_per_data_ref_low", "ns_per_data_ref_high",
              "wall_ns_per_data_ref", "writes_per_s", "bytes_stored_per_s", "window_skip", "window_refs",
              "trace", "command", "counter"]


def _env() -> dict:
    e = dict(os.environ)
    e["OMP_NUM_THREADS"] = "1"
    return e


def _perf() -> str | None:
    """``perf`` when it can count the software event task-clock here, else None."""
    import shutil

    exe = shutil.which("perf")
    if exe is None:
        return None
    r = subprocess.run([exe, "stat", "-x,", "-e", "task-clock", "true"], capture_output=True, text=True, check=False)
    return exe if r.returncode == 0 and "task-clock" in r.stderr else None


def cmd_time(a) -> int:
    perf = _perf()
    wall, cpu = [], []
    for _ in range(a.repeats):
        if perf:  # task-clock: the CPU time of the task and its threads [ms], exact (not tick-sampled)
            t0 = time.perf_counter()
            r = subprocess.run([perf, "stat", "-x,", "-e", "task-clock", "--", *a.cmd], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True, env=_env(), check=False)
            wall.append(time.perf_counter() - t0)
            line = next(x for x in r.stderr.splitlines() if ",task-clock," in x)
            cpu.append(float(line.split(",")[0]) / 1e3)
        else:
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            subprocess.run(a.cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=_env(), check=False)
            wall.append(time.perf_counter() - t0)
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append((r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime))
    out = {"command": " ".join(a.cmd), "repeats": a.repeats, "cpu_clock": "perf task-clock" if perf else "getrusage",
           "wall_s": wall, "cpu_s": cpu}
    for key, v in (("wall", wall), ("cpu", cpu)):
        t = np.array(v)
        out.update({f"{key}_median_s": float(np.median(t)), f"{key}_q25_s": float(np.quantile(t, 0.25)),
                    f"{key}_q75_s": float(np.quantile(t, 0.75)), f"{key}_min_s": float(t.min()),
                    f"{key}_max_s": float(t.max())})
    Path(a.out).write_text(json.dumps(out, indent=1))
    print(f"{a.out}: median wall {out['wall_median_s'] * 1e3:.2f} ms, cpu {out['cpu_median_s'] * 1e3:.2f} ms "
          f"over {a.repeats} runs", file=sys.stderr)
    return 0


def cmd_pack(a) -> int:
    rec = np.fromfile(a.bin, dtype=REC)
    counts = json.loads(Path(a.counts).read_text())
    meta = json.loads(a.meta)
    meta.update(lackey_counts=counts, skipped_data_refs=int(counts["window_skip"]), kept_refs=int(len(rec)),
                instructions_kept=False, whole_run_counted=not counts.get("stopped_early", False))
    if len(rec) == 0:
        print(f"{a.name}: empty window", file=sys.stderr)
        return 1
    out = save_memtrace_npz(a.out, rec["address"], rec["kind"], rec["size"], meta)
    print(f"{out}: {len(rec)} refs, {out.stat().st_size / 1e6:.2f} MB", file=sys.stderr)
    return 0


def cmd_table(a) -> int:
    """apps.csv from every <app>.counts.json / <app>.timing.json next to this script."""
    rows = []
    for cj in sorted(HERE.glob("*.counts.json")):
        app = cj.name.split(".")[0]
        if not cj.read_text().strip():  # a trace still being recorded
            continue
        counts = json.loads(cj.read_text())
        tj = HERE / f"{app}.timing.json"
        timing = json.loads(tj.read_text()) if tj.is_file() else None
        sj = HERE / f"{app}.startup.json"
        startup = json.loads(sj.read_text()) if sj.is_file() else None
        row = {"app": app, "window_skip": counts["window_skip"], "window_refs": counts["window_refs"],
               "trace": f"data/traces/mem/{app}.npz", "command": (timing or {}).get("command", "")}
        if ROOT.as_posix() in row["command"] or "/tmp/" in row["command"]:
            row["command"] = " ".join(w.split("/")[-1] if "/" in w else w for w in row["command"].split())
        whole = not counts.get("stopped_early", False)
        wj = HERE / f"{app}.wholerun.json"
        if not whole and wj.is_file() and timing and "cpu_median_s" in timing:
            wr = json.loads(wj.read_text())
            base = startup["cpu_median_s"] if startup else 0.0
            data = wr["data_refs"] - wr["startup_data_refs"]
            cpu = timing["cpu_median_s"] - base
            row.update(counter="cachegrind (start-up subtracted)", data_refs=data,
                       instruction_fetches=wr["instruction_fetches"] - wr["startup_instruction_fetches"],
                       native_runs=timing["repeats"], wall_median_s=timing["wall_median_s"],
                       cpu_median_s=timing["cpu_median_s"], cpu_q25_s=timing["cpu_q25_s"],
                       cpu_q75_s=timing["cpu_q75_s"], cpu_min_s=timing["cpu_min_s"], startup_cpu_s=base,
                       ns_per_data_ref=cpu / data * 1e9,
                       ns_per_data_ref_low=(timing["cpu_min_s"] - base) / data * 1e9,
                       ns_per_data_ref_high=(timing["cpu_q75_s"] - base) / data * 1e9,
                       wall_ns_per_data_ref=(timing["wall_median_s"] - base) / data * 1e9,
                       writes_per_s=(wr["writes"] - wr["startup_writes"]) / cpu)
        if whole:
            row["counter"] = "lackey"
            row.update(data_refs=counts["data_refs"], loads=counts["loads"], stores=counts["stores"],
                       modifies=counts["modifies"], bytes_stored=counts["bytes_stored"] + counts["bytes_modified"],
                       instruction_fetches=counts["instruction_fetches"])
        if whole and timing and "cpu_median_s" in timing:
            base = startup["cpu_median_s"] if startup else 0.0
            data = counts["data_refs"]
            cpu = timing["cpu_median_s"] - base
            row.update(native_runs=timing["repeats"], wall_median_s=timing["wall_median_s"],
                       cpu_median_s=timing["cpu_median_s"], cpu_q25_s=timing["cpu_q25_s"],
                       cpu_q75_s=timing["cpu_q75_s"], cpu_min_s=timing["cpu_min_s"], startup_cpu_s=base,
                       ns_per_data_ref=cpu / data * 1e9,
                       ns_per_data_ref_low=(timing["cpu_min_s"] - base) / data * 1e9,
                       ns_per_data_ref_high=(timing["cpu_q75_s"] - base) / data * 1e9,
                       wall_ns_per_data_ref=(timing["wall_median_s"] - base) / data * 1e9,
                       writes_per_s=(counts["stores"] + counts["modifies"]) / cpu,
                       bytes_stored_per_s=(counts["bytes_stored"] + counts["bytes_modified"]) / cpu)
        rows.append(row)
    with open(HERE / "apps.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=CSV_FIELDS, lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow({k: (f"{r[k]:.6g}" if isinstance(r.get(k), float) else r.get(k, "")) for k in CSV_FIELDS})
    print((HERE / "apps.csv").read_text())
    return 0


def _cg_totals(path: str) -> dict:
    events = summary = None
    for line in Path(path).read_text().splitlines():
        if line.startswith("events:"):
            events = line.split()[1:]
        elif line.startswith("summary:"):
            summary = [int(x) for x in line.split()[1:]]
    if not events or not summary:
        raise SystemExit(f"{path}: no events/summary line (cachegrind --cache-sim=yes output expected)")
    v = dict(zip(events, summary))
    return {"data_refs": v["Dr"] + v["Dw"], "reads": v["Dr"], "writes": v["Dw"], "instruction_fetches": v["Ir"]}


def cmd_wholerun(a) -> int:
    """Median whole-run cachegrind counts of the application and of its start-up program."""
    app = [_cg_totals(f) for f in a.app]
    start = [_cg_totals(f) for f in a.startup]
    out = {"counter": "cachegrind", "runs": len(app), "startup_runs": len(start)}
    for k in ("data_refs", "reads", "writes", "instruction_fetches"):
        out[k] = int(np.median([x[k] for x in app]))
        out[f"startup_{k}"] = int(np.median([x[k] for x in start]))
        out[f"{k}_all"] = [x[k] for x in app]
        out[f"startup_{k}_all"] = [x[k] for x in start]
    Path(a.out).write_text(json.dumps(out, indent=1))
    print(f"{a.out}: {out['data_refs'] - out['startup_data_refs']:,} data references after start-up", file=sys.stderr)
    return 0


def _cpu_s(pid: int) -> float:
    """CPU time (user + system) the process has used so far [s] (/proc/PID/stat, clock ticks)."""
    f = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")


def _run_for(proc, cpu_s: float) -> None:
    """Let ``proc`` run until it has used ``cpu_s`` more CPU seconds (robust to a shared machine)."""
    start = _cpu_s(proc.pid)
    while proc.poll() is None and _cpu_s(proc.pid) - start < cpu_s:
        time.sleep(0.02)


def cmd_snapshot(a) -> int:
    from snapshot_pages import kept_pages, snapshot_pair

    rng = np.random.default_rng(a.seed)
    proc = subprocess.Popen(a.cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=_env())
    try:
        _run_for(proc, a.warmup)
        if proc.poll() is not None:
            raise SystemExit(f"{a.name}: the program ended before the first snapshot; use a larger input")
        os.kill(proc.pid, signal.SIGSTOP)

        def run():
            _run_for(proc, a.interval)
            if proc.poll() is not None:
                raise SystemExit(f"{a.name}: the program ended before the second snapshot; use a larger input")

        addrs, regs, old, new, keep = snapshot_pair(proc.pid, pages=a.pages, rng=rng, run=run)
    finally:
        proc.kill()
        proc.wait()
    idx = kept_pages(keep, a.pages, rng)
    np.savez_compressed(a.out, old=old[idx], new=new[idx], region=regs[idx], present_pages=addrs.size,
                        command=np.array(" ".join(a.cmd)))
    dirty = np.any(old[idx] != new[idx], axis=1).mean() if idx.size else 0.0
    print(f"{a.name}: {idx.size} pairs of {addrs.size} sampled present pages, {dirty:.1%} changed",
          file=sys.stderr)
    return 0


def cmd_merge(a) -> int:
    from snapshot_pages import REGIONS

    olds, news, wl, rg, names, cmds = [], [], [], [], [], {}
    for i, p in enumerate(a.inputs):
        d = np.load(p)
        name = Path(p).name.split(".")[0]
        names.append(name)
        olds.append(d["old"])
        news.append(d["new"])
        rg.append(d["region"])
        wl.append(np.full(len(d["old"]), i, dtype=np.int8))
        cmds[name] = str(d["command"])
    import platform

    meta = {"made": time.strftime("%Y-%m-%d", time.gmtime()), "kernel": platform.release(), "page_bytes": 4096,
            "warmup_cpu_s": a.warmup, "interval_cpu_s": a.interval, "seed": a.seed, "commands": cmds,
            "script": "data/measurements/apps/build_and_trace.sh (lackey_post.py snapshot)"}
    np.savez_compressed(a.out, old=np.concatenate(olds), new=np.concatenate(news), workload=np.concatenate(wl),
                        region=np.concatenate(rg), workload_names=np.array(names), region_names=np.array(REGIONS),
                        meta=np.array(json.dumps(meta)))
    print(f"wrote {a.out} ({os.path.getsize(a.out) / 1e6:.2f} MB)", file=sys.stderr)
    return 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="what", required=True)
    t = sub.add_parser("time")
    t.add_argument("--out", required=True)
    t.add_argument("--repeats", type=int, default=11)
    t.add_argument("cmd", nargs=argparse.REMAINDER)
    k = sub.add_parser("pack")
    k.add_argument("name")
    k.add_argument("--bin", required=True)
    k.add_argument("--counts", required=True)
    k.add_argument("--timing", default="")
    k.add_argument("--startup-timing", default="")
    k.add_argument("--startup-refs", default="0")
    k.add_argument("--meta", default="{}")
    k.add_argument("--out", required=True)
    sub.add_parser("table")
    s = sub.add_parser("snapshot")
    s.add_argument("--name", required=True)
    s.add_argument("--out", required=True)
    s.add_argument("--pages", type=int, default=300)
    s.add_argument("--warmup", type=float, default=1.0)
    s.add_argument("--interval", type=float, default=1.0)
    s.add_argument("--seed", type=int, default=2026)
    s.add_argument("cmd", nargs=argparse.REMAINDER)
    w = sub.add_parser("wholerun")
    w.add_argument("--app", nargs="+", required=True)
    w.add_argument("--startup", nargs="+", required=True)
    w.add_argument("--out", required=True)
    m = sub.add_parser("merge-pages")
    m.add_argument("out")
    m.add_argument("inputs", nargs="+")
    m.add_argument("--warmup", type=float, default=1.0)
    m.add_argument("--interval", type=float, default=1.0)
    m.add_argument("--seed", type=int, default=2026)
    a = p.parse_args(argv)
    if getattr(a, "cmd", None) and a.cmd[0] == "--":
        a.cmd = a.cmd[1:]
    return {"time": cmd_time, "pack": cmd_pack, "table": cmd_table, "snapshot": cmd_snapshot,
            "wholerun": cmd_wholerun, "merge-pages": cmd_merge}[a.what](a)


if __name__ == "__main__":
    sys.exit(main())
