"""The shared progress bar (app/components/progress.py): drawn only for a block that runs long, updated
at a bounded rate, removed after; the fraction shown is clipped to 0..1."""

from __future__ import annotations

import pytest

from app.components import progress as progress_mod
from app.components.progress import progress_bar


class _Bar:
    def __init__(self, log: list, f: float, text: str) -> None:
        self.log = log
        log.append(("new", f, text))

    def progress(self, f: float, text: str) -> None:
        self.log.append(("update", f, text))

    def empty(self) -> None:
        self.log.append(("empty",))


class _St:
    def __init__(self) -> None:
        self.log: list = []

    def progress(self, f: float, text: str) -> _Bar:
        return _Bar(self.log, f, text)


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture()
def fake(monkeypatch):
    st, clock = _St(), _Clock()
    monkeypatch.setattr(progress_mod, "st", st)
    monkeypatch.setattr(progress_mod, "_now", clock)
    return st, clock


def test_a_block_that_ends_before_the_delay_draws_nothing(fake):
    st, clock = fake
    with progress_bar("Sampling", show_after_s=0.25) as report:
        for t in (0.0, 0.1, 0.2):
            clock.now = t
            report(t * 4)
    assert st.log == []


def test_a_long_block_draws_the_bar_at_the_first_report_after_the_delay_and_removes_it(fake):
    st, clock = fake
    with progress_bar("Sampling", show_after_s=0.25, min_interval_s=0.1) as report:
        for t, f in ((0.1, 0.1), (0.3, 0.3), (0.35, 0.35), (0.45, 0.5), (0.5, 1.0)):
            clock.now = t
            report(f)
    # 0.1: before the delay; 0.35: within 0.1 s of the last update; 1.0 is always shown
    assert st.log == [("new", 0.3, "Sampling 30%"), ("update", 0.5, "Sampling 50%"),
                      ("update", 0.99, "Sampling 99%"), ("empty",)]  # never 100 % while the block runs


def test_the_fraction_is_clipped_and_the_bar_removed_when_the_block_raises(fake):
    st, clock = fake
    with pytest.raises(RuntimeError), progress_bar("Parsing", show_after_s=0.0) as report:
        report(1.7)
        raise RuntimeError("bad trace")
    assert st.log == [("new", 0.99, "Parsing 99%"), ("empty",)]


@pytest.fixture()
def labels(monkeypatch):
    """The texts the progress bar is drawn with, in order (a stand-in ``st`` and bar)."""
    seen: list[str] = []

    class Bar:
        def progress(self, f, text=""):
            seen.append(text)

        def empty(self):
            pass

    class St:
        def progress(self, f, text=""):
            seen.append(text)
            return Bar()

    monkeypatch.setattr(progress_mod, "st", St())
    return seen


def test_a_long_read_says_bytes_read_and_time_left(labels):
    with progress_bar("Parsing x …", show_after_s=0, min_interval_s=0, total_bytes=2_000_000) as report:
        report(0.5)
    assert labels and labels[-1].startswith("Parsing x … 50 % of 2 MB read"), labels


def test_a_long_read_says_requests_per_second_and_a_second_read_starts_again(labels):
    with progress_bar("Reading x …", show_after_s=0, min_interval_s=0, total_bytes=2_000_000) as report:
        report.add_requests(1000)
        report(0.5)
        assert "requests/s" in labels[-1], labels
        report.restart("Reading x again (sampled) …")
        report(0.25)
    assert labels[-1].startswith("Reading x again (sampled) … 25 % of 2 MB read"), labels
    assert "requests/s" not in labels[-1]  # the new read has parsed none yet
