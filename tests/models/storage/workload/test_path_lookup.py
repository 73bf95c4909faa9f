"""Directory lookup cost of the Filebench model's metadata flowops (issue 39)."""

from __future__ import annotations

import math

import pytest

from models.provenance import param
from models.storage.workload import costs, paper_workload
from models.storage.workload.demands import flowop_demands


def test_extra_components_follow_filebench_mean_depth():
    # all files in one directory (dirwidth >= entries): no extra component
    assert costs.extra_path_components(50_000, 1e6) == 0.0
    assert costs.extra_path_components(1, 20) == 0.0 and costs.extra_path_components(1000, 1) == 0.0
    # dirwidth^k entries: k levels, k - 1 beyond the benchmark's one directory
    for k in (2, 3, 5):
        assert costs.extra_path_components(20**k, 20) == pytest.approx(k - 1, rel=1e-12)
    # more files at the same width: deeper
    assert costs.extra_path_components(10**6, 20) > costs.extra_path_components(10**5, 20)


def test_metadata_flowops_pay_the_lookup_of_their_extra_components():
    lookup = param("workload.metadata.lookup_per_component_ns").value
    md = costs.metadata_latency()
    fs = paper_workload("fileserver")
    d = flowop_demands(fs, "hdd")
    extra = costs.extra_path_components(fs.main_fileset.entries, fs.main_fileset.dirwidth)
    assert extra > 2
    opens = d[d.kind == "openfile"].cpu_ns
    assert len(opens) and opens.to_numpy() == pytest.approx(md["open"] + lookup * extra, rel=1e-12)
    creates = d[d.kind == "createfile"].cpu_ns
    assert creates.to_numpy() == pytest.approx(md["create"] - md["close"] + lookup * extra, rel=1e-12)
    deletes = d[d.kind == "deletefile"].cpu_ns
    assert deletes.to_numpy() == pytest.approx(md["unlink"] + lookup * extra, rel=1e-12)
    # varmail's files share one directory (Table 1: dirwidth 1,000,000): the measured calls as they are
    vm = flowop_demands(paper_workload("varmail"), "hdd")
    assert vm[vm.kind == "deletefile"].cpu_ns.to_numpy() == pytest.approx(md["unlink"], rel=1e-12)
    assert math.isfinite(lookup) and lookup > 0
