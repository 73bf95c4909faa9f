"""PCM wear leveling over stripes: static, start-gap, round-robin and space-filling-curve schemes.

Seed 003 (Liu et al., MASCOTS 2012, section IV, section V-B, Table I, equation 1, Figure 9)
levels the wear of a PCM write cache in units of *stripes* (32 KB = 64 blocks of 512 B). The device
is a 3-D array of ``ranks x banks x stripes`` (Table I: 8 x 16 x 512 = 65,536 stripes,
2 GiB). A scheme maps the logical stripe number ``LSN = LBN // 64`` of every write to a
physical ``(rank, bank, stripe)`` that may change over time; we count the writes every
bank (and every stripe) receives and summarise them with the paper's *life rate*

.. math::  \\text{life} = \\frac{1}{\\frac{\\max - \\text{avg}}{\\text{avg}} + 1}
           = \\frac{\\text{avg bank writes}}{\\max \\text{ bank writes}} \\in (0, 1]

(``max - avg`` is the paper's "maximum bank write count deviation"); the lifetime
improvement of a scheme is its life rate over SG's.

Schemes
-------
``none``
    Static linear mapping: physical stripe = LSN (bank-major: stripes 0-511 in bank 0 of
    rank 0, ...).
``sg``
    Region-based start-gap without randomisation (Qureshi et al. MICRO'09): the physical
    stripes are cut into ``sg_regions`` contiguous regions of ``P`` slots holding
    ``N = P - 1`` logical stripes and one empty *gap* slot. Slot of logical line ``la``:
    ``pa = (la + start) mod N; if pa >= gap: pa += 1``. Every ``psi`` writes to a region
    its gap moves one slot down (the line above it is copied into it: one *movement
    write*); when the gap reaches slot 0 the line in slot ``N`` moves to 0, the gap
    returns to ``N`` and ``start`` advances, so every line eventually visits every slot.
    Default: 32 regions of 2,048 stripes (4 banks), the size of an SFC cube, so SG and SFC
    pay the same gap-move overhead (the paper does not give SG's region size).
``rr``
    Round-robin: consecutive stripes go to consecutive ranks, then banks
    (``rank = LSN mod R``, ``bank = (LSN // R) mod B``, ``la = LSN // (R B)``), with one
    start-gap region per bank (the paper: "a start-gap like stripe shifting scheme is
    implemented in each bank"). Writes never leave their bank.
``sfc``
    Equation 1: ``cube = LSN mod C``, ``offset = LSN // C``, ``seq = StartGapMap(offset)``
    inside the cube, ``(R, B, S) = SFCMapFunc(seq)``. The 32 cubes split the stripe
    dimension (cube ``c`` = stripes ``16c .. 16c+15`` of every bank, ``8 x 16 x 16``
    stripes); ``SFCMapFunc`` walks the cube along a 3-D Hilbert curve (Skilling's
    transposed-index algorithm, which yields the same curve family as the Liu & Schrack
    encoding the paper cites): the ``8 x 16 x 16`` box is exactly the first half of the
    ``16^3`` Hilbert curve when the rank is Skilling's first axis, so the walk is
    continuous (each step moves to an adjacent stripe, bank or rank). The gap moves along
    the curve, so a hot line crawls through banks ("the 3D SFC cube moves like a snake").

    Equation 1 taken literally sends stripes ``LSN .. LSN + 31`` (one per cube, same
    ``seq``) to the *same* bank, contradicting the paper's "we orchestrate SFC to
    disperse accesses across ranks". With ``sfc_rotate_cubes`` (default) cube ``c``'s
    curve is rotated on the rank/bank torus by ``c mod R`` ranks and
    ``(c // R) * B // ceil(C / R)`` banks, so 32 consecutive stripes land on 32 banks over
    all 8 ranks. This is our reading, not a detail the paper gives; set it to False for
    the literal equation.

Gap slots and capacity
----------------------
A start-gap region of ``P`` physical slots stores ``P - 1`` logical stripes, so the
addressable capacity is ``total - regions`` stripes for ``sg``/``rr``/``sfc`` (65,504,
65,408 and 65,504 stripes with Table I; 65,536 for ``none``): the paper's "LSN 0-64K" up to
the gap slots. Trace addresses are folded onto the device modulo the smallest of these
(:attr:`WearConfig.logical_stripes`, 65,408), so every scheme sees the same stream.

Horizons: one pass and the long run
-----------------------------------
:func:`simulate_wear` replays the stream once. A gap sweeps a region once per ``P psi``
region writes (Table I, psi = 100: ~6.5 M device writes per sweep), so a trace of a few
million writes barely moves any line: over one pass every scheme is close to a static
layout. Over a device lifetime the workload repeats for years, and start-gap rotates
every line through every slot of its region for the same number of moves (over the
``N (N + 1)`` moves of a full rotation each line occupies each of the ``N + 1`` slots
for exactly ``N`` moves). For a stationary workload each slot then receives
``1 / (N + 1)`` of its region's writes, so the *long-run* bank writes are

.. math::  w_b = \\sum_r W_r \\, \\frac{\\text{slots of region } r \\text{ in bank } b}{N_r + 1}

(:func:`long_run_bank_writes`): SFC cubes hold 16 slots in every bank, so SFC tends to
life rate 1 for any stationary workload; RR regions are banks, so RR keeps its one-pass
bank counts; SG averages over its regions' banks (4 with Table I).

Perfectly uniform streams
-------------------------
Life rate 1 needs every bank to receive exactly the same number of data writes. Random
uniform writes only get there in expectation. A stream is *perfectly uniform for a
scheme* (:func:`uniform_stream`) when it repeats sweeps ``0, 1, ..., capacity - 1``
of that scheme's logical stripes and

- the number of sweeps makes each region's write count a whole number of start-gap
  periods ``N (N + 1) psi`` (the gap visits each of the ``N + 1`` slots ``N`` times,
  for ``psi`` writes each, so every slot is empty for the same time), and
- ``psi`` is a multiple of the region's ``N`` logical stripes (each gap position then
  sees whole sweeps of the region, i.e. the same writes for every logical line).

Then every physical slot gets ``N psi`` writes per period and, since every bank holds the
same number of slots of every region, every bank the same count: life rate exactly 1 for
every scheme. For ``none`` and ``rr`` (whose regions never straddle banks) any whole
number of sweeps suffices. With Table I a period is ~10^10 writes, so tests use a small
geometry.

Movement writes (gap moves) are counted separately (``move_bank_writes``); the life rate
is computed from data writes like the paper's Figure 9, and
:attr:`WearResult.life_rate_with_movement` includes them.

References
----------
.. [1] Z. Liu, B. Wang, P. Carpenter, D. Li, J. S. Vetter, W. Yu, "PCM-Based Durable Write
   Cache for Fast Disk I/O", MASCOTS 2012 (HALO and SFC wear leveling) (seed 003), section IV,
   Table I, equation 1; section V-B, Figure 9.
.. [2] M. K. Qureshi, J. Karidis, M. Franceschini, V. Srinivasan, L. Lastras, B. Abali,
   "Enhancing Lifetime and Security of PCM-Based Main Memory with Start-Gap Wear
   Leveling", MICRO 2009 (start-gap, region-based start-gap, psi = 100).
.. [3] X. Liu, G. F. Schrack, "An Algorithm for Encoding and Decoding the 3-D Hilbert
   Order", IEEE Trans. Image Processing 6(9), 1997.
.. [4] J. Skilling, "Programming the Hilbert curve", AIP Conf. Proc. 707, 381 (2004).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import ClassVar, Literal

import numpy as np
import pandas as pd
from numba import njit
from pydantic import Field, model_validator

from models._base import ModelInput, ModelResult, results_frame
from models.provenance import device_keys, param, param_names, trace_keys

__all__ = [
    "SCHEMES",
    "Scheme",
    "PAPER_LIFE_RATE",
    "PAPER_IMPROVEMENT_SFC_VS_SG",
    "WearConfig",
    "WearState",
    "WearResult",
    "hilbert_index_3d",
    "sfc_curve",
    "slot_table",
    "physical_map",
    "gap_slots",
    "simulate_wear",
    "simulate_wear_reference",
    "uniform_stream",
    "stripe_write_stream",
    "write_rate_bytes_per_s",
    "compare_schemes",
    "long_run_bank_writes",
    "lifetime_years_for",
    "provenance_keys_for",
]

Scheme = Literal["none", "sg", "rr", "sfc"]
#: Scheme names, in the order reported.
SCHEMES: tuple[str, ...] = ("none", "sg", "rr", "sfc")
_CODE = {"none": 0, "sg": 1, "rr": 2, "sfc": 3}

#: Seed 003 section V-B: average life rate over its seven traces (Figure 9).
PAPER_LIFE_RATE = {"sfc": 0.9255, "rr": 0.619, "sg": 0.0598}
#: Seed 003: average lifetime improvement of SFC over SG.
PAPER_IMPROVEMENT_SFC_VS_SG = 21.6


class WearConfig(ModelInput):
    """Device geometry (Table I) and wear-leveling parameters.

    >>> c = WearConfig()
    >>> c.total_stripes, c.n_banks, c.stripe_bytes, c.cube_dims, c.capacity_bytes / 2**30
    (65536, 128, 32768, (8, 16, 16), 2.0)
    >>> [c.capacity_stripes(s) for s in SCHEMES], c.logical_stripes
    ([65536, 65504, 65408, 65504], 65408)
    """

    block_bytes: int = Field(param("wear.block_bytes").value, ge=1, le=1 << 20,
                             description="block (sector) size [bytes]")
    stripe_blocks: int = Field(param("wear.stripe_blocks").value, ge=1, le=1 << 16,
                               description="blocks per stripe [blocks]")
    stripes_per_bank: int = Field(param("wear.stripes_per_bank").value, ge=2, le=1 << 20,
                                  description="stripes in a bank [stripes]")
    banks_per_rank: int = Field(param("wear.banks_per_rank").value, ge=1, le=1024, description="banks in a rank [banks]")
    ranks: int = Field(param("wear.ranks").value, ge=1, le=1024, description="ranks in the device [ranks]")
    cubes: int = Field(param("wear.cubes").value, ge=1, le=1 << 16,
                       description="SFC cubes, splitting the stripe dimension [-]")
    sg_regions: int = Field(param("wear.sg_regions").value, ge=1, le=1 << 20,
                            description="start-gap regions of the SG scheme (contiguous physical stripes) [-]")
    gap_interval_writes: int = Field(param("wear.gap_interval_writes").value, ge=1, le=1 << 40,
                                     description="psi: writes to a region between two gap moves [writes]")
    sfc_rotate_cubes: bool = Field(True, description="rotate each cube's curve over ranks/banks (see module doc)")

    @model_validator(mode="after")
    def _check(self) -> WearConfig:
        if self.total_stripes > 1 << 26:
            raise ValueError(f"ranks x banks_per_rank x stripes_per_bank must be <= {1 << 26} stripes "
                             f"(got {self.total_stripes})")
        if self.stripes_per_bank % self.cubes:
            raise ValueError(f"cubes: must divide stripes_per_bank={self.stripes_per_bank} (got {self.cubes})")
        if self.total_stripes % self.sg_regions:
            raise ValueError(f"sg_regions: must divide the {self.total_stripes} stripes (got {self.sg_regions})")
        if self.total_stripes // self.sg_regions < 2:
            raise ValueError("sg_regions: each start-gap region needs at least 2 stripes")
        if self.total_stripes // self.cubes < 2:
            raise ValueError("cubes: each cube needs at least 2 stripes")
        return self

    @property
    def stripe_bytes(self) -> int:
        """Stripe size [bytes]."""
        return self.block_bytes * self.stripe_blocks

    @property
    def n_banks(self) -> int:
        """Banks in the device [banks]."""
        return self.ranks * self.banks_per_rank

    @property
    def total_stripes(self) -> int:
        """Physical stripes in the device [stripes]."""
        return self.ranks * self.banks_per_rank * self.stripes_per_bank

    @property
    def capacity_bytes(self) -> int:
        """Physical capacity [bytes]."""
        return self.total_stripes * self.stripe_bytes

    @property
    def cube_dims(self) -> tuple[int, int, int]:
        """SFC cube size (ranks, banks, stripes) [stripes]."""
        return (self.ranks, self.banks_per_rank, self.stripes_per_bank // self.cubes)

    def regions(self, scheme: str) -> int:
        """Start-gap regions of ``scheme`` (0 for ``none``)."""
        return {"none": 0, "sg": self.sg_regions, "rr": self.n_banks, "sfc": self.cubes}[_check_scheme(scheme)]

    def region_slots(self, scheme: str) -> int:
        """Physical slots of one start-gap region, ``P`` [stripes]."""
        r = self.regions(scheme)
        return self.total_stripes // r if r else self.total_stripes

    def capacity_stripes(self, scheme: str) -> int:
        """Addressable logical stripes of ``scheme`` (one gap slot per region) [stripes]."""
        return self.total_stripes - self.regions(scheme)

    @property
    def logical_stripes(self) -> int:
        """Logical stripes every scheme can address (the smallest capacity) [stripes]:
        trace addresses are folded modulo this so all schemes see the same stream."""
        return min(self.capacity_stripes(s) for s in SCHEMES)


def _check_scheme(scheme: str) -> str:
    if scheme not in _CODE:
        raise ValueError(f"scheme must be one of {', '.join(SCHEMES)} (got {scheme!r})")
    return scheme


# ----------------------------------------------------------------------------------------
# 3-D Hilbert curve
# ----------------------------------------------------------------------------------------

def hilbert_index_3d(coords, bits: int) -> np.ndarray:
    """Hilbert index of 3-D points (Skilling's transposed-axes algorithm), vectorised.

    Parameters
    ----------
    coords : array_like of int, shape (n, 3)
        Points with every coordinate in ``[0, 2**bits)``.
    bits : int
        Bits per coordinate (the cube side is ``2**bits``), 1..20.

    Returns
    -------
    numpy.ndarray of int64, shape (n,)
        Position of each point on the curve, ``0 .. 8**bits - 1``.

    References
    ----------
    J. Skilling, "Programming the Hilbert curve", AIP Conf. Proc. 707 (2004).

    Examples
    --------
    The order-1 curve visits the corners of a cube in Gray-code order:

    >>> import itertools
    >>> pts = np.array(list(itertools.product((0, 1), repeat=3)))
    >>> [tuple(int(v) for v in p) for p in pts[np.argsort(hilbert_index_3d(pts, 1))]]
    [(0, 0, 0), (0, 0, 1), (0, 1, 1), (0, 1, 0), (1, 1, 0), (1, 1, 1), (1, 0, 1), (1, 0, 0)]
    """
    x = np.array(coords, dtype=np.int64, copy=True)
    if x.ndim != 2 or x.shape[1] != 3:
        raise ValueError(f"coords must have shape (n, 3) (got {x.shape})")
    if not 1 <= bits <= 20:
        raise ValueError(f"bits must be in 1..20 (got {bits})")
    if x.size and (x.min() < 0 or x.max() >= 1 << bits):
        raise ValueError(f"coords must be in [0, {1 << bits})")
    q = 1 << (bits - 1)
    while q > 1:  # inverse undo of Skilling's AxestoTranspose
        p = q - 1
        for i in range(3):
            m = (x[:, i] & q) != 0
            x[m, 0] ^= p
            t = np.where(m, 0, (x[:, 0] ^ x[:, i]) & p)
            x[:, 0] ^= t
            x[:, i] ^= t
        q >>= 1
    for i in (1, 2):  # Gray encode
        x[:, i] ^= x[:, i - 1]
    t = np.zeros(len(x), np.int64)
    q = 1 << (bits - 1)
    while q > 1:
        t[(x[:, 2] & q) != 0] ^= q - 1
        q >>= 1
    x ^= t[:, None]
    h = np.zeros(len(x), np.int64)
    for b in range(bits - 1, -1, -1):  # interleave the transposed bits, axis 0 most significant
        for i in range(3):
            h = (h << 1) | ((x[:, i] >> b) & 1)
    return h


@cache
def _curve(dims: tuple[int, int, int]) -> np.ndarray:
    r, b, s = dims
    bits = max(1, math.ceil(math.log2(max(dims))))
    g = np.stack(np.meshgrid(np.arange(r), np.arange(s), np.arange(b), indexing="ij"), -1).reshape(-1, 3)
    order = np.argsort(hilbert_index_3d(g, bits), kind="stable")
    rsb = g[order]
    out = np.ascontiguousarray(rsb[:, [0, 2, 1]])  # (rank, bank, stripe)
    out.setflags(write=False)
    return out


def sfc_curve(config: WearConfig | None = None) -> np.ndarray:
    """``SFCMapFunc``: (rank, bank, stripe-in-cube) of every sequence number of a cube.

    The cube's points are ordered by their index on the Hilbert curve of the enclosing
    ``2^k`` cube with rank, stripe and bank as Skilling's axes 0, 1 and 2. Rank first makes
    Table I's ``8 x 16 x 16`` cube exactly the first half of the ``16^3`` curve (so the
    walk is continuous); bank as the fastest axis makes the first 1024 positions cover all
    128 banks (stripe there: 64). For boxes that are not such a prefix the order is the
    pruned Hilbert order (still a bijection, with occasional jumps).

    Returns
    -------
    numpy.ndarray of int64, shape (ranks * banks * stripes_per_cube, 3)

    Examples
    --------
    >>> c = sfc_curve()
    >>> c.shape, int(np.abs(np.diff(c, axis=0)).sum(axis=1).max())  # every step to a neighbour
    ((2048, 3), 1)
    >>> c[:4].tolist()
    [[0, 0, 0], [0, 1, 0], [0, 1, 1], [0, 0, 1]]
    """
    return _curve((config or WearConfig()).cube_dims)


@lru_cache(maxsize=8)  # bounded: one table per (geometry, scheme) a server has seen recently
def _slot_table(config: WearConfig, scheme: str) -> np.ndarray:
    S, B, R = config.stripes_per_bank, config.banks_per_rank, config.ranks
    if scheme == "none":
        tab = np.arange(config.total_stripes, dtype=np.int64)[None, :]
    elif scheme == "sg":
        P = config.region_slots("sg")
        tab = np.arange(config.total_stripes, dtype=np.int64).reshape(config.sg_regions, P)
    elif scheme == "rr":
        tab = np.arange(config.total_stripes, dtype=np.int64).reshape(config.n_banks, S)
    else:
        cur = sfc_curve(config)
        spc = S // config.cubes
        groups = -(-config.cubes // R)
        c = np.arange(config.cubes, dtype=np.int64)[:, None]
        if config.sfc_rotate_cubes:
            rank = (cur[None, :, 0] + c % R) % R
            bank = (cur[None, :, 1] + (c // R) * B // groups) % B
        else:
            rank = np.broadcast_to(cur[None, :, 0], (config.cubes, len(cur)))
            bank = np.broadcast_to(cur[None, :, 1], (config.cubes, len(cur)))
        stripe = c * spc + cur[None, :, 2]
        tab = (rank * B + bank) * S + stripe
    tab = np.ascontiguousarray(tab, dtype=np.int64)
    tab.setflags(write=False)
    return tab


def slot_table(config: WearConfig, scheme: str) -> np.ndarray:
    """Physical stripe of every (region, slot): shape (regions, P) (``none``: (1, total)).

    Physical stripe ``p = (rank * banks_per_rank + bank) * stripes_per_bank + stripe``;
    its bank is ``p // stripes_per_bank``.

    >>> t = slot_table(WearConfig(), "sfc"); t.shape, len(np.unique(t)) == t.size
    ((32, 2048), True)
    """
    return _slot_table(config, _check_scheme(scheme))


# ----------------------------------------------------------------------------------------
# State and simulation
# ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class WearState:
    """Start-gap registers of every region: ``start``, ``gap`` (slot of the empty line)
    and ``count`` (writes since the last gap move), int64 arrays of length ``regions``."""

    start: np.ndarray
    gap: np.ndarray
    count: np.ndarray

    @classmethod
    def initial(cls, config: WearConfig, scheme: str) -> WearState:
        """All regions at ``start = 0``, ``gap = N`` (the last slot), ``count = 0``."""
        r = config.regions(scheme)
        n = config.region_slots(scheme) - 1
        return cls(np.zeros(r, np.int64), np.full(r, n, np.int64), np.zeros(r, np.int64))

    def copy(self) -> WearState:
        return WearState(self.start.copy(), self.gap.copy(), self.count.copy())


@njit(cache=True)
def _wear_kernel(lsn, code, R, B, S, C, N, psi, table, start, gap, count,
                 bank_w, stripe_w, mbank_w, mstripe_w):  # pragma: no cover - numba
    moves = 0
    for i in range(lsn.size):
        x = lsn[i]
        if code == 0:
            phys = x
        else:
            if code == 1:
                r = x // N
                la = x - r * N
            elif code == 2:
                q = x // R
                r = (x - q * R) * B + q % B
                la = q // B
            else:
                la = x // C
                r = x - la * C
            pa = la + start[r]
            if pa >= N:
                pa -= N
            if pa >= gap[r]:
                pa += 1
            phys = table[r, pa]
            c = count[r] + 1
            if c >= psi:
                c = 0
                g = gap[r]
                if g == 0:
                    dst = 0
                    gap[r] = N
                    s = start[r] + 1
                    start[r] = 0 if s >= N else s
                else:
                    dst = g
                    gap[r] = g - 1
                d = table[r, dst]
                mbank_w[d // S] += 1
                mstripe_w[d] += 1
                moves += 1
            count[r] = c
        bank_w[phys // S] += 1
        stripe_w[phys] += 1
    return moves


@dataclass(frozen=True)
class WearResult(ModelResult):
    """Write counts of one scheme over one write stream.

    ``to_frame()``: one row ``scheme, writes, moves, avg_bank_writes, max_bank_writes,
    life_rate, movement_overhead, life_rate_with_movement``.

    Attributes
    ----------
    scheme : str
    config : WearConfig
    writes : int
        Data stripe writes simulated [writes].
    bank_writes : int64 array, shape (n_banks,)
        Data writes per bank, bank id ``rank * banks_per_rank + bank`` [writes].
    stripe_writes : int64 array, shape (total_stripes,)
        Data writes per physical stripe [writes].
    move_bank_writes, move_stripe_writes : int64 arrays
        Movement (gap-move) writes per bank / stripe [writes].
    moves : int
        Gap moves = movement writes [writes].
    state : WearState
        Registers after the stream (pass back to continue).
    """

    scheme: str
    config: WearConfig
    writes: int
    bank_writes: np.ndarray
    stripe_writes: np.ndarray
    move_bank_writes: np.ndarray
    move_stripe_writes: np.ndarray
    moves: int
    state: WearState = field(repr=False)

    FRAME_EXTRAS: ClassVar[tuple[str, ...]] = ("avg_bank_writes", "max_bank_writes", "life_rate",
                                               "movement_overhead", "life_rate_with_movement")

    @property
    def avg_bank_writes(self) -> float:
        """Mean data writes per bank [writes]."""
        return float(self.bank_writes.mean())

    @property
    def max_bank_writes(self) -> int:
        """Data writes of the most written bank [writes]."""
        return int(self.bank_writes.max())

    @property
    def life_rate(self) -> float:
        """``avg / max`` bank data writes in (0, 1] (NaN for an empty stream) [-]."""
        m = self.max_bank_writes
        return self.avg_bank_writes / m if m else float("nan")

    @property
    def life_rate_with_movement(self) -> float:
        """Life rate of data + movement writes [-]."""
        tot = self.bank_writes + self.move_bank_writes
        m = tot.max()
        return float(tot.mean() / m) if m else float("nan")

    @property
    def movement_overhead(self) -> float:
        """Movement writes per data write [-]."""
        return self.moves / self.writes if self.writes else 0.0

    def bank_matrix(self, *, movement: bool = False) -> np.ndarray:
        """Bank writes as a (ranks, banks_per_rank) matrix [writes]."""
        w = self.bank_writes + (self.move_bank_writes if movement else 0)
        return w.reshape(self.config.ranks, self.config.banks_per_rank)


def _as_lsn(lsn, config: WearConfig, scheme: str, fold: bool) -> np.ndarray:
    a = np.asarray(lsn)
    if a.ndim != 1:
        raise ValueError(f"lsn must be a one-dimensional array (got shape {a.shape})")
    if a.size and not np.issubdtype(a.dtype, np.integer):
        raise ValueError(f"lsn must hold integers (got dtype {a.dtype})")
    a = np.ascontiguousarray(a, dtype=np.int64)
    cap = config.capacity_stripes(scheme)
    if a.size and a.min() < 0:
        raise ValueError(f"lsn[{int(np.argmax(a < 0))}] is negative ({int(a.min())})")
    if fold:
        return a % config.logical_stripes
    if a.size and a.max() >= cap:
        i = int(np.argmax(a >= cap))
        raise ValueError(f"lsn[{i}] = {int(a[i])} is beyond the {cap} stripes scheme {scheme!r} addresses; "
                         "pass fold=True to fold addresses onto the device")
    return a


def simulate_wear(lsn, scheme: str = "sfc", config: WearConfig | None = None, *,
                  fold: bool = False, state: WearState | None = None) -> WearResult:
    """Run a stream of stripe writes through a wear-leveling scheme (numba kernel).

    Parameters
    ----------
    lsn : array_like of int
        Logical stripe number of every write, in arrival order.
    scheme : {"none", "sg", "rr", "sfc"}
    config : WearConfig, optional
        Geometry and ``psi``; Table I by default.
    fold : bool, keyword-only
        Fold addresses onto the device (``lsn mod config.logical_stripes``, the capacity
        every scheme offers, so all schemes see the same stream) instead of rejecting those
        beyond the scheme's capacity.
    state : WearState, optional
        Registers to start from (e.g. ``previous.state``); initial state by default. Not
        modified.

    Returns
    -------
    WearResult

    Examples
    --------
    A hot stripe written 2,000 times plus a sweep of the device:

    >>> c = WearConfig()
    >>> lsn = np.concatenate([np.arange(65000), np.full(2000, 7)])
    >>> [round(simulate_wear(lsn, s, c).life_rate, 3) for s in SCHEMES]
    [0.208, 0.208, 0.209, 0.209]
    """
    config = config or WearConfig()
    _check_scheme(scheme)
    a = _as_lsn(lsn, config, scheme, fold)
    st = (state or WearState.initial(config, scheme)).copy()
    regions = config.regions(scheme)
    if len(st.start) != regions:
        raise ValueError(f"state has {len(st.start)} regions, scheme {scheme!r} has {regions}")
    nb, ns = config.n_banks, config.total_stripes
    bank_w = np.zeros(nb, np.int64)
    stripe_w = np.zeros(ns, np.int64)
    mbank_w = np.zeros(nb, np.int64)
    mstripe_w = np.zeros(ns, np.int64)
    moves = _wear_kernel(a, _CODE[scheme], config.ranks, config.banks_per_rank, config.stripes_per_bank,
                         config.cubes, config.region_slots(scheme) - 1, config.gap_interval_writes,
                         slot_table(config, scheme), st.start, st.gap, st.count,
                         bank_w, stripe_w, mbank_w, mstripe_w)
    return WearResult(scheme, config, len(a), bank_w, stripe_w, mbank_w, mstripe_w, int(moves), st)


def _region_and_la(lsn: np.ndarray, config: WearConfig, scheme: str):
    if scheme == "sg":
        n = config.region_slots("sg") - 1
        return lsn // n, lsn % n
    if scheme == "rr":
        R, B = config.ranks, config.banks_per_rank
        return (lsn % R) * B + (lsn // R) % B, lsn // (R * B)
    return lsn % config.cubes, lsn // config.cubes


def physical_map(config: WearConfig, scheme: str, state: WearState | None = None) -> np.ndarray:
    """Physical stripe of every logical stripe ``0 .. capacity-1`` under ``state`` (vectorised).

    >>> c = WearConfig(ranks=2, banks_per_rank=2, stripes_per_bank=4, cubes=2, sg_regions=2)
    >>> physical_map(c, "rr").tolist()
    [0, 8, 4, 12, 1, 9, 5, 13, 2, 10, 6, 14]
    """
    _check_scheme(scheme)
    lsn = np.arange(config.capacity_stripes(scheme), dtype=np.int64)
    if scheme == "none":
        return lsn
    st = state or WearState.initial(config, scheme)
    n = config.region_slots(scheme) - 1
    r, la = _region_and_la(lsn, config, scheme)
    pa = (la + st.start[r]) % n
    pa = pa + (pa >= st.gap[r])
    return slot_table(config, scheme)[r, pa]


def gap_slots(config: WearConfig, scheme: str, state: WearState | None = None) -> np.ndarray:
    """Physical stripes that are currently gaps (empty), one per region.

    >>> gap_slots(WearConfig(), "rr")[:3].tolist()
    [511, 1023, 1535]
    """
    _check_scheme(scheme)
    if scheme == "none":
        return np.zeros(0, np.int64)
    st = state or WearState.initial(config, scheme)
    return slot_table(config, scheme)[np.arange(config.regions(scheme)), st.gap]


def simulate_wear_reference(lsn, scheme: str = "sfc", config: WearConfig | None = None, *,
                            state: WearState | None = None) -> WearResult:
    """Pure-Python reference of :func:`simulate_wear` that moves the data explicitly.

    Every region keeps an array of which logical line each slot holds; a gap move copies the
    line above the gap into it (Qureshi et al., Fig. 4). Every write checks that the
    register formula finds the line where the data really is (AssertionError otherwise).
    Slow (~1 us per write); for tests and the benchmark's reference.

    >>> c = WearConfig(ranks=2, banks_per_rank=2, stripes_per_bank=4, cubes=2, sg_regions=2,
    ...                gap_interval_writes=3)
    >>> lsn = np.random.default_rng(1).integers(0, 12, 500)
    >>> a, b = simulate_wear(lsn, "rr", c), simulate_wear_reference(lsn, "rr", c)
    >>> bool((a.stripe_writes == b.stripe_writes).all() and a.moves == b.moves)
    True
    """
    config = config or WearConfig()
    _check_scheme(scheme)
    a = _as_lsn(lsn, config, scheme, False)
    st = (state or WearState.initial(config, scheme)).copy()
    nb, ns, S = config.n_banks, config.total_stripes, config.stripes_per_bank
    bank_w, stripe_w = [0] * nb, [0] * ns
    mbank_w, mstripe_w = [0] * nb, [0] * ns
    moves = 0
    if scheme == "none":
        for x in a.tolist():
            bank_w[x // S] += 1
            stripe_w[x] += 1
    else:
        tab = slot_table(config, scheme).tolist()
        n = config.region_slots(scheme) - 1
        psi = config.gap_interval_writes
        start, gap, count = st.start.tolist(), st.gap.tolist(), st.count.tolist()
        # where the data is: slot of every (region, la), from the register state
        rr_, la_ = _region_and_la(np.arange(config.capacity_stripes(scheme)), config, scheme)
        where: list[dict[int, int]] = [dict() for _ in range(config.regions(scheme))]
        holds: list[list[int]] = [[-1] * (n + 1) for _ in range(config.regions(scheme))]
        for r, la in zip(rr_.tolist(), la_.tolist(), strict=True):
            pa = (la + start[r]) % n
            pa += pa >= gap[r]
            where[r][la] = pa
            holds[r][pa] = la
        rlist, llist = _region_and_la(a, config, scheme)
        for r, la in zip(rlist.tolist(), llist.tolist(), strict=True):
            slot = where[r][la]
            pa = (la + start[r]) % n
            pa += pa >= gap[r]
            assert pa == slot, f"register mapping {pa} != data location {slot}"
            p = tab[r][slot]
            bank_w[p // S] += 1
            stripe_w[p] += 1
            count[r] += 1
            if count[r] >= psi:
                count[r] = 0
                g = gap[r]
                src, dst = (n, 0) if g == 0 else (g - 1, g)
                line = holds[r][src]
                holds[r][dst], holds[r][src] = line, -1
                where[r][line] = dst
                if g == 0:
                    gap[r] = n
                    start[r] = (start[r] + 1) % n
                else:
                    gap[r] = g - 1
                assert holds[r][gap[r]] == -1
                d = tab[r][dst]
                mbank_w[d // S] += 1
                mstripe_w[d] += 1
                moves += 1
        st = WearState(np.array(start, np.int64), np.array(gap, np.int64), np.array(count, np.int64))
    arr = [np.array(v, np.int64) for v in (bank_w, stripe_w, mbank_w, mstripe_w)]
    return WearResult(scheme, config, len(a), *arr, moves, st)


def uniform_stream(config: WearConfig, scheme: str, sweeps: int | None = None) -> np.ndarray:
    """A *perfectly uniform* write stream for ``scheme`` (see the module docstring).

    ``sweeps`` repetitions of ``0 .. capacity-1``. By default, the smallest number of sweeps
    covering whole start-gap periods of every region, which needs ``psi`` to be a multiple
    of the region's logical stripes ``N`` (ValueError otherwise); ``none``: one sweep.

    >>> c = WearConfig(ranks=2, banks_per_rank=2, stripes_per_bank=4, cubes=2, sg_regions=2,
    ...                gap_interval_writes=7)
    >>> s = uniform_stream(c, "sfc"); len(s), simulate_wear(s, "sfc", c).life_rate
    (784, 1.0)
    """
    _check_scheme(scheme)
    cap = config.capacity_stripes(scheme)
    if sweeps is None:
        if scheme == "none":
            sweeps = 1
        else:
            n, psi = config.region_slots(scheme) - 1, config.gap_interval_writes
            if psi % n:
                raise ValueError(f"gap_interval_writes={psi} must be a multiple of the {n} logical stripes "
                                 f"of a {scheme!r} region for a perfectly uniform stream")
            sweeps = (n + 1) * psi  # region writes per period N (N+1) psi, N per sweep
    if sweeps < 1:
        raise ValueError(f"sweeps must be >= 1 (got {sweeps})")
    return np.tile(np.arange(cap, dtype=np.int64), int(sweeps))


# ----------------------------------------------------------------------------------------
# Streams from traces, comparison, lifetime
# ----------------------------------------------------------------------------------------

def stripe_write_stream(trace, config: WearConfig | None = None, *,
                        address: Literal["modulo", "first_touch"] = "modulo") -> np.ndarray:
    """Stripe-granular write stream of a :class:`~models.traces.core.BlockTrace`.

    Every write request contributes one write per stripe it touches (reads are dropped).
    Addresses are made unique per device (device-major) and returned unfolded:
    :func:`simulate_wear` with ``fold=True`` reduces them modulo the scheme's capacity.

    Parameters
    ----------
    trace : BlockTrace
    config : WearConfig, optional
        Supplies the stripe size [bytes].
    address : {"modulo", "first_touch"}
        ``modulo``: the stripe number of the disk address (device-major), so the device
        sees the disk layout folded onto it; ``first_touch``: distinct stripes numbered
        0, 1, ... in order of first write, like a cache allocating PCM stripes as data
        arrives.

    Returns
    -------
    numpy.ndarray of int64

    Examples
    --------
    >>> from models.traces.core import BlockTrace
    >>> t = BlockTrace([0, 1, 2], [True, False, True], [0, 0, 65536 - 512], [4096, 512, 1024], [0, 0, 0])
    >>> stripe_write_stream(t).tolist(), stripe_write_stream(t, address="first_touch").tolist()
    ([0, 1, 2], [0, 1, 2])
    """
    from models.traces.blocks import split_blocks

    config = config or WearConfig()
    if address not in ("modulo", "first_touch"):
        raise ValueError(f"address must be 'modulo' or 'first_touch' (got {address!r})")
    w = trace.subset(trace.is_write)
    if len(w) == 0:
        return np.zeros(0, np.int64)
    if config.stripe_bytes & (config.stripe_bytes - 1):
        raise ValueError(f"stripe size {config.stripe_bytes} bytes must be a power of two")
    acc = split_blocks(w, config.stripe_bytes, per_device=True)
    if address == "first_touch":
        return acc.block
    dev = acc.device.astype(np.int64) - int(acc.device.min())
    top = int(acc.lbn.max()) + 1
    return dev * top + acc.lbn


def write_rate_bytes_per_s(trace) -> float:
    """Bytes written per second of trace time [bytes/s] (ValueError if undefined).

    >>> from models.traces.core import BlockTrace
    >>> t = BlockTrace([0, 10**9], [True, True], [0, 0], [4096, 4096], [0, 0])
    >>> write_rate_bytes_per_s(t)
    8192.0
    """
    wr = trace.is_write
    if not wr.any():
        raise ValueError("the trace has no writes: write rate undefined")
    span_ns = int(trace.time_ns.max() - trace.time_ns.min()) if len(trace) > 1 else 0
    if span_ns <= 0:
        raise ValueError("the trace spans no time (all requests at one timestamp): write rate undefined")
    return float(trace.size_bytes[wr].sum()) / (span_ns * 1e-9)


def lifetime_years_for(config: WearConfig, endurance_writes_per_cell: float, write_rate: float,
                       life_rate: float, movement_overhead: float = 0.0) -> float:
    """Device lifetime [years] under a scheme, via :func:`models.endurance.lifetime.lifetime_years`.

    ``capacity x endurance x life_rate / (write_rate x (1 + movement_overhead))``: the
    wear-leveling efficiency is the life rate, and gap moves add their writes.

    >>> round(lifetime_years_for(WearConfig(), 1e7, 100e6, 0.5), 2)
    3.4
    """
    from models.endurance.lifetime import lifetime_years

    return float(lifetime_years(config.capacity_bytes, endurance_writes_per_cell,
                                write_rate * (1.0 + movement_overhead), wear_efficiency=life_rate))


@lru_cache(maxsize=8)
def _bank_share(config: WearConfig, scheme: str) -> np.ndarray:
    tab = slot_table(config, scheme)
    share = np.zeros((tab.shape[0], config.n_banks))
    rows = np.repeat(np.arange(tab.shape[0]), tab.shape[1])
    np.add.at(share, (rows, (tab // config.stripes_per_bank).ravel()), 1.0)
    share /= tab.shape[1]
    share.setflags(write=False)
    return share


def long_run_bank_writes(lsn, scheme: str = "sfc", config: WearConfig | None = None, *,
                         fold: bool = False) -> np.ndarray:
    """Expected bank writes per pass once start-gap has fully rotated (see module doc) [writes].

    Each region's writes in one pass are spread over its ``N + 1`` slots evenly (full
    rotations of a stationary, repeated workload); ``none`` keeps its static counts.

    Returns
    -------
    numpy.ndarray of float, shape (n_banks,)

    Examples
    --------
    A single hot stripe: pinned to one bank by RR, spread over every bank by SFC, over the
    4 banks of its region by SG:

    >>> lsn = np.full(1000, 12345)
    >>> [round(float(w.mean() / w.max()), 4) for w in
    ...  (long_run_bank_writes(lsn, s) for s in ("sg", "rr", "sfc"))]
    [0.0312, 0.0078, 1.0]
    """
    config = config or WearConfig()
    _check_scheme(scheme)
    a = _as_lsn(lsn, config, scheme, fold)
    if scheme == "none":
        return np.bincount(a // config.stripes_per_bank, minlength=config.n_banks).astype(float)
    r, _ = _region_and_la(a, config, scheme)
    region_w = np.bincount(r, minlength=config.regions(scheme)).astype(float)
    return region_w @ _bank_share(config, scheme)


def compare_schemes(stream, schemes=SCHEMES, config: WearConfig | None = None, *,
                    fold: bool = True) -> tuple[pd.DataFrame, dict[str, WearResult]]:
    """Simulate several schemes over one stream and tabulate them (Figure 9 analogue).

    Returns
    -------
    (pandas.DataFrame, dict)
        One row per scheme: ``scheme, writes, avg_bank_writes, max_bank_writes, life_rate,
        improvement_vs_sg`` (one pass; ``improvement_vs_sg`` NaN when SG is not among
        ``schemes``), ``moves, movement_overhead, life_rate_with_movement``, and the
        long-run (full start-gap rotation) ``life_rate_long_run,
        improvement_vs_sg_long_run``; and the one-pass results by scheme.

    Examples
    --------
    Random writes over 1/8 of the device: one pass leaves SG's 16 busy banks hot; RR and SFC
    spread them (up to Poisson noise), and in the long run SFC's moving cubes level fully:

    >>> lsn = np.random.default_rng(0).integers(0, 8192, 200_000)
    >>> df, _ = compare_schemes(lsn, ("sg", "rr", "sfc"))
    >>> df[["scheme", "life_rate", "life_rate_long_run"]].round(2).values.tolist()
    [['sg', 0.12, 0.13], ['rr', 0.95, 0.95], ['sfc', 0.94, 1.0]]
    """
    config = config or WearConfig()
    schemes = [s.strip().lower() for s in schemes]
    if not schemes:
        raise ValueError("schemes: give at least one of " + ", ".join(SCHEMES))
    for s in schemes:
        _check_scheme(s)
    if len(set(schemes)) != len(schemes):
        raise ValueError(f"schemes: duplicate scheme in {schemes}")
    stream = np.asarray(stream)
    if stream.size == 0:
        raise ValueError("the write stream is empty (no writes to level)")
    res = {s: simulate_wear(stream, s, config, fold=fold) for s in schemes}
    sg = res["sg"].life_rate if "sg" in res else float("nan")
    one = results_frame([res[s] for s in schemes])
    one["improvement_vs_sg"] = [res[s].life_rate / sg for s in schemes]
    df = one[["scheme", "writes", "avg_bank_writes", "max_bank_writes", "life_rate", "improvement_vs_sg",
              "moves", "movement_overhead", "life_rate_with_movement"]].copy()
    lr = []
    for s in schemes:
        w = long_run_bank_writes(stream, s, config, fold=fold)
        lr.append(float(w.mean() / w.max()))
    df["life_rate_long_run"] = lr
    sg_lr = lr[schemes.index("sg")] if "sg" in schemes else float("nan")
    df["improvement_vs_sg_long_run"] = df["life_rate_long_run"] / sg_lr
    return df, res


# ----------------------------------------------------------------------------- provenance of the results
def provenance_keys_for(trace, device) -> list[str]:
    """Provenance keys (:mod:`models.provenance`) of the wear-leveling study of ``trace`` with ``device``'s
    endurance (a profile or a catalogue name): the trace's (a synthetic preset's ``trace.*``), every
    ``wear.*`` parameter and the device's endurance.

    >>> provenance_keys_for(None, "pcm-memext")[-1]
    'device:pcm-memext.endurance_writes_per_cell'
    """
    return [*trace_keys(trace)[0], *param_names("wear."), *device_keys(device, ["endurance_writes_per_cell"])]
