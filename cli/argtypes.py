"""Argument types of the subcommands' number options, read as the app's fields read them.

``--requests 2e5`` is 200,000 and ``--block-size 4,096`` is 4096 (argparse's ``type=int`` refused
``1e3``); ``--read-ns nan`` is refused with the option's name, as the app refuses ``nan`` in a field.
Every number option of :mod:`cli.commands` uses one of these (``tests/cli`` checks that none uses
``type=int`` or ``type=float``).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from reporting.typed_numbers import parse_int, parse_number

__all__ = ["whole_number", "number", "whole_within", "refusing"]


def _refusing(parse: Callable[[str], float]) -> Callable[[str], float]:
    """``parse`` with its ValueError given to argparse, which prints it after the option's name."""
    def read(text: str):
        try:
            return parse(text)
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from None

    return read


#: :func:`_refusing` for the subcommands' own argument types (a parser raising ValueError).
refusing = _refusing


#: A whole number as typed (``1e3``, ``200,000``): ``whole_number("2e5")`` is 200000.
whole_number = _refusing(parse_int)
#: A finite number as typed (``1.2e2``, ``4,096``); ``nan``, ``inf`` and empty are refused.
number = _refusing(parse_number)


def whole_within(low: int, high: int, what: str) -> Callable[[str], int]:
    """A :func:`whole_number` within ``low..high``; the message names ``what`` it counts.

    >>> whole_within(1, 10, "samples")("1e1")
    10
    """
    def read(text: str) -> int:
        v = whole_number(text)
        if not low <= v <= high:
            raise argparse.ArgumentTypeError(f"{what} must be within {low:,}..{high:,} (got {v:,})")
        return v

    read.__name__ = what.replace(" ", "_")  # argparse names the type in its message
    return read
