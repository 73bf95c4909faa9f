"""Trace file formats: one module per format, registered in :data:`FORMATS`.

Every reader takes a *source* (a path, ``bytes`` or a binary file-like object such as a
Streamlit ``UploadedFile``), accepts gzip or zstd input (recognised by magic bytes), reads
text in blocks of whole lines parsed with the pandas C engine or NumPy (so files larger than
memory stream through), and raises :class:`~models.traces.source.TraceFormatError` naming
the line and field on bad input. The binary formats (libCacheSim ``oraclegeneral``, ``lcs`` and ``vscsi``)
are read in blocks of whole fixed-size records and their errors name the byte offset. The
object (key-value) cache traces (``oraclegeneral``, ``lcs``, ``twitter``, ``txt``) give each object its
own ``2**32``-byte slot of a block trace (:mod:`models.traces.formats.objects`). Text formats
skip ``#`` comment lines (but ``twitter`` and ``txt``, whose keys are free text) and a header row (``msr``,
``alibaba``, ``tencent``; ``csv`` has its ``header`` option). Common keyword options of every
reader:

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

from models.traces.formats import (
    alibaba,
    blkparse,
    csv,
    disksim,
    lackey,
    lcs,
    mqsim,
    msr,
    npz,
    oracle,
    spc,
    tencent,
    twitter,
    txt,
    vscsi,
)
from models.traces.formats.alibaba import read_alibaba
from models.traces.formats.blkparse import read_blkparse
from models.traces.formats.csv import SCSI_OP_MAP, parse_op_map, read_csv_trace
from models.traces.formats.disksim import read_disksim_validate
from models.traces.formats.lackey import read_lackey
from models.traces.formats.lcs import read_lcs, write_lcs
from models.traces.formats.mqsim import read_mqsim
from models.traces.formats.msr import read_msr
from models.traces.formats.npz import read_memtrace_npz, save_memtrace_npz
from models.traces.formats.oracle import read_oracle_general, write_oracle_general
from models.traces.formats.parsing import TIME_UNITS
from models.traces.formats.spc import read_spc
from models.traces.formats.tencent import read_tencent
from models.traces.formats.twitter import read_twitter
from models.traces.formats.txt import read_txt
from models.traces.formats.vscsi import read_vscsi, write_vscsi

__all__ = [
    "TraceFormat",
    "FORMATS",
    "EXAMPLES",
    "EXAMPLE_OPTIONS",
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
    "read_alibaba",
    "read_tencent",
    "read_twitter",
    "read_oracle_general",
    "write_oracle_general",
    "read_lcs",
    "write_lcs",
    "read_vscsi",
    "write_vscsi",
    "read_txt",
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
        TraceFormat("alibaba", "block", read_alibaba, alibaba.DESCRIPTION, alibaba.PATTERN),
        TraceFormat("tencent", "block", read_tencent, tencent.DESCRIPTION, tencent.PATTERN),
        TraceFormat("twitter", "block", read_twitter, twitter.DESCRIPTION, twitter.PATTERN),
        TraceFormat("oraclegeneral", "block", read_oracle_general, oracle.DESCRIPTION),
        TraceFormat("lcs", "block", read_lcs, lcs.DESCRIPTION),
        TraceFormat("csv", "block", read_csv_trace, csv.DESCRIPTION),
        TraceFormat("vscsi", "block", read_vscsi, vscsi.DESCRIPTION),
        TraceFormat("txt", "block", read_txt, txt.DESCRIPTION, txt.PATTERN),
        TraceFormat("lackey", "memory", read_lackey, lackey.DESCRIPTION, lackey.PATTERN),
        TraceFormat("npz", "memory", read_memtrace_npz, npz.DESCRIPTION),
    ]
}


#: One small valid file per format (but npz): documentation of each layout, and the seeds of the fuzz
#: tests (``tests/models/traces/test_traces_robustness.py``, which also checks every example reads)
#: and ``bench/fuzz.py``. The binary examples (oraclegeneral, lcs) are generated records.
EXAMPLES: dict[str, bytes] = {
    "mqsim": b"0 0 8 8 1\n1000 1 16 8 0\n2000 0 24 16 1\n",
    "disksim": b"W Hit 8 2 663.0 10.0\nR Miss 0 1 1.5 5.0\nR Miss 64 8 2.5 7.0\n",
    "spc": b"0,16,8192,W,0.5\n1,8,512,r,0.75\n0,64,4096,R,1.0\n",
    "msr": b"Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n"
           b"128166372003061629,hm,1,Read,4096,512,10\n# comment\n128166372003061639,hm,0,Write,0,512,20\n",
    "blkparse": b"8,0 3 1 0.5 697 Q W 8 + 8 [x]\n8,0 3 2 0.6 697 C W 8 + 8 [0]\n8,16 1 3 0.7 5 Q R 64 + 16 [y]\n"
                b"CPU0 (8,0):\n Reads Queued: 1, 4KiB\n",
    "csv": b"# exported trace\nt,op,lba,len\n0.5,W,100,8\n# a comment line\n0.75,R,8,16\n",
    "alibaba": b"device_id,opcode,offset,length,timestamp\n3,W,4096,8192,1577808144518333\n"
               b"3,R,0,4096,1577808144518340\n0,R,65536,512,1577808144518999\n",
    "tencent": b"1538323200,2048,8,1,1283\n1538323201,0,16,0,7\n1538323201,64,8,0,1283\n",
    "twitter": b"0,abc,3,100,1,get,0\n0,xyz,3,20,1,set,3600\n2,abc,3,100,2,gets,0\n3,xyz,3,0,2,delete,0\n",
    "oraclegeneral": write_oracle_general([10, 11, 12, 12], [7, 9, 7, 2**63 + 5], [4096, 100, 4096, 512],
                                          [2, -1, -1, -1]),
    "lcs": write_lcs(2, [10, 11, 12, 13], [7, 9, 7, 3], [4096, 100, 4096, 512], op=[1, 3, 1, 9], tenant=[0, 1, 0, 1],
                     next_vtime=[2, -1, -1, -1]),
    "vscsi": write_vscsi(2, [0x28, 0x2A, 0x35, 0x88], [8, 16, 0, 2**20], [4096, 512, 0, 8192], [100, 150, 160, 90],
                         [20, 30, 0, 40]),
    "txt": b"7\n9\n\n7\n0x1f\n",
    "lackey": b"==1== Lackey\nI  0400d7d4,8\n L 04222cac,4\n M 0421,2\n S 0ff0,8\n",
}
#: Reader options an example needs (the generic CSV format's column mapping).
EXAMPLE_OPTIONS: dict[str, dict] = {
    "csv": {"time_col": "t", "op_col": "op", "lba_col": "lba", "size_col": "len", "size_unit": "sectors"},
}
