"""Fuzz campaign over the trace readers (issues 20, 41, 42): N cases per format, outcome counts, peak RSS.

Each case starts from a valid file -- for msr, alibaba, tencent, oraclegeneral, lcs, vscsi and txt one
*generated from the format's published layout* with the values it holds (:data:`GENERATORS`; written
here from the specs, not with the readers' writers), checked first to read back exactly and, when
auto-detection answers, to be detected as a format that reads the same values; for the other formats the
format's sample -- then mutates it (token insertions, byte flips, cuts) and reads the result every way a
reader offers: from bytes and from a file path (memory-mapped for oracleGeneral/lcs), streamed block by
block (:mod:`models.traces.chunks`, as ``trace-stats`` reads), with the Arrow fast path of msr / alibaba /
tencent switched off (their pandas parser), with a leading BOM, in small chunks, gzip/zstd-compressed and
truncated. Outcomes: ``ok`` (a trace), ``clean`` (one of :data:`models.errors.INPUT_ERRORS` with a short
message), ``crash`` (any other exception) and ``wrong`` (a valid file read with other values or refused,
accepted with out-of-domain values, a truncated compressed file accepted, or a result that depends on the way
it was read). The tokens include issue 42's shapes (lone CRs, BOMs, blank lines, multi-page lackey accesses,
an ambiguous CSV header, big extents). Goal: 0 crash, 0 wrong, every case <= 10 CPU-s (:data:`CASE_CPU_S`) and
the campaign's peak RSS (which bounds each case's) <= 1 GB.

Then the bombs (:data:`BOMBS`, issue 42): small hostile inputs through the CLI, each in its own
process, reporting its peak RSS (the child's own ``VmHWM``; ``ru_maxrss`` carries the parent's across exec) and its
CPU time beside an empty run's (the interpreter start, measured in the same run; CPU, not wall time, which on a
shared machine measures its load): big-extent requests (one 1 TiB request; 95 of
4 GiB through plan / mrc / trace-stats / writecache), blank-line and comment-line floods, nested JSON / TOML
and a sweep grid of 10^8 tasks. Each must end (a result or a clean refusal, exit 0 or 2) within 1 GB and 10 s
beyond the empty run (with numba's cache warm: `make fuzz` runs `make warm` first); a bomb with a known answer
(the footprint, the hit ratio at the footprint) must give it.

    python bench/fuzz.py                 # 10,000 cases per format, then the bombs
    python bench/fuzz.py --cases 500 --seed 3 --format mqsim
    python bench/fuzz.py --cases 0       # the bombs only
    python bench/fuzz.py --quick         # 300 cases per format, then the bombs
    python bench/fuzz.py --minutes 55    # each format stops after its share of 55 minutes (a slow machine)
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import os
import random
import struct
import subprocess
import sys
import tempfile
import time
import traceback
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import zstandard
from _common import ROOT, peak_rss_bytes  # _common puts the repository root on sys.path

from models.errors import INPUT_ERRORS
from models.traces import read_trace
from models.traces.chunks import chunk_sink
from models.traces.formats import (
    EXAMPLE_OPTIONS,
    EXAMPLES,
    FORMATS,
    alibaba,
    msr,
    read_memtrace_npz,
    tencent,
)
from models.traces.formats.txt import OBJECT_BYTES

SAMPLES = EXAMPLES
TOKENS = [b"0", b"-1", b"8.0", b"1e3", b"nan", b"inf", b"True", b"x", b",", b" ", b"\n", b"\t", b"\r\n", b'"', b"#",
          b"4294967296", b"18014398509481979", b"9223372036854775807", b"9223372036854775808",
          b"99999999999999999999", b"\xff\xfe", b"\x00", b"+", b"0x10", b"W", b"R", b"Q", b"C", b" L ", b"I  ",
          b"Hit", b"8,0", b"781000000", b"x" * 70_000,
          # issue 42: lone CRs before whitespace-only lines, BOMs, multi-page lackey accesses, ambiguous CSV headers
          b"\r", b"\r \n", b"\n\r\t\n", b"\xef\xbb\xbf", b" S 1000,12288\n", b"time,offset,size,is_write,dev\n",
          # big extents: 1 TiB in sectors, 4 GiB in sectors and in bytes
          b"2147483648", b"8388608", b"4294967296 "]
#: Binary formats (a BOM is no text marker there).
BINARY = ("oraclegeneral", "lcs", "vscsi", "npz")


def _npz_sample() -> bytes:
    buf = io.BytesIO()
    np.savez_compressed(buf, line_delta=np.array([1, 1, -1]), line_bytes=np.int64(64), kind=np.uint8([1, 2, 3]),
                        size=np.uint8([8, 8, 8]), meta=np.array('{"program": "x"}'))
    return buf.getvalue()


# ---------------------------------------------------------------------------------------------------------------
# Valid files generated from each format's published layout, with the values a correct reader must return: the
# oracle that finds what is *read wrong* (a mutated file is mostly refused; a refusal cannot be silently wrong).
# The layouts are written here from the specs (struct formats below), not with the readers' own writers.
# ---------------------------------------------------------------------------------------------------------------
I64_MAX = 2**63 - 1
#: Host names of the MSR Cambridge volumes (none a number nor a token pandas reads as missing).
MSR_HOSTS = ("hm", "mds", "prn", "proj", "prxy", "rsrch", "src1", "src2", "stg", "ts", "usr", "wdev", "web")
SCSI_READ, SCSI_WRITE, SCSI_OTHER = (0x08, 0x28, 0xA8, 0x88), (0x0A, 0x2A, 0xAA, 0x8A), (0x00, 0x12, 0x25, 0x35)
LCS_READ_OPS, LCS_WRITE_OPS = (0, 1, 2, 12), (3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14)
LCS_MAGIC = 0x123456789ABCDEF0
#: Characters of txt keys: printable text, '#' (data there), non-ASCII, and separators that are *not* a line end
#: in libCacheSim (getline splits at LF only) -- vertical tab, form feed, the C0 separators, NEL, U+2028/9.
TXT_CHARS = "abcXYZ0129#-_.:/ é中\t\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def _rows_text(rng: random.Random, lines: list[str], header: str | None) -> bytes:
    """Lines joined with one line end per file (LF or CRLF), a published header (sometimes), ``#`` comment and
    blank lines between (sometimes), with or without a final line end."""
    out = [header] if header and rng.random() < 0.3 else []
    for ln in lines:
        if rng.random() < 0.05:
            out.append("# a comment, 1,2,3")
        if rng.random() < 0.05:
            out.append("")
        out.append(ln)
    eol = rng.choice(["\n", "\r\n"])
    return (eol.join(out) + (eol if rng.random() < 0.8 else "")).encode()


def _expect(time_ns, is_write, offset, size, device) -> dict:
    """The columns a reader must return: requests of size 0 dropped, times from the earliest kept one (Python
    ints, so that absolute FILETIME nanoseconds do not wrap)."""
    keep = [i for i, s in enumerate(size) if s > 0]
    t0 = min((time_ns[i] for i in keep), default=0)
    return {"time_ns": [time_ns[i] - t0 for i in keep], "is_write": [bool(is_write[i]) for i in keep],
            "offset_bytes": [offset[i] for i in keep], "size_bytes": [size[i] for i in keep],
            "device": [device[i] for i in keep]}


def _codes(keys: list) -> list[int]:
    """Slot offsets of objects numbered in first-access order [bytes]."""
    first: dict = {}
    return [first.setdefault(k, len(first)) << 32 for k in keys]


def gen_msr(rng: random.Random) -> tuple[bytes, dict]:
    """MSR Cambridge (SNIA): FILETIME ticks (100 ns), host, disk, Read/Write, offset and size [bytes], response."""
    n = rng.randint(1, 40)
    base = rng.choice([0, 128166372003061629, rng.randint(0, 2**60)])
    host = rng.choice(MSR_HOSTS)
    rows, cols = [], ([], [], [], [], [])
    for _ in range(n):
        tick, disk = base + rng.randint(0, 10**9), rng.choice([0, 1, rng.randint(0, 2**31 - 1)])
        op = rng.choice(["Read", "Write", "read", "WRITE"])
        size = rng.choice([0, 512, 4096, 65536, rng.randint(1, 2**32)])
        off = rng.choice([0, 512 * rng.randint(0, 2**31), rng.randint(0, I64_MAX - size)])
        rows.append(f"{tick},{host},{disk},{op},{off},{size},{rng.randint(0, 10**7)}")
        for c, v in zip(cols, (tick * 100, op.lower() == "write", off, size, disk)):
            c.append(v)
    return _rows_text(rng, rows, "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime"), _expect(*cols)


def gen_alibaba(rng: random.Random) -> tuple[bytes, dict]:
    """Alibaba block traces (2020): device_id, opcode R/W, offset and length [bytes], timestamp [us]."""
    base = rng.choice([0, 1577808144518333, rng.randint(0, 9 * 10**15)])
    rows, cols = [], ([], [], [], [], [])
    for _ in range(rng.randint(1, 40)):
        dev, op, ts = rng.choice([0, 3, rng.randint(0, 2**31 - 1)]), rng.choice("RWrw"), base + rng.randint(0, 10**8)
        size = rng.choice([0, 4096, rng.randint(1, 2**40)])
        off = rng.choice([0, 4096 * rng.randint(0, 2**30), rng.randint(0, I64_MAX - size)])
        rows.append(f"{dev},{op},{off},{size},{ts}")
        for c, v in zip(cols, (ts * 1000, op in "Ww", off, size, dev)):
            c.append(v)
    return _rows_text(rng, rows, "device_id,opcode,offset,length,timestamp"), _expect(*cols)


def gen_tencent(rng: random.Random) -> tuple[bytes, dict]:
    """Tencent CBS (2018): Timestamp [s], Offset and Size [512-byte sectors], IOType 0/1, VolumeID."""
    base = rng.choice([0, 1538323200, rng.randint(0, 9 * 10**9)])
    rows, cols = [], ([], [], [], [], [])
    for _ in range(rng.randint(1, 40)):
        ts, typ, vol = base + rng.randint(0, 10**5), rng.randint(0, 1), rng.choice([0, 1283, rng.randint(0, 2**31 - 1)])
        size = rng.choice([0, 8, rng.randint(1, 2**40)])
        off = rng.choice([0, rng.randint(0, 2**33), rng.randint(0, I64_MAX // 512 - size)])
        rows.append(f"{ts},{off},{size},{typ},{vol}")
        for c, v in zip(cols, (ts * 10**9, typ == 1, off * 512, size * 512, vol)):
            c.append(v)
    return _rows_text(rng, rows, "Timestamp,Offset,Size,IOType,VolumeID"), _expect(*cols)


def _object_columns(rng: random.Random, n: int):
    """Times [s], object ids (a few repeated, the uint64 extremes among them) and sizes [bytes] of ``n`` requests."""
    pool = [rng.choice([0, 1, 2**63, 2**64 - 1, rng.getrandbits(64)]) for _ in range(max(1, n // 2))]
    t0 = rng.choice([0, rng.randint(0, 2**32 - 1 - 10**4)])
    return ([t0 + rng.randint(0, 10**4) for _ in range(n)], [rng.choice(pool) for _ in range(n)],
            [rng.choice([0, 1, 4096, 2**32 - 1, rng.randint(1, 2**20)]) for _ in range(n)])


def _next_vtime(rng: random.Random) -> int:
    return rng.choice([-1, I64_MAX, rng.randint(0, 10**6)])


def gen_oraclegeneral(rng: random.Random) -> tuple[bytes, dict]:
    """libCacheSim oracleGeneral: ``<I Q I q`` = clock_time [s], obj_id, obj_size [bytes], next_access_vtime."""
    n = rng.randint(1, 60)
    ts, ids, size = _object_columns(rng, n)
    data = b"".join(struct.pack("<IQIq", ts[i], ids[i], size[i], _next_vtime(rng)) for i in range(n))
    keep = [i for i in range(n) if size[i] > 0]
    exp = _expect([t * 10**9 for t in ts], [False] * n, [0] * n, size, [0] * n)
    exp["offset_bytes"] = _codes([ids[i] for i in keep])
    return data, exp


def gen_lcs(rng: random.Random) -> tuple[bytes, dict]:
    """libCacheSim lcs v1-v8 (lcs.h): an 8 KiB header (start magic, version, statistics, end magic), then records
    v1 ``<I Q I q``; v2 ``<I Q I I q`` (op:8 | tenant:24); v3 ``<I Q q I I q`` (+ ttl); v4-v8 v3 + 1/2/4/8/16 uint32
    features."""
    version, n = rng.randint(1, 8), rng.randint(1, 60)
    ts, ids, size = _object_columns(rng, n)
    ops = [rng.choice(LCS_READ_OPS + LCS_WRITE_OPS) for _ in range(n)]
    tenant = [rng.choice([0, 1, 2**24 - 1, rng.randint(0, 2**24 - 1)]) for _ in range(n)]
    if version >= 3:
        size = [rng.choice([s, 2**32]) for s in size]  # int64 sizes: up to the 2**32-byte object slot
    head = bytearray(8192)
    head[0:16] = struct.pack("<QQ", LCS_MAGIC, version)
    head[16:40] = struct.pack("<qqq", 1, n, len(set(ids)))
    head[8184:8192] = struct.pack("<Q", LCS_MAGIC)
    features = {4: 1, 5: 2, 6: 4, 7: 8, 8: 16}.get(version, 0)
    recs = []
    for i in range(n):
        nv = _next_vtime(rng)
        if version == 1:
            recs.append(struct.pack("<IQIq", ts[i], ids[i], size[i], nv))
        elif version == 2:
            recs.append(struct.pack("<IQIIq", ts[i], ids[i], size[i], ops[i] | tenant[i] << 8, nv))
        else:
            recs.append(struct.pack("<IQqIIq", ts[i], ids[i], size[i], ops[i] | tenant[i] << 8, rng.randint(0, 2**32 - 1),
                                    nv) + struct.pack(f"<{features}I", *(rng.getrandbits(32) for _ in range(features))))
    is_write = [version >= 2 and ops[i] in LCS_WRITE_OPS for i in range(n)]
    device = [tenant[i] if version >= 2 else 0 for i in range(n)]
    exp = _expect([t * 10**9 for t in ts], is_write, [0] * n, size, device)
    exp["offset_bytes"] = _codes([ids[i] for i in range(n) if size[i] > 0])
    return bytes(head) + b"".join(recs), exp


def gen_vscsi(rng: random.Random) -> tuple[bytes, dict]:
    """libCacheSim vscsi (vscsi.h): v1 ``<I I I H H Q Q`` = sn, len, nSG, cmd, ver, lbn, ts; v2 ``<H H I I I Q Q Q``
    = cmd, ver, sn, len, nSG, lbn, ts, rt; ver's high byte is the version; lbn in 512-byte sectors, ts in us. Only
    SCSI READ/WRITE commands move data (the others are left out, as are zero-length transfers)."""
    version, n = rng.randint(1, 2), rng.randint(2, 60)
    t0 = rng.choice([0, rng.randint(0, I64_MAX // 1000 - 10**7)])
    recs, cols = [], ([], [], [], [], [])
    for i in range(n):
        cmd = rng.choice(SCSI_READ + SCSI_WRITE + SCSI_OTHER)
        length = rng.choice([0, 512, 4096, rng.randint(1, 2**32 - 1)])
        lbn = rng.choice([0, rng.randint(0, 2**40), rng.randint(0, (I64_MAX - length) // 512)])
        ts, ver = t0 + rng.randint(0, 10**7), version << 8 | rng.randint(0, 255)
        if version == 1:
            recs.append(struct.pack("<IIIHHQQ", i, length, rng.randint(0, 64), cmd, ver, lbn, ts))
        else:
            recs.append(struct.pack("<HHIIIQQQ", cmd, ver, i, length, rng.randint(0, 64), lbn, ts, rng.getrandbits(32)))
        moves = cmd in SCSI_READ + SCSI_WRITE
        for c, v in zip(cols, (ts * 1000, cmd in SCSI_WRITE, lbn * 512, length if moves else 0, 0)):
            c.append(v)
    return b"".join(recs), _expect(*cols)


def gen_txt(rng: random.Random) -> tuple[bytes, dict]:
    """libCacheSim plain text (txt.c): one object id per line -- a line ends at LF only (``getline``); blank lines
    are skipped; the id is the line's text (this project also strips surrounding white space, as documented)."""
    pool = []
    for _ in range(rng.randint(1, 12)):
        k = "".join(rng.choice(TXT_CHARS) for _ in range(rng.randint(0, 8)))
        pool.append(rng.choice("ab7#é") + k + rng.choice("cd9中"))  # no white space at either end
    keys = [rng.choice(pool) for _ in range(rng.randint(1, 50))]
    lines = []
    for k in keys:
        if rng.random() < 0.1:
            lines.append(rng.choice(["", " ", "\t "]))
        lines.append(k)
    eol = rng.choice(["\n", "\r\n"])
    data = (eol.join(lines) + (eol if rng.random() < 0.8 else "")).encode()
    n = len(keys)
    exp = _expect(list(range(n)), [False] * n, [0] * n, [OBJECT_BYTES] * n, [0] * n)
    exp["offset_bytes"] = _codes(keys)
    return data, exp


