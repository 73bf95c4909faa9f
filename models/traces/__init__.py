"""Trace layer: columnar block and memory traces, one loader, formats, generators and statistics.

Load any trace with :func:`load` (a bundled name, a file path or uploaded bytes);
:func:`read_trace` reads a file in a named or detected format; the formats live in
:mod:`models.traces.formats`, one module each.
"""

from models.traces.blocks import BlockAccesses, split_blocks
from models.traces.core import BlockTrace, MemTrace
from models.traces.detect import detect_format
from models.traces.formats import FORMATS
from models.traces.loader import TRACE_KINDS, bundled_trace_path, bundled_traces, load
from models.traces.readers import read_trace
from models.traces.source import TraceFormatError

__all__ = [
    "BlockTrace",
    "MemTrace",
    "BlockAccesses",
    "split_blocks",
    "FORMATS",
    "TraceFormatError",
    "detect_format",
    "read_trace",
    "load",
    "bundled_traces",
    "bundled_trace_path",
    "TRACE_KINDS",
]
