"""Deeply nested JSON / TOML from a user is a clear error naming the document (issue 42 item 10)."""

from __future__ import annotations

import base64
import zlib

import pytest

from models.nesting import MAX_DEPTH, NestingError, loads_json, loads_toml

DEEP_JSON = '{"jobs": ' + "[" * 50_000 + "]" * 50_000 + "}"
DEEP_TOML = "a = " + "[" * 50_000 + "]" * 50_000 + "\n"


def test_helpers_bound_the_depth_without_recursing():
    for text in (DEEP_JSON, "[" * 100_000):
        with pytest.raises(NestingError, match="x.json: nested deeper than 64 levels"):
            loads_json(text, what="x.json")
    with pytest.raises(NestingError, match="s.toml: nested deeper"):
        loads_toml(DEEP_TOML, what="s.toml")
    # parsed fine by the parser, but deeper than any walk after it should recurse
    with pytest.raises(NestingError):
        loads_json("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), what="x")
    assert loads_json("[" * MAX_DEPTH + "]" * MAX_DEPTH, what="x") == eval("[" * MAX_DEPTH + "]" * MAX_DEPTH)


def test_plan_fio_and_sweep_name_the_file(tmp_path, capsys):
    """``plan --fio`` and ``sweep`` ended in a RecursionError traceback."""
    from cli.main import main

    fio = tmp_path / "deep.json"
    fio.write_text(DEEP_JSON)
    spec = tmp_path / "deep.toml"
    spec.write_text(DEEP_TOML)
    def rc(argv):
        try:
            return main(argv)
        except SystemExit as e:
            return e.code

    assert rc(["plan", "--fio", str(fio), "--device", "pcm-samsung-20nm"]) not in (0, None)
    err = capsys.readouterr().err
    assert "deep.json: fio JSON: nested deeper" in err and "Traceback" not in err
    assert rc(["sweep", str(spec), "--out", str(tmp_path / "o.parquet")]) not in (0, None)
    assert "sweep spec deep.toml: nested deeper" in capsys.readouterr().err


def test_other_user_json_readers_refuse_nesting():
    from models.devices import _URL_VERSION, decode_devices
    from models.storage.device_char import read_fio_json
    from models.sweep.spec import parse_spec

    with pytest.raises(ValueError, match="fio JSON: nested deeper"):
        read_fio_json(DEEP_JSON.encode())
    link = f"{_URL_VERSION}." + base64.urlsafe_b64encode(zlib.compress(("[" * 20_000).encode())).decode()
    with pytest.raises(ValueError, match="device link: nested deeper"):
        decode_devices(link)
    with pytest.raises(ValueError, match="sweep spec: nested deeper"):
        parse_spec(DEEP_TOML)


def test_skipped_fio_jobs_of_a_nested_upload_are_none():
    """The planner's fio upload note (an internal-error box for a nested upload)."""
    from app.components.inputs import fio_skipped_jobs

    assert fio_skipped_jobs(DEEP_JSON.encode(), []) == []
