"""Endurance / Write reduction for NVM memory extensions on real page contents (seed 002 §5.1, Figs. 4-9)."""

from __future__ import annotations

import io
import re
import zipfile
from typing import Literal

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st
from pydantic import Field

from app.components import Scenario, download_csv, scenario_controls, user_errors
from app.components.bands import add_error_bars, point_bands
from app.components.charts import bar_chart_height, figure, show, style
from app.components.claims import claims_strip
from app.components.errors import show_error
from app.components.how_sure import UncertaintyFields, how_sure
from app.components.inputs import SciInt, float_input, int_input
from app.components.metrics import metric_row
from app.components.provenance import assumption_note, param_help
from app.components.scenario import field_range, init_state, model_field
from app.components.tables import key_value_table, table, text_table
from app.components.write_rates import lulesh_write_rate
from models.devices import get_device
from models.endurance import lifetime as lt
from models.endurance import write_reduction as wr
from models.provenance import param

LABEL = {
    "baseline": "Baseline (non-inclusive)",
    "inclusive": "Inclusive",
    "inclusive+mfwr-1w": "Inclusive + MFWR-1W",
    "inclusive+mfwr-2w": "Inclusive + MFWR-2W",
    "inclusive+mfwr-3w": "Inclusive + MFWR-3W",
    "inclusive+dcw": "Inclusive + DCW (no PIN)",
    "inclusive+dcw+pin": "Inclusive + DCW + PIN",
    "inclusive+mfwr-1w+dcw": "Inclusive + MFWR + DCW (no PIN)",
    "inclusive+mfwr-1w+dcw+pin": "Inclusive + MFWR + DCW + PIN",
}
#: Figure 8's bar thickness [px]: nine schemes x each workload's bar, grouped.
FIG8_PX_PER_BAR = 10
# Lifetime inputs: LifetimeInputs' fields, in the page's units (MB/s, GB).
RATE_MBPS = field_range(lt.LifetimeInputs, "write_rate_bytes_per_s", unit=1e6)
CAPACITY_GB = field_range(lt.LifetimeInputs, "capacity_bytes", unit=1e9)
ENDURANCE = field_range(lt.LifetimeInputs, "endurance_writes_per_cell")


class WriteReductionScenario(Scenario, UncertaintyFields):
    PREFIX = "wr"
    source: Literal["bundled", "apps", "synthetic", "upload"] = Field("apps", title="Pages")
    n_pages: SciInt = Field(1000, ge=10, le=20_000, title="Pages [-]")
    dirty_fraction: float = Field(0.5, ge=0, le=1, title="Dirty pages [-]")
    zero_fraction: float = Field(0.4, ge=0, le=1, title="Zero words [-]")
    frequent_fraction: float = Field(0.3, ge=0, le=1, title="Frequent-value words [-]")
    changed_word_fraction: float = Field(0.1, ge=0, le=1, title="Words changed in a dirty page [-]")
    no_pin_old: Literal["random", "other-page"] = Field("random", title="Old content without PIN")
    metadata_in_nvm: bool = Field(False, title="Metadata in NVM")
    seed: SciInt = Field(0, ge=0, le=2**31 - 1, title="Seed")
    baseline_rate_MBps: float = model_field(lt.LifetimeInputs, "write_rate_bytes_per_s", unit=1e6,
                                            default=round(lulesh_write_rate() / 1e6, 1),
                                            title="Baseline cell write rate [MB/s]")
    capacity_gb: float = model_field(lt.LifetimeInputs, "capacity_bytes", unit=1e9,
                                     default=param("memext.nvm_capacity_bytes").value / 1e9, title="Capacity [GB]")
    endurance: float = model_field(lt.LifetimeInputs, "endurance_writes_per_cell",
                                   default=get_device("pcm-memext").endurance_writes_per_cell,
                                   title="Endurance [writes per cell]")


NPZ_HELP = "a NumPy .npz archive (numpy.savez) with uint8 arrays 'old' and 'new' of n x 4096 bytes"


