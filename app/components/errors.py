"""Friendly errors: a message naming the bad field, never a traceback in the browser."""

from __future__ import annotations

import logging
import zipfile
from contextlib import contextmanager

from pydantic import ValidationError

log = logging.getLogger("pcm_planner.app")

#: Exceptions raised by bad input (values, files): shown as an error naming the problem.
#: OSError covers unreadable/truncated files (FileNotFoundError is one), EOFError and
#: BadZipFile empty or corrupt archives.
INPUT_ERRORS = (ValidationError, ValueError, KeyError, OSError, OverflowError, EOFError, zipfile.BadZipFile)


def _validation_text(err: ValidationError) -> str:
    """One line per bad field: ``field: message (got value)``.

    Pydantic prefixes messages raised by validators with "Value error, " and our validators
    already start with the field name: both are dropped so the field is named once.
    """
    lines = []
    for e in err.errors():
        loc = ".".join(str(p) for p in e.get("loc", ())) or "input"
        msg = str(e.get("msg", "invalid"))
        for pre in ("Value error, ", "Assertion failed, "):
            msg = msg.removeprefix(pre)
        field = loc.rsplit(".", 1)[-1]
        for name in (loc, field):
            if msg.startswith(f"{name}: "):
                msg = msg[len(name) + 2:]
                break
        got = e.get("input")
        shown = "" if isinstance(got, dict) or len(repr(got)) > 200 else f" (got {got!r})"
        lines.append(f"{loc}: {msg}{shown}")
    return "\n".join(lines)


def describe(exc: BaseException) -> str:
    """User-facing text for an exception raised by a model on bad input."""
    if isinstance(exc, ValidationError):
        return _validation_text(exc)
    if isinstance(exc, KeyError) and exc.args:
        return str(exc.args[0])
    if isinstance(exc, zipfile.BadZipFile):
        return f"not a valid zip archive ({exc})"
    if isinstance(exc, EOFError):
        return f"the file is empty or truncated ({exc})" if str(exc) else "the file is empty or truncated"
    return str(exc) or exc.__class__.__name__


def show_error(exc: BaseException, context: str = "") -> None:
    """Show ``exc`` as an error box (input problems) or a generic failure (bugs, logged)."""
    import streamlit as st

    prefix = f"{context}: " if context else ""
    if isinstance(exc, INPUT_ERRORS):
        st.error(f"{prefix}{describe(exc)}", icon=":material/error:")
    else:
        log.exception("unexpected error %s", context)
        st.error(f"{prefix}unexpected internal error ({exc.__class__.__name__}); "
                 "your inputs are kept -- change them or report the problem.", icon=":material/bug_report:")


@contextmanager
def user_errors(context: str = ""):
    """Run a block; on an exception show a friendly error instead of a traceback.

    Usage::

        with user_errors("Break-even"):
            result = model(...)
    """
    try:
        yield
    except Exception as exc:  # noqa: BLE001 - every error becomes a message, never a traceback
        show_error(exc, context)
