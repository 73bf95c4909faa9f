"""Scenario state: widget values <-> Pydantic model <-> URL query params <-> JSON file.

A page declares its inputs as a :class:`Scenario` subclass (a Pydantic model whose fields
have defaults). :func:`init_state` seeds ``st.session_state`` (from the URL on the page's first
run in the session) so shared links reproduce a view; widgets use ``key=scn.key(field)``;
:func:`scenario_controls` validates the values, mirrors them into the URL, and offers
save/load as JSON. Invalid values are reported by field and never wipe the other inputs.

Streamlit deletes the state of widgets that a run does not draw (another page, or an input
hidden by a mode switch). The page's raw input values are therefore also kept in a plain
session key (``PREFIX.__shadow``), refreshed on every run, and :func:`init_state` restores
every missing widget value from it, so going to another page and back keeps the inputs.

Fields whose widget offers a fixed list of options use :func:`one_of` / :func:`some_of` (or
a validator of their own): a value outside the options is a validation error -- the page
warns about it -- instead of being silently replaced by the first option.

An invalid field falls back to its last valid value (:func:`resolve`). Its message -- the label the
user sees, why, and the value used instead -- is drawn right under its widget by the input helpers
(:mod:`app.components.inputs`: ``int_input``, ``float_input``, ``text_list_input``, or ``field_note``
after any other widget), which record it with :func:`note_shown`; the page's error box (drawn by
:func:`scenario_controls` in a placeholder, redrawn when a helper further down notes its field)
then only names those inputs, and carries the full message of the others.
"""

from __future__ import annotations

import ast
import copy
import json
import math
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from typing import Annotated, Any, ClassVar, TypeVar

import annotated_types as at
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from app.components.errors import describe

S = TypeVar("S", bound="Scenario")

#: Top-level key of a scenario JSON file holding the custom devices its scenario names.
CUSTOM_DEVICES = "custom_devices"


