"""The one table formatter (app/components/tables.py) and the theme / export settings (issue 18, 20)."""

from __future__ import annotations

import tomllib

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst
from streamlit.testing.v1 import AppTest

from app.components.tables import display_frame, human_label, number_format, number_text
from tests import ROOT


@pytest.mark.parametrize("key, label", [
    ("demerit_ms", "demerit [ms]"), ("lru_vs_none", "LRU vs none"), ("read_bandwidth_MBps", "read bandwidth [MB/s]"),
    ("n_star", "n* [accesses]"), ("pcm_years", "PCM [years]"), ("time_ns", "time [ns]"), ("slowdown [×]", "slowdown [×]"),
    ("workload", "workload"), ("tlb_hit_rate", "TLB hit rate"), ("within_2x", "within 2×"),
])
def test_human_labels(key, label):
    assert human_label(key) == label


def test_float_columns_show_significant_digits_not_16():
    assert number_format(pd.Series([0.3740534362, 0.5])) == "%.4f"
    assert number_format(pd.Series([4e-16, 0.3])) == "%.4g"  # not 0.0000000000000004
    assert number_format(pd.Series([1234.5678, 2000.1])) == "%.0f"
    assert number_format(pd.Series([3.0, 4.0])) == "localized"
    assert number_format(pd.Series([1, 2], dtype=int)) == "localized"
    assert number_format(pd.Series(["a"])) is None
    assert number_format(pd.Series([np.nan, np.inf])) == "%.1f"


def test_display_frame_is_formula_safe_with_human_headers():
    df = pd.DataFrame({"name": ["=HYPERLINK(\"http://x\")", "+A1+1", "ok"], "lat_ms": [0.123456, 1.5, 2.0],
                       "share": [0.1, 0.2, 0.3]})
    shown, config = display_frame(df, percent=["share"], labels={"name": "device"})
    assert list(shown.columns) == ["device", "lat [ms]", "share"]
    assert shown["device"].tolist() == ["'=HYPERLINK(\"http://x\")", "'+A1+1", "ok"]
    assert shown["lat [ms]"].tolist() == df["lat_ms"].tolist()  # values kept, only the display rounds
    assert config["lat [ms]"]["type_config"]["format"] == "%.3f"
    assert config["share"]["type_config"]["format"] == "percent"


def test_duplicate_headers_get_a_suffix():
    shown, _ = display_frame(pd.DataFrame([[1, 2]], columns=["time_ns", "time [ns]"]))
    assert list(shown.columns) == ["time [ns]", "time [ns] (2)"]


def test_theme_follows_the_user_and_grid_export_is_off():
    cfg = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert "base" not in cfg.get("theme", {}), "the theme follows the user's light / dark preference"
    assert cfg["client"]["disableDataExport"] is True


def test_entry_point_turns_the_grid_export_off():
    at = AppTest.from_file(str(ROOT / "app" / "main.py"), default_timeout=120).run()
    assert not at.exception
    from streamlit import config

    assert config.get_option("client.disableDataExport") is True


def test_every_page_table_goes_through_the_formatter():
    """No page calls st.dataframe / st.table directly (app/components/tables.py is the one formatter)."""
    import re

    direct = {p.name: m for p in (ROOT / "app" / "views").glob("*.py")
              if (m := re.findall(r"\bst\.(?:dataframe|table)\(", p.read_text()))}
    assert direct == {}


def test_wide_spans_of_values_from_one_read_with_thousands_separators():
    assert number_format(pd.Series([101.5, 190000.0, 13500000.0])) == "localized"  # 13,500,000 ns, not 13500000
    assert number_format(pd.Series([0.5, 13500000.0])) == "%.4g"  # below 1: significant digits
    assert number_format(pd.Series([1.0, 3e13])) == "localized"  # whole numbers
    assert number_format(pd.Series([1.5, 3e13])) == "%.4g"  # past LOCALIZED_MAX


def test_empty_number_cells_read_as_a_dash_not_none():
    from app.components.tables import MISSING_TEXT, missing_as_text

    df = pd.DataFrame({"scheme": ["a", "b", "c"], "paper_saving": [0.495, np.nan, 0.95],
                       "lat_ns": [101.5, None, 13500000.0], "n": [1, 2, 3]})
    shown, config = display_frame(df, percent=["paper_saving"])
    shown, config = missing_as_text(shown, config)
    assert shown["paper saving"].tolist() == ["49.5%", MISSING_TEXT, "95%"]
    assert shown["lat [ns]"].tolist() == ["101.5", MISSING_TEXT, "13,500,000"]
    assert config["lat [ns]"]["type_config"]["type"] == "text" and config["lat [ns]"]["alignment"] == "right"
    assert shown["n"].tolist() == [1, 2, 3] and config["n"]["type_config"]["type"] == "number"
    assert df["paper_saving"].isna().sum() == 1, "the page's frame is not changed"


