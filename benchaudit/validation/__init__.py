"""Statistical validation of benchaudit's intervals and tests.

Run ``python -m benchaudit.validation`` to recompute every figure and write
``docs/validation.md``; ``--quick`` runs fewer simulations and prints to
standard output (a smoke run, not the published table); ``--check`` exits 1
when the file on disk differs from a fresh run.

What is measured:

1. Coverage of the binomial intervals (Wald, Wilson, Agresti–Coull,
   Clopper–Pearson) by exact enumeration over k, at each grid point and
   averaged over a small neighbourhood of p (exact coverage oscillates with p).
2. Coverage of the other intervals the per-item analysis reports: the paired
   difference (exact enumeration over the trinomial of discordant counts), the
   percentile and cluster bootstraps and the t(k-1) interval over seeds (seeded
   simulation).
3. Type-I error of every test on simulated nulls.
4. pass@k unbiasedness by exact expectation over the binomial count.
5. Bradley–Terry recovery of known strengths and bootstrap interval coverage.
6. The power promised by the sample-size formulas, and the winner's-curse inflation.
7. The per-item analysis end to end on simulated null result sets.

Every random draw comes from ``numpy.random.default_rng((SEED, stream))`` so the
output is the same byte for byte on every run.
"""

from benchaudit.validation.binomial import (
    GOLDEN_COVERAGE,
    GRID_N,
    GRID_P,
    exact_coverage,
)
from benchaudit.validation.common import ALPHA, CONFIDENCE, SEED, Budget, Section, Table
from benchaudit.validation.intervals import PAIRED_MIN_DISCORDANT
from benchaudit.validation.pass_at_k import GOLDEN_PASSK, passk_expectations
from benchaudit.validation.report import main, render, run

__all__ = [
    "ALPHA",
    "CONFIDENCE",
    "GOLDEN_COVERAGE",
    "GOLDEN_PASSK",
    "GRID_N",
    "GRID_P",
    "PAIRED_MIN_DISCORDANT",
    "SEED",
    "Budget",
    "Section",
    "Table",
    "exact_coverage",
    "main",
    "passk_expectations",
    "render",
    "run",
]