class Scenario(BaseModel):
    """Base class of a page's input set. ``PREFIX`` namespaces its session keys."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)
    PREFIX: ClassVar[str] = "scn"
    #: Labels the user sees, by field, for fields whose widget is not drawn by an
    #: :mod:`app.components.inputs` helper (those register their label as they draw it).
    LABELS: ClassVar[dict[str, str]] = {}
    #: Other inputs of the page (name -> default) kept like the fields across page switches,
    #: but neither validated nor put in the URL / JSON (e.g. the trace picker's CSV mapping).
    EXTRA_INPUTS: ClassVar[dict[str, Any]] = {}

    @classmethod
    def key(cls, field: str) -> str:
        """Session-state key of ``field`` (use as the widget key)."""
        return f"{cls.PREFIX}.{field}"


#: Widget labels of scenario fields, ``(PREFIX, field) -> label``, registered by the input helpers.
_WIDGET_LABELS: dict[tuple[str, str], str] = {}


def register_label(cls: type[Scenario], field: str, label: str) -> None:
    """Remember the label the page shows for ``field`` (messages name it instead of the field)."""
    _WIDGET_LABELS[(cls.PREFIX, field)] = label


def _call_name(node: ast.AST) -> str:
    f = node.func if isinstance(node, ast.Call) else None
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


@cache
def _source_labels(path: str, mtime: float) -> dict[str, str]:
    """``field -> label`` of the widgets in a page (or the trace picker) source: calls whose first
    argument is a string literal and whose ``key=`` is ``<X>.key("field")`` or ``_k(key, "field")``."""
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return {}
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        label = node.args[0]
        if not (isinstance(label, ast.Constant) and isinstance(label.value, str)):
            continue
        key = next((k.value for k in node.keywords if k.arg == "key"), None)
        if not isinstance(key, ast.Call) or not key.args:
            continue
        name = _call_name(key)
        arg = key.args[-1] if name in ("key", "_k") else None
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            out.setdefault(arg.value, label.value)
    return out


def _learn_labels(cls: type[Scenario], page_file: str | None) -> None:
    """Register the labels of ``cls``' widgets read from the page source and the trace picker's."""
    files = [page_file] if page_file else []
    if "trace_source" in cls.model_fields:  # a TraceChoice: its widgets are drawn by the trace picker
        files.append(str(Path(__file__).with_name("traces.py")))
    for f in files:
        try:
            labels = _source_labels(f, Path(f).stat().st_mtime)
        except OSError:
            continue
        for field, label in labels.items():
            if field in cls.model_fields:
                _WIDGET_LABELS.setdefault((cls.PREFIX, field), label)


def field_label(cls: type[Scenario], field: str) -> str:
    """The label the user sees for ``field``: registered by its widget, else ``cls.LABELS``, else the
    field name made readable (``sizes_kib`` -> "sizes [KiB]")."""
    label = _WIDGET_LABELS.get((cls.PREFIX, field)) or cls.LABELS.get(field)
    if label:
        return label
    from app.components.tables import human_label

    return human_label(field)


def _error_text(err: dict, field: str) -> str:
    """One pydantic error as text without the field name (the label is put in front by the caller)."""
    msg = str(err.get("msg", ""))
    for prefix in ("Value error, ", "Assertion failed, "):
        if msg.startswith(prefix):
            msg = msg[len(prefix):]
    if msg.startswith(f"{field}: "):
        msg = msg[len(field) + 2:]
    if err.get("type") == "extra_forbidden":
        msg = "not an input of this page"
    got = err.get("input")
    if got is None and err.get("type") in ("float_type", "int_type", "finite_number"):
        return "empty or not a number: give a number, e.g. 1.5 or 2e3"
    if err.get("type") not in ("value_error", "extra_forbidden", "missing") and not isinstance(got, (dict, list)):
        shown = repr(got)
        msg += f" (got {shown[:60] + '…' if len(shown) > 60 else shown})"
    return msg


def field_errors(cls: type[Scenario], values: dict[str, Any]) -> dict[str, str]:
    """Message per invalid field of ``values`` (empty dict: valid).

    A cross-field error whose message starts with ``"<field>: "`` (a model validator naming the
    field the user should change) is put under that field; other cross-field errors under ``""``.
    """
    try:
        cls.model_validate(values)
    except ValidationError as e:
        out: dict[str, str] = {}
        for err in e.errors():
            loc = err.get("loc") or ("",)
            f = str(loc[0]) if loc else ""
            if not f:
                head = _error_text(err, "").split(": ", 1)[0]
                f = head if head in cls.model_fields else ""
            out.setdefault(f, _error_text(err, f))
        return out
    return {}


def _options(options: Iterable | Callable[[], Iterable]) -> list:
    return list(options() if callable(options) else options)


def one_of(options: Iterable | Callable[[], Iterable], *, what: str = "value", base: type = str) -> object:
    """Scenario field type: one of ``options`` (a sequence, or a callable giving the current ones).

    >>> from pydantic import ValidationError
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


_LOWER = {"ge": at.Ge, "gt": at.Gt}
_UPPER = {"le": at.Le, "lt": at.Lt}
_LENGTHS = {"min_length": at.MinLen, "max_length": at.MaxLen}
#: ``json_schema_extra`` key naming the model field a Scenario field mirrors (see :func:`model_field`).
MIRRORS = "mirrors"


def _constraints(info: FieldInfo) -> tuple[dict[str, Any], list]:
    """The field's bound / length constraints as ``Field`` keywords, and its other metadata."""
    known = {**_LOWER, **_UPPER, **_LENGTHS, "multiple_of": at.MultipleOf}
    out: dict[str, Any] = {}
    other = []
    for m in info.metadata:
        kw = next((k for k, t in known.items() if type(m) is t), None)
        if kw is None:
            other.append(m)
        else:
            out[kw] = getattr(m, kw)
    return out, other


def _closed(lo: tuple[str, float] | None, hi: tuple[str, float] | None) -> tuple[float, float]:
    """``(low, high)`` of optional ``(kind, value)`` bounds, open ones at their value (-inf / inf if absent)."""
    return (-math.inf if lo is None else lo[1]), (math.inf if hi is None else hi[1])


