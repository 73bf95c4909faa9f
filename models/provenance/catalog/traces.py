"""Registry declarations of the traces (synthetic presets) and the cache simulators.

Each ``declare_<model>(add)`` registers its model's constants with ``add`` (in the order of
:data:`models.provenance.catalog.DECLARATIONS`, which fixes the registry's order).
"""

from __future__ import annotations

from models.provenance.catalog._common import EXACT, Add, exact
from models.provenance_kinds import ASSUMED, PUBLISHED

__all__ = ["declare_traces", "declare_sim"]


def declare_traces(add: Add) -> None:
    t2 = "seed 003 Table II"
    table2 = {  # write fraction, dataset [GiB], average request [KiB]
        "fin1": (0.846, 18.0, 3.38), "fin2": (0.215, 8.85, 2.4), "dap": (0.549, 84.2, 77),
        "exchange": (0.74, 163.8, 13.65), "tpce": (0.998, 13.2, 10.48), "mail": (0.901, 85, 4),
        "randw": (1.0, 5.9, 4),
    }
    for name, (w, gib, kib) in table2.items():
        src = "seed 003 §V.A.1 text (IOmeter 4 KB 100 % random writes over 5.9 GB)" if name == "randw" else t2
        add(f"trace.{name}.write_fraction", w, "-", f"write share of the {name} preset", PUBLISHED, src,
            *exact(w), EXACT, "003")
        add(f"trace.{name}.dataset_gib", gib, "GiB", f"dataset (address range) of the {name} preset",
            PUBLISHED, src, *exact(gib), EXACT, "003")
        add(f"trace.{name}.avg_request_kib", kib, "KiB", f"average request size of the {name} preset",
            PUBLISHED, src, *exact(kib), EXACT, "003")
    mix = {  # zipf share, sequential share, zipf alpha
        "fin1": (0.8, 0.1, 0.9), "fin2": (0.8, 0.1, 0.9), "dap": (0.1, 0.3, 0.9),
        "exchange": (0.6, 0.2, 0.8), "tpce": (0.7, 0.1, 0.7), "mail": (0.2, 0.7, 0.9),
    }
    why = ("seed 003 Table II gives no locality; our synthetic stand-in's mix, chosen from the workload "
           "descriptions")
    for name, (z, s, a) in mix.items():
        add(f"trace.{name}.zipf_fraction", z, "-", f"share of Zipf-popular requests of the {name} stand-in",
            ASSUMED, why, 0.0, 1.0, "the whole possible range", "003")
        add(f"trace.{name}.seq_fraction", s, "-", f"share of sequential-run requests of the {name} stand-in",
            ASSUMED, why, 0.0, 1.0, "the whole possible range", "003")
        add(f"trace.{name}.zipf_alpha", a, "-", f"Zipf exponent of the {name} stand-in",
            ASSUMED, why, 0.5, 1.2, "wide stated range", "003")
    add("trace.mail.run_requests", 256.0, "requests", "Mail stand-in: mean length of its sequential write runs",
        ASSUMED, "seed 003 §V-A says Mail's writes are mostly sequential, not how long the runs are; the "
                 "first Mail preset's value, restored with its mix when the burst reshaping (done after seeing "
                 "HALO's Mail result) was removed", 16.0, 1024.0, "wide stated range", "003")
    add("trace.web-server.zipf_alpha", 0.8, "-", "Zipf exponent of web-server file popularity",
        PUBLISHED, "Breslau et al., INFOCOM'99: web request popularity Zipf-like, alpha 0.64-0.83",
        0.64, 0.83, "range across the traces of the source")
    add("trace.web-proxy.zipf_alpha", 0.7, "-", "Zipf exponent of web-proxy file popularity",
        PUBLISHED, "Breslau et al., INFOCOM'99: web request popularity Zipf-like, alpha 0.64-0.83",
        0.64, 0.83, "range across the traces of the source")
    add("trace.web-proxy.one_timer_fraction", 0.4, "-", "share of requests to files requested once",
        PUBLISHED, "Breslau et al., INFOCOM'99: proxy traces have many one-timers", 0.2, 0.6,
        "stated band")
    add("trace.web-server.n_files", 20000, "files", "files of the web-server stand-in (before scaling)",
        ASSUMED, "a mid-size site; seed 004 describes no file set", 1000, 1_000_000, "wide stated range", "004")
    add("trace.web-proxy.n_files", 50000, "files", "files of the web-proxy stand-in (before scaling)",
        ASSUMED, "a proxy sees more distinct files than one site; seed 004 describes no file set",
        1000, 1_000_000, "wide stated range", "004")
    add("trace.web-server.median_file_bytes", 12000, "bytes", "median file size of the web-server stand-in",
        PUBLISHED, "Barford & Crovella, SIGMETRICS'98: lognormal web file body, median ~10 KB", 5000.0, 20000.0,
        "stated band")
    add("trace.web-proxy.median_file_bytes", 10000, "bytes", "median file size of the web-proxy stand-in",
        PUBLISHED, "Barford & Crovella, SIGMETRICS'98: lognormal web file body, median ~10 KB", 5000.0, 20000.0,
        "stated band")
    add("trace.synthetic_scale", 0.05, "-", "dataset scale of the synthetic presets loaded by name",
        ASSUMED, "shrinks the Table II datasets so a 100k-request trace revisits blocks in seconds",
        0.01, 1.0, "wide stated range")
    add("trace.vscsi.sector_bytes", 512, "bytes", "sector size of a vscsi trace's 'lbn' field (logical block number)",
        ASSUMED, "the vscsi format (libCacheSim vscsi.h) does not state it; 512 B is the SCSI logical block of "
        "the virtual disks the VMware vscsiStats traces record", 512, 4096, "the two SCSI logical block sizes in use")
    add("trace.txt.object_bytes", 4096, "bytes", "size given to every object of a libCacheSim plain-text trace",
        ASSUMED, "the format (one object id per line) carries no size; one 4 KiB block, the analyses' default "
        "block, so request-count results do not depend on it", 1, 2**32, "any object size")


def declare_sim(add: Add) -> None:
    add("sim.minisim_min_blocks", 0, "blocks", "smallest MiniSim miniature cache: sizes C with C R below it "
        "are simulated on a denser nested spatial sample at rate min(1, this / C); 0 = off",
        ASSUMED, "Waldspurger et al. ATC'17 scale caches by R without a floor (default, fastest); a floor of "
                 "~100 blocks lowers the error at small caches at some cost (docs/models/sim.md)", 0, 1000,
        "off to a 1000-block floor", "")
