"""HDD model on DiskSim's validated drives: demerit split and leave-one-out (a report, not a timing benchmark).

Prints, for every bundled drive:

1. the validation (demerit against DiskSim's own) and the demerit split by reads/writes and by
   the model's cache outcome (:func:`models.storage.hdd.demerit_split`);
2. leave-one-out for every modelling choice that was made by looking at a drive's measured trace:

   - the rotational-latency model (platter angle from the model clock vs half a rotation) was
     chosen on all the traces: for each drive, the choice the other drives make (the smaller sum
     of demerit / DiskSim's demerit over the others that have a DiskSim figure) and that drive's
     demerit under it;
   - the track-buffer read-ahead (to the end of the track) was first found on dec_rz26's trace;
     it is now DiskSim's "Buffer continuous read = 1" (dec_rz26 is the only drive with it), so
     the drive-not-looked-at model reads the value as the segment-end read-ahead (3) of the others;
   - the extra-write-disconnect phases (DiskSim's condition, checked against hp_c2247a's "Trip"
     labels): hp_c2247a without them.

``python bench/report_hdd.py`` (about a minute). Numbers: ``docs/models/hdd.md``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from _common import ROOT  # noqa: F401  (puts the repository on sys.path)

from models.storage import hdd
from models.storage.hdd.validation import _validate, read_validation_trace


def _trace(name: str):
    return read_validation_trace(hdd.resolve_drive(name)[0].with_suffix(".trace"))


def rotation_loo(names) -> pd.DataFrame:
    dem = {(n, r): hdd.validate_drive(n, rotation=r).demerit_ms for n in names for r in ("clock", "expected")}
    rows = []
    for n in names:
        others = [m for m in names if m != n and m in hdd.DISKSIM_DEMERIT_MS]
        score = {r: sum(dem[(m, r)] / hdd.DISKSIM_DEMERIT_MS[m] for m in others) for r in ("clock", "expected")}
        pick = min(score, key=score.get)
        rows.append({"drive": n, "choice_of_the_others": pick, "demerit_ms": dem[(n, pick)],
                     "demerit_clock_ms": dem[(n, "clock")], "demerit_expected_ms": dem[(n, "expected")],
                     "disksim_ms": hdd.DISKSIM_DEMERIT_MS.get(n, np.nan)})
    return pd.DataFrame(rows)


def feature_loo() -> pd.DataFrame:
    rows = []
    for name, update, what in (("dec_rz26", {"readahead_to_track_end": False},
                                "track-end read-ahead off (read as segment-end)"),
                               ("hp_c2247a", {"extra_write_disconnect": False}, "extra write disconnect off")):
        spec = hdd.load_drive(name)
        tr = _trace(name)
        full = _validate(spec, name, tr).demerit_ms
        loo = _validate(spec.model_copy(update=update), name, tr).demerit_ms
        rows.append({"drive": name, "feature": what, "demerit_with_ms": full, "demerit_without_ms": loo,
                     "disksim_ms": hdd.DISKSIM_DEMERIT_MS[name]})
    return pd.DataFrame(rows)


if __name__ == "__main__":
    pd.set_option("display.width", 200)
    names = list(hdd.drive_names())
    print(hdd.validation_table(names).round(3).to_string(index=False))
    print()
    split = hdd.split_table(names)
    wide = split.pivot(index="drive", columns="part", values="demerit_ms")
    order = [p for p in hdd.validation.SPLIT_PARTS if p in wide.columns]
    print("demerit [ms] by part (model's cache outcome):")
    print(wide[order].round(3).to_string())
    print()
    print("share of requests by part:")
    print(split.pivot(index="drive", columns="part", values="share")[order].round(3).to_string())
    print()
    print("leave-one-out, rotational latency model:")
    print(rotation_loo(names).round(3).to_string(index=False))
    print()
    print("leave-one-out, features found on one drive's trace:")
    print(feature_loo().round(3).to_string(index=False))
