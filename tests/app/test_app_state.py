"""Shared page-input machinery: Scenario ranges vs widgets, option validation, prefixes, state kept
across page switches, scenario JSON with custom devices, upload errors, error wording.

The static checks read every page's source with ``ast``: a page is a Streamlit script, so its
Scenario class is rebuilt by executing only the page's imports, constants, functions and classes
(up to its Scenario class), never its widgets.
"""

from __future__ import annotations
import __future__

import ast
import io
import json
import math
import typing
import zipfile
from pathlib import Path

import annotated_types as at_
import numpy as np
import pytest
from pydantic import ValidationError
from streamlit.testing.v1 import AppTest

from app.components.errors import describe
from app.components.scenario import Scenario
from app.components.traces import TraceChoice
from app.registry import PAGES
from models.devices import DeviceProfile, load_catalogue

ROOT = Path(__file__).resolve().parents[2]
VIEWS = ROOT / "app" / "views"
TRACES = ROOT / "app" / "components" / "traces.py"
PAGE_FILES = sorted(VIEWS.glob("*.py"))
RANGE_WIDGETS = {"slider", "number_input"}
OPTION_WIDGETS = {"select_slider", "selectbox", "radio", "multiselect"}
BOGUS = "__no_such_option__"


# ----------------------------------------------------------------------------- static page model

def _scenario_bases(node: ast.ClassDef) -> bool:
    return any(ast.unparse(b).split(".")[-1] in ("Scenario", "TraceChoice") for b in node.bases)


def _page_namespace(path: Path) -> tuple[dict, ast.Module]:
    """Execute the page's definitions up to its last Scenario class; return (globals, tree)."""
    tree = ast.parse(path.read_text(), str(path))
    last = max((i for i, n in enumerate(tree.body) if isinstance(n, ast.ClassDef) and _scenario_bases(n)),
               default=-1)
    keep = (ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign, ast.FunctionDef, ast.ClassDef)
    body = [n for n in tree.body[:last + 1]
            if isinstance(n, keep) and not (isinstance(n, ast.ImportFrom) and n.module == "__future__")]
    ns: dict = {"__name__": f"_page_{path.stem}"}
    # postponed annotations, as in the page (a validator may return its own class); the Scenario is
    # then rebuilt against the page's namespace, as app.components.scenario.init_state does
    flags = __future__.annotations.compiler_flag
    exec(compile(ast.Module(body=body, type_ignores=[]), str(path), "exec", flags=flags, dont_inherit=True), ns)  # noqa: S102 - our own source
    for v in list(ns.values()):
        if isinstance(v, type) and issubclass(v, Scenario) and not getattr(v, "__pydantic_complete__", True):
            v.model_rebuild(_types_namespace=dict(ns))
    return ns, tree


def _page_scenarios(ns: dict) -> list[type[Scenario]]:
    return [v for v in ns.values() if isinstance(v, type) and issubclass(v, Scenario)
            and v.__module__ == ns["__name__"] and "PREFIX" in v.__dict__]


def _eval(node: ast.AST | None, ns: dict):
    if node is None:
        return None
    return eval(compile(ast.Expression(node), "<widget>", "eval", dont_inherit=True), ns)  # noqa: S307 - our own source


def _arg(call: ast.Call, name: str, pos: int) -> ast.AST | None:
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    return call.args[pos] if len(call.args) > pos else None


def _func_name(call: ast.Call) -> str:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def _key_field(node: ast.AST | None, classes: set[str]) -> str | None:
    """``S.key("f")`` / ``<Class>.key("f")`` (pages) or ``_k(key, "f")`` (trace picker) -> ``"f"``."""
    if not isinstance(node, ast.Call):
        return None
    f = node.func
    if isinstance(f, ast.Attribute) and f.attr == "key" and isinstance(f.value, ast.Name) and f.value.id in classes:
        a = node.args[0] if node.args else None
    elif isinstance(f, ast.Name) and f.id == "_k" and len(node.args) == 2:
        a = node.args[1]
    else:
        return None
    return a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None


