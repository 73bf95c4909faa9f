"""One error formatter for the app, the CLI and the planner: the text a user sees for a bad input.

Both front ends catch :data:`INPUT_ERRORS` around a model call and show :func:`describe` of
the exception (the app in an error box next to the input, the CLI on stderr with exit code
2); anything else is a bug and is reported as such.
"""

from __future__ import annotations

import zipfile

from pydantic import ValidationError

__all__ = ["INPUT_ERRORS", "describe"]

#: Exceptions raised by bad input (values, files): shown as a message naming the problem.
#: OSError covers unreadable/truncated files (FileNotFoundError is one), EOFError and
#: BadZipFile empty or corrupt archives, OverflowError numbers too large for the model.
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


#: Longest message shown [characters]: a message quoting a huge input (a 100 MB field, a 5,000-character
#: name) is cut, so neither a terminal nor a browser tab is flooded.
MAX_MESSAGE_CHARS = 2000


def describe(exc: BaseException) -> str:
    """User-facing text for an exception raised by a model on bad input (at most
    :data:`MAX_MESSAGE_CHARS` characters).

    >>> len(describe(ValueError("x" * 10**6))) < 2100
    True

    >>> from pydantic import Field
    >>> from models._base import ModelInput
    >>> class X(ModelInput):
    ...     size_bytes: int = Field(gt=0)
    >>> try:
    ...     X(size_bytes=-1)
    ... except ValidationError as e:
    ...     print(describe(e))
    size_bytes: Input should be greater than 0 (got -1)
    >>> describe(KeyError("unknown device 'x'")), describe(EOFError())
    ("unknown device 'x'", 'the file is empty or truncated')
    """
    text = _describe(exc)
    if len(text) > MAX_MESSAGE_CHARS:
        text = f"{text[:MAX_MESSAGE_CHARS]}... (message cut: {len(text):,} characters)"
    return text


def _describe(exc: BaseException) -> str:
    if isinstance(exc, ValidationError):
        return _validation_text(exc)
    if isinstance(exc, KeyError) and exc.args:
        return str(exc.args[0])
    if isinstance(exc, zipfile.BadZipFile):
        return f"not a valid zip archive ({exc})"
    if isinstance(exc, EOFError):
        return f"the file is empty or truncated ({exc})" if str(exc) else "the file is empty or truncated"
    return str(exc) or exc.__class__.__name__
