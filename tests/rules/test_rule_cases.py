"""Run every YAML case file in tests/rules/cases against its rule.

A case file names one rule and lists cases; it sits in the folder of the rule's
family (``tests/rules/cases/reporting/unreachable-score.yaml`` for
``rules/reporting/unreachable_score.py``). Each case writes its input file(s)
into a temporary folder, runs the engine with only that rule selected, and
compares the rule's findings with ``expect``::

    rule: unreachable-score
    cases:
      - name: humaneval 87.3 is not k/164
        files: {card.md: "We reach 87.3% on HumanEval."}
        config: {n: {my-bench: 250}}        # optional, as in [tool.benchaudit]
        expect:
          - {line: 1, severity: error, message_contains: "164"}
      - name: reachable value passes
        files: {card.md: "We reach 87.2% on HumanEval."}
        expect: []

``expect`` lists every finding of the rule, infos included, in order: ``expect: []``
means the rule says nothing at all. A case about warnings and errors only says
so with ``min_severity: warning`` (or ``error``); then infos at lower levels are
not compared. Each entry matches on the keys it gives: line, severity,
confidence, message_contains, suggestion_contains, claim_contains, evidence (a
subset of the evidence dict). A long per-item file is given as a spec that
``tests/rules/case_fixtures.py`` turns into text. Unknown keys in a case or an entry are an error,
so a misspelt key cannot make a case pass unchecked.
"""

from __future__ import annotations

from pathlib import Path

import case_fixtures
import pytest
import yaml

from benchaudit.config import Config, apply
from benchaudit.engine import audit
from benchaudit.finding import Severity

CASES = Path(__file__).parent / "cases"

CASE_KEYS = {"name", "files", "config", "expect", "min_severity", "include_info"}
ENTRY_KEYS = {
    "line",
    "severity",
    "confidence",
    "message_contains",
    "suggestion_contains",
    "claim_contains",
    "evidence",
}


def _floor(case: dict) -> Severity:
    """The lowest severity a case compares: every finding unless it says otherwise."""
    # ``include_info: true`` is the default now; ``false`` is the old way to say "warnings up".
    if case.get("include_info") is False:
        return Severity.WARNING
    return Severity.parse(case.get("min_severity", "info"))


def _load():
    for path in sorted(CASES.glob("*/*.yaml"), key=lambda p: p.name):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        for i, case in enumerate(doc.get("cases", [])):
            yield pytest.param(doc["rule"], case, id=f"{path.stem}:{i}:{case.get('name', '')}")


def _matches(finding, want: dict) -> bool:
    d = finding.to_dict()
    for key, value in want.items():
        if key == "message_contains":
            if value.lower() not in finding.message.lower():
                return False
        elif key == "suggestion_contains":
            if value.lower() not in (finding.suggestion or "").lower():
                return False
        elif key == "claim_contains":
            if value.lower() not in (finding.claim or "").lower():
                return False
        elif key == "evidence":
            for ek, ev in value.items():
                if d["evidence"].get(ek) != ev:
                    return False
        elif d.get(key) != value:
            return False
    return True


@pytest.mark.parametrize("rule,case", list(_load()))
def test_rule_case(rule, case, tmp_path):
    assert set(case) <= CASE_KEYS, f"unknown case key(s) {sorted(set(case) - CASE_KEYS)}"
    for w in case.get("expect", []):
        assert set(w) <= ENTRY_KEYS, f"unknown expect key(s) {sorted(set(w) - ENTRY_KEYS)}"
    names = []
    for name, value in case["files"].items():
        target = tmp_path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(case_fixtures.content(value), encoding="utf-8")
        names.append(str(target))
    cfg = apply(Config(), dict(case.get("config", {})), "case")
    cfg.select = [rule]
    report = audit(names, cfg)
    floor = _floor(case)
    got = [f for f in report.findings if f.name == rule and f.severity >= floor]
    want = case.get("expect", [])
    summary = [(f.location.line, f.severity.label, f.message) for f in got]
    assert len(got) == len(want), f"expected {len(want)} finding(s), got {summary}"
    for f, w in zip(got, want):
        assert _matches(f, w), f"finding {f.to_dict()} does not match {w}"
    for f in got:
        if f.severity >= Severity.WARNING:
            assert f.suggestion, f"{rule}: a warning or error needs a suggestion"


def test_every_rule_has_a_case_file_in_its_family_folder():
    """``rules/<family>/<module>.py`` is tested by ``tests/rules/cases/<family>/<name>.yaml``."""
    from benchaudit.registry import all_rules

    have = {p.stem: p.parent.name for p in CASES.glob("*/*.yaml")}
    missing = sorted(set(all_rules()) - set(have))
    assert not missing, f"rules without tests/rules/cases/<family>/<name>.yaml: {missing}"
    for name, cls in all_rules().items():
        family = cls.__module__.split(".")[2]
        assert have[name] == family, f"{name}'s case file belongs in tests/rules/cases/{family}/"
    assert not list(CASES.glob("*.yaml")), "case files go in the folder of their rule's family"
