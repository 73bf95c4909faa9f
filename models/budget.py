"""The memory budget of one run [bytes]: what a reader or model may allocate before it refuses.

Limits that count requests or blocks let a 2 KB trace of 4 GiB requests ask for gigabytes; this module
bounds work in bytes instead. A model estimates the bytes a step will allocate (block accesses times its
bytes per access, measured) and calls :func:`charge` *before* allocating; over the budget it raises
:class:`BudgetExceeded`, a ``ValueError`` whose message names the step, its estimate, the budget and how
to raise it: the CLI option ``--memory-budget`` and the environment variable ``PCM_MEMORY_BUDGET`` (the
app's server setting, read at every run).

Steps are summed over what lives together: an allocation that stays alive while later steps run (the trace a
plan's roles share, the trace a page's curve reads) is held with :func:`reserve`, and :func:`charge` checks a
step against the budget *less what is held* -- two steps each under the budget but over it together are refused,
the message naming what is held. A step's own estimate covers its temporaries (measured peaks); what it returns
and the run keeps must be reserved by the caller that keeps it.

The budget, first that applies: the one set for the current run (:func:`limit`, what ``--memory-budget``
does), ``PCM_MEMORY_BUDGET`` (``2GB``, ``512MiB``, ``1e9``; ``0`` or ``off`` turns it off), else
:data:`AVAILABLE_FRACTION` of the memory the machine has available now, at most :data:`DEFAULT_CAP_BYTES`.

>>> with limit(1000):
...     charge(900, "the test step")
...     charge(2000, "the test step")
Traceback (most recent call last):
...
models.budget.BudgetExceeded: the test step needs about 2 kB of memory, more than the run's budget of 1 kB; \
raise it with --memory-budget 2kB (CLI) or the PCM_MEMORY_BUDGET environment variable (app server)

Held allocations count:

>>> with limit(1000), reserve(600, "the trace"):
...     charge(300, "the curve")
...     charge(500, "the curve")
Traceback (most recent call last):
...
models.budget.BudgetExceeded: the curve needs about 500 B of memory, more than the run's budget of 1 kB \
less the 600 B held (the trace); raise it with --memory-budget 1.1kB (CLI) or the PCM_MEMORY_BUDGET \
environment variable (app server)
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["ENV_VAR", "CLI_OPTION", "AVAILABLE_FRACTION", "DEFAULT_CAP_BYTES", "BudgetExceeded", "parse_bytes",
           "budget_bytes", "charge", "limit", "reserve", "held", "held_bytes", "Hold", "format_bytes", "how_to_raise"]

ENV_VAR = "PCM_MEMORY_BUDGET"
CLI_OPTION = "--memory-budget"
#: Share of the machine's available memory one run may use by default: the app runs up to 4 page runs
#: at once (``PCM_RUN_SLOTS``) beside the server itself, so a quarter each would already fill it; an eighth
#: leaves room for the copies pandas and NumPy make beyond the estimate.
AVAILABLE_FRACTION = 0.125
#: Default ceiling of one run's budget [bytes] whatever the machine: 1 GiB, the peak one case of
#: ``make fuzz`` may reach (issue 42); a larger trace asks for more with the option.
DEFAULT_CAP_BYTES = 1 << 30
_FALLBACK_AVAILABLE = 4 << 30  # when /proc/meminfo cannot be read [bytes]

_run_budget: ContextVar[int | None] = ContextVar("pcm_memory_budget", default=None)
#: What the current run holds (:func:`reserve`), innermost last. A context variable: a thread started with
#: ``contextvars.copy_context`` (the readers' read-ahead) sees its starter's.
_held: ContextVar[tuple[Hold, ...]] = ContextVar("pcm_memory_held", default=())
_UNITS = {"": 1, "b": 1, "k": 1e3, "kb": 1e3, "kib": 2**10, "m": 1e6, "mb": 1e6, "mib": 2**20,
          "g": 1e9, "gb": 1e9, "gib": 2**30, "t": 1e12, "tb": 1e12, "tib": 2**40}


class BudgetExceeded(ValueError):
    """A step would allocate more than the run's memory budget."""


class Hold:
    """An allocation the run holds (:func:`reserve`): ``what`` it is and its ``nbytes`` [bytes], which may grow
    (:meth:`resize`, a table that doubles)."""

    __slots__ = ("what", "nbytes")

    def __init__(self, what: str, nbytes: float):
        self.what, self.nbytes = what, float(nbytes)

    def resize(self, nbytes: float, what: str | None = None, *, budget: int | None = None) -> None:
        """Hold ``nbytes`` now; growth is charged first (``what``: the step that grows it, default the hold's own
        name), against the budget less everything held (this hold's present size included)."""
        if nbytes > self.nbytes:
            charge(nbytes - self.nbytes, what or self.what, budget=budget)
        self.nbytes = float(nbytes)


def how_to_raise(needed: float | None = None) -> str:
    """The sentence naming the option and the setting that raise the budget (to ``needed`` bytes if given)."""
    size = _round_up(needed) if needed and math.isfinite(needed) and needed < 2**62 else "2GB"
    return f"raise it with {CLI_OPTION} {size} (CLI) or the {ENV_VAR} environment variable (app server)"