def _read_npz(data: bytes) -> wr.PagePairs:
    """Page pairs of an uploaded .npz; ValueError saying what is wrong with the file."""
    if not data:
        raise ValueError(f"upload: the file is empty; expected {NPZ_HELP}")
    if not data.startswith(b"PK"):  # zip magic: np.load would otherwise try (and refuse) to unpickle it
        raise ValueError(f"upload: not a .npz file; expected {NPZ_HELP}")
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as d:
            if "old" not in d.files or "new" not in d.files:
                raise ValueError(f"upload: the archive has arrays {d.files}; expected {NPZ_HELP}")
            names = tuple(str(x) for x in d["workload_names"].tolist()) if "workload_names" in d.files \
                else ("pages",)
            return wr.PagePairs(d["old"], d["new"], d["workload"] if "workload" in d.files else None, names)
    except (zipfile.BadZipFile, EOFError, OSError) as e:
        raise ValueError(f"upload: corrupt or truncated .npz archive ({e.__class__.__name__}: {e})") from None
    except ValueError as e:
        if "pickle" in str(e):
            raise ValueError("upload: an array in the archive holds Python objects; only numeric arrays "
                             f"are read (save with numpy.savez, no object arrays); expected {NPZ_HELP}") from None
        raise


@st.cache_data(show_spinner=False, max_entries=16)
def _table(source, upload_bytes, n_pages, dirty, zero, freq, changed, no_pin_old, meta, seed):
    if source == "bundled":
        pages = wr.load_page_pairs()
    elif source == "apps":  # seed 002's own applications, snapshotted here (data/measurements/apps)
        pages = wr.load_page_pairs("pages/app_page_pairs.npz")
    elif source == "upload":
        pages = _read_npz(upload_bytes)
    else:
        pages = wr.synthetic_page_pairs(n_pages, dirty_fraction=dirty, zero_fraction=zero,
                                        frequent_fraction=freq, changed_word_fraction=changed, seed=seed)
    by = len(pages.workload_names) > 1
    t = wr.write_reduction_table(pages, no_pin_old=no_pin_old, metadata_in_nvm=meta, seed=seed, by_workload=by)
    if not by:
        t.insert(0, "workload", "all")
    return t, len(pages), float(pages.dirty.mean()), pages.meta


def _life_model(scn: WriteReductionScenario, rate_bytes_per_s: float):
    """Lifetime [years] of the extension written at ``rate_bytes_per_s`` (a scheme's share of the baseline
    rate: its cells per page counted on the pages, held): the rate as typed (+-20 %), the catalogue
    endurance by its provenance (a typed one +-20 %), the wear efficiency by its registry range."""
    from models.endurance.uncertainty import lifetime_model
    from models.uncertainty import device_input

    pcm = get_device("pcm-memext")
    e_in = (device_input(pcm, "endurance_writes_per_cell", label="pcm-memext endurance")
            if scn.endurance == pcm.endurance_writes_per_cell else None)
    return lifetime_model(capacity_bytes=scn.capacity_gb * 1e9, endurance_writes_per_cell=scn.endurance,
                          write_rate_bytes_per_s=rate_bytes_per_s, endurance_input=e_in)



#: The snapshot metadata's fields as read (data/measurements/apps; the rest through human_label).
META_LABELS = {"made": "snapshots made", "page_bytes": "page size [B]", "warmup_cpu_s": "warm-up before the first [CPU s]",
               "interval_cpu_s": "between snapshots [CPU s]", "script": "made by"}


def _provenance(meta: dict) -> None:
    """The page snapshots' metadata as tables (not raw JSON): its fields, then each nested mapping (the
    programs' command lines, their build paths shortened to the part under the build directory)."""
    key_value_table({k: v for k, v in meta.items() if not isinstance(v, dict)}, labels=META_LABELS,
                    headers=("field", "value"), text=("seed",))
    for name, sub in meta.items():
        if isinstance(sub, dict):
            rows = pd.DataFrame({"program": list(sub), name: [re.sub(r"^/\S*?/build/", "build/", str(v))
                                                            for v in sub.values()]})
            text_table(rows)

