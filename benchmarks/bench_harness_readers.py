"""Harness readers: cost of reading against the cost of parsing the same JSON.

Writes (in a temporary folder, seeded) an lm-evaluation-harness samples file with
``--docs`` documents under two filters, an inspect_ai ``.eval`` archive with
``--samples`` samples x ``--epochs`` epochs, and a HELM ``per_instance_stats.json``
with ``--instances`` instances, then prints for each:

* the reader's time (file -> ResultSet),
* a reference measured in the same run: ``json.loads`` of the same bytes (every line,
  every zip member, the whole document) with no interpretation,
* the ratio reader / reference (target: below 1.5: reading costs about what parsing costs).

    python benchmarks/bench_harness_readers.py [--docs 100000] [--samples 5000]
        [--epochs 5] [--instances 100000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
import zipfile
from pathlib import Path

from benchaudit.config import Config
from benchaudit.engine import Context
from benchaudit.inputs import helm, inspect_log, lmeval_samples


def best_of(repeat: int, fn) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def write_lmeval(folder: Path, docs: int, rng: random.Random) -> Path:
    path = folder / "samples_gsm8k_2024-05-14T10-22-33.123456.jsonl"
    with open(path, "w", encoding="utf-8") as fh:
        for i in range(docs):
            for filt in ("strict-match", "flexible-extract"):
                ok = rng.random() < 0.4
                fh.write(
                    json.dumps(
                        {
                            "doc_id": i,
                            "doc": {
                                "question": f"Question {i}: " + "word " * 40,
                                "answer": "#### 18",
                            },
                            "target": "#### 18",
                            "arguments": {
                                "gen_args_0": {
                                    "arg_0": "Question: ... " * 20,
                                    "arg_1": {"until": ["Question:"]},
                                }
                            },
                            "resps": [["The answer is 18." if ok else "The answer is 17."]],
                            "filtered_resps": ["18" if ok else "17"],
                            "filter": filt,
                            "metrics": ["exact_match"],
                            "doc_hash": f"{i:064x}",
                            "prompt_hash": f"{i:064x}",
                            "target_hash": f"{i:064x}",
                            "exact_match": float(ok),
                        }
                    )
                    + "\n"
                )
    return path


def write_inspect(folder: Path, samples: int, epochs: int, rng: random.Random) -> Path:
    path = folder / "run.eval"
    spec = {
        "task": "bench",
        "task_id": "t",
        "run_id": "r",
        "model": "org/model",
        "dataset": {"name": "bench", "samples": samples},
        "config": {"epochs": epochs},
    }
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(
            "header.json", json.dumps({"version": 2, "status": "success", "eval": spec, "plan": {}})
        )
        for e in range(1, epochs + 1):
            for i in range(samples):
                zf.writestr(
                    f"samples/{i}_epoch_{e}.json",
                    json.dumps(
                        {
                            "id": i,
                            "epoch": e,
                            "input": "Question? " * 30,
                            "target": "A",
                            "messages": [{"role": "user", "content": "Question? " * 30}],
                            "scores": {"choice": {"value": rng.choice("CI"), "answer": "A"}},
                        }
                    ),
                )
    return path


def write_helm(folder: Path, instances: int, rng: random.Random) -> Path:
    path = folder / "per_instance_stats.json"

    def stat(name, v):
        return {
            "name": {"name": name, "split": "test"},
            "count": 1,
            "sum": v,
            "sum_squared": v * v,
            "min": v,
            "max": v,
            "mean": v,
        }

    entries = [
        {
            "instance_id": f"id{i}",
            "train_trial_index": 0,
            "stats": [
                stat("num_references", 4.0),
                stat("num_prompt_tokens", 512.0),
                stat("exact_match", float(rng.random() < 0.5)),
            ],
        }
        for i in range(instances)
    ]
    path.write_text(json.dumps(entries), encoding="utf-8")
    return path


def parse_lines(path: Path) -> None:
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            json.loads(line)


def parse_zip(path: Path) -> None:
    with zipfile.ZipFile(path) as zf:
        for name in zf.namelist():
            json.loads(zf.read(name))


def parse_whole(path: Path) -> None:
    json.loads(path.read_text(encoding="utf-8"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--docs", type=int, default=100_000)
    ap.add_argument("--samples", type=int, default=5_000)
    ap.add_argument("--epochs", type=int, default=5)
    ap.add_argument("--instances", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    rng = random.Random(0)
    ctx = Context(config=Config())
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cases = [
            ("lm-eval samples", write_lmeval(folder, args.docs, rng), lmeval_samples, parse_lines),
            (
                "inspect .eval",
                write_inspect(folder, args.samples, args.epochs, rng),
                inspect_log,
                parse_zip,
            ),
            ("HELM per-instance", write_helm(folder, args.instances, rng), helm, parse_whole),
        ]
        print(f"{'format':<20}{'MB':>8}{'rows':>10}{'reader s':>10}{'json s':>10}{'ratio':>8}")
        for label, path, module, reference in cases:
            rows = module.read(path, path.name, ctx).data.n_rows
            ours = best_of(args.repeat, lambda m=module, p=path: m.read(p, p.name, ctx))
            ref = best_of(args.repeat, lambda r=reference, p=path: r(p))
            mb = path.stat().st_size / 1e6
            print(f"{label:<20}{mb:>8.1f}{rows:>10,}{ours:>10.3f}{ref:>10.3f}{ours / ref:>8.2f}")


if __name__ == "__main__":
    main()
