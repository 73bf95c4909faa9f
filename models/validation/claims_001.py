"""Claims of seed 001 (a Micron PCIe PCM prototype, the PSD, vs a SATA SSD, measured with fio).

Model: :mod:`models.storage.device_char` (a c-server queue per request kind; random /
sequential and write / read latency ratios vs I/O depth, read/write mix). We have no PSD and
no measurement of the paper's SSD: the ``psd`` and ``ssd`` presets take their ratios from this
paper's Figures 1-2, so every Figure 1-2 claim is circular. Figure 3 (the read/write mix) is
checked with the exact simulation of the closed loop (:func:`models.storage.device_char.mix_sensitivity`):
its direction depends on the scheduling of the shared channels. Both presets keep FCFS, fixed
before the comparison; the read-priority curve is given in each Figure 3 note (it would give the
PSD's direction, but makes the SSD degrade too, so no single policy explains both).
"""

from __future__ import annotations

import numpy as np

from models.validation.core import Claim, share
from models.validation.numbers import fmt_number
from models.validation.rules import AtMost, Near, Outcome, Share

SEED = "001"
PAGE = "device-characterization"
DEPTHS = (1, 2, 4, 8, 16, 32, 64, 128, 256)
DATA = "device_char presets 'psd' and 'ssd' (ratios from seed 001 Figs. 1-2; latencies from data/devices.csv, assumed)"
CIRC_FIG1_SSD = ("the SSD preset's sequential parallelism (6× its random one) was calibrated on this +500 % "
                 "maximum (models/storage/device_char.py)")
CIRC_FIG1_PSD = "the PSD preset sets random = sequential service times from this figure"
CIRC_FIG2_PSD = "the PSD preset's write service time is set to 19× its read time from this figure"
CIRC_FIG2_SSD = "the SSD preset's write/read ratios (1.5× random, 1.2× sequential) are taken from this figure"


def _dc():
    from models.storage import device_char

    return device_char


def _profile(name: str):
    return _dc().get_profile(name)


def ssd_random_up_to_500() -> Outcome:
    p = _profile("ssd")
    peak = {op: float(np.max(_dc().random_seq_ratio(p, op, list(DEPTHS)))) for op in ("read", "write")}
    v = 100 * (min(peak.values()) - 1)
    return Outcome(v, note=f"Peak random/sequential latency: read {fmt_number(peak['read'])}×, "
                           f"write {fmt_number(peak['write'])}×.")


def psd_random_equals_seq() -> Outcome:
    p = _profile("psd")
    dev = max(float(np.max(np.abs(np.asarray(_dc().random_seq_ratio(p, op, list(DEPTHS))) - 1)))
              for op in ("read", "write"))
    return Outcome(100 * dev)


def psd_write_19x() -> Outcome:
    p = _profile("psd")
    peak = {pat: float(np.max([_dc().write_read_ratio(p, pat, d) for d in DEPTHS])) for pat in ("rand", "seq")}
    return Outcome(min(peak.values()), note=f"Random {fmt_number(peak['rand'])}×, sequential "
                                            f"{fmt_number(peak['seq'])}×.")


def ssd_write_ratio(pattern: str):
    def f() -> Outcome:
        p = _profile("ssd")
        return Outcome(float(np.mean([_dc().write_read_ratio(p, pattern, d) for d in DEPTHS])))
    return f


MIX_W = (0.1, 0.3, 0.5)


def mix_direction(name: str, expect: int):
    """Fig. 3: sequential write latency as the write share falls from 50 % (expect +1: degrades)."""
    def f() -> Outcome:
        prof = _profile(name)
        df = _dc().mix_sensitivity(prof, "seq", list(MIX_W), depth=64)
        cases = []
        for w, rel in zip(df["write_fraction"], df["write_rel"], strict=True):
            if w >= 0.5:
                continue
            got = 1 if rel > 1.01 else (-1 if rel < 0.99 else 0)
            cases.append((f"{fmt_number(100 * w)} % writes: ×{fmt_number(rel)}", got * expect))
        other = "fcfs" if prof.scheduling == "read-priority" else "read-priority"
        alt = _dc().mix_sensitivity(prof, "seq", list(MIX_W), depth=64, scheduling=other)["write_rel"]
        out = share(cases, unit_label="write shares")
        return Outcome(out.value, note=(out.note + " " if out.note else "")
                       + f"Preset scheduling {prof.scheduling}; with {other} the write latency at 10 % / 30 % writes "
                         f"is ×{fmt_number(float(alt.iloc[0]))} / ×{fmt_number(float(alt.iloc[1]))} of the 50/50 mix.")
    return f


