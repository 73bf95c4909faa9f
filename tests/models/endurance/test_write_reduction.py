"""Write reduction per evicted page (seed 002 section 5.1, Figures 4-9) on bundled real pages."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from models.endurance.write_reduction import (
    FIGURE8_SCHEMES,
    PAGE_BYTES,
    SCHEMES,
    PagePairs,
    check_ordering,
    lifetime_by_scheme,
    load_page_pairs,
    page_costs,
    synthetic_page_pairs,
    write_reduction_table,
)
from models.provenance import param

PAGE_BITS = PAGE_BYTES * 8


@pytest.fixture(scope="module")
def real():
    return load_page_pairs()


@pytest.fixture(scope="module")
def real_table(real):
    return write_reduction_table(real, by_workload=True)


def _pair(old_words, new_words):
    o = np.asarray(old_words, np.uint32).reshape(1, -1).view(np.uint8)
    n = np.asarray(new_words, np.uint32).reshape(1, -1).view(np.uint8)
    return PagePairs(o, n)


def test_bundled_pages_are_real_snapshots(real):
    assert len(real) >= 1500
    assert real.meta["script"] == "data/pages/snapshot_pages.py"
    assert set(real.workload_names) == {"python-numpy", "python-sqlite"}
    d = real.dirty
    assert 0.05 < d.mean() < 0.95  # both clean and dirty pages present


def _mfwr_lines_reference(words, k):
    """MFWR-kW lines of one page (metadata in struct page), from collections.Counter: the k most
    frequent words leave, the rest are packed in 64-B lines; a page that does not shrink is raw (64)."""
    left = len(words) - sum(c for _, c in Counter(words.tolist()).most_common(k))
    lines = -(-left // 16)
    return 64 if lines >= 64 else lines


@pytest.fixture(scope="module")
def real_costs(real):
    return page_costs(real, seed=1)


def test_per_page_costs_on_real_pages_against_references(real, real_costs):
    """Every scheme on every real page, against what it must be by construction. Whether the MEANS
    follow the paper's Figure 8 ordering is a claim of the validation ledger (002-fig8-ordering)."""
    c, d = real_costs, real.dirty
    assert (c.bits["baseline"] == PAGE_BITS).all()
    assert (c.bits["inclusive"] == np.where(d, PAGE_BITS, 0)).all()
    for s in SCHEMES[1:]:
        assert (c.bits[s][~d] == 0).all() and (c.lines[s][~d] == 0).all(), s  # clean pages: nothing written
        assert (c.bits[s] <= c.bits["inclusive"]).all(), s  # no scheme writes more cells than the raw page
    # DCW+PIN alone: exactly the cells whose value changed, and the 64-B lines holding one (numpy reference)
    diff = np.unpackbits(real.old ^ real.new, axis=1)
    assert (c.bits["inclusive+dcw+pin"] == diff.sum(axis=1)).all()
    assert (c.lines["inclusive+dcw+pin"] == (diff.reshape(len(real), 64, 512).sum(axis=2) > 0).sum(axis=1)).all()
    # DCW programs a subset of the cells of the lines the scheme under it writes
    for top in ("inclusive+mfwr-1w+dcw", "inclusive+mfwr-1w+dcw+pin"):
        assert (c.bits[top] <= c.bits["inclusive+mfwr-1w"]).all(), top
        assert (c.lines[top] <= c.lines["inclusive+mfwr-1w"]).all(), top
    # MFWR: removing more frequent words never needs more lines; the line counts against a Counter reference
    assert (c.lines["inclusive+mfwr-3w"] <= c.lines["inclusive+mfwr-2w"]).all()
    assert (c.lines["inclusive+mfwr-2w"] <= c.lines["inclusive+mfwr-1w"]).all()
    words = real.new.view(np.uint32)
    for i in np.flatnonzero(d)[::10]:
        for k in (1, 2, 3):
            assert c.lines[f"inclusive+mfwr-{k}w"][i] == _mfwr_lines_reference(words[i], k), (i, k)
            assert c.bits[f"inclusive+mfwr-{k}w"][i] == 512 * c.lines[f"inclusive+mfwr-{k}w"][i], (i, k)


@pytest.mark.parametrize("no_pin_old", ["random", "other-page"])
def test_dcw_pin_never_worse_than_no_pin(real, no_pin_old):
    t = write_reduction_table(real, no_pin_old=no_pin_old, seed=4).set_index("scheme").bytes_written_per_page
    assert t["inclusive+dcw+pin"] <= t["inclusive+dcw"]
    assert t["inclusive+mfwr-1w+dcw+pin"] <= t["inclusive+mfwr-1w+dcw"]
    # DCW never writes more than the scheme it compares
    assert t["inclusive+dcw"] <= t["inclusive"]
    assert t["inclusive+mfwr-1w+dcw"] <= t["inclusive+mfwr-1w"]


