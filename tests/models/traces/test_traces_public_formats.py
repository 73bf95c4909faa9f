"""Issue 19: readers for the public cache-trace datasets (libCacheSim oracleGeneral / lcs, Twitter, Alibaba,
Tencent CBS) and issue 17: MSR files with a header row and CSV traces with comment lines.

Every fixture is generated here (no third-party data).
"""

from __future__ import annotations

import gzip

import numpy as np
import pytest
import zstandard
from hypothesis import given, settings
from hypothesis import strategies as st

from models.traces import load, read_trace, split_blocks
from models.traces.detect import detect_format
from models.traces.formats import (
    EXAMPLES,
    read_lcs,
    read_oracle_general,
    write_lcs,
    write_oracle_general,
)
from models.traces.formats.lcs import RECORDS
from models.traces.source import TraceFormatError

RNG = np.random.default_rng(19)


def _objects(n: int, n_obj: int = 50):
    ids = RNG.integers(0, 2**64 - 1, n_obj, dtype=np.uint64)[RNG.integers(0, n_obj, n)]
    size = RNG.integers(1, 20_000, n)
    time_s = np.sort(RNG.integers(1_600_000_000, 1_600_000_100, n))
    return time_s, ids, size


def _first_access_index(ids: np.ndarray) -> np.ndarray:
    seen: dict[int, int] = {}
    return np.array([seen.setdefault(int(i), len(seen)) for i in ids])


# ---------------------------------------------------------------- oracleGeneral


@pytest.mark.parametrize("codec", ["plain", "zstd", "gzip"])
def test_oracle_general_values_are_the_records(codec):
    time_s, ids, size = _objects(3000)
    data = write_oracle_general(time_s, ids, size)
    data = {"plain": lambda b: b, "zstd": zstandard.ZstdCompressor().compress, "gzip": gzip.compress}[codec](data)
    t = read_oracle_general(data, chunk_bytes=1000)
    assert len(t) == 3000 and t.meta["format"] == "oracleGeneral"
    assert t.time_ns.tolist() == ((time_s - time_s.min()) * 10**9).tolist()
    assert t.meta["time_origin_ns"] == int(time_s.min()) * 10**9
    assert t.meta["object_id"].tolist() == ids.tolist()
    assert (t.offset_bytes >> 32).tolist() == _first_access_index(ids).tolist()
    assert (t.offset_bytes & (2**32 - 1) == 0).all() and t.size_bytes.tolist() == size.tolist()
    assert t.meta["n_objects"] == len(set(ids.tolist())) and not t.is_write.any()


def test_object_traces_split_into_their_own_blocks():
    time_s, ids, size = _objects(500)
    t = read_oracle_general(write_oracle_general(time_s, ids, size))
    b = split_blocks(t, 4096)
    assert len(b) == int(np.ceil(size / 4096).sum())
    # one object's blocks belong to it alone: blocks of two different objects never coincide
    obj_of_block = {}
    for blk, req in zip(b.block.tolist(), b.request.tolist()):
        assert obj_of_block.setdefault(blk, int(ids[req])) == int(ids[req])


@settings(max_examples=30, deadline=None)
@given(n=st.integers(0, 300), chunk=st.integers(1, 5000), cap=st.integers(1, 400))
def test_oracle_general_is_chunk_independent_and_honours_max_requests(n, chunk, cap):
    time_s, ids, size = _objects(n, 20)
    size[::7] = 0  # size-0 requests are dropped, as libCacheSim does
    data = write_oracle_general(time_s, ids, size)
    full = read_oracle_general(data)
    part = read_oracle_general(data, chunk_bytes=chunk, max_requests=cap)
    kept = int((size > 0).sum())
    assert len(full) == kept and full.meta["skipped_zero_size"] == n - kept
    assert len(part) == min(cap, kept)
    assert part.meta["object_id"].tolist() == full.meta["object_id"][: len(part)].tolist()
    assert (part.offset_bytes == full.offset_bytes[: len(part)]).all()  # first-access order: a prefix


def test_oracle_general_errors_name_the_byte_offset():
    data = write_oracle_general([0, 1, 2], [1, 2, 3], [8, 8, 8], [5, -7, -1])
    with pytest.raises(TraceFormatError, match=r"oracleGeneral: record at byte offset 24: field 'next_access_vtime' "
                                               r"is -7"):
        read_oracle_general(data)
    with pytest.raises(TraceFormatError, match=r"ends inside a record at byte offset 48 \(10 of 24 bytes"):
        read_oracle_general(write_oracle_general([0, 1, 2], [1, 2, 3], [8, 8, 8])[:58])
    z = zstandard.ZstdCompressor().compress(write_oracle_general([0, 1], [1, 2], [8, 8]))
    with pytest.raises(TraceFormatError, match="corrupt or truncated zstd"):
        read_oracle_general(z[:-3])
    with pytest.raises(TraceFormatError, match="max_input_bytes"):
        read_oracle_general(write_oracle_general(range(100), range(100), [8] * 100), max_input_bytes=1000)


