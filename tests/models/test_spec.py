"""The model registry (models/spec.py): one declaration per model, read by the CLI, the sweep and the app."""

from __future__ import annotations

import sys
import textwrap

import pytest

from models import spec as S
from models._base import ModelInput, ModelResult


def test_every_reference_of_every_spec_resolves_to_what_it_names():
    for s in S.specs():
        assert callable(s.evaluate_fn()), s.name
        if s.inputs:
            assert issubclass(s.load("inputs"), ModelInput), s.name
        if s.result:
            assert issubclass(s.load("result"), ModelResult), s.name
        if s.uncertainty:
            assert callable(s.load("uncertainty")), s.name
        assert sys.modules.get(s.module) is not None or __import__(s.module), s.name
        for h in s.sweep:
            assert callable(S.resolve(h.run)), (s.name, h.name)


def test_names_are_unique_and_the_lookups_find_them():
    names = [s.name for s in S.specs()]
    assert len(names) == len(set(names))
    for s in S.specs():
        assert S.get_spec(s.name) is s
        if s.cli:
            assert S.spec_for_cli(s.cli[0]) is s
    with pytest.raises(KeyError, match="valid: cache_sim"):
        S.get_spec("no-such-model")
    with pytest.raises(KeyError, match="no model behind"):
        S.spec_for_cli("validate")


def test_a_second_different_registration_of_a_name_is_refused():
    s = S.get_spec("lifetime")
    assert S.register(s) is s  # the same declaration again (a module imported twice): accepted
    with pytest.raises(ValueError, match="registered twice"):
        S.register(S.ModelSpec(name="lifetime", title="another", module="x.y", evaluate="x.y:f"))


def test_resolve_refuses_a_reference_without_an_attribute():
    with pytest.raises(ValueError, match="package.module:attribute"):
        S.resolve("models.endurance.lifetime")
    assert S.resolve(len) is len


def test_every_provenance_key_a_spec_names_is_registered_and_every_model_key_is_claimed():
    from models.provenance import PARAMS

    claimed = set()
    for s in S.specs():
        keys = s.provenance_keys()
        assert keys, f"{s.name} names no provenance key"
        missing = [k for k in keys if k not in PARAMS]
        assert not missing, (s.name, missing)
        claimed |= set(keys)
    # the planner's and the uncertainty layer's own keys belong to those layers, not to a model
    unclaimed = sorted(k for k in PARAMS if k not in claimed and not k.startswith(("planner.", "uncertainty.")))
    assert not unclaimed, f"registry keys no model's spec names: {unclaimed}"


def test_every_spec_page_is_an_app_page_and_every_model_page_has_a_spec():
    from app.registry import PAGES

    urls = {row[4]: row[0] for row in PAGES}
    pages = {s.page for s in S.specs() if s.page}
    assert pages <= set(urls), pages - set(urls)
    model_pages = {u for u, section in urls.items() if section in ("Storage", "Memory", "Endurance")}
    assert model_pages == pages


def test_every_cli_name_is_a_subcommand():
    from cli.main import build_parser

    sub = next(a for a in build_parser()._actions if a.dest == "command")
    for s in S.specs():
        for c in s.cli:
            assert c in sub.choices, (s.name, c)


def test_uncertainty_commands_are_the_registered_models_with_a_cli_builder():
    from cli.uncertainty import uncertain_models, uncertainty_commands

    assert set(uncertainty_commands()) == {"breakeven", "lifetime", "amat", "memext", "writecache", "hdd", "workload"}
    with pytest.raises(KeyError, match="no uncertainty adapter for 'wear'"):
        uncertain_models("wear", None)


def test_the_sweep_models_are_the_registered_sweep_hooks():
    from models.sweep import SWEEP_MODELS

    hooks = [(s.name, h) for s in S.specs() for h in s.sweep]
    assert list(SWEEP_MODELS) == [h.name for _, h in hooks]
    for _, h in hooks:
        m = SWEEP_MODELS[h.name]
        assert (m.trace_kind, m.device, m.params, m.run) == (h.trace_kind, h.device, h.params, S.resolve(h.run))


def test_a_new_package_registers_a_model_with_one_line(tmp_path, monkeypatch):
    """The worked example of CONTRIBUTING.md: a package with a model module and a specs module, one line in
    SPEC_PACKAGES, and the registry (and with it the sweep's adapter table) lists it."""
    pkg = tmp_path / "toy_tiering"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "model.py").write_text(textwrap.dedent('''
        import numpy as np

        def mean_latency_ns(hit_ratio, near_ns, far_ns):
            """Mean access time of a two-tier memory [ns]."""
            h = np.asarray(hit_ratio, dtype=float)
            return h * near_ns + (1 - h) * far_ns
    '''))
    (pkg / "specs.py").write_text(textwrap.dedent('''
        from models.spec import ModelSpec, SweepHook, register

        def sweep_tiering(ctx, device, p):
            import pandas as pd
            from toy_tiering.model import mean_latency_ns
            return pd.DataFrame({"mean_ns": [float(mean_latency_ns(p["hit_ratio"], 100.0, 400.0))]})

        TOY = register(ModelSpec(
            name="toy_tiering", title="two-tier memory", module="toy_tiering.model",
            evaluate="toy_tiering.model:mean_latency_ns", provenance=("memext.dram_frac",),
            sweep=(SweepHook("toy_tiering", None, None, {"hit_ratio": 0.9}, "toy_tiering.specs:sweep_tiering",
                             "two-tier memory mean latency"),)))
    '''))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(S, "SPEC_PACKAGES", (*S.SPEC_PACKAGES, "toy_tiering.specs"))
    monkeypatch.setattr(S, "_SPECS", dict(S._SPECS))
    try:
        assert S.specs()[-1].name == "toy_tiering"
        assert float(S.get_spec("toy_tiering").evaluate_fn()(0.5, 100.0, 400.0)) == 250.0
        from models.sweep import registry

        table = registry._registered()
        assert list(table)[-1] == "toy_tiering"
        assert table["toy_tiering"].run(None, None, {"hit_ratio": 0.5}).mean_ns.item() == 250.0
    finally:
        for m in ("toy_tiering", "toy_tiering.model", "toy_tiering.specs"):
            sys.modules.pop(m, None)


def test_every_planner_role_is_registered_by_exactly_one_model():
    from models.planner.rank import ROLES
    from models.planner.roles import ROLES_PLAN

    owners: dict[str, list[str]] = {}
    for s in S.specs():
        for r in s.roles:
            owners.setdefault(r, []).append(s.name)
    assert set(owners) == set(ROLES_PLAN) | set(ROLES), set(owners) ^ (set(ROLES_PLAN) | set(ROLES))
    assert all(len(v) == 1 for v in owners.values()), owners
