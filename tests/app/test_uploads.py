"""The planner's upload files (app/components/uploads.py): one private file per content, the user's file name never
a path, stale files pruned."""

from __future__ import annotations

import os
import time

import pytest

from app.components.uploads import prune_uploads, store_upload, upload_dir, workload_from_bytes
from tests import ROOT

FIX = ROOT / "tests" / "fixtures" / "plan"


def test_upload_bytes_never_use_the_filename_as_a_path():
    data = (FIX / "small_msr.csv").read_bytes()
    a = workload_from_bytes(data, "../../../etc/shadow.csv")
    b = workload_from_bytes(data, "x.csv", name="again")
    assert a.kind == "block" and a.name == "shadow" and a.source == b.source  # one private file per content
    assert "shadow" not in a.source and "etc" not in a.source
    w = workload_from_bytes(b"0 0 8 8 1\n1000 0 16 8 0\n", "../../etc/passwd", name="mine")
    assert (w.kind, w.name) == ("block", "mine") and "passwd" not in w.source
    with pytest.raises(ValueError, match="empty"):
        workload_from_bytes(b"", "e.csv")
    with pytest.raises(ValueError, match="expected the file's bytes"):
        workload_from_bytes("text", "s.csv")
    with pytest.raises(ValueError, match="notfio.json"):
        workload_from_bytes(b'{"a": 1}', "notfio.json")
    with pytest.raises(ValueError) as e:  # a truncated gzip: the message named the private copy's /tmp path
        workload_from_bytes(b"\x1f\x8b\x08\x00trunc", "t.csv.gz")
    assert str(e.value).startswith("t.csv.gz: corrupt or truncated gzip") and "upload" not in str(e.value)


def test_an_upload_is_stored_once_in_a_private_folder_with_its_extension():
    p = store_upload(b"0 0 8 8 1\n", "dir/trace.CSV.gz")
    assert p.parent == upload_dir() and p.name.startswith("upload-") and p.name.endswith(".csv.gz")
    assert p.read_bytes() == b"0 0 8 8 1\n"
    if hasattr(os, "getuid"):
        assert p.parent.stat().st_mode & 0o077 == 0
    past = time.time() - 3600
    os.utime(p, (past, past))
    assert store_upload(b"0 0 8 8 1\n", "other.csv.gz") == p and p.stat().st_mtime > past  # reused: kept a day more


def test_stale_uploads_are_pruned_and_reused_ones_kept(tmp_path):
    old, fresh = tmp_path / "upload-old.trace", tmp_path / "upload-new.trace"
    other = tmp_path / "not-an-upload.trace"
    for f in (old, fresh, other):
        f.write_bytes(b"x")
    past = time.time() - 2 * 24 * 3600
    os.utime(old, (past, past))
    os.utime(other, (past, past))
    assert prune_uploads(tmp_path) == 1
    assert not old.exists() and fresh.exists() and other.exists()


def _slot(data: bytes, ext: str):
    import hashlib

    return upload_dir() / f"upload-{hashlib.sha256(data).hexdigest()[:32]}{ext}"


def test_a_slot_prefilled_with_other_bytes_is_rewritten_not_analysed():
    """Issue 42 item 11: another user's bytes planted under the upload's content name are not what is read."""
    data = b"0 0 8 8 1\n1000 0 16 8 0\n7 0 99 8 1\n"
    slot = _slot(data, ".trace")
    slot.unlink(missing_ok=True)
    slot.write_bytes(b"0 0 0 2147483648 1\n")  # pre-filled: same name, other content
    w = workload_from_bytes(data, "mine.trace")
    assert w.source == str(slot) and slot.read_bytes() == data


def test_an_upload_that_does_not_read_is_not_kept():
    """Issue 42 item 12: unreadable uploads (a 100 MB random file was stored for a day) are deleted."""
    data = os.urandom(4096)
    with pytest.raises(ValueError):
        workload_from_bytes(data, "noise.json")
    assert not _slot(data, ".json").exists()


def test_the_upload_folder_is_bounded_in_bytes_oldest_first(tmp_path):
    """Issue 42 item 12: while the folder and the incoming upload exceed the cap, the oldest files go."""
    now = time.time()
    files = []
    for k in range(4):  # 100 bytes each, k hours old (k = 3 the oldest)
        f = tmp_path / f"upload-{k}.trace"
        f.write_bytes(b"x" * 100)
        os.utime(f, (now - 3600 * k, now - 3600 * k))
        files.append(f)
    assert prune_uploads(tmp_path, max_bytes=350, incoming=100) == 2
    assert [f.exists() for f in files] == [True, True, False, False]


def test_an_upload_whose_full_read_fails_in_a_plan_is_not_kept(tmp_path):
    """Issue 42 item 12: the sniff passes, the full parse inside the plan fails; the stored copy is deleted."""
    from app.components.uploads import forget_uploads
    from models.planner.plan import plan

    data = b"0 0 8 8 1\n" * 20_000 + b"1 0 16 x 0\n"  # the bad line is past what the kind sniff reads (64 KiB)
    w = workload_from_bytes(data, "late-error.trace", name="late")
    assert os.path.isfile(w.source)
    res = plan([w, "mqsim:tpcc-small"], devices=["pcm-samsung-20nm"])
    assert [n for n, _ in res.errors] == ["late"]
    outside = tmp_path / "upload-keep.trace"
    outside.write_bytes(data)
    assert forget_uploads([w.source, str(outside), "mqsim:tpcc-small"]) == 1
    assert not os.path.exists(w.source) and outside.exists()  # only the upload folder's copy goes