def test_oracle_general_is_detected_by_content_and_by_name(tmp_path):
    time_s, ids, size = _objects(200)
    nxt = np.full(200, -1)
    data = write_oracle_general(time_s, ids, size, nxt)
    assert detect_format(data) == "oraclegeneral"
    assert detect_format(zstandard.ZstdCompressor().compress(data)) == "oraclegeneral"
    p = tmp_path / "cluster52.oracleGeneral.zst"
    p.write_bytes(zstandard.ZstdCompressor().compress(write_oracle_general([5], [1], [8])))  # one record: by name
    assert detect_format(p) == "oraclegeneral"
    t = load(p, kind="block")
    assert t.name == "cluster52.oracleGeneral" and len(t) == 1
    assert len(load(p.read_bytes(), kind="block", name="cluster52.oracleGeneral.zst")) == 1  # an upload, by its name
    # a decreasing time or a next access before the request is not oracleGeneral
    bad = write_oracle_general([5, 4, 6], [1, 2, 3], [8, 8, 8])
    with pytest.raises(TraceFormatError, match="cannot detect"):
        detect_format(bad)


# ---------------------------------------------------------------- lcs


@pytest.mark.parametrize("version", sorted(RECORDS))
def test_lcs_every_version_reads_its_records(version):
    n = 400
    time_s, ids, size = _objects(n)
    op = RNG.choice([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14], n)
    tenant = RNG.integers(0, 2**24, n)
    data = write_lcs(version, time_s, ids, size, op=op, tenant=tenant, ttl=RNG.integers(0, 100, n))
    assert len(data) == 8192 + n * RECORDS[version].itemsize
    assert RECORDS[version].itemsize == {1: 24, 2: 28, 3: 36, 4: 40, 5: 44, 6: 52, 7: 68, 8: 100}[version]
    t = read_lcs(zstandard.ZstdCompressor().compress(data), chunk_bytes=777)
    assert t.meta["lcs_version"] == version and t.meta["lcs_n_req"] == n
    assert t.meta["object_id"].tolist() == ids.tolist() and t.size_bytes.tolist() == size.tolist()
    if version == 1:
        assert not t.is_write.any() and not t.device.any()
    else:
        assert t.is_write.tolist() == np.isin(op, [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14]).tolist()
        assert t.device.tolist() == tenant.tolist()
    assert detect_format(data) == "lcs"


def test_lcs_header_and_record_errors():
    good = write_lcs(2, [0, 1], [1, 2], [8, 8], op=[1, 3])
    bad = bytearray(good)
    bad[0] ^= 1
    with pytest.raises(TraceFormatError, match="byte offset 0: start magic"):
        read_lcs(bytes(bad))
    bad = bytearray(good)
    bad[8190] ^= 1
    with pytest.raises(TraceFormatError, match="byte offset 8184: end magic"):
        read_lcs(bytes(bad))
    bad = bytearray(good)
    bad[8] = 9
    with pytest.raises(TraceFormatError, match="byte offset 8: version 9 is not supported"):
        read_lcs(bytes(bad))
    with pytest.raises(TraceFormatError, match=r"record at byte offset 8,220: field 'op' is 77"):
        read_lcs(write_lcs(2, [0, 1], [1, 2], [8, 8], op=[1, 77]))
    with pytest.raises(TraceFormatError, match="shorter than the 8,192-byte header"):
        read_lcs(good[:100])
    with pytest.raises(TraceFormatError, match="ends inside a record at byte offset 8,220"):
        read_lcs(good[:-3])


# ---------------------------------------------------------------- Twitter, Alibaba, Tencent


def test_twitter_objects_are_keys_with_key_plus_value_size():
    lines = b"".join(b"%d,key%d,%d,%d,%d,%s,%d\n" % (i // 10, i % 7, 5, 100 + i % 7, i % 3,
                                                  [b"get", b"set", b"gets", b"delete"][i % 4], 60 * (i % 4 == 1))
                     for i in range(200))
    t = read_trace(lines, "twitter", chunk_bytes=333)
    assert detect_format(lines) == "twitter"
    assert t.size_bytes.tolist() == [105 + i % 7 for i in range(200)]
    assert t.is_write.tolist() == [i % 4 in (1, 3) for i in range(200)]
    assert (t.offset_bytes >> 32).tolist() == [i % 7 for i in range(200)]  # first access order = key%d order
    assert t.meta["n_objects"] == 7 and t.meta["ttl_s"].tolist()[:2] == [0, 60]
    with pytest.raises(TraceFormatError, match=r"twitter: line 2: field 'operation' is not a known operation"):
        read_trace(b"0,a,1,2,0,get,0\n0,a,1,2,0,fetch,0\n", "twitter")


