"""Arrow's CSV reader as the fast path of the comma-separated block formats (MSR, Alibaba).

:func:`plain_columns` parses one block of whole lines with ``pyarrow.csv`` (a kept library:
pyarrow is a dependency of Streamlit and Dask; measured against Polars in
``bench/bench_stream.py``) into integer and text columns -- but only a *plain* block: no
comment, quote, blank line, whitespace or carriage return, every line the same number of fields,
every integer field a plain decimal in int64 range. Anything else returns None and the format's
own pandas parser reads the block, with its line- and field-named messages; so the fast path
changes speed only, never what is accepted or the values read (the readers' tests and
``bench/fuzz.py`` compare both paths).
"""

from __future__ import annotations

import io

__all__ = ["plain_columns", "without_zero_size"]

#: Bytes whose presence sends a block to the format's own parser (comment, quote, blanks, CR, BOM lead byte).
_NOT_PLAIN = b'#" \t\r\x0b\x0c\xef'
#: Hexadecimal literals (``0x10``), which Arrow reads as integers and pandas does not, do the same. (A blank line
#: need not be looked for: Arrow refuses its field count, as every format read here has several fields.)
_HEX_MARK = b"xX"


def _is_plain(block: bytes) -> bool:
    """No byte of :data:`_NOT_PLAIN` and no ``0x``/``0X`` in ``block``: one C pass (``bytes.translate`` deleting
    them) when the block holds no ``x`` at all; else a NumPy look at the byte before each ``x``."""
    if not block:
        return False
    if len(block.translate(None, _NOT_PLAIN + _HEX_MARK)) == len(block):  # deletes: the fastest scan
        return True
    if len(block.translate(None, _NOT_PLAIN)) != len(block):
        return False
    import numpy as np

    buf = np.frombuffer(block, np.uint8)
    x = np.flatnonzero((buf | 0x20) == ord("x"))  # 'x' or 'X' (host names such as "prxy" hold them)
    x = x[x > 0]
    return not (buf[x - 1] == ord("0")).any()


def plain_columns(block: bytes, names: list[str], ints: tuple[str, ...],
                  lower: tuple[str, ...] = ()) -> dict | None:
    """The columns of a plain comma-separated ``block`` (see the module docstring), or None.

    Parameters
    ----------
    block : bytes
        Whole lines (the last may lack its newline).
    names : list of str
        The fields of every line, in order.
    ints : tuple of str
        The fields parsed as int64 (returned as NumPy arrays); the others are returned as
        ``pyarrow`` string arrays (convert only what is needed: object arrays are slow).
    lower : tuple of str
        Text fields returned lower-cased (the operation fields the readers map case-insensitively).

    Returns
    -------
    dict of arrays, or None when the block is not plain or a field does not parse.

    Examples
    --------
    >>> plain_columns(b"1,Read\\n2,WRITE\\n", ["t", "op"], ("t",), ("op",))["op"].to_pylist()
    ['read', 'write']
    >>> plain_columns(b"1,Read\\n# note\\n", ["t", "op"], ("t",)) is None
    True
    """
    if len(names) < 2 or not _is_plain(block):
        return None
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pcsv

    types = {n: (pa.int64() if n in ints else pa.string()) for n in names}
    try:
        table = pcsv.read_csv(
            io.BytesIO(block),
            read_options=pcsv.ReadOptions(column_names=names, use_threads=False, block_size=max(len(block), 1 << 16)),
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
        if n in ints:
            out[n] = col.to_numpy()
        else:
            out[n] = pc.utf8_lower(col) if n in lower else col
    return out


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
