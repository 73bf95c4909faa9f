"""The HDD model page (AppTest): seek fit, validation table, throughput curve, bad size list."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from models.storage import hdd
from tests import ROOT

PAGE = str(ROOT / "app" / "views" / "hdd_model.py")


def test_hdd_page_renders_and_switches_drive():
    at = AppTest.from_file(PAGE, default_timeout=300).run()
    assert not at.exception, [e.message for e in at.exception]
    table = at.dataframe[0].value
    assert table.drive.tolist() == list(hdd.drive_names())
    from app.components.tables import human_label

    assert table.set_index("drive").loc["ibm18es", human_label("demerit_ms")] == pytest.approx(
        hdd.validate_drive("ibm18es").demerit_ms, abs=1e-4)  # shown rounded to 4 decimals
    before = {m.label: m.value for m in at.metric}
    at.selectbox(key="hdd.drive").set_value("barracuda").run()
    assert not at.exception
    assert {m.label: m.value for m in at.metric} != before
    at.text_input(key="hdd.sizes_kib").set_value("4, abc").run()
    assert not at.exception and any("request sizes in KiB" in e.value for e in at.error)
    # the bad field stays on screen with the user's text, the other inputs are kept
    assert at.text_input(key="hdd.sizes_kib").value == "4, abc"
    assert at.selectbox(key="hdd.drive").value == "barracuda"
    at.text_input(key="hdd.sizes_kib").set_value("4, 64").run()
    assert not at.exception and not at.error and at.metric


def test_hdd_page_lists_every_disksim_parameter():
    from models.storage.hdd import PARAMETERS

    at = AppTest.from_file(PAGE, default_timeout=300).run()
    assert not at.exception, [e.message for e in at.exception]
    heads = [h.value for h in at.subheader]
    assert "DiskSim parameters: honoured or ignored" in heads
    tables = [d.value for d in at.dataframe]
    cov = [t for t in tables if len(t) == len(PARAMETERS)]
    assert cov, [len(t) for t in tables]
    assert set(cov[0].iloc[:, 1]) == {p.name for p in PARAMETERS}  # the parameter column
    split = [t for t in tables if "part" in t.columns]
    assert split and split[0].part.iloc[0] == "all"  # the selected drive's demerit split


def test_the_seek_chart_circles_the_points_far_from_the_fit_and_says_what_the_model_does_with_them():
    """The interpolated model goes through every measured point, glitches included: the chart circles the
    points the fit counts as outliers (``SeekFit.outlier_mask``) and the caption names each distance."""
    import numpy as np

    from app.views.hdd_model import OUTLIER_NAME
    from tests.app.chart_rules import page_figures, values

    at = AppTest.from_file(PAGE, default_timeout=300).run()
    assert not at.exception, [e.message for e in at.exception]
    spec = hdd.load_drive("ibm18es")
    fit = hdd.fit_seek_curve(spec.seek_distance_cyl, spec.seek_time_ms)
    mask = fit.outlier_mask(spec.seek_distance_cyl, spec.seek_time_ms)
    far_d = np.asarray(spec.seek_distance_cyl)[mask]
    assert 0 < len(far_d) == fit.outliers
    seek = next(f for _, f in page_figures(at) if any(t.get("name") == OUTLIER_NAME for t in f["data"]))
    circled = next(t for t in seek["data"] if t.get("name") == OUTLIER_NAME)
    assert np.array_equal(np.sort(np.asarray(values(circled["x"]), float)), np.sort(far_d))
    assert np.allclose(hdd.seek_time_ms(spec, far_d), np.asarray(spec.seek_time_ms)[mask])  # model passes through
    caption = next(c.value for c in at.caption if c.value.startswith("Circled:"))
    assert all(f"{d:,.0f} cyl" in caption for d in far_d)
    assert ("step" in caption) == bool((far_d == fit.boundary_cyl).any())
