"""One reference list: the five seed papers and the other works the validation ledger cites.

Every entry was checked against the seed texts (``../shared/seeds/000_*.txt`` ... ``004_*.txt``).
Where our copy of a seed lacks a field (seed 000 has no title or author line; seed 001 no
venue), the entry says so in ``note`` instead of inventing it.

>>> REFERENCES["003"].short
'Liu et al. 2012'
>>> cite("004")
'Y. Park, H. Bahn, "Issues in File Caching and Virtual Memory Paging with Fast SCM Storage", Advances in Science, Technology and Engineering Systems Journal (ASTESJ), 2020, doi:10.25046/aj050581'
>>> sorted(SEEDS)
['000', '001', '002', '003', '004']
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Reference", "REFERENCES", "SEEDS", "cite", "seed_label"]


@dataclass(frozen=True)
class Reference:
    """One cited work.

    Attributes
    ----------
    key : str
        ``"000"`` ... ``"004"`` for the seeds, else a short tag.
    authors : str
        Author list as printed in the work ("" when our copy does not give it).
    title : str
    venue : str
        Journal / conference and year ("" when unknown).
    short : str
        Short label for tables ("Park & Bahn 2020").
    doi : str
    note : str
        Provenance of the entry (what our copy of the text does or does not show).
    """

    key: str
    authors: str
    title: str
    venue: str
    short: str
    doi: str = ""
    note: str = ""

    def text(self) -> str:
        """The full citation as one line."""
        parts = [p for p in (self.authors, f'"{self.title}"', self.venue) if p]
        s = ", ".join(parts)
        if self.doi:
            s += f", doi:{self.doi}"
        return s


REFERENCES: dict[str, Reference] = {
    "000": Reference(
        key="000",
        authors="S. Lee, H. Lee, H.-J. Lee, H. Kim",
        title="Evaluation of various workloads in Filebench suitable for phase-change memory",
        venue="IEIE Transactions on Smart Processing and Computing, 2021",
        short="Lee et al. 2021",
        note="Our copy of seed 000 starts at the abstract (no title, authors or venue); the entry is the "
             "publication whose published abstract is word for word the seed's (IEIE, April 2021).",
    ),
    "001": Reference(
        key="001",
        authors="J.-Y. Jung, K. Ireland, J. Ouyang, B. Childers, S. Cho",
        title="Characterizing a Real PCM Storage Device",
        venue="",
        short="Jung et al.",
        note="Title and authors as in our copy of seed 001 (its author line ends with a comma, so it may "
             "be cut short); the venue is not in our copy.",
    ),
    "002": Reference(
        key="002",
        authors="A. Awad, S. Blagodurov, Y. Solihin",
        title="Write-Aware Management of NVM-based Memory Extensions",
        venue="ICS '16 (International Conference on Supercomputing), Istanbul, 2016",
        short="Awad et al. 2016",
        doi="10.1145/2925426.2926284",
    ),
    "003": Reference(
        key="003",
        authors="Z. Liu, B. Wang, P. Carpenter, D. Li, J. S. Vetter, W. Yu",
        title="PCM-Based Durable Write Cache for Fast Disk I/O",
        venue="MASCOTS 2012",
        short="Liu et al. 2012",
        note="Authors and title as in our copy of seed 003 (Auburn University / Oak Ridge National "
             "Laboratory); the copy does not print the venue. Not Sun et al. (its reference [30] is a "
             "different paper, HPCA'10).",
    ),
    "004": Reference(
        key="004",
        authors="Y. Park, H. Bahn",
        title="Issues in File Caching and Virtual Memory Paging with Fast SCM Storage",
        venue="Advances in Science, Technology and Engineering Systems Journal (ASTESJ), 2020",
        short="Park & Bahn 2020",
        doi="10.25046/aj050581",
    ),
    # --- works cited by the seeds that the ledger names
    "sun-hpca10": Reference(
        key="sun-hpca10",
        authors="G. Sun, Y. Joo, Y. Chen, D. Niu, Y. Xie, Y. Chen, H. Li",
        title="A hybrid solid-state storage architecture for the performance, energy consumption, and "
              "lifetime improvement",
        venue="IEEE HPCA 2010",
        short="Sun et al. 2010",
        note="Seed 003's reference [30]; cited here only to tell it apart from seed 003.",
    ),
    "qureshi-micro09": Reference(
        key="qureshi-micro09",
        authors="M. K. Qureshi, J. Karidis, M. Franceschini, V. Srinivasan, L. Lastras, B. Abali",
        title="Enhancing Lifetime and Security of PCM-Based Main Memory with Start-Gap Wear Leveling",
        venue="IEEE/ACM MICRO 2009",
        short="Qureshi et al. 2009",
        note="Seed 002 reference [15], seed 003 reference [25] (start-gap wear leveling).",
    ),
}

#: The five seed papers' keys.
SEEDS: tuple[str, ...] = ("000", "001", "002", "003", "004")


def cite(key: str) -> str:
    """Full citation of ``key`` (``KeyError`` listing the valid keys)."""
    try:
        return REFERENCES[key].text()
    except KeyError:
        raise KeyError(f"unknown reference {key!r}; valid: {', '.join(REFERENCES)}") from None


def seed_label(seed: str) -> str:
    """``"[003] Liu et al. 2012"``: the seed number and its short label.

    >>> seed_label("002")
    '[002] Awad et al. 2016'
    """
    return f"[{seed}] {REFERENCES[seed].short}"