def test_a_pages_number_config_keeps_its_label_and_format_on_a_column_with_empty_cells():
    import streamlit as st

    from app.components.tables import missing_as_text

    shown = pd.DataFrame({"paper saving": [0.495, np.nan]})
    config = {"paper saving": st.column_config.NumberColumn("saving (paper avg.)", format="percent", help="h")}
    shown, config = missing_as_text(shown, config)
    assert shown["paper saving"].tolist() == ["49.5%", "—"]
    assert config["paper saving"]["label"] == "saving (paper avg.)" and config["paper saving"]["help"] == "h"


def test_table_check_flags_an_empty_number_cell():
    from tests.app.chart_rules import check_tables

    bad = pd.DataFrame({"x": [1.0, np.nan], "ok": [True, None], "s": ["a", None]})
    assert check_tables([("t", bad)]) == ["t: column 'x' shows 1 empty cell(s) as 'None'"]
    assert check_tables([("t", bad.style)]) == ["t: column 'x' shows 1 empty cell(s) as 'None'"]


def _kv_page():
    import pandas as pd

    from app.components.tables import key_value_table

    key_value_table(pd.DataFrame({"statistic": ["name", "bytes_read", "write_fraction", "reuse_time_mean_ns", "ratio"],
                                  "value": ["=cmd", "36315136", "0.3740534362", "14619683.42", "1.0101"]}),
                    labels={"bytes_read": "bytes read [B]"}, percent=["write_fraction"])


def test_key_value_table_reads_names_and_numbers_as_a_person_would():
    at = AppTest.from_function(_kv_page, default_timeout=60).run()
    assert not at.exception
    shown = at.dataframe[0].value
    assert shown["statistic"].tolist() == ["name", "bytes read [B]", "write fraction", "reuse time mean [ns]", "ratio"]
    assert shown["value"].tolist() == ["'=cmd", "36,315,136", "37.41%", "14,619,683", "1.01"]  # formula-safe text, no trailing 0


def test_a_styled_table_keeps_its_colours_and_reads_numbers_and_headers_the_app_way():
    from app.components.tables import _styled

    df = pd.DataFrame({"kind": ["assumed", "published"], "value": [1179.0, 0.5], "read_latency_ns": [1.6e10, 2.0],
                       "unit": ["-", "=x"]})
    sty, config = _styled(df.style.map(lambda v: "color: red" if v == "assumed" else "", subset=["kind"]),
                          labels=None, digits=4, percent=())
    text = sty.to_string(delimiter="|")
    assert "1179.000000" not in text and "|1,179|16,000,000,000|" in text  # significant digits, separators
    assert "|-|" in text.replace("\n", "|") and "'=x" in text  # a lone sign as is, a formula escaped
    assert config == {"read_latency_ns": "read latency [ns]"}
    assert "color: red" in sty.to_html()


def _significant(text: str) -> int:
    """Significant digits a number's text shows (trailing zeros count: they are shown)."""
    mantissa = text.replace(",", "").lstrip("-").split("e")[0].replace(".", "")
    return len(mantissa.lstrip("0")) or 1


@settings(max_examples=300, deadline=None)
@given(hst.lists(hst.floats(1e-3, 9999.0), min_size=2, max_size=20).filter(
    lambda v: any(x != round(x) for x in v)))
def test_every_value_of_a_column_shows_about_four_significant_digits(vals):
    """One format per column, chosen so every value reads to at least 2 and shows at most 6 significant digits
    (4 ± 2: a column of 0.05 ... 11.7 showed 11.67165, seven; its small values need as many as its large ones)."""
    fmt = number_format(pd.Series(vals))
    shown = [number_text(v, fmt) for v in vals]
    assert all(_significant(t) <= 6 for t in shown), list(zip(vals, shown))
    assert all(abs(float(t.replace(",", "")) - v) <= 0.05 * v for t, v in zip(shown, vals)), list(zip(vals, shown))
