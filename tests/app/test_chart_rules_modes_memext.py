"""Every figure behind every mode switch of the memory-extension page obeys the chart rules (issue 18): the walk of
``test_chart_rules_modes.py``, in a file of its own so pytest-xdist's ``--dist loadfile`` runs this long walk
beside the other pages'."""

from __future__ import annotations

from tests.app.test_chart_rules_modes import assert_every_mode_reads_right


def test_every_mode_of_the_memory_extension_page_draws_charts_that_read_right():
    assert_every_mode_reads_right("memory_extension.py")
