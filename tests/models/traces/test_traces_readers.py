"""Trace readers: real bundled files, small generated files per format, compression, errors."""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import numpy as np
import pytest
import zstandard

from models.traces import (
    FORMATS,
    TraceFormatError,
    bundled_trace_path,
    bundled_traces,
    detect_format,
    load,
    read_trace,
)
from models.traces.core import BlockTrace, MemTrace
from models.traces.formats import (
    parse_op_map,
    read_blkparse,
    read_csv_trace,
    read_disksim_validate,
    read_lackey,
    read_mqsim,
    read_msr,
    read_spc,
)

ROOT = Path(__file__).resolve().parents[3]
TPCC = ROOT / "data/traces/block/tpcc-small.trace.gz"
WSRCH = ROOT / "data/traces/block/wsrch-small.trace.gz"

SPC = b"0,20941264,8192,W,0.551706\n1,20939840,8192,w,0.554041\n0,20939840,3072,r,0.556040\n"
MSR = (b"128166372003061629,hm,1,Read,3414736896,24576,41286\n"
       b"128166372016382155,hm,1,Write,3617034240,4096,9256\n"
       b"128166372026382245,hm,0,Read,0,512,3000\n")
BLK = b"""  8,0    3        1     0.000000000   697  Q   R 223490 + 8 [kjournald]
  8,0    3        2     0.000001000   697  G   R 223490 + 8 [kjournald]
  8,0    3        3     0.000100000   697  Q  WS 223498 + 16 [kjournald]
  8,16   0        4     0.000200000   698  Q   D 1000 + 8 [fstrim]
  8,16   0        5     0.000300000   698  Q  FWS [kworker]
  8,0    1        6     0.000400000   700  Q   W 0 + 0 [x]
  8,16   0        7     0.000500000   698  Q  RA 4096 + 32 [cat]
  8,0    3        8     0.000600000   697  C   R 223490 + 8 [0]
CPU0 (8,0):
 Reads Queued:           7,       28KiB  Writes Queued:         397,    1,588KiB
Total (8,0):
"""
LACKEY = b"""==1234== Lackey, an example Valgrind tool
==1234== Copyright (C) 2002-2017, and GNU GPL'd, by Nicholas Nethercote.
I  0400d7d4,8
 L 04222cac,8
 S 7ff000398,8
 M 0421a0e8,4
I  0400d7d8,3
program output, not a record
==1234== total
"""
CSV = b"time,op,lba,blocks\n0.5,0x28,100,8\n0.75,0x2A,200,16\n1.0,28,300,1\n"


def _gz(b: bytes) -> bytes:
    return gzip.compress(b, mtime=0)


def _zst(b: bytes) -> bytes:
    return zstandard.ZstdCompressor().compress(b)


# ----------------------------------------------------------------------------- real files
def test_mqsim_real_traces_match_upstream_counts():
    # SOURCES.txt of the MQSim traces: tpcc 4,381 reads / 2,618 writes, mean 16.7 sectors;
    # wsrch 24,779 reads / 4 writes, mean 30.1 sectors
    t = read_mqsim(TPCC)
    assert (len(t), int(t.is_write.sum())) == (6999, 2618)
    assert t.size_bytes.mean() / 512 == pytest.approx(16.7, abs=0.05)
    w = read_mqsim(WSRCH)
    assert (int((~w.is_write).sum()), int(w.is_write.sum())) == (24779, 4)
    assert w.size_bytes.mean() / 512 == pytest.approx(30.1, abs=0.05)
    # SOURCES.txt says "3 devices": devices 0-2 carry 99.9 % of the requests, 3-5 have 8, 7, 10
    assert np.bincount(w.device).tolist() == [8340, 8231, 8187, 8, 7, 10]
    assert w.time_ns[0] == 0 and w.meta["time_origin_ns"] == 11413000
    assert 55e9 < w.time_ns.max() < 65e9  # "~60 s span"
    # first line "11413000 0 657728 16 1"
    assert (w.offset_bytes[0], w.size_bytes[0], bool(w.is_write[0])) == (657728 * 512, 16 * 512, False)