GENERATORS = {"msr": gen_msr, "alibaba": gen_alibaba, "tencent": gen_tencent, "oraclegeneral": gen_oraclegeneral,
              "lcs": gen_lcs, "vscsi": gen_vscsi, "txt": gen_txt}


def mismatch(t, exp: dict) -> str | None:
    """The first column where trace ``t`` differs from the expected columns, or None."""
    for col, want in exp.items():
        got = getattr(t, col).tolist()
        if got != want:
            i = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
            return f"{col}[{i}]: read {got[i] if i < len(got) else '(none)'}, expected " \
                   f"{want[i] if i < len(want) else '(none)'} ({len(got)} vs {len(want)} requests)"
    return None


def mutate(rng: random.Random, data: bytes) -> bytes:
    b = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        i = rng.randint(0, len(b))
        op = rng.random()
        if op < 0.5:
            b[i:i + rng.randint(0, 4)] = rng.choice(TOKENS)
        elif op < 0.8 and b:
            j = min(i, len(b) - 1)
            b[j] ^= 1 << rng.randint(0, 7)
        else:
            b[i:i + rng.randint(1, 8)] = b""
    return bytes(b)


def read(fmt: str, data: bytes, **kw):
    if fmt == "npz":
        return read_memtrace_npz(data, **kw)
    return read_trace(data, fmt, **EXAMPLE_OPTIONS.get(fmt, {}), **kw)


