"""Issue 20: bounded readers and strict values (reproducers, then a standing Hypothesis fuzz per reader).

Every reader either returns a trace whose values are the file's values exactly, or raises one of
the project's input errors (:data:`models.errors.INPUT_ERRORS`) with a short message; the result
never depends on the chunk size.
"""

from __future__ import annotations

import gzip
import io
import zipfile

import numpy as np
import pytest
import zstandard
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.errors import INPUT_ERRORS
from models.traces import FORMATS, read_trace
from models.traces.formats import (
    EXAMPLE_OPTIONS,
    EXAMPLES,
    read_lackey,
    read_memtrace_npz,
    read_mqsim,
)
from models.traces.source import GZIP_MAGIC, MAX_LINE_BYTES, ZSTD_MAGIC, TraceFormatError

MQSIM = b"".join(b"%d 0 %d 8 %d\n" % (i * 1000, i * 8, i % 2) for i in range(2000))

SAMPLES = EXAMPLES


def _read(fmt: str, data: bytes, **kw):
    opts = dict(EXAMPLE_OPTIONS.get(fmt, {}))
    return read_trace(data, fmt, **opts, **kw)


def _columns(t) -> tuple:
    names = ("address", "size", "kind") if hasattr(t, "address") else \
        ("time_ns", "is_write", "offset_bytes", "size_bytes", "device")
    return tuple(getattr(t, c).tolist() for c in names)


# ---------------------------------------------------------------- crashes C1-C5


