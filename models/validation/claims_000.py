"""Claims of seed 000 (Filebench on an emulated PCM with ext4-DAX vs page-cached HDD / SSD).

Model: :mod:`models.storage.workload` (per-flowop service demands from measured system-call,
page-cache and fsync costs, exact MVA over threads, jbd2 group commit) on the bundled
Filebench personalities with the paper's Table 1 settings. The paper's five cases map to
our configurations ``pcm-hdd``, ``pcm-ssd``, ``pcm-dram`` (ext4-DAX in a VM, backing file on
HDD / SSD / DRAM), ``hdd`` and ``ssd`` (ext4 + page cache). Our HDD is the catalogue's
generic 7200 rpm drive (the paper's WD20EZRZ is not in the catalogue). Since issue 14 the
model includes the kernel flusher's dirty write-back (guest page cache on HDD/SSD, host
mapping of the vPCM file on PCM-HDD/SSD; kernel defaults) and the host device under the
emulated PCM for every DAX access that misses host memory or dirties a host page.
"""

from __future__ import annotations

import math
from functools import cache

import pandas as pd

from models.validation import shared
from models.validation.core import Claim, share
from models.validation.render import fmt_number
from models.validation.rules import AtLeast, AtMost, Near, Outcome, Share

SEED = "000"
#: Seed 000 §4.1 says "the host page cache is turned off in all experiments"; our model keeps the host's mapping
#: of the vPCM backing file in an assumed 8 GiB of host memory. Stated in every claim's data, with why.
HOST_CACHE = ("the paper turns the host page cache off (§4.1), our model keeps the vPCM backing file's pages in "
              "an assumed 8 GiB of host memory (workload.host_memory_bytes): QEMU maps an NVDIMM's "
              "memory-backend-file with mmap(), so its pages live in host memory whatever the block-device cache "
              "setting; that is our reading, the paper does not say how the vPCM file was backed")
PAGE = "workloads"
FIVE = ("pcm-hdd", "pcm-ssd", "pcm-dram", "hdd", "ssd")
PAIRS = (("pcm-hdd", "hdd"), ("pcm-ssd", "ssd"))
DATA = ("Filebench personalities with Table 1 settings (data/filebench), 50 threads; costs measured here "
        "(data/measurements); catalogue HDD (generic 7200 rpm), SSD, DRAM; " + HOST_CACHE)

#: Why HDD and PCM-HDD tie on the read-intensive personalities since the flusher is modelled.
LOG_WRITEBACK = ("Webserver's and Webproxy's threads append 16 KB records to one log file; with the kernel "
                 "flusher modelled those appends reach the HDD at its streaming bandwidth within the 60 s run, "
                 "on HDD (guest page cache) and on PCM-HDD alike (the host flusher writes the vPCM file's dirty "
                 "pages to the same HDD), and that bandwidth bounds both, so they tie.")
FACTOR2 = ("an order-of-magnitude headline measured on another host and a 5400-rpm-class WD20EZRZ (ours: a "
           "generic 7200 rpm drive, an assumed 8 GiB page cache): a factor of 2 covers those differences")


def _tput(workload: str, config: str) -> float:
    t = shared.workload_table()
    return float(t.loc[(t["workload"] == workload) & (t["config"] == config), "ops_per_s"].iloc[0])


def _lat(workload: str, config: str) -> float:
    t = shared.workload_table()
    return float(t.loc[(t["workload"] == workload) & (t["config"] == config), "latency_ms"].iloc[0])


def _cmp(a: float, b: float, rel: float = 0.01) -> int:
    """+1 if a > b, -1 if a < b, 0 if within ``rel``."""
    if a > b * (1 + rel):
        return 1
    if a < b * (1 - rel):
        return -1
    return 0


def _flowop_ms(personality: str, config: str, kind: str) -> float:
    """Mean latency [ms] of the flowops of ``kind`` at 50 threads."""
    br = shared.workload_result(personality, config).breakdown
    return float(br.loc[br["kind"] == kind, "latency_ms"].mean())


def _kind_share(personality: str, config: str, kind: str) -> float:
    br = shared.workload_result(personality, config).breakdown
    return float(br.loc[br["kind"] == kind, "share"].sum())


