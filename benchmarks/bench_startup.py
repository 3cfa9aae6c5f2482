"""Start-up budget: `benchaudit check` on a 30-line model card vs bare `python -c pass`.

Runs the two commands alternately (so machine load hits both alike), takes the median of
each, and prints the ratio. Target: at most 6.

    python benchmarks/bench_startup.py [--runs 21] [--card examples/model_card_30.md]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CARD = """\
# Example-7B

Example-7B is a 7B-parameter model trained on 2T tokens (released 2024-05-01).

## Results

| Benchmark | Example-7B | Baseline-7B |
|---|---|---|
| HumanEval (pass@1) | 87.2 | 84.1 |
| GSM8K | 92.5 | 90.1 |
| MATH-500 | 76.4 | 73.0 |
| MMLU | 70.3 | 68.9 |

Example-7B reaches 87.2% on HumanEval and 92.5% on GSM8K, averaged over 3 seeds.
On AIME 2024 it scores 79.8% averaged over 64 samples per problem.
Compared with Baseline-7B (70.0%), our model (73.0%) improves MATH-500 by 3.0 points.

## Training

We trained for 3 epochs on 512 GPUs with a learning rate of 3e-4.
About 2.5% of the compute budget went to the final annealing phase.

## Limitations

The model may produce incorrect answers. Scores are from a single evaluation run
with greedy decoding. See the paper (Section 4.2) for details.

## Licence

Apache-2.0.
"""


def _time(cmd: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--card", default=None)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        card = Path(args.card) if args.card else Path(tmp) / "model_card.md"
        if not args.card:
            card.write_text(CARD, encoding="utf-8")
        exe = shutil.which("benchaudit")
        check = [exe] if exe else [sys.executable, "-m", "benchaudit"]
        check += ["check", str(card), "--fail-on", "never"]
        bare = [sys.executable, "-c", "pass"]
        env_note = "console script" if exe else "python -m benchaudit"
        for _ in range(2):  # warm the file cache
            _time(bare)
            _time(check)
        base, ours = [], []
        for _ in range(args.runs):
            base.append(_time(bare))
            ours.append(_time(check))
    b, o = statistics.median(base), statistics.median(ours)
    lines = len(card.read_text().splitlines()) if args.card else len(CARD.splitlines())
    print(f"model card: {lines} lines; runs: {args.runs} alternating; via {env_note}")
    print(f"python -c pass        median {b * 1000:7.1f} ms")
    print(f"benchaudit check      median {o * 1000:7.1f} ms")
    print(f"ratio                 {o / b:7.2f}  (budget 6.0)")


if __name__ == "__main__":
    main()