def model_field(model: type[BaseModel], name: str, *, unit: float = 1.0, **overrides: Any) -> Any:
    """Scenario field mirroring ``model.<name>``: the model's default, bounds and description.

    Use it for a page input that is the same quantity as a field of the model's input
    model, so the page and the model share one contract::

        th_bcounts: float = model_field(wc.HaloParams, "th_bcounts")

    Parameters
    ----------
    model : type[pydantic.BaseModel]
        The model's input model (a :class:`models._base.ModelInput`).
    name : str
        Its field.
    unit : float, keyword-only
        Size of the page's unit in the model's unit, when they differ (µs on the page for ns in
        the model: ``unit=1e3``; GB for bytes: ``1e9``). Bounds and the default are divided by it.
    **overrides
        ``default=`` (required when the model has none, e.g. an optional override whose default
        is None); ``description=``; bounds ``ge/gt/le/lt`` narrowing the model's range (e.g. a
        slider needs a closed lower end where the model's is open -- say why in a comment). A
        bound outside the model's range raises ValueError: the page never accepts more than the
        model does.

    >>> from pydantic import Field
    >>> class In(BaseModel):
    ...     t_ns: float = Field(3500.0, ge=0, le=1e8, description="overhead [ns]")
    >>> class Page(Scenario):
    ...     t_us: float = model_field(In, "t_ns", unit=1e3)
    ...     t_ns: float = model_field(In, "t_ns", le=1e4)
    >>> Page().t_us, field_range(Page, "t_us"), field_range(Page, "t_ns")
    (3.5, (0.0, 100000.0), (0.0, 10000.0))
    >>> model_field(In, "t_ns", le=1e9)
    Traceback (most recent call last):
    ...
    ValueError: In.t_ns: le=1000000000.0 lies outside the model's range [0, 1e+08]
    """
    info = model.model_fields[name]
    cons, other = _constraints(info)
    for kw in ("ge", "gt", "le", "lt"):
        if kw in cons:
            cons[kw] = cons[kw] / unit if unit != 1 else cons[kw]
    narrow = {k: overrides.pop(k) for k in ("ge", "gt", "le", "lt") if k in overrides}
    if narrow:
        lo, hi = _sides(cons)
        for k, v in narrow.items():
            if not _inside(k, v, lo, hi):
                a, b = _closed(lo, hi)
                raise ValueError(f"{model.__name__}.{name}: {k}={v!r} lies outside the model's range [{a:g}, {b:g}]")
        drop = {*(_LOWER if narrow.keys() & _LOWER.keys() else ()), *(_UPPER if narrow.keys() & _UPPER.keys() else ())}
        cons = {k: v for k, v in cons.items() if k not in drop}
        cons.update(narrow)
    if "default" in overrides:
        default = overrides.pop("default")
    elif info.default_factory is not None:
        raise TypeError(f"{model.__name__}.{name}: give default= (the model uses a default factory)")
    else:
        default = info.default
        if default is PydanticUndefined or default is None:
            raise TypeError(f"{model.__name__}.{name}: the model has no default; give default=")
        if unit != 1:
            default = default / unit
    description = overrides.pop("description", info.description if unit == 1 else None)
    extra = {MIRRORS: f"{model.__module__}.{model.__qualname__}.{name}"}
    if unit != 1:
        extra["unit"] = unit
    if narrow:
        extra["narrowed"] = sorted(narrow)
    field = Field(default, description=description, json_schema_extra=extra, **cons, **overrides)
    field.metadata.extend(other)
    return field


def _inside(kind: str, v: float, lo: tuple[str, float] | None, hi: tuple[str, float] | None) -> bool:
    """Whether the bound ``kind=v`` admits no value outside the model's ``lo`` / ``hi`` bounds."""
    if lo is not None and (v < lo[1] or (v == lo[1] and lo[0] == "gt" and kind != "gt")):
        return False
    return hi is None or not (v > hi[1] or (v == hi[1] and hi[0] == "lt" and kind != "lt"))


def _sides(cons: dict[str, Any]) -> tuple[tuple[str, float] | None, tuple[str, float] | None]:
    lo = next(((k, cons[k]) for k in _LOWER if k in cons), None)
    hi = next(((k, cons[k]) for k in _UPPER if k in cons), None)
    return lo, hi