S = WriteReductionScenario
init_state(S)
st.title("Write reduction in memory extensions")
claims_strip("write-reduction")
st.markdown(
    "When DRAM evicts a page to an NVM extension, how many NVM cells get programmed? **Inclusive** extensions "
    "keep the NVM copy and write back only dirty pages; **MFWR** (most frequent word reduction) replaces the "
    "page's most frequent 4-byte word(s) by a bitmap and packs the rest into as few 64-B lines as possible; "
    "**DCW** (data-comparison write) programs only cells whose value changes, and is much better when the "
    "**PIN** hint sends the page back to its previous physical location instead of a wear-leveled one "
    "(Awad et al., ICS'16, §5.1). Default data: real page pairs snapshotted from running Python/NumPy and "
    "SQLite processes (`data/pages/`)."
)
c1, c2 = st.columns([1, 2])
upload = None
with c1:
    st.radio(S.label("source"), ["apps", "bundled", "synthetic", "upload"], key=S.key("source"), horizontal=True,
             format_func={"apps": "The paper's applications (snapshotted here)", "bundled": "NumPy / SQLite (bundled)",
                          "synthetic": "Synthetic", "upload": "Upload .npz"}.get)
    src = st.session_state[S.key("source")]
    if src == "synthetic":
        int_input(S, "n_pages")
        st.slider(S.label("dirty_fraction"), 0.0, 1.0, step=0.05, key=S.key("dirty_fraction"))
        st.slider(S.label("zero_fraction"), 0.0, 1.0, step=0.05, key=S.key("zero_fraction"))
        st.slider(S.label("frequent_fraction"), 0.0, 1.0, step=0.05, key=S.key("frequent_fraction"))
        st.slider(S.label("changed_word_fraction"), 0.0, 1.0, step=0.05, key=S.key("changed_word_fraction"))
    elif src == "upload":
        upload = st.file_uploader("Page pairs (.npz from data/pages/snapshot_pages.py)", type=["npz"],
                                  key=S.key("upload"))
        if upload is not None:  # a file that cannot be read says why right here, under the upload
            try:
                _read_npz(upload.getvalue())
            except Exception as exc:  # noqa: BLE001 - shown as a message; the other inputs stay
                show_error(ValueError(str(exc).removeprefix("upload: ")) if isinstance(exc, ValueError) else exc,
                           "Page pairs (.npz)")
                upload = None
    st.radio(S.label("no_pin_old"), ["random", "other-page"], key=S.key("no_pin_old"), horizontal=True,
             format_func={"random": "random bits (paper)", "other-page": "another real page"}.get)
    st.checkbox(S.label("metadata_in_nvm"), key=S.key("metadata_in_nvm"),
                help="MFWR's bitmap and frequent words written to NVM. Off: kept in the page's struct page, as the "
                     "paper allows.")
    int_input(S, "seed")
    st.markdown("**Lifetime (Figure 9)**")
    float_input(S, "baseline_rate_MBps", help="Default: the page write-back rate measured on the paper's own Lulesh, traced here (PCM at "
                         "1:4, FIFO, Lulesh's measured time per reference), rounded to 0.1 MB/s; the paper-implied "
                         f"rate ({param('lifetime.lulesh_write_rate_Bps').value / 1e6:,.0f} MB/s, ~5 years) would "
                         "only reproduce the paper's 5 years by construction.", format="%.4g")
    float_input(S, "capacity_gb", help=param_help("memext.nvm_capacity_bytes"))
    float_input(S, "endurance", help=f"Default: catalogue pcm-memext [{get_device('pcm-memext').value_kind('endurance_writes_per_cell')}: "
                         f"{get_device('pcm-memext').source}]", format="%.3g")

