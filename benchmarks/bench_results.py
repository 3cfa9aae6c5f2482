"""Audit of a large per-item file against the cost of reading it.

Generates a long-form file of 100 models x 100,000 items (10 million rows) in a
temporary folder, then measures in the same run:

* the reference: pyarrow alone reading the file into a table;
* the full audit: ``benchaudit.engine.audit`` (reading, every per-model
  interval, all 4,950 paired comparisons, Holm, rank groups, and every rule
  that reads per-item files).

Each measurement runs in a fresh process; the two alternate ``--repeat`` times
so that both see the same cache state and the same load on a shared machine,
and the medians are compared. It prints the time ratio (target: at most 2) and
the peak memory of the audit as a multiple of the score matrix (models x items
float64; target: at most 3). Peak memory is the growth of the process's peak
resident set (``VmHWM``; ``ru_maxrss`` would carry over the peak of the parent
that generated the file) over its resident set after imports: it counts
numpy and Arrow allocations alike (tracemalloc sees neither Arrow's pool nor
freed-but-kept pages). The Arrow pool's own high-water mark is printed beside it.

    python benchmarks/bench_results.py [--models 100] [--items 100000] [--format parquet|csv]
        [--report none|text|json] [--repeat 5] [--folder DIR]

The issue's figures: ``--models 1000 --items 1000 --format csv --report text`` (and
``json``): 499,500 pairs; ``--models 10 --items 1000000 --format csv``: a million
distinct items; ``--models 100 --items 100000`` in both formats.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

CHILD = r"""
import json, os, resource, sys, time
import numpy, pyarrow, pyarrow.parquet, pyarrow.csv, scipy.special, scipy.stats
import benchaudit.analysis.results, benchaudit.engine, benchaudit.registry
benchaudit.registry.all_rules()
import benchaudit.inputs
benchaudit.inputs.readers()  # start-up work, as the rule registry above
import benchaudit.inputs._tabular_arrow  # the reader's own imports (pyarrow.compute)
from benchaudit.config import Config
from benchaudit.engine import audit

def status_kb(key):
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(key + ":"):
                return int(line.split()[1])

def rss_kb():
    return status_kb("VmRSS")

path, what = sys.argv[1], sys.argv[2]
base = rss_kb()
t, cpu = time.perf_counter(), time.process_time()
if what == "read":
    if path.endswith(".parquet"):
        table = pyarrow.parquet.read_table(path)
    else:
        table = pyarrow.csv.read_csv(path)
    rows = table.num_rows
else:
    report = audit([path], Config())
    rows = report.results["setup"][0]["rows"]
    if what in ("text", "json"):  # the report written as the command writes it
        from benchaudit.render.json import chunks
        with open(os.devnull, "w") as out:
            for piece in (chunks(report) if what == "json" else [report.to_text()]):
                out.write(piece)