def _round_up(n: float) -> str:
    """A size text at least ``n`` bytes, two significant digits (``2.7GB``)."""
    for unit, scale in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            v = n / scale
            digits = 1 if v < 10 else 0
            return f"{math.ceil(v * 10**digits) / 10**digits:g}{unit}"
    return f"{math.ceil(n)}B"


def parse_bytes(text: str | int | float, what: str = CLI_OPTION) -> int:
    """A byte count from ``2GB``, ``512MiB``, ``1e9`` or a number [bytes]; 0 = no budget.

    >>> parse_bytes("2GB"), parse_bytes("512 MiB"), parse_bytes("1e9"), parse_bytes("off")
    (2000000000, 536870912, 1000000000, 0)
    >>> parse_bytes("lots")
    Traceback (most recent call last):
    ...
    ValueError: --memory-budget must be a size such as 2GB, 512MiB or 1e9 [bytes] (0 or off: no budget), got 'lots'
    """
    s = str(text).strip().lower()
    if s in ("off", "none", "0"):
        return 0
    m = re.fullmatch(r"([0-9]*\.?[0-9]+(?:e[+-]?[0-9]+)?)\s*([a-z]*)", s)
    if not m or m.group(2) not in _UNITS or not math.isfinite(float(m.group(1))):
        raise ValueError(f"{what} must be a size such as 2GB, 512MiB or 1e9 [bytes] (0 or off: no budget), "
                         f"got {text!r}")
    value = float(m.group(1)) * _UNITS[m.group(2)]
    if value > 2**62:
        raise ValueError(f"{what} must be at most 4 EiB, got {text!r}")
    return int(value)


def format_bytes(n: float) -> str:
    """``n`` bytes in decimal units, 2 significant digits.

    >>> format_bytes(1.5e9), format_bytes(999), format_bytes(4.3e12)
    ('1.5 GB', '999 B', '4.3 TB')
    """
    for unit, scale in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            return f"{n / scale:.2g} {unit}" if n / scale < 10 else f"{n / scale:.0f} {unit}"
    return f"{n:.0f} B"


def _available_bytes() -> int:
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return _FALLBACK_AVAILABLE


def budget_bytes() -> int:
    """The current run's budget [bytes]; 0 = no budget (see the module docstring for the order)."""
    run = _run_budget.get()
    if run is not None:
        return run
    env = os.environ.get(ENV_VAR, "").strip()
    if env:
        return parse_bytes(env, ENV_VAR)
    return int(min(DEFAULT_CAP_BYTES, AVAILABLE_FRACTION * _available_bytes()))


def held() -> list[tuple[str, float]]:
    """What the current run holds: ``(what, bytes)`` of each enclosing :func:`reserve` block, outermost first."""
    return [(h.what, h.nbytes) for h in _held.get()]


def held_bytes() -> float:
    """What the current run holds [bytes] (the allocations of the enclosing :func:`reserve` blocks)."""
    return float(sum(h.nbytes for h in _held.get()))


def charge(nbytes: float, what: str, *, budget: int | None = None) -> None:
    """Refuse (:class:`BudgetExceeded`) a step of ``what`` estimated at ``nbytes`` [bytes] over the budget
    less what the run holds (:func:`reserve`).

    Call it before allocating; ``nbytes`` may be a float (an absurd request must not wrap an int64).
    ``budget``: the budget read once by a caller that charges in a loop (default :func:`budget_bytes`).
    """
    budget = budget_bytes() if budget is None else budget
    if not budget:
        return
    held = [h for h in _held.get() if h.nbytes]
    in_use = float(sum(h.nbytes for h in held))
    if not in_use + nbytes <= budget:  # NaN refuses too
        less = f" less the {format_bytes(in_use)} held ({', '.join(h.what for h in held)})" if in_use else ""
        raise BudgetExceeded(f"{what} needs about {format_bytes(float(nbytes))} of memory, more than the run's "
                             f"budget of {format_bytes(budget)}{less}; {how_to_raise(in_use + nbytes)}")


@contextmanager
def reserve(nbytes: float, what: str, *, budget: int | None = None) -> Iterator[Hold]:
    """Hold ``nbytes`` [bytes] of ``what`` for the block: charged now (:func:`charge`), then counted against every
    step charged inside the block, released on exit; the :class:`Hold` yielded can grow (:meth:`Hold.resize`).

    For an allocation that lives while later steps run (a trace the steps read, a table a stream carries);
    ``what`` names it in their refusals.

    >>> with limit(1000), reserve(400, "the trace"):
    ...     held_bytes()
    400.0
    >>> held_bytes()
    0.0
    """
    charge(nbytes, what, budget=budget)
    hold = Hold(what, nbytes)
    token = _held.set((*_held.get(), hold))
    try:
        yield hold
    finally:
        _held.reset(token)


@contextmanager
def limit(nbytes: int | str | None) -> Iterator[None]:
    """Run the block with a budget of ``nbytes`` (bytes or a size text; None: leave it as it is)."""
    if nbytes is None:
        yield
        return
    token = _run_budget.set(parse_bytes(nbytes) if isinstance(nbytes, str) else int(nbytes))
    try:
        yield
    finally:
        _run_budget.reset(token)