def columns(t) -> tuple:
    names = ("address", "size", "kind") if hasattr(t, "address") else \
        ("time_ns", "is_write", "offset_bytes", "size_bytes", "device")
    return tuple(getattr(t, c).tobytes() for c in names)


def out_of_domain(t) -> bool:
    if hasattr(t, "address"):
        return bool(len(t) and ((t.size < 1).any() or (t.kind > 3).any()))
    return bool(len(t) and ((t.size_bytes <= 0).any() or (t.offset_bytes < 0).any() or (t.device < 0).any()))


def outcome(fmt: str, data: bytes, **kw) -> tuple[str, object]:
    try:
        t = read(fmt, data, **kw)
    except INPUT_ERRORS as e:
        return ("clean", None) if len(str(e)) < 1000 else ("wrong", "message quotes too much")
    except Exception:  # noqa: BLE001 - a crash is what we count
        return "crash", traceback.format_exc(limit=3)
    return ("wrong", "out-of-domain value") if out_of_domain(t) else ("ok", columns(t))


#: Formats whose reader has an Arrow fast path beside its pandas parser (both must read and refuse alike).
ARROW = {"msr": msr, "alibaba": alibaba, "tencent": tencent}


@contextmanager
def arrow_off():
    """Within the block, the Arrow fast path of :data:`ARROW` declines every block (the pandas parser reads it)."""
    saved = {m: m.plain_columns for m in ARROW.values()}
    for m in saved:
        m.plain_columns = lambda *a, **k: None
    try:
        yield
    finally:
        for m, f in saved.items():
            m.plain_columns = f


