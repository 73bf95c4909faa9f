"""Validation page (AppTest) and the per-page claims strip; they read the committed ledger table."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from streamlit.testing.v1 import AppTest

from app.components.claims import read_ledger, strip_markdown
from app.registry import PAGES
from models.validation.render import COLUMNS, EXTRA_COLUMNS

PAGE = str(Path(__file__).resolve().parents[2] / "app" / "views" / "validation.py")


def test_registered_in_overview():
    assert ("Overview", "validation.py", "Validation against the papers", ":material/fact_check:",
            "validation") in PAGES


def test_committed_table_reads_back():
    df = read_ledger()
    assert list(df.columns) == list(COLUMNS) + list(EXTRA_COLUMNS)
    assert len(df) >= 60 and set(df["seed"]) == {"000", "001", "002", "003", "004"}
    assert df["circular"].dtype == bool
    numeric = df[df["paper_number"].notna()]
    assert len(numeric) >= 20 and numeric["our_number"].notna().all()


def test_page_renders_counts_table_and_chart():
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.title[0].value == "Validation against the papers"
    counts, table = at.dataframe[0].value, at.dataframe[1].value
    ledger = read_ledger()
    assert int(counts.loc["all", "total"]) == len(ledger)
    assert len(table) == int((ledger["status"] != "error").sum())
    assert table["status"].str.contains("reproduced").any()
    assert at.selectbox(key="val.unit").value == "%"
    # each row's rule (its tolerance) right after the two values it compares
    cols = list(table.columns)
    assert cols[cols.index("our_value") + 1: cols.index("our_value") + 3] == ["unit", "rule"]
    assert (table["rule"].str.len() > 0).all()


def test_filters_narrow_the_table():
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    at.multiselect(key="val.statuses").set_value(["circular"]).run()
    assert not at.exception
    table = at.dataframe[1].value
    assert len(table) >= 5 and table["status"].str.endswith("circular").all() and table["circular"].all()
    at.multiselect(key="val.seeds").set_value(["001"]).run()
    assert set(at.dataframe[1].value["claim_id"].str[:3]) == {"001"}
    at.text_input(key="val.search").set_value("psd").run()
    assert at.dataframe[1].value["claim_id"].str.contains("psd").all()


def test_link_from_a_page_strip_filters_by_page():
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.query_params["page"] = "wear-leveling"
    at.run()
    assert not at.exception
    table = at.dataframe[1].value
    ledger = read_ledger()
    assert len(table) == int(((ledger["page"] == "wear-leveling") & (ledger["status"] != "error")).sum()) > 0
    bad = AppTest.from_file(PAGE, default_timeout=120)
    bad.query_params["page"] = "no-such-page"
    bad.run()
    assert not bad.exception and any("page" in w.value for w in bad.warning)


def test_strip_counts_a_pages_claims_and_links_here():
    ledger = read_ledger()
    text = strip_markdown(ledger, "write-cache")
    mine = ledger[ledger["page"] == "write-cache"]
    assert text.endswith("[details](validation?page=write-cache)")
    for status, n in mine["status"].value_counts().items():
        assert f"{n} {status}]" in text
    assert strip_markdown(pd.DataFrame({"page": [], "status": []}), "write-cache") == ""


def test_strip_renders_in_a_page():
    def page():
        from app.components.claims import claims_strip

        claims_strip("paging")

    at = AppTest.from_function(page, default_timeout=60).run()
    assert not at.exception
    assert any("validation?page=paging" in m.value for m in at.markdown)
