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

from pydantic import AfterValidator, BeforeValidator

from app.components.provenance import param_help, params_help
from models.storage import hdd
from reporting.number_text import exact_power_text
from reporting.typed_numbers import parse_int, parse_number

__all__ = ["GENERIC_HDD", "HddProfile", "hdd_profiles", "check_hdd_profile", "hdd_keys", "hdd_help",
           "number_list", "number_text", "param_help", "params_help", "SciInt", "parse_int", "int_input",
           "float_input", "text_list_input", "field_note", "parse_number", "check_number", "range_text",
           "whole_number_input", "decimal_input"]


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
    """Provenance keys of an HDD profile's numbers: :func:`models.storage.hdd.drive_keys` (the model's)."""
    from models.storage.hdd import drive_keys

    return drive_keys(profile)


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


# --- Inputs that say why a value is not applied (issue 18) -------------------------------------------------
#
# Streamlit's number_input parses "1e3" as 1 in an integer field and silently refuses a value
# outside min/max in the browser (the range only in a tooltip). The helpers below draw the
# widget without browser-side bounds, show the allowed range under it, and show, right there,
# why a value is not applied and which value is used instead (with the label the user sees).


#: Scenario field type of an integer typed as text: reads ``1e3``, ``2e5``, ``200,000``; rejects ``1.5``.
SciInt = Annotated[int, BeforeValidator(parse_int)]


def bound_text(x: float) -> str:
    """A range bound as a caption shows it: a power of ten from 10⁷ up as ``10¹²``, else grouped digits.

    >>> bound_text(1e12), bound_text(30000), bound_text(1 << 30), bound_text(0.5), bound_text(1e6)
    ('10¹²', '30,000', '1,073,741,824', '0.5', '1,000,000')
    """
    x = float(x)
    return exact_power_text(x) or (f"{int(x):,}" if x == int(x) and abs(x) < 1e15 else f"{x:,.6g}")


def range_text(lo: float | None, hi: float | None, *, lo_open: bool = False, hi_open: bool = False,
               zero: str | None = None) -> str:
    """The allowed values of a number field, as the caption under it and its refusal message say them
    (``zero``: what 0 means when 0 is allowed besides the range, e.g. ``"unlimited"``).

    >>> range_text(1, 64), range_text(0, 1e12, lo_open=True), range_text(0, None)
    ('1 – 64', '> 0 and ≤ 10¹²', '≥ 0')
    >>> range_text(0, 1e18, lo_open=True, zero="unlimited")
    '0 (unlimited) or > 0 and ≤ 10¹⁸'
    """
    lo_s = None if lo is None else ("> " if lo_open else "≥ ") + bound_text(lo)
    hi_s = None if hi is None else ("< " if hi_open else "≤ ") + bound_text(hi)
    if lo_s and hi_s:
        text = f"{bound_text(lo)} – {bound_text(hi)}" if not (lo_open or hi_open) else f"{lo_s} and {hi_s}"
    else:
        text = lo_s or hi_s or "any number"
    return f"0 ({zero}) or {text}" if zero else text


def _bounds_text(cls, field: str) -> str | None:
    """``"allowed: 1 – 1,000,000"`` (``"allowed: > 0 and ≤ 1"`` for an open bound) of a scenario field's
    bounds; None without bounds."""
    from app.components.scenario import field_bounds

    lo, hi = field_bounds(cls, field)
    if lo is None and hi is None:
        return None
    as_int = cls.model_fields[field].annotation is int
    if as_int:  # an open bound of a whole number is the next whole number
        lo = lo and ("ge", lo[1] + 1 if lo[0] == "gt" else lo[1])
        hi = hi and ("le", hi[1] - 1 if hi[0] == "lt" else hi[1])
    return "allowed: " + range_text(lo and lo[1], hi and hi[1], lo_open=bool(lo) and lo[0] == "gt",
                                    hi_open=bool(hi) and hi[0] == "lt")


def field_note(cls, field: str, container=None) -> None:
    """Under a widget: why its value is not applied, with the label the user sees and the value used
    instead, if it is not. Call it right after drawing any input of a scenario field that the
    helpers below do not draw (selects, multiselects, text fields, device pickers): the page's error
    box then only points to the message here.
    """
    import streamlit as st

    from app.components.errors import md_escape
    from app.components.scenario import field_message, note_shown

    msg = field_message(cls, field)
    if msg:
        (container or st).error(f"**{md_escape(cls.label(field))}**: {md_escape(msg, 300)}",
                                icon=":material/error:")
        note_shown(cls.key(field))


