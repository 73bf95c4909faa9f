"""models.traces.load: one loader for bundled names, files and uploads, one limit, fingerprints."""

from __future__ import annotations

import gzip
import io
import pickle

import numpy as np
import pytest

from models.budget import BudgetExceeded, limit
from models.traces import BlockTrace, MemTrace, bundled_traces, load, loader
from models.traces.formats import save_memtrace_npz
from models.traces.source import PARSED_REQUEST_BYTES, charge_parsed

MQSIM = b"".join(f"{1000 * i} 0 {8 * i} 8 {i % 2}\n".encode() for i in range(10))


def test_bundled_names_kinds_and_aliases():
    assert set(bundled_traces("memory")) == {n for n in bundled_traces() if n.startswith("lackey:")}
    assert "synthetic:fin1" in bundled_traces("block") and "mqsim:tpcc-small" in bundled_traces("mqsim")
    t = load("mqsim:tpcc-small")
    assert isinstance(t, BlockTrace) and len(t) == 6999 and t.name == "mqsim:tpcc-small"
    assert load("mqsim:tpcc-small") is t  # one cached registry
    m = load("lackey:xz", max_requests=100)
    bare = load("xz", max_requests=100, kind="memory")  # a memory trace answers to its program name
    assert isinstance(bare, MemTrace) and bare.name == "xz" and np.array_equal(bare.address, m.address)
    s = load("synthetic:fin1", n_requests=300, seed=2, scale=0.1)
    assert (len(s), s.name, s.meta["scale"]) == (300, "synthetic:fin1", 0.1)
    assert len(load("synthetic:fin1", n_requests=300, max_requests=50)) == 50


def test_kind_is_checked_before_loading_and_after_reading(tmp_path):
    with pytest.raises(ValueError, match="lackey:xz: a memory-reference .*needs a block I/O trace"):
        load("lackey:xz", kind="block")
    with pytest.raises(ValueError, match="synthetic:fin1: a block I/O trace; .*needs a memory-reference"):
        load("synthetic:fin1", kind="memory")
    f = tmp_path / "m.lackey"
    f.write_bytes(b"I  0400d7d4,8\n L 04222cac,8\n")
    with pytest.raises(ValueError, match=f"{f}: a memory-reference"):
        load(f, kind="block")
    with pytest.raises(ValueError, match="up.trace: a block I/O trace"):
        load(MQSIM, kind="memory", format="mqsim", name="up.trace")
    with pytest.raises(ValueError, match="kind must be None, 'block' or 'memory'"):
        load("mqsim:tpcc-small", kind="mem")


def test_unknown_source_lists_the_bundled_names_of_the_kind():
    with pytest.raises(FileNotFoundError, match="nope is neither a file nor a bundled trace") as e:
        load("nope", kind="memory")
    assert "bundled memory traces: lackey:gcc" in str(e.value) and "synthetic:" not in str(e.value)
    with pytest.raises(FileNotFoundError, match="synthetic:fin1"):
        load("mqsim:nope")


def test_paths_bytes_file_objects_and_compression_agree(tmp_path):
    f = tmp_path / "t.trace.gz"
    f.write_bytes(gzip.compress(MQSIM))
    from_path, from_str = load(f), load(str(f))
    from_bytes = load(MQSIM, name="t.trace")
    from_file = load(io.BytesIO(gzip.compress(MQSIM)), name="t.trace")
    assert from_path.name == from_bytes.name == "t.trace"  # compression suffix dropped
    for t in (from_str, from_bytes, from_file):
        assert t.fingerprint() == from_path.fingerprint()
    assert len(load(f, max_requests=3, format="mqsim")) == 3
    with pytest.raises(KeyError, match="unknown trace format 'nope'"):
        load(f, format="nope")


def test_npz_memory_traces_by_path_bytes_and_detection(tmp_path):
    t = load("gcc", max_requests=2000)
    p = save_memtrace_npz(tmp_path / "g.npz", t.address, t.kind, t.size)
    by_path = load(p, kind="memory")
    by_bytes = load(p.read_bytes(), kind="memory", name="g")
    assert by_path.meta["format"] == by_bytes.meta["format"] == "npz"
    assert np.array_equal(by_path.address, t.address) and by_path.fingerprint() == by_bytes.fingerprint()
    assert len(load(p, max_requests=10)) == 10


