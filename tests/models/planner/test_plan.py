"""The planner for the user's workloads and devices (models/planner/plan.py): intake, verdicts, columns."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from models.devices import get_device
from models.planner import (
    ROLES_PLAN,
    WORKLOAD_KINDS,
    PlanWorkload,
    workload_from_path,
    workload_from_upload,
)
from models.planner.plan import (
    EVALUATED,
    LIKE_FOR_LIKE,
    PLAN_COLUMNS,
    VERDICTS,
    plan,
    read_fio_jobs,
)
from tests import ROOT

FIX = ROOT / "tests" / "fixtures" / "plan"
DEVICES = ["pcm-samsung-20nm", "optane-dcpmm", "dram"]


def _workloads():
    return [workload_from_path(FIX / "small_msr.csv", name="my msr"),
            workload_from_path(FIX / "small_lackey.txt", name="my app"),
            workload_from_path(FIX / "tiny.f"), workload_from_path(FIX / "small_fio.json", name="oltp fio")]


@pytest.fixture(scope="module")
def full():
    """Every workload kind, three devices (one DRAM), with a band."""
    return plan(_workloads(), DEVICES, uncertainty=16, seed=3)


@pytest.fixture(scope="module")
def block_only():
    return plan([workload_from_path(FIX / "small_msr.csv", name="my msr")], ["pcm-samsung-20nm"])


# ----------------------------------------------------------------------------- intake
@pytest.mark.parametrize("fname, kind", [("small_msr.csv", "block"), ("small_lackey.txt", "memory"),
                                         ("tiny.f", "filebench"), ("small_fio.json", "fio")])
def test_kind_is_inferred_from_the_fixture_files(fname, kind):
    w = workload_from_path(FIX / fname)
    assert w.kind == kind and w.name == fname.rsplit(".", 1)[0]
    assert kind in WORKLOAD_KINDS


def test_fio_job_file_and_bundled_names():
    from models.data import data_path

    assert workload_from_path(data_path("fio/pcm_planner.fio")).kind == "fio"
    assert workload_from_path("lackey:sqlite").kind == "memory"
    assert workload_from_path("fileserver", name="fs").name == "fs"


def test_unreadable_inputs_are_named(tmp_path):
    with pytest.raises(FileNotFoundError, match="nope.csv"):
        workload_from_path(tmp_path / "nope.csv")
    bad = tmp_path / "broken.json"
    bad.write_text('{"hello": 1}')
    with pytest.raises(ValueError, match="broken.json"):
        workload_from_path(bad)
    junk = tmp_path / "junk.bin"
    junk.write_text("this is not a trace\nnor is this\n")
    with pytest.raises(ValueError, match="junk.bin"):
        workload_from_path(junk)
    with pytest.raises(ValueError, match="given as a fio workload"):
        workload_from_path(FIX / "tiny.f", kind="fio")


def test_an_upload_is_read_from_where_it_was_stored_and_named_by_the_users_file(tmp_path):
    stored = tmp_path / "upload-0123abcd.csv"
    stored.write_bytes((FIX / "small_msr.csv").read_bytes())
    w = workload_from_upload(stored, "../../../etc/shadow.csv")
    assert (w.kind, w.name, w.source) == ("block", "shadow", str(stored))
    assert workload_from_upload(stored, "x.csv", name="mine").name == "mine"
    bad = tmp_path / "upload-4567.json"
    bad.write_text('{"a": 1}')
    with pytest.raises(ValueError) as e:  # the user's file is named, never the stored copy
        workload_from_upload(bad, "C:\\Users\\me\\notfio.json")
    assert str(e.value).startswith("notfio.json: ") and "upload-4567" not in str(e.value) and str(tmp_path) not in str(e.value)
    # issue 42 item 12 / issue 38 item 7: messages and the report show the user's file name, never the stored path
    assert (w.shown_as, w.source_label) == ("shadow.csv", "shadow.csv")
    from reporting.planner_report import workloads_table

    assert workloads_table([w]).source.tolist() == ["shadow.csv"]
    empty = tmp_path / "upload-89ab.csv"
    empty.write_text((FIX / "small_msr.csv").read_text().splitlines()[0] + "\n")
    with pytest.raises(ValueError) as e:
        plan([workload_from_upload(empty, "mine.csv")], ["pcm-samsung-20nm"])
    assert "mine.csv" in str(e.value) and str(tmp_path) not in str(e.value), str(e.value)


def test_fio_job_file_parser_reads_the_common_keys(tmp_path):
    f = tmp_path / "j.fio"
    f.write_text("[global]\nbs=16k\nioengine=libaio\n; comment\n[a]\nrw=randrw\nrwmixread=30\niodepth=8\n"
                 "[b]\nrw=write\nnumjobs=2\n")
    a, b = read_fio_jobs(f)
    assert (a.name, a.read_share, a.bs_bytes, a.random, a.iodepth) == ("a", 0.3, 16384.0, True, 8)
    assert (b.read_share, b.random, b.numjobs) == (0.0, False, 2)
    f.write_text("[a]\nrw=sideways\n")
    with pytest.raises(ValueError, match=r"j.fio: job \[a\]: rw='sideways'"):
        read_fio_jobs(f)


# ----------------------------------------------------------------------------- the table
def test_columns_are_the_contract(full):
    df = full.to_frame()
    assert list(df.columns)[:11] == PLAN_COLUMNS == ["workload", "role", "device", "baseline", "metric", "unit",
                                                     "value", "p5", "p95", "verdict", "reason"]
    assert list(df.columns)[11:15] == ["p_win", "decisive_input", "requests_used", "requests_read"]
    # issue 37: the economics after them, names the targets subcommand relies on
    assert list(df.columns)[15:24] == ["capacity_GB", "price_usd_per_GB", "cost_usd", "bytes_written_per_s",
                                       "lifetime_years", "replacements", "cost_per_work_vs_baseline",
                                       "economic_verdict", "economic_reason"]
    # issue 41: how each row's trace was evaluated, last (exact, or the sampling method and its rate)
    assert list(df.columns)[24:] == ["method", "sample_rate"]
    valued = df.verdict.isin(EVALUATED)
    assert valued.any() and (~valued).any()  # the fixture has rows without a value (DRAM, needs data)
    assert set(df.method[valued]) == {"exact"} and set(df.method[~valued]) == {""}  # nothing evaluated: no method
    trace = df.requests_used.notna() & valued
    assert (df.sample_rate[trace] == 1.0).all() and df.sample_rate[~trace].isna().all()


def test_whole_trace_by_default_and_a_sample_says_so():
    """Issue 38 item 1: the verdict uses the whole block trace unless asked, and each row says how much it used."""
    from models import traces

    n = len(traces.load("mqsim:tpcc-small", kind="block"))
    whole = plan([workload_from_path("mqsim:tpcc-small", name="db")], ["pcm-samsung-20nm"]).to_frame()
    rows = whole[whole.workload == "db"]
    assert (rows.requests_used == n).all() and (rows.requests_read == n).all()
    assert rows.reason.str.endswith(f"[whole block trace: {n:,} requests]").all()
    part = plan([workload_from_path("mqsim:tpcc-small", name="db")], ["pcm-samsung-20nm"], n_requests=2000).to_frame()
    rows = part[part.workload == "db"]
    assert (rows.requests_used == 2000).all() and (rows.requests_read == n).all()
    assert rows.reason.str.contains(f"sampled: the first 2,000 requests of {n:,}", regex=False).all()
    # rows of no trace carry no counts
    assert part[part.workload != "db"].requests_used.isna().all()
    # a memory trace cut as asked says so, and that its length is unknown
    mem = plan([workload_from_path(FIX / "small_lackey.txt", name="app")], ["pcm-samsung-20nm"],
               memory_refs=1000).to_frame()
    rows = mem[mem.workload == "app"]
    assert (rows.requests_used == 1000).all() and rows.requests_read.isna().all()
    assert rows.reason.str.contains("[sampled: the first 1,000 references of a longer trace, not read to its end "
                                    "(as asked)]", regex=False).all()


def test_one_row_per_workload_role_device(full):
    df = full.to_frame()
    assert not df.duplicated(["workload", "role", "device"]).any()
    kinds = {w.name: w.kind for w in full.workloads}
    for (w, role), g in df.groupby(["workload", "role"]):
        assert list(g.device) == DEVICES  # side by side, in the order given
        assert role in {"block": ("file-cache", "storage", "write-cache"), "memory": ("paging", "memory-extension"),
                        "filebench": ("storage",), "fio": ("storage",)}[kinds[w]]
    assert set(df.role) == set(ROLES_PLAN)


def test_verdicts_follow_the_value_and_never_invent_numbers(full):
    df = full.to_frame()
    assert set(df.verdict) <= set(VERDICTS) and (df.unit == "x").all()
    ev = df[df.verdict.isin(EVALUATED)]
    from models.planner.verdicts import is_tie

    tie = np.array([is_tie(v, {"p5": a, "p95": b}) for v, a, b in zip(ev.value, ev.p5, ev.p95)])
    assert ((ev.verdict == "about the same") == tie).all()
    assert ((ev.value > 1) == (ev.verdict == "wins"))[~tie].all() and (ev.value > 0).all()
    other = df[~df.verdict.isin(EVALUATED)]
    assert other[["value", "p5", "p95", "p_win"]].isna().all().all()
    for r in other.itertuples():
        assert r.reason.startswith(f"{r.verdict}: ")
    assert (df.reason.str.len() > 20).all() and not df.metric.str.fullmatch("value").any()


def test_dram_is_not_applicable_in_every_role(full):
    df = full.to_frame()
    d = df[df.device == "dram"]
    assert (d.verdict == "not applicable").all() and d.reason.str.contains("DRAM").all()


def test_bands_where_an_adapter_exists_and_say_so_where_not(full):
    df = full.to_frame()
    kinds = {w.name: w.kind for w in full.workloads}
    replay = (df.role == "storage") & (df.workload.map(kinds) == "block")
    for role in ROLES_PLAN:
        r = df[(df.role == role) & (df.verdict != "not applicable") & ~replay]
        assert len(r) == 2 * (1 + (role == "storage"))
        assert (r.p5 <= r.p95).all() and r.p_win.between(0, 1).all() and (r.decisive_input != "").all()
        assert not r.reason.str.contains("band not sampled").any()
    # the block-trace replay has no band model yet: said so, no invented band
    r = df[replay & (df.verdict != "not applicable")]
    assert len(r) and r.p5.isna().all() and r.reason.str.contains("band not sampled").all()
    assert r.decisive_input.str.startswith("not sampled: no band model").all()
    same = plan([workload_from_path(FIX / "small_fio.json")], ["sata-ssd"], uncertainty=8).to_frame()
    same = same[same.role == "storage"].iloc[0]  # the baseline itself: no band to draw, said so
    assert math.isnan(same.p5) and same.decisive_input.startswith("not sampled")


def test_needs_data_names_what_to_upload(block_only):
    df = block_only.to_frame()
    need = df[df.verdict == "needs data"]
    assert set(need.role) == {"paging", "memory-extension"}  # a block trace answers the storage role (issue 38)
    assert need[need.role == "paging"].reason.iloc[0].startswith("needs data: upload a memory-reference trace")
    mem = plan([workload_from_path(FIX / "small_lackey.txt")], ["pcm-samsung-20nm"]).to_frame()
    assert mem[mem.role == "storage"].reason.str.contains("Filebench .f").all()
    assert set(df[df.verdict.isin(EVALUATED)].role) == {"file-cache", "storage", "write-cache"}


def test_a_trace_without_writes_is_not_applicable_for_the_write_cache(tmp_path):
    lines = (FIX / "small_msr.csv").read_text().splitlines()
    reads = [ln for ln in lines[1:] if ",Read," in ln]
    f = tmp_path / "reads.csv"
    f.write_text("\n".join([lines[0], *reads]) + "\n")
    df = plan([workload_from_path(f)], ["pcm-samsung-20nm"]).to_frame()
    wc = df[df.role == "write-cache"].iloc[0]
    assert wc.verdict == "not applicable" and "no writes" in wc.reason and math.isnan(wc.value)
    assert df[df.role == "file-cache"].verdict.iloc[0] == "wins"


def test_the_baseline_itself_gives_exactly_one_and_is_about_the_same():
    w = [workload_from_path(FIX / "small_lackey.txt"), workload_from_path(FIX / "small_fio.json")]
    df = plan(w, ["nand-flash", "sata-ssd"]).to_frame()
    same = df[[LIKE_FOR_LIKE[r] == d for r, d in zip(df.role, df.device)]]
    assert len(same) == 3 and np.allclose(same.value, 1.0) and (same.verdict == "about the same").all()
    assert same.reason.str.contains("about the same as").all() and not same.reason.str.contains("worse").any()


def test_a_picked_baseline_is_used_in_every_role(full):
    df = plan(_workloads()[:2], ["pcm-samsung-20nm"], baseline="optane-dcpmm").to_frame()
    ev = df[df.verdict.isin(EVALUATED)]
    assert ev.baseline.str.contains("optane-dcpmm").all()
    assert set(ev.role) == {"file-cache", "storage", "write-cache", "paging", "memory-extension"}


def test_custom_devices_and_monotone_in_the_device_latency():
    pcm = get_device("pcm-samsung-20nm")
    fast = pcm.with_updates(name="my-fast", read_latency_ns=pcm.read_latency_ns / 4,
                            write_latency_ns=pcm.write_latency_ns / 4)
    slow = pcm.with_updates(name="my-slow", kind="custom", read_latency_ns=5e6, write_latency_ns=5e6,
                            read_bandwidth_MBps=50, write_bandwidth_MBps=50)
    w = [workload_from_path(FIX / "small_lackey.txt"), workload_from_path(FIX / "small_fio.json"),
         workload_from_path(FIX / "tiny.f")]
    df = plan(w, [pcm, fast, slow]).to_frame().set_index(["workload", "role", "device"])
    for wl, role in (("small_lackey", "paging"), ("small_lackey", "memory-extension"), ("small_fio", "storage"),
                     ("tiny", "storage")):
        assert df.loc[(wl, role, "my-fast"), "value"] >= df.loc[(wl, role, "pcm-samsung-20nm"), "value"] \
            > df.loc[(wl, role, "my-slow"), "value"]
        assert df.loc[(wl, role, "my-slow"), "verdict"] == "loses"


def test_progress_and_bad_arguments():
    seen = []
    plan([workload_from_path(FIX / "tiny.f")], ["pcm-samsung-20nm"], progress=seen.append)
    assert seen and seen[-1] == 1.0 and all(0 <= f <= 1 for f in seen) and seen == sorted(seen)
    with pytest.raises(ValueError, match="at least one device"):
        plan([workload_from_path(FIX / "tiny.f")], [])
    with pytest.raises(KeyError, match="unknown device 'floppy'"):
        plan([workload_from_path(FIX / "tiny.f")], ["floppy"])
    with pytest.raises(ValueError, match="repeated: a"):
        plan([PlanWorkload(name="a", kind="filebench", source="varmail"),
              PlanWorkload(name="a", kind="filebench", source="webserver")], ["pcm-samsung-20nm"])


def test_a_workload_that_fails_to_load_is_named(tmp_path):
    f = tmp_path / "bad.f"
    f.write_text("define fileset name=x,entries=1\nflowop frobnicate name=f1\n")
    with pytest.raises(ValueError, match="workload 'bad'"):
        plan([PlanWorkload(name="bad", kind="filebench", source=str(f))], ["pcm-samsung-20nm"])


def test_provenance_keys_resolve_and_include_the_devices(full):
    from models.provenance import provenance_table

    tab = provenance_table(full.provenance_keys)
    assert len(tab) == len(full.provenance_keys)
    assert {"planner.file_cache_fraction", "planner.paging_memory_fraction", "planner.write_cache_mb",
            "device:optane-dcpmm.read_latency_ns", "device:nand-flash.read_latency_ns"} <= set(tab.key)


def test_frame_round_trips_through_csv(full, tmp_path):
    df = full.to_frame()
    df.to_csv(tmp_path / "p.csv", index=False)
    back = pd.read_csv(tmp_path / "p.csv")
    assert list(back.columns) == list(df.columns) and len(back) == len(df)


def test_band_models_evaluate_to_the_row_value_at_their_points():
    """Each role's uncertainty model is the row's own computation: at every input's point it gives the value."""
    from models import traces
    from models.memory import memory_extension as me
    from models.memory import paging as pg
    from models.memory.uncertainty import memext_model
    from models.planner.role_file_cache import file_cache_band_model
    from models.planner.role_memory import paging_amat_model
    from models.planner.role_write_cache import writecache_band_model
    from models.planner.uncertainty import inverted, ratio_model
    from models.provenance import param
    from models.storage import write_cache as wc

    pcm, flash, ssd = get_device("pcm-samsung-20nm"), get_device("nand-flash"), get_device("sata-ssd")
    df = plan([workload_from_path(FIX / "small_msr.csv"), workload_from_path(FIX / "small_lackey.txt")],
              [pcm]).to_frame().set_index("role")
    tr = traces.load(FIX / "small_msr.csv")
    sizes = np.asarray(tr.size_bytes, float)[np.asarray(tr.is_write, bool)]
    wcm = writecache_band_model(wc.prepare_requests(tr), sizes, pcm, None, param("planner.write_cache_mb").value)
    assert wcm.point() == pytest.approx(df.loc["write-cache", "value"], rel=1e-12)
    mt = traces.load(FIX / "small_lackey.txt")
    mem = inverted(memext_model(me.page_stream(mt), me.MemExtConfig(), device=pcm, baseline=flash))
    assert mem.point() == pytest.approx(df.loc["memory-extension", "value"], rel=1e-9)
    kw = dict(memory_fraction=param("planner.paging_memory_fraction").value, page_sizes_bytes=(4096,))
    prof = pg.paging_profile(mt, pg.paging_inputs(**kw))
    amat = ratio_model(paging_amat_model(prof, pg.paging_inputs(**kw, device=ssd)),
                       paging_amat_model(prof, pg.paging_inputs(**kw, device=pcm)), "", "")
    assert amat.point() == pytest.approx(df.loc["paging", "value"], rel=1e-9)
    from models.storage.file_cache_sim import file_cache_curves

    ids = traces.split_blocks(tr).block
    c = file_cache_curves(ids, [pcm], cache_fractions=[param("planner.file_cache_fraction").value])
    hits = int(c[c.policy == "lru"].hits.iloc[0])
    fc = file_cache_band_model(hits, len(ids), pcm, get_device("hdd-7200"))
    assert fc.point() == pytest.approx(df.loc["file-cache", "value"], rel=1e-9)