def streamed(fmt: str, data: bytes) -> tuple[str, object]:
    """The outcome of a streamed read (:func:`models.traces.chunks.chunk_sink`): the blocks' columns joined, times
    from the earliest (the in-memory trace's origin), as :func:`columns` gives them."""
    parts: list[dict] = []
    try:
        with chunk_sink(parts.append):
            read(fmt, data)
    except INPUT_ERRORS:
        return "clean", None
    except Exception:  # noqa: BLE001 - a crash is what we count
        return "crash", traceback.format_exc(limit=3)
    names = ("time_ns", "is_write", "offset_bytes", "size_bytes", "device")
    dtypes = (np.int64, np.bool_, np.int64, np.int64, np.int32)
    cols = {c: np.concatenate([p[c] for p in parts]).astype(d) if parts else np.zeros(0, d)
            for c, d in zip(names, dtypes)}
    if len(cols["time_ns"]):
        cols["time_ns"] = cols["time_ns"] - cols["time_ns"].min()
    return "ok", tuple(cols[c].tobytes() for c in names)


def check_valid(fmt: str, data: bytes, exp: dict) -> str | None:
    """Why the generated valid file ``data`` is read wrong (refused, other values, or auto-detected as a format
    that reads it otherwise), or None."""
    try:
        t = read(fmt, data)
    except Exception as e:  # noqa: BLE001 - a valid file refused (or a crash) is read wrong
        return f"a valid file is refused: {type(e).__name__}: {str(e)[:200]}"
    why = mismatch(t, exp)
    if why:
        return f"a valid file is read wrong: {why}"
    try:
        auto = read_trace(data, "auto")
    except INPUT_ERRORS:
        return None  # detection may refuse (ambiguous, too few lines): never guess
    except Exception:  # noqa: BLE001
        return f"auto-detection crashed: {traceback.format_exc(limit=3)}"
    why = mismatch(auto, exp) if hasattr(auto, "time_ns") else "read as a memory trace"
    return f"auto-detected as {auto.meta.get('format')}, read wrong: {why}" if why else None


