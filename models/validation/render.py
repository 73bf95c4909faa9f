"""Ledger output: the table (CSV / JSON), ``docs/VALIDATION.md``, the README summary.

Rendering is deterministic: numbers are printed with 4 significant digits by
:func:`fmt_number` (no run times, dates or machine names), so a regenerated document is
byte-identical unless a claim's value or status changed. That is what the freshness test
compares.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from models.references import REFERENCES, SEEDS, seed_label
from models.validation.core import Claim, ClaimResult
from models.validation.numbers import fmt_number
from models.validation.rules import STATUSES

__all__ = [
    "COLUMNS",
    "EXTRA_COLUMNS",
    "REGENERATE",
    "README_BEGIN",
    "README_END",
    "fmt_number",
    "paper_display",
    "our_display",
    "ledger_frame",
    "status_counts",
    "render_markdown",
    "render_readme_block",
    "replace_readme_block",
    "repo_root",
    "doc_path",
    "table_path",
    "readme_path",
    "table_csv",
    "write_outputs",
]

#: Output columns of ``pcm-planner validate`` (the issue's contract), in order.
COLUMNS: tuple[str, ...] = ("claim_id", "seed", "where", "statement", "paper_value", "our_value", "unit",
                            "status", "circular", "reason", "data")
#: Extra columns of the precomputed table the app reads (``ledger.csv``).
EXTRA_COLUMNS: tuple[str, ...] = ("rule", "justification", "paper_number", "paper_low", "paper_high",
                                  "our_number", "page")
#: The command that regenerates the committed outputs.
REGENERATE = "make validate"
README_BEGIN = "<!-- validation:begin -->"
README_END = "<!-- validation:end -->"


def paper_display(claim: Claim) -> str:
    """The paper's value as shown in tables (``paper_text`` wins)."""
    if claim.paper_text:
        return claim.paper_text
    p = claim.paper
    if p is None:
        return "–"
    if isinstance(p, str):
        return p
    if isinstance(p, tuple):
        return f"{fmt_number(p[0])}–{fmt_number(p[1])}"
    return fmt_number(p)


def our_display(result: ClaimResult) -> str:
    """Our value as shown in tables, with the cases of a direction claim."""
    o = result.outcome
    if o.missing:
        return "not modelled"
    if o.value is None:
        return "–"
    s = fmt_number(o.value)
    if o.cases:
        s += f" ({o.cases})"
    return s


def _paper_numbers(claim: Claim) -> tuple[float, float, float]:
    p = claim.paper
    if isinstance(p, tuple):
        lo, hi = float(p[0]), float(p[1])
        return (lo + hi) / 2, lo, hi
    if isinstance(p, (int, float)):
        return float(p), float(p), float(p)
    return math.nan, math.nan, math.nan


def _numeric(x: float) -> float:
    """A float rounded the way tables print it (4 significant digits), for the app's chart."""
    s = fmt_number(x)
    return math.nan if s == "–" else float(s)


def ledger_frame(results: Sequence[ClaimResult], *, extras: bool = False) -> pd.DataFrame:
    """The ledger as a table: :data:`COLUMNS` (plus :data:`EXTRA_COLUMNS` with ``extras``)."""
    rows = []
    for r in results:
        c = r.claim
        row = {
            "claim_id": c.claim_id,
            "seed": c.seed,
            "where": c.where,
            "statement": c.statement,
            "paper_value": paper_display(c),
            "our_value": our_display(r),
            "unit": c.unit,
            "status": r.status,
            "circular": c.is_circular,
            "reason": r.reason,
            "data": c.data,
        }
        if extras:
            mid, lo, hi = _paper_numbers(c)
            numeric_claim = isinstance(c.paper, (int, float, tuple)) and r.outcome.value is not None
            row.update({
                "rule": c.rule.text(c.paper),
                "justification": c.rule.why,
                "paper_number": _numeric(mid) if numeric_claim else math.nan,
                "paper_low": _numeric(lo) if numeric_claim else math.nan,
                "paper_high": _numeric(hi) if numeric_claim else math.nan,
                "our_number": _numeric(r.outcome.value) if numeric_claim else math.nan,
                "page": c.page,
            })
        rows.append(row)
    cols = list(COLUMNS) + (list(EXTRA_COLUMNS) if extras else [])
    return pd.DataFrame(rows, columns=cols)


def status_counts(frame: pd.DataFrame) -> pd.DataFrame:
    """Claims per seed (rows, plus ``all``) and status (columns, plus ``total``)."""
    seeds = [s for s in SEEDS if s in set(frame["seed"])]
    statuses = [s for s in STATUSES if s != "error" or (frame["status"] == "error").any()]
    tab = pd.crosstab(frame["seed"], frame["status"]).reindex(index=seeds, columns=statuses, fill_value=0)
    tab.loc["all"] = tab.sum(axis=0)
    tab["total"] = tab.sum(axis=1)
    return tab.astype(int)


def _cell(x) -> str:
    s = "yes" if x is True else ("" if x is False else str(x))
    return s.replace("|", "\\|").replace("\n", " ").strip()


def _md_table(header: Sequence[str], rows: Sequence[Sequence]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(_cell(v) for v in row) + " |" for row in rows]
    return out


def _counts_table(tab: pd.DataFrame, *, labels: bool = True) -> list[str]:
    header = ["seed", *tab.columns]
    rows = []
    for seed, row in tab.iterrows():
        name = seed_label(seed) if labels and seed in REFERENCES else str(seed)
        rows.append([name, *[int(v) for v in row]])
    return _md_table(header, rows)