# ----------------------------------------------------------------------------- computations
def up_to_500x() -> Outcome:
    best, where = 0.0, ""
    for w in shared.workload_module().PERSONALITIES:
        for pcm, ref in PAIRS:
            x = _tput(w, pcm) / _tput(w, ref)
            if x > best:
                best, where = x, f"{w} {pcm} vs {ref}"
    dax = max(_tput(w, "pcm-dax") / _tput(w, "hdd") for w in shared.workload_module().PERSONALITIES)
    return Outcome(best, note=f"Largest like-for-like speedup: {where}; native PCM-DAX (not in the paper) vs "
                              f"HDD reaches {fmt_number(dax)}×.")


def fsync_200x() -> Outcome:
    h, p = _flowop_ms("varmail", "hdd", "fsync"), _flowop_ms("varmail", "pcm-hdd", "fsync")
    return Outcome(h / p, note=f"fsync {fmt_number(h)} ms on HDD, {fmt_number(p)} ms on PCM-HDD.")


def fileserver_write_3x() -> Outcome:
    h = _flowop_ms("fileserver", "hdd", "writewholefile")
    p = _flowop_ms("fileserver", "pcm-hdd", "writewholefile")
    return Outcome(h / p, note=f"writewholefile {fmt_number(h)} ms on HDD, {fmt_number(p)} ms on PCM-HDD.")


def pcm_ahead_write_intensive() -> Outcome:
    return share([(f"{w} {p}/{r}", _cmp(_tput(w, p), _tput(w, r)))
                  for w in ("fileserver", "varmail") for p, r in PAIRS])


def storage_ahead_read_intensive() -> Outcome:
    return share([(f"{w} {r}/{p}", _cmp(_tput(w, r), _tput(w, p)))
                  for w in ("webserver", "webproxy") for p, r in PAIRS])


def pcm_dram_best() -> Outcome:
    cases = []
    for w in shared.workload_module().PERSONALITIES:
        best_other = max(_tput(w, c) for c in FIVE if c != "pcm-dram")
        cases.append((w, 1 if _tput(w, "pcm-dram") >= best_other * (1 - 1e-9) else -1))
    return share(cases, unit_label="workloads")


def fsync_share_hdd() -> Outcome:
    return Outcome(100 * _kind_share("varmail", "hdd", "fsync"))


def fsync_share_pcm_hdd() -> Outcome:
    return Outcome(100 * _kind_share("varmail", "pcm-hdd", "fsync"))


def read_intensive_shorter() -> Outcome:
    cases = []
    for c in FIVE:
        read = max(_lat("webserver", c), _lat("webproxy", c))
        write = min(_lat("fileserver", c), _lat("varmail", c))
        cases.append((c, 1 if read < write else -1))
    return share(cases, unit_label="configurations")


def ssd_cuts_write_and_fsync() -> Outcome:
    cases = []
    for w, kind in (("fileserver", "writewholefile"), ("varmail", "fsync")):
        r = _flowop_ms(w, "hdd", kind) / _flowop_ms(w, "ssd", kind)
        cases.append((f"{w} {kind} HDD/SSD {fmt_number(r)}×", 1 if r >= 2 else (-1 if r < 1 else 0)))
    return share(cases)


@cache
def _iosize() -> pd.DataFrame:
    wf = shared.workload_module()
    return pd.concat([shared.as_frame(wf.sweep_iosize(w, list(FIVE))) for w in ("webserver", "webproxy", "varmail")],
                     ignore_index=True)


def converges_4kb() -> Outcome:
    cases = []
    for (w, c), g in _iosize().groupby(["workload", "config"], sort=False):
        t = g.set_index("iosize_bytes")["ops_per_s"]
        total = math.log(t[16384] / t[64])
        if total <= 0:
            cases.append((f"{w}/{c}", 0))
            continue
        frac = math.log(t[4096] / t[64]) / total
        cases.append((f"{w}/{c} {fmt_number(frac)}", 1 if frac >= 0.85 else (-1 if frac <= 0.75 else 0)))
    return share(cases)