def case(rng: random.Random, fmt: str, sample: bytes, tmp: Path) -> tuple[str, str]:
    """One case: a valid file generated from the format's spec (when there is a generator; checked against the
    values it holds) or the format's sample, mutated, read every way the readers offer (bytes, a file path --
    memory-mapped for the binary formats --, a small chunk size, streamed, with the Arrow fast path off, with a
    BOM, compressed and truncated): each must give the same outcome."""
    gen = GENERATORS.get(fmt)
    if gen is not None and rng.random() < 0.7:
        base, exp = gen(rng)
        why = check_valid(fmt, base, exp)
        if why:
            return "wrong", f"{base[:200]!r}: {why}"
    else:
        base = sample
    data = mutate(rng, base)
    kind, res = outcome(fmt, data)
    if kind in ("crash", "wrong"):
        return kind, f"{data[:200]!r}: {res}"
    if fmt not in BINARY and outcome(fmt, b"\xef\xbb\xbf" + data) != (kind, res):
        return "wrong", f"{data[:200]!r}: a leading BOM changes the result"
    path = tmp / f"case.{fmt}"
    path.write_bytes(data)
    k, r = outcome(fmt, str(path))
    if (k, r) != (kind, res):
        return ("crash" if k == "crash" else "wrong"), f"{data[:200]!r}: read from a file path differs: {r}"
    if fmt in ARROW:
        with arrow_off():
            k, r = outcome(fmt, data)
        if (k, r) != (kind, res):
            return ("crash" if k == "crash" else "wrong"), f"{data[:200]!r}: the Arrow fast path differs: {r}"
    if FORMATS[fmt].kind == "block":
        k, r = streamed(fmt, data)
        if (k, r) != (kind, res):
            return ("crash" if k == "crash" else "wrong"), f"{data[:200]!r}: the streamed read differs: {r}"
    if fmt != "npz":
        kind2, res2 = outcome(fmt, data, chunk_bytes=rng.randint(1, 64))
        if kind2 == "crash":
            return kind2, f"{data[:200]!r}: {res2}"
        if (kind2, res2) != (kind, res):
            return "wrong", f"{data[:200]!r}: depends on the chunk size"
        codec = rng.choice([None, gzip.compress, zstandard.ZstdCompressor().compress])
        if codec is not None:
            z = codec(data)
            if outcome(fmt, z) != (kind, res):
                return "wrong", f"{data[:200]!r}: compressed differs"
            cut = z[: rng.randint(4, len(z) - 1)]  # keep the magic bytes (a shorter cut is plain text)
            k3, r3 = outcome(fmt, cut)
            if k3 == "crash":
                return k3, f"truncated {codec}: {r3}"
            if k3 == "ok":
                return "wrong", f"{data[:200]!r}: truncated compressed file accepted"
    return kind, ""


