"""Device widgets: the picker over the bundled catalogue plus the user's custom devices, the custom-device
form and its CSV import/export.

The devices themselves (the session's custom devices, names, the link parameter) live in
:mod:`app.components.device_store`, which draws nothing; its names are re-exported here.
"""

from __future__ import annotations

from collections.abc import Callable

from app.components.device_store import (
    CUSTOM_KEY,
    DEV_PARAM,
    DeviceName,
    _eligible,
    add_custom_device,
    all_devices,
    custom_devices,
    device_field,
    device_names,
    device_provenance_table,
    device_table,
    devices_param,
    inherit_provenance,
    restore_url_devices,
)
from models.devices import DeviceProfile, load_catalogue

__all__ = ["CUSTOM_KEY", "DEV_PARAM", "all_devices", "add_custom_device", "custom_devices", "device_names",
           "device_field", "DeviceName", "device_picker", "device_table", "device_provenance_table",
           "inherit_provenance", "devices_param", "restore_url_devices", "custom_device_form", "device_csv_controls"]


def device_picker(label: str, *, key: str, kinds: tuple[str, ...] | None = None, help: str | None = None,
                  endurance: bool = False, describe: Callable[[DeviceProfile], str] | None = None) -> DeviceProfile:
    """A selectbox of devices (optionally only some kinds); returns the chosen profile.

    The options are :func:`device_names` (``kinds``, ``endurance``); ``describe`` gives an option's
    text from its profile (default: label and name).
    """
    import streamlit as st

    devs = {n: d for n, d in all_devices().items() if _eligible(d, kinds, endurance)}
    names = list(devs)
    if st.session_state.get(key) not in names:  # e.g. a custom device removed on the catalogue page
        st.session_state[key] = names[0]
    text = describe or (lambda d: f"{d.label or d.name} ({d.name})")
    name = st.selectbox(label, names, key=key, help=help, format_func=lambda n: text(devs[n]))
    return devs[name]


#: DeviceProfile field -> the form's label (messages name what the user sees). The number inputs have no
#: browser-side bounds: a value out of range reaches the check below, which says why it is not saved.
FORM_LABELS = {"name": "Name (identifier)", "label": "Label", "kind": "Kind", "access_unit_bytes": "Access unit [bytes]",
               "read_latency_ns": "Read latency", "write_latency_ns": "Write latency",
               "avg_seek_ns": "Mean seek", "read_bandwidth_MBps": "Read bandwidth",
               "write_bandwidth_MBps": "Write bandwidth", "endurance_writes_per_cell": "Endurance [writes/cell]",
               "rpm": "RPM", "price_usd_per_GB_low": "Price [$/GB]", "price_usd_per_GB_high": "Price [$/GB]"}


#: Allowed access unit [bytes] of the form (its whole-number field and the save check read it).
_UNIT_LOW, _UNIT_HIGH = 1, 1 << 30
_KINDS = ["custom", "pcm", "scm", "flash", "ssd", "dram", "hdd"]


#: The form's number fields: DeviceProfile field -> (widget key suffix, label suffix, low, high, low open,
#: what 0 means when 0 stands for "no value"). The save check reads the same table as the fields' captions.
_FORM_NUMBERS = {
    "read_latency_ns": ("rl", "", 0.0, 1e12, True, None),
    "write_latency_ns": ("wl", "", 0.0, 1e12, True, None),
    "avg_seek_ns": ("seek", " (HDD only)", 0.0, 1e11, False, None),
    "read_bandwidth_MBps": ("rb", "", 0.0, 1e7, True, "derive"),
    "write_bandwidth_MBps": ("wb", "", 0.0, 1e7, True, "derive"),
    "endurance_writes_per_cell": ("en", "", 0.0, 1e18, True, "unlimited"),
    "rpm": ("rpm", " (HDD only)", 0.0, 30000.0, True, "n/a"),
    "price_usd_per_GB_low": ("price", "", 0.0, 1e6, True, "no price"),  # one price: the planner's economics
}


def _form_default(base: DeviceProfile, field: str) -> float:
    """What a form field shows for ``base`` (the price: the middle of its range, :attr:`DeviceProfile.price_usd_per_GB`)."""
    v = base.price_usd_per_GB if field == "price_usd_per_GB_low" else getattr(base, field)
    return v or 0.0