def render_markdown(results: Sequence[ClaimResult]) -> str:
    """``docs/VALIDATION.md``: how to read it, counts per seed and status, one table per seed."""
    full = ledger_frame(results, extras=True)
    lines = [
        "# Validation against the papers",
        "",
        f"Generated by `{REGENERATE}` (`pcm-planner validate --write`) from the claims registry in "
        "`models/validation/`: do not edit by hand. Every row is one quantitative or directional claim "
        "of a seed paper. *paper* is the paper's value as printed; *ours* is computed by running the "
        "models on the bundled data named in *data* (a synthetic stand-in for a paper trace says so; a "
        "*catalogue check* is arithmetic on the data/devices.csv entries named there with their provenance "
        "kinds, and is at most partly when one of them is assumed); "
        "*status* follows from the rule listed under each table, whose tolerance is justified there.",
        "",
        "Statuses: **reproduced** (within tolerance, and a number within 25 % of the paper's whatever the "
        "tolerance; or the direction holds in every case asked for); "
        "**partly** (within twice the tolerance on the paper's side, within tol^1.5 for a factor "
        "tolerance, and a number or bound within a factor 2 of the paper's; or the direction holds in at "
        "least half the share of cases asked for and in more cases than the opposite); **not reproduced** "
        "(also: a mean that agrees only because its items' errors cancel, and a value computed on a "
        "degenerate sample); **contradicted** (ours shows the opposite effect: "
        "the other side of the rule's reference value, or the opposite direction in at least half of "
        "the cases); **not "
        "reproducible here** (we do not have the data); **not modelled** (the model lacks the term the claim "
        "is about: no value of ours, never 0); **circular** (an input was derived from this same "
        "result, so agreement is built in: never counted as reproduced; a circular claim that still "
        "disagrees keeps its status and is marked in the *circular* column); **check only** (an agreement "
        "that checks input files, catalogue arithmetic or a structural identity of the model, not a model "
        "result: kept, never counted as reproduced).",
        "",
        "## Counts",
        "",
        *_counts_table(status_counts(full)),
        "",
    ]
    for seed in SEEDS:
        part = full[full["seed"] == seed]
        if part.empty:
            continue
        ref = REFERENCES[seed]
        lines += [f"## [{seed}] {ref.short}: {ref.title}", "", ref.text() + ".", ""]
        rows = part[["claim_id", "where", "statement", "paper_value", "our_value", "unit", "status",
                     "circular", "reason", "data"]].values.tolist()
        lines += _md_table(["claim", "where", "statement", "paper", "ours", "unit", "status", "circular",
                            "reason", "data"], rows)
        lines += ["", "Rules:", ""]
        for cid, rule, why in part[["claim_id", "rule", "justification"]].values.tolist():
            lines.append(f"- `{cid}`: {_cell(rule).rstrip('.')}. Why: {_cell(why).rstrip('.')}.")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def render_readme_block(results: Sequence[ClaimResult]) -> str:
    """The README's generated summary (between :data:`README_BEGIN` and :data:`README_END`)."""
    full = ledger_frame(results)
    tab = status_counts(full)
    n = len(full)
    lines = [
        README_BEGIN,
        f"{n} claims of the five papers are checked by running the models on bundled data; each has a "
        "computed status. Checks of input files, catalogue arithmetic (data/devices.csv) and structural "
        "identities that agree count as *check only*, never as reproduced; a number is reproduced only "
        "within 25 % of the paper's and partly within 2×. The full ledger (paper value, ours, rule, reason, data) is "
        f"[docs/VALIDATION.md](docs/VALIDATION.md), also `pcm-planner validate` and the app's "
        f"*Validation against the papers* page; `{REGENERATE}` regenerates it and this summary.",
        "",
        *_counts_table(tab),
        README_END,
    ]
    return "\n".join(lines)


def replace_readme_block(readme: str, block: str) -> str:
    """``readme`` with its generated block replaced by ``block`` (``ValueError`` without markers)."""
    i, j = readme.find(README_BEGIN), readme.find(README_END)
    if i < 0 or j < i:
        raise ValueError(f"README has no {README_BEGIN} ... {README_END} block")
    return readme[:i] + block + readme[j + len(README_END):]


def repo_root() -> Path:
    """The checkout holding ``models/`` (and ``docs/``, ``README.md``)."""
    return Path(__file__).resolve().parents[2]


def doc_path() -> Path:
    return repo_root() / "docs" / "VALIDATION.md"


def table_path() -> Path:
    """The precomputed ledger the app reads (``models/validation/ledger.csv``)."""
    return Path(__file__).resolve().parent / "ledger.csv"


def readme_path() -> Path:
    return repo_root() / "README.md"


def table_csv(results: Sequence[ClaimResult]) -> str:
    """The precomputed table (contract and extra columns) as CSV text, numbers as printed."""
    df = ledger_frame(results, extras=True)
    for c in ("paper_number", "paper_low", "paper_high", "our_number"):
        df[c] = [fmt_number(v) if np.isfinite(v) else "" for v in df[c]]
    return df.to_csv(index=False, lineterminator="\n")


def write_outputs(results: Sequence[ClaimResult]) -> list[Path]:
    """Write ``docs/VALIDATION.md``, ``ledger.csv`` and the README block; return the paths."""
    doc = doc_path()
    doc.parent.mkdir(parents=True, exist_ok=True)
    doc.write_text(render_markdown(results), encoding="utf-8")
    table_path().write_text(table_csv(results), encoding="utf-8")
    rp = readme_path()
    rp.write_text(replace_readme_block(rp.read_text(encoding="utf-8"), render_readme_block(results)),
                  encoding="utf-8")
    return [doc, table_path(), rp]