def field_bounds(model: type[BaseModel], name: str) -> tuple[tuple[str, float] | None, tuple[str, float] | None]:
    """The lower and upper bound of ``model.<name>`` as ``(kind, value)`` (kind ``ge``/``gt``/``le``/``lt``;
    None on a side without a bound), so a caption can say "> 0" for an open bound.

    >>> from pydantic import Field
    >>> class In(BaseModel):
    ...     x: float = Field(0.5, gt=0, le=1)
    >>> field_bounds(In, "x")
    (('gt', 0), ('le', 1))
    """
    cons, _ = _constraints(model.model_fields[name])
    return _sides(cons)


def field_range(model: type[BaseModel], name: str, *, unit: float = 1.0) -> tuple[Any, Any]:
    """Widget range ``(min, max)`` of ``model.<name>``, in the page's unit (see :func:`model_field`).

    The lower (``ge``/``gt``) and upper (``le``/``lt``) bound of the field, divided by ``unit``;
    ``None`` on a side without a bound. An open bound of a float field is returned as is (a
    widget has no open ends: the Scenario rejects that value with a message naming the bound);
    on an int field it becomes the next integer. Ints for an int field at ``unit=1``, else floats
    (Streamlit refuses to mix them).

    >>> from pydantic import Field
    >>> class In(BaseModel):
    ...     n: int = Field(4, gt=0, le=64)
    ...     x: float = Field(0.5, gt=0, le=1)
    >>> field_range(In, "n"), field_range(In, "x")
    ((1, 64), (0.0, 1.0))
    """
    info = model.model_fields[name]
    cons, _ = _constraints(info)
    lo, hi = _sides(cons)
    as_int = info.annotation is int and unit == 1

    def conv(b: tuple[str, float] | None, step: int) -> Any:
        if b is None:
            return None
        kind, v = b
        if as_int:
            return int(v) + (step if kind in ("gt", "lt") else 0)
        return float(v) / unit if unit != 1 else float(v)

    return conv(lo, 1), conv(hi, -1)


def _coerce(cls: type[Scenario], field: str, raw: str) -> Any:
    ann = cls.model_fields[field].annotation
    if ann is bool:
        return raw.lower() in ("1", "true", "yes", "on")
    if ann is list or getattr(ann, "__origin__", None) is list:
        return [x for x in raw.split(",") if x != ""]
    return raw


def _ensure_built(cls: type[Scenario], namespace: dict) -> None:
    """Resolve postponed annotations of a Scenario defined in a page script.

    Streamlit runs pages as scripts, not importable modules, so a page using
    ``from __future__ import annotations`` leaves its Scenario "not fully defined" for
    Pydantic; rebuild it against the page's globals.
    """
    if not getattr(cls, "__pydantic_complete__", True):
        cls.model_rebuild(_types_namespace=dict(namespace))


def _shadow_key(cls: type[Scenario]) -> str:
    return f"{cls.PREFIX}.__shadow"


def _save_shadow(cls: type[Scenario]) -> None:
    """Copy the page's current raw input values into its (non-widget) shadow key."""
    import streamlit as st

    ss = st.session_state
    shadow = dict(ss.get(_shadow_key(cls)) or {})
    for f in [*cls.model_fields, *cls.EXTRA_INPUTS]:
        k = cls.key(f)
        if k in ss:
            shadow[f] = copy.deepcopy(ss[k])
    ss[_shadow_key(cls)] = shadow


def init_state(cls: type[S]) -> None:
    """Seed the page's session keys; call first on every run of the page.

    Every missing key is set to the value last seen on this page (its shadow copy) or else the
    field's default. On the page's first run in the session, valid URL query params override
    the defaults; invalid ones are listed by :func:`scenario_controls` as a warning.
    """
    import sys

    import streamlit as st

    _ensure_built(cls, sys._getframe(1).f_globals)
    _learn_labels(cls, sys._getframe(1).f_globals.get("__file__"))
    ss = st.session_state
    defaults = cls().model_dump()
    shadow = ss.get(_shadow_key(cls)) or {}
    for f, v in {**cls.EXTRA_INPUTS, **defaults}.items():
        k = cls.key(f)
        if k in ss:
            # Re-set the current value through the Session State API, dropping the old entry
            # first: Streamlit keeps the value last set by code under the key next to the
            # widget's own value, and shows that stale one (e.g. the first-run default) once the
            # widget is not drawn. A value set this way outlives its widget.
            v = ss[k]
            del ss[k]
            ss[k] = v
        else:
            ss[k] = copy.deepcopy(shadow.get(f, v))

    ss[_noted_key(cls)] = set()  # fields whose message this run shows under their widget
    ss[_box_key(cls)] = None  # this run's error box (drawn by scenario_controls)
    flag = f"{cls.PREFIX}.__init"
    if not ss.get(flag):
        qp = st.query_params
        from app.components.device_store import DEV_PARAM, restore_url_devices

        dev_msg = restore_url_devices(qp.get(DEV_PARAM))  # first: the fields may name these custom devices
        if dev_msg:
            ss[f"{cls.PREFIX}.__urldev"] = dev_msg
        bad = []
        for f in cls.model_fields:
            if f in qp:
                try:
                    val = cls.model_validate({**defaults, f: _coerce(cls, f, qp[f])})
                    ss[cls.key(f)] = getattr(val, f)
                except ValidationError:
                    bad.append(f)
        if bad:
            ss[f"{cls.PREFIX}.__urlbad"] = bad
        ss[flag] = True
    _save_shadow(cls)


