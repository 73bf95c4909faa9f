#!/usr/bin/env python3
"""Stream a valgrind lackey trace (stdin or a file) into the compact memory-trace ``.npz``.

Used by ``make_memtraces.sh``: ``valgrind --tool=lackey --trace-mem=yes --log-fd=3 PROG
3>&1 >/dev/null | lackey_to_npz.py OUT.npz --skip S --keep N ...``. The text is parsed
in line-aligned blocks by the project's reader (:func:`models.traces.formats.read_lackey`);
the first ``--skip`` data references (program start-up) are dropped, the next ``--keep``
are kept, then the input is closed (valgrind then stops on SIGPIPE). Instruction fetches
are dropped unless ``--keep-instructions`` (they are counted in the metadata).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from models.traces.formats import read_lackey, save_memtrace_npz  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("out", help="output .npz file")
    p.add_argument("--input", default="-", help="lackey text file (default: stdin)")
    p.add_argument("--skip", type=int, default=0, help="data references to drop first (start-up)")
    p.add_argument("--keep", type=int, default=5_000_000, help="data references to keep")
    p.add_argument("--keep-instructions", action="store_true", help="keep instruction fetches (I) too")
    p.add_argument("--meta", default="{}", help="JSON object merged into the file's metadata")
    p.add_argument("--chunk-mib", type=float, default=8.0, help="text block size [MiB]")
    a = p.parse_args(argv)
    if a.skip < 0 or a.keep < 1:
        p.error("--skip must be >= 0 and --keep >= 1")
    meta = json.loads(a.meta)
    stream = sys.stdin.buffer if a.input == "-" else open(a.input, "rb")  # noqa: SIM115
    chunk = int(a.chunk_mib * 2**20)
    skip, need = a.skip, a.keep
    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    kept = 0
    seen_data = seen_instr = 0
    instr_at_start = None  # instruction fetches seen before the first kept reference
    rest = b""
    eof = False
    while kept < need and not eof:
        buf = stream.read(chunk)
        if not buf:
            eof = True
            block, rest = rest, b""
        else:
            buf = rest + buf
            cut = buf.rfind(b"\n") + 1
            block, rest = buf[:cut], buf[cut:]
        if not block:
            continue
        m = read_lackey(block, name="chunk")
        k = m.kind
        is_i = k == 0
        ni = int(is_i.sum())
        sel = np.ones(len(k), bool) if a.keep_instructions else ~is_i
        nd = len(k) - ni
        addr, size, kind = m.address[sel], m.size[sel], k[sel]
        # references of this block that are counted against skip/keep
        if skip:
            drop = min(skip, len(addr))
            if drop == len(addr):
                skip -= drop
                seen_data += nd
                seen_instr += ni
                continue
            # instruction fetches before the first kept data reference (approximate to the block)
            addr, size, kind = addr[drop:], size[drop:], kind[drop:]
            skip = 0
        if instr_at_start is None:
            instr_at_start = seen_instr
        take = min(need - kept, len(addr))
        parts.append((addr[:take], size[:take], kind[:take]))
        kept += take
        seen_data += nd
        seen_instr += ni
    if stream is not sys.stdin.buffer:
        stream.close()
    else:
        os.close(0)  # the producer (valgrind) stops on SIGPIPE
    if not parts:
        print(f"lackey_to_npz: no references kept (input ended after {seen_data} data references)", file=sys.stderr)
        return 1
    addr = np.concatenate([x[0] for x in parts])
    size = np.concatenate([x[1] for x in parts])
    kind = np.concatenate([x[2] for x in parts])
    if size.max() > 255:
        raise SystemExit("lackey_to_npz: access size > 255 bytes; the format stores sizes as uint8")
    meta.update(
        skipped_data_refs=a.skip,
        kept_refs=int(len(addr)),
        requested_refs=a.keep,
        instructions_kept=bool(a.keep_instructions),
        instruction_fetches_before_window=int(instr_at_start or 0),
        run_ended_before_window_filled=bool(eof and kept < need),
    )
    out = save_memtrace_npz(a.out, addr, kind, size.astype(np.uint8), meta)
    print(f"{out}: {len(addr)} refs, {out.stat().st_size / 1e6:.2f} MB, "
          f"{len(np.unique(addr >> np.uint64(12)))} distinct 4 KiB pages", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
