"""Scenario field types whose value is one (:func:`one_of`) or some (:func:`some_of`) of a list of options:
a value outside the options is a validation error, never silently replaced by the first option."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Annotated

from pydantic import AfterValidator


def _options(options: Iterable | Callable[[], Iterable]) -> list:
    return list(options() if callable(options) else options)


def one_of(options: Iterable | Callable[[], Iterable], *, what: str = "value", base: type = str) -> object:
    """Scenario field type: one of ``options`` (a sequence, or a callable giving the current ones).

    >>> from pydantic import ValidationError
    >>> from app.components.errors import describe
    >>> from app.components.scenario import Scenario
    >>> class X(Scenario):
    ...     size: one_of([512, 4096], what="block size", base=int) = 4096
    >>> X(size="512").size
    512
    >>> try:
    ...     X(size=1000)
    ... except ValidationError as e:
    ...     print(describe(e))
    size: unknown block size 1000; valid: 512, 4096 (got 1000)
    """

    def check(v):
        valid = _options(options)
        if v not in valid:
            raise ValueError(f"unknown {what} {v!r}; valid: {', '.join(str(o) for o in valid)}")
        return v

    return Annotated[base, AfterValidator(check)]


def some_of(options: Iterable | Callable[[], Iterable], *, what: str = "value", base: type = str,
            min_count: int = 0) -> object:
    """Scenario field type: a list whose every item is one of ``options`` (see :func:`one_of`), with at
    least ``min_count`` items."""

    def check(v: list) -> list:
        if len(v) < min_count:
            raise ValueError(f"choose at least {min_count} {what}{'s' if min_count > 1 else ''}")
        valid = _options(options)
        bad = [x for x in v if x not in valid]
        if bad:
            raise ValueError(f"unknown {what}(s) {', '.join(repr(x) for x in bad)}; "
                             f"valid: {', '.join(str(o) for o in valid)}")
        return v

    return Annotated[list[base], AfterValidator(check)]
