"""`pcm-planner lifetime --mem-trace`: the write rate from a memory trace over its time base (issue 15)."""

from __future__ import annotations

import csv
import io

import pytest

from cli.main import main
from models.endurance.lifetime import SECONDS_PER_YEAR, measured_write_rate, trace_lifetime_rate
from models.memory.measured import ns_per_ref
from models.provenance import param
from models.traces import load

LACKEY = "I  04000000,4\n L 00001000,8\n S 00002000,8\n M 00003000,4\n S 00001000,8\n S 00005000,8\n S 00009000,8\n"


def _rows(capsys) -> list[dict]:
    return list(csv.DictReader(io.StringIO(capsys.readouterr().out)))


def test_bundled_trace_uses_its_measured_time_base_and_states_the_scaling(capsys):
    assert main(["lifetime", "--capacity-gb", "16", "--endurance", "1e7", "--mem-trace", "lulesh"]) == 0
    (row,) = _rows(capsys)
    rate = measured_write_rate("lulesh")
    assert float(row["write_rate_mbps"]) == pytest.approx(rate / 1e6, rel=1e-9)
    assert float(row["ns_per_ref"]) == pytest.approx(ns_per_ref("lulesh"), rel=1e-9)
    assert row["time_base"].startswith("measured")
    assert "used as is" in row["rate_scaling"] and "1:4" in row["rate_scaling"]
    # L = C E eta / W with the registry's wear efficiency
    eta = param("lifetime.wear_efficiency").value
    assert float(row["years"]) == pytest.approx(16e9 * 1e7 * eta / rate / SECONDS_PER_YEAR, rel=1e-6)
    # rate = written bytes / modelled seconds, in the row itself
    assert float(row["write_rate_mbps"]) * 1e6 == pytest.approx(float(row["written_bytes"]) / float(row["modelled_s"]),
                                                                rel=1e-6)


def test_a_longer_time_base_lowers_the_rate_and_rows_combine(capsys, tmp_path):
    f = tmp_path / "t.lackey"
    f.write_text(LACKEY)
    rows = []
    for t in ("1", "10"):
        assert main(["lifetime", "--capacity-gb", "16", "--endurance", "1e7", "--mem-trace", str(f),
                     "--time-base", t, "--write-rate-mbps", "50"]) == 0
        rows.append(_rows(capsys))
    (fixed, fast), (_, slow) = rows
    assert float(fixed["write_rate_mbps"]) == 50 and fixed["mem_trace"] == ""
    assert fast["time_base"] == "given: 1 ns per data reference" and int(fast["references"]) == 6
    # same write-backs, more time per reference: a lower rate and a longer life
    assert fast["written_bytes"] == slow["written_bytes"] and int(fast["written_bytes"]) > 0
    assert float(slow["write_rate_mbps"]) < float(fast["write_rate_mbps"])
    assert float(slow["years"]) > float(fast["years"])
    r = trace_lifetime_rate(load(str(f), kind="memory"), time_base=1.0)
    assert float(fast["write_rate_mbps"]) == pytest.approx(r.write_rate_bytes_per_s / 1e6, rel=1e-9)


@pytest.mark.parametrize("extra, message", [
    ([], "--write-rate-mbps and/or --mem-trace"),
    (["--mem-trace", "lulesh", "--time-base", "abc"], "--time-base"),
    (["--mem-trace", "lulesh", "--time-base", "-1"], "--time-base"),
    (["--mem-trace", "lulesh", "--dram-frac", "0"], "--dram-frac"),
])
def test_bad_trace_options_are_named(capsys, extra, message):
    assert main(["lifetime", "--capacity-gb", "16", "--endurance", "1e7", *extra]) == 2
    assert message in capsys.readouterr().err


def test_a_file_has_no_measured_time_base(capsys, tmp_path):
    f = tmp_path / "lulesh.lackey"  # named like a bundled program, still not timed
    f.write_text(LACKEY)
    assert main(["lifetime", "--capacity-gb", "16", "--endurance", "1e7", "--mem-trace", str(f)]) == 2
    err = capsys.readouterr().err
    assert "--time-base" in err and "not a bundled trace" in err


def test_uncertainty_band_covers_the_trace_row(capsys):
    assert main(["lifetime", "--capacity-gb", "16", "--endurance", "1e7", "--mem-trace", "lulesh",
                 "--write-rate-mbps", "100", "--uncertainty", "16"]) == 0
    rows = _rows(capsys)
    assert len(rows) == 2
    for r in rows:
        assert r["band_of"] and float(r["p5"]) <= float(r["p50"]) <= float(r["p95"])
