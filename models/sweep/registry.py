"""The models a sweep can run, each as an adapter ``run(ctx, device, params) -> DataFrame``.

Named adapters (:data:`SWEEP_MODELS`: each model's own, declared with it in its package's ``specs.py``,
:mod:`models.spec`) wrap the trace-driven simulators with their parameters;
``call:package.module:function`` runs any function of the :mod:`models` package. ``ctx`` is a
:class:`TraceContext` giving the task's trace and its block split, cached per process, so a
worker loads each trace once whatever the number of its tasks (threads of one worker needing the same
trace wait for one load). With a share token (:func:`sharing`, set by the sweep when workers share a
host), a worker maps the block split another worker of its host published instead of loading and
splitting the trace again (:mod:`models.sweep.hostshare`).
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import threading
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd

from models.spec import REQUIRED, SweepHook

__all__ = ["SweepModel", "SWEEP_MODELS", "TraceContext", "get_model", "load_counts", "shared_counts", "sharing", "end_share"]

#: Loads per trace in this process (tests check each worker loads a trace once).
_LOADS: Counter = Counter()
#: Block splits this process mapped from another worker of its host instead of loading the trace.
_SHARED: Counter = Counter()
_SHARE = threading.local()  # .token: the running sweep's share token in this thread (None: no sharing)


@contextmanager
def sharing(token: str | None):
    """Within the block, this thread's trace splits are shared with the other workers of the host
    under ``token`` (:mod:`models.sweep.hostshare`; None: not shared)."""
    before = getattr(_SHARE, "token", None)
    _SHARE.token = token
    try:
        yield
    finally:
        _SHARE.token = before


def _share_prefix(entry_json: str) -> str:
    return hashlib.sha256(entry_json.encode()).hexdigest()[:32]


_LOCKS: dict = {}
_LOCKS_GUARD = threading.Lock()


def _key_lock(key) -> threading.Lock:
    """One lock per cache key: threads of one worker needing the same trace wait for one load."""
    with _LOCKS_GUARD:
        return _LOCKS.setdefault(key, threading.Lock())


def _trace(entry_json: str):
    with _key_lock(("trace", entry_json)):
        return _trace_cached(entry_json)


@lru_cache(maxsize=4)
def _trace_cached(entry_json: str):
    import json

    from models.traces import load

    e = json.loads(entry_json)
    _LOADS[entry_json] += 1
    return load(e["source"], max_requests=e["max_requests"], format=e["format"], name=e["name"], **e["options"]) \
        if not _is_bundled(e["source"]) else load(e["source"], max_requests=e["max_requests"], **e["options"])


def _is_bundled(source: str) -> bool:
    from pathlib import Path

    return not Path(source).is_file()


def _blocks(entry_json: str, block_size: int):
    with _key_lock(("blocks", entry_json, block_size)):
        return _blocks_cached(entry_json, block_size)


def _blocks_cached(entry_json: str, block_size: int):
    token = getattr(_SHARE, "token", None)
    return _blocks_kept(entry_json, block_size) if token is None else _blocks_shared(entry_json, block_size, token)


@lru_cache(maxsize=8)
def _blocks_kept(entry_json: str, block_size: int):
    from models.traces.blocks import split_blocks

    return split_blocks(_trace(entry_json), block_size)


@lru_cache(maxsize=8)
def _blocks_shared(entry_json: str, block_size: int, token: str):
    """The split of another worker of this host when it published one, else split here (and published)."""
    from models.sweep import hostshare

    key = f"{_share_prefix(entry_json)}-{int(block_size)}"
    acc = hostshare.lookup(token, key)
    if acc is not None:
        _SHARED[entry_json] += 1
        return acc
    acc = _blocks_kept(entry_json, block_size)
    hostshare.publish(token, key, acc)
    return acc


def _split_shared(entry_json: str) -> bool:
    """Whether some block split of this trace is shared on this host for the running sweep (then it is a
    block trace: a memory trace is never split)."""
    from models.sweep import hostshare

    token = getattr(_SHARE, "token", None)
    return token is not None and hostshare.has_split(token, _share_prefix(entry_json))


def end_share(token: str) -> None:
    """Forget and remove the splits shared under ``token`` (a sweep's end; run on every worker)."""
    from models.sweep import hostshare

    _blocks_shared.cache_clear()
    hostshare.drop(token)


def load_counts() -> dict[str, int]:
    """How many times this process loaded each trace (entry JSON -> loads)."""
    return dict(_LOADS)


def shared_counts() -> dict[str, int]:
    """How many block splits of each trace this process mapped from another worker (entry JSON -> count)."""
    return dict(_SHARED)


class TraceContext:
    """A task's trace, loaded once per process (``trace``, ``blocks(block_size)``)."""

    def __init__(self, entry):
        self.entry = entry
        self._json = None if entry is None else entry.model_dump_json()

    @property
    def trace(self):
        """The loaded trace (BlockTrace or MemTrace)."""
        return _trace(self._json)

    @property
    def kind(self) -> str:
        """``"block"`` or ``"memory"``: from a split shared on this host when there is one (the trace is then
        not loaded here), else from the loaded trace."""
        if self._json is not None and _split_shared(self._json):
            return "block"
        return "memory" if hasattr(self.trace, "address") else "block"

    def blocks(self, block_size: int):
        """``split_blocks(trace, block_size)`` (cached)."""
        return _blocks(self._json, int(block_size))


@dataclass(frozen=True)
class SweepModel(SweepHook):
    """A model a sweep can run: a registered :class:`~models.spec.SweepHook` with its ``run`` resolved to the
    callable ``run(ctx, device, params) -> pandas.DataFrame`` (``params`` None for ``call:`` adapters: they take
    the function's own keywords), and the checks a sweep spec needs."""

    def check_params(self, given: dict, where: str) -> None:
        """ValueError naming unknown or missing parameters."""
        if self.params is None:  # call: adapters take the function's own keywords
            return
        unknown = sorted(set(given) - set(self.params))
        if unknown:
            raise ValueError(f"{where}: unknown parameter(s) {', '.join(unknown)}; valid: {', '.join(self.params)}")
        missing = [k for k, v in self.params.items() if v is REQUIRED and k not in given]
        if missing:
            raise ValueError(f"{where}: missing parameter(s) {', '.join(missing)}")

    def check_device(self, name: str, where: str) -> None:
        """ValueError naming a device the model cannot use."""
        from models.devices import device_names

        valid = device_names()
        if self.device == "drive":
            from models.storage.hdd import drive_names

            valid = [d for d in valid if d.startswith("hdd-")] + list(drive_names())
        if name not in valid:
            raise ValueError(f"{where}: unknown device {name!r}; valid: {', '.join(valid)}")

    def with_defaults(self, params: dict) -> dict:
        return {**{k: v for k, v in (self.params or {}).items() if v is not REQUIRED}, **params}


def _call(target: str) -> SweepModel:
    """Adapter for ``call:package.module:function`` (the function's result: a frame, ``to_frame()``, or scalars)."""
    mod_name, _, fn_name = target.partition(":")
    if not (mod_name == "models" or mod_name.startswith("models.")) or not fn_name:
        raise ValueError(f"model {('call:' + target)!r}: give call:models.<module>:<function> (functions of the "
                         "models package only)")
    try:
        fn = getattr(importlib.import_module(mod_name), fn_name)
    except (ImportError, AttributeError) as e:
        raise ValueError(f"model call:{target}: cannot import it ({e})") from None
    if not callable(fn):
        raise ValueError(f"model call:{target}: {fn_name} is not a function")
    sig = inspect.signature(fn).parameters

    def run(ctx: TraceContext, device, p: dict) -> pd.DataFrame:
        kw = dict(p)
        if "trace" in sig and ctx.entry is not None:
            kw["trace"] = ctx.trace
        if "device" in sig and device is not None:
            kw["device"] = device
        out = fn(**kw)
        if isinstance(out, pd.DataFrame):
            return out
        if hasattr(out, "to_frame"):
            return out.to_frame()
        if hasattr(out, "model_dump"):  # a pydantic input set (e.g. derived timings)
            return pd.DataFrame([out.model_dump()])
        if isinstance(out, dict):
            return pd.DataFrame([out])
        if isinstance(out, (int, float, str, bool, np.integer, np.floating)):
            return pd.DataFrame({"value": [out]})
        raise TypeError(f"call:{target} returned {type(out).__name__}, not a table, a result or a number")

    return SweepModel(f"call:{target}", "block" if "trace" in sig else None,
                      "catalogue" if "device" in sig else None, None, run, fn.__doc__ or target)


def _registered() -> dict[str, SweepModel]:
    """The sweep adapters the models register (:attr:`models.spec.ModelSpec.sweep`), by name, in registry order."""
    from models.spec import resolve, specs

    out: dict[str, SweepModel] = {}
    for spec in specs():
        for h in spec.sweep:
            if h.name in out:
                raise ValueError(f"sweep model {h.name!r} is registered twice (the second by {spec.name})")
            out[h.name] = SweepModel(h.name, h.trace_kind, h.device, dict(h.params), resolve(h.run), h.description)
    return out


#: The named sweep models: every model's registered sweep adapters (:mod:`models.spec`).
SWEEP_MODELS: dict[str, SweepModel] = _registered()


def get_model(name: str) -> SweepModel:
    """The sweep model called ``name`` (a :data:`SWEEP_MODELS` name or ``call:models.<module>:<function>``)."""
    if name.startswith("call:"):
        return _call(name[5:])
    if name not in SWEEP_MODELS:
        raise ValueError(f"unknown sweep model {name!r}; valid: {', '.join(SWEEP_MODELS)}, "
                         "or call:models.<module>:<function>")
    return SWEEP_MODELS[name]