#: Peak RSS ceiling of one bomb [bytes] and its time beyond an empty run [s] (issue 42's "must hold").
BOMB_RSS = 1_000_000_000
BOMB_EXTRA_S = 10.0
#: Kill a bomb after this long [s] (reported as a failure).
BOMB_TIMEOUT_S = 120.0


def _bomb_files(d: Path) -> dict[str, Path]:
    """The hostile inputs, written into ``d``."""
    f = {}
    f["tib"] = d / "tib.trace"
    f["tib"].write_text("0 0 0 2147483648 1\n")  # one 1 TiB request (sizes in sectors)
    f["big95"] = d / "big95.trace"
    f["big95"].write_text("".join(f"{i} 0 {i * 8388608} 8388608 0\n" for i in range(95)))  # 95 x 4 GiB
    f["flood"] = d / "flood.trace.zst"
    f["flood"].write_bytes(zstandard.ZstdCompressor().compress(b"0 0 8 8 1\n" + b"\n" * (64 << 20) + b"1 0 16 8 0\n"))
    # 95 x 4 GiB at 7 places 2 GiB apart (halves overlap): footprint 8 x 2**19 blocks, so at that cache size
    # every access but the first of each block hits: 1 - 4/95 = 0.9578947368
    f["big95r"] = d / "big95r.trace"
    f["big95r"].write_text("".join(f"{i} 0 {(i % 7) * 4194304} 8388608 0\n" for i in range(95)))
    f["comments"] = d / "comments.trace"
    f["comments"].write_bytes(b"0 0 8 8 1\n" + b"# a comment line\n" * (3 << 20) + b"1 0 16 8 0\n")
    f["tabs"] = d / "tabs.trace.gz"
    f["tabs"].write_bytes(gzip.compress(b"0 0 8 8 1\n" + b" \t \n# c\n" * (4 << 20) + b"1 0 16 8 0\n"))
    f["fio"] = d / "nested.json"
    f["fio"].write_text('{"jobs": ' + '{"a": ' * 100_000 + "1" + "}" * 100_001)  # an object nested 100,000 deep
    f["sweep_nested"] = d / "nested.toml"
    f["sweep_nested"].write_text("a = " + "[" * 100_000 + "]" * 100_000 + "\n")
    vals = ", ".join(str(k + 1) for k in range(100))
    f["sweep_grid"] = d / "grid.toml"
    f["sweep_grid"].write_text(f'[[traces]]\nname = "t"\nsource = "mqsim:tpcc-small"\n[[models]]\nmodel = "mrc"\n'
                               f'grid = {{ points = [{vals}], seed = [{vals}], block_size = [{", ".join(["4096"] * 100)}], '
                               f'shards_rate = [{", ".join(str((k + 1) / 1000) for k in range(100))}] }}\n')
    return f


