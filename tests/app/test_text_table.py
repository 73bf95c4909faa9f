"""The static, wrapping table (app/components/tables.py text_table): every cell reads exactly as given
(Markdown escaped), formula-safe, numbers with significant digits, styles matched on the raw value."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def _page():
    import pandas as pd

    from app.components.tables import text_table

    df = pd.DataFrame({"workload": ["**bold** [x](http://h/) <b>", "=cmd|' /C calc'!A0"],
                       "verdict": ["wins", "loses"], "value_x": [0.123456789, float("nan")],
                       "count": pd.array([1234, None], dtype="Int64"), "reason": ["a long reason " * 30, ""]})
    text_table(df, cell_styles={"verdict": {"wins": "color: green"}})


def test_text_table_shows_cells_as_typed_formula_safe_and_styled():
    at = AppTest.from_function(_page, default_timeout=60).run()
    assert not at.exception, [e.message for e in at.exception]
    assert not at.dataframe  # a static table (cells wrap), not the grid
    t = at.table[0].value
    plain = t.rename(columns=lambda c: c.replace("\\", "")).apply(lambda c: c.str.replace("\\", "", regex=False))
    assert list(plain.columns) == ["workload", "verdict", "value [×]", "count", "reason"]
    assert plain.workload.tolist() == ["**bold** [x](http://h/) <b>", "'=cmd|' /C calc'!A0"]  # as typed, formula-safe
    assert t.workload.iloc[0].startswith("\\*\\*bold")  # escaped for st.table's Markdown
    assert plain["value [×]"].tolist() == ["0.1235", ""] and plain["count"].tolist() == ["1,234", ""]
    assert plain.reason.iloc[0] == ("a long reason " * 30)  # in full
    css = at.table[0].proto.arrow_data.styler.styles
    assert "color: green" in css
