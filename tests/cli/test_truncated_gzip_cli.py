"""A truncated gzip trace gives a one-line error, never a traceback, in every trace subcommand (issue 18)."""

from __future__ import annotations

import gzip

import pytest


@pytest.mark.parametrize("cmd", ["trace-stats", "mrc", "amat"])
@pytest.mark.parametrize("cut", [15, 3000])
def test_truncated_gzip_is_a_clean_error(tmp_path, run_cli, cmd, cut):
    lines = b"".join(b"%d 0 %d 8 1\n" % (i * 1000, i * 8) for i in range(2000))
    path = tmp_path / "t.gz"
    path.write_bytes(gzip.compress(lines)[:cut])
    rc, out, err = run_cli(cmd, path)
    assert rc == 2, (out, err)
    assert "corrupt or truncated gzip data" in err and "Traceback" not in err + out, err
