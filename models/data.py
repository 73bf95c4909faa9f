"""Bundled measurement data, loaded by name.

All bundled files live in the repository's ``data/`` folder (override with the
``PCM_PLANNER_DATA`` environment variable, as the Docker image does). Every file is
described in ``data/SOURCES.md``.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

import pandas as pd

__all__ = ["data_dir", "data_path", "list_data", "read_csv"]


@cache
def data_dir() -> Path:
    """Folder holding the bundled data [path]."""
    env = os.environ.get("PCM_PLANNER_DATA")
    candidates = [Path(env)] if env else []
    candidates += [Path(__file__).resolve().parents[1] / "data", Path.cwd() / "data"]
    for c in candidates:
        if (c / "SOURCES.md").is_file():
            return c
    raise FileNotFoundError(
        "bundled data folder not found; set PCM_PLANNER_DATA to the project's data/ folder "
        f"(looked in: {', '.join(str(c) for c in candidates)})"
    )


def list_data(pattern: str = "**/*") -> list[str]:
    """Names (paths relative to ``data/``) of bundled files matching ``pattern``."""
    root = data_dir()
    return sorted(
        str(p.relative_to(root)) for p in root.glob(pattern) if p.is_file() and p.name != "SOURCES.md"
    )


def data_path(name: str) -> Path:
    """Path of the bundled file ``name`` (relative to ``data/``).

    An unknown name raises ``KeyError`` listing the valid names.

    >>> data_path("devices.csv").name
    'devices.csv'
    >>> data_path("nope.csv")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    KeyError: "unknown data file 'nope.csv'; valid names: ...
    """
    p = data_dir() / name
    if not p.is_file():
        raise KeyError(f"unknown data file {name!r}; valid names: {', '.join(list_data())}")
    return p


def read_csv(name: str, **kwargs) -> pd.DataFrame:
    """Read the bundled CSV ``name`` (comment lines start with ``#``)."""
    return pd.read_csv(data_path(name), comment="#", **kwargs)
