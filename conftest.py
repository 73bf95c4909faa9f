"""Root pytest configuration: Hypothesis profiles (dev / ci), and the order `make test` hands files to its workers."""

import os

import pytest
from hypothesis import HealthCheck, settings

# ci: fewer examples, derandomized so CI is reproducible; dev: more exploration.
settings.register_profile("ci", max_examples=40, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

#: Test files that run longest, longest first (CI `--durations` of the whole suite, 2 workers): `make test`
#: (``-n 2 --dist loadfile``) hands them out before every other file. pytest-xdist otherwise hands out files by
#: their number of tests, most first, so these -- most have one or two long tests -- came last, where one of them
#: could keep a worker busy for a minute while the other had nothing left to run. Only the order changes: every
#: file still runs whole in one worker. tests/test_conftest_order.py checks each name is still a test file.
LONGEST_FIRST = (
    "tests/app/test_chart_rules_modes.py",            # 14 page walks, ~3 min
    "tests/app/test_browser.py",
    "tests/app/test_browser_theme.py",
    "tests/models/validation/test_ledger.py",         # every claim run once, ~2 min
    "tests/test_dockerfile.py",                       # pip install into a fresh venv
    "tests/app/test_chart_rules_modes_memext.py",     # one walk, ~1 min
    "tests/app/test_browser_economics_targets.py",
    "tests/app/test_browser_planner.py",
    "tests/app/test_browser_large_trace.py",          # a 35 MB upload streamed, ~45 s
    "tests/app/test_chart_rules_modes_writecache.py",
    "tests/app/test_input_messages.py",
    "tests/app/test_app_state.py",
    "tests/app/test_browser_plan_report.py",
    "tests/app/test_browser_issue38.py",
    "tests/app/test_browser_fleet.py",
)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadfile``: xdist's file scheduling, with :data:`LONGEST_FIRST` handed out first."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class LongestFirst(LoadFileScheduling):
        def _assign_work_unit(self, node):
            for name in LONGEST_FIRST:
                if name in self.workqueue:
                    self.workqueue.move_to_end(name, last=False)
                    break
            super()._assign_work_unit(node)

    return LongestFirst(config, log)