def test_a_volatile_baseline_is_not_a_write_cache():
    df = plan([workload_from_path(FIX / "small_msr.csv")], ["pcm-samsung-20nm"], baseline="dram").to_frame()
    wc = df[df.role == "write-cache"].iloc[0]
    assert wc.verdict == "not applicable" and "baseline dram" in wc.reason and math.isnan(wc.value)


def test_a_cxl_expander_is_a_memory_extension_but_not_storage():
    """CXL-attached DRAM is volatile (no storage, no write cache) but is a memory extension behind DRAM."""
    df = plan([workload_from_path(FIX / "small_lackey.txt"), workload_from_path(FIX / "small_msr.csv")],
              ["cxl-memexp", "dram"]).to_frame()
    row = df[(df.role == "memory-extension") & (df.device == "cxl-memexp")].iloc[0]
    assert row.verdict in EVALUATED and row.value > 0
    assert df[(df.role == "memory-extension") & (df.device == "dram")].iloc[0].verdict == "not applicable"
    assert (df[(df.role == "write-cache") & (df.device == "cxl-memexp")].verdict == "not applicable").all()


def test_ties_read_about_the_same_and_name_the_baseline():
    """Issue 38 item 5: a value within the tolerance (no band) or with 1x inside its band is "about the same"."""
    from models.planner.verdicts import EVALUATED, compare, is_tie, plan_row, verdict_of
    from models.provenance import param

    tol = float(param("planner.tie_tolerance").value)
    assert param("planner.tie_tolerance").kind == "assumed"
    assert "about the same" in VERDICTS and set(EVALUATED) == {"wins", "about the same", "loses"}
    assert verdict_of(0.9986) == verdict_of(1.01) == "about the same"
    assert verdict_of(1 + 2 * tol) == "wins" and verdict_of(1 / (1 + 2 * tol)) == "loses"
    # with a band: 1x inside it is a tie, outside it the verdict stands
    assert verdict_of(1.5, {"p5": 0.9, "p95": 2.0}) == "about the same"
    assert verdict_of(1.5, {"p5": 1.2, "p95": 2.0}) == "wins"
    text = compare(0.9986, "pcm", "sata-ssd (as the storage)", "faster")
    assert text.startswith("pcm about the same as sata-ssd (as the storage)") and "worse" not in text
    assert not is_tie(float("nan"))
    # a device against itself as the baseline: exactly 1x reads about the same, never "loses"
    df = plan([workload_from_path("mqsim:tpcc-small", name="db")], ["hdd-7200"], n_requests=2000).to_frame()
    fc = df[(df.role == "file-cache")].iloc[0]
    assert fc.value == 1.0 and fc.verdict == "about the same" and "about the same as hdd-7200" in fc.reason
    assert plan_row("w", "paging", "d", "b", "m", 1.0, verdict_of(1.0))["verdict"] == "about the same"


