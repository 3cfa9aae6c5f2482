"""Cost of `benchaudit check` on a model card against bare interpreter start-up.

Runs each command several times in fresh processes (as a pre-commit hook does)
and prints the median wall time and its ratio to `python -c pass` measured in
the same run. Also times the claim extraction alone on a large synthetic
document (a model card repeated), to show it grows linearly with the text.

    python benchmarks/bench_text_check.py [--repeat 7]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CARD = ROOT / "examples" / "model_card.md"


def wall(cmd: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def extraction_rate(copies: int) -> tuple[int, float]:
    from benchaudit.config import Config
    from benchaudit.engine import Context
    from benchaudit.inputs.claims import extract

    lines = CARD.read_text(encoding="utf-8").splitlines()[4:] * copies
    ctx = Context(Config())
    extract(lines[:50], "warm.md", ctx)
    t0 = time.perf_counter()
    extract(lines, "big.md", ctx)
    return len(lines), time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    py = sys.executable
    bare = wall([py, "-c", "pass"], args.repeat)
    version = wall([py, "-m", "benchaudit", "--version"], args.repeat)
    check = wall([py, "-m", "benchaudit", "check", str(CARD)], args.repeat)
    print(f"python -c pass                 {bare * 1000:7.0f} ms  1.00x")
    print(f"benchaudit --version           {version * 1000:7.0f} ms  {version / bare:.2f}x")
    print(f"benchaudit check model_card.md {check * 1000:7.0f} ms  {check / bare:.2f}x")
    small_n, small_t = extraction_rate(10)
    big_n, big_t = extraction_rate(100)
    print(f"extract {small_n:6d} lines {small_t * 1000:7.0f} ms")
    print(
        f"extract {big_n:6d} lines {big_t * 1000:7.0f} ms  "
        f"({big_t / small_t:.1f}x the time for {big_n / small_n:.0f}x the text)"
    )


if __name__ == "__main__":
    main()