def test_inclusion_saving_is_the_clean_fraction(real, real_table):
    t = real_table[real_table.workload == "all"].set_index("scheme")
    assert t.loc["inclusive", "saving_vs_baseline"] == pytest.approx(1 - real.dirty.mean(), abs=1e-12)


def test_table_is_the_mean_of_the_page_costs(real, real_table):
    """Each row of the table is the mean over its pages; the "all" row is the page-weighted mean of the
    workloads; inclusion saves exactly each workload's clean fraction. (The per-application ranges and the
    23.9 % / "< 1 %" figures of seed 002 are ledger claims: 002-fig4-*, 002-fig8-inclusion-under-10pct,
    002-sec513-mfwr-23.9-vs-inclusive, 002-fig6-mfwr-2w-3w-under-1pct.)"""
    t = real_table.set_index(["workload", "scheme"])
    n_all = len(real)
    for w in real.workload_names:
        p = real.select(w)
        c = page_costs(p, seed=0)
        for s in SCHEMES:
            assert t.loc[(w, s), "bits_written_per_page"] == pytest.approx(c.bits[s].mean(), rel=1e-12), (w, s)
            assert t.loc[(w, s), "lines_written_per_page"] == pytest.approx(c.lines[s].mean(), rel=1e-12), (w, s)
        assert t.loc[(w, "inclusive"), "saving_vs_baseline"] == pytest.approx(1 - p.dirty.mean(), abs=1e-12), w
    for s in ("baseline", "inclusive", "inclusive+mfwr-1w", "inclusive+mfwr-3w", "inclusive+dcw+pin"):
        weighted = sum(len(real.select(w)) * t.loc[(w, s), "bits_written_per_page"] for w in real.workload_names)
        assert t.loc[("all", s), "bits_written_per_page"] == pytest.approx(weighted / n_all, rel=1e-12), s
    assert (real_table.bytes_written_per_page * 8 == real_table.bits_written_per_page).all()
    np.testing.assert_allclose(real_table.saving_vs_baseline, 1 - real_table.bits_written_per_page / PAGE_BITS,
                               rtol=1e-12)


def test_mfwr_counts_lines():
    # all-zero page except 10 distinct words: MFWR-1W packs 10 words = 40 B -> one 64-B line
    old = np.zeros(1024, np.uint32)
    new = old.copy()
    new[:10] = np.arange(1, 11)
    c = page_costs(_pair(old, new), schemes=("inclusive+mfwr-1w", "inclusive+mfwr-2w"))
    assert c.lines["inclusive+mfwr-1w"][0] == 1
    assert c.bits["inclusive+mfwr-1w"][0] == 64 * 8
    assert c.lines["inclusive+mfwr-2w"][0] == 1  # 9 words left
    # metadata in NVM: + 1 frequent word + 1024-bit bitmap = 4 + 128 B => 40 + 132 = 172 B -> 3 lines
    c = page_costs(_pair(old, new), schemes=("inclusive+mfwr-1w",), metadata_in_nvm=True)
    assert c.lines["inclusive+mfwr-1w"][0] == 3
    # all words distinct: no compression, the raw page is written (64 lines), never more
    new = np.arange(1024, dtype=np.uint32) + 7
    c = page_costs(_pair(old, new), schemes=("inclusive+mfwr-1w",), metadata_in_nvm=True)
    assert c.lines["inclusive+mfwr-1w"][0] == 64


def test_dcw_counts_changed_bits():
    rng = np.random.default_rng(0)
    old = rng.integers(0, 2**32, 1024, dtype=np.uint64).astype(np.uint32)
    new = old.copy()
    new[5] ^= np.uint32(0b1011)  # 3 bits
    new[700] ^= np.uint32(1 << 31)  # 1 bit, another line
    c = page_costs(_pair(old, new), schemes=("inclusive+dcw+pin", "inclusive", "baseline"))
    assert c.bits["inclusive+dcw+pin"][0] == 4
    assert c.lines["inclusive+dcw+pin"][0] == 2
    assert c.bits["inclusive"][0] == PAGE_BITS
    # clean page: nothing written except by the non-inclusive baseline
    c = page_costs(_pair(old, old), schemes=SCHEMES)
    for s in SCHEMES:
        assert c.bits[s][0] == (PAGE_BITS if s == "baseline" else 0), s


