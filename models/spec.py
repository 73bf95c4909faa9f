"""One registration per model: what the CLI, the sensitivity command, the sweep, the planner and the app read.

Each model declares itself once, in the ``specs.py`` of its package, as a :class:`ModelSpec`: its inputs
and result classes, its one vectorised evaluator, the provenance keys its numbers come from, its
uncertainty adapter, the subcommands and the app page that show it, the sweep adapters that run it and
the planner roles it answers. The way Ramulator 2 lets an implementation register itself with its own
parameters, and libCacheSim puts a policy behind one function table: nothing else lists the models.

Callables are named as ``"package.module:attribute"`` strings and imported only when used
(:meth:`ModelSpec.load`), so listing the models imports only the ``specs`` modules and their packages
(the CLI builds its parsers from this list on every call). A package's specs are registered by importing its ``specs`` module;
:data:`SPEC_PACKAGES` names those modules, in the order the models are listed.

Adding a model (``CONTRIBUTING.md``, "Adding a model"): its package holds the model module(s), a
``specs.py`` declaring it and its tests; the registry lines outside it are one entry in
:data:`SPEC_PACKAGES` (for a new package) and one row in ``app/registry.py`` (for a new page).

>>> [s.name for s in specs()][:3]
['cache_sim', 'mrc', 'trace_stats']
>>> get_spec("breakeven").evaluate_fn()(100.0, 130.0, 160.0)
2.0
>>> get_spec("lifetime").cli
('lifetime',)
>>> [h.name for s in specs() for h in s.sweep]
['cache_sim', 'mrc', 'file_cache', 'write_cache', 'memext']
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["ModelSpec", "SweepHook", "REQUIRED", "SWEEP_BLOCK_BYTES", "SPEC_PACKAGES", "register", "specs", "get_spec", "spec_for_cli", "resolve"]

#: The ``specs`` modules that declare the models, in listing order (one line per package).
SPEC_PACKAGES: tuple[str, ...] = (
    "models.sim.specs",
    "models.traces.specs",
    "models.storage.specs",
    "models.memory.specs",
    "models.endurance.specs",
)


class _Required:
    """The default of a required sweep parameter (:attr:`SweepHook.params`)."""

    def __repr__(self) -> str:
        return "REQUIRED"


#: Marks a sweep parameter without a default.
REQUIRED = _Required()
#: Default analysis block size of the block-trace sweep adapters [bytes] (the CLI's ``--block-size`` default).
SWEEP_BLOCK_BYTES = 4096


def resolve(ref: str | Callable | type | None):
    """The object ``ref`` names: ``"package.module:attribute"`` imported, anything else returned as is.

    >>> resolve("models.endurance.lifetime:lifetime_years").__name__
    'lifetime_years'
    >>> resolve("models.endurance.lifetime")
    Traceback (most recent call last):
    ...
    ValueError: 'models.endurance.lifetime' is not a reference 'package.module:attribute'
    """
    if not isinstance(ref, str):
        return ref
    mod, sep, attr = ref.partition(":")
    if not sep or not mod or not attr:
        raise ValueError(f"{ref!r} is not a reference 'package.module:attribute'")
    obj = importlib.import_module(mod)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


@dataclass(frozen=True)
class SweepHook:
    """How the sweep (:mod:`models.sweep`) runs a model: one named adapter of a sweep spec.

    Attributes
    ----------
    name : str
        The name a sweep spec's ``model`` gives (a contract of the spec files: ``docs/sweep.md``).
    trace_kind : {"block", "memory", None}
        The trace the adapter needs (None: none).
    device : {"catalogue", "drive", None}
        What the spec's devices are for it.
    params : dict
        Parameter -> default; :data:`REQUIRED` for a required one.
    run : str or callable
        ``run(ctx, device, params) -> pandas.DataFrame`` (``ctx``: a
        :class:`~models.sweep.registry.TraceContext`).
    description : str
        One line for help texts.
    """

    name: str
    trace_kind: str | None
    device: str | None
    params: dict
    run: str | Callable
    description: str


@dataclass(frozen=True)
class ModelSpec:
    """The one declaration of a model.

    Attributes
    ----------
    name : str
        Unique model name (the CLI's where it has a subcommand: ``"breakeven"``, ``"amat"``).
    title : str
        What the model computes, in a line.
    module : str
        The module that holds the model's code.
    evaluate : str
        The model's one vectorised function (``"module:function"``): the uncertainty adapter, bands, the
        planner and the sweep call it rather than restating its equation.
    inputs, result : str or None
        Its :class:`~models._base.ModelInput` and :class:`~models._base.ModelResult` classes.
    provenance : tuple of str
        The registry keys (:mod:`models.provenance`) its numbers read; an entry ending in ``.`` stands
        for every key with that prefix.
    seeds : tuple of str
        The seed papers whose claims check it (``"004"``).
    cli : tuple of str
        Its subcommands (``pcm-planner <name>``); the first one builds its uncertainty models.
    page : str or None
        The url key of its app page (``app/registry.py``).
    uncertainty : str or None
        Its uncertainty adapter (``models.<package>.uncertainty``, beside the model), returning an
        :class:`~models.uncertainty.UncertainModel`. A model with one and a subcommand is analysed by
        ``--uncertainty N`` and ``pcm-planner sensitivity <cli>``: the subcommand's module defines
        ``uncertain_models(args, **context)`` (one model per output row) and, when the models need
        objects the subcommand computes, ``sensitivity_context(args)``.
    sweep : tuple of SweepHook
        The named sweep adapters that run it.
    roles : tuple of str
        The planner roles (:mod:`models.planner`) whose verdicts it computes.
    """

    name: str
    title: str
    module: str
    evaluate: str
    inputs: str | None = None
    result: str | None = None
    provenance: tuple[str, ...] = ()
    seeds: tuple[str, ...] = ()
    cli: tuple[str, ...] = ()
    page: str | None = None
    uncertainty: str | None = None
    sweep: tuple[SweepHook, ...] = ()
    roles: tuple[str, ...] = field(default=())

    def load(self, what: str):
        """The object a reference field names (``"evaluate"``, ``"inputs"``, ``"result"``, ``"uncertainty"``)."""
        return resolve(getattr(self, what))

    def evaluate_fn(self) -> Callable:
        """The model's vectorised evaluator."""
        return self.load("evaluate")

    def provenance_keys(self) -> list[str]:
        """:attr:`provenance` with every prefix expanded to the registry's keys, in order, without repeats."""
        from models.provenance import param_names

        keys: list[str] = []
        for k in self.provenance:
            keys += param_names(k) if k.endswith(".") else [k]
        return list(dict.fromkeys(keys))


_SPECS: dict[str, ModelSpec] = {}


def register(spec: ModelSpec) -> ModelSpec:
    """Add ``spec`` to the registry (a package's ``specs`` module calls it once per model).

    A second registration of the same name is refused unless it is the same declaration (a module
    imported twice)."""
    old = _SPECS.get(spec.name)
    if old is not None and old != spec:
        raise ValueError(f"model {spec.name!r} is registered twice ({old.module}, {spec.module})")
    _SPECS[spec.name] = spec
    return spec


def _load_all() -> None:
    for mod in SPEC_PACKAGES:
        importlib.import_module(mod)


def specs() -> list[ModelSpec]:
    """Every registered model, packages in :data:`SPEC_PACKAGES` order, each in its declaration order."""
    _load_all()
    order = {m: i for i, m in enumerate(SPEC_PACKAGES)}
    return sorted(_SPECS.values(), key=lambda s: order.get(_specs_module(s), len(order)))


def _specs_module(spec: ModelSpec) -> str:
    pkg = spec.module.rpartition(".")[0]
    while pkg:
        if f"{pkg}.specs" in SPEC_PACKAGES:
            return f"{pkg}.specs"
        pkg = pkg.rpartition(".")[0]
    return ""


def get_spec(name: str) -> ModelSpec:
    """The model called ``name``; KeyError listing the valid names."""
    _load_all()
    if name not in _SPECS:
        raise KeyError(f"unknown model {name!r}; valid: {', '.join(s.name for s in specs())}")
    return _SPECS[name]


def spec_for_cli(command: str) -> ModelSpec:
    """The model whose first subcommand is ``command``; KeyError listing them."""
    for s in specs():
        if s.cli and s.cli[0] == command:
            return s
    raise KeyError(f"no model behind the subcommand {command!r}; "
                   f"valid: {', '.join(s.cli[0] for s in specs() if s.cli)}")