#: (name, CLI arguments with {file} placeholders, text the output must hold when the run answers (exit 0): a
#: known answer, so an answer that is silently wrong fails).
BOMBS = [
    ("empty run", ["--help"], None),
    ("empty run (again)", ["--help"], None),  # the first start warms the page cache: the baseline is the smaller
    ("writecache 1 TiB request", ["writecache", "{tib}", "--cache-mb", "64"], "halo,64,1,0,"),  # a read: one extent
    ("writecache 95 x 4 GiB", ["writecache", "{big95}", "--cache-mb", "64"], None),
    ("plan 95 x 4 GiB", ["plan", "--block-trace", "{big95}", "--device", "pcm-samsung-20nm"],
     "needs data: more memory than the run's budget"),  # block roles refused by name, the storage replay answers
    ("mrc 95 x 4 GiB (every size)", ["mrc", "{big95}"], None),
    ("mrc 95 x 4 GiB --points 20", ["mrc", "{big95}", "--points", "20"], "99614720,0,0,exact"),
    ("mrc 95 x 4 GiB overlapping --sizes", ["mrc", "{big95r}", "--sizes", "4194304"],
     "4194304,0.9578947368"),
    ("mrc 1 TiB request --points 10", ["mrc", "{tib}", "--points", "10"], "268435456,0,0,exact"),
    ("trace-stats 95 x 4 GiB", ["trace-stats", "{big95}"], "footprint_blocks,99614720"),
    ("trace-stats 1 TiB request", ["trace-stats", "{tib}"], "footprint_blocks,268435456"),
    ("trace-stats 64 MiB of newlines (zstd)", ["trace-stats", "{flood}"], "requests,2"),
    ("trace-stats 48 MiB of blank/comment lines (gzip)", ["trace-stats", "{tabs}"], "requests,2"),
    ("trace-stats 48 MiB of comment lines", ["trace-stats", "{comments}"], "requests,2"),
    ("plan --fio nested JSON", ["plan", "--fio", "{fio}", "--device", "pcm-samsung-20nm"], None),
    ("sweep nested TOML", ["sweep", "{sweep_nested}", "--out", "{out}"], None),
    ("sweep 10^8-task grid", ["sweep", "{sweep_grid}", "--out", "{out}"], None),
]

_CHILD = """
import contextlib, io, json, sys
from cli.main import main
err, out = io.StringIO(), io.StringIO()
try:
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        rc = main(json.loads(sys.argv[1]))
except SystemExit as e:
    rc = e.code if isinstance(e.code, int) else 1
except BaseException as e:
    rc, err = 99, io.StringIO(f"{type(e).__name__}: {e}")
with open("/proc/self/status") as fh:  # the child's own peak (ru_maxrss would carry the parent's across exec)
    peak = next(int(line.split()[1]) for line in fh if line.startswith("VmHWM:")) * 1024
import resource
ru = resource.getrusage(resource.RUSAGE_SELF)  # this process's own CPU time (the work, whatever the machine's load)
print(json.dumps({"rc": rc, "err": err.getvalue()[-300:], "out": out.getvalue()[-20000:], "maxrss": peak,
                  "cpu": ru.ru_utime + ru.ru_stime}))
"""


def run_bombs() -> int:
    """Run :data:`BOMBS`, print one row each; the number that failed."""
    failed = 0
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryDirectory() as tmp:
        files = {k: str(v) for k, v in _bomb_files(Path(tmp)).items()}
        files["out"] = str(Path(tmp) / "out.parquet")
        print(f"\n{'bomb':48s} {'exit':>4s} {'peak MB':>8s} {'wall s':>6s} {'cpu-empty s':>11s}  verdict / message")
        base = None
        worst = {"rss": 0.0, "s": 0.0}
        for name, args, expect in BOMBS:
            argv = [a.format(**files) for a in args]
            t0 = time.perf_counter()
            try:
                p = subprocess.run([sys.executable, "-c", _CHILD, json.dumps(argv)], capture_output=True, text=True,
                                   env=env, timeout=BOMB_TIMEOUT_S, cwd=tmp)
                wall = time.perf_counter() - t0
                out = json.loads(p.stdout.strip().splitlines()[-1]) if p.stdout.strip() else \
                    {"rc": p.returncode, "err": p.stderr[-300:], "maxrss": float("nan"), "cpu": float("nan")}
            except subprocess.TimeoutExpired:
                wall, out = time.perf_counter() - t0, {"rc": "kill", "err": f"timeout {BOMB_TIMEOUT_S:.0f} s",
                                                       "maxrss": float("nan"), "cpu": float("nan")}
            if name.startswith("empty run"):
                base = out["cpu"] if base is None else min(base, out["cpu"])
            extra = out["cpu"] - base  # CPU time beyond the empty run's: wall time on a shared machine is its load
            wrong = out["rc"] == 0 and expect is not None and expect not in out.get("out", "")
            ok = out["rc"] in (0, 2) and out["maxrss"] <= BOMB_RSS and extra <= BOMB_EXTRA_S and not wrong
            failed += not ok
            worst["rss"], worst["s"] = max(worst["rss"], out["maxrss"]), max(worst["s"], extra)
            msg = ("WRONG answer (expected " + expect + ") " if wrong else "") + \
                ("answered" if out["rc"] == 0 and expect else " ".join(str(out["err"]).split())[-110:])
            print(f"{name:48s} {out['rc']!s:>4s} {out['maxrss'] / 1e6:8.0f} {wall:6.1f} {extra:11.1f}  "
                  f"{'ok' if ok else 'FAIL'} {msg}", flush=True)
    print(f"bombs: {failed} failed; max peak RSS {worst['rss'] / 1e6:.0f} MB, max CPU time beyond the empty run "
          f"{worst['s']:.1f} s")
    return failed