def _widgets(tree: ast.Module, classes: set[str]):
    """(kind, field, call) of every widget keyed by a Scenario field."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        kind = _func_name(node)
        if kind in RANGE_WIDGETS | OPTION_WIDGETS or kind == "device_picker":
            field = _key_field(_arg(node, "key", 99), classes)
        elif kind == "block_size_select":
            field = _key_field(_arg(node, "key", 0), classes)
        else:
            continue
        if field is not None:
            yield kind, field, node


def _cases():
    """(id, Scenario class, namespace, widget kind, field, call) over the pages and the trace picker."""
    import app.components.traces as traces_mod

    out = []
    pickers = {"traces": TraceChoice}  # the trace picker's widgets, checked against every page using it
    for path in PAGE_FILES:
        ns, tree = _page_namespace(path)
        scns = _page_scenarios(ns)
        if not scns:
            continue
        assert len(scns) == 1, f"{path.name}: one Scenario per page, got {scns}"
        cls = scns[0]
        names = {"S", cls.__name__}
        out += [(f"{path.stem}.{f}", cls, ns, k, f, c) for k, f, c in _widgets(tree, names)]
        if issubclass(cls, TraceChoice):  # inherited (possibly overridden) fields of the picker
            pickers[f"{path.stem}.traces"] = cls
    tree = ast.parse(TRACES.read_text())
    picker_widgets = list(_widgets(tree, set()))
    for prefix, cls in pickers.items():
        # the picker also keys widgets that are not Scenario fields (CSV column mapping, lackey synthetic)
        out += [(f"{prefix}.{f}", cls, vars(traces_mod), k, f, c) for k, f, c in picker_widgets
                if f in TraceChoice.model_fields]
    return out


CASES = _cases()
RANGE_CASES = [c for c in CASES if c[3] in RANGE_WIDGETS]
OPTION_CASES = [c for c in CASES if c[3] not in RANGE_WIDGETS]


def _field_bounds(cls: type[Scenario], field: str) -> tuple[float, float]:
    """Closed range [lo, hi] a field accepts (gt/lt on int fields are made inclusive)."""
    info = cls.model_fields[field]
    is_int = info.annotation is int
    lo, hi = -math.inf, math.inf
    for m in info.metadata:
        if isinstance(m, at_.Ge):
            lo = max(lo, m.ge)
        elif isinstance(m, at_.Gt):
            lo = max(lo, m.gt + 1 if is_int else math.nextafter(m.gt, math.inf))
        elif isinstance(m, at_.Le):
            hi = min(hi, m.le)
        elif isinstance(m, at_.Lt):
            hi = min(hi, m.lt - 1 if is_int else math.nextafter(m.lt, -math.inf))
    return lo, hi


def test_static_model_finds_the_pages_widgets():
    """The AST walk sees the widgets it checks (a refactor that hides them fails here, not silently)."""
    ids = {c[0] for c in CASES}
    for expected in ("break_even.max_accesses", "break_even.block_size_bytes", "workload.zipf_alpha",
                     "lifetime.wear_efficiency", "memory_extension.prefetch_frac", "memory_extension.fast_device",
                     "wear.device", "traces.scale", "traces.upload_format", "file_cache_sim.block_size_bytes",
                     "planner.traces", "device_char.profiles"):
        assert expected in ids, expected
    # sliders and the trace picker's bounded inputs: a page's number fields are float_input (no browser
    # bounds: tests/app/test_input_messages.py test_no_page_bounds_a_number_field_in_the_browser)
    assert len(RANGE_CASES) >= 15


def test_every_widget_key_names_a_field():
    for cid, cls, _ns, _kind, field, _call in CASES:
        assert field in cls.model_fields, f"{cid}: {cls.__name__} has no field {field!r}"


@pytest.mark.parametrize("case", RANGE_CASES, ids=[c[0] for c in RANGE_CASES])
def test_field_range_lies_inside_the_widget_range(case):
    """A value the Scenario accepts (URL, JSON) must be one the widget can show, else Streamlit raises
    StreamlitValueAbove/BelowMinError and the page crashes."""
    cid, cls, ns, kind, field, call = case
    wmin = _eval(_arg(call, "min_value", 1), ns)
    wmax = _eval(_arg(call, "max_value", 2), ns)
    if kind == "slider":  # a slider without bounds defaults to 0..100
        wmin = 0 if wmin is None else wmin
        wmax = 100 if wmax is None else wmax
    lo, hi = _field_bounds(cls, field)
    if wmin is not None:
        assert lo >= wmin, f"{cid}: field accepts {lo} < widget min {wmin}"
    if wmax is not None:
        assert hi <= wmax, f"{cid}: field accepts {hi} > widget max {wmax}"
    ann = cls.model_fields[field].annotation
    for b in (wmin, wmax):  # int field with float bounds (or vice versa): StreamlitMixedNumericTypesError
        if b is not None:
            assert isinstance(b, float) == (ann is float), f"{cid}: widget bound {b!r} vs field type {ann}"


def _bogus_value(cls: type[Scenario], field: str, options: list | None):
    ann = cls.model_fields[field].annotation
    if typing.get_origin(ann) is list:
        return [BOGUS]
    if ann in (int, float) and options:
        lo, hi = min(options), max(options)
        grid = np.linspace(lo, hi, 97)[1:-1]
        cand = [int(x) if ann is int else float(x) for x in grid]
        return next(x for x in cand if x not in options)
    return BOGUS


#: fields that must differ from a partner field (memory extension: fast and slow device), with a
#: valid partner value to use when an option equals the partner's default
PAIRED_FIELDS = {"fast_device": ("slow_device", "nand-flash"), "slow_device": ("fast_device", "optane-dcpmm"),
                 "frontier_x": ("frontier_y", "write_bandwidth_MBps"),
                 "frontier_y": ("frontier_x", "write_bandwidth_MBps")}


@pytest.mark.parametrize("case", OPTION_CASES, ids=[c[0] for c in OPTION_CASES])
def test_option_field_rejects_values_outside_the_options(case):
    """A link/JSON value that is not an option is a validation error (-> warning), never silently swapped."""
    cid, cls, ns, kind, field, call = case
    options = None
    if kind == "block_size_select":
        from app.components.traces import BLOCK_SIZES as options
    elif kind == "device_picker":
        from app.components.devices import device_names

        kinds = _eval(_arg(call, "kinds", 99), ns)
        endurance = bool(_eval(_arg(call, "endurance", 99), ns))
        options = device_names(kinds, endurance=endurance)
    else:
        try:
            options = list(_eval(_arg(call, "options", 1), ns))
        except (NameError, AttributeError, TypeError):
            options = None  # options built at run time (local variable): only the bogus check applies
    default = cls().model_dump()
    bogus = _bogus_value(cls, field, options)
    with pytest.raises(ValidationError):
        cls.model_validate({**default, field: bogus})
    if options is not None:
        ann = cls.model_fields[field].annotation
        partner, alternative = PAIRED_FIELDS.get(field, (None, None))
        for opt in options:
            values = {**default, field: [opt] if typing.get_origin(ann) is list else opt}
            if partner in cls.model_fields and values[partner] == opt:
                values[partner] = alternative  # cross-field rule: the two must differ
            cls.model_validate(values)
    if kind == "device_picker":  # catalogue devices the picker does not offer are rejected too
        for name in set(load_catalogue()) - set(options):
            with pytest.raises(ValidationError):
                cls.model_validate({**default, field: name})


def test_page_prefixes_are_unique():
    prefixes = {}
    for path in PAGE_FILES:
        ns, _ = _page_namespace(path)
        for cls in _page_scenarios(ns):
            assert cls.PREFIX not in prefixes, f"{path.name} and {prefixes.get(cls.PREFIX)} share {cls.PREFIX!r}"
            prefixes[cls.PREFIX] = path.name
    assert len(prefixes) >= 12
    assert prefixes["wear"] == "wear.py" and prefixes["wl"] == "workload.py"


# ----------------------------------------------------------------------------- running pages

def _page(name: str, **query) -> AppTest:
    at = AppTest.from_file(str(VIEWS / name), default_timeout=120)
    for k, v in query.items():
        at.query_params[k] = v
    return at.run()


@pytest.mark.parametrize("page, query, field", [
    ("break_even.py", {"max_accesses": "500"}, "max_accesses"),           # field le=1000 vs slider max 50
    ("break_even.py", {"block_size_bytes": "1000"}, "block_size_bytes"),  # not a power of two
    ("break_even.py", {"device": "no-such-device"}, "device"),
    ("break_even.py", {"mode": "manual", "t_ns": "0"}, "t_ns"),           # BreakEvenInputs: t_ns > 0
    ("workload.py", {"zipf_alpha": "2.5"}, "zipf_alpha"),
    ("workload.py", {"iosize_bytes": "1000"}, "iosize_bytes"),
    ("workload.py", {"configs": "hdd,nosuch"}, "configs"),
    ("lifetime.py", {"wear_efficiency": "0.001"}, "wear_efficiency"),
    ("memory_extension.py", {"prefetch_frac": "0.3"}, "prefetch_frac"),
    ("memory_extension.py", {"fast_device": "hdd-7200"}, "fast_device"),  # exists, but not a fast NVM
    ("planner.py", {"personalities": "nosuch", "traces": "nosuch"}, "personalities, traces"),
])
def test_out_of_widget_range_link_warns_instead_of_crashing(page, query, field):
    at = _page(page, **query)
    assert not at.exception, [e.message for e in at.exception]
    warnings = [w.value for w in at.warning]
    # the warning names each parameter as it appears in the link (next to the label the user sees)
    assert any("Ignored invalid link parameter" in w and all(f"`{f}`" in w for f in field.split(", "))
               for w in warnings), warnings


def test_inputs_survive_leaving_the_page_and_coming_back():
    """Streamlit deletes a page's widget state while another page runs; the shadow copy restores it."""
    at = AppTest.from_file(str(VIEWS.parent / "main.py"), default_timeout=120).run()
    at.switch_page("views/break_even.py").run()
    at.slider(key="be.max_accesses").set_value(20).run()
    at.radio(key="be.mode").set_value("manual").run()
    at.number_input(key="be.t_ns").set_value(10.0).run()
    at.number_input(key="be.T_ns").set_value(20.0).run()
    at.number_input(key="be.Tm_ns").set_value(40.0).run()
    assert {m.label: m.value for m in at.metric}["n*"] == "3"
    at.switch_page("views/home.py").run()
    assert "be.max_accesses" not in at.session_state  # the widget state really was dropped
    at.switch_page("views/break_even.py").run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.slider(key="be.max_accesses").value == 20
    assert at.radio(key="be.mode").value == "manual"
    assert at.number_input(key="be.t_ns").value == 10.0
    assert {m.label: m.value for m in at.metric}["n*"] == "3"