def test_disksim_validate_real_trace():
    path = ROOT / "data/disksim/atlas10k.trace"
    t = read_disksim_validate(path)
    assert len(t) == 10000
    # first lines: "W Hit 4583176 4 663.00000 45422.00000", "W Hit 4583180 4 607.00000 34200.00000"
    assert t.is_write[0] and t.offset_bytes[0] == 4583176 * 512 and t.size_bytes[0] == 4 * 512
    assert t.meta["service_us"][:2].tolist() == [663.0, 607.0]
    assert t.time_ns[1] - t.time_ns[0] == 34200 * 1000
    assert np.all(np.diff(t.time_ns) >= 0)
    assert set(np.unique(t.meta["cache"])) <= {"Hit", "Miss", "Doub", "Trip"}
    assert detect_format(path) == "disksim"


def test_bundled_names_and_unknown():
    names = bundled_traces()
    assert {"mqsim:tpcc-small", "mqsim:wsrch-small", "synthetic:fin1", "synthetic:web-proxy"} <= set(names)
    assert len(load("synthetic:fin2", n_requests=500)) == 500
    assert load("mqsim:wsrch-small", max_requests=10).name == "mqsim:wsrch-small"
    with pytest.raises(FileNotFoundError, match="neither a file nor a bundled trace .*mqsim:tpcc-small"):
        load("mqsim:nope")
    assert bundled_trace_path("mqsim:tpcc-small").endswith("tpcc-small.trace.gz")


# ----------------------------------------------------------------------------- per-format small files
def test_spc():
    t = read_spc(SPC)
    assert t.is_write.tolist() == [True, True, False]
    assert t.offset_bytes.tolist() == [20941264 * 512, 20939840 * 512, 20939840 * 512]
    assert t.size_bytes.tolist() == [8192, 8192, 3072]
    assert t.device.tolist() == [0, 1, 0]
    assert t.time_ns.tolist() == [0, 2335000, 4334000]


def test_msr():
    t = read_msr(MSR)
    assert t.is_write.tolist() == [False, True, False]
    assert t.offset_bytes.tolist() == [3414736896, 3617034240, 0]
    assert t.size_bytes.tolist() == [24576, 4096, 512]
    assert t.device.tolist() == [1, 1, 0]
    # FILETIME ticks of 100 ns
    assert t.time_ns.tolist() == [0, (128166372016382155 - 128166372003061629) * 100,
                                  (128166372026382245 - 128166372003061629) * 100]
    assert t.meta["response_ns"].tolist() == [4128600, 925600, 300000]
    assert t.meta["hostname"] == "hm"


def test_blkparse_actions_discard_and_summary():
    t = read_blkparse(BLK)
    # Q events: R 223490+8, WS 223498+16, D skipped, FWS without sector skipped, W +0 dropped, RA kept
    assert t.offset_bytes.tolist() == [223490 * 512, 223498 * 512, 4096 * 512]
    assert t.size_bytes.tolist() == [4096, 8192, 16384]
    assert t.is_write.tolist() == [False, True, False]
    assert t.device.tolist() == [0, 0, 1] and t.meta["devices"] == ["8,0", "8,16"]
    assert t.time_ns.tolist() == [0, 100_000, 500_000]
    assert t.meta["skipped_zero_size"] == 1
    c = read_blkparse(BLK, action="C")
    assert len(c) == 1 and c.time_ns[0] == 0
    with pytest.raises(ValueError, match="action"):
        read_blkparse(BLK, action="Q R")


def test_lackey():
    m = read_lackey(LACKEY)
    assert isinstance(m, MemTrace)
    assert m.kind.tolist() == [0, 1, 2, 3, 0]
    assert m.address.tolist() == [0x0400D7D4, 0x04222CAC, 0x7FF000398, 0x0421A0E8, 0x0400D7D8]
    assert m.size.tolist() == [8, 8, 8, 4, 3]


def test_lackey_crlf_and_chunks_equal():
    big = LACKEY * 50
    one = read_lackey(big)
    many = read_lackey(big, chunk_bytes=37)
    assert np.array_equal(one.address, many.address) and np.array_equal(one.kind, many.kind)
    crlf = read_lackey(LACKEY.replace(b"\n", b"\r\n"))
    assert np.array_equal(crlf.address, read_lackey(LACKEY).address)


