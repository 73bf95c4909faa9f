"""libCacheSim's vscsi (binary, two record layouts) and plain-text (one object id per line) traces (issue 38 item 3,
issue 41): records hand-built in the test to the published layouts (libCacheSim ``vscsi.h``, ``txt.c``)."""

from __future__ import annotations

import gzip
import struct

import numpy as np
import pytest

from models.traces import read_trace
from models.traces.detect import detect_source
from models.traces.formats import EXAMPLES, read_txt, read_vscsi
from models.traces.source import TraceFormatError


def _v1(sn, length, nsg, cmd, lbn, ts) -> bytes:
    return struct.pack("<IIIHHQQ", sn, length, nsg, cmd, 1 << 8, lbn, ts)  # vscsi1: 32 bytes


def _v2(cmd, sn, length, nsg, lbn, ts, rt) -> bytes:
    return struct.pack("<HHIIIQQQ", cmd, 2 << 8, sn, length, nsg, lbn, ts, rt)  # vscsi2: 40 bytes


V1 = b"".join([_v1(0, 4096, 1, 0x28, 100, 1_000), _v1(1, 8192, 2, 0x2A, 200, 1_500),
               _v1(2, 512, 1, 0x88, 100, 2_000), _v1(3, 4096, 1, 0xAA, 7, 2_250)])
V2 = b"".join([_v2(0x2A, 0, 4096, 1, 8, 10, 5), _v2(0x28, 1, 4096, 1, 8, 20, 7), _v2(0x00, 2, 0, 0, 0, 25, 1),
               _v2(0x8A, 3, 1024, 1, 64, 30, 9), _v2(0x08, 4, 512, 1, 1, 40, 3)])


def test_vscsi1_records_read_as_the_published_layout():
    t = read_vscsi(V1)
    assert len(V1) == 4 * 32 and t.meta["vscsi_version"] == 1
    assert t.offset_bytes.tolist() == [100 * 512, 200 * 512, 100 * 512, 7 * 512]
    assert t.size_bytes.tolist() == [4096, 8192, 512, 4096]
    assert t.is_write.tolist() == [False, True, False, True]
    assert t.time_ns.tolist() == [0, 500_000, 1_000_000, 1_250_000]  # microseconds from the first request
    assert t.op_known


def test_vscsi2_keeps_response_times_and_drops_commands_that_move_no_data():
    t = read_vscsi(V2, sector_size=4096)
    assert len(V2) == 5 * 40 and t.meta["vscsi_version"] == 2
    assert t.meta["skipped_other_commands"] == 1  # TEST UNIT READY (0x00)
    assert t.is_write.tolist() == [True, False, True, False]
    assert t.offset_bytes.tolist() == [8 * 4096, 8 * 4096, 64 * 4096, 4096]
    assert t.meta["response_us"].tolist() == [5, 7, 9, 3]


@pytest.mark.parametrize("chunk", [1, 33, 41, 1 << 20])
def test_vscsi_result_does_not_depend_on_the_block_size_nor_compression(chunk):
    want = read_vscsi(V2)
    for data in (V2, gzip.compress(V2)):
        got = read_vscsi(data, chunk_bytes=chunk)
        assert got.offset_bytes.tolist() == want.offset_bytes.tolist()
        assert got.time_ns.tolist() == want.time_ns.tolist()


def test_vscsi_bad_input_names_the_byte_offset():
    with pytest.raises(TraceFormatError, match=r"ends inside a record at byte offset 128 \(5 of 32 bytes"):
        read_vscsi(V1 + b"\x00" * 5)
    mixed = V1[:64] + _v2(0x28, 0, 512, 1, 0, 0, 0)[:32] + V1[96:]
    with pytest.raises(TraceFormatError, match="record at byte offset 64: field 'ver'"):
        read_vscsi(mixed)
    with pytest.raises(TraceFormatError, match="neither vscsi2 .* nor vscsi1"):
        read_vscsi(b"\x07" * 80)
    with pytest.raises(TraceFormatError, match="field 'lbn'"):
        read_vscsi(V1[:64] + _v1(2, 512, 1, 0x28, 2**62, 3) + V1[96:])


def test_vscsi_detected_from_its_records_or_name_and_never_guessed():
    assert detect_source(V1)[0] == "vscsi" and detect_source(V2[:80] + V2[120:])[0] == "vscsi"
    # a non-data command among the first records: no detection by content alone ...
    with pytest.raises(TraceFormatError):
        detect_source(V2)
    # ... but the file's name says it (the record test of libCacheSim still applies)
    assert detect_source(V2, name="w01.vscsi")[0] == "vscsi"
    assert read_trace(V2, name="w01.vscsi").meta["format"] == "vscsi"


def test_txt_one_object_per_line():
    t = read_txt(b"42\n7\n\n42\nuser:9\n  7  \n")
    assert len(t) == 5 and t.meta["format"] == "txt"
    assert (t.offset_bytes >> 32).tolist() == [0, 1, 0, 2, 1]  # same id, same object; blank line skipped
    assert t.time_ns.tolist() == list(range(5))
    assert not t.op_known and t.meta["size_unknown"]
    assert read_txt(b"1\n", object_size=100).size_bytes.tolist() == [100]
    with pytest.raises(ValueError, match="object_size"):
        read_txt(b"1\n", object_size=0)


def test_txt_detected_only_when_every_line_is_an_integer():
    assert detect_source(b"1\n2\n0x1f\n2\n")[0] == "txt"
    with pytest.raises(TraceFormatError):
        detect_source(b"lba\n1\n2\n")  # a header line would become an object id: not guessed
    assert read_trace(b"lba\n1\n", "txt").meta["n_objects"] == 2  # named: every line is an id


@pytest.mark.parametrize("chunk", [1, 3, 1 << 20])
def test_txt_chunking_keeps_ids(chunk):
    data = b"".join(f"{i % 37}\n".encode() for i in range(500))
    t = read_txt(data, chunk_bytes=chunk)
    assert t.meta["n_objects"] == 37 and len(t) == 500
    assert np.array_equal(t.offset_bytes, read_txt(data).offset_bytes)


def test_examples_read():
    assert len(read_trace(EXAMPLES["vscsi"], "vscsi")) == 3
    assert len(read_trace(EXAMPLES["txt"])) == 4


def test_a_scsi_opcode_csv_without_its_op_codes_says_how_to_read_it():
    data = b"timestamp,op,lba,size\n0.1,28,8,4096\n0.2,2a,16,4096\n"
    opts = {"time_col": "timestamp", "op_col": "op", "lba_col": "lba", "size_col": "size"}
    with pytest.raises(TraceFormatError, match=r"line 2: field 'op' .* reads as a SCSI opcode: .*--op-map scsi"):
        read_trace(data, "csv", **opts)
    assert read_trace(data, "csv", op_map="scsi", **opts).is_write.tolist() == [False, True]


@pytest.mark.parametrize("sep", ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"])
def test_txt_line_ends_only_at_lf_as_getline_reads_it(sep):
    # found by bench/fuzz.py's spec generator: str.splitlines cut one id at these characters (1 line -> 2 requests)
    data = f"a{sep}b\na{sep}b\nab\n".encode()
    t = read_txt(data)
    assert len(t) == 3 and (t.offset_bytes >> 32).tolist() == [0, 0, 1]
    assert read_txt(data, chunk_bytes=3).offset_bytes.tolist() == t.offset_bytes.tolist()