def test_hidden_inputs_keep_their_values_across_a_mode_switch():
    """Streamlit drops the state of widgets a run does not draw; the shadow copy restores them."""
    at = _page("break_even.py")
    at.radio(key="be.mode").set_value("manual").run()
    at.number_input(key="be.t_ns").set_value(55.0).run()
    at.radio(key="be.mode").set_value("device").run()
    at.selectbox(key="be.device").set_value("hdd-7200").run()
    at.radio(key="be.mode").set_value("manual").run()
    assert at.number_input(key="be.t_ns").value == 55.0
    at.radio(key="be.mode").set_value("device").run()
    assert at.selectbox(key="be.device").value == "hdd-7200"


def test_url_is_read_on_the_first_run_only():
    at = _page("break_even.py", max_accesses="30")
    assert at.slider(key="be.max_accesses").value == 30
    at.slider(key="be.max_accesses").set_value(12).run()
    at.query_params["max_accesses"] = "40"  # a link param must not override the user's later edits
    at.run()
    assert at.slider(key="be.max_accesses").value == 12


def test_wear_page_uses_its_own_prefix():
    at = _page("wear.py")
    assert not at.exception, [e.message for e in at.exception]
    assert at.multiselect(key="wear.schemes").value == ["none", "sg", "rr", "sfc"]
    assert not any(k.startswith("wl.") for k in at.session_state)