def larger_io_faster() -> Outcome:
    cases = []
    for (w, c), g in _iosize().groupby(["workload", "config"], sort=False):
        t = g.sort_values("iosize_bytes")["ops_per_s"].to_numpy()
        cases.append((f"{w}/{c}", 1 if (t[1:] >= t[:-1] * (1 - 1e-9)).all() else (-1 if t[-1] < t[0] else 0)))
    return share(cases)


@cache
def _threads() -> pd.DataFrame:
    wf = shared.workload_module()
    return pd.concat([shared.as_frame(wf.sweep_threads(w, list(FIVE), 32)) for w in wf.PERSONALITIES],
                     ignore_index=True)


def _slope(w: str, c: str) -> float:
    t = _threads()
    g = t[(t["workload"] == w) & (t["config"] == c)].set_index("threads")["latency_ms"]
    return float(g[32] / g[16])


def latency_grows_with_threads() -> Outcome:
    cases = []
    for w in shared.workload_module().PERSONALITIES:
        for c in FIVE:
            s = _slope(w, c)
            cases.append((f"{w}/{c}", 1 if s >= 1.5 else (-1 if s < 1.0 else 0)))
    return share(cases)


def varmail_gradual_on_hdd_ssd() -> Outcome:
    conv = {c: _slope("varmail", c) for c in ("hdd", "ssd")}
    pcm = {c: _slope("varmail", c) for c in ("pcm-hdd", "pcm-ssd", "pcm-dram")}
    cases = [(f"{c} 32/16 threads {fmt_number(s)}", 1 if s <= 1.2 else 0) for c, s in conv.items()]
    cases.append(("PCM steeper than HDD/SSD", 1 if min(pcm.values()) > max(conv.values()) else -1))
    return share(cases)


def varmail_pcm_lower_latency() -> Outcome:
    t = _threads()
    v = t[t["workload"] == "varmail"].pivot_table(index="threads", columns="config", values="latency_ms")
    cases = []
    for n, row in v.iterrows():
        pcm, conv = max(row["pcm-hdd"], row["pcm-ssd"]), min(row["hdd"], row["ssd"])
        cases.append((f"{n} threads", 1 if pcm < conv else -1))
    return share(cases, unit_label="thread counts")


@cache
def _files() -> pd.DataFrame:
    wf = shared.workload_module()
    return pd.concat([shared.as_frame(wf.sweep_files(w, list(FIVE))) for w in wf.PERSONALITIES], ignore_index=True)


def _files_gain(w: str, c: str) -> float:
    f = _files()
    g = f[(f["workload"] == w) & (f["config"] == c)].set_index("files_scale")["ops_per_s"]
    return float(g[0.1] / g[1.0])


def fewer_files_improve() -> Outcome:
    return share([(f"{w}/{c}", _cmp(_files_gain(w, c), 1.0)) for w in shared.workload_module().PERSONALITIES
                  for c in FIVE])


def conventional_gains_more() -> Outcome:
    cases = []
    for p, r in PAIRS:
        gr, gp = _files_gain("fileserver", r), _files_gain("fileserver", p)
        cases.append((f"{r} ×{fmt_number(gr)} vs {p} ×{fmt_number(gp)}", _cmp(gr, gp)))
    return share(cases)


def hdd_faster_append_readfile() -> Outcome:
    cases = []
    for w in ("webserver", "webproxy"):
        for kind in ("appendfilerand", "readwholefile"):
            h, p = _flowop_ms(w, "hdd", kind), _flowop_ms(w, "pcm-hdd", kind)
            cases.append((f"{w} {kind} HDD {fmt_number(h)} vs PCM-HDD {fmt_number(p)} ms", _cmp(p, h)))
    return share(cases)


def pcm_ssd_webproxy_readfile() -> Outcome:
    h, s = _flowop_ms("webproxy", "pcm-hdd", "readwholefile"), _flowop_ms("webproxy", "pcm-ssd", "readwholefile")
    return Outcome(h / s, note=f"readwholefile {fmt_number(h)} ms on PCM-HDD, {fmt_number(s)} ms on PCM-SSD.")


FIG3CD = ("pcm-hdd", "hdd", "pcm-ssd", "ssd")


