"""All-pairs comparison of many models on graded items: the audit's time, and the
vectorised tests against the pair-by-pair ones they replace.

Generates a long-form CSV of ``--models`` x ``--items`` graded scores (0-1, three
decimals) in a temporary folder and prints:

* the wall time of ``benchaudit.engine.audit`` on it (every per-model bootstrap
  interval, every sign-flip test, Holm, rank groups and every rule; target for
  100 x 500: under 30 s);
* the time of the vectorised sign-flip tests of all pairs against the one-pair-at-a-time
  tests on a sample of pairs, scaled to all pairs, measured in the same process, and
  their ratio.

    python benchmarks/bench_graded_pairs.py [--models 100] [--items 500] [--resamples 10000]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time


def generate(path: str, models: int, items: int) -> None:
    import numpy as np

    rng = np.random.default_rng(0)
    ability = rng.normal(0, 0.5, size=models)
    difficulty = rng.normal(0, 1, size=items)
    with open(path, "w") as fh:
        fh.write("model,item,score\n")
        for m in range(models):
            p = 1 / (1 + np.exp(-(ability[m] - difficulty)))
            s = np.clip(p + rng.normal(0, 0.2, size=items), 0, 1).round(3)
            fh.writelines(f"m{m},q{i},{s[i]}\n" for i in range(items))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", type=int, default=100)
    ap.add_argument("--items", type=int, default=500)
    ap.add_argument("--resamples", type=int, default=10000)
    ap.add_argument("--sample-pairs", type=int, default=40)
    args = ap.parse_args()

    import numpy as np

    from benchaudit.config import Config
    from benchaudit.engine import audit
    from benchaudit.stats.paired import sign_flip_many, sign_flip_test

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "graded.csv")
        generate(path, args.models, args.items)
        cfg = Config()
        cfg.resamples = args.resamples
        t = time.perf_counter()
        report = audit([path], cfg)
        full = time.perf_counter() - t
    pairs = len(report.results["comparisons"])
    print(
        f"audit of {args.models} models x {args.items} graded items ({pairs:,} pairs, "
        f"{args.resamples:,} resamples): {full:.1f} s (target < 30 s)"
    )

    rng = np.random.default_rng(1)
    x = np.clip(rng.random((args.models, args.items)).round(3), 0, 1)
    ia, ib = np.triu_indices(args.models, 1)
    t = time.perf_counter()
    sign_flip_many(x, ia, ib, args.resamples, 0)
    many = time.perf_counter() - t
    pick = rng.choice(ia.size, size=min(args.sample_pairs, ia.size), replace=False)
    t = time.perf_counter()
    for j in pick:
        sign_flip_test(x[ia[j]] - x[ib[j]], args.resamples, int(j))
    one = (time.perf_counter() - t) * ia.size / pick.size
    print(
        f"sign-flip tests of all {ia.size:,} pairs: vectorised {many:.2f} s, pair by pair "
        f"{one:.1f} s (from {pick.size} pairs) -> {one / many:.0f}x faster"
    )


if __name__ == "__main__":
    main()
