"""``check``'s JSON ``results`` are the same with every rule and with one family selected.

Over the real fixtures of every kind that has results (harness outputs as the
harnesses wrote them, battles, leaderboards, a real model card read with a
per-item file), the command is run once with no selection and once per rule
family (``--select BA1`` ... ``--select BA9``): the analyses run whatever rules
are selected, so ``results`` must not change. (The contamination scan is the one
producer of rows that is a rule: it reads a corpus, not a source, and runs only
when its rule is selected and a corpus is configured; none of these runs names one.)
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from benchaudit.cli import main
from benchaudit.registry import selected

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
HARNESS = DATA / "harness"

#: (name, inputs read together, a section their results must hold)
RUNS = [
    ("helm (public)", [HARNESS / "public" / "helm"], "comparisons"),
    ("helm (generated)", [HARNESS / "generated" / "helm"], "comparisons"),
    (
        "lm-eval runs and a re-run",
        [HARNESS / "generated" / "lmeval" / d for d in ("runA", "runB", "rerunA")],
        "runs",
    ),
    (
        "lm-eval runs of other configurations",
        [HARNESS / "generated" / "lmeval" / d for d in ("runA", "fewshotB", "limitC")],
        "models",
    ),
    ("lm-eval samples and results", [HARNESS / "lmeval" / "EleutherAI__pythia-160m"], "models"),
    ("inspect logs (json)", [HARNESS / "generated" / "inspect" / "json"], "comparisons"),
    ("inspect logs (eval)", [HARNESS / "generated" / "inspect" / "eval"], "comparisons"),
    ("humaneval samples (generated)", [HARNESS / "generated" / "humaneval"], "passk"),
    ("humaneval samples (public)", [HARNESS / "public" / "humaneval"], "passk"),
    ("battles", [DATA / "arena" / "arena_hard_battles_57a9881.jsonl"], "ratings"),
    (
        "leaderboards",
        [
            DATA / "arena" / "arena_hard_auto_leaderboard_2024-05-21.csv",
            DATA / "arena" / "weighted_alpaca_eval_gpt4_turbo_leaderboard.csv",
        ],
        "leaderboard",
    ),
    (
        "a model card with a per-item file",
        [DATA / "realdocs" / "docs" / "mmlu-pro-readme.md", DATA / "results" / "gsm8k_4systems.csv"],
        "comparisons",
    ),
]


@cache
def families() -> tuple[str, ...]:
    """The code prefixes of the rule families (BA1, BA2, ...), from the registry."""
    return tuple(sorted({e.code[:3] for e in selected()}))


def _results(paths: list[Path], *options: str) -> dict[str, Any]:
    got = CliRunner().invoke(
        main, ["check", *map(str, paths), "--format", "json", "--fail-on", "never", *options]
    )
    assert got.exit_code == 0, got.output[-2000:]
    out: dict[str, Any] = json.loads(got.stdout).get("results", {})
    return out


def test_every_family_is_tried() -> None:
    assert len(families()) >= 6 and all(f.startswith("BA") for f in families())


@pytest.mark.parametrize(("name", "paths", "section"), RUNS, ids=[r[0] for r in RUNS])
def test_results_do_not_depend_on_the_family_selected(
    name: str, paths: list[Path], section: str
) -> None:
    assert all(p.exists() for p in paths), paths
    every = _results(paths)
    assert every.get(section), f"{name}: no {section!r} in results"
    differ = [f for f in families() if _results(paths, "--select", f) != every]
    assert not differ, f"{name}: results differ with --select {', '.join(differ)}"