def _with_price(nums: dict, base: DeviceProfile) -> dict:
    """The form's one price as the profile's range: the base device's range and date when the price is its own
    (unchanged), else that price as both ends, dated "user-defined"; no price: no range."""
    p = nums.pop("price_usd_per_GB_low", None)
    if p is None:
        return {**nums, "price_usd_per_GB_low": None, "price_usd_per_GB_high": None, "price_date": ""}
    if base.price_usd_per_GB is not None and p == base.price_usd_per_GB:
        return {**nums, "price_usd_per_GB_low": base.price_usd_per_GB_low,
                "price_usd_per_GB_high": base.price_usd_per_GB_high, "price_date": base.price_date}
    return {**nums, "price_usd_per_GB_low": p, "price_usd_per_GB_high": p, "price_date": "user-defined"}


#: Units a form field can be typed in (a select next to the number) -> factor to the catalogue's unit
#: (ns, MB/s with 1 MB = 1e6 B); the stored profile keeps the catalogue's units.
_TIME_UNITS = {"ns": 1.0, "µs": 1e3, "ms": 1e6}
_RATE_UNITS = {"MB/s": 1.0, "GB/s": 1e3}
_FIELD_UNITS = {"read_latency_ns": _TIME_UNITS, "write_latency_ns": _TIME_UNITS, "avg_seek_ns": _TIME_UNITS,
                "read_bandwidth_MBps": _RATE_UNITS, "write_bandwidth_MBps": _RATE_UNITS}


def unit_factor(field: str, unit: str | None) -> float:
    """Factor from the unit a form field was typed in to the catalogue's unit of ``field`` (1 for a field
    without a unit select or no unit given).

    >>> unit_factor("read_latency_ns", "µs"), unit_factor("write_bandwidth_MBps", "GB/s"), unit_factor("rpm", None)
    (1000.0, 1000.0, 1.0)
    """
    units = _FIELD_UNITS.get(field)
    if units is None or unit is None:
        return 1.0
    return units[unit]


def _form_keys(key: str, base_name: str) -> dict[str, str]:
    """Session keys of the form's fields, one set per "Start from" device (so picking another one
    pre-fills the form again, as the unkeyed fields did)."""
    short = ["name", "label", "kind"] + [spec[0] for spec in _FORM_NUMBERS.values()]
    keys = {f: f"{key}.f.{f}.{base_name}" for f in short}
    keys["unit"] = f"{key}.unit.{base_name}"
    for field, (sh, *_rest) in _FORM_NUMBERS.items():
        if field in _FIELD_UNITS:
            keys[f"{sh}.u"] = f"{key}.u.{sh}.{base_name}"  # the unit select next to the number
    return keys


def _form_number(field: str, text: object, factor: float = 1.0) -> float | None:
    """The value of the form's number field ``field`` typed as ``text`` in a unit ``factor`` times the
    catalogue's (:func:`unit_factor`), in the catalogue's unit (None for a 0 that means "no value");
    ValueError naming what is allowed (in the typed unit) otherwise."""
    from app.components.inputs import check_number, parse_number

    _, _, low, high, lo_open, zero = _FORM_NUMBERS[field]
    x = check_number(parse_number(text), low=low / factor, high=high / factor, lo_open=lo_open, zero=zero) * factor
    return None if zero is not None and x == 0 else x


