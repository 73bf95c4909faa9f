"""Issue 41: the compiled decode stage of the binary object readers equals the NumPy decode it replaced, value for
value and error for error (on one thread or split into runs on several), a streamed read decoding one block ahead
hands the consumer what a read without it hands, and the placement stage (ObjectSlots) equals the whole-trace
placement."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.budget import BudgetExceeded, limit
from models.traces.chunks import chunk_sink
from models.traces.formats import lcs, oracle
from models.traces.formats.objects import ObjectSlots, place_objects
from models.traces.formats.records import RAW_COLUMNS, decode_block, record_blocks
from models.traces.source import PARSED_REQUEST_BYTES, TraceFormatError

I64 = np.iinfo(np.int64)
LAYOUTS = [("oracleGeneral", oracle.RECORD, oracle._decode)] + [
    (f"lcs v{v}", dt, lcs._decode) for v, dt in sorted(lcs.RECORDS.items())]


def _records(dtype: np.dtype, n: int, rng: np.random.Generator) -> np.ndarray:
    rec = np.zeros(n, dtype)
    rec["time"] = rng.integers(0, 2**32, n, dtype=np.uint64)
    rec["id"] = rng.integers(0, 2**64 - 1, n, dtype=np.uint64, endpoint=True)
    top = 2**32 if dtype["size"] == np.dtype("<u4") else 2**40
    rec["size"] = rng.integers(0, top, n) * (rng.random(n) < 0.8)  # a fifth size 0
    rec["next"] = rng.choice([-1, 0, 5, I64.max], n)
    if "op_tenant" in dtype.names:
        rec["op_tenant"] = rng.integers(0, 15, n, dtype=np.uint32) | (rng.integers(0, 2**24, n, dtype=np.uint32) << 8)
    return rec


def _reference(decode, rec, offset0):
    ref = decode(rec, offset0)
    keep = ref["size_bytes"] > 0
    return {k: ref[k][keep] for k in RAW_COLUMNS}


@pytest.mark.parametrize("label,dtype,decode", LAYOUTS, ids=[x[0] for x in LAYOUTS])
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(0, 400), runs=st.sampled_from([None, 1, 2, 3, 7]))
def test_the_compiled_decode_is_the_numpy_decode(label, dtype, decode, seed, n, runs):
    rec = _records(dtype, n, np.random.default_rng(seed))
    got, t_min = decode_block(rec, 8192, decode, runs=runs)
    want = _reference(decode, rec, 8192)
    for k, d in RAW_COLUMNS.items():
        assert got[k].dtype == d and np.array_equal(got[k], want[k]), (label, k)
    assert t_min == (int(want["time_ns"].min()) if len(want["time_ns"]) else None)


def _has_value(dtype, field) -> bool:
    """The layout can hold the bad value: an op field, a signed size."""
    return not (field == "op" and "op_tenant" not in dtype.names or field == "size" and dtype["size"] == np.dtype("<u4"))


BAD_VALUES = [("next", -2), ("next", I64.min), ("size", -1), ("op", 15), ("op", 255)]
BAD_CASES = [pytest.param(label, dtype, decode, field, value, id=f"{label}-{field}{value}")
             for label, dtype, decode in LAYOUTS for field, value in BAD_VALUES if _has_value(dtype, field)]


@pytest.mark.parametrize("label,dtype,decode,field,value", BAD_CASES)
def test_a_bad_record_is_named_as_the_numpy_decode_names_it(label, dtype, decode, field, value):
    rng = np.random.default_rng(41)
    rec = _records(dtype, 50, rng)
    for i in (0, 17, 49):
        bad = rec.copy()
        if field == "op":
            bad["op_tenant"][i] = (bad["op_tenant"][i] & ~np.uint32(0xFF)) | np.uint32(value)
        else:
            bad[field][i] = value
        bad["next"][(i + 7) % 50] = -5 if field != "next" else bad["next"][(i + 7) % 50]  # a second bad value
        with pytest.raises(TraceFormatError) as want:
            decode(bad, 100)
        for runs in (1, 2, 3, 50):  # the first bad record named whichever run saw a bad one
            with pytest.raises(TraceFormatError, match=re.escape(str(want.value))):
                decode_block(bad, 100, decode, runs=runs)


def _streamed(data: bytes, **opts) -> tuple[list[dict], object]:
    """The blocks a streamed oracleGeneral read hands its consumer (copied), and what the read raised (None)."""
    got = []
    try:
        with chunk_sink(lambda cols: got.append({k: np.array(v) for k, v in cols.items()})):
            oracle.read_oracle_general(data, **opts)
    except TraceFormatError as e:
        return got, str(e)
    return got, None


def _blocks_of(data: bytes, ahead: bool, chunk_bytes: int) -> tuple[list, object]:
    """The blocks of :func:`record_blocks` (as lists) up to the first error, and the error's message (None)."""
    got = []
    try:
        with record_blocks(data, oracle.RECORD, oracle._decode, fmt="oracleGeneral", chunk_bytes=chunk_bytes,
                           ahead=ahead) as (_, blocks, _report):
            for cols, n, lo in blocks:
                got.append(({k: v.tolist() for k, v in cols.items()}, n, lo))
    except TraceFormatError as e:
        return got, str(e)
    return got, None


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 300), chunk=st.integers(24, 2400),
       bad=st.one_of(st.none(), st.integers(0, 299)), cap=st.one_of(st.none(), st.integers(1, 300)))
