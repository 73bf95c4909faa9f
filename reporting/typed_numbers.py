"""Numbers as people type them, read the same way by the app's text fields and the CLI's options.

``1e3`` is a thousand, ``200,000`` and ``1_000`` have separators; ``1.5`` is not a whole number, and
empty, ``nan`` and ``inf`` are refused with a message saying what to give instead (issue 18: an integer
field read ``1e3`` as 1, and an emptied field was saved as 0).
"""

from __future__ import annotations

import math

__all__ = ["parse_int", "parse_number"]


def parse_int(v: object) -> int:
    """A whole number from an int, an integral float or text (``"2e5"``, ``"200,000"``, ``"1_000"``).

    >>> parse_int("1e3"), parse_int("2e5"), parse_int(" 200,000 "), parse_int(64.0)
    (1000, 200000, 200000, 64)
    >>> parse_int("1.5e0")
    Traceback (most recent call last):
    ...
    ValueError: give a whole number, e.g. 1000 or 1e3 (got '1.5e0' = 1.5)
    """
    if isinstance(v, bool):
        raise ValueError(f"give a whole number, e.g. 1000 or 1e3 (got {v!r})")
    if isinstance(v, int):
        return v
    text = str(v).strip().replace(",", "").replace("_", "")
    try:
        if isinstance(v, float):
            x = v
        elif text.lstrip("+-").isdigit():
            return int(text)
        else:
            x = float(text)
    except ValueError:
        raise ValueError(f"give a whole number, e.g. 1000 or 1e3 (got {str(v)[:40]!r})") from None
    if not math.isfinite(x) or x != math.floor(x) or abs(x) > 2 ** 63:
        raise ValueError(f"give a whole number, e.g. 1000 or 1e3 (got {str(v)[:40]!r} = {x:g})")
    return int(x)


def parse_number(v: object) -> float:
    """A finite number from text as people type it (``"1e8"``, ``"1,000"``, ``"2_000"``); empty, ``nan``,
    ``inf`` and words are refused with a message saying so.

    >>> parse_number("1e8"), parse_number(" 4,096 "), parse_number(7)
    (100000000.0, 4096.0, 7.0)
    >>> parse_number("")
    Traceback (most recent call last):
    ...
    ValueError: empty: give a number, e.g. 120 or 1.2e2
    """
    if isinstance(v, bool):
        raise ValueError(f"give a number, e.g. 120 or 1.2e2 (got {v!r})")
    text = str(v).strip().replace(",", "").replace("_", "")
    if not text:
        raise ValueError("empty: give a number, e.g. 120 or 1.2e2")
    try:
        x = float(text)
    except ValueError:
        raise ValueError(f"give a number, e.g. 120 or 1.2e2 (got {str(v)[:40]!r})") from None
    if not math.isfinite(x):
        raise ValueError(f"give a finite number (got {str(v)[:40]!r})")
    return x