def test_dcw_no_pin_random_is_about_half_the_bits(real):
    # the paper's emulation (random old content): ~50 % of the written cells flip (binomial, 1e6+ bits:
    # 0.5 +- 0.002).
    c = page_costs(real, schemes=("inclusive", "inclusive+dcw"), seed=1)
    d = real.dirty
    assert c.bits["inclusive+dcw"][d].sum() / c.bits["inclusive"][d].sum() == pytest.approx(0.5, abs=0.01)


def test_synthetic_generator_seeded():
    a = synthetic_page_pairs(100, seed=5)
    b = synthetic_page_pairs(100, seed=np.random.default_rng(5))
    c = synthetic_page_pairs(100, seed=6)
    assert np.array_equal(a.old, b.old) and np.array_equal(a.new, b.new)
    assert not np.array_equal(a.old, c.old)
    zeros = (a.old.view(np.uint32) == 0).mean()
    assert 0.25 < zeros < 0.55  # zero_fraction 0.4 on average
    t = write_reduction_table(synthetic_page_pairs(400, seed=1), schemes=FIGURE8_SCHEMES)
    assert check_ordering(t) == []


def test_lifetime_by_scheme_scales_inversely_with_bytes_written(real_table):
    from models.endurance.lifetime import SECONDS_PER_YEAR

    # hand example: 16 GB, 1e7 writes per cell, 1e9 B/s for the baseline -> 1.6e8 s; a scheme writing 5 %
    # of the page lives exactly 20x longer, one writing nothing forever
    t = pd.DataFrame({"scheme": ["baseline", "a", "b"], "bytes_written_per_page": [4096.0, 204.8, 0.0]})
    lt = lifetime_by_scheme(t, 1e9, wear_efficiency=1.0).set_index("scheme")
    assert lt.loc["baseline", "lifetime_years"] == pytest.approx(1.6e8 / SECONDS_PER_YEAR, rel=1e-12)
    eff = param("lifetime.wear_efficiency").value  # the default scales every lifetime by the efficiency
    assert lifetime_by_scheme(t, 1e9).set_index("scheme").loc["baseline", "lifetime_years"] == pytest.approx(
        eff * lt.loc["baseline", "lifetime_years"], rel=1e-12)
    assert lt.loc["a", "lifetime_years"] == pytest.approx(20 * lt.loc["baseline", "lifetime_years"], rel=1e-12)
    assert lt.loc["b", "lifetime_years"] == np.inf and lt.loc["b", "write_rate_MBps"] == 0
    assert lt.loc["a", "write_rate_MBps"] == pytest.approx(50.0, rel=1e-12)
    # on the real table: years x bytes per page is the same for every scheme that writes
    r = lifetime_by_scheme(real_table[real_table.workload == "all"], 1e9, capacity_bytes=8e9,
                           endurance_writes_per_cell=1e6, wear_efficiency=1.0)
    prod = r.lifetime_years * r.bytes_written_per_page
    np.testing.assert_allclose(prod, 8e9 * 1e6 / 1e9 / SECONDS_PER_YEAR * 4096, rtol=1e-12)


def test_bad_inputs():
    with pytest.raises(ValueError, match="old"):
        PagePairs(np.zeros((2, 100), np.uint8), np.zeros((2, 100), np.uint8))
    with pytest.raises(ValueError, match="scheme"):
        page_costs(synthetic_page_pairs(2, seed=0), schemes=("nope",))
    with pytest.raises(ValueError, match="no_pin_old"):
        page_costs(synthetic_page_pairs(2, seed=0), no_pin_old="zeros")
    with pytest.raises(KeyError, match="valid names"):
        load_page_pairs("pages/missing.npz")
    with pytest.raises(ValueError, match="dirty_fraction"):
        synthetic_page_pairs(10, dirty_fraction=2.0)


@given(seed=st.integers(0, 2**32 - 1), dirty=st.floats(0, 1), zero=st.floats(0, 0.7), freq=st.floats(0, 0.3),
       changed=st.floats(0, 1), meta=st.booleans(), other=st.booleans())