@cache
def _few_files(personality: str, config: str):
    wf = shared.workload_module()
    return wf.evaluate(wf.paper_workload(personality, files_scale=0.1), config)


def fewer_files_evenly() -> Outcome:
    cases = []
    for w in shared.workload_module().PERSONALITIES:
        for c in FIG3CD:
            a = shared.workload_result(w, c).breakdown.groupby("kind")["latency_ms"].mean()
            b = _few_files(w, c).breakdown.groupby("kind")["latency_ms"].mean()
            a = a[a > 0]
            r = (b[a.index] / a).to_numpy()
            if (r > 1.01).any():
                v = -1
            elif (r < 0.99).all() and r.max() / r.min() <= 1.5:
                v = 1
            else:
                v = 0
            cases.append((f"{w}/{c} ×{fmt_number(r.min())}..{fmt_number(r.max())}", v))
    return share(cases)


def conventional_still_wins_read() -> Outcome:
    f = _files()
    f = f[f["files_scale"] == 0.1].set_index(["workload", "config"])["ops_per_s"]
    return share([(f"{w} {r}/{p}", _cmp(f[(w, r)], f[(w, p)])) for w in ("webserver", "webproxy") for p, r in PAIRS])


def _conv_frac(w: str, c: str) -> float:
    g = _iosize()
    t = g[(g["workload"] == w) & (g["config"] == c)].set_index("iosize_bytes")["ops_per_s"]
    total = math.log(t[16384] / t[64])
    return math.nan if total <= 0 else math.log(t[4096] / t[64]) / total


def webserver_converges_later() -> Outcome:
    cases = []
    for c in FIVE:
        ws, others = _conv_frac("webserver", c), [_conv_frac(w, c) for w in ("webproxy", "varmail")]
        if not all(map(math.isfinite, [ws, *others])):
            cases.append((f"{c} (no growth)", 0))
            continue
        cases.append((f"{c} webserver {fmt_number(ws)} vs {', '.join(fmt_number(o) for o in others)}",
                      1 if ws < min(others) - 0.01 else (-1 if ws > max(others) + 0.01 else 0)))
    return share(cases, unit_label="configurations")


@cache
def _dirwidth_gain(w: str, c: str) -> float:
    wf = shared.workload_module()
    base = wf.paper_workload(w)
    narrow = wf.paper_workload(w, dirwidth=max(2.0, base.main_fileset.dirwidth / 10))
    return float(wf.evaluate(narrow, c).ops_per_s / _tput(w, c))


def dirwidth_like_files() -> Outcome:
    cases = []
    for w in shared.workload_module().PERSONALITIES:
        for c in ("pcm-hdd", "hdd"):
            gf, gd = _files_gain(w, c), _dirwidth_gain(w, c)
            sf, sd = _cmp(gf, 1.0), _cmp(gd, 1.0)
            cases.append((f"{w}/{c} files ×{fmt_number(gf)}, width ×{fmt_number(gd)}",
                          0 if sd == 0 or sf == 0 else (1 if sd == sf else -1)))
    return share(cases)


def rw_ratio(personality: str):
    def f() -> Outcome:
        r, w = shared.workload_module().paper_workload(personality).read_write_ratio()
        return Outcome(r / w, note=f"{r} read and {w} write flowops per loop.")
    return f


# ----------------------------------------------------------------------------- the claims
def _c(claim_id, where, statement, paper, unit, rule, compute, **kw) -> Claim:
    return Claim(f"{SEED}-{claim_id}", SEED, where, statement, paper, unit, rule, compute,
                 kw.pop("data", DATA), page=kw.pop("page", PAGE), **kw)