#: ``(prefix, field)`` of the number fields a page draws (:func:`app.components.inputs.float_input`): an empty one
#: is an error naming it, not the default applied silently (the browser leaves a number field empty for "abc").
_NUMBER_FIELDS: set[tuple[str, str]] = set()


def require_number(cls: type[Scenario], field: str) -> None:
    """Mark ``field`` as drawn by a number field: its empty value (None) is refused with a message."""
    _NUMBER_FIELDS.add((cls.PREFIX, field))


def _session_values(cls: type[Scenario]) -> dict[str, Any]:
    """The scenario's values in the session: unset ones left out (their defaults apply), except an emptied
    number field, kept as None so that validation says so."""
    import streamlit as st

    values = {f: st.session_state.get(cls.key(f)) for f in cls.model_fields}
    return {k: v for k, v in values.items() if v is not None or (cls.PREFIX, k) in _NUMBER_FIELDS}


def current(cls: type[S]) -> tuple[S | None, str | None]:
    """The scenario from session state, or ``(None, message)`` naming the bad fields by their labels."""

    values = _session_values(cls)
    errors = field_errors(cls, values)
    if not errors:
        return cls.model_validate(values), None
    return None, "; ".join(f"{field_label(cls, f) if f else 'inputs'}: {m}" for f, m in errors.items())


def _good_key(cls: type[Scenario]) -> str:
    return f"{cls.PREFIX}.__good"


def resolve(cls: type[S]) -> tuple[S | None, dict[str, str], dict[str, Any]]:
    """The scenario to compute with, the invalid fields' messages, and the values used instead.

    Every invalid field falls back to its last valid value in this session (else its default),
    so one bad entry never blanks the rest of the page; the page shows the message next to the
    input and says which value is used instead. ``(None, errors, {})`` only when the fallback
    values are invalid together (a cross-field rule).
    """
    import streamlit as st

    ss = st.session_state
    values = _session_values(cls)
    errors = field_errors(cls, values)
    if not errors:
        scn = cls.model_validate(values)
        ss[_good_key(cls)] = scn.model_dump()
        return scn, {}, {}
    good = ss.get(_good_key(cls)) or cls().model_dump()
    used: dict[str, Any] = {}
    trial = dict(values)
    for _ in range(len(cls.model_fields) + 1):
        bad = field_errors(cls, trial)
        if not bad:
            return cls.model_validate(trial), errors, used
        fields = [f for f in bad if f in cls.model_fields and f not in used]
        if not fields:
            break
        for f in fields:
            trial[f] = used[f] = good.get(f, cls.model_fields[f].default)
    return None, errors, {}


def _noted_key(cls: type[Scenario]) -> str:
    return f"{cls.PREFIX}.__noted"


def _box_key(cls: type[Scenario]) -> str:
    return f"{cls.PREFIX}.__box"


def note_shown(key: str) -> None:
    """Record that this run shows the message of the input under session key ``key`` (``PREFIX.field``)
    right under its widget: the page's error box then only points to it (redrawn if the box is already
    on the page, for widgets drawn after it). No effect outside a page whose Scenario uses ``PREFIX``."""
    import streamlit as st

    ss = st.session_state
    prefix, _, field = key.rpartition(".")
    noted = ss.get(f"{prefix}.__noted")
    if not isinstance(noted, set) or field in noted:
        return
    noted.add(field)
    box = ss.get(f"{prefix}.__box")
    if box is not None:
        _draw_box(*box)


