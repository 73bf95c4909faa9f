"""Shared input fields of the pages: comma-separated number lists, the HDD profile choice, provenance help.

Help texts of inputs whose default is a registered model constant come from the registry
(:func:`param_help`: the text, the default and ``[kind: source]``), never typed by hand.

Scenario field types that validate themselves (errors name the field), and the parser the page
uses on the validated text, so both read it the same way::

    SizesMb, parse_sizes_mb = number_text("sizes_mb", what="cache sizes in MB", example="16, 64",
                                          low=0.01, high=1e6)

    class MyScenario(Scenario):
        drive: HddProfile = GENERIC_HDD
        sizes_mb: SizesMb = "16, 64"
    ...
    sizes = parse_sizes_mb(scn.sizes_mb)   # list[float]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from pydantic import AfterValidator

from app.components.provenance import param_help, params_help
from models.storage import hdd

__all__ = ["GENERIC_HDD", "HddProfile", "hdd_profiles", "check_hdd_profile", "hdd_keys", "hdd_help",
           "number_list", "number_text", "param_help", "params_help"]

#: The generic 7200 rpm catalogue profile (:func:`models.storage.hdd.generic_drive`).
GENERIC_HDD = "hdd-7200"


def hdd_profiles() -> list[str]:
    """Drive choices of the HDD-backed pages: the generic profile, then DiskSim's drives."""
    return [GENERIC_HDD, *hdd.drive_names()]


def check_hdd_profile(v: str) -> str:
    """``v`` if it is one of :func:`hdd_profiles`, else ValueError listing the valid names."""
    valid = hdd_profiles()
    if v not in valid:
        raise ValueError(f"unknown drive {v!r}; valid: {', '.join(valid)}")
    return v


def hdd_keys(profile: str) -> list[str]:
    """Provenance keys (:mod:`app.components.provenance`) of an HDD profile's numbers: the generic
    profile's catalogue row and ``hdd.generic.*``; a DiskSim drive's registered bus times (the rest
    of a DiskSim drive is read from its published files)."""
    from models.provenance import device_keys, param_names

    if profile == GENERIC_HDD:
        return [*param_names("hdd.generic."), *device_keys(GENERIC_HDD)]
    return param_names(f"hdd.bus_ms_per_block.{profile}.")


def hdd_help(text: str = "") -> str:
    """Help of an HDD-profile choice: ``text`` and the generic profile's provenance."""
    from models.devices import get_device

    d = get_device(GENERIC_HDD)
    cols = ("avg_seek_ns", "rpm", "read_bandwidth_MBps")
    kinds = "; ".join(f"{c} {getattr(d, c):g} [{d.value_kind(c)}]" for c in cols)
    return (f"{text} {GENERIC_HDD}: {kinds} ({d.source}). " if text else f"{GENERIC_HDD}: {kinds} ({d.source}). ") \
        + params_help(["hdd.generic.capacity_bytes", "hdd.generic.surfaces"])


#: Scenario field type: a drive of :func:`hdd_profiles`.
HddProfile = Annotated[str, AfterValidator(check_hdd_profile)]


def number_list(text: str, field: str, *, what: str, example: str, low: float, high: float,
                low_open: bool = False, max_count: int | None = None) -> list[float]:
    """Numbers of a comma- (or semicolon-) separated text, checked against ``low``..``high``.

    Parameters
    ----------
    text : str
        e.g. ``"4, 64; 1024"``.
    field : str
        Scenario field name, put at the start of every error message.
    what, example : str
        Wording of the error for unparsable text ("give {what} separated by commas, e.g. {example}").
    low, high : float
        Allowed range, ``high`` included; ``low`` included unless ``low_open``.
    max_count : int, optional
        At most this many values (default: no limit).

    Raises
    ------
    ValueError
        Unparsable text, no value, too many values or a value out of range (message names ``field``).
    """
    try:
        vals = [float(x) for x in str(text).replace(";", ",").split(",") if x.strip()]
    except ValueError:
        raise ValueError(f"{field}: give {what} separated by commas, e.g. {example}") from None
    bad = [x for x in vals if not ((x > low if low_open else x >= low) and x <= high)]
    if not vals or bad or (max_count is not None and len(vals) > max_count):
        count = "1 or more" if max_count is None else f"1-{max_count}"
        interval = f"{'(' if low_open else '['}{low:g}, {high:g}]"
        raise ValueError(f"{field}: give {count} {what} within {interval}, e.g. {example}")
    return vals


def number_text(field: str, **spec) -> tuple[object, Callable[[str], list[float]]]:
    """(Scenario field type, parser) of a number-list text field named ``field``.

    ``spec``: the keyword arguments of :func:`number_list` (``what``, ``example``, ``low``,
    ``high``, ``low_open``, ``max_count``). The type is ``str`` checked by the parser.
    """

    def parse(text: str) -> list[float]:
        return number_list(text, field, **spec)

    def check(text: str) -> str:
        parse(text)
        return text

    return Annotated[str, AfterValidator(check)], parse
