"""NVM cells written per evicted page under write-reduction schemes (seed 002, section 5.1).

A page evicted from DRAM to an NVM memory extension is written under one of these schemes
(names as used in tables and the CLI):

``baseline``
    Non-inclusive extension: the NVM copy was freed when the page moved to DRAM, so every
    evicted page is written whole (4096 bytes = 32768 cells).
``inclusive``
    The NVM keeps its copy; only dirty pages are written (whole), clean ones cost nothing
    (Figure 3/4).
``inclusive+mfwr-kw`` (k = 1, 2, 3)
    Most Frequent Word Reduction (Figure 5/6): the OS finds the ``k`` most frequent 4-byte
    words of the page, records their positions in a bitmap (``ceil(log2(k+1))`` bits per
    word) and packs the other words; the packed words are written in the fewest 64-byte
    lines that hold them. By default the bitmap and the ``k`` words live in the page's
    metadata (``struct page``) as the paper allows; with ``metadata_in_nvm=True`` they are
    appended to the packed words. A page that does not shrink is written raw.
``inclusive+dcw`` / ``inclusive+dcw+pin``
    Data-Comparison Write (Figure 7): the controller programs only the cells whose value
    changes. With the PIN hint the page goes back to its previous physical page, so the old
    content is the page's previous version; without PIN the wear leveler picks an unrelated
    physical page: old content = random bits (the paper's emulation, ``no_pin_old="random"``)
    or another page of the sample (``no_pin_old="other-page"``, closer to stale real data).
``inclusive+mfwr-1w+dcw`` / ``inclusive+mfwr-1w+dcw+pin``
    MFWR-1W image written with DCW (Figure 8's combination); with PIN the old content is the
    MFWR image of the page's previous version.

Costs are counted in cells (bits) programmed, their byte equivalent (cells / 8, the unit of
the paper's Figure 8: "the baseline writes 4096 bytes for every page write, while the DCW
technique only writes the cells having their values changed") and 64-byte lines touched.
Means are over all evicted pages, clean ones included.

References
----------
.. [1] A. Awad, S. Blagodurov, Y. Solihin, "Write-Aware Management of NVM-based Memory
   Extensions", ICS 2016, doi:10.1145/2925426.2926284 (seed 002), section 5.1, Figs. 3-9.
.. [2] B.-D. Yang et al., "A low power phase-change random access memory using a
   data-comparison write scheme", ISCAS 2007 (DCW).
.. [3] J. Yang, Y. Zhang, R. Gupta, "Frequent Value Compression in Data Caches", MICRO 2000.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from functools import cache

import numpy as np
import pandas as pd
from numba import njit

from models._base import ModelResult, as_generator
from models.nesting import loads_json
from models.provenance import param

__all__ = [
    "PAGE_BYTES",
    "LINE_BYTES",
    "SCHEMES",
    "FIGURE8_SCHEMES",
    "PAPER_SAVINGS",
    "PagePairs",
    "load_page_pairs",
    "synthetic_page_pairs",
    "PageCosts",
    "page_costs",
    "write_reduction_table",
    "lifetime_by_scheme",
    "check_ordering",
    "write_reduction_keys",
    "lifetime_by_scheme_keys",
]

PAGE_BYTES = 4096
#: NVM write granularity [bytes] (registry ``nvm.line_bytes``, seed 002 §5.1.1).
LINE_BYTES = param("nvm.line_bytes").value
_WORDS = PAGE_BYTES // 4
_LINE_WORDS = LINE_BYTES // 4

SCHEMES = (
    "baseline",
    "inclusive",
    "inclusive+mfwr-1w",
    "inclusive+mfwr-2w",
    "inclusive+mfwr-3w",
    "inclusive+dcw",
    "inclusive+dcw+pin",
    "inclusive+mfwr-1w+dcw",
    "inclusive+mfwr-1w+dcw+pin",
)

#: The chain of Figure 8, most to fewest writes in the paper.
FIGURE8_SCHEMES = ("baseline", "inclusive", "inclusive+mfwr-1w", "inclusive+mfwr-1w+dcw",
                   "inclusive+mfwr-1w+dcw+pin")

#: Average savings vs the non-inclusive baseline published in seed 002 (section 5.1):
#: inclusion 49.5 % (Fig. 4), +MFWR-1W 61.5 % (Fig. 6), DCW without / with PIN 83.8 % / 95 %
#: (Fig. 7). The text does not say on top of which schemes Fig. 7's DCW runs; we compare with
#: our MFWR-1W+DCW rows (Figure 8's combination).
PAPER_SAVINGS = {
    "inclusive": 0.495,
    "inclusive+mfwr-1w": 0.615,
    "inclusive+mfwr-1w+dcw": 0.838,
    "inclusive+mfwr-1w+dcw+pin": 0.95,
}


def _as_bytes(a, name: str) -> np.ndarray:
    """``a`` as a contiguous uint8 array; ValueError naming ``name`` unless it holds bytes.

    Integer arrays are accepted when every value is in 0..255; floats (NaN), booleans,
    strings and out-of-range integers are rejected rather than silently cast.

    >>> _as_bytes([[1, 255]], "old").dtype
    dtype('uint8')
    >>> _as_bytes(np.zeros((1, 2)), "old")
    Traceback (most recent call last):
    ...
    ValueError: old: expected uint8 bytes, got float64
    """
    arr = np.asarray(a)
    if arr.dtype == np.uint8:
        return np.ascontiguousarray(arr)
    if arr.dtype.kind not in "iu":
        raise ValueError(f"{name}: expected uint8 bytes, got {arr.dtype}")
    if arr.size and (int(arr.min()) < 0 or int(arr.max()) > 255):
        raise ValueError(f"{name}: expected uint8 bytes, got {arr.dtype} values outside 0..255 "
                         f"(min {int(arr.min())}, max {int(arr.max())})")
    return np.ascontiguousarray(arr, dtype=np.uint8)


class PagePairs:
    """Evicted pages: the version the NVM holds (``old``) and the one evicted (``new``).

    Attributes
    ----------
    old, new : numpy.ndarray
        uint8 arrays, ``n x 4096`` [bytes].
    workload : numpy.ndarray
        int index into ``workload_names`` per page.
    workload_names : tuple of str
    meta : dict
    """

    def __init__(self, old, new, workload=None, workload_names=("pages",), meta=None):
        old = _as_bytes(old, "old")
        new = _as_bytes(new, "new")
        if old.ndim != 2 or old.shape[1] != PAGE_BYTES:
            raise ValueError(f"old: expected shape (n, {PAGE_BYTES}) uint8, got {old.shape}")
        if new.shape != old.shape:
            raise ValueError(f"new: shape {new.shape} differs from old {old.shape}")
        if old.shape[0] == 0:
            raise ValueError("old/new: no pages")
        if workload is None:
            workload = np.zeros(old.shape[0], dtype=np.int8)
        workload = np.asarray(workload)
        if workload.shape != (old.shape[0],) or workload.min() < 0 or workload.max() >= len(workload_names):
            raise ValueError("workload: one index into workload_names per page")
        self.old, self.new, self.workload = old, new, workload
        self.workload_names = tuple(str(w) for w in workload_names)
        self.meta = dict(meta or {})

    def __len__(self) -> int:
        return self.old.shape[0]

    @property
    def dirty(self) -> np.ndarray:
        """True where the two versions differ (the page needs a write-back under inclusion)."""
        return np.any(self.old != self.new, axis=1)

    def select(self, workload: str) -> PagePairs:
        """The pages of one workload."""
        if workload not in self.workload_names:
            raise KeyError(f"unknown workload {workload!r}; valid: {', '.join(self.workload_names)}")
        m = self.workload == self.workload_names.index(workload)
        return PagePairs(self.old[m], self.new[m], np.zeros(int(m.sum()), np.int8), (workload,), self.meta)


@cache
def _load_npz(path: str):
    with np.load(path, allow_pickle=False) as d:
        return {k: d[k] for k in d.files}


def load_page_pairs(name: str = "pages/page_pairs.npz") -> PagePairs:
    """Load bundled (or any ``.npz`` in the snapshot format) page version pairs.

    ``name`` is a bundled data name (see ``models.data``) or a file path. The file holds
    ``old``/``new`` (uint8, n x 4096) and optionally ``workload``, ``workload_names``, ``meta``.

    >>> p = load_page_pairs()
    >>> len(p) >= 1000, p.workload_names
    (True, ('python-numpy', 'python-sqlite'))
    """
    from pathlib import Path

    from models.data import data_path

    p = Path(name)
    path = p if p.suffix == ".npz" and p.is_file() else data_path(name)
    try:
        d = _load_npz(str(path))
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as e:
        raise ValueError(f"pages: cannot read {name!r} as a page-pair .npz ({e})") from None
    for k in ("old", "new"):
        if k not in d:
            raise ValueError(f"pages: {name!r} has no array {k!r} (need old and new, n x {PAGE_BYTES} uint8)")
    names = tuple(d["workload_names"].tolist()) if "workload_names" in d else ("pages",)
    meta = loads_json(str(d["meta"]), what=f"pages: {name!r}: 'meta'") if "meta" in d else {}
    return PagePairs(d["old"], d["new"], d.get("workload"), names, meta)


def synthetic_page_pairs(n_pages: int = 1000, *, dirty_fraction: float = 0.5,
                         zero_fraction: float = 0.4, frequent_values: int = 16,
                         frequent_fraction: float = 0.3, changed_word_fraction: float = 0.1,
                         seed=0) -> PagePairs:
    """Synthetic page pairs with a frequent-value word distribution.

    Each 4-byte word of a page is 0 with probability ``zero_fraction``, one of
    ``frequent_values`` page-independent values (Zipf-like weights 1/r) with probability
    ``frequent_fraction``, and uniformly random otherwise. Each page's zero probability is
    itself drawn around ``zero_fraction`` (Beta, mean ``zero_fraction``) so pages differ. A
    fraction ``dirty_fraction`` of the pages is modified: a contiguous run of about
    ``changed_word_fraction`` of its words is redrawn from the same distribution.

    Parameters
    ----------
    n_pages : int
        Number of page pairs.
    dirty_fraction, zero_fraction, frequent_fraction, changed_word_fraction : float, keyword-only
        Probabilities in [0, 1] [-].
    frequent_values : int, keyword-only
        Size of the frequent-value dictionary [-].
    seed : int or numpy.random.Generator, keyword-only

    Returns
    -------
    PagePairs

    >>> p = synthetic_page_pairs(200, dirty_fraction=0.5, seed=1)
    >>> bool(0.35 < p.dirty.mean() < 0.65)
    True
    """
    if not (isinstance(n_pages, (int, np.integer)) and 1 <= n_pages <= 200_000):
        raise ValueError(f"n_pages must be an integer in 1..200000 (got {n_pages!r})")
    for nm, v in (("dirty_fraction", dirty_fraction), ("zero_fraction", zero_fraction),
                  ("frequent_fraction", frequent_fraction), ("changed_word_fraction", changed_word_fraction)):
        if not (np.isfinite(v) and 0 <= v <= 1):
            raise ValueError(f"{nm} must be in [0, 1] (got {v!r})")
    if zero_fraction + frequent_fraction > 1:
        raise ValueError("zero_fraction + frequent_fraction must be <= 1")
    if not (isinstance(frequent_values, (int, np.integer)) and 1 <= frequent_values <= 4096):
        raise ValueError(f"frequent_values must be an integer in 1..4096 (got {frequent_values!r})")
    rng = as_generator(seed)
    fv = rng.integers(1, 2**32, size=frequent_values, dtype=np.uint64).astype(np.uint32)
    w = 1.0 / np.arange(1, frequent_values + 1)
    w /= w.sum()
    if 0 < zero_fraction < 1:
        conc = 4.0
        pz = rng.beta(zero_fraction * conc, (1 - zero_fraction) * conc, size=(n_pages, 1))
    else:
        pz = np.full((n_pages, 1), zero_fraction)
    pf = np.minimum(frequent_fraction, 1 - pz)

    def draw(shape_rows, pzr, pfr):
        u = rng.random((shape_rows, _WORDS))
        words = rng.integers(0, 2**32, size=(shape_rows, _WORDS), dtype=np.uint64).astype(np.uint32)
        freq = fv[rng.choice(frequent_values, size=(shape_rows, _WORDS), p=w)]
        words = np.where(u < pzr + pfr, freq, words)
        return np.where(u < pzr, np.uint32(0), words)

    old = draw(n_pages, pz, pf)
    new = old.copy()
    dirty = rng.random(n_pages) < dirty_fraction
    idx = np.nonzero(dirty)[0]
    if idx.size:
        run = max(1, int(round(changed_word_fraction * _WORDS)))
        start = rng.integers(0, _WORDS - run + 1, size=idx.size)
        fresh = draw(idx.size, pz[idx], pf[idx])
        cols = start[:, None] + np.arange(run)[None, :]
        rows = np.repeat(idx[:, None], run, axis=1)
        new[rows, cols] = fresh[np.arange(idx.size)[:, None], cols]
    return PagePairs(old.view(np.uint8).reshape(n_pages, PAGE_BYTES),
                     new.view(np.uint8).reshape(n_pages, PAGE_BYTES), meta={"synthetic": True})


# ---------------------------------------------------------------- kernels ------------------------

@njit(cache=True, inline="always")
def _popcount32(x):
    x = x - ((x >> np.uint32(1)) & np.uint32(0x55555555))
    x = (x & np.uint32(0x33333333)) + ((x >> np.uint32(2)) & np.uint32(0x33333333))
    x = (x + (x >> np.uint32(4))) & np.uint32(0x0F0F0F0F)
    return np.int64(((x * np.uint32(0x01010101)) >> np.uint32(24)) & np.uint32(0xFF))


@njit(cache=True)
def _dcw_cost(new_img, new_len, old_img):
    """Cells and 64-B lines programmed writing ``new_img[:, :new_len]`` over ``old_img`` by DCW."""
    n = new_img.shape[0]
    bits = np.zeros(n, np.int64)
    lines = np.zeros(n, np.int64)
    for i in range(n):
        L = new_len[i]
        nlines = (L + _LINE_WORDS - 1) // _LINE_WORDS
        for li in range(nlines):
            lb = 0
            for j in range(li * _LINE_WORDS, min(L, (li + 1) * _LINE_WORDS)):
                lb += _popcount32(new_img[i, j] ^ old_img[i, j])
            bits[i] += lb
            if lb > 0:
                lines[i] += 1
    return bits, lines


@njit(cache=True)
def _mfwr_images(words, k, meta_in_nvm, width):
    """MFWR image of each page (uint32 words, zero padded to ``width``) and its length [words].

    The ``k`` most frequent words (ties: smaller value first) are removed; the other words
    are packed in page order; with ``meta_in_nvm`` the k words and the position bitmap
    (``ceil(log2(k+1))`` bits per word) follow. A page whose image needs as many 64-B lines
    as the raw page is stored raw.
    """
    n = words.shape[0]
    img = np.zeros((n, width), np.uint32)
    length = np.zeros(n, np.int64)
    nfreq = np.zeros(n, np.int64)
    bpw = 1 if k == 1 else 2
    meta_words = (k + (_WORDS * bpw + 31) // 32) if meta_in_nvm else 0
    top = np.zeros(k, np.uint32)
    for i in range(n):
        s = np.sort(words[i])
        # top-k runs of the sorted words
        tc = np.zeros(k, np.int64)
        ntop = 0
        j = 0
        while j < _WORDS:
            r = j
            while r < _WORDS and s[r] == s[j]:
                r += 1
            c = r - j
            # insert (c, value) into the top list, keeping counts descending (stable on value)
            pos = ntop if ntop < k else k
            while pos > 0 and tc[pos - 1] < c:
                pos -= 1
            if pos < k:
                last = ntop if ntop < k else k - 1
                for q in range(last, pos, -1):
                    tc[q] = tc[q - 1]
                    top[q] = top[q - 1]
                tc[pos] = c
                top[pos] = s[j]
                if ntop < k:
                    ntop += 1
            j = r
        m = 0
        code = np.zeros(_WORDS, np.int64)
        for j in range(_WORDS):
            w = words[i, j]
            hit = 0
            for q in range(ntop):
                if w == top[q]:
                    hit = q + 1
                    break
            code[j] = hit
            if hit == 0:
                img[i, m] = w
                m += 1
        nfreq[i] = _WORDS - m
        total = m + meta_words
        if meta_in_nvm:
            for q in range(k):
                img[i, m + q] = top[q] if q < ntop else np.uint32(0)
            base = m + k
            for j in range(_WORDS):
                bit = j * bpw
                img[i, base + bit // 32] |= np.uint32(code[j]) << np.uint32(bit % 32)
        if (total + _LINE_WORDS - 1) // _LINE_WORDS >= _WORDS // _LINE_WORDS:
            for j in range(width):
                img[i, j] = words[i, j] if j < _WORDS else np.uint32(0)
            total = _WORDS
        length[i] = total
    return img, length, nfreq


def _words(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a).view(np.uint32).reshape(a.shape[0], _WORDS)


@dataclass(frozen=True)
class PageCosts(ModelResult):
    """Per-page cost of writing every evicted page under each scheme (from :func:`page_costs`).

    Attributes
    ----------
    schemes : tuple of str
        Scheme names, in the order asked for.
    bits : dict of str to int64 array
        Scheme -> cells programmed per page [bits] (length ``n`` pages).
    lines : dict of str to int64 array
        Scheme -> 64-byte lines written per page [lines].
    """

    schemes: tuple[str, ...]
    bits: dict[str, np.ndarray]
    lines: dict[str, np.ndarray]

    def to_frame(self) -> pd.DataFrame:
        """One row per (scheme, page), schemes in order: ``scheme, page, bits_written,
        bytes_written, lines_written`` (bytes = cells / 8).

        >>> page_costs(synthetic_page_pairs(2, seed=0), schemes=("baseline",)).to_frame().columns.tolist()
        ['scheme', 'page', 'bits_written', 'bytes_written', 'lines_written']
        """
        frames = [pd.DataFrame({"scheme": s, "page": np.arange(len(self.bits[s])), "bits_written": self.bits[s],
                                "bytes_written": self.bits[s] / 8.0, "lines_written": self.lines[s]})
                  for s in self.schemes]
        return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(
            columns=["scheme", "page", "bits_written", "bytes_written", "lines_written"])


def page_costs(pages: PagePairs, *, schemes=SCHEMES, no_pin_old: str = "random",
               metadata_in_nvm: bool = False, seed=0) -> PageCosts:
    """Per-page cost of writing each evicted page under each scheme.

    Parameters
    ----------
    pages : PagePairs
        Evicted pages: NVM-resident version (``old``) and evicted version (``new``).
    schemes : iterable of str, keyword-only
        Names from :data:`SCHEMES`.
    no_pin_old : {"random", "other-page"}, keyword-only
        Old content of the physical page chosen by wear leveling (DCW without PIN).
    metadata_in_nvm : bool, keyword-only
        Write MFWR's bitmap and frequent words to NVM with the packed words.
    seed : int or numpy.random.Generator, keyword-only
        Randomness for the no-PIN old content.

    Returns
    -------
    PageCosts
        Cells (``bits``) and 64-B lines (``lines``) written per page, by scheme.

    >>> p = synthetic_page_pairs(50, seed=3)
    >>> c = page_costs(p, schemes=("baseline", "inclusive+dcw+pin"))
    >>> int(c.bits["baseline"][0]), bool((c.bits["inclusive+dcw+pin"] <= 32768).all())
    (32768, True)
    """
    schemes = tuple(schemes)
    for s in schemes:
        if s not in SCHEMES:
            raise ValueError(f"scheme: unknown {s!r}; valid: {', '.join(SCHEMES)}")
    if no_pin_old not in ("random", "other-page"):
        raise ValueError(f"no_pin_old must be 'random' or 'other-page' (got {no_pin_old!r})")
    rng = as_generator(seed)
    n = len(pages)
    old, new = _words(pages.old), _words(pages.new)
    dirty = pages.dirty
    width = _WORDS + 3 + (_WORDS * 2 + 31) // 32
    if n > 1:  # another page of the sample: a random derangement
        perm = (np.arange(n) + rng.integers(1, n, size=n)) % n
    else:
        perm = np.zeros(1, np.int64)
    rand_img = None

    def no_pin_img(old_img):
        nonlocal rand_img
        if no_pin_old == "other-page" and n > 1:
            return old_img[perm]
        if rand_img is None:
            rand_img = rng.integers(0, 2**32, size=(n, width), dtype=np.uint64).astype(np.uint32)
        return rand_img

    def pad(a):
        out = np.zeros((n, width), np.uint32)
        out[:, : a.shape[1]] = a
        return out

    page_lines = PAGE_BYTES // LINE_BYTES
    full_bits = np.full(n, PAGE_BYTES * 8, np.int64)
    full_lines = np.full(n, page_lines, np.int64)
    mf = {}

    def mfwr(k):
        if k not in mf:
            mf[k] = (_mfwr_images(new, k, metadata_in_nvm, width), _mfwr_images(old, k, metadata_in_nvm, width))
        return mf[k]

    out_bits: dict[str, np.ndarray] = {}
    out_lines: dict[str, np.ndarray] = {}
    for s in schemes:
        if s == "baseline":
            bits, lines = full_bits.copy(), full_lines.copy()
        elif s == "inclusive":
            bits, lines = full_bits.copy(), full_lines.copy()
        elif s.startswith("inclusive+mfwr-") and "dcw" not in s:
            (img, length, _), _o = mfwr(int(s[len("inclusive+mfwr-")]))
            lines = (length + _LINE_WORDS - 1) // _LINE_WORDS
            bits = lines * LINE_BYTES * 8
        elif s in ("inclusive+dcw", "inclusive+dcw+pin"):
            new_img = pad(new)
            old_img = pad(old) if s.endswith("+pin") else no_pin_img(pad(old))
            bits, lines = _dcw_cost(new_img, np.full(n, _WORDS, np.int64), old_img)
        else:  # inclusive+mfwr-1w+dcw[+pin]
            (img, length, _), (oimg, _olen, _) = mfwr(1)
            ref = oimg if s.endswith("+pin") else no_pin_img(oimg)
            bits, lines = _dcw_cost(img, length, ref)
        if s != "baseline":
            bits = np.where(dirty, bits, 0)
            lines = np.where(dirty, lines, 0)
        out_bits[s] = np.asarray(bits, np.int64)
        out_lines[s] = np.asarray(lines, np.int64)
    return PageCosts(tuple(out_bits), out_bits, out_lines)


def write_reduction_table(pages: PagePairs, *, schemes=SCHEMES, no_pin_old: str = "random",
                          metadata_in_nvm: bool = False, seed=0, by_workload: bool = False) -> pd.DataFrame:
    """Mean cells / bytes / lines written per evicted page and saving vs the baseline.

    Returns
    -------
    pandas.DataFrame
        Columns ``[workload,] scheme, bits_written_per_page, bytes_written_per_page,
        lines_written_per_page, saving_vs_baseline, paper_saving`` (the last is NaN where the
        paper gives no average). ``bytes_written_per_page`` = cells / 8 [bytes];
        ``saving_vs_baseline`` = 1 - bytes / baseline bytes [-].

    >>> t = write_reduction_table(synthetic_page_pairs(300, seed=2), schemes=FIGURE8_SCHEMES)
    >>> t.bytes_written_per_page.is_monotonic_decreasing
    True
    """
    schemes = tuple(schemes)
    groups = [("all", pages)]
    if by_workload:
        groups += [(w, pages.select(w)) for w in pages.workload_names]
    rows = []
    for gname, p in groups:
        c = page_costs(p, schemes=schemes, no_pin_old=no_pin_old, metadata_in_nvm=metadata_in_nvm, seed=seed)
        base_bits = PAGE_BYTES * 8.0
        for s in schemes:
            b = float(c.bits[s].mean())
            rows.append({
                "workload": gname,
                "scheme": s,
                "bits_written_per_page": b,
                "bytes_written_per_page": b / 8.0,
                "lines_written_per_page": float(c.lines[s].mean()),
                "saving_vs_baseline": 1.0 - b / base_bits,
                "paper_saving": PAPER_SAVINGS.get(s, np.nan),
            })
    df = pd.DataFrame(rows)
    return df if by_workload else df.drop(columns="workload")


def lifetime_by_scheme(table: pd.DataFrame, baseline_write_rate_bytes_per_s: float, *,
                       capacity_bytes: float = param("memext.nvm_capacity_bytes").value,
                       endurance_writes_per_cell: float | None = None,
                       wear_efficiency: float = param("lifetime.wear_efficiency").value) -> pd.DataFrame:
    """Figure 9 analogue: lifetime [years] when each scheme scales the baseline write rate.

    ``rate = baseline_rate x bytes_written_per_page / 4096``; lifetime from
    :func:`models.endurance.lifetime.lifetime_years` (infinite when nothing is written).
    Defaults: seed 002's 16 GB extension (registry ``memext.nvm_capacity_bytes``), the
    catalogue ``pcm-memext`` endurance (1e7) and the registry's wear-leveling efficiency
    (``lifetime.wear_efficiency``: our wear model's SFC life rate on seed 003's stand-ins, simulated;
    1.0 = the ideal leveling seed 002 assumes).

    >>> t = pd.DataFrame({"scheme": ["baseline", "x"], "bytes_written_per_page": [4096.0, 204.8]})
    >>> lifetime_by_scheme(t, 1.0144e9, wear_efficiency=1.0).lifetime_years.round(1).tolist()
    [5.0, 100.0]
    """
    from models.devices import get_device
    from models.endurance.lifetime import lifetime_years

    if endurance_writes_per_cell is None:
        endurance_writes_per_cell = get_device("pcm-memext").endurance_writes_per_cell
    out = table.copy()
    frac = out["bytes_written_per_page"].to_numpy(float) / PAGE_BYTES
    rate = baseline_write_rate_bytes_per_s * frac
    years = np.full(len(out), np.inf)
    pos = rate > 0
    if pos.any():
        years[pos] = lifetime_years(capacity_bytes, endurance_writes_per_cell, rate[pos],
                                    wear_efficiency=wear_efficiency)
    out["write_rate_MBps"] = rate / 1e6
    out["lifetime_years"] = years
    return out


def check_ordering(table: pd.DataFrame, chain=FIGURE8_SCHEMES) -> list[str]:
    """Violations of the paper's ordering (each scheme writes less than the previous one).

    >>> check_ordering(pd.DataFrame({"scheme": ["a", "b"], "bytes_written_per_page": [2.0, 3.0]}), ("a", "b"))
    ['b (3) >= a (2)']
    """
    v = dict(zip(table["scheme"], table["bytes_written_per_page"], strict=False))
    bad = []
    for a, b in zip(chain[:-1], chain[1:], strict=True):
        if v[b] >= v[a]:
            bad.append(f"{b} ({v[b]:g}) >= {a} ({v[a]:g})")
    return bad


# ----------------------------------------------------------------------------- provenance of the results
def write_reduction_keys() -> list[str]:
    """Provenance keys (:mod:`models.provenance`) of :func:`write_reduction_table`: the line size."""
    return ["nvm.line_bytes"]


def lifetime_by_scheme_keys(endurance_writes_per_cell: float) -> list[str]:
    """Provenance keys of :func:`lifetime_by_scheme` at the default capacity and
    ``endurance_writes_per_cell`` (the catalogue PCM's endurance key when it is that value).

    >>> lifetime_by_scheme_keys(1e7)[-1], len(lifetime_by_scheme_keys(2e7))
    ('device:pcm-memext.endurance_writes_per_cell', 4)
    """
    from models.devices import get_device
    from models.provenance import device_keys

    keys = ["memext.base_ns_per_ref", "memext.nvm_capacity_bytes", "lifetime.wear_efficiency", "nvm.line_bytes"]
    if endurance_writes_per_cell == get_device("pcm-memext").endurance_writes_per_cell:
        keys += device_keys("pcm-memext", ["endurance_writes_per_cell"])
    return keys
