"""Provenance in the app: help texts, "depends on assumed values" notes, export headers.

Every result's registered parameters (:mod:`models.provenance`) and device values
(``"device:<name>.<column>"``) come from its model as a list of *keys* (e.g.
:func:`models.storage.file_cache.break_even_keys`, ``<model module>.provenance_keys_for``; pages
compose none), which the page passes to :func:`assumption_note` (under the result) and to
:func:`app.components.export.download_csv` (``provenance=``: ``# `` header lines of the CSV); for
inputs it uses :func:`param_help` for the help text, so no page writes a provenance by hand.

``values`` (key -> the value the result used) marks keys whose value the user changed: they
are reported as ``user-defined`` instead of the registry's kind.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from models.devices import DeviceProfile
from models.provenance import PARAMS, UNVERIFIED, USER_DEFINED, param, provenance_of, trace_keys
from models.provenance import device_keys as _device_keys
from reporting.number_text import value_text

__all__ = ["param_help", "params_help", "device_keys", "trace_keys", "resolve", "unverified", "assumption_note", "export_header",
           "provenance_frame"]


def _devices() -> dict[str, DeviceProfile]:
    from app.components.device_store import all_devices

    return all_devices()


def _fmt(v) -> str:
    """A value in a CSV comment or a source text: compact, without separators (a comment line turns "," into ";")."""
    return f"{v:g}" if isinstance(v, (int, float)) else str(v)


def param_help(name: str, text: str | None = None) -> str:
    """Help text of an input whose default is the registered parameter ``name``.

    ``text`` (default: the parameter's description) followed by the default and ``[kind: source]``.

    >>> param_help("memext.eviction_buffer_pages", "Buffer.")  # doctest: +ELLIPSIS
    "Buffer. Default 256 pages [assumed: seed 002 §2: 'a pre-allocated fixed-size eviction buffer ...]"
    """
    p = param(name)
    head = text if text is not None else p.description[:1].upper() + p.description[1:] + "."
    return f"{head} Default {value_text(p.value, p.unit)} {p.label()}"  # as the notes write it: no 1e+07


def params_help(names: Iterable[str], text: str = "") -> str:
    """Help text of an input standing for several registered parameters (e.g. a preset choice):
    ``text`` then one line ``name = value unit [kind: source]`` per parameter."""
    lines = []
    for n in names:
        p = param(n)
        lines.append(f"- `{n}` = {value_text(p.value, p.unit)} {p.label()}")
    return (text + "\n\n" if text else "") + "\n".join(lines)


def device_keys(device: DeviceProfile | str, columns: Iterable[str] | None = None) -> list[str]:
    """Keys ``"device:<name>.<column>"`` of a device's set numeric values (all, or ``columns``):
    :func:`models.provenance.device_keys`, a name resolved among the session's devices too.

    >>> device_keys("pcm-memext", ["read_latency_ns", "avg_seek_ns"])
    ['device:pcm-memext.read_latency_ns']
    """
    if isinstance(device, str):
        from models.devices import get_device

        device = _devices().get(device) or get_device(device)
    return _device_keys(device, columns)


def resolve(key: str, values: Mapping[str, object] | None = None) -> dict:
    """``{key, what, value, kind, source}`` of a key; a ``values`` entry differing from the
    registered default makes it ``user-defined``."""
    if key.startswith("device:"):
        devs = _devices()
        what, kind, source = provenance_of(key, devs)
        dev_name, _, col = key[len("device:"):].rpartition(".")
        dev = devs.get(dev_name)
        value = getattr(dev, col) if dev is not None else None
    else:
        what, kind, source = provenance_of(key)
        value = PARAMS[key].value
        if values and key in values:
            used = values[key]
            try:
                same = math.isclose(float(used), float(value), rel_tol=1e-9, abs_tol=1e-12)
            except (TypeError, ValueError):
                same = used == value
            if not same:
                kind, source, value = USER_DEFINED, f"set on the page (default {_fmt(value)}: {kind})", used
    return {"key": key, "what": what, "value": value, "kind": kind, "source": source}


def unverified(keys: Iterable[str], values: Mapping[str, object] | None = None) -> list[dict]:
    """The resolved keys whose kind is derived, simulated or assumed (in order, without repeats)."""
    return [r for r in (resolve(k, values) for k in dict.fromkeys(keys)) if r["kind"] in UNVERIFIED]


def assumption_note(keys: Iterable[str], values: Mapping[str, object] | None = None) -> list[dict]:
    """Under a result: say which derived, simulated or assumed values it depends on (nothing if none).

    Returns the flagged entries (see :func:`unverified`).
    """
    import streamlit as st

    flagged = unverified(keys, values)
    if flagged:
        from app.components.errors import md_escape

        # a custom device's name and source are typed by users: shown as text. Values sharing one source
        # are listed together before it (a device's derived read and write latency cite one sentence once)
        groups: dict[tuple[str, str], list[str]] = {}
        for r in flagged:
            what, value = _what_value(r)
            groups.setdefault((r["kind"], r["source"]), []).append(f"**{md_escape(what)}** = {md_escape(value)}")
        items = "; ".join(f"{', '.join(vals)} ({kind}: {md_escape(_short(source))})"
                          for (kind, source), vals in groups.items())
        st.caption(f":material/warning: This result depends on derived/simulated/assumed values: {items}. "
                   "Change them where the page offers an input, or replace the device with a custom one.")
    return flagged


def _what_value(r: dict) -> tuple[str, str]:
    """(name, value with its unit) of a resolved key as a person reads them: ``hdd-7200 read latency``,
    ``8.2 ms`` (not ``hdd-7200 read_latency_ns = 8.2e+06``); the report writes them the same way."""
    from models.provenance import unit_of
    from reporting.number_text import provenance_text

    return provenance_text(r["key"], r["what"], r["value"], unit_of(r["key"]))


def _short(text: str, n: int = 220) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def _comment(text: str) -> str:
    """One ``# `` CSV comment line: no line breaks, no field separators or quotes (formula-safe:
    the whole line stays one cell starting with ``#``)."""
    t = " ".join(str(text).split())
    return "# " + t.replace(",", ";").replace('"', "'")


def export_header(keys: Iterable[str], values: Mapping[str, object] | None = None) -> list[str]:
    """``# `` comment lines naming the provenance of every key a result used (for CSV exports).

    >>> export_header(["memext.submit_ns"])[1]  # doctest: +ELLIPSIS
    "# memext.submit_ns = 3500 ns: published: seed 002 §5.3: ..."
    """
    keys = list(dict.fromkeys(keys))
    if not keys:
        return []
    lines = [_comment("PCM Planner export. Provenance of the defaults this result used (kind: source; "
                      "kinds: measured here / published / computed / derived from a seed result / simulated / assumed / "
                      "user-defined):")]
    for k in keys:
        r = resolve(k, values)
        unit = ""
        if not k.startswith("device:") and PARAMS[k].unit != "-":
            unit = f" {PARAMS[k].unit}"
        lines.append(_comment(f"{k} = {_fmt(r['value'])}{unit}: {r['kind']}: {r['source']}"))
    return lines


def provenance_frame(keys: Iterable[str], values: Mapping[str, object] | None = None):
    """The resolved keys as a table (columns ``key, what, value, kind, source``)."""
    import pandas as pd

    return pd.DataFrame([resolve(k, values) for k in dict.fromkeys(keys)],
                        columns=["key", "what", "value", "kind", "source"])