def best_psd_depth() -> Outcome:
    """The I/O depth [entries] of the PSD's best throughput (requests / latency, summed over the four
    request kinds); ties go to the smallest depth."""
    p = _profile("psd")
    d = np.asarray(DEPTHS, dtype=float)
    iops = sum(d / np.asarray(_dc().latency_us(p, op, pat, d)) for op in ("read", "write") for pat in ("rand", "seq"))
    best = int(d[int(np.argmax(iops >= iops.max() * (1 - 1e-9)))])
    return Outcome(float(best), note=f"Throughput at depth 64 is ×{fmt_number(float(iops[list(DEPTHS).index(64)] / iops.max()))} "
                                     f"of the best.")


def _c(claim_id, where, statement, paper, unit, rule, compute, **kw) -> Claim:
    return Claim(f"{SEED}-{claim_id}", SEED, where, statement, paper, unit, rule, compute,
                 kw.pop("data", DATA), page=PAGE, **kw)


CLAIMS: list[Claim] = [
    _c("fig1-ssd-random-500pct", "Fig. 1, §III",
       "The SSD's random reads and writes are up to +500 % slower than sequential ones (vs I/O depth)",
       500.0, "%", Near(tol=0.2, scale="rel", why="a maximum read off a bar chart: ±20 %"), ssd_random_up_to_500,
       paper_text="up to +500", circular=CIRC_FIG1_SSD),
    _c("fig1-psd-random-equals-seq", "Fig. 1, §III",
       "The PSD's random and sequential latencies are almost identical at every I/O depth", 10.0, "%",
       AtMost(slack=10, why="'almost identical' read as within 10 %"), psd_random_equals_seq,
       paper_text="almost identical (≤ 10)", circular=CIRC_FIG1_PSD),
    _c("fig2-psd-write-19x", "Fig. 2, §III",
       "The PSD's write latency is up to 19× its read latency, for random and even sequential requests",
       19.0, "×", Near(tol=0.1, scale="rel", why="a maximum quoted in the text: ±10 %"), psd_write_19x,
       paper_text="up to 19", circular=CIRC_FIG2_PSD),
    _c("fig2-ssd-write-1.5x-random", "Fig. 2, §III",
       "The SSD writes 1.5× slower than it reads for random requests (average)", 1.5, "×",
       Near(tol=0.1, scale="rel", why="an average quoted in the text: ±10 %"), ssd_write_ratio("rand"),
       circular=CIRC_FIG2_SSD),
    _c("fig2-ssd-write-1.2x-seq", "Fig. 2, §III",
       "The SSD writes 1.2× slower than it reads for sequential requests (average)", 1.2, "×",
       Near(tol=0.1, scale="rel", why="an average quoted in the text: ±10 %"), ssd_write_ratio("seq"),
       circular=CIRC_FIG2_SSD),
    _c("fig3-ssd-seq-write-improves", "Fig. 3, §III",
       "As the write ratio decreases, the SSD's sequential write performance improves (depth 64)",
       "improves below 50 % writes", "share of cases",
       Share(required=1.0, why="stated as a trend: each write share below the 50 % reference, ±1 % a tie"),
       mix_direction("ssd", -1),
       why_differs="With FCFS on the SSD's 48 effective sequential units, 64 outstanding requests queue little "
                   "and a write's latency is mostly its own 1.2× service time: the simulated curve is flat "
                   "within about 1 %, so the model predicts no clear improvement (the earlier closed form "
                   "max(s, d s_mix / c), an approximation, did); with read priority it degrades."),
    _c("fig3-psd-seq-write-degrades", "Fig. 3, §III",
       "As the write ratio decreases, the PSD's sequential write performance keeps degrading (depth 64)",
       "degrades below 50 % writes", "share of cases",
       Share(required=1.0, why="stated as a trend: each write share below the 50 % reference, ±1 % a tie"),
       mix_direction("psd", 1),
       why_differs="With FCFS on the shared channels fewer writes shorten every request's wait behind the slow "
                   "PSD writes, so sequential writes get faster (reversed); with read priority a write waits "
                   "for the reads, so it degrades as reads grow, as in the paper -- but the same policy makes the SSD degrade too, so the "
                   "preset keeps FCFS rather than a policy picked after seeing this figure."),
    _c("fig3-psd-best-depth-64", "§III (Fig. 3 set-up)",
       "The PSD performs best at an I/O depth of 64 entries ('best PSD performance for the fio workload')",
       64.0, "entries", Near(tol=2, scale="factor", ref=1, why="a depth of the fio sweep (powers of two): within one "
                                                              "doubling"), best_psd_depth,
       data="device_char preset 'psd' (3 parallel controllers, published; service times assumed/derived from "
            "Figs. 1-2), depths 1-256", paper_text="64",
       why_differs="In the c-server queue the PSD's throughput saturates as soon as its 3 controllers are busy; "
                   "deeper queues add only waiting, so the model has no optimum at 64."),
]
