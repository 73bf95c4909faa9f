"""Friendly errors: a message naming the bad field, never a traceback in the browser."""

from __future__ import annotations

import logging
from contextlib import contextmanager

from pydantic import ValidationError

from models._base import format_validation_error

log = logging.getLogger("pcm_planner.app")


def describe(exc: BaseException) -> str:
    """User-facing text for an exception raised by a model on bad input."""
    if isinstance(exc, ValidationError):
        return format_validation_error(exc)
    if isinstance(exc, KeyError) and exc.args:
        return str(exc.args[0])
    return str(exc) or exc.__class__.__name__


def show_error(exc: BaseException, context: str = "") -> None:
    """Show ``exc`` as an error box (input problems) or a generic failure (bugs, logged)."""
    import streamlit as st

    prefix = f"{context}: " if context else ""
    if isinstance(exc, (ValidationError, ValueError, KeyError, FileNotFoundError, OverflowError)):
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