# ----------------------------------------------------------------------------- scenario JSON + devices

MY_SCM = DeviceProfile(name="my-scm", label="My SCM", kind="scm", access_unit_bytes=256, read_latency_ns=300.0,
                       write_latency_ns=900.0, source="test")


def _saved_json_script():
    import streamlit as st

    from app.components.devices import DeviceName
    from app.components.scenario import Scenario, scenario_json

    class Tiny(Scenario):
        PREFIX = "tiny"
        device: DeviceName = "dram"
        other: list[str] = []

    st.session_state["custom_devices"] = {
        "my-scm": {"name": "my-scm", "label": "My SCM", "kind": "scm", "access_unit_bytes": 256,
                   "read_latency_ns": 300.0, "write_latency_ns": 900.0, "source": "test"},
        "unused": {"name": "unused", "kind": "custom", "read_latency_ns": 1.0, "write_latency_ns": 1.0}}
    st.code(scenario_json(Tiny(device="my-scm"), "tiny"))
    st.code(scenario_json(Tiny(), "tiny"))


def test_saved_scenario_carries_the_custom_devices_it_names():
    at = AppTest.from_function(_saved_json_script, default_timeout=60).run()
    assert not at.exception, [e.message for e in at.exception]
    with_dev, without = (json.loads(c.value) for c in at.code)
    assert [d["name"] for d in with_dev["custom_devices"]] == ["my-scm"]  # only the device it uses
    assert DeviceProfile.model_validate(with_dev["custom_devices"][0]) == MY_SCM
    assert "custom_devices" not in without


