"""``results`` is the same JSON with no selection and with each single rule selected.

One ``check`` over a representative set of inputs read together (a per-item CSV, a
battles file, a leaderboard and a document): the ``results`` section of the JSON
report with every rule, and with ``--select`` naming each rule of the catalogue in
turn, is the same. Through the command line for no selection and one selection, and
through :func:`benchaudit.engine.audit` for every rule (the same engine, without a
process per rule).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from benchaudit.config import Config
from benchaudit.engine import audit
from benchaudit.registry import selected

ROOT = Path(__file__).resolve().parents[2]
INPUTS = [
    ROOT / "examples" / "scores.csv",
    ROOT / "tests" / "data" / "arena" / "arena_hard_battles_57a9881.jsonl",
    ROOT / "tests" / "data" / "arena" / "arena_hard_auto_leaderboard_2024-05-21.csv",
    ROOT / "examples" / "model_card.md",
]


def _cli_results(*extra: str) -> object:
    out = subprocess.run(
        [sys.executable, "-m", "benchaudit", "check", *map(str, INPUTS), "--format", "json",
         "--fail-on", "never", *extra],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)["results"]


def _results(select: list[str] | None = None) -> object:
    config = Config(select=select) if select else Config()
    report = audit([str(p) for p in INPUTS], config, on_error="report")
    assert not report.errors, report.errors
    # Through the JSON writer, as the command line prints it.
    return json.loads(json.dumps(report.to_dict()["results"], default=str))


def test_results_do_not_depend_on_the_rules_selected() -> None:
    every = _cli_results()
    # Every kind of input made its part of results.
    for section in ("models", "comparisons", "ratings", "leaderboard"):
        assert every.get(section), section  # type: ignore[union-attr]
    assert _cli_results("--select", "within-noise") == every
    assert _results() == every
    names = [e.name for e in selected()]
    assert len(names) > 30
    differ = [name for name in names if _results([name]) != every]
    assert differ == [], f"results change when only these rules run: {differ}"