def test_decoding_ahead_hands_the_same_blocks_and_the_same_error(seed, n, chunk, bad, cap):
    rng = np.random.default_rng(seed)
    nxt = np.full(n, -1)
    if bad is not None and bad < n:
        nxt[bad] = -9
    data = oracle.write_oracle_general(rng.integers(0, 100, n), rng.integers(0, 20, n), rng.integers(0, 3, n) * 64,
                                       nxt)
    from models.traces.formats import objects, records

    with pytest.MonkeyPatch.context() as mp:  # threads whatever the machine's load (speed only: same results)
        mp.setattr(records, "spare_core", lambda: True)
        mp.setattr(objects, "spare_core", lambda: True)
        assert _blocks_of(data, True, chunk) == _blocks_of(data, False, chunk)
        got, err = _streamed(data, chunk_bytes=chunk, max_requests=cap)  # read_records decodes ahead when streamed
    rec = np.frombuffer(data, oracle.RECORD)
    step = max(1, chunk // 24)
    want, want_err, left = [], None, cap
    for a in range(0, n, step):  # the blocks one at a time, as a read without decoding ahead hands them
        try:
            cols, _ = decode_block(rec[a:a + step], 24 * a, oracle._decode, runs=1)
        except TraceFormatError as e:
            want_err = str(e)
            break
        if len(cols["time_ns"]) and left != 0:
            want.append(cols["meta:object_id"][:left] if left is not None else cols["meta:object_id"])
            left = None if left is None else left - len(want[-1])
        if left == 0:
            break
    assert err == want_err and len(got) == len(want)  # one consumer call per block that kept a request
    ids = np.concatenate([g["offset_bytes"] for g in got]) if got else np.zeros(0, np.int64)
    want_ids = np.concatenate(want) if want else np.zeros(0, np.uint64)
    assert len(ids) == len(want_ids)
    assert np.array_equal(ids >> 32, _first_access_codes(want_ids))


def _first_access_codes(ids: np.ndarray) -> np.ndarray:
    """Object numbers of ``ids`` in first-access order."""
    return np.unique(ids, return_index=True)[1].argsort().argsort()[np.unique(ids, return_inverse=True)[1]]


def test_placement_refuses_an_object_larger_than_its_slot_and_names_it():
    s = ObjectSlots("lcs")
    with pytest.raises(TraceFormatError, match=r"lcs: object size 4,294,967,297 bytes is larger than the "
                                               r"4,294,967,296-byte slot"):
        s.place({"meta:object_id": np.array([1, 2, 3], np.uint64), "size_bytes": np.array([5, 2**32 + 1, 2**40])})
    ok = ObjectSlots("lcs").place({"meta:object_id": np.array([1], np.uint64), "size_bytes": np.array([2**32])})
    assert ok["offset_bytes"].tolist() == [0]


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_obj=st.integers(1, 300_000), block=st.integers(1, 200_000))
def test_placement_through_table_growth_equals_the_whole_trace_placement(seed, n_obj, block):
    rng = np.random.default_rng(seed)
    n = 200_000
    ids = rng.integers(0, 2**64 - 1, n_obj, dtype=np.uint64, endpoint=True)[rng.integers(0, n_obj, n)]
    from models.traces.core import BlockTrace

    whole = place_objects(BlockTrace(np.arange(n), np.zeros(n, bool), np.zeros(n, np.int64), np.ones(n, np.int64),
                                     np.zeros(n, np.int32), meta={"object_id": ids}), "x")
    s = ObjectSlots("x")
    got = np.concatenate([s.place({"meta:object_id": ids[a:a + block], "size_bytes": np.ones(len(ids[a:a + block]))})
                          ["offset_bytes"] for a in range(0, n, block)])
    assert np.array_equal(got, whole.offset_bytes) and s.n_objects == whole.meta["n_objects"]


