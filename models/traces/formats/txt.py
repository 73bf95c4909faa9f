"""libCacheSim plain-text traces (``txt``): one object id per line, nothing else.

Each non-blank line names the object of one request (libCacheSim ``PLAIN_TXT_TRACE``; blank lines
are skipped as libCacheSim does). The id is the line's text with surrounding white space (and any
byte order mark) removed
-- a number or any other text -- hashed to 64 bits like the Twitter keys
(:func:`~models.traces.formats.objects.hash_keys`), so ``12`` and ``012`` are different objects.
``#`` is not a comment (an id may start with it). The format carries no time, size nor
operation: the request index is the time [ns], every object has size ``object_size``
(registry ``trace.txt.object_bytes``; ``meta["size_unknown"]``), and every request is a read by
convention with the operation unknown (``meta["op_unknown"]``). Objects become blocks as
described in :mod:`models.traces.formats.objects`.

Detected only when the lines are integers (one per line); a file of other ids needs the format
named (``--trace-format txt``).

References
----------
libCacheSim, github.com/1a1a11a/libCacheSim, ``libCacheSim/traceReader/generalReader/txt.c``.
"""

from __future__ import annotations

import numpy as np

from models.provenance import param
from models.traces.chunks import chunk_sink_of
from models.traces.core import BlockTrace
from models.traces.formats.objects import hash_keys, object_table, place_objects
from models.traces.formats.parsing import Chunk, _utf8_error, parse_source
from models.traces.source import CHUNK_BYTES, MAX_INPUT_BYTES, MAX_LINE_BYTES

__all__ = ["read_txt", "DESCRIPTION", "PATTERN", "OBJECT_BYTES"]

DESCRIPTION = "libCacheSim plain text: one object id per line (no time, size or operation)"
#: A data line, for format detection: one integer (decimal or 0x hex).
PATTERN = r"^\s*(0[xX][0-9a-fA-F]+|\d+)\s*$"
#: Size given to every object (the format has none; registry ``trace.txt.object_bytes``) [bytes].
OBJECT_BYTES = int(param("trace.txt.object_bytes").value)


def read_txt(src, *, object_size: int = OBJECT_BYTES, name: str | None = None, max_requests: int | None = None,
             progress=None, chunk_bytes: int = CHUNK_BYTES, max_line_bytes: int = MAX_LINE_BYTES,
             max_input_bytes: int = MAX_INPUT_BYTES) -> BlockTrace:
    """Read a libCacheSim plain-text trace (see the module docstring).

    Parameters
    ----------
    src : path, bytes or binary file object
        The trace (plain, gzip or zstd).
    object_size : int
        Size given to every object [bytes] (default :data:`OBJECT_BYTES`), at most ``2**32``.
    name, max_requests, progress, chunk_bytes, max_line_bytes, max_input_bytes
        Common reader options (see :mod:`models.traces.formats`).

    Returns
    -------
    BlockTrace
        One read per line; object ``i`` (first-access order) at ``offset_bytes = i << 32``;
        ``meta["object_id"]`` the id hashes.

    Examples
    --------
    >>> t = read_txt(b"7\\n9\\n\\n7\\nkey-a\\n")
    >>> (t.offset_bytes >> 32).tolist(), t.time_ns.tolist(), t.meta["op_unknown"], t.op_known
    ([0, 1, 0, 2], [0, 1, 2, 3], True, False)
    """
    if isinstance(object_size, bool) or not isinstance(object_size, (int, np.integer)) or not 1 <= object_size <= 2**32:
        raise ValueError(f"object_size must be a whole number of bytes in 1..2**32 (got {object_size!r})")

    def parse(block, line0, state):
        try:
            text = block.decode("utf-8")
        except UnicodeDecodeError as e:
            _utf8_error(Chunk("txt", block, line0, comment=None), e)
        # a line ends at LF only, as libCacheSim's getline reads it (a lone CR is one already, iter_blocks); not
        # str.splitlines, which also ends one at VT, FF, the separators \x1c-\x1e, NEL, U+2028 and U+2029
        ids = [s for s in (ln.replace("\ufeff", "").strip() for ln in text.split("\n")) if s]
        n = len(ids)
        row = state.get("row", 0)
        state["row"] = row + n
        return {
            "time_ns": np.arange(row, row + n, dtype=np.int64),
            "is_write": np.zeros(n, bool),
            "offset_bytes": np.zeros(n, np.int64),
            "size_bytes": np.full(n, int(object_size), np.int64),
            "device": np.zeros(n, np.int32),
            "meta:object_id": hash_keys(np.array(ids, dtype=object)) if n else np.zeros(0, np.uint64),
        }

    trace = parse_source(src, parse, fmt="txt", name=name, max_requests=max_requests, progress=progress,
                         chunk_bytes=chunk_bytes, max_line_bytes=max_line_bytes, max_input_bytes=max_input_bytes,
                         meta={"op_unknown": True, "size_unknown": True}, objects=object_table)
    return trace if chunk_sink_of("block") is not None else place_objects(trace, "txt")
