"""The planner's file-cache and storage (replay) roles streamed over a block trace: memory vs trace length (issue 41).

Generates a block trace chunk by chunk (``--chunk`` requests each, regenerated from a seed in each pass: the
trace is never held) over ``--blocks`` distinct 4 KiB blocks (half the requests to a hot tenth, 30 % writes,
4-8 KiB requests at any byte offset), and runs :class:`~models.planner.role_file_cache.FileCacheStream` and
:class:`~models.planner.role_storage.StorageReplayStream` (baseline like-for-like, devices ``pcm-samsung-20nm``
and ``hdd-7200``) through both passes, in a child process per length (``--lengths``, default 1 M and 10 M
requests). Per length: wall time, the child's peak RSS (``VmHWM``), the streams' state and the state per distinct
block. Last line: ``ratio:`` peak RSS of the longest length over the shortest's (1.0: memory independent of the
length). The machine is shared: wall times are indicative only.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

from _common import PEAK_RSS_CODE, ROOT

CHILD = """
import numpy as np, time
from models.devices import get_device
from models.planner.role_file_cache import FileCacheStream
from models.planner.role_storage import StorageReplayStream
from models.planner.workloads import PlanWorkload
from models.traces import BlockTrace

N, B, CH = {n}, {blocks}, {chunk}

def chunks():
    for k, i in enumerate(range(0, N, CH)):
        m = min(CH, N - i)
        g = np.random.default_rng((7, k))
        hot = g.random(m) < 0.5
        blk = np.where(hot, g.integers(0, max(1, B // 10), m), g.integers(0, B, m))
        yield dict(time_ns=(i + np.arange(m, dtype=np.int64)) * 100_000, is_write=g.random(m) < 0.3,
                   offset_bytes=blk * 4096 + g.integers(0, 2, m) * 2048, size_bytes=g.integers(1, 3, m) * 4096 - 2048,
                   device=np.zeros(m, np.int32))

devs = [get_device("pcm-samsung-20nm"), get_device("hdd-7200")]
streams = [FileCacheStream(), StorageReplayStream(devs, None)]
for c in chunks():
    for s in streams:
        s.first(c)
for s in streams:
    s.end_first({{}}, 0)
for c in chunks():
    for s in streams:
        s.second(c)
e = BlockTrace.empty("gen")
w = PlanWorkload(name="gen", kind="block", source="mqsim:tpcc-small")
rows = [r for s in streams for r in s.rows(w, e, devs, None, None)]
m = streams[0]._table.n_unique
print("distinct_blocks=%d" % m)
print("state_fc=%d" % streams[0].state_bytes)
print("state_storage=%d" % streams[1].state_bytes)
print("values=" + ",".join("%.6g" % r["value"] for r in rows))
"""


def run(n: int, blocks: int, chunk: int) -> dict:
    t = time.perf_counter()
    env = {"PYTHONPATH": str(ROOT), "NUMBA_CACHE_DIR": str(ROOT / ".numba_cache"), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", CHILD.format(n=n, blocks=blocks, chunk=chunk) + PEAK_RSS_CODE],
                         env=env, capture_output=True, text=True, check=True).stdout
    kv = dict(ln.split("=", 1) for ln in out.splitlines() if "=" in ln)
    return {"requests": n, "wall_s": time.perf_counter() - t, "peak_rss_MB": float(kv["peak_rss_bytes"]) / 1e6,
            "distinct": int(kv["distinct_blocks"]), "state_fc": int(kv["state_fc"]),
            "state_storage": int(kv["state_storage"]), "values": kv["values"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lengths", default="1000000,10000000", help="trace lengths [requests], comma-separated")
    ap.add_argument("--blocks", type=int, default=1_000_000, help="distinct 4 KiB blocks the requests draw from")
    ap.add_argument("--chunk", type=int, default=1_000_000, help="requests per chunk")
    a = ap.parse_args()
    res = [run(int(float(x)), a.blocks, a.chunk) for x in a.lengths.split(",")]
    print(f"{'requests':>12} {'wall s':>8} {'peak RSS MB':>12} {'distinct':>10} {'fc state MB':>12} {'B/block':>8} "
          f"{'storage MB':>11} {'B/block':>8}  values")
    for r in res:
        print(f"{r['requests']:>12,} {r['wall_s']:>8.1f} {r['peak_rss_MB']:>12.0f} {r['distinct']:>10,} "
              f"{r['state_fc'] / 1e6:>12.1f} {r['state_fc'] / r['distinct']:>8.1f} {r['state_storage'] / 1e6:>11.1f} "
              f"{r['state_storage'] / r['distinct']:>8.1f}  {r['values']}")
    print(f"ratio: {res[-1]['peak_rss_MB'] / res[0]['peak_rss_MB']:.2f}")


if __name__ == "__main__":
    main()