def test_alibaba_and_tencent_values_header_and_errors():
    ali = b"device_id,opcode,offset,length,timestamp\n7,W,8192,4096,1577808144000001\n2,r,0,512,1577808144000000\n"
    t = load(ali, kind="block")
    assert t.meta["format"] == "alibaba" and t.time_ns.tolist() == [1000, 0] and t.device.tolist() == [7, 2]
    assert t.is_write.tolist() == [True, False] and t.size_bytes.tolist() == [4096, 512]
    with pytest.raises(TraceFormatError, match=r"alibaba: line 4: field 'opcode' is not a known operation"):
        read_trace(ali + b"1,X,0,1,1\n", "alibaba")
    ten = b"Timestamp,Offset,Size,IOType,VolumeID\n1538323200,10,8,0,4\n1538323202,0,1,1,4\n"
    t = load(ten, kind="block")
    assert t.meta["format"] == "tencent" and t.offset_bytes.tolist() == [5120, 0] and t.size_bytes.tolist() == [4096, 512]
    assert t.time_ns.tolist() == [0, 2 * 10**9] and t.is_write.tolist() == [False, True]
    with pytest.raises(TraceFormatError, match=r"tencent: line 2: field 'IOType' must be 0 \(read\) or 1"):
        read_trace(b"1538323200,10,8,0,4\n1538323200,10,8,2,4\n", "tencent")


# ---------------------------------------------------------------- issue 17: headers and comments


MSR_ROWS = b"128166372003061629,hm,1,Read,4096,512,10\n128166372003061639,hm,0,Write,0,512,20\n"


@pytest.mark.parametrize("head", [b"Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n",
                                  b"# MSR Cambridge hm_0\n", b"# c\ntimestamp,hostname,disknumber,type,offset,size,"
                                  b"responsetime\n# more\n", b""])
def test_msr_with_a_header_row_or_comments_is_accepted_and_detected(head, tmp_path):
    p = tmp_path / "hm_0.csv"
    p.write_bytes(head + MSR_ROWS)
    for cb in (1, 50, 1 << 20):
        t = read_trace(p, chunk_bytes=cb)
        assert t.meta["format"] == "msr" and t.offset_bytes.tolist() == [4096, 0]
        assert t.time_ns.tolist() == [0, 1000]
    assert len(load(p, kind="block")) == 2


def test_a_header_row_is_only_skipped_first_and_a_bad_line_is_named():
    with pytest.raises(TraceFormatError, match=r"msr: line 3: field 'timestamp'"):
        read_trace(MSR_ROWS + b"Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n", "msr")
    with pytest.raises(TraceFormatError, match=r"msr: line 2: field 'size' is not an integer: 'x'"):
        read_trace(b"Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n"
                   b"128166372003061629,hm,1,Read,4096,x,10\n", "msr")


def test_csv_comment_lines_are_skipped_and_lines_still_named():
    data = b"# exported\n\n# columns below\ntime,op,offset,size\n# warm-up done\n0.5,W,4096,512\n1.0,R,0,512 # tail\n"
    for cb in (1, 20, 1 << 20):
        t = read_trace(data, chunk_bytes=cb)
        assert t.meta["format"] == "csv" and t.offset_bytes.tolist() == [4096, 0] and t.is_write.tolist() == [True, False]
    with pytest.raises(TraceFormatError, match=r"csv: line 7: field 'size' is not an integer: 'zz'"):
        read_trace(data.replace(b"512 # tail", b"zz"), chunk_bytes=7)
    # comment="" (or None) keeps '#' as data
    t = read_trace(b"key,offset,size\na#1,0,8\n", "csv", offset_col="offset", size_col="size", comment="")
    assert len(t) == 1


def test_every_new_format_has_an_example_and_a_progress_report():
    for fmt in ("alibaba", "tencent", "twitter", "oraclegeneral", "lcs"):
        seen: list[float] = []
        t = read_trace(EXAMPLES[fmt], fmt, progress=seen.append, chunk_bytes=30)
        assert len(t) >= 3 and seen and seen[-1] == 1.0 and seen == sorted(seen)
        assert detect_format(EXAMPLES[fmt]) == fmt
