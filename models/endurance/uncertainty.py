"""Uncertainty adapters of the endurance models (closed-form lifetime, wear leveling, write reduction):
their uncertain inputs and headline output, vectorised over samples (:mod:`models.uncertainty`; the
table of what each simulates once is in ``docs/uncertainty.md``), each registered with its model (:mod:`models.spec`).

Each evaluates the model's own vectorised lifetime :func:`models.endurance.lifetime.lifetime_years`
on the sample arrays (no validation there: sampled inputs), so at the central inputs it gives the
model's result exactly (``tests/models/uncertainty/test_point_equals_model.py``).

References
----------
.. [1] Seeds 002 and 003 (the models' own references, in their modules).
"""

from __future__ import annotations

import numpy as np

from models.uncertainty.core import (
    UncertainInput,
    UncertainModel,
    Verdict,
    device_input,
    fixed_input,
    param_input,
    user_input,
)
from models.uncertainty.core import sample_values as _v

__all__ = ["lifetime_model", "wear_lifetime_model", "write_reduction_lifetime_model"]


# ----------------------------------------------------------------------------- lifetime
def lifetime_model(*, capacity_bytes: float, endurance_writes_per_cell: float, write_rate_bytes_per_s: float,
                   wear_efficiency: float | None = None, target_years: float = 5.0,
                   endurance_input: UncertainInput | None = None,
                   write_rate_input: UncertainInput | None = None) -> UncertainModel:
    """Closed-form lifetime ``C E eta / W`` [years] (seed 002 §2).

    Capacity is held as given; endurance and write rate vary as user-typed values (+-20 %)
    unless ``endurance_input``/``write_rate_input`` carry their own provenance (e.g. a
    catalogue endurance, the derived Lulesh rate); wear efficiency by its registry range
    (``lifetime.wear_efficiency``, its registry kind and range). Verdict: outlives ``target_years``.

    >>> m = lifetime_model(capacity_bytes=16e9, endurance_writes_per_cell=1e7, write_rate_bytes_per_s=1e9,
    ...                    wear_efficiency=1.0)
    >>> round(m.point(), 2), m.verdict.statement
    (5.07, 'the device outlives 5 years')
    """
    from models.endurance.lifetime import lifetime_years

    ins = [fixed_input("capacity_bytes", "capacity", "bytes", capacity_bytes),
           endurance_input or user_input("endurance", "cell endurance", "writes/cell", endurance_writes_per_cell),
           write_rate_input or user_input("write_rate", "cell write rate", "bytes/s", write_rate_bytes_per_s),
           param_input("lifetime.wear_efficiency", value=wear_efficiency, label="wear-leveling efficiency")]
    e_name, w_name = ins[1].name, ins[2].name

    def ev(v):
        return lifetime_years(_v(v, "capacity_bytes"), _v(v, e_name), _v(v, w_name),
                              wear_efficiency=_v(v, "lifetime.wear_efficiency"), check=False)

    return UncertainModel("lifetime", "years", "years", tuple(ins), ev,
                          Verdict(float(target_years), False, f"the device outlives {target_years:g} years"),
                          notes=("closed form",), output_label="lifetime")


# ----------------------------------------------------------------------------- wear leveling
def wear_lifetime_model(config, *, scheme: str, life_rate: float, movement_overhead: float, device="pcm-samsung-20nm",
                        write_rate_bytes_per_s: float, rate_typed: bool = False,
                        target_years: float = 5.0) -> UncertainModel:
    """Lifetime of a wear-leveled PCM device [years] (seed 003 §IV), wear counts simulated once.

    ``capacity x endurance x life_rate / (write_rate x (1 + movement_overhead))``
    (:func:`models.endurance.wear.lifetime_years_for`): the life rate and the gap-move overhead
    come from the scheme's one simulation on the trace; the device's endurance varies by its
    provenance, a typed write rate by +-20 % (a rate measured from the trace's timestamps is
    held). The scheme geometry and the gap interval change the simulation and are not varied.
    """
    from models.devices import DeviceProfile, get_device
    from models.endurance.lifetime import lifetime_years

    dev = device if isinstance(device, DeviceProfile) else get_device(device)
    e_in = device_input(dev, "endurance_writes_per_cell", label=f"{dev.name} endurance")
    w_in = (user_input("write_rate", "write rate", "bytes/s", write_rate_bytes_per_s) if rate_typed
            else fixed_input("write_rate", "write rate (from the trace)", "bytes/s", write_rate_bytes_per_s))
    cap = float(config.capacity_bytes)
    k = (1.0 + float(movement_overhead))

    def ev(v):  # models.endurance.wear.lifetime_years_for: the life rate is the wear efficiency
        return lifetime_years(cap, _v(v, e_in.name), _v(v, "write_rate") * k, wear_efficiency=float(life_rate),
                              check=False)

    return UncertainModel("wear", "years", "years", (e_in, w_in), ev,
                          Verdict(float(target_years), False, f"{scheme.upper()} keeps the device alive "
                                                              f"{target_years:g} years"),
                          notes=(f"life rate {life_rate:.4g} and gap-move overhead {movement_overhead:.3g} from one "
                                 "simulation of the trace; scheme geometry and gap interval not varied",),
                          output_label=f"lifetime under {scheme.upper()}")


