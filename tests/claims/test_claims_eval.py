"""The labelled claim sets: recall and precision of the document rules on single lines.

Each entry of tests/data/claims_eval/claims.yaml is written to a markdown file
and audited with the rules below. A line that carries a problem counts as
caught when every expected rule fires on it at warning or error; a correct
line passes when none of these rules gives a warning or an error. The test
prints recall and precision per rule, and the coverage (numbers seen vs
claims parsed) on the real documents in claims_eval/real.

tests/data/claims_eval/fresh.yaml, labelled before the tool was run on it, is
audited with every rule: a correct line must draw no warning or error from any
rule. Its one-line entries are sentences without their document, so the two
rules that judge a whole document (claim-without-evidence, misleading-emphasis)
are scored only on its ``document:`` entries.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from benchaudit.config import Config
from benchaudit.engine import audit
from benchaudit.finding import Severity

DATA = Path(__file__).parents[1] / "data" / "claims_eval"
RULES = [
    "within-noise",
    "unpaired-comparison",
    "overlap-fallacy",
    "null-as-equivalence",
    "underpowered",
    "p-value-inconsistent",
    "multiple-comparisons",
    "winners-curse",
    "seed-interval",
    "generations-as-items",
    "wrong-chance-level",
    "biased-pass-at-k",
    "metric-mirage",
    "judge-agreement",
]


def _entries() -> list[dict]:
    return yaml.safe_load((DATA / "claims.yaml").read_text(encoding="utf-8"))["claims"]


def _audit_entries(entries: list[dict], folder: Path, config: Config, whole_document: set[str]):
    """(entry, expected rules, rules that gave a warning or error) for each entry, each audited
    as a markdown file of its own; ``whole_document`` rules are not counted on one-line entries."""
    out = []
    for i, entry in enumerate(entries):
        path = folder / f"claim_{i:03d}.md"
        path.write_text(
            (entry.get("document") or entry["text"]).rstrip("\n") + "\n", encoding="utf-8"
        )
        report = audit([str(path)], config)
        fired = {f.name for f in report.findings if f.severity >= Severity.WARNING}
        if "document" not in entry:
            fired -= whole_document
        out.append((entry, set(entry.get("expect") or []), fired))
    return out


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    return _audit_entries(_entries(), tmp_path_factory.mktemp("claims"), Config(select=RULES), set())


def test_the_set_is_large_enough_and_sourced():
    entries = _entries()
    assert len(entries) >= 60
    assert all(e.get("source") for e in entries)
    real = [e for e in entries if not str(e["source"]).startswith("constructed")]
    assert len(real) >= 15
    unknown = {r for e in entries for r in e.get("expect") or []} - set(RULES)
    assert not unknown, unknown


def test_recall_and_precision(results):
    tp, fp, fn = Counter(), Counter(), Counter()
    for _, want, got in results:
        for r in RULES:
            tp[r] += r in want and r in got
            fp[r] += r not in want and r in got
            fn[r] += r in want and r not in got
    print("\nrule                    recall  precision  (tp/fp/fn)")
    for r in RULES:
        rec = tp[r] / (tp[r] + fn[r]) if tp[r] + fn[r] else float("nan")
        prec = tp[r] / (tp[r] + fp[r]) if tp[r] + fp[r] else float("nan")
        print(f"{r:24s} {rec:6.2f} {prec:9.2f}    ({tp[r]}/{fp[r]}/{fn[r]})")
    recall, specificity, missed, noisy = _line_scores(results, "labelled set")
    # Rules that fire beyond the expected ones on a problem line.
    for e, w, g in results:
        if w and g - w:
            print("  extra: ", (e.get("text") or e["document"])[:90] + f" -> {sorted(g - w)}")
    assert recall >= 0.9, missed
    assert specificity >= 0.95, noisy


def test_coverage_on_real_documents():
    print("\ncoverage on real documents (numbers seen vs claims parsed):")
    total_seen = total_claims = 0
    for path in sorted((DATA / "real").glob("*.md")):
        if path.name == "PROVENANCE.md":
            continue
        report = audit([str(path)], Config())
        kinds = Counter()
        from benchaudit.engine import Context, load_sources

        for source in load_sources([str(path)], Context(Config())):
            kinds.update(c.kind for c in source.claims)
        total_seen += report.numbers_seen
        total_claims += report.claims_checked
        print(
            f"  {path.name}: {report.numbers_seen} numbers seen, {report.claims_checked} claims "
            f"parsed ({dict(sorted(kinds.items()))}); grade {report.grade}"
        )
        # Correct reporting must not be called impossible by the comparison rules.
        mine = [f for f in report.findings if f.name in RULES and f.severity is Severity.ERROR]
        assert not mine, [f.message for f in mine]
    assert total_seen > 0 and total_claims > 0


# ---------------------------------------------------------------- the fresh set, every rule

#: Rules that judge a whole document: a sentence quoted alone has lost the tables they read.
WHOLE_DOCUMENT = {"claim-without-evidence", "misleading-emphasis"}


def _fresh() -> list[dict]:
    return yaml.safe_load((DATA / "fresh.yaml").read_text(encoding="utf-8"))["claims"]


@pytest.fixture(scope="module")
def fresh_results(tmp_path_factory):
    return _audit_entries(_fresh(), tmp_path_factory.mktemp("fresh"), Config(), WHOLE_DOCUMENT)


def test_the_fresh_set_is_large_enough_and_sourced():
    from benchaudit.registry import all_rules

    entries = _fresh()
    assert len(entries) >= 100
    assert all(e.get("source") for e in entries)
    real = [e for e in entries if not str(e["source"]).startswith("constructed")]
    assert len(real) >= 60
    problems = [e for e in entries if e.get("expect")]
    assert 0.3 <= len(problems) / len(entries) <= 0.5
    known = set(all_rules())
    unknown = {r for e in entries for r in e.get("expect") or []} - known
    assert not unknown, unknown


def _line_scores(results, label: str) -> tuple[float, float, list[str], list[str]]:
    """Recall over problem lines and specificity over correct lines, printed with the misses
    and the false alarms."""
    problems = [(e, w, g) for e, w, g in results if w]
    clean = [(e, w, g) for e, w, g in results if not w]
    caught = [x for x in problems if x[1] <= x[2]]
    quiet = [x for x in clean if not x[2]]
    recall = len(caught) / len(problems)
    specificity = len(quiet) / len(clean)
    print(f"\n{label}: lines with a problem caught: {len(caught)}/{len(problems)} = {recall:.3f}")
    print(f"{label}: correct lines with no warning or error: {len(quiet)}/{len(clean)} = {specificity:.3f}")
    missed = [
        (e.get("text") or e["document"])[:100] + f" -> {sorted(w - g)}" for e, w, g in problems if not w <= g
    ]
    noisy = [(e.get("text") or e["document"])[:100] + f" -> {sorted(g)}" for e, _w, g in clean if g]
    for line in missed:
        print("  missed:", line)
    for line in noisy:
        print("  noisy: ", line)
    return recall, specificity, missed, noisy


def test_fresh_recall_and_specificity(fresh_results):
    recall, specificity, missed, noisy = _line_scores(fresh_results, "fresh set, every rule")
    # First pass, before any change was made for this set: 45/58 = 0.776 and 97/99 = 0.980
    # (tests/data/claims_eval/PROVENANCE.md).
    assert recall >= 0.95, missed
    assert specificity >= 0.98, noisy


# ---------------------------------------------------------------- the third set, every rule


def _fresh2() -> list[dict]:
    return yaml.safe_load((DATA / "fresh2.yaml").read_text(encoding="utf-8"))["claims"]


@pytest.fixture(scope="module")
def fresh2_results(tmp_path_factory):
    return _audit_entries(_fresh2(), tmp_path_factory.mktemp("fresh2"), Config(), WHOLE_DOCUMENT)


def _assert_sourced(entries: list[dict], total: int, real: int) -> None:
    """At least ``total`` entries, ``real`` of them quoted, each sourced; 30-50% with a problem;
    only known rules expected."""
    from benchaudit.registry import all_rules

    assert len(entries) >= total
    assert all(e.get("source") for e in entries)
    quoted = [e for e in entries if not str(e["source"]).startswith("constructed")]
    assert len(quoted) >= real
    problems = [e for e in entries if e.get("expect")]
    assert 0.3 <= len(problems) / len(entries) <= 0.5
    unknown = {r for e in entries for r in e.get("expect") or []} - set(all_rules())
    assert not unknown, unknown


def test_the_third_set_is_large_enough_and_sourced():
    _assert_sourced(_fresh2(), 150, 75)


def test_third_set_recall_and_specificity(fresh2_results):
    recall, specificity, missed, noisy = _line_scores(fresh2_results, "third set, every rule")
    # First pass, before any change was made for this set: 40/55 = 0.727 and 116/120 = 0.967
    # (tests/data/claims_eval/PROVENANCE.md).
    assert recall >= 0.95, missed
    assert specificity >= 0.98, noisy


# ---------------------------------------------------------------- the fourth set, every rule


@pytest.fixture(scope="module")
def fresh3_results(tmp_path_factory):
    entries = yaml.safe_load((DATA / "fresh3.yaml").read_text(encoding="utf-8"))["claims"]
    return _audit_entries(entries, tmp_path_factory.mktemp("fresh3"), Config(), WHOLE_DOCUMENT)


def test_the_fourth_set_is_large_enough_and_sourced():
    entries = yaml.safe_load((DATA / "fresh3.yaml").read_text(encoding="utf-8"))["claims"]
    _assert_sourced(entries, 150, 100)
    assert sum("document" in e for e in entries) >= 8


def test_fourth_set_recall_and_specificity(fresh3_results):
    tp, fp, fn = Counter(), Counter(), Counter()
    for _, want, got in fresh3_results:
        for r in want | got:
            tp[r] += r in want and r in got
            fp[r] += r not in want and r in got
            fn[r] += r in want and r not in got
    print("\nfourth set, per rule (tp/fp/fn):")
    for r in sorted(tp.keys() | fp.keys() | fn.keys()):
        print(f"  {r:24s} {tp[r]}/{fp[r]}/{fn[r]}")
    recall, specificity, missed, noisy = _line_scores(fresh3_results, "fourth set, every rule")
    # First pass, before any change was made for this set: 42/59 = 0.712 and 131/135 = 0.970
    # (tests/data/claims_eval/PROVENANCE.md). The floors hold today's figures (58/62 = 0.935
    # after the fixes made for fresh8.yaml); they rise to fresh2's (0.95 and 0.98) as the
    # misses named there are fixed.
    assert recall >= 0.93, missed
    assert specificity >= 0.97, noisy


# ------------------------------------------------- the fifth to ninth sets, every rule


@dataclass(frozen=True)
class LineSet:
    """A labelled line set audited with every rule, and the floors it must hold.

    ``history`` keeps its figures from the first pass (before any change was made for it) on;
    the floors hold today's (tests/data/claims_eval/PROVENANCE.md has each set's section)."""

    ordinal: str
    file: str
    entries: int  # at least this many lines ...
    quoted: int  # ... of which at least this many quoted from public pages
    documents: int  # and at least this many whole small documents
    recall: float
    specificity: float
    history: str


SETS = (
    LineSet("fifth", "fresh4.yaml", 180, 55, 6, 0.95, 0.98,
            "first pass 49/66 = 0.742 and 124/128 = 0.969; 51/68 and 124/126 with two labels "
            "corrected after that run; 58/68 = 0.853 after the fixes made for fresh6.yaml; "
            "65/68 = 0.956 after those made for fresh8.yaml"),
    LineSet("sixth", "fresh5.yaml", 130, 110, 6, 0.62, 0.96,
            "first pass 17/40 = 0.425 and 87/92 = 0.946; 18/40 and 89/92 after the fixes of batch "
            "12's wrong findings; 23/40 = 0.575 after those made for fresh7.yaml; 25/40 = 0.625 "
            "after those made for fresh8.yaml"),
    LineSet("seventh", "fresh6.yaml", 100, 70, 6, 0.82, 0.98,
            "first pass 16/41 = 0.390 and 65/69 = 0.942; 32/41 and 68/69 after that round's "
            "fixes; 33/41 = 0.805 after those made for fresh7.yaml; 34/41 = 0.829 after those "
            "made for fresh8.yaml"),
    LineSet("eighth", "fresh7.yaml", 110, 65, 6, 0.88, 0.99,
            "first pass 29/42 = 0.690 and 72/73 = 0.986; 36/42 = 0.857 and 73/73 after that "
            "round's fixes; 37/42 = 0.881 after those made for fresh8.yaml"),
    LineSet("ninth", "fresh8.yaml", 110, 60, 6, 0.85, 0.99,
            "first pass 27/40 = 0.675 and 72/74 = 0.973; 34/40 = 0.850 and 74/74 after that "
            "round's fixes"),
)


def _set_entries(line_set: LineSet) -> list[dict]:
    return yaml.safe_load((DATA / line_set.file).read_text(encoding="utf-8"))["claims"]


@pytest.mark.parametrize("line_set", SETS, ids=lambda s: s.ordinal)
def test_each_later_set_is_large_enough_and_sourced(line_set: LineSet):
    entries = _set_entries(line_set)
    _assert_sourced(entries, line_set.entries, line_set.quoted)
    assert sum("document" in e for e in entries) >= line_set.documents


@pytest.mark.parametrize("line_set", SETS, ids=lambda s: s.ordinal)
def test_each_later_set_recall_and_specificity(line_set: LineSet, tmp_path):
    audited = _audit_entries(_set_entries(line_set), tmp_path, Config(), WHOLE_DOCUMENT)
    recall, specificity, missed, noisy = _line_scores(audited, f"{line_set.ordinal} set, every rule")
    assert recall >= line_set.recall, (line_set.history, missed)
    assert specificity >= line_set.specificity, (line_set.history, noisy)
