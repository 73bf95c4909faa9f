"""Friendly errors: a message naming the bad field, never a traceback in the browser.

Streamlit renders message bodies, captions, labels and metrics as Markdown. Text a user
controls (file content quoted in an error, an upload's file name, a custom device's name, a
link parameter) goes through :func:`md_escape` first, so ``![x](http://host/p.png)`` in a
field is shown as those characters -- never fetched as an image, followed as a link or
rendered as a table or heading. :func:`show_error` escapes every message it shows.
"""

from __future__ import annotations

import logging
import re
from contextlib import contextmanager

from models.errors import INPUT_ERRORS, describe

__all__ = ["INPUT_ERRORS", "describe", "md_escape", "show_error", "user_errors"]

log = logging.getLogger("pcm_planner.app")


#: Characters that open a Markdown construct anywhere in a line (links, images, emphasis, code,
#: HTML and entities, tables, strikethrough, math, e-mail autolinks): always backslash-escaped.
_MD_ALWAYS = frozenset("\\`*[]<>#|~$&!@")
#: ``_`` opens emphasis only next to a non-word character (``Tm_ns`` stays as it is).
_MD_UNDERSCORE = re.compile(r"(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")
#: Line starts that make a list item, a setext underline or an ordered list.
_MD_LINE_START = re.compile(r"^([-+=]|\d{1,9}[.)])")


def md_escape(text: object, limit: int | None = None) -> str:
    r"""``text`` as Markdown that renders as exactly its characters (for user content in a message).

    Backslash-escapes what would open a Markdown construct: ``\ ` * [ ] < > # | ~ $ & ! @``,
    ``_`` at a word boundary, the ``:`` of ``://`` and the ``.`` of ``www.`` (autolinks), and a
    list / heading marker at a line start (leading blanks, which would make a code block, are
    dropped). Colons and intraword underscores are kept, so field names read as they are.
    ``limit`` cuts the text to that many characters first (``…`` marks the cut).

    >>> print(md_escape("![x](http://127.0.0.1:1/p.png)"))
    \!\[x\](http\://127.0.0.1:1/p.png)
    >>> print(md_escape("Tm_ns: _low_ **x**"))
    Tm_ns: \_low\_ \*\*x\*\*
    >>> print(md_escape("- a\n  # b"))
    \- a
    \# b
    """
    text = str(text)
    if limit is not None and len(text) > limit:
        text = text[:limit] + "…"
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    out = []
    for line in lines:
        line = line.lstrip(" \t")
        esc = "".join(f"\\{c}" if c in _MD_ALWAYS else c for c in line)
        esc = _MD_UNDERSCORE.sub(r"\\_", esc)
        esc = esc.replace("://", "\\://")
        esc = re.sub(r"(?i)\bwww\.", lambda m: m.group(0)[:-1] + "\\.", esc)
        out.append(_MD_LINE_START.sub(lambda m: m.group(1)[:-1] + "\\" + m.group(1)[-1], esc))
    return "\n".join(out)


def show_error(exc: BaseException, context: str = "") -> None:
    """Show ``exc`` as an error box (input problems) or a generic failure (bugs, logged)."""
    import streamlit as st

    prefix = f"{context}: " if context else ""
    if isinstance(exc, INPUT_ERRORS):
        st.error(md_escape(f"{prefix}{describe(exc)}"), icon=":material/error:")
    else:
        log.exception("unexpected error %s", context)
        st.error(md_escape(f"{prefix}unexpected internal error ({exc.__class__.__name__}); "
                           "your inputs are kept -- change them or report the problem."), icon=":material/bug_report:")


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