def test_a_role_over_the_memory_budget_needs_data_and_the_others_are_evaluated(tmp_path):
    """Issue 42 item 2: 95 requests of 4 GiB -- the block-level roles are refused by name (budget and option), the
    storage replay is evaluated per request, its footprint the union of the extents (no block split). The write cache
    cuts its batch one request at a time if need be (issue 41): one request's cut, 2**20 items of
    ``write_cache.ITEM_BYTES``, passes the budget."""
    from models import budget
    from models.planner.plan import plan
    from models.storage.write_cache import ITEM_BYTES

    f = tmp_path / "big95.trace"
    f.write_text("".join(f"{i} 0 {i * 8388608} 8388608 0\n" for i in range(95)))
    with budget.limit(int(0.9 * 2**20 * ITEM_BYTES)):
        res = plan([str(f)], ["pcm-samsung-20nm"])
    df = res.to_frame()
    df = df[df.workload == "big95"].set_index("role")
    assert not res.errors
    for role in ("file-cache", "write-cache"):
        assert df.loc[role, "verdict"] == "needs data"
        assert "--memory-budget" in df.loc[role, "reason"] and budget.ENV_VAR in df.loc[role, "reason"]
    assert df.loc["storage", "verdict"] in ("wins", "about the same", "loses")
    assert df.loc["storage", "capacity_GB"] == pytest.approx(95 * 2**32 / 1e9)  # the footprint: 95 x 4 GiB
