"""Numbers, units and column names as the app and the reports write them (one formatter for both).

``scalar_text(1414.8, 3)`` is "1,415", ``scalar_text(7.2e-5, 2)`` "7.2×10⁻⁵" (never e-notation);
``human_label("read_latency_ns")`` is "read latency [ns]"; ``unit_text("us")`` is "µs". The app's grid
tables (:mod:`app.components.tables`) format columns with :func:`number_format`; a text cell, a metric,
a sentence or a report cell with :func:`number_text` / :func:`scalar_text`, so a value reads the same
everywhere.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd

__all__ = ["UNITS", "WORDS", "LABELS", "LOCALIZED_MAX", "MISSING_TEXT", "unit_text", "human_label", "power_of_ten",
           "number_format", "number_text", "scalar_text", "value_text", "provenance_text"]


#: Unit suffixes of column names -> the unit shown in brackets.
UNITS: dict[str, str] = {
    "ns": "ns", "us": "µs", "ms": "ms", "s": "s", "sec": "s", "years": "years", "days": "days", "hours": "h",
    "bytes": "B", "kib": "KiB", "mib": "MiB", "gib": "GiB", "kb": "kB", "mb": "MB", "gb": "GB", "tb": "TB",
    "mbps": "MB/s", "gbps": "GB/s", "iops": "IOPS", "pct": "%", "percent": "%", "cyl": "cylinders",
    "w": "W", "j": "J", "nj": "nJ", "pj": "pJ", "x": "×", "ratio": "×", "blocks": "blocks", "pages": "pages",
    "ops": "ops/s", "opss": "ops/s", "hz": "Hz", "ghz": "GHz", "mhz": "MHz",
}
#: Words written differently from their key.
WORDS: dict[str, str] = {
    "lru": "LRU", "ac": "AC", "dram": "DRAM", "nvm": "NVM", "pcm": "PCM", "scm": "SCM", "ssd": "SSD", "hdd": "HDD",
    "tlb": "TLB", "amat": "AMAT", "mc": "Monte Carlo", "p10": "P10", "p50": "P50", "p90": "P90", "cpu": "CPU",
    "io": "I/O", "iosize": "I/O size", "lbn": "LBN", "mrc": "MRC", "id": "ID", "rw": "R/W", "qd": "QD",
    "vs": "vs", "n": "n", "t": "t", "frac": "fraction", "cnt": "count", "avg": "mean", "std": "std. dev.",
    "fio": "fio", "dax": "DAX", "wss": "working set", "addr": "ADDR", "pf": "PF", "2x": "2×",
}
#: Whole keys with a fixed label.
LABELS: dict[str, str] = {
    "n_star": "n* [accesses]", "t_addr_ns": "T_ADDR [ns]", "t_data_ns": "T_DATA [ns]", "t_e_ns": "t_e [ns]",
    "t_r_ns": "t_r [ns]", "page_size": "page size [B]", "share_blocks": "share of blocks",
    "share_accesses": "share of accesses", "share_bytes": "share of bytes moved",
    "share_footprint_bytes": "share of footprint bytes",
}


#: A column of values >= 1 spanning more than 4 decades reads with thousands separators below this [-]
#: (13,500,000 ns), in %g above it.
LOCALIZED_MAX = 1e12
#: What an empty cell (None, NaN) of a number column shows: Streamlit's grid would show "None".
MISSING_TEXT = "—"


def unit_text(unit: str) -> str:
    """A unit as the page writes it: ``x`` -> "×", ``us`` -> "µs", ``mbps`` -> "MB/s"; others unchanged.

    >>> unit_text("x"), unit_text("us"), unit_text("years"), unit_text("MB/s"), unit_text("-")
    ('×', 'µs', 'years', 'MB/s', '-')
    """
    return UNITS.get(str(unit).lower(), str(unit)) if str(unit).lower() not in ("s", "b") else str(unit)


def human_label(key: str) -> str:
    """Header of a column key: ``demerit_ms`` -> "demerit [ms]", ``read_bandwidth_MBps`` -> "read bandwidth [MB/s]".

    Keys with spaces or brackets are taken as already human and returned unchanged.

    >>> human_label("demerit_ms"), human_label("lru_vs_none"), human_label("slowdown [×]")
    ('demerit [ms]', 'LRU vs none', 'slowdown [×]')
    """
    key = str(key)
    if key in LABELS:
        return LABELS[key]
    if " " in key or "[" in key or "(" in key or "_" not in key and key.lower() not in WORDS:
        return key
    parts = [p for p in key.split("_") if p]
    unit = ""
    if len(parts) > 1 and parts[-1].lower() in UNITS:
        unit = UNITS[parts.pop().lower()]
    words = [WORDS.get(p.lower(), p) for p in parts]
    text = " ".join(words)
    return f"{text} [{unit}]" if unit else text


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def power_of_ten(k: int) -> str:
    """``10ᵏ`` written with superscript digits (``10⁻⁹``, ``10¹²``): the app's one spelling of a power of ten.

    >>> power_of_ten(-9), power_of_ten(12)
    ('10⁻⁹', '10¹²')
    """
    return "10" + str(int(k)).translate(_SUPERSCRIPT)


def number_format(col: pd.Series, digits: int = 4) -> str | None:
    """printf format showing ``digits`` significant digits for a numeric column (None: not numeric)."""
    if pd.api.types.is_bool_dtype(col) or not pd.api.types.is_numeric_dtype(col):
        return None
    if pd.api.types.is_integer_dtype(col):
        return "localized"
    v = np.asarray(col, dtype=float)
    v = np.abs(v[np.isfinite(v) & (v != 0)])
    if v.size == 0:
        return "%.1f"
    if np.all(np.abs(v - np.round(v)) < 1e-9) and v.max() < 1e15:
        return "localized"  # whole numbers stored as floats
    lo, hi = float(v.min()), float(v.max())
    if lo >= 1 and hi < LOCALIZED_MAX and (hi >= 1e7 or hi / lo > 1e4):
        return "localized"  # 101.5 ... 13,500,000: thousands separators, up to 3 decimals (>= 4 digits)
    if lo < 1e-3 or hi >= 1e7 or hi / lo > 1e4 or (hi / lo > 100 and hi < 10**digits):
        # over two decades fixed decimals give the large values up to three digits too many (0.05 ... 11.67165);
        # below 10**digits %g writes no exponent
        return f"%.{digits}g"
    decimals = min(8, max(0, digits - 1 - math.floor(math.log10(float(np.median(v))))))
    return f"%.{decimals}f"


def number_text(v: float, fmt: str | None, digits: int = 4) -> str:
    """``v`` as the grid shows it in a number column of format ``fmt`` (:func:`number_format`'s, or
    "percent"): the text of a column that has to be text (:func:`missing_as_text`).

    >>> number_text(13500000.0, "localized"), number_text(101.5, "localized"), number_text(0.495, "percent")
    ('13,500,000', '101.5', '49.5%')
    >>> number_text(0.3740534362, "%.4f"), number_text(4e-16, "%.4g"), number_text(float("inf"), "%.4g")
    ('0.3741', '4e-16', '∞')
    """
    v = float(v)
    if not math.isfinite(v):
        return MISSING_TEXT if math.isnan(v) else ("∞" if v > 0 else "−∞")
    if fmt == "localized":  # thousands separators; decimals only while they carry one of ``digits`` digits
        dec = 0 if v.is_integer() or v == 0 else max(0, min(3, digits - 1 - math.floor(math.log10(abs(v)))))
        return f"{v:,.{dec}f}".rstrip("0").rstrip(".") if dec else f"{v:,.0f}"
    if fmt == "percent":
        return f"{v * 100:,.2f}".rstrip("0").rstrip(".") + "%"
    m = re.fullmatch(r"%\.(\d+)([fg])", fmt or "")
    if m:  # printf as the grid's, with thousands separators: 1,234,568 (a text cell is read, not sorted)
        return f"{v:,.{m.group(1)}{m.group(2)}}"
    if fmt and fmt.startswith("%"):
        return fmt % v
    return f"{v:.4g}"


#: From here up an exact power of ten reads as ``10ⁿ`` (10,000,000 = 10⁷), in a sentence, a metric or a range.
POWER_FROM = 1e7


def exact_power_text(v: float) -> str | None:
    """``10ⁿ`` (``−10ⁿ``) for a value that is exactly a power of ten of at least :data:`POWER_FROM` in size, else None:
    the one rule both :func:`scalar_text` and the input range captions follow.

    >>> exact_power_text(1e12), exact_power_text(-1e7), exact_power_text(1e6), exact_power_text(2e12)
    ('10¹²', '−10⁷', None, None)
    """
    v = float(v)
    if not math.isfinite(v) or abs(v) < POWER_FROM:
        return None
    e = round(math.log10(abs(v)))
    return ("−" if v < 0 else "") + power_of_ten(e) if abs(v) == 10.0 ** e else None


def scalar_text(v: float, digits: int = 4) -> str:
    """One number as a table would show it alone in its column (:func:`number_format` then
    :func:`number_text`): ``digits`` significant digits, thousands separators, no e-notation in 1e-3 ... 1e12.

    A number outside that range reads as a power of ten, never in e-notation, and without trailing zeros
    (a metric or a sentence is read, not lined up in a column).

    >>> scalar_text(1414.8, 3), scalar_text(36315136), scalar_text(0.3740534362), scalar_text(1.5)
    ('1,415', '36,315,136', '0.3741', '1.5')
    >>> scalar_text(7.2e-5, 2), scalar_text(-3e15, 3), scalar_text(1e20), scalar_text(1e9)
    ('7.2×10⁻⁵', '−3×10¹⁵', '10²⁰', '10⁹')
    """
    power = exact_power_text(v)
    if power is not None:
        return power
    text = number_text(v, number_format(pd.Series([float(v)]), digits), digits)
    m = re.fullmatch(r"(-?)([\d.]+)e([+-]\d+)", text.replace(",", ""))
    if not m:
        return text.rstrip("0").rstrip(".") if re.fullmatch(r"-?[\d,]*\.\d+", text) else text
    mant, exp = m.group(2), int(m.group(3))
    power = power_of_ten(exp)
    return ("−" if m.group(1) else "") + (power if float(mant) == 1 else f"{mant}×{power}")


#: Time units a value in ns is written in, the largest that keeps it at 1 or more [ns per unit].
_TIME_UNITS = (("s", 1e9), ("ms", 1e6), ("µs", 1e3), ("ns", 1.0))
#: Binary byte units a whole multiple is written in [bytes per unit].
_BYTE_UNITS = (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10))


def _readable(v: float, unit: str) -> tuple[float, str]:
    """``(value, unit)`` of a time [ns] in the unit a person reads it in (8.2 ms, 90 µs), and of a byte count
    that is a whole number of KiB / MiB / GiB in that unit (8 GiB, 4 KiB); anything else unchanged."""
    if unit == "ns" and abs(v) >= 1e3:
        name, per = next((n, p) for n, p in _TIME_UNITS if abs(v) >= p)
        return v / per, name
    if unit in ("B", "bytes") and v >= 1024 and float(v).is_integer():
        for name, per in _BYTE_UNITS:
            if v >= per and v % per == 0:
                return v / per, name
    return v, unit


def value_text(v: object, unit: str, digits: int = 4) -> str:
    """A value with its unit as a sentence or a report cell writes it: "8.2 ms", "25 µs", "8 GiB", "1.5×", "0.25"
    (unit "-" or ""), text values as they are.

    >>> value_text(8.2e6, "ns"), value_text(25, "us"), value_text(1.5, "x"), value_text(0.25, "-")
    ('8.2 ms', '25 µs', '1.5×', '0.25')
    >>> value_text(8589934592, "bytes"), value_text(4096, "bytes"), value_text(4033333.3, "ns"), value_text(101.5, "ns")
    ('8 GiB', '4 KiB', '4.033 ms', '101.5 ns')
    """
    u = unit_text(unit or "-")
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        text = str(v)
    else:
        v, u = _readable(float(v), u)
        text = scalar_text(v, digits)
    if u in ("", "-"):
        return text
    return f"{text}{u}" if u == "×" else f"{text} {u}"


def provenance_text(key: str, what: str, value: object, unit: str) -> tuple[str, str]:
    """(name, value with its unit) of a provenance row (:func:`models.provenance.provenance_table`) as a person
    reads them: a device value's column named in words.

    >>> provenance_text("device:hdd-7200.read_latency_ns", "hdd-7200 read_latency_ns", 8.2e6, "ns")
    ('hdd-7200 read latency', '8.2 ms')
    """
    if key.startswith("device:"):
        dev, _, col = key[len("device:"):].rpartition(".")
        label = human_label(col)
        if label.endswith("]") and " [" in label:
            label = label[:-1].split(" [", 1)[0]
        what = f"{dev} {label}"
    return what, value_text(value, unit)