def test_properties_bits_bounded_savings_in_unit_interval(seed, dirty, zero, freq, changed, meta, other):
    p = synthetic_page_pairs(8, dirty_fraction=dirty, zero_fraction=zero, frequent_fraction=freq,
                             changed_word_fraction=changed, seed=seed)
    c = page_costs(p, metadata_in_nvm=meta, no_pin_old="other-page" if other else "random", seed=seed)
    for s in SCHEMES:
        assert (c.bits[s] >= 0).all() and (c.bits[s] <= PAGE_BITS).all(), s
        assert (c.lines[s] <= 64).all()
        assert (c.bits[s] <= c.lines[s] * 512).all()
    assert (c.bits["inclusive+dcw+pin"] <= c.bits["inclusive"]).all()
    if not meta:  # removing more frequent words never needs more lines
        assert (c.lines["inclusive+mfwr-2w"] <= c.lines["inclusive+mfwr-1w"]).all()
        assert (c.lines["inclusive+mfwr-3w"] <= c.lines["inclusive+mfwr-2w"]).all()
    t = write_reduction_table(p, metadata_in_nvm=meta, seed=seed)
    assert t.saving_vs_baseline.between(0, 1).all()


# ----------------------------------------------------------------------------- hand-computed pages
_A, _B = 0xAAAAAAAA, 0x55555555


def _mfwr_page():
    """1024 words: 224 distinct small values 1..224, 300 zeros, 100 x 0x55555555, 400 x 0xAAAAAAAA.

    The most frequent words are NOT the smallest values (0 and 1..224 sort first), so taking the first
    runs of the sorted page instead of the most frequent ones shows.
    """
    w = np.concatenate([np.arange(1, 225), np.zeros(300), np.full(100, _B), np.full(400, _A)]).astype(np.uint32)
    assert w.size == 1024
    return np.random.default_rng(0).permutation(w)  # positions do not change any count


def test_mfwr_kw_lines_by_hand():
    # MFWR-kW removes the k most frequent words: A (400), then 0 (300), then B (100); the rest is packed
    # in 16-word (64 B) lines:
    #   1W: 1024 - 400 = 624 words -> ceil(624 / 16) = 39 lines
    #   2W: 624 - 300 = 324 words -> ceil(20.25) = 21 lines
    #   3W: 324 - 100 = 224 words -> 14 lines
    # Metadata in NVM: + k frequent words + a bitmap of ceil(log2(k+1)) bits per word (1 bit for k=1,
    # 2 bits for k=2,3 -> 32 or 64 words):
    #   1W: 624 + 1 + 32 = 657 -> 42 lines;  2W: 324 + 2 + 64 = 390 -> 25 lines;  3W: 224 + 3 + 64 = 291 -> 19
    new = _mfwr_page()
    old = np.zeros(1024, np.uint32)  # any other content: the page is dirty
    schemes = ("inclusive+mfwr-1w", "inclusive+mfwr-2w", "inclusive+mfwr-3w")
    for meta, want in ((False, (39, 21, 14)), (True, (42, 25, 19))):
        c = page_costs(_pair(old, new), schemes=schemes, metadata_in_nvm=meta)
        assert tuple(int(c.lines[s][0]) for s in schemes) == want, meta
        assert tuple(int(c.bits[s][0]) for s in schemes) == tuple(x * 512 for x in want)


def test_mfwr_tie_takes_the_smaller_word():
    # 512 zeros and 512 x 0xFFFFFFFF: a tie, broken towards the smaller value (documented), so MFWR-1W
    # removes the zeros and packs 512 all-ones words (32 lines). Over the old page's image (old page all
    # zeros -> its image is empty, zero padded), DCW+PIN programs every bit of them: 512 x 32 = 16384 cells.
    new = np.where(np.arange(1024) % 2 == 0, 0, 0xFFFFFFFF).astype(np.uint32)
    old = np.zeros(1024, np.uint32)
    c = page_costs(_pair(old, new), schemes=("inclusive+mfwr-1w", "inclusive+mfwr-1w+dcw+pin"))
    assert c.lines["inclusive+mfwr-1w"][0] == 32
    assert c.bits["inclusive+mfwr-1w+dcw+pin"][0] == 16384
    assert c.lines["inclusive+mfwr-1w+dcw+pin"][0] == 32


def test_mfwr_dcw_pin_compares_with_the_old_pages_image():
    # old: zeros but words 100, 200, 300 = 0x11, 0x22, 0x33; new: word 200 = 0x23 (1 bit changed).
    # MFWR-1W images: old [0x11, 0x22, 0x33], new [0x11, 0x23, 0x33]: DCW+PIN programs 1 cell in 1 line
    # (comparing with the raw old page instead would cost 2 + 3 + 4 = 9 cells).
    old = np.zeros(1024, np.uint32)
    old[[100, 200, 300]] = [0x11, 0x22, 0x33]
    new = old.copy()
    new[200] = 0x23
    c = page_costs(_pair(old, new), schemes=("inclusive+mfwr-1w+dcw+pin", "inclusive+dcw+pin", "inclusive+mfwr-1w"))
    assert (c.bits["inclusive+mfwr-1w+dcw+pin"][0], c.lines["inclusive+mfwr-1w+dcw+pin"][0]) == (1, 1)
    assert (c.bits["inclusive+dcw+pin"][0], c.lines["inclusive+dcw+pin"][0]) == (1, 1)
    assert c.lines["inclusive+mfwr-1w"][0] == 1


