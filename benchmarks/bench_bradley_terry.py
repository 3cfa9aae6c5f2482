"""Bradley–Terry fit + bootstrap intervals: ours against the arena's current method.

1,000,000 battles among 100 models (seeded), fit plus 1,000 bootstrap replicates:

- ours (:func:`benchaudit.stats.bradley_terry.bootstrap`): count pair outcomes once;
  each replicate is an exact multinomial draw over the (pair, outcome) cells, drawn
  Poissonised through inverse-CDF tables and corrected to the full battle count; all
  replicates are solved together by steps with the full-data fit's information matrix,
  warm-started at that fit;
- reference (the method of FastChat's current arena bootstrap, written here from its
  description): the unique (model_a, model_b, outcome) rows and their counts, a
  multinomial draw of the battle count over those rows per replicate, and an L-BFGS fit
  of the weighted Bradley–Terry log-likelihood per replicate from a zero start.

Both are timed in CPU seconds in the same run (ours: the median of three runs), and the
script prints the ratio and the largest difference between the two methods' 95%
intervals in Elo, beside the Monte Carlo floor (ours with another seed against ours).
Then ``benchaudit check`` runs end to end on the same battles written as JSONL and CSV.

    python benchmarks/bench_bradley_terry.py [--battles 1000000] [--models 100]
        [--replicates 1000] [--skip-cli]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# CPU seconds are the measure: a BLAS thread pool spinning on small products would
# count against whichever side uses it, so both run single-threaded.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from benchaudit.stats import bradley_terry as bt  # noqa: E402


def simulate(m: int, n: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    true = rng.normal(0, 1, m)
    a = rng.integers(0, m, n)
    b = (a + rng.integers(1, m, n)) % m
    p = 1 / (1 + np.exp(-(true[a] - true[b])))
    u = rng.random(n)
    out = np.where(u < 0.1, 2, np.where(rng.random(n) < p, 0, 1)).astype(np.int8)
    return a, b, out, [f"model-{k:03d}" for k in range(m)]


def reference_bootstrap(a, b, out, m: int, reps: int, seed: int = 0) -> np.ndarray:
    """(reps, m) Elo ratings: multinomial over unique outcome rows, L-BFGS per replicate."""
    from scipy.optimize import minimize

    key = (a.astype(np.int64) * m + b) * 3 + out
    rows, counts = np.unique(key, return_counts=True)
    ra, rb, ro = rows // 3 // m, rows // 3 % m, rows % 3
    target = np.where(ro == 0, 1.0, np.where(ro == 1, 0.0, 0.5))  # a tie is half a win
    scale = math.log(10.0)  # ratings in units of 400 Elo points

    def loss_and_grad(r: np.ndarray, w: np.ndarray):
        p = 1.0 / (1.0 + np.exp(-scale * (r[ra] - r[rb])))
        loss = -np.sum(w * (target * np.log(p) + (1 - target) * np.log1p(-p)))
        g = w * (p - target) * scale
        return loss, np.bincount(ra, g, m) - np.bincount(rb, g, m)

    rng = np.random.default_rng(seed)
    weights = rng.multinomial(len(a), counts / counts.sum(), size=reps) / len(a)
    out_r = np.empty((reps, m))
    for k, w in enumerate(weights):
        res = minimize(
            loss_and_grad,
            np.zeros(m),
            args=(w,),
            jac=True,
            method="L-BFGS-B",
            options={"maxiter": 100, "gtol": 1e-6},
        )
        out_r[k] = 1000.0 + 400.0 * (res.x - res.x.mean())
    return out_r


def _cpu(fn):
    t = time.process_time()
    got = fn()
    return time.process_time() - t, got


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--battles", type=int, default=1_000_000)
    ap.add_argument("--models", type=int, default=100)
    ap.add_argument("--replicates", type=int, default=1000)
    ap.add_argument("--skip-cli", action="store_true")
    args = ap.parse_args()
    n, m, reps = args.battles, args.models, args.replicates
    a, b, out, models = simulate(m, n)
    print(f"{n:,} battles among {m} models, {reps:,} bootstrap replicates, {os.cpu_count()} CPUs")

    def ours_run(seed: int = 0):
        pc = bt.PairCounts.from_codes(a, b, out, models)
        return bt.bootstrap(pc, resamples=reps, seed=seed)

    runs = [_cpu(ours_run) for _ in range(3)]
    t_ours = float(np.median([t for t, _ in runs]))
    ours = runs[0][1]
    print(f"ours: count + fit + {reps} replicates             {t_ours:8.2f} CPU s (median of 3)")
    t_ref, ref = _cpu(lambda: reference_bootstrap(a, b, out, m, reps))
    print(f"reference: multinomial + L-BFGS per replicate    {t_ref:8.2f} CPU s")
    print(f"speed-up vs reference: {t_ref / t_ours:7.1f}x   (target >= 30)")

    lo, hi = np.quantile(ref, [0.025, 0.975], axis=0)
    d = max(np.abs(ours.ci_low - lo).max(), np.abs(ours.ci_high - hi).max())
    other = ours_run(seed=1)
    floor = max(
        np.abs(ours.ci_low - other.ci_low).max(), np.abs(ours.ci_high - other.ci_high).max()
    )
    width = float((ours.ci_high - ours.ci_low).mean())
    print(
        f"max interval difference vs reference: {d:.2f} Elo (target <= 1); Monte Carlo "
        f"floor, ours seed 0 vs seed 1: {floor:.2f} Elo; mean width {width:.1f} Elo"
    )

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
