"""``results`` is made by the analyses, once per source: the rules selected change nothing in it.

For every input kind that has results, the report's ``results`` with every rule,
with one rule that reads something else (``--select``), and with the rules that
read the kind switched off (``--ignore``) are the same JSON.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchaudit.config import Config
from benchaudit.engine import audit
from benchaudit.registry import selected

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"

#: (input kind, files read together, a section of results the kind makes)
CASES = [
    ("results", [ROOT / "examples" / "scores.csv"], "comparisons"),
    ("scaled-results", [DATA / "fastchat" / "gpt-4_single.jsonl"], "scale_means"),
    ("judgments (pairs)", [DATA / "fastchat" / "gpt-4_pair.jsonl"], "position_bias"),
    ("judgments (labels)", [DATA / "arena" / "judge_vs_human_65_20_5_10.csv"], "agreement"),
    ("battles", [DATA / "arena" / "arena_hard_battles_57a9881.jsonl"], "ratings"),
    ("leaderboard", [DATA / "arena" / "arena_hard_auto_leaderboard_2024-05-21.csv"], "leaderboard"),
    ("scaling", [DATA / "metrics" / "pythia_step143000_summary.csv"], "scaling"),
    ("harness-summary", sorted((DATA / "metrics" / "pythia_zero_shot").glob("*.json")), "scaling"),
    ("samples", [DATA / "metrics" / "humaneval" / "example_samples.jsonl_results.jsonl"], "passk"),
    ("calibration", [DATA / "metrics" / "calibration" / "overconfident.csv"], "calibration"),
]

#: Kinds whose rules the ignore list switches off.
DATA_KINDS = {
    "results",
    "scaled-results",
    "samples",
    "judgments",
    "battles",
    "leaderboard",
    "scaling",
    "harness-summary",
    "calibration",
}


def _results(paths: list[Path], **options: object) -> dict[str, object]:
    report = audit([str(p) for p in paths], Config(**options), on_error="report")  # type: ignore[arg-type]
    assert not report.errors, report.errors
    return dict(report.to_dict()["results"])


@pytest.mark.parametrize(("kind", "paths", "section"), CASES, ids=[c[0] for c in CASES])
def test_results_are_the_same_whatever_rules_run(
    kind: str, paths: list[Path], section: str
) -> None:
    assert paths and all(p.exists() for p in paths)
    every = _results(paths)
    assert every.get(section), f"{kind}: no {section!r} in results"
    # A rule that reads documents only: none of the kind's rules runs.
    assert _results(paths, select=["excess-precision"]) == every
    # The rules that read the kind switched off one by one, by the ignore list.
    readers = [e.name for e in selected() if set(e.reads) & DATA_KINDS]
    assert _results(paths, ignore=readers) == every


def test_scaling_curves_of_harness_files_keep_their_rows_with_any_rule() -> None:
    """The case that used to differ: curves built from several lm-eval results files."""
    paths = sorted((DATA / "metrics" / "pythia_zero_shot").glob("*.json"))
    every = _results(paths)["scaling"]
    assert isinstance(every, list) and len(every) > 0
    assert _results(paths, select=["constant-score"])["scaling"] == every