def test_a_whole_binary_read_over_the_budget_is_refused_while_reading(tmp_path):
    p = tmp_path / "t.oracleGeneral"
    n = 5000
    p.write_bytes(oracle.write_oracle_general(np.arange(n), np.arange(n) % 97, np.full(n, 4096)))
    with limit(2000 * PARSED_REQUEST_BYTES):
        with pytest.raises(BudgetExceeded, match=r"requests parsed so far.*--memory-budget"):
            oracle.read_oracle_general(p, chunk_bytes=24 * 1000)
        assert len(oracle.read_oracle_general(p, chunk_bytes=24 * 1000, max_requests=1000)) == 1000


@pytest.mark.parametrize("per_run", [5, 64, 1 << 62], ids=["runs of 5", "runs of 64", "one pass"])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), n_obj=st.integers(1, 3000), block=st.integers(1, 5000),
       big=st.one_of(st.none(), st.integers(0, 9999)))
def test_placement_looked_up_in_runs_numbers_as_one_pass(monkeypatch, per_run, seed, n_obj, block, big):
    from models.traces.formats import objects, records

    monkeypatch.setattr(records, "_RECORDS_PER_RUN", per_run)  # the cores share the look-ups of runs this long
    monkeypatch.setattr(objects, "spare_core", lambda: True)  # whatever the machine's load
    rng = np.random.default_rng(seed)
    n = 10_000
    ids = rng.integers(0, 2**64 - 1, n_obj, dtype=np.uint64, endpoint=True)[rng.integers(0, n_obj, n)]
    sizes = np.ones(n, np.int64)
    if big is not None:
        sizes[big] = 2**32 + 1 + big
        sizes[big + 1 + seed % (n - big):] = 2**40  # later ones too big as well: the first is named
    s = ObjectSlots("x")
    got, err = [], None
    try:
        for a in range(0, n, block):
            got.append(s.place({"meta:object_id": ids[a:a + block], "size_bytes": sizes[a:a + block]})["offset_bytes"])
    except TraceFormatError as e:
        err = str(e)
    assert err == (None if big is None else f"x: object size {2**32 + 1 + big:,} bytes is larger than the "
                                             f"4,294,967,296-byte slot an object is given")
    end = n if big is None else big - big % block  # the blocks placed before the one holding the big object
    want = _first_access_codes(ids[:n if big is None else big])
    assert np.array_equal(np.concatenate(got) >> 32 if got else np.zeros(0, np.int64), want[:end])
    if big is None:
        assert s.n_objects == len(np.unique(ids))
    else:  # the objects before the big one are numbered, none after
        assert s.n_objects == len(np.unique(ids[:big]))