def int_input(cls, field: str, *, container=None, help: str | None = None, disabled: bool = False) -> None:
    """A whole-number input of scenario field ``field`` (a :data:`SciInt`): text read as ``1e3`` = 1000.

    ``disabled``: shown but not editable (say why in ``help``: the input has no effect in this setting).

    Shows the allowed range under the field and, when the value is not applied, why. Its label is the
    field's declared title (:meth:`app.components.scenario.Scenario.label`), as in every message about it.
    """
    import streamlit as st

    c = container or st
    label = cls.label(field)
    key = cls.key(field)
    v = st.session_state.get(key)
    if not isinstance(v, str):  # a default, URL or scenario-file value: shown as the text the user edits
        st.session_state[key] = "" if v is None else str(v)
    rng = _bounds_text(cls, field)
    c.text_input(label, key=key, help=help, placeholder="e.g. 1000 or 1e3", disabled=disabled)
    if rng:
        c.caption(rng)
    field_note(cls, field, c)


def float_input(cls, field: str, *, container=None, help: str | None = None, step: float | None = None,
                format: str = "%g", overridden: str | None = None) -> None:
    """A number input of scenario field ``field`` without browser-side bounds: an out-of-range value
    reaches the page, which says why it is not applied (the allowed range is shown under the field). Its
    label is the field's declared title.

    ``overridden``: the page uses another value in place of the field (e.g. a measured one); the field
    is then greyed out and this text, under it, says what is used instead (never a value shown but unused)."""
    import streamlit as st

    from app.components.scenario import require_number

    c = container or st
    label = cls.label(field)
    require_number(cls, field)
    key = cls.key(field)
    v = st.session_state.get(key)
    if isinstance(v, int) and not isinstance(v, bool):
        st.session_state[key] = float(v)
    # value=None: an emptied field (also what the browser leaves of "abc", "nan" or "1e400") reads as empty, not
    # as the widget's default 0 -- the message said "got 0.0" for a value the user never typed
    c.number_input(label, key=key, help=help, step=step, format=format, value=None, disabled=bool(overridden))
    rng = f"Not used: {overridden}" if overridden else _bounds_text(cls, field)
    if rng:
        c.caption(rng)
    field_note(cls, field, c)


def text_list_input(cls, field: str, *, container=None, help: str | None = None) -> None:
    """A number-list text input (:func:`number_text` field) with its message under it; its label is the field's
    declared title."""
    import streamlit as st

    c = container or st
    label = cls.label(field)
    c.text_input(label, key=cls.key(field), help=help)
    field_note(cls, field, c)


def fio_skipped_jobs(raw: bytes, kept_jobs) -> list[str]:
    """Names of the jobs of an uploaded fio JSON that gave no result row (``kept_jobs``: the job
    column of :func:`models.storage.device_char.read_fio_json`'s frame), so the page can say which
    jobs it left out instead of silently showing fewer.

    >>> import json
    >>> doc = {"jobs": [{"jobname": "a"}, {"jobname": "b"}, "junk"]}
    >>> fio_skipped_jobs(json.dumps(doc).encode(), ["a"])
    ['b', 'job2']
    """
    from models.nesting import loads_json

    text = raw.decode("utf-8", errors="replace")
    try:
        jobs = loads_json(text[max(text.find("{"), 0):], what="fio JSON").get("jobs", [])
    except (ValueError, AttributeError):
        return []
    if not isinstance(jobs, list):
        return []
    names = [str(j.get("jobname", f"job{i}")) if isinstance(j, dict) else f"job{i}" for i, j in enumerate(jobs)]
    kept = {str(j) for j in kept_jobs}
    return [n for n in names if n not in kept]


