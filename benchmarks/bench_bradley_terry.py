"""Bradley–Terry bootstrap: pair-count multinomial vs refitting resampled battles.

1,000,000 battles among 100 models (seeded), fit plus 1,000 bootstrap replicates:

- ours: count pair outcomes once; each replicate is a multinomial draw over the
  (pair, outcome) cells, all replicates solved by one batched Newton loop warm-started at
  the fit;
- reference R1 (the usual arena script): resample the battle rows with replacement and
  refit a logistic regression on the rows (IRLS on a sparse ±1 design). Too slow to run
  1,000 times here: a few replicates are timed and the total extrapolated (said in the output);
- reference R2 (a stronger reference): resample the battle rows, re-count the pairs and
  refit from a cold start, all 1,000 replicates run. Its intervals are compared with ours
  (they estimate the same distribution; target: within 2 Elo).

Then ``benchaudit check`` runs end to end on the same battles written as JSONL and CSV.

    python benchmarks/bench_bradley_terry.py [--battles 1000000] [--models 100]
        [--replicates 1000] [--row-refits 3] [--skip-cli]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from benchaudit.stats import bradley_terry as bt


def simulate(m: int, n: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    true = rng.normal(0, 1, m)
    a = rng.integers(0, m, n)
    b = (a + rng.integers(1, m, n)) % m
    p = 1 / (1 + np.exp(-(true[a] - true[b])))
    u = rng.random(n)
    out = np.where(u < 0.1, 2, np.where(rng.random(n) < p, 0, 1)).astype(np.int8)
    return a, b, out, [f"model-{k:03d}" for k in range(m)]


def row_logistic_fit(a, b, out, m: int, iters: int = 25) -> np.ndarray:
    """Logistic regression on battle rows, ties as two half-weight rows (IRLS, sparse)."""
    from scipy import sparse
    from scipy.sparse.linalg import spsolve

    tie = out == 2
    ra = np.concatenate([a, a[tie]])
    rb = np.concatenate([b, b[tie]])
    # A tie is two half-weight rows, one won by each side.
    y = np.concatenate([(out == 0) | tie, np.zeros(tie.sum(), dtype=bool)]).astype(float)
    w = np.concatenate([np.where(tie, 0.5, 1.0), np.full(tie.sum(), 0.5)])
    n = len(ra)
    rows = np.arange(n)
    x = sparse.csr_matrix(
        (np.r_[np.ones(n), -np.ones(n)], (np.r_[rows, rows], np.r_[ra, rb])), shape=(n, m)
    )[:, 1:]
    beta = np.zeros(m - 1)
    for _ in range(iters):
        eta = x @ beta
        p = 1 / (1 + np.exp(-eta))
        grad = x.T @ (w * (y - p))
        h = x.T @ sparse.diags(w * p * (1 - p)) @ x
        step = spsolve(h.tocsc(), grad)
        beta += step
        if np.abs(step).max() < 1e-8:
            break
    return bt.to_elo(np.r_[0.0, beta])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--battles", type=int, default=1_000_000)
    ap.add_argument("--models", type=int, default=100)
    ap.add_argument("--replicates", type=int, default=1000)
    ap.add_argument("--row-refits", type=int, default=3)
    ap.add_argument("--skip-cli", action="store_true")
    args = ap.parse_args()
    n, m, reps = args.battles, args.models, args.replicates
    a, b, out, models = simulate(m, n)
    print(f"{n:,} battles among {m} models, {reps:,} bootstrap replicates, {os.cpu_count()} CPUs")

    t0 = time.perf_counter()
    pc = bt.PairCounts.from_codes(a, b, out, models)
    ours = bt.bootstrap(pc, resamples=reps, seed=0)
    t_ours = time.perf_counter() - t0
    print(f"ours: count + fit + {reps} replicates           {t_ours:8.2f} s")

    rng = np.random.default_rng(1)
    t0 = time.perf_counter()
    for _ in range(args.row_refits):
        rows = rng.integers(0, n, n)
        row_logistic_fit(a[rows], b[rows], out[rows], m)
    per_row_refit = (time.perf_counter() - t0) / max(args.row_refits, 1)
    t_r1 = per_row_refit * reps
    print(
        f"R1: resample rows + row-level logistic refit   {t_r1:8.2f} s "
        f"(extrapolated from {args.row_refits} replicates at {per_row_refit:.2f} s each)"
    )

    t0 = time.perf_counter()
    ref = []
    for _ in range(reps):
        rows = rng.integers(0, n, n)
        rpc = bt.PairCounts.from_codes(a[rows], b[rows], out[rows], models)
        ref.append(bt.to_elo(bt.fit(rpc)))
    t_r2 = time.perf_counter() - t0
    print(f"R2: resample rows + re-count + cold refit      {t_r2:8.2f} s (all {reps} run)")

    lo, hi = np.quantile(np.array(ref), [0.025, 0.975], axis=0)
    d_lo = np.abs(ours.ci_low - lo).max()
    d_hi = np.abs(ours.ci_high - hi).max()
    width = float((ours.ci_high - ours.ci_low).mean())
    print(
        f"interval agreement with R2: max |Δ low| {d_lo:.2f} Elo, max |Δ high| {d_hi:.2f} Elo "
        f"(mean interval width {width:.1f} Elo; target ≤ 2)"
    )
    print(f"speed-up vs R1: {t_r1 / t_ours:7.1f}x   (target ≥ 20)")
    print(f"speed-up vs R2: {t_r2 / t_ours:7.1f}x")

    if args.skip_cli:
        return
    with tempfile.TemporaryDirectory() as tmp:
        jl = Path(tmp) / "battles.jsonl"
        cs = Path(tmp) / "battles.csv"
        names = np.array(models)
        winner = np.array(["model_a", "model_b", "tie"])[out]
        with open(jl, "w", encoding="utf-8") as fh:
            for k in range(n):
                fh.write(
                    json.dumps(
                        {
                            "question_id": k,
                            "model_a": names[a[k]],
                            "model_b": names[b[k]],
                            "winner": winner[k],
                        }
                    )
                    + "\n"
                )
        with open(cs, "w", encoding="utf-8") as fh:
            fh.write("question_id,model_a,model_b,winner\n")
            for k in range(n):
                fh.write(f"{k},{names[a[k]]},{names[b[k]]},{winner[k]}\n")
        for path in (jl, cs):
            t0 = time.perf_counter()
            proc = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "benchaudit",
                    "check",
                    str(path),
                    "--format",
                    "json",
                    "--fail-on",
                    "never",
                ],
                capture_output=True,
                text=True,
            )
            took = time.perf_counter() - t0
            ok = proc.returncode == 0 and '"ratings"' in proc.stdout
            size = path.stat().st_size / 1e6
            print(
                f"benchaudit check {path.suffix:<6} ({size:.0f} MB): {took:6.1f} s "
                f"{'ok' if ok else 'FAILED: ' + proc.stderr.strip()[:200]} (target well under 120)"
            )


if __name__ == "__main__":
    main()
