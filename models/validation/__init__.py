"""Validation ledger: every quantitative or directional claim of the five seed papers, checked.

- :mod:`~models.validation.claims_000` ... :mod:`~models.validation.claims_004`: the claims
  registry, one module per seed (paper value, where, rule, computation, data);
- :mod:`~models.validation.rules`: the tolerance and direction rules and the statuses;
- :mod:`~models.validation.numbers`: how the ledger writes a number (4 significant digits);
- :mod:`~models.validation.runner`: runs the claims (shared computations cached by
  :mod:`~models.validation.shared`);
- :mod:`~models.validation.render`: the table (CSV/JSON), ``docs/VALIDATION.md`` and the README
  summary (``make validate`` regenerates them and ``ledger.csv``, the table the app reads).

>>> from models.validation import select_claims
>>> len(select_claims()) >= 60 and {c.seed for c in select_claims()} == set(SEEDS)
True
"""

from models.references import SEEDS
from models.validation.core import Claim, ClaimResult
from models.validation.render import (
    COLUMNS,
    ledger_frame,
    render_markdown,
    status_counts,
    write_outputs,
)
from models.validation.rules import STATUSES, Outcome
from models.validation.runner import all_claims, run_claim, run_ledger, select_claims

__all__ = [
    "SEEDS",
    "STATUSES",
    "COLUMNS",
    "Claim",
    "ClaimResult",
    "Outcome",
    "all_claims",
    "select_claims",
    "run_claim",
    "run_ledger",
    "ledger_frame",
    "status_counts",
    "render_markdown",
    "write_outputs",
]