CLAIMS: list[Claim] = [
    _c("abstract-up-to-500x", "Abstract, §1, Fig. 2(a)",
       "PCM performs up to 500× better than traditional storage on write- and sync-heavy workloads",
       500.0, "×", Near(tol=2, scale="factor", ref=1, why=FACTOR2), up_to_500x, paper_text="up to 500",
       why_differs="Ours is the largest like-for-like speedup (same host storage, as the paper compares): on HDD, "
                   "group commit lets concurrent fsyncs share each journal commit, which caps the gap."),
    _c("fig3-varmail-fsync-200x", "Fig. 3(a), §4.4",
       "Varmail's fsync takes ~200× longer on HDD than on PCM-HDD", 200.0, "×",
       Near(tol=2, scale="factor", ref=1, why=FACTOR2), fsync_200x),
    _c("fig3-fileserver-write-3x", "Fig. 3(a), §4.4",
       "Fileserver's write commands take 3× longer on HDD than on PCM-HDD", 3.0, "×",
       Near(tol=2, scale="factor", ref=1, why="a latency ratio read off a bar chart; a factor of 2 covers the "
                                                 "different drive and host"), fileserver_write_3x,
       why_differs="Both set-ups are limited by the same HDD through the same page-cache miss share (guest page "
                   "cache and host memory are both the assumed 8 GiB) and the same flusher rules (guest flusher "
                   "on HDD, host flusher on PCM-HDD, kernel defaults), so a write costs the same on both."),
    _c("fig2a-pcm-ahead-write-intensive", "Fig. 2(a), §4.3",
       "On write-intensive Fileserver and Varmail, PCM-HDD / PCM-SSD outperform HDD / SSD",
       "PCM ahead in all 4 pairs", "share of cases", Share(required=1.0, why="the paper states it for both workloads and "
                                                                "both storage types; a tie (±1 %) is no win"),
       pcm_ahead_write_intensive,
       why_differs="Fileserver's throughput on PCM-HDD equals HDD's: both wait for the same HDD (see "
                   "000-fig3-fileserver-write-3x)."),
    _c("fig2a-storage-ahead-read-intensive", "Fig. 2(a), §4.3",
       "On read-intensive Webserver and Webproxy, HDD / SSD outperform PCM-HDD / PCM-SSD",
       "HDD/SSD ahead in all 4 pairs", "share of cases",
       Share(required=1.0, why="stated for both workloads and both storage types; a tie (±1 %) is no win"),
       storage_ahead_read_intensive, why_differs=LOG_WRITEBACK),
    _c("fig2a-pcm-dram-best", "Fig. 2(a), §4.3", "PCM-DRAM has the best throughput of the five cases in all "
       "workloads", "best in 4/4 workloads", "share of cases",
       Share(required=1.0, why="'best performance in all workloads': every workload, ties count as best"),
       pcm_dram_best,
       why_differs="On the read-intensive workloads the page-cached HDD/SSD serve from DRAM without the VM's "
                   "per-call overhead, so they beat every emulated PCM, PCM-DRAM included (the paper's own "
                   "§4.3 says the same of PCM-HDD/PCM-SSD)."),
    _c("fig3-varmail-fsync-share-hdd", "Fig. 3(a), §4.4",
       "On HDD, fsync is responsible for almost all of Varmail's latency", 90.0, "%",
       AtLeast(slack=10, why="'almost all' read as at least 90 % of the loop latency"), fsync_share_hdd,
       paper_text="almost all (≥ 90)"),
    _c("fig3-varmail-fsync-share-pcm-hdd", "Fig. 3(a), §4.4",
       "On PCM-HDD, fsync is a small portion of Varmail's latency", 25.0, "%",
       AtMost(slack=25, why="'a small portion' read as at most a quarter of the loop latency"),
       fsync_share_pcm_hdd, paper_text="small portion (≤ 25)",
       why_differs="Our memory-speed fsync cost is measured through a loop device (an upper estimate of a DAX "
                   "fsync) and the VM's other costs on PCM-HDD are not modelled, so fsync stays a large share."),
    _c("fig3-read-intensive-shorter", "Fig. 3, §4.4",
       "Read-intensive workloads have shorter latency than write-intensive ones", "on every configuration", "share of cases",
       Share(required=1.0, why="'overall' over the five cases: each must order the workloads that way"),
       read_intensive_shorter,
       why_differs="On PCM-HDD the read-intensive loops wait for the HDD's write-back of their log appends (see "
                   "000-fig2a-storage-ahead-read-intensive), while Varmail's rewrites of its 0.8 GB of files are "
                   "absorbed in host memory before the host flusher writes them."),
    _c("fig3b-ssd-cuts-write-fsync", "Fig. 3(b), §4.4",
       "On SSD the latency of Fileserver's writefile and Varmail's fsync is remarkably reduced vs HDD",
       "both reduced", "share of cases", Share(required=1.0, why="'remarkably' read as at least halved (HDD/SSD ≥ 2×)"),
       ssd_cuts_write_and_fsync),
    _c("fig4-converges-4kb", "Fig. 4, §4.5",
       "Throughput rises with I/O size and converges around 4 KB (Webserver, Webproxy, Varmail)",
       "converged by 4 KB", "share of cases",
       Share(required=1.0, why="converged = at least 85 % of the 64 B→16 KB log-throughput gain reached at "
                               "4 KB (log-linear growth would give 75 %); 'in all devices'"),
       converges_4kb,
       why_differs="On the emulated PCM (no page cache) Webserver and Webproxy read whole 64 KB / 32 KB files, so "
                   "each doubling of the I/O size below the file size still halves the per-call VM and "
                   "system-call overheads and throughput keeps rising past 4 KB."),
    _c("fig4-larger-io-faster", "Fig. 4, §4.5", "In all devices a larger I/O size gives better performance",
       "rises with I/O size", "share of cases", Share(required=1.0, why="'in all devices': throughput non-decreasing from 64 B "
                                                           "to 16 KB in every workload and configuration"),
       larger_io_faster,
       why_differs="Webproxy on HDD and PCM-HDD is bounded by the HDD's write-back of the log appends, whose size "
                   "does not follow the read I/O size: throughput stops rising once that bound is reached."),
    _c("fig5-latency-grows-with-threads", "Fig. 5, §4.5",
       "For most workloads latency increases proportionally to the number of threads", "most workloads", "share of cases",
       Share(required=0.5, why="'most': at least half of the workload × configuration cases, proportional read as "
                               "latency(32) / latency(16) ≥ 1.5"), latency_grows_with_threads,
       why_differs="Varmail on HDD and SSD grows gently because group commit lets concurrent fsyncs share one "
                   "journal commit (the paper makes the same observation, next claim)."),
    _c("fig5-varmail-gradual-hdd-ssd", "Fig. 5, §4.5",
       "In Varmail the latency of HDD and SSD grows very gradually with threads, more gently than PCM's",
       "HDD/SSD gradual, PCM steeper", "share of cases",
       Share(required=1.0, why="'very gradual' read as latency(32) / latency(16) ≤ 1.2; and PCM steeper"),
       varmail_gradual_on_hdd_ssd),
    _c("fig5-varmail-pcm-lower-latency", "Fig. 5, §4.5",
       "Even so, Varmail's absolute latency on HDD/SSD stays far above PCM's", "at every thread count", "share of cases",
       Share(required=1.0, why="stated without exception: each thread count 1-32"), varmail_pcm_lower_latency),
    _c("fig2b-fewer-files-improve", "Fig. 2(b), §4.5",
       "10× fewer files improve the performance of most workloads (higher locality)", "most cases", "share of cases",
       Share(required=0.5, why="'most workloads': at least half of the workload × configuration cases, ±1 % a tie"),
       fewer_files_improve,
       why_differs="With the assumed 8 GiB page cache only Fileserver's 13 GB file set misses; the Webserver, "
                   "Webproxy and Varmail sets (6.6, 3.3 and 0.8 GB) already fit, so 10× fewer files change "
                   "nothing in the model."),
    _c("fig2b-conventional-gains-more", "Fig. 2(b), §4.5",
       "With fewer files, conventional storage gains more than PCM on write-intensive Fileserver",
       "HDD > PCM-HDD and SSD > PCM-SSD gains", "share of cases",
       Share(required=1.0, why="stated for the change of HDD and SSD in Fileserver; ±1 % a tie"),
       conventional_gains_more,
       why_differs="With 10× fewer files Fileserver on HDD and on PCM-HDD is still bounded by the same HDD writing "
                   "back the whole-file writes (guest flusher vs host flusher), so their gains tie."),
    *[_c(f"table1-rw-{p}", "Table 1", f"{p.capitalize()}'s read/write ratio is {txt}", val, "reads per write",
         Near(tol=0.05, scale="rel", why="the ratio of read to write flowops per loop is exact up to rounding: 5 %"),
         rw_ratio(p), paper_text=txt,
         check="counts the read and write flowops of the bundled personality file (input data), not a model result",
         data="bundled Filebench personality (data/filebench, CDDL) with Table 1 settings")
      for p, val, txt in (("fileserver", 0.5, "1:2"), ("webserver", 10.0, "10:1"), ("webproxy", 5.0, "5:1"),
                          ("varmail", 1.0, "1:1"))],
    _c("fig3a-hdd-faster-append-readfile", "Fig. 3(a), §4.4",
       "Webserver and Webproxy: 'the HDD shows better performance for append and readfile commands' than PCM-HDD",
       "HDD faster, both commands", "share of cases",
       Share(required=1.0, why="stated for both read-intensive workloads and both commands; ±1 % a tie"),
       hdd_faster_append_readfile, why_differs=LOG_WRITEBACK),
    _c("fig3b-pcm-ssd-cuts-webproxy-readfile", "Fig. 3(b), §4.4",
       "'In the case of PCM-SSD, the latency of readfile in Webproxy is significantly reduced' (vs PCM-HDD)", 1.5,
       "×", AtLeast(slack=0.25, ref=1.0, why="'significantly reduced' read as at least 1.5× shorter than on PCM-HDD; "
                                             "partly from 1.25×; longer on PCM-SSD (below 1×) is the opposite"),
       pcm_ssd_webproxy_readfile, paper_text="significantly (≥ 1.5)",
       why_differs="Webproxy's file set (3.3 GB) fits the assumed 8 GiB host memory, so PCM-HDD and PCM-SSD read "
                   "from the same host page cache and the backing device never shows."),
    _c("fig3cd-fewer-files-evenly", "Figs. 3(c)-(d), §4.5",
       "With 10× fewer files 'the latency of all commands is evenly reduced due to the high locality'",
       "all commands, evenly", "share of cases",
       Share(required=1.0, why="every workload on the four configurations of Fig. 3 (PCM-HDD, HDD, PCM-SSD, SSD); "
                               "'evenly' read as every command's latency ratio within a factor 1.5 of the others"),
       fewer_files_evenly,
       why_differs="With the assumed 8 GiB page cache only Fileserver's 13 GB file set misses, so 10× fewer files "
                   "change nothing in the other three workloads; in Fileserver the data commands get much faster "
                   "and the 50 threads then queue for the CPU, so the metadata commands (open, close, create, "
                   "delete, stat) get slower: not an even reduction."),
    _c("fig2b-conventional-still-wins-read", "Fig. 2(b), §4.5",
       "With 10× fewer files conventional storage 'still shows higher throughput in read-intensive environments'",
       "HDD/SSD ahead in all 4 pairs", "share of cases",
       Share(required=1.0, why="stated for the read-intensive workloads, both storage types; ±1 % a tie"),
       conventional_still_wins_read, why_differs=LOG_WRITEBACK),
    _c("fig4-webserver-converges-later", "Fig. 4, §4.5",
       "'On Webserver, which has many read operations with high locality, convergence happens a bit late'",
       "later than Webproxy and Varmail", "share of cases",
       Share(required=1.0, why="every configuration: Webserver reaches a smaller share of its 64 B→16 KB "
                               "log-throughput gain by 4 KB than Webproxy and Varmail (±0.01 a tie)"),
       webserver_converges_later,
       why_differs="On HDD all three personalities reach the HDD's write-back bound (log appends, file "
                   "write-back) early, so their curves flatten at nearly the same I/O size."),
    _c("sec45-dirwidth-like-files", "§4.5",
       "'Changing the directory width leads to similar results as changing the amount of files'",
       "same direction as fewer files", "share of cases",
       Share(required=1.0, why="each workload on PCM-HDD and HDD: a 10× narrower directory tree changes "
                               "throughput in the same direction as 10× fewer files (±1 % no change)"),
       dirwidth_like_files,
       why_differs="The model has no directory-lookup cost: the directory width changes no flowop's service "
                   "demand, so throughput does not move."),
]
