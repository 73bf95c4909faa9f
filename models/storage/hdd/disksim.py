"""DiskSim 4.0 parameter files: the ``*.diskspecs`` / ``*.model`` block syntax and ``*.seek`` curves.

References
----------
.. [1] J. S. Bucy, J. Schindler, S. W. Schlosser, G. R. Ganger, "The DiskSim Simulation
   Environment Version 4.0 Reference Manual", CMU-PDL-08-101, 2008 (parameter file syntax).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

__all__ = ["parse_disksim", "read_seek_file"]

_TOKEN = re.compile(r"[{}\[\],=]|[^{}\[\],=]+")


def parse_disksim(text: str, *, source: str = "<text>") -> list[tuple[str, dict]]:
    """Parse DiskSim's parameter syntax into ``[(header, block_dict), ...]``.

    Blocks are ``header { key = value, ... }``; values are numbers, words, lists
    ``[v, v, ...]`` or nested blocks ``type { ... }`` (stored as dicts with key
    ``"__type__"``). ``#`` starts a comment.

    >>> parse_disksim("disk X { A b = 1, L = [ 2, 3 ], M = t { c = 4.5 } }")
    [('disk X', {'A b': 1.0, 'L': [2.0, 3.0], 'M': {'__type__': 't', 'c': 4.5}})]
    """
    lines = [ln.split("#", 1)[0] for ln in text.splitlines()]
    toks: list[tuple[str, int]] = []
    for no, ln in enumerate(lines, 1):
        for m in _TOKEN.finditer(ln):
            t = m.group(0).strip()
            if t:
                toks.append((t, no))
    pos = 0

    def err(msg: str) -> ValueError:
        line = toks[min(pos, len(toks) - 1)][1] if toks else 0
        return ValueError(f"{source}: line {line}: {msg}")

    def peek() -> str | None:
        return toks[pos][0] if pos < len(toks) else None

    def take() -> str:
        nonlocal pos
        if pos >= len(toks):
            raise err("unexpected end of file")
        pos += 1
        return toks[pos - 1][0]

    def value():
        t = take()
        if t == "[":
            items = []
            while peek() != "]":
                if peek() == ",":
                    take()
                    continue
                items.append(value())
            take()
            return items
        if t in "{}],=":
            raise err(f"unexpected {t!r}")
        if peek() == "{":
            return block(t)
        try:
            return float(t)
        except ValueError:
            return t

    def block(kind: str) -> dict:
        if take() != "{":
            raise err("expected '{'")
        d: dict = {"__type__": kind}
        while True:
            t = peek()
            if t is None:
                raise err(f"unterminated block {kind!r}")
            if t == "}":
                take()
                return d
            if t == ",":
                take()
                continue
            key = take()
            if take() != "=":
                raise err(f"expected '=' after {key!r}")
            d[key] = value()

    out = []
    while pos < len(toks):
        header = take()
        b = block(header)
        b.pop("__type__")
        out.append((header, b))
    return out


def read_seek_file(path: str | Path) -> tuple[np.ndarray, np.ndarray]:
    """Read a DiskSim ``*.seek`` file -> (distance [cylinders], time [ms]).

    Format: ``Seek distances measured: N`` then ``distance, time[, stddev]`` lines.
    """
    path = Path(path)
    lines = path.read_text().splitlines()
    if not lines or not lines[0].lower().startswith("seek distances measured"):
        raise ValueError(f"{path.name}: line 1: expected 'Seek distances measured: N'")
    try:
        n = int(lines[0].split(":")[1])
    except (IndexError, ValueError):
        raise ValueError(f"{path.name}: line 1: bad count {lines[0]!r}") from None
    d, t = [], []
    for no, ln in enumerate(lines[1:], 2):
        if not ln.strip():
            continue
        parts = [p for p in re.split(r"[,\s]+", ln.strip()) if p]
        try:
            d.append(float(parts[0]))
            t.append(float(parts[1]))
        except (IndexError, ValueError):
            raise ValueError(f"{path.name}: line {no}: expected 'distance, time', got {ln!r}") from None
    if len(d) != n:
        raise ValueError(f"{path.name}: header says {n} distances, found {len(d)}")
    d_arr, t_arr = np.asarray(d), np.asarray(t)
    if (np.diff(d_arr) <= 0).any() or (d_arr <= 0).any() or (t_arr <= 0).any():
        raise ValueError(f"{path.name}: distances must be positive and increasing, times positive")
    return d_arr, t_arr
