"""``pcm-planner write-reduction``: columns, page-pair files, bad files (seed 002 §5.1)."""

from __future__ import annotations

import numpy as np

from models.endurance.write_reduction import SCHEMES, synthetic_page_pairs


def test_cli_write_reduction(tmp_path, run_cli):
    rc, out, err = run_cli("write-reduction")
    assert rc == 0, err
    out = out.splitlines()
    assert out[0] == "scheme,bytes_written_per_page,saving_vs_baseline"
    assert out[1] == "baseline,4096,0"
    assert len(out) == 1 + len(SCHEMES)
    p = synthetic_page_pairs(20, seed=1)
    f = tmp_path / "pairs.npz"
    np.savez_compressed(f, old=p.old, new=p.new)
    rc, out, _ = run_cli("write-reduction", "--pages", f, "--details", "--format", "json")
    assert rc == 0 and '"paper_saving"' in out
    bad = tmp_path / "bad.npz"
    np.savez_compressed(bad, x=np.zeros(3))
    rc, _, err = run_cli("write-reduction", "--pages", bad)
    assert rc == 2 and "old" in err
    trunc = tmp_path / "trunc.npz"
    trunc.write_bytes(f.read_bytes()[:100])  # not a readable zip (was a BadZipFile traceback)
    rc, _, err = run_cli("write-reduction", "--pages", trunc)
    assert rc == 2 and "cannot read" in err