def check_number(x: float, *, low: float | None, high: float | None, lo_open: bool = False,
                 zero: str | None = None) -> float:
    """``x`` if it is allowed (:func:`range_text` of the same arguments), else a ValueError saying what is.

    >>> check_number(0, low=0, high=3e4, lo_open=True, zero="n/a")
    0
    >>> check_number(-4, low=0, high=3e4, lo_open=True, zero="n/a")
    Traceback (most recent call last):
    ...
    ValueError: give 0 (n/a) or > 0 and ≤ 30,000 (got -4)
    """
    ok = (zero is not None and x == 0) or ((low is None or (x > low if lo_open else x >= low))
                                           and (high is None or x <= high))
    if not ok:
        raise ValueError(f"give {range_text(low, high, lo_open=lo_open, zero=zero)} (got {x:,.6g})")
    return x


def _text_number_input(key: str, label: str, *, read: Callable[[str], float], allowed: str, default: float,
                       show: Callable[[float], str], container=None, help: str | None = None,
                       refused: str | None = None, placeholder: str = "e.g. 1000 or 1e3",
                       below=None) -> float | None:
    """A text input under session key ``key`` read by ``read`` (which raises ValueError with the reason);
    ``allowed`` is shown under it and ``show`` writes the value used instead. A refused value is shown as
    not applied, next to the input, with the last valid value (else ``default``) returned instead -- or,
    with ``refused`` (a form that saves all or nothing), what happens instead, and None. ``below``: where the
    allowed range and a refusal go (default: the input's ``container``), e.g. under a row holding the input and
    its unit select."""
    import streamlit as st

    from app.components.errors import md_escape

    c = container or st
    under = below or c
    ss = st.session_state
    good_key = f"{key}.__good"
    v = ss.get(key)
    if v is None or not isinstance(v, str):  # a default or a scenario value: shown as the text the user edits
        d = default if v is None else v
        ss[key] = f"{d:.12g}" if isinstance(d, float) else str(d)
    c.text_input(label, key=key, help=help, placeholder=placeholder)
    under.caption(f"allowed: {allowed}")
    try:
        n = read(ss[key])
    except ValueError as e:
        from app.components.scenario import note_shown

        used = ss.get(good_key, default)
        then = refused if refused is not None else f"not applied; using {show(used)}"
        under.error(f"**{md_escape(label)}**: " + md_escape(f"{e} -- {then}", 300), icon=":material/error:")
        note_shown(key)
        return None if refused is not None else used
    ss[good_key] = n
    return n


def whole_number_input(key: str, label: str, *, low: int, high: int | None, default: int, container=None,
                       help: str | None = None, refused: str | None = None) -> int | None:
    """A whole-number text input under session key ``key`` outside a Scenario (e.g. the trace picker):
    reads ``2e5`` as 200000; a value that is not a whole number in ``low..high`` (``high`` None: no maximum) is
    shown as not applied, next to the input, and the last valid value (else ``default``) is returned instead.

    ``refused`` (e.g. in a form that saves all or nothing): what happens instead, shown after the reason
    ("the device is not saved"); the function then returns None for a refused value."""
    def read(text: str) -> int:
        n = parse_int(text)
        if high is None and n < low:
            raise ValueError(f"give a whole number ≥ {low:,} (got {n:,})")
        if high is not None and not low <= n <= high:
            raise ValueError(f"give a whole number within [{low:,}, {high:,}] (got {n:,})")
        return n

    return _text_number_input(key, label, read=read, allowed=range_text(low, high), default=default,
                              show=lambda n: f"{n:,}", container=container,
                              help=help, refused=refused)


def decimal_input(key: str, label: str, *, low: float | None, high: float | None, default: float,
                  lo_open: bool = False, zero: str | None = None, container=None, help: str | None = None,
                  refused: str | None = None, below=None) -> float | None:
    """A number text input under session key ``key`` outside a Scenario (e.g. the custom-device form):
    reads ``1e8`` and ``4,096``; empty, ``nan`` or a value outside :func:`range_text` (``low``, ``high``,
    ``lo_open``, ``zero``) is refused next to the input, as :func:`whole_number_input` does; ``below``: where
    the allowed range and a refusal go (default: ``container``)."""
    return _text_number_input(key, label, read=lambda t: check_number(parse_number(t), low=low, high=high,
                                                                      lo_open=lo_open, zero=zero),
                              allowed=range_text(low, high, lo_open=lo_open, zero=zero), default=default,
                              show=lambda x: f"{x:,.6g}", container=container, help=help,
                              refused=refused, placeholder="e.g. 120 or 1.2e2", below=below)
