"""The endurance models' registrations (:mod:`models.spec`): lifetime, write reduction and wear leveling."""

from __future__ import annotations

from models.spec import ModelSpec, register

register(ModelSpec(
    name="lifetime",
    title="NVM lifetime C E eta / W, closed form and Monte Carlo over a lognormal endurance spread (seed 002 §2)",
    module="models.endurance.lifetime",
    evaluate="models.endurance.lifetime:lifetime_seconds",
    inputs="models.endurance.lifetime:LifetimeInputs",
    result="models.endurance.lifetime:LifetimeDistribution",
    provenance=("lifetime.",),
    seeds=("002",),
    cli=("lifetime",),
    page="lifetime",
    uncertainty="models.endurance.uncertainty:lifetime_model",
    roles=("memory-lifetime",),
))

register(ModelSpec(
    name="write_reduction",
    title="bytes written per page under inclusive, MFWR, DCW with/without PIN on real page contents (seed 002 §5)",
    module="models.endurance.write_reduction",
    evaluate="models.endurance.write_reduction:page_costs",
    result="models.endurance.write_reduction:PageCosts",
    provenance=("nvm.",),
    seeds=("002",),
    cli=("write-reduction",),
    page="write-reduction",
    uncertainty="models.endurance.uncertainty:write_reduction_lifetime_model",
))

register(ModelSpec(
    name="wear",
    title="wear leveling: none / start-gap / round-robin / space-filling curve, life rate (seed 003 §IV)",
    module="models.endurance.wear",
    evaluate="models.endurance.wear:simulate_wear",
    inputs="models.endurance.wear:WearConfig",
    result="models.endurance.wear:WearResult",
    provenance=("wear.",),
    seeds=("003",),
    cli=("wear",),
    page="wear-leveling",
    uncertainty="models.endurance.uncertainty:wear_lifetime_model",
))
