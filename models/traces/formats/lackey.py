"""valgrind lackey memory-reference traces: ``I  addr,size`` and `` L|S|M addr,size`` records.

References
----------
Valgrind User Manual, "Lackey: an example tool" (``--trace-mem=yes`` output format).
"""

from __future__ import annotations

import numpy as np

from models.traces.core import MemTrace
from models.traces.formats.parsing import parse_source
from models.traces.source import (
    CHUNK_BYTES,
    MAX_INPUT_BYTES,
    MAX_LINE_BYTES,
    TraceFormatError,
    quote,
)

__all__ = ["read_lackey", "DESCRIPTION", "PATTERN"]

DESCRIPTION = "valgrind lackey: 'I  addr,size' / ' L|S|M addr,size'"
#: A record line, for format detection.
PATTERN = r"^(I |\s[LSM]) \s*[0-9a-fA-F]+,\d+\s*$"

_HEX = np.full(256, 255, np.uint8)
for _i, _c in enumerate(b"0123456789abcdef"):
    _HEX[_c] = _i
for _i, _c in enumerate(b"ABCDEF"):
    _HEX[_c] = 10 + _i
_KIND_OF = np.full(256, 255, np.uint8)
for _i, _c in enumerate(b"ILSM"):
    _KIND_OF[_c] = _i


def _window_value(buf: np.ndarray, start: np.ndarray, stop: np.ndarray, width: int, base: int):
    """Values of the digit strings ``buf[start:stop]`` (per row) and a per-row validity mask.

    Strings longer than ``width`` digits are invalid. Works column by column over the
    longest string present, so the usual 8-digit addresses cost 8 vectorised passes.
    """
    ln = stop - start
    ok = (ln >= 1) & (ln <= width)
    w = int(min(width, ln.max())) if len(ln) else 0
    val = np.zeros(len(start), np.uint64)
    ub = np.uint64(base)
    for j in range(w, 0, -1):  # j-th digit from the right end
        pos = stop - j
        inside = pos >= start
        dig = _HEX[buf[np.maximum(pos, 0)]]
        ok &= ~(inside & (dig >= base))
        val = np.where(inside, val * ub + np.minimum(dig, base - 1).astype(np.uint64), val)
    return val, ok


def _parse_lackey_block(block: bytes, line0: int):
    if not block.endswith(b"\n"):
        block += b"\n"
    buf = np.frombuffer(block, np.uint8)
    nl = np.flatnonzero(buf == 10)
    starts = np.concatenate(([0], nl[:-1] + 1))
    ends = nl.copy()
    cr = (ends > starts) & (buf[np.maximum(ends - 1, 0)] == 13)
    ends[cr] -= 1
    ln = ends - starts
    pad = np.concatenate((buf, np.zeros(4, np.uint8)))
    c0, c1, c2 = pad[starts], pad[starts + 1], pad[starts + 2]
    rec = (ln >= 3) & (c2 == 32) & (((c0 == ord("I")) & (c1 == 32)) | ((c0 == 32) & np.isin(c1, [76, 83, 77])))
    r = np.flatnonzero(rec)
    empty = (np.zeros(0, np.uint64), np.zeros(0, np.uint16), np.zeros(0, np.uint8))
    if not len(r):
        return empty
    s, e = starts[r], ends[r]
    kind = _KIND_OF[np.where(c0[r] == ord("I"), c0[r], c1[r])]
    a0 = s + 3
    # skip extra blanks before the address (lackey pads "I  addr")
    for _ in range(4):
        sp = (a0 < e) & (buf[np.minimum(a0, len(buf) - 1)] == 32)
        if not sp.any():
            break
        a0 = a0 + sp
    commas = np.flatnonzero(buf == 44)
    k = np.searchsorted(commas, a0)
    comma = np.where(k < len(commas), commas[np.minimum(k, max(len(commas) - 1, 0))] if len(commas) else e, e)
    has_comma = comma < e
    addr, ok_a = _window_value(buf, a0, np.where(has_comma, comma, e), 16, 16)
    size, ok_s = _window_value(buf, comma + 1, e, 5, 10)
    bad_a = ~(has_comma & ok_a)
    bad_s = ~ok_s | bad_a
    if bad_a.any() or bad_s.any():
        first_a = int(np.argmax(bad_a)) if bad_a.any() else len(r)
        first_s = int(np.argmax(bad_s & ~bad_a)) if (bad_s & ~bad_a).any() else len(r)
        i = min(first_a, first_s)
        line = line0 + int(r[i])
        text = block[s[i]:e[i]].decode("utf-8", errors="replace")
        if i == first_a:
            what = "field 'address' is not a hexadecimal address" if has_comma[i] else "missing ',size' after the address"
            field = "address"
        else:
            what, field = "field 'size' is not a decimal size [bytes]", "size"
        raise TraceFormatError(f"lackey: line {line}: {what}: {quote(text)}", line=line, field=field)
    bad = (size < 1) | (size > 65535)
    if bad.any():
        i = int(np.argmax(bad))
        what = "is 0 (an access of at least 1 byte)" if size[i] < 1 else "is larger than 65535 bytes"
        raise TraceFormatError(f"lackey: line {line0 + int(r[i])}: field 'size' {what}",
                               line=line0 + int(r[i]), field="size")
    return addr, size.astype(np.uint16), kind


def read_lackey(src, *, name: str | None = None, max_requests: int | None = None, progress=None,
                chunk_bytes: int = CHUNK_BYTES,
                max_line_bytes: int = MAX_LINE_BYTES, max_input_bytes: int = MAX_INPUT_BYTES) -> MemTrace:
    """Read a valgrind ``--tool=lackey --trace-mem=yes`` trace into a :class:`MemTrace`.

    Records are ``I  0400d7d4,8`` (instruction fetch) and `` L|S|M 04222cac,8`` (load, store,
    modify) with a hexadecimal address and a decimal size [bytes]. ``==PID==`` lines and other
    program output are ignored. Parsed with NumPy over the raw bytes (no per-line Python).

    References
    ----------
    Valgrind User Manual, "Lackey: an example tool" (``--trace-mem=yes`` output format).

    Examples
    --------
    >>> m = read_lackey(b"==1== Lackey\\nI  0400d7d4,8\\n L 04222cac,4\\n M 0421,2\\nhello\\n")
    >>> [hex(a) for a in m.address.tolist()], m.kind.tolist(), m.size.tolist()
    (['0x400d7d4', '0x4222cac', '0x421'], [0, 1, 3], [8, 4, 2])
    """

    def parse(block, line0, state):
        a, s, k = _parse_lackey_block(block, line0)
        return {"address": a, "size": s, "kind": k}

    return parse_source(src, parse, fmt="lackey", name=name, max_requests=max_requests, progress=progress,
                        chunk_bytes=chunk_bytes, max_line_bytes=max_line_bytes,
                        max_input_bytes=max_input_bytes, kind="memory")

