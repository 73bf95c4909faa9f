"""The root conftest's xdist scheduler: the longest test files are handed out first, every file still whole."""

from __future__ import annotations

from collections import OrderedDict

import conftest as root_conftest
from tests import ROOT


class _Config:
    """What xdist's schedulers read of the configuration: ``-n 2 --dist loadfile``."""

    def getvalue(self, name):
        return {"dist": "loadfile", "tx": ["2*popen"]}[name]


class _Node:
    def __init__(self):
        self.sent: list[list[int]] = []
        self.shutting_down = False

    def send_runtest_some(self, indexes):
        self.sent.append(list(indexes))


def test_each_longest_first_name_is_a_test_file_named_once():
    names = root_conftest.LONGEST_FIRST
    assert len(names) == len(set(names))
    for name in names:
        assert (ROOT / name).is_file() and name.startswith("tests/") and "/test_" in name, name


def test_longest_files_go_first_in_the_listed_order_then_xdist_order_and_whole():
    sched = root_conftest.pytest_xdist_make_scheduler(_Config(), None)
    first, second = root_conftest.LONGEST_FIRST[:2]
    collection = ["tests/a.py::t1", "tests/a.py::t2", "tests/a.py::t3", f"{second}::x", f"{first}::y",
                  "tests/b.py::t1"]
    node = _Node()
    sched.registered_collections[node] = collection
    sched.workqueue = OrderedDict()
    for nodeid in collection:
        sched.workqueue.setdefault(nodeid.split("::")[0], {})[nodeid] = False
    for _ in range(4):
        sched._assign_work_unit(node)
    assert node.sent == [[4], [3], [0, 1, 2], [5]]  # listed first (in the list's order), then xdist's own order
    assert not sched.workqueue


def test_other_dist_modes_keep_xdist_s_scheduler():
    class Load(_Config):
        def getvalue(self, name):
            return "load" if name == "dist" else super().getvalue(name)

    assert root_conftest.pytest_xdist_make_scheduler(Load(), None) is None