# ----------------------------------------------------------------------------- write reduction (lifetime by scheme)
def write_reduction_lifetime_model(bytes_written_per_page: float, *, scheme: str = "",
                                   baseline_write_rate_bytes_per_s: float | None = None,
                                   target_years: float = 5.0) -> UncertainModel:
    """Lifetime [years] of seed 002's PCM extension when a write-reduction scheme writes
    ``bytes_written_per_page`` of every 4 KiB evicted page
    (:func:`models.endurance.write_reduction.lifetime_by_scheme`), the cells counted once.

    ``C E eta / (W x bytes / 4096)``: the bytes per page come from the page contents (no
    uncertain input); the catalogue PCM endurance (``pcm-memext``), the wear-leveling
    efficiency (``lifetime.wear_efficiency``, registry) and the baseline write rate (the derived
    Lulesh rate ``lifetime.lulesh_write_rate_Bps``, or a typed one +-20 %) vary analytically;
    the capacity (``memext.nvm_capacity_bytes``) is held. Verdict: outlives ``target_years``.

    >>> import pandas as pd
    >>> from models.endurance.write_reduction import lifetime_by_scheme
    >>> from models.provenance import param
    >>> m = write_reduction_lifetime_model(204.8, scheme="x")
    >>> want = lifetime_by_scheme(pd.DataFrame({"scheme": ["x"], "bytes_written_per_page": [204.8]}),
    ...                           param("lifetime.lulesh_write_rate_Bps").value).lifetime_years.iloc[0]
    >>> bool(np.isclose(m.point(), want, rtol=1e-12))
    True
    """
    from models.devices import get_device
    from models.endurance.lifetime import lifetime_years
    from models.endurance.write_reduction import PAGE_BYTES
    from models.provenance import param

    b = float(bytes_written_per_page)
    if not (np.isfinite(b) and 0 <= b <= PAGE_BYTES * 2):
        raise ValueError(f"bytes_written_per_page must be within 0..{2 * PAGE_BYTES} (got {bytes_written_per_page!r})")
    pcm = get_device("pcm-memext")
    cap = float(param("memext.nvm_capacity_bytes").value)
    e_in = device_input(pcm, "endurance_writes_per_cell", label="PCM endurance")
    w_in = (param_input("lifetime.lulesh_write_rate_Bps", label="baseline write rate (Lulesh)")
            if baseline_write_rate_bytes_per_s is None
            else user_input("write_rate", "baseline write rate", "bytes/s", baseline_write_rate_bytes_per_s))
    eta = param_input("lifetime.wear_efficiency", label="wear-leveling efficiency")
    frac = b / PAGE_BYTES

    def ev(v):  # lifetime_by_scheme: infinite when nothing is written
        rate = _v(v, w_in.name) * frac
        with np.errstate(divide="ignore"):
            return np.where(rate > 0, lifetime_years(cap, _v(v, e_in.name), np.where(rate > 0, rate, 1.0),
                                                     wear_efficiency=_v(v, eta.name), check=False), np.inf)

    name = scheme or "the scheme"
    return UncertainModel("write-reduction", "years", "years", (e_in, w_in, eta), ev,
                          Verdict(float(target_years), False, f"with {name} the PCM extension outlives "
                                                              f"{target_years:g} years"),
                          notes=(f"{b:.6g} bytes written per 4 KiB page counted once from the page contents; "
                                 "endurance, wear efficiency and write rate vary analytically",),
                          output_label=f"lifetime with {name}")