def test_csv_scsi_sectors_and_indexes():
    t = read_csv_trace(CSV, time_col="time", op_col="op", lba_col="lba", size_col="blocks", size_unit="sectors",
                       op_map="scsi")
    assert t.is_write.tolist() == [False, True, False]
    assert t.offset_bytes.tolist() == [51200, 102400, 153600]
    assert t.size_bytes.tolist() == [4096, 8192, 512]
    assert t.time_ns.tolist() == [0, 250_000_000, 500_000_000]
    # no header, 0-based indexes, semicolons, custom map, byte offsets
    raw = b"10;R;4096;512\n20;W;0;1024\n"
    t2 = read_csv_trace(raw, time_col=0, op_col=1, offset_col=2, size_col=3, header=False, sep=";",
                        op_map={"R": "read", "W": "write"}, time_unit="us")
    assert t2.is_write.tolist() == [False, True] and t2.time_ns.tolist() == [0, 10_000]
    assert t2.offset_bytes.tolist() == [4096, 0] and t2.size_bytes.tolist() == [512, 1024]
    # whitespace separated, no time and no op column
    t3 = read_csv_trace(b"a b\n1 8\n2 8\n", offset_col="a", size_col="b", sep="whitespace")
    assert t3.time_ns.tolist() == [0, 1] and not t3.is_write.any()


def test_op_map_parsing():
    assert parse_op_map("R=read, W=write") == {"r": False, "w": True}
    assert parse_op_map("scsi")["2a"] is True and parse_op_map("scsi")["40"] is False
    with pytest.raises(ValueError, match="read or write"):
        parse_op_map("R=foo")
    with pytest.raises(ValueError, match="CODE=read"):
        parse_op_map("R")


@pytest.mark.parametrize("wrap", [lambda b: b, _gz, _zst], ids=["plain", "gzip", "zstd"])
@pytest.mark.parametrize("payload,fmt", [(SPC, "spc"), (MSR, "msr"), (BLK, "blkparse"), (LACKEY, "lackey"),
                                         (b"0 0 8 8 1\n1000 1 16 8 0\n", "mqsim")])
def test_compression_and_autodetect(tmp_path, payload, fmt, wrap):
    plain = read_trace(payload, fmt)
    p = tmp_path / "trace.bin"  # no telling extension: detection by magic bytes
    p.write_bytes(wrap(payload))
    assert detect_format(p) == fmt
    got = read_trace(p)
    assert got.meta["format"] == fmt
    if isinstance(plain, BlockTrace):
        assert np.array_equal(got.offset_bytes, plain.offset_bytes) and np.array_equal(got.time_ns, plain.time_ns)
    else:
        assert np.array_equal(got.address, plain.address)
    # binary file-like (Streamlit UploadedFile is a BytesIO)
    assert len(read_trace(io.BytesIO(wrap(payload)))) == len(plain)


def test_autodetect_csv_header_guess_and_failure():
    t = read_trace(b"timestamp,op,offset,size\n0,R,0,4096\n1,W,4096,4096\n")
    assert t.meta["format"] == "csv" and t.is_write.tolist() == [False, True]
    with pytest.raises(TraceFormatError, match="cannot detect the trace format"):
        read_trace(b"hello world\nfoo bar\n")
    with pytest.raises(KeyError, match="valid formats"):
        read_trace(SPC, "nope")
    with pytest.raises(ValueError, match="not valid for format 'spc'"):
        read_trace(SPC, "spc", action="Q")


def test_chunked_equals_one_shot_and_progress():
    data = gzip.decompress(TPCC.read_bytes())
    one = read_mqsim(data)
    seen = []
    many = read_mqsim(io.BytesIO(_zst(data)), chunk_bytes=4096, progress=seen.append)
    for c in ("time_ns", "is_write", "offset_bytes", "size_bytes", "device"):
        assert np.array_equal(getattr(one, c), getattr(many, c))
    assert len(seen) > 10 and seen[-1] == 1.0 and all(0 <= x <= 1 for x in seen)
    assert seen == sorted(seen)
    disk = ROOT / "data/disksim/atlas10k.trace"
    a, b = read_disksim_validate(disk), read_disksim_validate(disk, chunk_bytes=1000)
    assert np.array_equal(a.time_ns, b.time_ns) and np.array_equal(a.meta["service_us"], b.meta["service_us"])


def test_max_requests():
    t = read_mqsim(TPCC, max_requests=100, chunk_bytes=500)
    full = read_mqsim(TPCC)
    assert len(t) == 100 and np.array_equal(t.offset_bytes, full.offset_bytes[:100])
    with pytest.raises(ValueError, match="max_requests"):
        read_mqsim(TPCC, max_requests=0)


