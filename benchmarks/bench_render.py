"""Cost of each report writer against the JSON writer, on one report.

Audits the examples once, then renders the report in every format several
times and prints the median time of each and its ratio to JSON measured in
the same run. HTML is timed twice: the first render pays for importing
matplotlib and jinja2, later ones do not. ``--scale N`` repeats the findings
N times to show the writers grow linearly with the number of findings.

    python benchmarks/bench_render.py [--repeat 5] [--scale 1]
"""

from __future__ import annotations

import argparse
import copy
import statistics
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def timed(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--scale", type=int, default=1)
    args = parser.parse_args()

    from benchaudit.engine import audit
    from benchaudit.finding import assign_fingerprints
    from benchaudit.render import render

    report = audit([str(p) for p in sorted((ROOT / "examples").glob("*")) if p.is_file()])
    if args.scale > 1:
        report.findings = [copy.copy(f) for f in report.findings for _ in range(args.scale)]
        assign_fingerprints(report.findings)

    t0 = time.perf_counter()
    render(report, "html")
    first_html = time.perf_counter() - t0
    base = timed(lambda: render(report, "json"), args.repeat)
    print(
        f"{len(report.findings)} findings, {sum(len(v) for v in report.results.values())} "
        "result rows"
    )
    print(f"{'format':<10}{'median s':>10}{'x json':>9}")
    print(f"{'json':<10}{base:>10.4f}{1.0:>9.1f}")
    for fmt in ("text", "markdown", "github", "sarif", "html"):
        t = timed(lambda fmt=fmt: render(report, fmt), args.repeat)
        print(f"{fmt:<10}{t:>10.4f}{t / base:>9.1f}")
    print(f"{'html 1st':<10}{first_html:>10.4f}{first_html / base:>9.1f}   (imports included)")


if __name__ == "__main__":
    main()
