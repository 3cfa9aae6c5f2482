"""pass@k and calibration on large inputs, against straightforward references.

- pass@k: 100,000 problems with n = 200 samples each, k in (1, 10, 100): the vectorised
  product form against the per-problem loop with exact binomial coefficients
  (``math.comb``), which is what most evaluation scripts do. Results must agree to 1e-12.
- pass@k end to end: a human-eval style ``*_results.jsonl`` of 164 problems x 200 samples
  (32,800 rows) through ``benchaudit check`` against reading the file with ``json`` alone.
- ECE: 1,000,000 predictions, 10 equal-width bins: ``bincount`` against a Python loop over
  bins with boolean masks (the usual notebook code).

    python benchmarks/bench_metrics.py [--problems 100000] [--items 1000000]
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from benchaudit.stats.calibration import ece
from benchaudit.stats.passk import pass_at_k_array


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


def reference_passk(n, c, k):
    return np.array([1 - math.comb(ni - ci, k) / math.comb(ni, k) for ni, ci in zip(n, c)])


def reference_ece(conf, ok, m=10):
    edges = np.linspace(0, 1, m + 1)
    total = 0.0
    for lo, hi in zip(edges[:-1], edges[1:]):
        mask = (conf > lo) & (conf <= hi)
        if mask.any():
            total += mask.mean() * abs(ok[mask].mean() - conf[mask].mean())
    return total


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--problems", type=int, default=100_000)
    ap.add_argument("--items", type=int, default=1_000_000)
    args = ap.parse_args()
    rng = np.random.default_rng(0)

    n = np.full(args.problems, 200)
    c = rng.binomial(200, rng.uniform(0, 1, args.problems))
    for k in (1, 10, 100):
        ours, t_ours = timed(lambda k=k: pass_at_k_array(n, c, k))
        ref, t_ref = timed(lambda k=k: reference_passk(n.tolist(), c.tolist(), k))
        err = float(np.max(np.abs(ours - ref)))
        print(
            f"pass@{k:<3} {args.problems} problems: ours {t_ours:.3f}s, math.comb loop "
            f"{t_ref:.3f}s, ratio {t_ref / t_ours:.1f}x, max |diff| {err:.1e}"
        )

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "samples.jsonl_results.jsonl"
        with open(path, "w", encoding="utf-8") as fh:
            for t in range(164):
                p = rng.uniform(0, 1)
                for _ in range(200):
                    ok = bool(rng.uniform() < p)
                    fh.write(
                        json.dumps(
                            {
                                "task_id": f"HumanEval/{t}",
                                "completion": "    pass",
                                "result": "passed" if ok else "failed: ",
                                "passed": ok,
                            }
                        )
                        + "\n"
                    )
        _, t_read = timed(lambda: [json.loads(x) for x in path.read_text().splitlines()])
        _, t_cli = timed(
            lambda: subprocess.run(
                [sys.executable, "-m", "benchaudit", "check", str(path), "--format", "json"],
                capture_output=True,
                check=False,
            )
        )
        _, t_bare = timed(
            lambda: subprocess.run(
                [sys.executable, "-c", "import numpy"], capture_output=True, check=False
            )
        )
        print(
            f"check on 32,800 samples: {t_cli:.2f}s; json.loads of the file {t_read:.2f}s; "
            f"interpreter + numpy start-up {t_bare:.2f}s; "
            f"ratio (check - start-up) / read {(t_cli - t_bare) / t_read:.1f}x"
        )

    conf = rng.uniform(0, 1, args.items)
    ok = (rng.uniform(0, 1, args.items) < conf**1.5).astype(float)
    ours, t_ours = timed(lambda: ece(conf, ok, 10))
    ref, t_ref = timed(lambda: reference_ece(conf, ok, 10))
    print(
        f"ECE on {args.items} predictions: ours {t_ours:.3f}s, mask loop {t_ref:.3f}s, "
        f"ratio {t_ref / t_ours:.1f}x, |diff| {abs(ours - ref):.1e}"
    )


if __name__ == "__main__":
    main()