def _save_custom_device(key: str, base_name: str, on_saved: Callable[[DeviceProfile], None] | None) -> None:
    """on_click of "Save device": runs before the script, so the whole page (the tables and pickers drawn
    above the form) already shows the saved device in this run -- no second run. The outcome is left in
    the session: ``{key}.__saved`` (the message shown above the form) or ``{key}.__saveerr`` (shown under
    the button by :func:`custom_device_form`)."""
    import streamlit as st
    from pydantic import ValidationError

    from app.components.errors import md_escape
    from app.components.inputs import parse_int

    ss = st.session_state
    ss.pop(f"{key}.__saveerr", None)
    base = all_devices().get(base_name)
    if base is None:
        return
    k = _form_keys(key, base_name)
    is_custom = base_name in custom_devices()
    try:  # a value a field shows as refused (its own message says why) saves nothing
        unit = parse_int(ss.get(k["unit"], str(base.access_unit_bytes)))
        if not _UNIT_LOW <= unit <= _UNIT_HIGH:
            return
        nums = {"access_unit_bytes": unit}
        for field, (short, *_rest) in _FORM_NUMBERS.items():
            text = ss.get(k[short])
            f = unit_factor(field, ss.get(k[f"{short}.u"]) if f"{short}.u" in k else None)
            own = base.price_usd_per_GB if field == "price_usd_per_GB_low" else getattr(base, field)
            nums[field] = own if text is None else _form_number(field, text, f)
    except ValueError:
        return
    nums = _with_price(nums, base)
    try:
        name = ss.get(k["name"], base_name if is_custom else f"my-{base_name}")
        label = ss.get(k["label"], base.label if is_custom else f"My {base.label or base_name}")
        date = nums.pop("price_date")
        prof = DeviceProfile(name=name.strip(), label=label, kind=ss.get(k["kind"], base.kind), **nums,
                             price_date=date, source=f"user-defined (from {base_name})",
                             provenance=inherit_provenance(base, nums))
        add_custom_device(prof)
        if on_saved is not None:
            on_saved(prof)
        ss[f"{key}.__saved"] = (f"Saved {md_escape(prof.name)}; it is now in every device picker, in this page's "
                                "link and in saved scenarios.")
    except ValidationError as e:  # name each bad value by the label of its field in the form
        ss[f"{key}.__saveerr"] = "Custom device not saved: " + "; ".join(
            f"{FORM_LABELS.get(str(err['loc'][0]) if err['loc'] else '', 'inputs')}: "
            f"{md_escape(str(err['msg']).removeprefix('Value error, '), 200)}" for err in e.errors())
    except Exception as e:  # noqa: BLE001 - shown as a message naming the field
        ss[f"{key}.__saveerr"] = e


def custom_device_form(key: str, *, on_saved: Callable[[DeviceProfile], None] | None = None,
                       narrow: bool = False) -> None:
    """"Start from" a device, edit its values in a form and save it as a custom device (this session,
    the page's link and its scenario file). ``key`` namespaces the widgets; ``on_saved`` runs after a save,
    before the script (the save is the button's callback, so the page shows the device in the same run).
    ``narrow``: the fields one under another (a page's side column), else in three columns.
    Messages name the form's labels.

    A number with a unit has its unit select beside it, on the row of the number's box; the select's label
    ("Read latency: unit", its name for a screen reader and the tests) is not drawn, and the number's own help
    says the unit is picked beside it."""
    import streamlit as st

    from app.components.errors import md_escape, show_error
    from app.components.inputs import decimal_input, whole_number_input

    saved = st.session_state.pop(f"{key}.__saved", None)  # set by the save callback of this run
    if saved:
        st.success(saved, icon=":material/check_circle:")
    devs = all_devices()
    if st.session_state.get(f"{key}.base") not in devs:
        st.session_state[f"{key}.base"] = next(iter(devs))
    base_name = st.selectbox("Start from", list(devs), key=f"{key}.base",
                             format_func=lambda n: f"{devs[n].label or n} ({n})",
                             help="Pre-fills the form; pick one of your custom devices to edit it.")
    base = devs[base_name]
    is_custom = base_name in custom_devices()
    k = _form_keys(key, base_name)
    with st.form(f"{key}.form"):
        c1, c2, c3 = (st.container(),) * 3 if narrow else st.columns(3)
        c1.text_input("Name (identifier)", base_name if is_custom else f"my-{base_name}", key=k["name"])
        c1.text_input("Label", base.label if is_custom else f"My {base.label or base_name}", key=k["label"])
        c1.selectbox("Kind", _KINDS, index=_KINDS.index(base.kind), key=k["kind"])
        # a whole number typed as text (1e3 = 1000, "4,096"); one field per starting device, so picking another
        # "Start from" pre-fills it again
        not_saved = "the device is not saved until this is fixed"
        unit = whole_number_input(k["unit"], FORM_LABELS["access_unit_bytes"], low=_UNIT_LOW, high=_UNIT_HIGH,
                                  default=base.access_unit_bytes, container=c2, refused=not_saved)
        refused = [] if unit is not None else [FORM_LABELS["access_unit_bytes"]]
        for i, (field, (short, where, low, high, lo_open, zero)) in enumerate(_FORM_NUMBERS.items()):
            label = FORM_LABELS[field] + where
            col = c2 if i < 3 else c3
            f, help_, box, below = 1.0, None, col, None
            if field in _FIELD_UNITS:  # the number as the user thinks of it, its unit picked next to it
                units = list(_FIELD_UNITS[field])
                # one row of number box and unit select (their bottoms aligned), the allowed range under the row
                box, ucol = col.columns([3, 2], vertical_alignment="bottom")
                below = col.container()
                if st.session_state.get(k[f"{short}.u"]) not in units:
                    st.session_state[k[f"{short}.u"]] = units[0]
                # a label over a select two fifths of a column wide broke a letter per line: not drawn, still the
                # select's accessible name; the number's label and help say the unit is picked beside it
                f = unit_factor(field, ucol.selectbox(f"{label}: unit", units, key=k[f"{short}.u"],
                                                      label_visibility="collapsed"))
                help_ = f"typed in the unit picked beside it ({', '.join(units)}); saved in the catalogue's {units[0]}"
            if decimal_input(k[short], label, low=low / f, high=high / f, lo_open=lo_open, zero=zero,
                             default=_form_default(base, field) / f, container=box, help=help_,
                             refused=not_saved, below=below) is None:
                refused.append(label)
        if st.form_submit_button("Save device", on_click=_save_custom_device, args=(key, base_name, on_saved)):
            err = st.session_state.pop(f"{key}.__saveerr", None)
            if refused:  # why is shown under each field
                st.error("Custom device not saved: " + md_escape(", ".join(refused)) + ": see the message under "
                         + ("it" if len(refused) == 1 else "each"), icon=":material/error:")
            elif isinstance(err, str):
                st.error(err, icon=":material/error:")
            elif err is not None:
                try:  # re-raised so a bug is logged with its traceback
                    raise err
                except Exception as e:  # noqa: BLE001 - shown as a message naming the field
                    show_error(e, "Custom device")


