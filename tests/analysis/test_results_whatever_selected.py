"""``results`` is made by the analyses (and the contamination scan), once: the rules selected change nothing in it.

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

ROOT = Path(__file__).resolve().parents[2]
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


def _contaminated(tmp_path: Path) -> tuple[list[Path], dict[str, object]]:
    """A card, a two-item benchmark and a shard that holds one item word for word."""
    question = (
        "Natalia sold clips to 48 of her friends in April, and then she sold half as many "
        "clips to her friends in May. How many clips did Natalia sell altogether?"
    )
    bench = tmp_path / "bench.jsonl"
    bench.write_text(
        f'{{"question": "{question}"}}\n'
        '{"question": "Weng earns 12 dollars an hour for babysitting. How much did she earn?"}\n',
        encoding="utf-8",
    )
    (tmp_path / "shard.txt").write_text(f"A forum post.\n\n{question} I think 72.\n", encoding="utf-8")
    card = tmp_path / "card.md"
    card.write_text("We reach 71.2% on GSM8K.\n", encoding="utf-8")
    return [card], {"benchmark": str(bench), "corpus": [str(tmp_path / "shard.txt")]}


def test_contamination_hits_are_evidence_made_whatever_rules_run(tmp_path: Path) -> None:
    """The scan the configuration asks for runs once, before the rules: its row and notes
    are in the report with the contamination rule selected, not selected, or ignored."""
    paths, scan = _contaminated(tmp_path)
    every = audit([str(p) for p in paths], Config(**scan))  # type: ignore[arg-type]
    row = every.to_dict()["results"]["contamination"]
    assert isinstance(row, list) and row[0]["contaminated"] == 1
    assert [f.name for f in every.findings if f.name == "contamination"] == ["contamination"]
    said = [n for n in every.notes if n.startswith("contamination:")]
    assert said
    for options in ({"select": ["excess-precision"]}, {"ignore": ["contamination"]}):
        other = audit([str(p) for p in paths], Config(**scan, **options))  # type: ignore[arg-type]
        assert other.to_dict()["results"] == every.to_dict()["results"], options
        assert [n for n in other.notes if n.startswith("contamination:")] == said
        assert not [f for f in other.findings if f.name == "contamination"]
    ignored = audit([str(p) for p in paths], Config(**scan, ignore=["contamination"]))  # type: ignore[arg-type]
    assert [h.finding.name for h in ignored.suppressed] == ["contamination"]


def test_no_corpus_no_scan(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The scan is paid for only when the configuration names a corpus."""
    import benchaudit.contamination.audit as scan

    def refuse(settings: object) -> None:
        raise AssertionError("the contamination scan ran without a corpus")

    monkeypatch.setattr(scan, "run", refuse)
    paths, _ = _contaminated(tmp_path)
    report = audit([str(p) for p in paths], Config())
    assert "contamination" not in report.results
