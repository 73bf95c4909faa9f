"""The memory-trace readers hand chunks within ``chunk_sink(kind="memory")`` (issue 41): the chunks, joined, are the
whole read, whatever the chunk size (lackey text by its block size, ``.npz`` by its slice size); a block sink is not
handed a memory trace's chunks."""

from __future__ import annotations

import io

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.traces.chunks import chunk_sink
from models.traces.core import MemTrace
from models.traces.formats import npz as npz_mod
from models.traces.formats.lackey import read_lackey
from models.traces.formats.npz import read_memtrace_npz, save_memtrace_npz
from models.traces.readers import read_trace
from models.traces.synthetic import mem_trace

COLUMNS = ("address", "size", "kind")
_MT = mem_trace(3000, data_bytes=1 << 20, seed=3)


def _lackey_text(t: MemTrace) -> bytes:
    lines = ["==1== Lackey, an example Valgrind tool"]
    for a, s, k in zip(t.address.tolist(), t.size.tolist(), t.kind.tolist()):
        lines.append(f"I  {a:08x},{s}" if k == 0 else f" {'ILSM'[k]} {a:08x},{s}")
    return ("\n".join(lines) + "\n").encode()


LACKEY = _lackey_text(_MT)


def _npz_bytes(t: MemTrace, line_bytes: int) -> bytes:
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as d:
        p = save_memtrace_npz(Path(d) / "t.npz", t.address, t.kind, np.minimum(t.size, 255), line_bytes=line_bytes)
        return p.read_bytes()


NPZ = _npz_bytes(_MT, 64)
NPZ_BYTES = _npz_bytes(_MT, 1)


def _streamed(read) -> tuple[dict, MemTrace, list]:
    parts: list[dict] = []
    with chunk_sink(lambda cols: parts.append({k: np.array(cols[k]) for k in COLUMNS}), kind="memory"):
        empty = read()
    joined = {k: np.concatenate([p[k] for p in parts]) if parts else np.zeros(0) for k in COLUMNS}
    return joined, empty, parts


def _same(joined: dict, whole: MemTrace) -> None:
    for k in COLUMNS:
        np.testing.assert_array_equal(joined[k], getattr(whole, k))
        assert joined[k].dtype == getattr(whole, k).dtype, k


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chunk=st.integers(64, 40_000), limit=st.one_of(st.none(), st.integers(1, 4000)))
def test_lackey_chunks_join_into_the_whole_read(chunk, limit):
    whole = read_lackey(LACKEY, max_requests=limit)
    joined, empty, parts = _streamed(lambda: read_lackey(LACKEY, chunk_bytes=chunk, max_requests=limit))
    _same(joined, whole)
    assert len(empty) == 0 and empty.meta["format"] == "lackey"
    if limit is None and chunk <= len(LACKEY) // 2:  # the whole file in blocks of at most half of it: 2+ chunks
        assert len(parts) > 1, (chunk, len(parts))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(slice_refs=st.integers(1, 5000), limit=st.one_of(st.none(), st.integers(1, 4000)),
       byte_lines=st.booleans())
def test_npz_slices_join_into_the_whole_read(slice_refs, limit, byte_lines):
    src = NPZ_BYTES if byte_lines else NPZ
    whole = read_memtrace_npz(src, max_requests=limit)
    old = npz_mod.SLICE_REFERENCES
    npz_mod.SLICE_REFERENCES = slice_refs
    try:
        joined, empty, parts = _streamed(lambda: read_memtrace_npz(src, max_requests=limit))
    finally:
        npz_mod.SLICE_REFERENCES = old
    _same(joined, whole)
    assert len(empty) == 0 and empty.meta == whole.meta
    assert len(parts) == -(-len(whole) // slice_refs)
    assert max(len(p["address"]) for p in parts) <= slice_refs


def test_a_bundled_npz_streams_as_read_whole(tmp_path):
    from models.traces.loader import bundled_trace_path

    path = bundled_trace_path("lackey:numpy")
    whole = read_memtrace_npz(path)
    old = npz_mod.SLICE_REFERENCES
    npz_mod.SLICE_REFERENCES = 7919
    try:
        joined, _, parts = _streamed(lambda: read_trace(path, "npz"))
    finally:
        npz_mod.SLICE_REFERENCES = old
    assert len(parts) > 1
    _same(joined, whole)


def test_a_block_sink_gets_no_memory_chunks():
    seen = []
    with chunk_sink(lambda cols: seen.append(cols)):  # kind "block"
        t = read_lackey(LACKEY)
    assert not seen and len(t) == len(_MT)
    with chunk_sink(lambda cols: seen.append(cols), kind="memory"):
        b = read_trace(b"0 0 8 8 1\n1000 0 16 8 0\n", "mqsim")
    assert not seen and len(b) == 2


def test_a_corrupt_slice_is_named_as_the_whole_read_names_it():
    buf = io.BytesIO()
    np.savez(buf, line_delta=np.array([1, 1, -5]), line_bytes=np.int64(64), kind=np.uint8([1, 2, 1]),
             size=np.uint8([8, 8, 8]))
    old = npz_mod.SLICE_REFERENCES
    npz_mod.SLICE_REFERENCES = 2
    try:
        for read in (lambda: read_memtrace_npz(buf.getvalue()),
                     lambda: _streamed(lambda: read_memtrace_npz(buf.getvalue()))):
            try:
                read()
            except ValueError as e:
                assert "reference 2" in str(e)
            else:
                raise AssertionError("not refused")
    finally:
        npz_mod.SLICE_REFERENCES = old


def test_the_consumers_own_error_passes_through_the_npz_reader():
    from models.budget import BudgetExceeded

    def refuse(cols):
        raise BudgetExceeded("the consumer's state")

    try:
        with chunk_sink(refuse, kind="memory"):
            read_memtrace_npz(NPZ)
    except BudgetExceeded as e:
        assert str(e) == "the consumer's state"
    else:
        raise AssertionError("not raised")