def _draw_box(cls: type[Scenario], placeholder, ok: bool, errors: dict[str, str], used: dict[str, Any]) -> None:
    """The page's error box: messages of the fields not shown under their widget, and a pointer to
    those that are (an input in a collapsed expander stays findable)."""
    import streamlit as st

    from app.components.errors import md_escape

    noted = st.session_state.get(_noted_key(cls)) or set()
    lines, under = [], []
    for f, msg in errors.items():
        label = md_escape(field_label(cls, f)) if f else "Inputs"
        if f and f in noted:
            under.append(f"**{label}**")
            continue
        instead = f" -- not applied; using {md_escape(_shown(used[f]))}" if f in used else ""
        lines.append(f"- **{label}**: {md_escape(msg, 300)}{instead}")
    if under:
        lines.append(f"- not applied, the reason is shown under the input: {', '.join(under)}")
    head = ("Some inputs are not applied; the results use the values named below." if ok
            else "Invalid inputs -- fix them to see the results.")
    placeholder.error(head + "\n" + "\n".join(lines), icon=":material/error:")


def _shown(v: Any) -> str:
    """The value used instead, as the page writes numbers: ``10,000,000``, ``2,000,000``, ``0.5`` (not ``1e+07``)."""
    from reporting.number_text import scalar_text

    if isinstance(v, (list, tuple)):
        return ", ".join(str(x) for x in v) or "none"
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return str(v)
    return f"{v:,}" if isinstance(v, int) else scalar_text(v, 6)


def field_message(cls: type[Scenario], field: str) -> str | None:
    """Why ``field``'s current value is not applied and which value is used instead; None when applied.

    For the input helpers, which show it right under the widget.
    """
    import streamlit as st

    ss = st.session_state
    msg = field_errors(cls, _session_values(cls)).get(field)
    if msg is None:
        return None
    good = ss.get(_good_key(cls)) or cls().model_dump()
    return f"{msg} -- not applied; using {_shown(good.get(field, cls.model_fields[field].default))}"




def _used_custom_devices(scn: Scenario) -> list[dict]:
    """The session's custom devices named by a field of ``scn`` (str or list-of-str values)."""
    from app.components.device_store import custom_devices

    custom = custom_devices()
    names: list[str] = []
    for v in scn.model_dump().values():
        for x in (v if isinstance(v, (list, tuple)) else [v]):
            if isinstance(x, str) and x in custom and x not in names:
                names.append(x)
    return [custom[n] for n in names]


def scenario_json(scn: Scenario, page: str) -> str:
    """The JSON file of ``scn``: page, inputs and the custom devices they name."""
    payload: dict[str, Any] = {"page": page, "scenario": scn.model_dump(mode="json")}
    used = _used_custom_devices(scn)
    if used:
        payload[CUSTOM_DEVICES] = used
    return json.dumps(payload, indent=2)


def _register_devices(items: Any) -> None:
    """Validate the file's custom devices and add them to the session (ValueError names the entry)."""
    from app.components.device_store import add_custom_device
    from models.devices import DeviceProfile

    if not isinstance(items, list):
        raise ValueError(f"{CUSTOM_DEVICES}: expected a list of device profiles")
    profiles = []
    for i, d in enumerate(items):
        try:
            profiles.append(DeviceProfile.model_validate(d))
        except ValidationError as e:
            raise ValueError(f"{CUSTOM_DEVICES}[{i}]: {describe(e)}") from None
    for i, p in enumerate(profiles):
        try:
            add_custom_device(p)
        except ValueError as e:
            raise ValueError(f"{CUSTOM_DEVICES}[{i}].{e}") from None


def page_title(url: str) -> str:
    """Navigation title of the page at ``url`` (its url path), or ``url`` when unknown."""
    from app.registry import PAGES

    return next((p[2] for p in PAGES if p[4] == url), url)


