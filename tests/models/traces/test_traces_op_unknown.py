"""Issue 38 item 2: a trace whose format has no read/write field says "operation unknown", never 0 % writes."""

from __future__ import annotations

import math

from models.traces import load
from models.traces.formats import write_oracle_general
from models.traces.stats import statistic_table, trace_stats


def _oracle(tmp_path):
    f = tmp_path / "t.oracleGeneral.bin"
    f.write_bytes(write_oracle_general([0, 1, 2, 3], [5, 6, 5, 7], [4096, 4096, 4096, 8192]))
    return f


def test_oracle_general_marks_the_operation_unknown(tmp_path):
    t = load(str(_oracle(tmp_path)), kind="block")
    assert not t.op_known and t.subset(slice(0, 2)).op_known is False
    s = trace_stats(t)
    assert s.operation == "unknown"
    assert s.writes is None and s.reads is None and s.write_fraction is None and s.bytes_written is None
    table = statistic_table(s.to_frame(), text=True).set_index("statistic")["value"]
    assert table["write_fraction"] == "unknown" and table["writes"] == "unknown"


def test_csv_without_an_op_column_is_unknown_and_with_one_is_known(tmp_path):
    no_op = tmp_path / "a.csv"
    no_op.write_text("time,offset,size\n0,0,4096\n1,4096,4096\n")
    with_op = tmp_path / "b.csv"
    with_op.write_text("time,op,offset,size\n0,R,0,4096\n1,R,4096,4096\n")
    a, b = load(str(no_op), kind="block"), load(str(with_op), kind="block")
    assert not a.op_known and b.op_known
    sb = trace_stats(b)
    assert sb.operation == "read/write" and sb.writes == 0 and sb.write_fraction == 0.0  # a measured 0 stays 0
    assert math.isclose(trace_stats(load("mqsim:tpcc-small", kind="block")).write_fraction,
                        float(load("mqsim:tpcc-small", kind="block").is_write.mean()))


def test_the_planner_write_cache_needs_a_trace_with_reads_and_writes(tmp_path):
    from models.planner.plan import plan, workload_from_path

    df = plan([workload_from_path(_oracle(tmp_path), name="cache", kind="block")], ["pcm-samsung-20nm"]).to_frame()
    wc = df[(df.workload == "cache") & (df.role == "write-cache")]
    assert list(wc.verdict) == ["needs data"]
    assert wc.reason.iloc[0].startswith("needs data: a trace with reads/writes")
    assert "operation unknown" in wc.reason.iloc[0]
    # the file cache does not need the operation: it still answers
    assert set(df[(df.workload == "cache") & (df.role == "file-cache")].verdict) <= {"wins", "loses", "about the same"}
