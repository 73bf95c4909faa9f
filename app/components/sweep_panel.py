"""Sweep panel: edit or upload a TOML sweep spec, run it on a Dask LocalCluster with progress, show the results.

The spec schema is ``docs/sweep.md``. Results stay in a per-session directory, keyed by the
spec, so re-running an unchanged spec computes nothing again. The table is shown and downloaded
formula-safe (:func:`app.components.tables.table`, CSV via :func:`app.components.download_csv`;
Parquet as written by the model). The app serves many sessions from one server, so a spec may
use bundled traces and the named models only, with at most :data:`MAX_TASKS` tasks and as many
workers as the server has CPUs (:func:`models.sweep.check_hosted`); files and ``call:`` models
run with ``pcm-planner sweep``.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import pandas as pd
import streamlit as st

from app.components.errors import user_errors
from app.components.export import download_csv
from app.components.inputs import whole_number_input
from app.components.progress import progress_bar
from app.components.tables import table

__all__ = ["sweep_panel", "EXAMPLE_SPEC", "MAX_TASKS"]

#: The spec shown first: two bundled traces, cache policies at four sizes and the file-cache model on two devices.
EXAMPLE_SPEC = """[sweep]
name = "planner"
devices = ["optane-dcpmm", "nand-flash"]

[[traces]]
name = "tpcc"
source = "mqsim:tpcc-small"

[[traces]]
name = "fin1"
source = "synthetic:fin1"
options = { n_requests = 20000, seed = 1 }

[[models]]
model = "cache_sim"
grid = { policy = ["lru", "clock", "ac"], cache_fraction = [0.05, 0.2] }

[[models]]
model = "file_cache"
grid = { cache_fraction = [0.1, 0.5] }
"""
#: Most tasks a spec submitted in the app may make [tasks].
MAX_TASKS = 500
#: Largest sweep spec upload read [bytes]: a spec is a few kB of TOML; checked before decoding.
MAX_SPEC_BYTES = 1_000_000


def _out_path(text: str) -> Path:
    """The session's result file for this spec text (same text: same file, so finished tasks are reused)."""
    root = st.session_state.get("sweep_dir")
    if root is None or not Path(root).is_dir():
        root = tempfile.mkdtemp(prefix="pcm-sweep-")
        st.session_state["sweep_dir"] = root
    digest = hashlib.blake2b(text.encode(), digest_size=6).hexdigest()
    return Path(root) / f"sweep-{digest}.parquet"


def sweep_panel(*, key: str = "sweep", scheduler: str = "local") -> None:
    """Render the sweep panel (an expander): spec editor or upload, worker count, run, results.

    Parameters
    ----------
    key : str, keyword-only
        Widget-key prefix (several panels on one page need different keys).
    scheduler : str, keyword-only
        ``"local"`` (a Dask LocalCluster, default) or ``"serial"`` (in the app's process; tests).
    """
    with st.expander("Sweep: traces × devices × parameter grids, on Dask", expanded=False, icon=":material/grid_view:"):
        st.caption("Write or upload a TOML sweep spec (schema and models: docs/sweep.md): bundled traces and "
                   f"the named models, at most {MAX_TASKS} tasks here. The same spec -- with trace files too -- runs "
                   "on a cluster with `pcm-planner sweep SPEC.toml --scheduler tcp://HOST:8786 --out "
                   "results.parquet`. Each task runs once: re-running keeps the finished tasks.")
        up = st.file_uploader("Sweep spec (.toml)", type=["toml"], key=f"{key}_upload")
        editor = f"{key}_editor"
        if up is not None and st.session_state.get(f"{key}_loaded") != up.file_id:
            # a new upload goes into the editor once (the editor's own state wins over value=, so setting
            # value= alone left the example in it); later edits of the uploaded text are kept
            if int(up.size) > MAX_SPEC_BYTES:
                st.error(f"The sweep spec file is {int(up.size):,} bytes, more than the {MAX_SPEC_BYTES:,} bytes (1 MB) "
                         "a spec may have; it was not read.")
            else:
                st.session_state[editor] = up.getvalue().decode("utf-8", errors="replace")
            st.session_state[f"{key}_loaded"] = up.file_id
        if editor not in st.session_state:
            st.session_state[editor] = EXAMPLE_SPEC
        text = st.text_area("Spec (TOML)", height=320, key=editor)
        cpus = os.cpu_count() or 1
        workers = whole_number_input(f"{key}_workers", "Workers (local processes)", low=1, high=cpus,
                                     default=min(2, cpus),
                                     help=f"Dask LocalCluster worker processes; this machine has {cpus} CPU(s)")
        if st.button("Run sweep", key=f"{key}_run", icon=":material/play_arrow:"):
            from models.sweep import check_hosted, parse_spec, run_sweep

            with user_errors("Sweep"):
                spec = parse_spec(text)
                n = len(check_hosted(spec, max_tasks=MAX_TASKS))
                out = _out_path(text)
                with progress_bar(f"Running {n} sweep task(s) on {int(workers)} worker(s)") as report:
                    res = run_sweep(spec, out, scheduler=scheduler, workers=int(workers), progress=report)
                st.session_state[f"{key}_result"] = (res.table, str(out), len(res.computed), res.reused)
        got = st.session_state.get(f"{key}_result")
        if got is not None:
            res_table, out, computed, reused = got
            st.success(f"{len(res_table)} result row(s) from {computed + reused} task(s): {computed} computed, "
                       f"{reused} reused from earlier runs.")
            models = sorted(res_table["model"].dropna().unique()) if "model" in res_table else []
            pick = st.selectbox("Model", models, key=f"{key}_model") if len(models) > 1 else None
            shown = res_table[res_table["model"] == pick] if pick is not None else res_table
            shown = shown.dropna(axis=1, how="all")
            table(shown)
            download_csv(res_table, "sweep_results.csv", "Download results (CSV)", key=f"{key}_csv")
            st.download_button("Download results (Parquet)", data=Path(out).read_bytes() if Path(out).is_file()
                               else pd.DataFrame().to_parquet(), file_name="sweep_results.parquet",
                               mime="application/octet-stream", key=f"{key}_parquet", icon=":material/download:")
