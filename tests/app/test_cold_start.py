"""Cold start (issue 18): what a fresh server process imports before a page needs it.

Each check runs in a new interpreter (``sys.modules`` of the test process already holds everything).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Imported on demand only: scipy.stats (~1 s: the How-sure designs and distributions), numba (~0.5 s).
HEAVY = ("scipy.stats", "scipy.special", "numba")


def _loaded_after(code: str) -> dict[str, bool]:
    prog = (f"import json, sys\nsys.path.insert(0, {str(ROOT)!r})\n{code}\n"
            f"print(json.dumps({{m: m in sys.modules for m in {list(HEAVY)!r}}}))")
    out = subprocess.run([sys.executable, "-c", prog], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_the_app_shell_imports_no_heavy_module():
    # app/main.py run outside a server (bare mode): its shell, navigation and the default page (home)
    assert _loaded_after("import app.main") == dict.fromkeys(HEAVY, False)


@pytest.mark.parametrize("module", ["models.uncertainty", "app.components.how_sure", "app.components.bands"])
def test_the_uncertainty_layer_imports_scipy_stats_when_it_samples(module):
    assert _loaded_after(f"import {module}")["scipy.stats"] is False


def test_a_design_still_comes_from_scipy_stats_qmc():
    got = _loaded_after("from models.uncertainty.sampling import unit_samples\nunit_samples(2, 4, seed=0)")
    assert got["scipy.stats"] is True


def test_warmup_refuses_an_unknown_page():
    from app import warmup

    with pytest.raises(SystemExit) as e:
        warmup.main(["--pages", "lifetime,nope"])
    assert e.value.code == 2
