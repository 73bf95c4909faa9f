#!/bin/sh
# Our own wear model's life rate (avg / max bank writes) of SG, RR and SFC wear leveling on seed 003's
# seven synthetic stand-ins (models/endurance/wear.py, one pass and long run), the numbers behind the
# registry's lifetime.wear_efficiency (kind: simulated). Run from the repository root:
#   sh data/measurements/wear_efficiency/run.sh
# Writes data/measurements/wear_efficiency/wear_efficiency.csv (one row per trace and scheme) and prints
# the mean SFC life rate per horizon. Deterministic (the stand-ins are seeded), ~1 min on 2 cores.
set -eu
PY=${PY:-python}
OUT=data/measurements/wear_efficiency/wear_efficiency.csv
first=1
for t in fin1 fin2 dap exchange tpce mail randw; do
  for h in one-pass long-run; do
    if [ $first = 1 ]; then
      $PY -m cli.main wear "synthetic:$t" --scheme sg,rr,sfc --horizon $h | sed "1s/^/trace,horizon,/; 2,\$s/^/$t,$h,/" > "$OUT"
      first=0
    else
      $PY -m cli.main wear "synthetic:$t" --scheme sg,rr,sfc --horizon $h | tail -n +2 | sed "s/^/$t,$h,/" >> "$OUT"
    fi
  done
done
$PY - "$OUT" <<'PYEOF'
import sys
import pandas as pd
df = pd.read_csv(sys.argv[1])
print(df.groupby(["horizon", "scheme"]).life_rate.agg(["mean", "min", "max"]).to_string())
PYEOF