# ----------------------------------------------------------------------------- error messages
@pytest.mark.parametrize("reader,data,line,field", [
    (read_mqsim, b"0 0 8 8 1\n\n1 0 8 abc 1\n", 3, "size_sectors"),
    (read_mqsim, b"0 0 8 8 1\n1 0 8 8 2\n", 2, "type"),
    (read_mqsim, b"0 0 8 8 1\n1 0 8\n", 2, "size_sectors"),
    (read_mqsim, b"0 0 8 8 1\n1 0 8 8 1 9\n", 2, None),
    (read_mqsim, b"0 0 -8 8 1\n", 1, "lba_sector"),
    (read_spc, b"0,1,8192,W,0.5\n0,1,8192,X,0.6\n", 2, "opcode"),
    (read_spc, b"0,1,8192,W,0.5\n0,1,8192,W,zz\n", 2, "timestamp"),
    (read_msr, MSR + b"128166372026382245,hm,0,Read,12x,512,3000\n", 4, "offset"),
    (read_disksim_validate, b"R Hit 1 8 1.0 2.0\nQ Hit 1 8 1.0 2.0\n", 2, "op"),
    (read_blkparse, b"8,0 3 1 0.5 697 Q R 12z + 8 [k]\n", 1, "sector"),
    (read_lackey, b"I  0400d7d4,8\n L 0422zcac,8\n", 2, "address"),
    (read_lackey, b"I  0400d7d4,8\n\n S 0422acac,x\n", 3, "size"),
])
def test_errors_name_line_and_field(reader, data, line, field):
    with pytest.raises(TraceFormatError) as ei:
        reader(data)
    err = ei.value
    assert err.line == line and f"line {line}" in str(err)
    if field:
        assert err.field == field and f"'{field}'" in str(err)
    assert isinstance(err, ValueError)


def test_error_line_number_in_later_chunk():
    data = b"0 0 8 8 1\n" * 500 + b"1 0 8 abc 1\n"
    with pytest.raises(TraceFormatError, match=r"line 501: field 'size_sectors' is not an integer: 'abc'"):
        read_mqsim(data, chunk_bytes=256)
    csv = b"t,op,lba,n\n" + b"0,R,1,8\n" * 30 + b"0,Q,1,8\n"
    with pytest.raises(TraceFormatError, match=r"line 32: field 'op'"):
        read_csv_trace(csv, time_col="t", op_col="op", lba_col="lba", size_col="n", chunk_bytes=64)


def test_csv_option_errors():
    with pytest.raises(ValueError, match="exactly one of offset_col"):
        read_csv_trace(CSV, size_col="blocks")
    with pytest.raises(ValueError, match="columns: time, op, lba, blocks"):
        read_csv_trace(CSV, size_col="nope", lba_col="lba")
    with pytest.raises(ValueError, match="time_unit"):
        read_csv_trace(CSV, size_col="blocks", lba_col="lba", time_col="time", time_unit="hours")
    with pytest.raises(ValueError, match="needs a column mapping: size_col"):
        read_trace(CSV, "csv")  # --format csv without the column options


def test_binary_data_is_named_not_parsed():
    with pytest.raises(ValueError, match=r"mqsim: line 2: binary data \(NUL bytes\)"):
        read_mqsim(b"0 0 8 8 1\n0 0\x00 8 8 1\n")
    with pytest.raises(ValueError, match="csv: line 2: field 'a' is not an integer: 'c'"):
        read_csv_trace(b"a,b\rc,d\n1,2\n", size_col=1, offset_col=0)  # a bare CR ends the header line


def test_missing_file_and_text_mode(tmp_path):
    with pytest.raises(FileNotFoundError):
        read_mqsim(tmp_path / "nope.trace")
    p = tmp_path / "x.trace"
    p.write_bytes(b"0 0 8 8 1\n")
    with open(p) as fh, pytest.raises(TypeError, match="binary"):
        read_mqsim(fh)


def test_empty_input_and_registry():
    assert len(read_mqsim(b"")) == 0 and len(read_lackey(b"==1== nothing\n")) == 0
    assert set(FORMATS) == {"mqsim", "disksim", "spc", "msr", "blkparse", "csv", "lackey", "npz", "alibaba", "tencent",
                            "twitter", "oraclegeneral", "lcs", "vscsi", "txt"}
    assert FORMATS["lackey"].kind == FORMATS["npz"].kind == "memory"


def test_csv_missing_cell_names_header_field():
    with pytest.raises(TraceFormatError, match=r"line 3: field 'lba' is missing"):
        read_csv_trace(b"t,lba,n\n0,1,8\n0,,8\n", time_col="t", lba_col="lba", size_col="n")


# ----------------------------------------------------------------------------- overflow, encoding, huge requests
I64 = 2**63 - 1