elapsed, cpu = time.perf_counter() - t, time.process_time() - cpu
# VmHWM, not ru_maxrss: Linux carries ru_maxrss over exec from the parent, which
# made every child report the generator's peak.
peak = status_kb("VmHWM") if sys.platform == "linux" else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
pool = pyarrow.default_memory_pool().max_memory()
print(json.dumps({"seconds": elapsed, "cpu": cpu, "rows": rows, "base_kb": base, "peak_kb": peak, "pool": pool}))
"""


def generate(folder: str, models: int, items: int, fmt: str) -> str:
    import numpy as np
    import pyarrow as pa

    rng = np.random.default_rng(0)
    difficulty = rng.random(items)
    skill = np.linspace(-0.1, 0.1, models)
    model_names = pa.array([f"model-{m:03d}" for m in range(models)])
    item_names = pa.array([f"item-{i:06d}" for i in range(items)])
    model_idx = np.repeat(np.arange(models, dtype=np.int32), items)
    item_idx = np.tile(np.arange(items, dtype=np.int32), models)
    correct = (
        rng.random(models * items) < np.clip(difficulty[item_idx] + skill[model_idx], 0, 1)
    ).astype(np.int8)
    table = pa.table(
        {
            "model": pa.DictionaryArray.from_arrays(pa.array(model_idx), model_names),
            "item": pa.DictionaryArray.from_arrays(pa.array(item_idx), item_names),
            "correct": pa.array(correct),
        }
    )
    if fmt == "parquet":
        import pyarrow.parquet as pq

        path = os.path.join(folder, "scores.parquet")
        pq.write_table(table, path)
    else:
        import pyarrow.csv as pcsv

        path = os.path.join(folder, "scores.csv")
        plain = table.cast(
            pa.schema([("model", pa.string()), ("item", pa.string()), ("correct", pa.int8())])
        )
        pcsv.write_csv(plain, path)
    return path


def measure(path: str, what: str) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, path, what], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", type=int, default=100)
    ap.add_argument("--items", type=int, default=100_000)
    ap.add_argument("--format", choices=("parquet", "csv"), default="parquet")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument(
        "--report",
        choices=("none", "text", "json"),
        default="none",
        help="also write the report in this format (timed with the audit)",
    )
    ap.add_argument("--folder", default=None, help="generate the file here (default: a temporary folder)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(dir=args.folder) as folder:
        t = time.perf_counter()
        path = generate(folder, args.models, args.items, args.format)
        size = os.path.getsize(path)
        print(
            f"generated {args.models} models x {args.items:,} items "
            f"({args.models * args.items:,} rows, {size / 1e6:.0f} MB {args.format}) "
            f"in {time.perf_counter() - t:.1f} s"
        )
        # Alternate the two measurements so both see the same cache state and load.
        reads, audits = [], []
        for _ in range(args.repeat):
            reads.append(measure(path, "read"))
            audits.append(measure(path, "audit" if args.report == "none" else args.report))
    report(reads, audits, args.models * args.items * 8, args.report)


def median(values: list[float]) -> float:
    return statistics.median(values)


def report(reads: list[dict], audits: list[dict], matrix: int, written: str = "none") -> None:
    read_s = median([r["seconds"] for r in reads])
    audit_s = median([a["seconds"] for a in audits])
    ratios = sorted(a["seconds"] / r["seconds"] for r, a in zip(reads, audits))
    grown = median([(a["peak_kb"] - a["base_kb"]) * 1024 for a in audits])
    worst = max((a["peak_kb"] - a["base_kb"]) * 1024 for a in audits)
    pool = median([a["pool"] for a in audits])
    ref = median([(r["peak_kb"] - r["base_kb"]) * 1024 for r in reads])
    n = len(reads)
    print(f"pyarrow read          {read_s:8.2f} s   (median of {n})")
    what = "full audit" if written == "none" else f"audit + {written} report"
    print(
        f"{what:<22}{audit_s:8.2f} s   ratio {audit_s / read_s:.2f} (target <= 2; "
        f"1,000 models: <= 3; 10 models x 1M items: <= 1.5); "
        f"per-pair ratios {', '.join(f'{r:.2f}' for r in ratios)}"
    )
    read_cpu = median([r["cpu"] for r in reads])
    audit_cpu = median([a["cpu"] for a in audits])
    print(
        f"CPU seconds           {read_cpu:8.2f} s read, {audit_cpu:.2f} s {what}: ratio "
        f"{audit_cpu / read_cpu:.2f} (all threads; steadier than wall time on a shared machine)"
    )
    print(f"score matrix          {matrix / 1e6:8.0f} MB (models x items float64)")
    print(
        f"audit peak growth     {grown / 1e6:8.0f} MB   ratio {grown / matrix:.2f} "
        f"(target <= 3; worst run {worst / matrix:.2f}), peak resident set over imports"
    )
    print(f"audit Arrow pool max  {pool / 1e6:8.0f} MB   ratio {pool / matrix:.2f}")
    print(f"pyarrow read alone    {ref / 1e6:8.0f} MB peak growth (for reference)")
    total = median([a["peak_kb"] * 1024 for a in audits])
    print(f"audit peak resident   {total / 1e6:8.0f} MB   the whole process (target <= 500 MB)")


if __name__ == "__main__":
    main()
