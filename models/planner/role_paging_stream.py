"""The plan's paging role over a memory trace read in chunks (issue 41): the rows of
:func:`models.planner.role_memory.memory_rows` for the paging role, exactly, in memory of the distinct pages.

:class:`PagingRoleStream` is the memory role stream of :data:`models.planner.stream_memory.MEMORY_STREAM_ROLES`
(``first(chunk)``, ``end_first(meta)``, ``second(chunk)``, ``rows(w, meta_trace, devs, base, uq)``,
``state_bytes``, ``holds``, ``page_table``): its :class:`~models.memory.paging_stream.PagingStream` takes the footprint in the first pass
(which sets the memory, ``planner.paging_memory_fraction`` of it), the stack distances (every TLB size) and the
CLOCK faults in the second, and its profile goes through the same :func:`~models.planner.role_memory.paging_rows`
as the in-memory one.

>>> from models.devices import get_device
>>> from models.planner.plan import workload_from_path
>>> from models.traces import load
>>> t = load("lackey:numpy", max_requests=20_000)
>>> s = PagingRoleStream([get_device("pcm-samsung-20nm")], None)
>>> s.first({"address": t.address, "size": t.size, "kind": t.kind}); s.end_first({})
>>> s.second({"address": t.address, "size": t.size, "kind": t.kind})
>>> rows = s.rows(workload_from_path("lackey:numpy"), t, [get_device("pcm-samsung-20nm")], None, None)
>>> rows[0]["role"], rows[0]["verdict"]
('paging', 'wins')
"""

from __future__ import annotations

from models.memory.page_table import SharesPageTable
from models.memory.paging_stream import PagingStream
from models.provenance import param

__all__ = ["PagingRoleStream"]


class PagingRoleStream(SharesPageTable):
    """The paging role's stream (see the module docstring).

    Parameters
    ----------
    devs, base
        The compared devices and the baseline (None: like-for-like); the rows are asked for them at the end.
    bands : bool or (int, seed), keyword-only
        The rows will be asked for uncertainty bands (the plan's ``uq``, or True/False); the profile keeps the LRU
        hits at every TLB size either way, so the paging stream needs nothing more for them.
    """

    role = "paging"

    def __init__(self, devs=None, base=None, *, bands: bool | tuple = True):
        self.devs, self.base, self.bands = devs, base, bands
        self._s = PagingStream(float(param("planner.paging_memory_fraction").value))

    @property
    def state_bytes(self) -> int:
        """Memory of the state [bytes] (:attr:`models.memory.paging_stream.PagingStream.state_bytes`)."""
        return self._s.state_bytes

    @property
    def holds(self) -> tuple:
        """The holds of the state: the page table's own (shared with the memory-extension stream, one hold) and the
        second pass's arrays'."""
        return self._s.holds

    def first(self, chunk: dict) -> None:
        self._s.first(chunk)

    def end_first(self, meta: dict | None = None) -> None:
        self._s.end_first()

    def second(self, chunk: dict) -> None:
        """Take a chunk of the second pass; a chunk whose page ids the budget refuses is taken in halves (the
        stack distances and CLOCK carry across any cut: the same profile)."""
        self.in_halves(self._s.second, chunk)

    def rows(self, w, meta_trace, devs, base, uq) -> list[dict]:
        """The paging rows (:func:`models.planner.role_memory.paging_rows`) of the profile streamed."""
        from models.planner.role_memory import paging_rows

        return paging_rows(w, self._s.profile(getattr(meta_trace, "name", "memtrace")), devs, base, uq)