def _break_even_json(device: str, devices: list[dict] | None) -> bytes:
    scn = {"mode": "device", "device": device, "block_size_bytes": 4096, "io_stack_factor": 1.3, "t_ns": 100.0,
           "T_ns": 130.0, "Tm_ns": 160.0, "max_accesses": 10}
    data = {"page": "break-even", "scenario": scn}
    if devices is not None:
        data["custom_devices"] = devices
    return json.dumps(data).encode()


def test_loading_a_scenario_registers_its_custom_devices():
    at = _page("break_even.py")
    before = {m.label: m.value for m in at.metric}["T [ns]"]
    payload = _break_even_json("my-scm", [MY_SCM.model_dump(mode="json")])
    at.file_uploader(key="be.__upload").set_value(("s.json", payload, "application/json")).run()
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    assert "my-scm" in at.session_state["custom_devices"]
    assert at.selectbox(key="be.device").value == "my-scm"
    assert {m.label: m.value for m in at.metric}["T [ns]"] != before


@pytest.mark.parametrize("devices, expect", [
    (None, "unknown device 'my-scm'"),                                               # device not in the file
    ([{**MY_SCM.model_dump(mode="json"), "name": "dram"}], "custom_devices[0].name"),  # bundled name
    ([{**MY_SCM.model_dump(mode="json"), "read_latency_ns": -1}], "custom_devices[0]"),
])
def test_bad_scenario_file_names_the_problem_and_adds_no_device(devices, expect):
    at = _page("break_even.py")
    at.file_uploader(key="be.__upload").set_value(("s.json", _break_even_json("my-scm", devices),
                                                   "application/json")).run()
    assert not at.exception, [e.message for e in at.exception]
    errs = [e.value.replace("\\", "") for e in at.error]  # as read: Markdown escapes removed
    assert any(expect in e for e in errs), errs
    assert not (at.session_state["custom_devices"] if "custom_devices" in at.session_state else {})
    assert at.selectbox(key="be.device").value == "optane-dcpmm"


def test_saved_device_message_is_shown_after_the_rerun():
    at = _page("devices.py")
    at.text_input[0].set_value("my-scm")
    at.button[0].click().run()
    assert not at.exception
    assert any("Saved my-scm" in s.value for s in at.success), [s.value for s in at.success]
    at.run()  # shown once, not on every later run
    assert not any("Saved my-scm" in s.value for s in at.success)


# ----------------------------------------------------------------------------- uploads and wording

def _npz(**arrays) -> bytes:
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    return buf.getvalue()


_PAGES_U8 = np.random.default_rng(0).integers(0, 256, (3, 4096), dtype=np.uint8)


@pytest.mark.parametrize("data, expect", [
    (b"", "the file is empty"),
    (bytes(range(256)) * 10, "not a .npz file"),                               # numpy would suggest allow_pickle
    (b"PK\x03\x04" + b"\0" * 60, "corrupt or truncated .npz"),                  # zip magic, broken archive
    (_npz(old=_PAGES_U8.astype(float), new=_PAGES_U8), "old: expected uint8 bytes, got float64"),
    (_npz(old=_PAGES_U8, new=_PAGES_U8.astype(np.int16) + 200), "new: expected uint8 bytes"),
    (_npz(old=_PAGES_U8, new=np.array([object()] * 3)), "Python objects"),
    (_npz(a=_PAGES_U8), "expected a NumPy .npz archive"),
])
def test_write_reduction_bad_uploads_give_a_clear_error(data, expect):
    at = _page("write_reduction.py", source="upload")
    at.file_uploader(key="wr.upload").set_value(("p.npz", data, "application/octet-stream")).run()
    assert not at.exception, [e.message for e in at.exception]
    errs = [e.value for e in at.error]
    assert any(expect in e for e in errs), errs
    assert not any("internal error" in e or "allow_pickle" in e for e in errs), errs


