"""Friendly errors: a message naming the bad field, never a traceback in the browser."""

from __future__ import annotations

import logging
from contextlib import contextmanager

from models.errors import INPUT_ERRORS, describe

__all__ = ["INPUT_ERRORS", "describe", "show_error", "user_errors"]

log = logging.getLogger("pcm_planner.app")


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
