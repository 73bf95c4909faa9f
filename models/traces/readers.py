"""Read a trace file in a named or detected format (:func:`read_trace`).

The formats and their readers live in :mod:`models.traces.formats` (one module per format),
detection in :mod:`models.traces.detect`. To load bundled traces by name as well as files,
with the default request limit, use :func:`models.traces.load`.

Examples
--------
>>> t = read_trace(b"0 0 8 8 1\\n1000 0 16 8 0\\n")
>>> t.meta["format"], len(t), t.offset_bytes.tolist(), t.is_write.tolist()
('mqsim', 2, [4096, 8192], [False, True])
>>> read_trace(b"0 0 8 x 1\\n", format="mqsim")
Traceback (most recent call last):
...
models.traces.source.TraceFormatError: mqsim: line 1: field 'size_sectors' is not an integer: 'x'
"""

from __future__ import annotations

import inspect

from models.traces.core import BlockTrace, MemTrace
from models.traces.detect import detect_source
from models.traces.formats import FORMATS

__all__ = ["read_trace"]

#: Options that select the generic CSV format when the format is "auto".
_CSV_MAPPING = ("size_col", "offset_col", "lba_col")


def read_trace(src, format: str = "auto", **options) -> BlockTrace | MemTrace:
    """Read a trace in any registered format; ``format="auto"`` sniffs it from the first lines.

    Parameters
    ----------
    src : path, bytes or binary file object
        The trace (plain, gzip or zstd).
    format : str
        A name in :data:`FORMATS`, or ``"auto"`` (a CSV column mapping among ``options``
        selects ``csv``; otherwise :func:`models.traces.detect.detect_source`).
    **options
        The format's reader options (``name``, ``max_requests``, ``progress``,
        ``chunk_bytes`` for all; column options for ``csv``; ``time_unit`` for ``mqsim``;
        ``action`` for ``blkparse``). None values are left out.

    Returns
    -------
    BlockTrace or MemTrace
        A MemTrace for the memory formats (lackey, npz).
    """
    fmt = str(format or "auto").strip().lower()
    extra: dict = {}
    if fmt == "auto":
        if any(k in options for k in _CSV_MAPPING):
            fmt = "csv"
        else:
            fmt, extra = detect_source(src, name=options.get("name"))
    if fmt not in FORMATS:
        raise KeyError(f"unknown trace format {format!r}; valid formats: auto, {', '.join(FORMATS)}")
    opts = {**extra, **{k: v for k, v in options.items() if v is not None}}
    params = inspect.signature(FORMATS[fmt].reader).parameters
    unknown = [k for k in opts if k not in params]
    if unknown:
        raise ValueError(f"option(s) {', '.join(unknown)} not valid for format {fmt!r}; valid: "
                         f"{', '.join(p for p in params if p != 'src')}")
    return FORMATS[fmt].reader(src, **opts)
