"""The Illinois step of regula falsi and the write-back tolerances, shared by the workload model's root
finders and their compiled copies.

Regula falsi keeps a bracket ``[lo, hi]`` of a root of a decreasing ``f`` (``f(lo) > 0 >= f(hi)``) and
replaces one end by the secant point ``c``. The Illinois variant halves the value kept at the end that
stayed put twice in a row, so the bracket shrinks from both sides [1]_. One function for the NumPy
references (:func:`~models.storage.workload.fit._fixed_point`,
:func:`~models.storage.workload.group_commit.group_commit_batch`) and the numba kernels of
:mod:`~models.storage.workload.kernel`, so they take the same steps bit for bit; the tolerances
of the write-back fixed point (:data:`WB_RTOL`, :data:`SECANT_ITERS`) are declared here once for both.

References
----------
.. [1] M. Dowell, P. Jarratt, "A modified regula falsi method for computing the root of an equation",
   BIT 11 (1971) 168-174.
"""

from __future__ import annotations

from numba import njit

__all__ = ["illinois_step", "WB_RTOL", "SECANT_ITERS"]

#: Relative tolerance of the write-back fixed point on the throughput [-] (the secant method and
#: the Illinois fallback of :mod:`~models.storage.workload.fit`, and their compiled copies).
WB_RTOL = 1e-10
#: Secant steps tried before the Illinois fallback takes over [-].
SECANT_ITERS = 12


@njit(cache=True, inline="always")
def illinois_step(lo: float, flo: float, hi: float, fhi: float, c: float, fc: float, side: int):
    """The bracket after evaluating ``f(c) = fc`` [-]: ``(lo, flo, hi, fhi, side)``.

    ``fc > 0`` moves the lower end to ``c`` (``side`` 1), otherwise the upper end (``side`` -1); when
    the same end moves twice in a row, the value kept at the other end is halved.

    >>> illinois_step(0.0, 1.0, 1.0, -1.0, 0.5, 0.25, 1)
    (0.5, 0.25, 1.0, -0.5, 1)
    """
    if fc > 0:
        lo, flo = c, fc
        if side == 1:
            fhi *= 0.5
        side = 1
    else:
        hi, fhi = c, fc
        if side == -1:
            flo *= 0.5
        side = -1
    return lo, flo, hi, fhi, side