def test_c1_corrupt_gzip_is_a_format_error_naming_the_file(tmp_path):
    gz = gzip.compress(MQSIM)
    cut = tmp_path / "t.gz"
    cut.write_bytes(gz[:15])  # gzip -c t.trace | head -c 15
    with pytest.raises(TraceFormatError, match=r"t\.gz: corrupt or truncated gzip data"):
        read_trace(cut, "mqsim")
    flipped = bytearray(gz)
    flipped[len(flipped) // 2] ^= 0xFF
    for data in (gz[: len(gz) // 2], bytes(flipped), gz + b"garbage!"):
        with pytest.raises(TraceFormatError, match="corrupt or truncated gzip data"):
            read_trace(data, "mqsim")


def test_c2_s3_corrupt_or_truncated_zstd_is_refused(tmp_path):
    z = zstandard.ZstdCompressor().compress(MQSIM)
    assert len(read_trace(z, "mqsim")) == 2000
    (tmp_path / "g.zst").write_bytes(z + b"trailing garbage")
    with pytest.raises(TraceFormatError, match=r"g\.zst: corrupt or truncated zstd data"):
        read_trace(tmp_path / "g.zst", "mqsim")
    # cut at a line boundary of the decompressed text: formerly accepted with fewer requests
    for n in range(5, len(z)):
        with pytest.raises(TraceFormatError, match="corrupt or truncated zstd data"):
            read_trace(z[:n], "mqsim")
    two = z + zstandard.ZstdCompressor(write_checksum=True).compress(MQSIM)  # multi-frame stays valid
    assert len(read_trace(two, "mqsim")) == 4000


def test_c3_a_huge_field_is_a_clean_error_with_a_short_message():
    for data, fmt in ((b"0,16," + b"9" * 200_000 + b",W,0.5\n", "spc"),
                      (b"0,16,8192,W,0.5\n1,8,512,r,0.75,x" + b"x" * 140_000 + b"\n", "spc"),
                      (b"0 0 0 8 " + b"x" * 200_000 + b"\n", "mqsim")):
        with pytest.raises(TraceFormatError, match=f"longer than {MAX_LINE_BYTES:,} bytes.*--max-line-bytes") as e:
            read_trace(data, fmt)
        assert len(str(e.value)) < 300
    # below the line limit, a long field is quoted cut short
    with pytest.raises(TraceFormatError, match=r"field 'size' is not an integer: 'xxx.*\.\.\. \(60000 characters\)"):
        read_trace(b"0,16," + b"x" * 60_000 + b",W,0.5\n", "spc")
    # over the csv module's field limit with a raised line limit: still a clean error
    with pytest.raises(TraceFormatError, match="expected 5 fields"):
        read_trace(b"0,16,8192,W,0.5\n1,8,512,r,0.75,x" + b"x" * 140_000 + b"\n", "spc", max_line_bytes=1 << 20)


def _npz(**arrays) -> bytes:
    base = dict(line_delta=np.array([1, 1, -1]), line_bytes=np.int64(64), kind=np.uint8([1, 2, 3]),
                size=np.uint8([8, 8, 8]))
    base.update(arrays)
    buf = io.BytesIO()
    np.savez_compressed(buf, **{k: v for k, v in base.items() if v is not None})
    return buf.getvalue()


def test_c4_corrupt_npz_members_name_the_file(tmp_path):
    good = _npz()
    assert read_memtrace_npz(good).address.tolist() == [64, 128, 64]
    bad = [good[: len(good) // 2]]
    for i in range(0, len(good), 7):  # flip bytes across the archive: never anything but a clean error or ok
        b = bytearray(good)
        b[i] ^= 0xFF
        bad.append(bytes(b))
    for data in bad:
        try:
            read_memtrace_npz(data)
        except TraceFormatError:
            pass
    p = tmp_path / "x.npz"
    p.write_bytes(good[:100])
    with pytest.raises(TraceFormatError, match=r"x\.npz: not a valid memory-trace \.npz file"):
        read_memtrace_npz(p)


@pytest.mark.parametrize("meta", ["42", "null", "[1,2]"])
def test_c5_bad_npz_meta(meta):
    with pytest.raises(TraceFormatError, match="'meta' must be a JSON object"):
        read_memtrace_npz(_npz(meta=np.array(meta)))


@pytest.mark.parametrize(("arrays", "match"), [
    ({"line_bytes": np.int64([64, 64])}, "line_bytes"),
    ({"line_bytes": np.int64(0)}, "power of two"),
    ({"line_bytes": np.int64(-64)}, "power of two"),
    ({"line_bytes": np.int64(48)}, "power of two"),
    ({"line_delta": np.array([2**62, 2**62, 0])}, "outside 0"),
    ({"line_delta": np.array([1, -5, 1])}, "outside 0"),
    ({"size": np.array([70000, 8, 8])}, "element 0 is 70000"),
    ({"size": np.uint8([0, 8, 8])}, "element 0 is 0"),
    ({"kind": np.array([np.nan, 1, 1])}, "must hold integers"),
    ({"kind": np.uint8([1, 7, 1])}, "element 1 is 7"),
    ({"line_delta": np.array([[1, 1, 1]])}, "one-dimensional"),
    ({"kind": np.uint8([1, 2])}, "differ in length"),
    ({"meta": np.array(["{}", "{}"])}, "one JSON string"),
])
def test_s5_npz_values_are_checked(arrays, match):
    with pytest.raises(TraceFormatError, match=match):
        read_memtrace_npz(_npz(**arrays))


def test_npz_reads_only_the_requested_prefix_and_bounds_bytes():
    n = 1_000_000
    data = _npz(line_delta=np.ones(n, np.int64), kind=np.ones(n, np.uint8), size=np.full(n, 8, np.uint8))
    assert len(read_memtrace_npz(data, max_requests=10)) == 10
    with pytest.raises(TraceFormatError, match=r"'line_delta' holds 8,000,000 bytes, more than the limit "
                                               r"max_input_bytes=1,000,000 \(CLI --max-input-bytes\)"):
        read_memtrace_npz(data, max_input_bytes=1_000_000)


# ---------------------------------------------------------------- silently wrong, falsely rejected


def test_s1_device_numbers_are_never_wrapped_or_negative():
    with pytest.raises(TraceFormatError, match=r"line 2: field 'device' is too large \(max 2147483647\)"):
        read_mqsim(b"0 0 8 8 1\n1000 4294967296 8 8 1\n")
    with pytest.raises(TraceFormatError, match=r"line 1: field 'device' is negative: '-3'"):
        read_mqsim(b"0 -3 8 8 1\n")
    with pytest.raises(TraceFormatError, match="field 'asu' is negative"):
        read_trace(b"-1,16,8192,W,0.5\n", "spc")
    assert read_mqsim(b"0 2147483647 8 8 1\n").device.tolist() == [2147483647]


def test_s2_big_integers_are_exact_whatever_else_is_in_the_block():
    data = b"0 0 18014398509481979 1 1\n1000 0 8.0 8 1\n"
    for cb in (1, 10, 30, 1 << 20):
        t = read_mqsim(data, chunk_bytes=cb)
        assert t.offset_bytes.tolist() == [18014398509481979 * 512, 4096]
    t = read_trace(b"8,0 3 1 0.5 697 Q W 18014398509481971 + 1 [x]\n", "blkparse")
    assert t.offset_bytes.tolist() == [18014398509481971 * 512]
    # a non-integer beyond 2**53 is not rounded into an integer
    with pytest.raises(TraceFormatError, match="field 'lba_sector' is not an integer"):
        read_mqsim(b"0 0 18014398509481979.5 1 1\n1000 0 8.0 8 1\n")
    # a big time with a float elsewhere: exact ns
    t = read_mqsim(b"9007199254740993 0 0 1 1\n0.5 0 8 8 1\n")
    assert t.time_ns.tolist() == [9007199254740993 - 0, 0] or t.meta["time_origin_ns"] == 0
    assert int(t.time_ns[0]) + t.meta["time_origin_ns"] == 9007199254740993


def test_bool_like_columns_are_not_numbers():
    with pytest.raises(TraceFormatError, match="field 'device' is not an integer: 'True'"):
        read_mqsim(b"0 True 8 8 1\n")


def test_s4_lackey_size_zero_is_refused():
    with pytest.raises(TraceFormatError, match=r"lackey: line 2: field 'size' is 0"):
        read_lackey(b"I  0400d7d4,8\n L 0400,0\n")


def test_s6_an_extra_column_on_line_1_is_refused_like_on_line_2():
    for data, line in ((b"0 0 8 8 1 7\n1000 0 8 8 1\n", 1), (b"0 0 8 8 1\n1000 0 8 8 1 7\n", 2)):
        with pytest.raises(TraceFormatError, match=f"line {line}: expected 5 fields .*found 6"):
            read_mqsim(data)


def test_f1_a_block_of_only_blkparse_summary_lines_is_fine():
    ev = b"8,0 3 1 0.5 697 Q W 8 + 8 [x]\n8,0 3 2 0.6 697 C W 8 + 8 [0]\n"
    summary = b"CPU0 (8,0):\n Reads Queued:           1,        4KiB\n Total (8,0):\n" * 3
    for cb in (8, len(ev), 1 << 20):
        t = read_trace(ev + summary, "blkparse", chunk_bytes=cb)
        assert len(t) == 1 and t.offset_bytes.tolist() == [4096]


# ---------------------------------------------------------------- resource bombs


def test_a_line_without_newline_is_bounded_and_fast():
    data = gzip.compress(b"1" * (8 << 20), 1)
    with pytest.raises(TraceFormatError, match=r"mqsim: line 1: longer than 65,536 bytes"):
        read_mqsim(data, chunk_bytes=4096)
    with pytest.raises(TraceFormatError, match=r"line 3: longer than 100 bytes, the limit max_line_bytes"):
        read_mqsim(b"0 0 8 8 1\n0 0 8 8 1\n" + b"1" * 101 + b"\n", max_line_bytes=100)
    assert len(read_mqsim(b"0 0 8 8 1\n" * 3, max_line_bytes=10)) == 3
    with pytest.raises(ValueError, match="max_line_bytes must be an integer >= 1"):
        read_mqsim(b"0 0 8 8 1\n", max_line_bytes=0)


def test_decompressed_bytes_are_bounded():
    data = gzip.compress(b"# comment\n" * 200_000)
    with pytest.raises(TraceFormatError, match=r"more than 100,000 bytes of \(decompressed\) text, the limit "
                                               r"max_input_bytes \(CLI --max-input-bytes\)"):
        read_mqsim(data, max_input_bytes=100_000)
    assert len(read_mqsim(b"0 0 8 8 1\n" * 10, max_input_bytes=100)) == 10


def test_limits_reach_the_loader_and_the_cli(tmp_path, run_cli):
    from models.traces import load

    p = tmp_path / "t.trace"
    p.write_bytes(b"0 0 8 8 1\n" * 100)
    with pytest.raises(TraceFormatError, match="max_input_bytes"):
        load(p, max_input_bytes=500)
    assert len(load("mqsim:tpcc-small", max_input_bytes=10, max_requests=5)) == 5  # bundled: moot
    rc, _, err = run_cli("trace-stats", p, "--max-input-bytes", "500")
    assert rc == 2 and "--max-input-bytes" in err
    rc, _, err = run_cli("trace-stats", p, "--max-line-bytes", "5")
    assert rc == 2 and "line 1: longer than 5 bytes" in err


# ---------------------------------------------------------------- standing fuzz (bounded for CI)


def _mutate(data: bytes, edits: list[tuple[int, int, bytes]]) -> bytes:
    b = bytearray(data)
    for pos, cut, ins in edits:
        i = pos % (len(b) + 1)
        b[i:i + cut] = ins
    return bytes(b)


_TOKENS = st.sampled_from([b"0", b"-1", b"8.0", b"1e3", b"nan", b"inf", b"True", b"x", b",", b" ", b"\n", b"\t",
                           b"\r\n", b"\"", b"#", b"4294967296", b"18014398509481979", b"9223372036854775807",
                           b"9223372036854775808", b"99999999999999999999", b"\xff\xfe", b"\x00", b"+", b"0x10",
                           b"W", b"R", b"Q", b"C", b" L ", b"I  ", b"Hit", b"8,0"])
_EDITS = st.lists(st.tuples(st.integers(0, 400), st.integers(0, 4), st.one_of(_TOKENS, st.binary(max_size=6))),
                  max_size=6)


def _outcome(fmt, data, **kw):
    try:
        return "ok", _columns(_read(fmt, data, **kw))
    except INPUT_ERRORS as e:
        assert len(str(e)) < 1000, "quoted content must be cut short"
        if isinstance(e, TraceFormatError) and e.line is not None:
            assert f"line {e.line}" in str(e)
        return "error", None


@pytest.mark.parametrize("fmt", sorted(SAMPLES))
@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(edits=_EDITS, chunk=st.integers(1, 64), codec=st.sampled_from(["plain", "gzip", "zstd"]))
def test_fuzz_reader(fmt, edits, chunk, codec):
    """Mutated samples: a clean input error or a valid trace, identical for every chunk size."""
    data = _mutate(SAMPLES[fmt], edits)
    kind, cols = _outcome(fmt, data)
    kind2, cols2 = _outcome(fmt, data, chunk_bytes=chunk)
    assert (kind, cols) == (kind2, cols2), "the result depends on the chunk size"
    if kind == "ok" and fmt != "lackey":
        t, w, off, size, dev = (np.array(c) for c in cols)
        assert (size > 0).all() and (off >= 0).all() and (dev >= 0).all()
    packed = {"gzip": gzip.compress, "zstd": zstandard.ZstdCompressor().compress}.get(codec)
    if packed is not None:
        if not data.startswith((GZIP_MAGIC, ZSTD_MAGIC)):
            # (plain bytes that open with a compression magic are read as a corrupt stream, so only
            # then may the plain and the packed outcome differ: the packed copy is one layer, parsed as text)
            assert _outcome(fmt, packed(data)) == (kind, cols)
        z = packed(data)
        assert _outcome(fmt, z[: max(1, len(z) - 1 - chunk % 8)])[0] == "error"  # truncated: never accepted


_BIG = st.integers(-(2**64), 2**64)


@settings(max_examples=80)
@given(rows=st.lists(st.tuples(st.integers(0, 2**40), st.one_of(st.integers(-3, 5), _BIG), _BIG,
                               st.one_of(st.integers(-2, 64), _BIG), st.integers(-1, 2)), min_size=1, max_size=8),
       floats=st.lists(st.booleans(), min_size=8, max_size=8), chunk=st.integers(1, 200))
def test_fuzz_mqsim_values_are_exact(rows, floats, chunk):
    """Generated MQSim lines: accepted exactly when every value is in its domain, with the exact values."""
    lines = []
    for (t, dev, lba, n, typ), fl in zip(rows, floats):
        lba_s = f"{lba}.0" if fl else str(lba)  # an integral float spelling must not lose precision
        lines.append(f"{t} {dev} {lba_s} {n} {typ}\n")
    data = "".join(lines).encode()
    valid = all(0 <= dev <= 2**31 - 1 and lba >= 0 and n >= 0 and typ in (0, 1)
                and lba * 512 <= 2**63 - 1 and n * 512 <= 2**63 - 1 and lba * 512 + n * 512 <= 2**63 - 1
                for t, dev, lba, n, typ in rows)
    kind, cols = _outcome("mqsim", data, chunk_bytes=chunk)
    assert kind == ("ok" if valid else "error"), data
    if valid:
        kept = [r for r in rows if r[3] > 0]
        t0 = min(r[0] for r in kept) if kept else 0
        assert cols == ([r[0] - t0 for r in kept], [r[4] == 0 for r in kept], [r[2] * 512 for r in kept],
                        [r[3] * 512 for r in kept], [r[1] for r in kept])


@settings(max_examples=60)
@given(edits=_EDITS)
def test_fuzz_npz_reader(edits):
    """Mutated .npz archives: a clean input error or a valid memory trace."""
    data = _mutate(_npz(meta=np.array('{"program": "x"}')), edits)
    try:
        t = read_memtrace_npz(data)
    except INPUT_ERRORS as e:
        assert len(str(e)) < 1000
        return
    assert (t.kind <= 3).all() and (t.size >= 1).all()


@settings(max_examples=40)
@given(arrays=st.fixed_dictionaries({}, optional={
    "line_delta": st.sampled_from([np.array([1, 2]), np.array([2**63 - 1, 1]), np.array([-1]), np.array([[1]]),
                                   np.array([1.5, 2]), np.array(["a"]), np.zeros(0, np.int64)]),
    "line_bytes": st.sampled_from([np.int64(64), np.int64(0), np.array([1, 2]), np.float64(64), np.array("x")]),
    "kind": st.sampled_from([np.uint8([1, 2]), np.int64([-1, 2]), np.array([np.nan, 1.0]), np.uint8([9, 1])]),
    "size": st.sampled_from([np.uint8([8, 8]), np.int64([70000, 8]), np.int64([0, 8]), np.int64([-8, 8])]),
    "meta": st.sampled_from([np.array("{}"), np.array("42"), np.array("{"), np.array(["{}"]), np.int64(3)]),
}))
def test_fuzz_npz_values(arrays):
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    try:
        t = read_memtrace_npz(buf.getvalue())
    except INPUT_ERRORS:
        return
    assert len(t) == 2 and (t.size >= 1).all() and (t.kind <= 3).all()


def test_every_format_has_a_fuzz_seed():
    assert set(SAMPLES) | {"npz"} == set(FORMATS)
    for fmt, data in SAMPLES.items():
        assert len(_read(fmt, data)) >= 1, fmt


def test_zip_inside_text_detection_is_clean():
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("a.txt", "hi")
    with pytest.raises(INPUT_ERRORS):
        read_trace(buf.getvalue())


def test_block_trace_refuses_device_numbers_outside_int32():
    from models.traces import BlockTrace

    with pytest.raises(ValueError, match="device numbers must be within 0..2147483647"):
        BlockTrace([0], [False], [0], [512], [2**32])
    with pytest.raises(ValueError, match="device numbers must be within"):
        BlockTrace([0], [False], [0], [512], [-1])
    assert BlockTrace([0], [False], [0], [512], [2**31 - 1]).device.tolist() == [2**31 - 1]


def test_blkparse_short_event_line_is_an_error_whatever_the_chunk_size():
    """Fuzz finding: an event line without its count was skipped when its block held only short lines."""
    data = b"8,0 3 1 0.5 697 Q W 8 + 8 [x]\n8,16 1 3 0.7 5 Q R 64 +\nCPU0 (8,0):\n Reads Queued: 1, 4KiB\n"
    for cb in (5, 40, 1 << 20):
        with pytest.raises(TraceFormatError, match="blkparse: line 2: field 'count' is missing"):
            read_trace(data, "blkparse", chunk_bytes=cb)


def test_csv_header_with_an_unbalanced_quote_is_refused_whatever_the_chunk_size():
    """bench/fuzz.py finding: the quote ran into the data lines only when they shared the header's block."""
    data = b't,op,lba,"len\n0.5,W,100,8\n0.75,R,8,16\n'
    for cb in (4, 15, 1 << 20):
        with pytest.raises(TraceFormatError, match="first line has an unbalanced quote"):
            read_trace(data, "csv", time_col="t", op_col="op", lba_col="lba", size_col="len", chunk_bytes=cb)


@pytest.mark.parametrize("data", [
    b"\t# exported trace\nt,op,lba,len\n0.5,W,100,8\n# a comment line0x10\n0.75,R,8,16\n",  # bench/fuzz.py find
    b"t,op,lba,len\n  \n0.5,W,100,8\n \t \n0.75,R,8,16\n   # x\n",
])
def test_whitespace_before_a_comment_is_a_blank_line_at_every_chunk_size(data):
    """pandas and the line counter agree on which lines are data: same trace for every chunk size."""
    from models.traces.formats import EXAMPLE_OPTIONS
    from models.traces.readers import read_trace

    ref = read_trace(data, "csv", **EXAMPLE_OPTIONS["csv"])
    assert len(ref) == 2 and ref.offset_bytes.tolist() == [51200, 4096]
    for chunk in range(1, 70):
        t = read_trace(data, "csv", **EXAMPLE_OPTIONS["csv"], chunk_bytes=chunk)
        assert t.offset_bytes.tolist() == ref.offset_bytes.tolist() and t.time_ns.tolist() == ref.time_ns.tolist()


@pytest.mark.parametrize(("fmt", "data"), [  # bench/fuzz.py finds: a trailing separator on one line
    ("alibaba", b"device_id,opcode,offset,length,timestamp\n3,W,4096,8192,1577808144518333\n"
                b"3,R,0,4096,157780814451,\n0,R,65536,512,1577808144518999\n"),
    ("tencent", b"1538323200,2048,8,1,1283\n1538323201,0,16,0,7\n1538323201,64,8,0,1283,\n"),
    ("twitter", b"0,abc,3,100,1,get,0\n0,xyz,3,20,1,set,3600\n2,abc,3,100,2,gets,0,\n3,xyz,3,0,2,delete,0\n"),
    ("csv", b"t,op,lba,len\n0.5,W,100,8\n0.75,R,88,0,16\n"),  # pandas cut it to usecols without a word
])
def test_an_extra_field_is_an_error_on_any_line_of_any_block(fmt, data):
    """pandas drops a first line's extra field silently: the reader refuses it at every chunk size."""
    from models.traces.formats import EXAMPLE_OPTIONS
    from models.traces.readers import read_trace

    for chunk in (None, *range(1, 80)):
        with pytest.raises(INPUT_ERRORS, match=r"line 3: expected \d fields .* found \d"):
            read_trace(data, fmt, **EXAMPLE_OPTIONS.get(fmt, {}), **({} if chunk is None else {"chunk_bytes": chunk}))