def test_mfwr_image_that_does_not_shrink_is_written_raw():
    # Distinct words v_j = 1000 + j; old has zeros at 0..9, new at 1..10 (word 0 back to 1000, word 10 -> 0).
    # MFWR-1W removes the 10 zeros: 1014 words = ceil(63.4) = 64 lines = no saving -> the raw page is
    # written (64 lines). DCW+PIN then compares raw with raw: word 0 (1000 = 0b1111101000, 6 cells) and
    # word 10 (1010 = 0b1111110010, 7 cells): 13 cells in 1 line. (Packed images would differ only in their
    # first word, 1000 ^ 1010 = 0b11010: 3 cells.)
    v = np.arange(1024, dtype=np.uint32) + 1000
    old, new = v.copy(), v.copy()
    old[:10] = 0
    new[1:11] = 0
    c = page_costs(_pair(old, new), schemes=("inclusive+mfwr-1w", "inclusive+mfwr-1w+dcw+pin"))
    assert c.lines["inclusive+mfwr-1w"][0] == 64
    assert (c.bits["inclusive+mfwr-1w+dcw+pin"][0], c.lines["inclusive+mfwr-1w+dcw+pin"][0]) == (13, 1)


def test_dcw_other_page_uses_another_pages_old_content():
    # Two pages: page 0 all zeros -> word 0 = 1; page 1 all ones -> word 0 = 0xFFFFFFFE (1 cell each with
    # PIN). Without PIN ("other-page") each page lands on the other's old content (the only derangement of
    # 2): 32768 - 1 = 32767 cells each, in all 64 lines.
    old = np.stack([np.zeros(1024, np.uint32), np.full(1024, 0xFFFFFFFF, np.uint32)])
    new = old.copy()
    new[0, 0], new[1, 0] = 1, 0xFFFFFFFE
    p = PagePairs(old.view(np.uint8), new.view(np.uint8))
    for seed in (0, 1):
        c = page_costs(p, schemes=("inclusive+dcw", "inclusive+dcw+pin"), no_pin_old="other-page", seed=seed)
        assert c.bits["inclusive+dcw+pin"].tolist() == [1, 1]
        assert c.bits["inclusive+dcw"].tolist() == [32767, 32767]
        assert c.lines["inclusive+dcw"].tolist() == [64, 64]


@pytest.mark.parametrize("no_pin_old", ["random", "other-page"])
def test_pin_strictly_saves_on_real_pages(real, no_pin_old):
    # On the real sample, writing over another physical page (random bits or another page's stale data)
    # must cost strictly more cells than writing over the page's own previous version. Measured (seeds 0, 4,
    # 9; spread < 1 %): no-PIN / PIN cells = 2.1 (random) and 1.6 (other-page) for DCW, 1.3 and 1.15 for
    # MFWR-1W+DCW; a 10 % margin keeps the test strict without tracking those values.
    c = page_costs(real, schemes=("inclusive+dcw", "inclusive+dcw+pin", "inclusive+mfwr-1w+dcw",
                                  "inclusive+mfwr-1w+dcw+pin"), no_pin_old=no_pin_old, seed=4)
    assert c.bits["inclusive+dcw"].sum() > 1.1 * c.bits["inclusive+dcw+pin"].sum()
    assert c.bits["inclusive+mfwr-1w+dcw"].sum() > 1.1 * c.bits["inclusive+mfwr-1w+dcw+pin"].sum()


def test_page_costs_result_to_frame_matches_the_table():
    from models._base import ModelResult

    p = synthetic_page_pairs(30, seed=2)
    c = page_costs(p, schemes=("baseline", "inclusive+dcw+pin"))
    assert isinstance(c, ModelResult) and c.schemes == ("baseline", "inclusive+dcw+pin")
    df = c.to_frame()
    assert df.columns.tolist() == ["scheme", "page", "bits_written", "bytes_written", "lines_written"]
    assert len(df) == 60 and df.page.tolist() == list(range(30)) * 2
    t = write_reduction_table(p, schemes=c.schemes).set_index("scheme")
    means = df.groupby("scheme").bytes_written.mean()
    for s in c.schemes:
        assert means[s] == pytest.approx(t.bytes_written_per_page[s], rel=1e-12)
