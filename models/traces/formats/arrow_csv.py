"""Arrow's CSV reader as the fast path of the comma-separated block formats (MSR, Alibaba, Tencent).

:func:`plain_columns` parses one block of whole lines with ``pyarrow.csv`` (a kept library:
pyarrow is a dependency of Streamlit and Dask; measured against Polars in
``bench/bench_stream.py``) into integer and text columns -- but only a *plain* block: no
comment, quote, blank line, whitespace or carriage return, every line the same number of fields,
every integer field a plain decimal in int64 range. Anything else returns None and the format's
own pandas parser reads the block, with its line- and field-named messages; so the fast path
changes speed only, never what is accepted or the values read (the readers' tests and
``bench/fuzz.py`` compare both paths). Arrow parses a block on its thread pool (both cores), in
pieces of :data:`ARROW_BLOCK_BYTES`; the rows are those of one sequential parse, in order.
:func:`text_codes` and :func:`all_equal` read the text columns in one compiled pass over their bytes
(no Python string per row).
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["plain_columns", "without_zero_size", "text_codes", "all_equal", "ARROW_BLOCK_BYTES"]

#: Bytes whose presence sends a block to the format's own parser (comment, quote, blanks, CR, BOM lead byte).
_NOT_PLAIN = b'#" \t\r\x0b\x0c\xef'
#: Hexadecimal literals (``0x10``), which Arrow reads as integers and pandas does not, do the same. (A blank line
#: need not be looked for: Arrow refuses its field count, as every format read here has several fields.)
_NOT_PLAIN_BYTES = tuple(bytes([c]) for c in _NOT_PLAIN)
#: The pieces Arrow's threads parse a block in [bytes] (speed only: the rows are the same whatever the size).
ARROW_BLOCK_BYTES = 1 << 20


def _is_plain(block: bytes) -> bool:
    """No byte of :data:`_NOT_PLAIN` and no ``0x``/``0X`` in ``block``: one ``memchr``-speed search per byte, no
    copy; only a block holding an ``x`` or ``X`` (host names such as "prxy") has the byte before each looked at.

    >>> _is_plain(b"1,prxy,10\\n"), _is_plain(b"1,0x10\\n"), _is_plain(b"1,2 \\n"), _is_plain(b"")
    (True, False, False, False)
    """
    if not block or any(c in block for c in _NOT_PLAIN_BYTES):
        return False
    if b"x" not in block and b"X" not in block:
        return True
    buf = np.frombuffer(block, np.uint8)
    x = np.flatnonzero((buf | 0x20) == ord("x"))
    x = x[x > 0]
    return not (buf[x - 1] == ord("0")).any()


def plain_columns(block: bytes, names: list[str], ints: tuple[str, ...]) -> dict | None:
    """The columns of a plain comma-separated ``block`` (see the module docstring), or None.

    Parameters
    ----------
    block : bytes
        Whole lines (the last may lack its newline).
    names : list of str
        The fields of every line, in order.
    ints : tuple of str
        The fields parsed as int64 (returned as NumPy arrays); the others are returned as
        ``pyarrow`` string arrays (chunked; read them with :func:`text_codes`, :func:`all_equal`).

    Returns
    -------
    dict of arrays, or None when the block is not plain or a field does not parse.

    Examples
    --------
    >>> plain_columns(b"1,Read\\n2,WRITE\\n", ["t", "op"], ("t",))["op"].to_pylist()
    ['Read', 'WRITE']
    >>> plain_columns(b"1,Read\\n# note\\n", ["t", "op"], ("t",)) is None
    True
    """
    if len(names) < 2 or not _is_plain(block):
        return None
    import pyarrow as pa
    import pyarrow.csv as pcsv

    types = {n: (pa.int64() if n in ints else pa.string()) for n in names}
    try:
        table = pcsv.read_csv(
            pa.BufferReader(block),  # zero copy, and Arrow's threads read it without the GIL
            read_options=pcsv.ReadOptions(column_names=names, use_threads=True, block_size=ARROW_BLOCK_BYTES),
            parse_options=pcsv.ParseOptions(delimiter=",", quote_char=False, double_quote=False,
                                            newlines_in_values=False, ignore_empty_lines=False),
            convert_options=pcsv.ConvertOptions(column_types=types, null_values=[], strings_can_be_null=False,
                                                quoted_strings_can_be_null=False, check_utf8=True))
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError):
        return None
    out: dict = {}
    for n in names:
        col = table.column(n)
        if col.null_count:
            return None
        out[n] = col.to_numpy() if n in ints else col
    return out


def _text_buffers(chunk) -> tuple[np.ndarray, np.ndarray]:
    """The bytes and the ``len + 1`` int32 offsets of one ``pyarrow`` string array (zero copy)."""
    bufs = chunk.buffers()
    offsets = np.frombuffer(bufs[1], np.int32)[chunk.offset:chunk.offset + len(chunk) + 1]
    data = np.frombuffer(bufs[2], np.uint8) if bufs[2] is not None else np.zeros(0, np.uint8)
    return data, offsets


@njit(cache=True, nogil=True)
def _match_codes(data, offsets, pats, plens, codes):  # pragma: no cover - compiled
    """Per row, ``codes[k]`` of the first pattern ``pats[k]`` (lower-case ASCII) the row equals, ASCII letters
    compared case-insensitively; -1 when none does (a non-ASCII byte never matches)."""
    n = len(offsets) - 1
    out = np.full(n, -1, np.int8)
    for i in range(n):
        a = offsets[i]
        m = offsets[i + 1] - a
        for k in range(len(plens)):
            if plens[k] != m:
                continue
            ok = True
            for j in range(m):
                c = data[a + j]
                if 65 <= c <= 90:
                    c += 32
                if c != pats[k, j]:
                    ok = False
                    break
            if ok:
                out[i] = codes[k]
                break
    return out


def text_codes(col, values: dict[str, int]) -> np.ndarray:
    """The code of each row of the string column ``col`` (``pyarrow`` array or chunked array): ``values[text]`` for
    the row's text lower-cased (ASCII letters only), -1 when it is none of ``values`` or holds a non-ASCII byte
    (then the format's own parser decides, as Unicode lower-casing is its business).

    >>> import pyarrow as pa
    >>> text_codes(pa.chunked_array([["Read", "WRITE"], ["rEAD", "Rd", "wrïte"]]), {"read": 0, "write": 1}).tolist()
    [0, 1, 0, -1, -1]
    """
    keys = [k.encode("ascii") for k in values]
    pats = np.zeros((len(keys), max((len(k) for k in keys), default=0)), np.uint8)
    for i, k in enumerate(keys):
        pats[i, :len(k)] = np.frombuffer(k, np.uint8)
    plens = np.array([len(k) for k in keys], np.int64)
    codes = np.array(list(values.values()), np.int8)
    parts = [_match_codes(*_text_buffers(ch), pats, plens, codes) for ch in getattr(col, "chunks", [col])]
    return np.concatenate(parts) if parts else np.zeros(0, np.int8)


@njit(cache=True, nogil=True)
def _equal_rows(data, offsets, pat):  # pragma: no cover - compiled
    """True when every row's bytes are ``pat``'s."""
    m = len(pat)
    for i in range(len(offsets) - 1):
        a = offsets[i]
        if offsets[i + 1] - a != m:
            return False
        for j in range(m):
            if data[a + j] != pat[j]:
                return False
    return True


def all_equal(col, text: str) -> bool:
    """Whether every row of the string column ``col`` (``pyarrow`` array or chunked array) is ``text``, byte for byte.

    >>> import pyarrow as pa
    >>> all_equal(pa.chunked_array([["hm", "hm"], ["hm"]]), "hm"), all_equal(pa.array(["hm", "h"]), "hm")
    (True, False)
    """
    pat = np.frombuffer(text.encode("utf-8"), np.uint8)
    return all(_equal_rows(*_text_buffers(ch), pat) for ch in getattr(col, "chunks", [col]))


def without_zero_size(cols: dict) -> dict:
    """The fast path's columns without their zero-size requests (skipped, as the pandas path does), with
    ``_zero`` = how many were dropped.

    >>> import numpy as np
    >>> c = without_zero_size({"size_bytes": np.array([0, 512]), "time_ns": np.array([1, 2])})
    >>> c["time_ns"].tolist(), c["_zero"]
    ([2], 1)
    """
    keep = cols["size_bytes"] > 0
    zero = int((~keep).sum())
    if zero:
        cols = {k: v[keep] for k, v in cols.items()}
    cols["_zero"] = zero
    return cols