def _import_csv(key: str) -> None:
    """on_change of the CSV uploader: add the file's devices, all or none (the message names row and column)."""
    import streamlit as st

    from models.devices import devices_from_csv

    up = st.session_state.get(f"{key}.csv")
    st.session_state.pop(f"{key}.__csverr", None)
    st.session_state.pop(f"{key}.__csvok", None)
    if up is None:
        return
    try:
        profiles = devices_from_csv(up.getvalue(), where=up.name)
        cat = load_catalogue()
        bundled = [n for n in profiles if n in cat]
        if bundled:
            raise ValueError(f"{up.name}: {', '.join(bundled)} is the name of a bundled device; rename the row(s)")
    except ValueError as e:
        st.session_state[f"{key}.__csverr"] = str(e)
        return
    have = st.session_state.setdefault(CUSTOM_KEY, {})
    for name, p in profiles.items():
        have[name] = p.model_dump()
    st.session_state[f"{key}.__csvok"] = f"Imported {len(profiles)} device(s): {', '.join(profiles)}"


def device_csv_controls(key: str, *, narrow: bool = False) -> None:
    """Download the custom devices as CSV (the catalogue's columns, formula-safe) and import such a file.

    A bad file changes nothing and its message names the row and the column. ``narrow``: the two one under the
    other (a page's side column), else side by side."""
    import streamlit as st

    from app.components.errors import md_escape
    from models.devices import devices_to_csv

    dumps = custom_devices()
    c1, c2 = (st.container(),) * 2 if narrow else st.columns(2)
    with c1:
        if dumps:
            # the CSV of unchanged custom devices is kept in the session, not rebuilt on every rerun
            sig = repr(list(dumps.items()))
            cached = st.session_state.get(f"{key}.__csvbytes")
            if cached is None or cached[0] != sig:
                cached = (sig, devices_to_csv([DeviceProfile.model_validate(d) for d in dumps.values()]))
                st.session_state[f"{key}.__csvbytes"] = cached
            st.download_button("Download my devices (CSV)", cached[1], file_name="my-devices.csv",
                               mime="text/csv", key=f"{key}.csvdl", icon=":material/download:")
        else:
            st.caption("No custom devices yet: save one with the form, or import a CSV.")
    with c2:
        st.file_uploader("Import devices (CSV, the catalogue's columns)", type=["csv", "txt"], key=f"{key}.csv",
                         on_change=_import_csv, args=(key,),
                         help="Columns as in the device catalogue (name, label, kind, byte_addressable, "
                              "access_unit_bytes, read_latency_ns, write_latency_ns, ..., source, provenance); "
                              "only name, read_latency_ns and write_latency_ns are required. Values without a "
                              "provenance kind are user-defined.")
    err = st.session_state.get(f"{key}.__csverr")
    if err:
        st.error("Devices not imported: " + md_escape(err, 400), icon=":material/error:")
    ok = st.session_state.get(f"{key}.__csvok")
    if ok:
        st.success(md_escape(ok, 400), icon=":material/check_circle:")