@pytest.mark.parametrize("reader,data,line,field,msg", [
    # 2**55 sectors x 512 B = 2**64 B: used to wrap to offset 0; the largest allowed is (2**63-1)//512
    (read_mqsim, b"0 0 8 8 1\n10 0 36028797018963968 8 1\n", 2, "lba_sector",
     f"is too large (max {I64 // 512}): '36028797018963968'"),
    # used to report "is negative" with the wrapped byte value
    (read_mqsim, b"0 0 9223372036854775000 8 1\n", 1, "lba_sector", f"is too large (max {I64 // 512})"),
    (read_mqsim, b"0 0 8 18014398509481984 1\n", 1, "size_sectors", f"is too large (max {I64 // 512})"),
    # pandas reads 2**63..2**64-1 as uint64, which used to wrap to a negative int64
    (read_mqsim, b"0 0 9223372036854775808 8 1\n", 1, "lba_sector", f"is too large (max {I64})"),
    # times in ms near 9e15: 9e21 ns does not fit in int64 (max 9223372036854 ms)
    (lambda b: read_mqsim(b, time_unit="ms"), b"0 0 8 8 1\n9000000000000000 0 8 8 1\n", 2, "arrival_ns",
     "is too large (max 9223372036854 ms): '9000000000000000'"),
    (lambda b: read_mqsim(b, time_unit="ms"), b"0 0 8 8 1\n9e15 0 8 8 1\n", 2, "arrival_ns",
     "is too large (max 9223372036854 ms)"),
    (read_spc, b"0,36028797018963968,8192,W,0.5\n", 1, "lba", f"is too large (max {I64 // 512})"),
    (read_spc, b"0,1,8192,W,1e10\n", 1, "timestamp", "is too large (max 9223372036 s)"),
    (read_blkparse, b"8,0 3 1 0.5 697 Q R 36028797018963968 + 8 [k]\n", 1, "sector", f"(max {I64 // 512})"),
    (read_disksim_validate, b"R Hit 36028797018963968 8 1.0 2.0\n", 1, "lbn", f"(max {I64 // 512})"),
    (read_disksim_validate, b"R Hit 1 8 1.0 2.0\nR Hit 1 8 1.0 1e16\n", 2, "interarrival_us", "arrival time exceed"),
    (lambda b: read_csv_trace(b, lba_col="lba", size_col="n"), b"lba,n\n0,8\n36028797018963968,8\n", 3, "lba",
     f"is too large (max {I64 // 512})"),
    (lambda b: read_csv_trace(b, offset_col="o", size_col="n", size_unit="sectors", sector_size=4096),
     b"o,n\n0,2251799813685248\n", 2, "n", f"is too large (max {I64 // 4096})"),
    # offset + size beyond 2**63-1 bytes
    (lambda b: read_csv_trace(b, offset_col="o", size_col="n"), f"o,n\n{I64 - 10},4096\n".encode(), 2, "o",
     "plus the request size ends beyond"),
    # negative values are reported as written, not converted to bytes
    (read_mqsim, b"0 0 -8 8 1\n", 1, "lba_sector", "is negative: '-8'"),
    (read_blkparse, b"8,0 3 1 0.5 697 Q R -5 + 8 [k]\n", 1, "sector", "is negative: '-5'"),
    # MSR: 1601-based FILETIME in ns (1.3e19) exceeds int64; only the span must fit
    (read_msr, MSR + b"9223372036854775000,hm,1,Read,1,512,1\n", 4, "timestamp", "too far from the earliest"),
])
def test_values_too_large_for_int64_are_named(reader, data, line, field, msg):
    with pytest.raises(TraceFormatError) as ei:
        reader(data)
    err = ei.value
    assert err.line == line and err.field == field and f"line {line}: field '{field}'" in str(err)
    assert msg in str(err)


def test_largest_allowed_values_are_exact():
    mx = I64 // 512
    t = read_mqsim(f"0 0 {mx - 8} 8 1\n".encode())
    assert t.offset_bytes.tolist() == [(mx - 8) * 512] and t.size_bytes.tolist() == [4096]
    # ms times up to the limit stay exact integers
    t = read_mqsim(b"0 0 8 8 1\n9223372036854 0 8 8 1\n", time_unit="ms")
    assert t.time_ns.tolist() == [0, 9223372036854 * 10**6]
    # each time fits, but the span from the earliest does not
    with pytest.raises(TraceFormatError, match="arrival times span more than"):
        read_mqsim(b"-9000000000000000000 0 8 8 1\n9000000000000000000 0 8 8 1\n")
    # MSR: real FILETIME stamps keep exact differences and the absolute origin in meta
    m = read_msr(MSR)
    assert m.meta["time_origin_ns"] == 128166372003061629 * 100
    assert m.time_ns[1] == (128166372016382155 - 128166372003061629) * 100


