"""The fleet results page: a results file's roles across volumes, the share winning, the winning volumes."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from app.components.fleet import read_fleet_results
from tests import ROOT
from tests.app.chart_rules import check_figures, every_tab_figures

PAGE = str(ROOT / "app" / "views" / "fleet.py")


def _results() -> pd.DataFrame:
    rng = np.random.default_rng(2)
    rows = []
    for i in range(12):
        for role in ("storage", "write-cache"):
            v = float(rng.lognormal(0, 1))
            rows.append({"trace": f"/data/vol{i}.csv", "role": role, "device": "pcm-samsung-20nm", "value": v,
                         "verdict": "wins" if v > 1 else "loses"})
    return pd.DataFrame(rows)


def test_page_without_a_file_says_what_to_upload():
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    assert not at.exception
    assert any("plan --fleet" in i.value for i in at.info)


def test_view_of_a_results_file_shows_share_chart_and_winners(tmp_path):
    df = _results()
    path = tmp_path / "r.json"
    df.to_json(path, orient="records")

    def script(p):
        import pandas as pd

        from app.components.fleet import fleet_view

        fleet_view(pd.read_json(p, orient="records"))

    at = AppTest.from_function(script, args=(str(path),), default_timeout=120).run()
    assert not at.exception, [e.message for e in at.exception]
    figs = every_tab_figures(at, texts=[], tables=[])
    assert len(figs) == 1 and check_figures(figs) == []
    share = at.dataframe[0].value["share of the fleet winning"].tolist()
    expect = df.groupby("role", sort=False)["verdict"].apply(lambda v: (v == "wins").mean()).tolist()
    assert share == pytest.approx(expect)
    text = " ".join(m.value for m in at.markdown)
    for role, g in df.groupby("role", sort=False):
        wins = int((g["verdict"] == "wins").sum())
        assert f"{role} · pcm-samsung-20nm: {wins} of 12 volumes ({100 * wins / 12:.1f} %)" in text
    ids = [b.proto.id for b in at.get("download_button")]  # both tables can be taken away as CSV
    assert any("fleet-summary-csv" in i for i in ids) and any("fleet-wins-csv" in i for i in ids), ids


def test_results_files_read_as_parquet_or_csv_and_others_refused_by_name():
    df = _results()
    buf = io.BytesIO()
    df.to_parquet(buf, index=False)
    assert read_fleet_results(buf.getvalue(), "f.parquet").equals(df)
    assert len(read_fleet_results(df.to_csv(index=False).encode(), "f.csv")) == len(df)
    with pytest.raises(ValueError, match="x.csv: not a fleet results file.*trace"):
        read_fleet_results(b"a,b\n1,2\n", "x.csv")