#: Ceilings of one mutated case (issue 42): its CPU time [s] (CPU, not wall time, which on a shared machine
#: measures the load) and the campaign's peak RSS [bytes], which bounds every case's (they run in this process).
CASE_CPU_S = 10.0
CASE_RSS = 1_000_000_000


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=10_000, help="cases per format (default 10,000)")
    ap.add_argument("--quick", action="store_true", help="300 cases per format, then the bombs (a few minutes)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--format", action="append", help="formats (default: all)")
    ap.add_argument("--no-bombs", action="store_true", help="skip the bombs (BOMBS)")
    ap.add_argument("--minutes", type=float, help="stop each format after its share of this many minutes (a "
                    "documented fraction of the campaign when the machine is too slow for --cases; the table says "
                    "how many cases ran)")
    ap.add_argument("--save", type=Path, help="write each crash / wrong / over-ceiling case's line here (JSONL)")
    args = ap.parse_args(argv)
    if args.quick:
        args.cases = min(args.cases, 300)
    samples = dict(SAMPLES, npz=_npz_sample())
    total = {"ok": 0, "clean": 0, "crash": 0, "wrong": 0, "slow": 0, "cases": 0}
    worst = {"cpu": 0.0, "wall": 0.0}
    print(f"{'format':13s} {'cases':>6s} {'ok':>6s} {'clean':>6s} {'crash':>6s} {'wrong':>6s} {'>10s':>5s} "
          f"{'max cpu s':>9s} {'max wall s':>10s} {'total s':>8s}  valid files generated from the spec")
    formats = (args.format or list(samples)) if args.cases else []
    share_s = args.minutes * 60 / len(formats) if args.minutes and formats else float("inf")
    with tempfile.TemporaryDirectory() as tmp:
        for fmt in formats:  # warm-up, untimed: imports and compiled kernels load on a process's first read
            case(random.Random(0), fmt, samples[fmt], Path(tmp))
        for fmt in formats:
            rng = random.Random(f"{args.seed}:{fmt}")
            counts = {"ok": 0, "clean": 0, "crash": 0, "wrong": 0, "slow": 0}
            shown = 0
            cpu_max = wall_max = 0.0
            slowest = ""
            t0 = time.perf_counter()
            ran = 0
            for i in range(args.cases):
                if time.perf_counter() - t0 > share_s:
                    break
                ran += 1
                c0, w0 = time.process_time(), time.perf_counter()
                kind, why = case(rng, fmt, samples[fmt], Path(tmp))
                cpu, wall = time.process_time() - c0, time.perf_counter() - w0
                if cpu > cpu_max:
                    slowest = f"case {i} ({kind})"
                cpu_max, wall_max = max(cpu_max, cpu), max(wall_max, wall)
                counts[kind] += 1
                if cpu > CASE_CPU_S:
                    counts["slow"] += 1
                    kind, why = "slow", f"case {i}: {cpu:.1f} CPU-s"
                if kind in ("crash", "wrong", "slow"):
                    if shown < 3:
                        print(f"  {fmt} {kind}: {why}", file=sys.stderr, flush=True)
                        shown += 1
                    if args.save:
                        with args.save.open("a") as fh:
                            fh.write(json.dumps({"format": fmt, "seed": args.seed, "case": i, "kind": kind,
                                                 "why": why[:2000]}) + "\n")
            for k in counts:
                total[k] += counts[k]
            worst["cpu"], worst["wall"] = max(worst["cpu"], cpu_max), max(worst["wall"], wall_max)
            total["cases"] += ran
            print(f"{fmt:13s} {ran:6d} {counts['ok']:6d} {counts['clean']:6d} {counts['crash']:6d} "
                  f"{counts['wrong']:6d} {counts['slow']:5d} {cpu_max:9.2f} {wall_max:10.2f} "
                  f"{time.perf_counter() - t0:8.1f}  {'yes' if fmt in GENERATORS else 'no (mutated sample)'}; "
                  f"slowest {slowest}",
                  flush=True)
    rss = peak_rss_bytes()
    if not formats:
        print("no reader cases (--cases 0)")
    print(f"{'total':13s} {total['cases']:6d} {total['ok']:6d} "
          f"{total['clean']:6d} {total['crash']:6d} {total['wrong']:6d} {total['slow']:5d} {worst['cpu']:9.2f} "
          f"{worst['wall']:10.2f}")
    print(f"cases: peak RSS {rss / 1e6:.0f} MB (ceiling {CASE_RSS / 1e6:.0f} MB), max CPU per case {worst['cpu']:.2f} s "
          f"(ceiling {CASE_CPU_S:.0f} s), max wall per case {worst['wall']:.2f} s")
    bombs_failed = 0 if args.no_bombs else run_bombs()
    over = total["slow"] or rss > CASE_RSS
    return 1 if total["crash"] or total["wrong"] or over or bombs_failed else 0


if __name__ == "__main__":
    sys.exit(main())