def test_write_reduction_valid_upload_runs():
    old = _PAGES_U8.copy()
    new = old.copy()
    new[0, :64] ^= 0xFF
    at = _page("write_reduction.py", source="upload")
    at.file_uploader(key="wr.upload").set_value(("p.npz", _npz(old=old, new=new), "application/octet-stream")).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert {m.label: m.value for m in at.metric}["Evicted pages"] == "3"


def test_show_error_treats_file_errors_as_input_errors():
    from app.components.errors import INPUT_ERRORS

    for exc in (EOFError("No data left in file"), zipfile.BadZipFile("bad"), OSError("truncated"),
                FileNotFoundError("x")):
        assert isinstance(exc, INPUT_ERRORS)
    assert "empty or truncated" in describe(EOFError())
    assert not isinstance(RuntimeError("bug"), INPUT_ERRORS)


def test_validation_message_names_the_field_once_without_pydantic_prefix():
    from app.components.inputs import number_text

    Sizes, _ = number_text("sizes_kib", what="request sizes in KiB", example="4, 64", low=0, high=10)

    class X(Scenario):
        sizes_kib: Sizes = "4"

    with pytest.raises(ValidationError) as e:
        X(sizes_kib="abc")
    text = describe(e.value)
    assert text == "sizes_kib: give request sizes in KiB separated by commas, e.g. 4, 64 (got 'abc')"
    with pytest.raises(ValidationError) as e:
        X(sizes_kib="4", nope=1)
    assert describe(e.value).startswith("nope: Extra inputs are not permitted")


def test_write_cache_metric_label_is_short():
    src = (VIEWS / "write_cache.py").read_text()
    labels = [ast.literal_eval(c.args[0]) for c in ast.walk(ast.parse(src))
              if isinstance(c, ast.Call) and _func_name(c) == "metric" and isinstance(c.args[0], ast.Constant)]
    assert labels and all(len(lab) <= 32 for lab in labels), labels


def test_registry_pages_exist():
    assert {p[1] for p in PAGES} <= {p.name for p in PAGE_FILES}


def test_trace_picker_inputs_survive_leaving_the_page():
    """Inputs of the shared trace picker, fields (n_requests) and extras (lackey synthetic size), are kept."""
    at = AppTest.from_file(str(VIEWS.parent / "main.py"), default_timeout=180).run()
    at.switch_page("views/paging.py").run()
    at.radio(key="pg.trace_source").set_value("synthetic").run()
    at.text_input(key="pg.mem_refs").input("5e3").run()
    at.text_input(key="pg.max_refs").input("4000").run()
    assert not at.exception, [e.message for e in at.exception]
    at.switch_page("views/home.py").run()
    assert "pg.mem_refs" not in at.session_state
    at.switch_page("views/paging.py").run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.radio(key="pg.trace_source").value == "synthetic"
    assert at.text_input(key="pg.mem_refs").value == "5e3"
    assert at.text_input(key="pg.max_refs").value == "4000"
    assert not at.warning, [w.value for w in at.warning]  # no "value set via Session State API" warning


def test_removed_custom_device_falls_back_instead_of_blocking_the_page():
    at = AppTest.from_file(str(VIEWS / "break_even.py"), default_timeout=60)
    at.session_state["custom_devices"] = {"my-scm": MY_SCM.model_dump()}
    at.run()
    at.selectbox(key="be.device").set_value("my-scm").run()
    at.radio(key="be.mode").set_value("manual").run()
    at.session_state["custom_devices"] = {}  # removed on the catalogue page; the device picker is hidden
    at.run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    at.radio(key="be.mode").set_value("device").run()
    assert at.selectbox(key="be.device").value == "optane-dcpmm"