def test_a_whole_read_is_bounded_by_the_memory_budget_everywhere(tmp_path):
    # without max_requests the work limit is the run's memory budget, in bytes (no request count): a whole read over
    # it is refused naming the budget's option and the cut, a bundled (cached) trace and a synthetic preset too
    f = tmp_path / "t.trace"
    f.write_bytes(MQSIM)
    with limit(100):
        for src in (f, MQSIM, io.BytesIO(MQSIM), "mqsim:tpcc-small"):
            with pytest.raises(BudgetExceeded, match=r"--memory-budget .*--max-requests N"):
                load(src)
    with limit(50 * PARSED_REQUEST_BYTES):
        with pytest.raises(BudgetExceeded, match=r"synthetic:fin1: generating .*--memory-budget .*--max-requests N"):
            load("synthetic:fin1", n_requests=100)
        assert len(load("synthetic:fin1", n_requests=100, max_requests=10)) == 10  # the cut reads within it
        assert len(load("synthetic:fin1", n_requests=50)) == 50  # a whole read within it
        with pytest.raises(BudgetExceeded) as e:  # a cut over the budget names the budget, not the cut
            load("synthetic:fin1", n_requests=100, max_requests=60)
        assert "--max-requests" not in str(e.value)


def test_no_request_count_limits_a_whole_read_the_budget_allows(monkeypatch):
    """More than the old 20,000,000-request default limit is read whole when the budget holds it (the readers'
    request count, and a preset's, checked against the budget only); a stand-in trace, nothing allocated."""

    class Big:  # 25 M requests of 29 bytes, never allocated
        nbytes = 25_000_000 * 29

        def __len__(self):
            return 25_000_000

    monkeypatch.setattr(loader, "preset", lambda *a, **k: Big())
    with limit(2_000_000_000):  # 25 M parsed requests need 1.6 GB
        assert len(load("synthetic:fin1", n_requests=25_000_000)) == 25_000_000

    def read_trace(source, fmt, max_requests=None, **kw):
        charge_parsed(25_000_000)  # what a reader calls as it parses (the budget in bytes, no request count)
        return real(source, fmt, max_requests=max_requests, **kw)

    real = loader.read_trace
    monkeypatch.setattr(loader, "read_trace", read_trace)
    with limit(2_000_000_000):
        assert len(load(MQSIM)) == len(load(MQSIM, max_requests=10**6))
    with limit(1_000_000_000), pytest.raises(BudgetExceeded, match=r"--memory-budget 1\.6GB .*--max-requests N"):
        load(MQSIM)


def test_options_that_do_not_apply_are_named():
    with pytest.raises(ValueError, match="option\\(s\\) format do not apply to the bundled trace 'mqsim:tpcc-small'"):
        load("mqsim:tpcc-small", format="mqsim")
    with pytest.raises(ValueError, match="valid: n_requests, seed, scale"):
        load("synthetic:fin1", time_unit="ms")
    with pytest.raises(ValueError, match="seed must be an integer"):
        load("synthetic:fin1", seed=np.random.default_rng(0))
    with pytest.raises(ValueError, match="max_requests must be >= 1"):
        load("mqsim:tpcc-small", max_requests=0)
    with pytest.raises(ValueError, match="not valid for format 'mqsim'"):
        load(MQSIM, format="mqsim", size_col="x")
    assert len(load(MQSIM, format="auto", time_unit=None)) == 10  # None and "auto" mean the default


def test_fingerprint_is_a_content_hash():
    t = load(MQSIM, name="a")
    assert t.fingerprint() == load(MQSIM, name="a").fingerprint()
    assert t.fingerprint() != load(MQSIM, name="b").fingerprint()  # the name labels results: part of the key
    assert t.fingerprint() != t.subset(slice(1, None)).fingerprint()
    assert pickle.loads(pickle.dumps(t)).fingerprint() == t.fingerprint()  # st.cache_data copies
    flipped = BlockTrace(t.time_ns, ~t.is_write, t.offset_bytes, t.size_bytes, t.device, name="a")
    assert flipped.fingerprint() != t.fingerprint()
    m = MemTrace([0, 64, 128], [8, 8, 8], [0, 1, 2], name="m", meta={"x": 1})
    assert m.subset([1, 2]).kind.tolist() == [1, 2] and m.subset([1, 2]).meta == {"x": 1}
    assert m.data_only().fingerprint() == m.subset(m.kind != 0).fingerprint() != m.fingerprint()
    assert MemTrace([0, 64, 128], [8, 8, 8], [0, 1, 3], name="m").fingerprint() != m.fingerprint()