def test_invalid_utf8_names_the_line():
    data = b"t,off,size\n0,0,4096\n1,\xff\xfe,4096\n"
    with pytest.raises(TraceFormatError, match=r"csv: line 3: is not valid UTF-8 text \(byte\(s\) ff at column 3\)"):
        read_csv_trace(data, offset_col="off", size_col="size", time_col="t")
    with pytest.raises(TraceFormatError, match="line 32: is not valid UTF-8"):
        read_csv_trace(b"t,op,o,n\n" + b"0,R,1,8\n" * 30 + b"0,\xe9,1,8\n", time_col="t", op_col="op",
                       offset_col="o", size_col="n", chunk_bytes=64)


def test_stray_quote_names_its_line():
    with pytest.raises(TraceFormatError, match=r"spc: line 2: unbalanced quote") as ei:
        read_spc(b'0,8,4096,r,0.1\n0,"8,4096,r,0.2\n0,8,4096,r,0.3\n')
    assert ei.value.line == 2
    # a closed quoted field is still an ordinary (bad) value
    with pytest.raises(TraceFormatError, match=r"line 3: field 'off' is not an integer: '0,5'"):
        read_csv_trace(b't,off,size\n0,0,4096\n1,"0,5",4096\n', offset_col="off", size_col="size", time_col="t")


def test_huge_request_is_refused_before_splitting():
    from models.traces.blocks import MAX_BLOCK_ACCESSES, split_blocks

    # one 2 TiB request (2**32 sectors) = 2**29 blocks of 4 KiB: refused, never allocated
    t = read_mqsim(b"0 0 8 8 1\n10 0 0 4294967296 1\n")
    with pytest.raises(ValueError, match=r"request 1 \(2199023255552 bytes at offset 0\) touches 536870912 "
                                         r"4096-byte blocks, more than max_request_blocks=1048576"):
        split_blocks(t, 4096)
    from models.budget import limit

    with limit(0), pytest.raises(ValueError, match=r"536870913 accesses .* max_block_accesses=100000000; the "
                                                   r"largest is request 1 \(2199023255552 bytes at offset 0, "
                                                   r"536870912 blocks\)"):
        split_blocks(t, 4096, max_request_blocks=2**40)
    # under the run's memory budget (issue 42) the split is refused before, naming the option that raises it
    with limit("1GB"), pytest.raises(ValueError, match=r"splitting the trace into 4096-byte blocks .* --memory-budget"):
        split_blocks(t, 4096, max_request_blocks=2**40)
    # the bound is on the total: 3 requests of 4 blocks pass a limit of 12 and fail 11
    t = read_mqsim(b"0 0 0 32 1\n1 0 64 32 1\n2 0 128 32 0\n")
    assert len(split_blocks(t, 4096, max_block_accesses=12)) == 12
    with pytest.raises(ValueError, match=r"12 accesses of 4096-byte blocks, more than max_block_accesses=11"):
        split_blocks(t, 4096, max_block_accesses=11)
    with pytest.raises(ValueError, match="max_block_accesses must be"):
        split_blocks(t, 4096, max_block_accesses=-1)
    # the default leaves room for the largest bundled trace (synthetic:dap, 512-byte blocks: 15.4 M)
    assert MAX_BLOCK_ACCESSES >= 5 * 15_438_492


def test_one_line_bomb_is_refused_per_request():
    """Issue 20: an 18-byte file asking for 97 M blocks in one request is refused before any allocation."""
    from models.traces.blocks import MAX_REQUEST_BLOCKS, split_blocks

    t = read_mqsim(b"0 0 0 781000000 1\n")
    with pytest.raises(ValueError, match=r"touches 97625000 4096-byte blocks, more than max_request_blocks=1048576"):
        split_blocks(t, 4096)
    assert MAX_REQUEST_BLOCKS == 1 << 20
    t = read_mqsim(b"0 0 0 16 1\n")  # 2 blocks: the limit is inclusive
    assert len(split_blocks(t, 4096, max_request_blocks=2)) == 2
    with pytest.raises(ValueError, match="max_request_blocks=1 "):
        split_blocks(t, 4096, max_request_blocks=1)
