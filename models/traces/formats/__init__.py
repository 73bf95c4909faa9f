"""Trace file formats: one module per format, registered in :data:`FORMATS`.

Every reader takes a *source* (a path, ``bytes`` or a binary file-like object such as a
Streamlit ``UploadedFile``), accepts gzip or zstd input (recognised by magic bytes), reads
text in blocks of whole lines parsed with the pandas C engine or NumPy (so files larger than
memory stream through), and raises :class:`~models.traces.source.TraceFormatError` naming
the line and field on bad input. Common keyword options of every reader:

``name``
    Trace name (default: the file name).
``max_requests``
    Stop after this many requests / references.
``progress``
    Callable receiving the fraction of the input consumed (0..1), or the bytes consumed
    when the input size is unknown.
``chunk_bytes``
    Size of the text blocks handed to the parser [bytes].
``max_line_bytes``
    Longest line accepted [bytes] (default :data:`~models.traces.source.MAX_LINE_BYTES`;
    CLI ``--max-line-bytes``).
``max_input_bytes``
    Most decompressed bytes read [bytes] (default :data:`~models.traces.source.MAX_INPUT_BYTES`;
    CLI ``--max-input-bytes``).

Integers are parsed exactly (int64, never through a float), device numbers must fit 0..2**31-1,
corrupt or truncated gzip / zstd input is a TraceFormatError naming the file, and a result never
depends on ``chunk_bytes``.

>>> [f.name for f in FORMATS.values() if f.kind == "memory"]
['lackey', 'npz']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from models.traces.formats import blkparse, csv, disksim, lackey, mqsim, msr, npz, spc
from models.traces.formats.blkparse import read_blkparse
from models.traces.formats.csv import SCSI_OP_MAP, parse_op_map, read_csv_trace
from models.traces.formats.disksim import read_disksim_validate
from models.traces.formats.lackey import read_lackey
from models.traces.formats.mqsim import read_mqsim
from models.traces.formats.msr import read_msr
from models.traces.formats.npz import read_memtrace_npz, save_memtrace_npz
from models.traces.formats.parsing import TIME_UNITS
from models.traces.formats.spc import read_spc

__all__ = [
    "TraceFormat",
    "FORMATS",
    "TIME_UNITS",
    "SCSI_OP_MAP",
    "parse_op_map",
    "read_mqsim",
    "read_disksim_validate",
    "read_spc",
    "read_msr",
    "read_blkparse",
    "read_csv_trace",
    "read_lackey",
    "read_memtrace_npz",
    "save_memtrace_npz",
]


@dataclass(frozen=True)
class TraceFormat:
    """A registered trace format.

    Attributes
    ----------
    name : str
        Format name (``--trace-format`` value).
    kind : {"block", "memory"}
        The trace it holds: block I/O requests or memory references.
    reader : callable
        ``reader(src, **options)`` returning a BlockTrace or MemTrace.
    description : str
        One line shown in help texts.
    pattern : str or None
        Regular expression matching a data line (format detection); None: not detected
        from text.
    """

    name: str
    kind: str
    reader: Callable
    description: str
    pattern: str | None = None


FORMATS: dict[str, TraceFormat] = {
    f.name: f
    for f in [
        TraceFormat("mqsim", "block", read_mqsim, mqsim.DESCRIPTION, mqsim.PATTERN),
        TraceFormat("disksim", "block", read_disksim_validate, disksim.DESCRIPTION, disksim.PATTERN),
        TraceFormat("spc", "block", read_spc, spc.DESCRIPTION, spc.PATTERN),
        TraceFormat("msr", "block", read_msr, msr.DESCRIPTION, msr.PATTERN),
        TraceFormat("blkparse", "block", read_blkparse, blkparse.DESCRIPTION, blkparse.PATTERN),
        TraceFormat("csv", "block", read_csv_trace, csv.DESCRIPTION),
        TraceFormat("lackey", "memory", read_lackey, lackey.DESCRIPTION, lackey.PATTERN),
        TraceFormat("npz", "memory", read_memtrace_npz, npz.DESCRIPTION),
    ]
}
