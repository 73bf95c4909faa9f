"""CPU time of Most Frequent Word Reduction (MFWR-1W, seed 002 §5.1.1) per 4 KiB page, on this machine.

Two kernels over the "new" versions of the bundled application pages (data/pages/app_page_pairs.npz,
1,800 pages of the paper's applications), both compiled with numba (no Python per word):

- ``single_pass``: §5.1.1's algorithm -- one pass counting the 1,024 4-byte words in an open-addressing
  table (2,048 slots) to find the most frequent word, then one pass building the 1-bit-per-word bitmap and
  packing the other words into an output page;
- ``model_sort``: the write-reduction model's own image builder
  (``models.endurance.write_reduction._mfwr_images`` with k = 1: sort, top word, bitmap, pack).

Each run times the whole set of pages once (after a warm-up that compiles), ``time.thread_time_ns`` (CPU time of the thread: the machine is shared, so wall time would count waits for a core);
per page = run time / pages. Output: CSV on stdout (kernel, run, pages, ns_per_page).

    PYTHONPATH=. python data/measurements/mfwr_cost/mfwr_bench.py 11 > data/measurements/mfwr_cost/mfwr_runs.csv
"""

from __future__ import annotations

import sys
import time

import numpy as np
from numba import njit

WORDS = 1024
SLOTS = 2048


@njit(cache=True)
def _mfwr1_page(words, out, bitmap, keys, counts, used):
    """MFWR-1W of one page: (most frequent word, packed length [words]); ``bitmap`` holds 1 where it was."""
    n_used = 0
    for j in range(words.shape[0]):
        w = words[j]
        x = np.int64(w)
        h = ((x * 2654435761) & 0xFFFFFFFF) >> 21  # Knuth's multiplicative hash: the top 11 of 32 bits
        while True:
            if counts[h] == 0:
                keys[h] = w
                counts[h] = 1
                used[n_used] = h
                n_used += 1
                break
            if keys[h] == w:
                counts[h] += 1
                break
            h = (h + 1) & (SLOTS - 1)
    best, bc = keys[used[0]], 0
    for q in range(n_used):
        h = used[q]
        if counts[h] > bc:
            bc, best = counts[h], keys[h]
        counts[h] = 0  # reset for the next page
    m = 0
    for j in range(words.shape[0]):
        if words[j] == best:
            bitmap[j] = 1
        else:
            bitmap[j] = 0
            out[m] = words[j]
            m += 1
    return best, m


@njit(cache=True)
def single_pass(pages):
    out = np.empty(WORDS, np.uint32)
    bitmap = np.empty(WORDS, np.uint8)
    keys = np.zeros(SLOTS, np.uint32)
    counts = np.zeros(SLOTS, np.int32)
    used = np.empty(WORDS, np.int64)
    total = 0
    for i in range(pages.shape[0]):
        _, m = _mfwr1_page(pages[i], out, bitmap, keys, counts, used)
        total += m
    return total


def model_sort(pages):
    from models.endurance.write_reduction import _mfwr_images

    return _mfwr_images(pages, 1, False, WORDS)


def main(runs: int) -> None:
    z = np.load("data/pages/app_page_pairs.npz", allow_pickle=False)
    pages = np.ascontiguousarray(z["new"]).view(np.uint32).reshape(-1, WORDS)
    n = pages.shape[0]
    print("kernel,run,pages,ns_per_page")
    for name, fn in (("single_pass", single_pass), ("model_sort", model_sort)):
        fn(pages[:4])  # compile
        for r in range(1, runs + 1):
            t0 = time.thread_time_ns()
            fn(pages)
            dt = time.thread_time_ns() - t0
            print(f"{name},{r},{n},{dt / n:.1f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 11)
