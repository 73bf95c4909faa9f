"""Wear-leveling page (AppTest): renders and reacts to the scheme choice."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests import ROOT


def test_wear_page_renders_and_reacts():
    at = AppTest.from_file(str(ROOT / "app/views/wear.py"), default_timeout=120).run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.title[0].value == "Wear leveling"
    before = {m.label: m.value for m in at.metric}
    at.multiselect(key="wear.schemes").set_value(["sg", "sfc"]).run()
    assert not at.exception, [e.message for e in at.exception]
    after = {m.label: m.value for m in at.metric}
    assert before != after


def test_wear_page_lifetime_uses_the_simulated_life_rate_not_the_long_run():
    import numpy as np

    from models.devices import get_device
    from models.endurance import wear

    at = AppTest.from_file(str(ROOT / "app/views/wear.py"), default_timeout=120).run()
    assert not at.exception, [e.message for e in at.exception]
    df = at.dataframe[0].value
    life = [c for c in df.columns if "lifetime" in c.lower()]
    assert life and not [c for c in life if "long" in c.lower()]  # no lifetime from the long-run rate
    rate_col = next(c for c in df.columns if c.startswith("write rate") or c == "write_rate_bytes_per_s")
    lr = next(c for c in df.columns if c in ("life rate", "life_rate"))
    ovh = next(c for c in df.columns if c.startswith("movement overhead") or c == "movement_overhead")
    cfg = wear.WearConfig()
    e = get_device(at.session_state["wear.device"]).endurance_writes_per_cell
    for row in df.itertuples(index=False):
        r = dict(zip(df.columns, row, strict=True))
        want = wear.lifetime_years_for(cfg, e, r[rate_col], r[lr], r[ovh])
        assert np.isclose(r[life[0]], want, rtol=1e-9)