scn = scenario_controls(S, page="write-reduction")
if scn is not None:
    with user_errors("Write reduction"):
        if scn.source == "upload" and upload is None:
            st.info("Upload a page-pair .npz to analyse it.", icon=":material/upload_file:")
            st.stop()
        with st.spinner("Counting written cells …"):
            tab, n, dirty, meta = _table(scn.source, upload.getvalue() if upload is not None else None,
                                         scn.n_pages, scn.dirty_fraction, scn.zero_fraction, scn.frequent_fraction,
                                         scn.changed_word_fraction, scn.no_pin_old, scn.metadata_in_nvm, scn.seed)
        with c2:
            allrows = tab[tab.workload == "all"]
            bad = wr.check_ordering(allrows)
            row = metric_row()
            row.metric("Evicted pages", f"{n:,}")
            row.metric("Dirty pages", f"{dirty:.1%}")
            row.metric("Paper's ordering (Fig. 8)", "holds" if not bad else "violated")
            if bad:
                st.warning("Ordering violated: " + "; ".join(bad))
            # horizontal bars, schemes from the top in the paper's order: the scheme names read level
            fig = figure()
            for wname, g in tab.groupby("workload", sort=False):
                # a zero bar is invisible: labelled "0", so "nothing written" does not read as "not run"
                fig.add_bar(y=[LABEL[s] for s in g.scheme], x=g.bytes_written_per_page, name=wname, orientation="h",
                            text=["0" if v == 0 else "" for v in g.bytes_written_per_page], textposition="outside",
                            constraintext="none", textfont=dict(size=11), cliponaxis=False)
            fig.update_layout(barmode="group", height=bar_chart_height(len(tab), px_per_bar=FIG8_PX_PER_BAR),
                              yaxis=dict(autorange="reversed"))
            show(style(fig, title="Cells written per evicted page (Figure 8)", y="write-reduction scheme",
                       x="bytes of cells written per page [bytes]"), key="wr-fig8")
            download_csv(tab, "write-reduction-figure8.csv", key="dl-wr-fig8", provenance=wr.write_reduction_keys())
        st.subheader("Savings vs the non-inclusive baseline: ours and the paper's")
        cmp_ = allrows[["scheme", "bytes_written_per_page", "lines_written_per_page", "saving_vs_baseline",
                        "paper_saving"]].copy()
        cmp_["scheme"] = cmp_["scheme"].map(LABEL)
        table(cmp_, column_config={
            "saving_vs_baseline": st.column_config.NumberColumn("saving (ours)", format="percent"),
            "paper_saving": st.column_config.NumberColumn("saving (paper avg.)", format="percent")})
        download_csv(cmp_, "write-reduction-vs-paper.csv", key="dl-wr-cmp", provenance=wr.write_reduction_keys())
        st.caption(
            "Paper: averages over six DOE proxy applications with ~16 GB footprints (inclusion 49.5 %, +MFWR-1W "
            "61.5 %, DCW 83.8 % without / 95 % with PIN). Ours: the pages sampled here. Inclusion saves exactly "
            "the share of clean evicted pages, which depends on the workload (the paper reports < 10 % to 90 %); "
            "random old content makes DCW without PIN flip half of the bits it writes; MFWR shifts words inside "
            "the packed image whenever a frequent word appears or disappears, so MFWR+DCW+PIN can write more "
            "than plain DCW+PIN."
        )
        st.subheader("Lifetime per scheme (Figure 9)")
        life = wr.lifetime_by_scheme(allrows, scn.baseline_rate_MBps * 1e6, capacity_bytes=scn.capacity_gb * 1e9,
                                     endurance_writes_per_cell=scn.endurance)
        fig = figure(go.Bar(y=[LABEL[s] for s in life.scheme], x=life.lifetime_years.replace(np.inf, np.nan),
                            name="lifetime", orientation="h"))
        fig.update_layout(height=bar_chart_height(len(life)), yaxis=dict(autorange="reversed"))
        with user_errors("How sure? band"):  # per scheme: its measured cells per page held, the rest sampled
            finite = life[np.isfinite(life.lifetime_years)]
            b = point_bands(S, scn, {r.scheme: (lambda r=r: _life_model(scn, float(r.write_rate_MBps) * 1e6))
                                     for r in finite.itertuples()}, key="wr-fig9", content=tab.to_json())
            add_error_bars(fig, [LABEL[s] for s in b.x], b.p5, b.p50, b.p95, n=scn.uq_samples, horizontal=True)
        show(style(fig, y="write-reduction scheme", x="lifetime [years]", logx=True), key="wr-fig9")
        values = {"memext.nvm_capacity_bytes": scn.capacity_gb * 1e9}
        life_keys = wr.lifetime_by_scheme_keys(scn.endurance)
        assumption_note(life_keys, values)
        download_csv(life, "write-reduction-figure9.csv", key="dl-wr-fig9", provenance=life_keys, values=values)
        if meta:
            with st.expander("Where the pages come from"):
                _provenance(meta)

if scn is not None and not (scn.source == "upload" and upload is None):
    with user_errors("How sure?"):
        best = life[np.isfinite(life.lifetime_years)].sort_values("lifetime_years").iloc[-1]
        st.caption(f"Lifetime with {LABEL[best.scheme]} (the longest-lived scheme here): {best.bytes_written_per_page:,.0f} "
                   "bytes of cells written per evicted page, counted once on these pages; the baseline write rate, "
                   "the endurance and the wear-leveling efficiency sampled.")
        how_sure(S, scn, _life_model(scn, float(best.write_rate_MBps) * 1e6), key="wr", content=tab.to_json())
