"""Registry names and device values (``"device:<name>.<column>"``) resolved to what, kind, source, value and unit.

Above the registry (:mod:`models.provenance.registry`) and the device catalogue
(:mod:`models.devices`), which it reads.
"""

from __future__ import annotations

import pandas as pd

from models.devices import MODEL_COLUMNS, DeviceProfile, get_device
from models.provenance.registry import PARAMS, param, param_names
from models.provenance_kinds import UNVERIFIED

__all__ = ["provenance_of", "device_keys", "trace_keys", "trace_values", "unit_of", "provenance_table",
           "depends_on_unverified"]


def provenance_of(key: str, devices: dict | None = None) -> tuple[str, str, str]:
    """``(what, kind, source)`` of a registry name or a device value ``"device:<name>.<column>"``.

    ``devices`` (name -> DeviceProfile) resolves device names beyond the bundled catalogue
    (e.g. a session's custom devices).

    >>> provenance_of("device:hdd-7200.avg_seek_ns")[1]
    'derived from a seed result'
    >>> provenance_of("memext.eviction_buffer_pages")[:2]
    ('eviction buffer in DRAM (buffered write-back)', 'assumed')
    """
    if key.startswith("device:"):
        dev_name, _, column = key[len("device:"):].rpartition(".")
        dev = (devices or {}).get(dev_name) or get_device(dev_name)
        return (f"{dev.name} {column}", dev.value_kind(column), dev.source)
    p = param(key)
    return p.description, p.kind, p.provenance.source


def device_keys(device: DeviceProfile | str, columns=None) -> list[str]:
    """Keys ``"device:<name>.<column>"`` of a device's set numeric values (those a model reads,
    :data:`~models.devices.MODEL_COLUMNS`, or ``columns``): a profile (e.g. a session's custom device) or a
    catalogue device's name.

    >>> device_keys("hdd-7200", ["avg_seek_ns", "endurance_writes_per_cell"])
    ['device:hdd-7200.avg_seek_ns']
    """
    dev = get_device(device) if isinstance(device, str) else device
    return [f"device:{dev.name}.{c}" for c in (MODEL_COLUMNS if columns is None else columns)
            if getattr(dev, c) is not None]


def trace_keys(trace) -> tuple[list[str], dict[str, object]]:
    """(keys, values) of a trace's registered parameters: a synthetic preset's ``trace.<preset>.*``
    and the dataset scale it was generated at; nothing for a real (bundled or uploaded) trace.

    >>> from models.traces import load
    >>> keys, values = trace_keys(load("synthetic:mail", n_requests=100))
    >>> "trace.mail.run_requests" in keys, values
    (True, {'trace.synthetic_scale': 0.05})
    """
    meta = getattr(trace, "meta", None) or {}
    preset = meta.get("preset")
    if not preset:
        return [], {}
    keys = param_names(f"trace.{preset}.")
    if "scale" in meta:
        keys.append("trace.synthetic_scale")
        return keys, {"trace.synthetic_scale": meta["scale"]}
    return keys, {}


def trace_values(trace) -> dict[str, object]:
    """The values half of :func:`trace_keys` (the scale a synthetic preset was generated at)."""
    return trace_keys(trace)[1]


_DEVICE_UNITS = {"access_unit_bytes": "bytes", "read_latency_ns": "ns", "write_latency_ns": "ns",
                 "read_bandwidth_MBps": "MB/s", "write_bandwidth_MBps": "MB/s", "interface_bandwidth_MBps": "MB/s",
                 "endurance_writes_per_cell": "writes/cell", "avg_seek_ns": "ns", "rpm": "rev/min", "module_GB": "GB"}


def unit_of(key: str) -> str:
    """The unit of a registry name's or device key's value ("-" when it has none).

    >>> unit_of("device:dram.read_latency_ns"), unit_of("memext.submit_ns")
    ('ns', 'ns')
    """
    if key.startswith("device:"):
        return _DEVICE_UNITS.get(key.rpartition(".")[2], "-")
    return PARAMS[key].unit or "-"


def provenance_table(keys, devices: dict | None = None) -> pd.DataFrame:
    """Registry names and device keys resolved to ``key, what, value, unit, kind, source`` rows (no repeats).

    >>> provenance_table(["memext.submit_ns", "device:dram.read_latency_ns"])[["key", "value", "kind"]]
                               key   value       kind
    0             memext.submit_ns  3500.0  published
    1  device:dram.read_latency_ns   101.5  published
    """
    rows = []
    for k in dict.fromkeys(keys):
        what, kind, source = provenance_of(k, devices)
        if k.startswith("device:"):
            dev_name, _, col = k[len("device:"):].rpartition(".")
            dev = (devices or {}).get(dev_name) or get_device(dev_name)
            value, unit = getattr(dev, col), unit_of(k)
        else:
            value, unit = PARAMS[k].value, PARAMS[k].unit
        rows.append({"key": k, "what": what, "value": value, "unit": unit, "kind": kind, "source": source})
    return pd.DataFrame(rows, columns=["key", "what", "value", "unit", "kind", "source"])


def depends_on_unverified(keys, devices: dict | None = None) -> list[tuple[str, str, str, str]]:
    """The keys among ``keys`` whose kind is derived, simulated or assumed (:data:`~models.provenance_kinds.UNVERIFIED`):
    ``(key, what, kind, source)``.

    >>> [k for k, *_ in depends_on_unverified(["memext.submit_ns", "memext.eviction_buffer_pages"])]
    ['memext.eviction_buffer_pages']
    """
    out = []
    for k in dict.fromkeys(keys):
        what, kind, source = provenance_of(k, devices)
        if kind in UNVERIFIED:
            out.append((k, what, kind, source))
    return out