def _load_json(cls: type[Scenario], page: str | None = None) -> None:
    import streamlit as st

    from app.components.device_store import CUSTOM_KEY

    up = st.session_state.get(f"{cls.PREFIX}.__upload")
    if up is None:
        return
    before = copy.deepcopy(st.session_state.get(CUSTOM_KEY, {}))
    try:
        data = json.loads(up.getvalue().decode("utf-8"))
        other = data.get("page") if isinstance(data, dict) else None
        if page is not None and isinstance(other, str) and other != page:
            raise ValueError(f"this file is a scenario of the page '{page_title(other)}', not of "
                             f"'{page_title(page)}': open that page to load it")
        if isinstance(data, dict) and "scenario" in data:

            if CUSTOM_DEVICES in data:  # registered first: the scenario may name them
                _register_devices(data[CUSTOM_DEVICES])
            data = data["scenario"]
        errors = field_errors(cls, data) if isinstance(data, dict) else {}
        if errors:
            raise ValueError("; ".join(f"{field_label(cls, f) if f else 'inputs'}: {m}" for f, m in errors.items()))
        scn = cls.model_validate(data)
    except (ValueError, ValidationError, UnicodeDecodeError) as e:
        st.session_state[CUSTOM_KEY] = before  # a rejected file adds no devices
        st.session_state[f"{cls.PREFIX}.__loaderr"] = f"could not load scenario file: {describe(e)}"
        return

    for f, v in scn.model_dump().items():
        st.session_state[cls.key(f)] = v
    st.session_state.pop(f"{cls.PREFIX}.__loaderr", None)


def to_query(scn: Scenario) -> dict[str, str]:
    """Query-param encoding of a scenario (lists comma-joined)."""
    out = {}
    for f, v in scn.model_dump().items():
        if isinstance(v, (list, tuple)):
            out[f] = ",".join(str(x) for x in v)
        elif isinstance(v, (dict, BaseModel)) or v is None:
            continue
        else:
            out[f] = str(v)
    return out


def scenario_controls(cls: type[S], *, page: str) -> S | None:
    """Validate the page's inputs, sync the URL, and draw save/load controls.

    Returns the validated scenario, or ``None`` after showing which fields are invalid
    (the widgets keep the user's values).
    """
    import streamlit as st

    from app.components.errors import md_escape

    _save_shadow(cls)
    scn, errors, used = resolve(cls)
    bad_url = st.session_state.pop(f"{cls.PREFIX}.__urlbad", None)
    bad_dev = st.session_state.pop(f"{cls.PREFIX}.__urldev", None)
    if bad_dev:
        st.warning("Custom devices of the link not restored: " + md_escape(bad_dev, 300), icon=":material/link_off:")
    if bad_url:
        # the label the user sees, and the parameter's name as it appears in the link
        st.warning("Ignored invalid link parameter(s): " + ", ".join(f"{md_escape(field_label(cls, f))} (`{f}`)"
                                                                     for f in bad_url), icon=":material/link_off:")
    if errors:
        box = (cls, st.empty(), scn is not None, errors, used)
        st.session_state[_box_key(cls)] = box
        _draw_box(*box)
    else:

        q = to_query(scn)
        from app.components.device_store import DEV_PARAM, devices_param

        dev = devices_param([d["name"] for d in _used_custom_devices(scn)])
        if dev:
            q[DEV_PARAM] = dev  # the custom devices the inputs name travel in the link too
        try:
            if {k: st.query_params.get(k) for k in q} != q or (DEV_PARAM in st.query_params and not dev):
                st.query_params.from_dict(q)
        except Exception:  # noqa: BLE001 - URL sync is best effort
            pass
    with st.expander("Scenario: save, load, share", icon=":material/save:"):
        if scn is not None:
            st.download_button("Save scenario (JSON)", scenario_json(scn, page), file_name=f"{page}-scenario.json",
                               mime="application/json", key=f"{cls.PREFIX}.__save")
            st.caption("The page URL encodes these inputs, and the custom devices they name: copy it to share "
                       "this view.")
        st.file_uploader("Load scenario (JSON)", type=["json"], key=f"{cls.PREFIX}.__upload",
                         on_change=_load_json, args=(cls, page))
        lerr = st.session_state.get(f"{cls.PREFIX}.__loaderr")
        if lerr:
            st.error(md_escape(lerr, 600))

    return scn
