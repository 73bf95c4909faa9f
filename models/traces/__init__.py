"""Trace layer: columnar block and memory traces, readers, generators and statistics."""

from models.traces.blocks import BlockAccesses, split_blocks
from models.traces.core import BlockTrace, MemTrace
from models.traces.readers import FORMATS, TraceFormatError, detect_format, read_trace

__all__ = [
    "BlockTrace",
    "MemTrace",
    "BlockAccesses",
    "split_blocks",
    "FORMATS",
    "TraceFormatError",
    "detect_format",
    "read_trace",
]
