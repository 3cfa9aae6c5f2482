"""Each rule's docstring is its documentation, and its examples are tested.

A docstring gives ``Bad::`` and ``Better::`` blocks (indented). The bad block
must trigger the rule at warning or above, the better block must not. A block
header may name the file to write, for rules on data files:
``Bad (scores.csv)::``. Rules whose examples need several files mark them
``Bad (not runnable)::``.
"""

from __future__ import annotations

import re
import textwrap

import pytest

from benchaudit.config import Config
from benchaudit.engine import audit
from benchaudit.finding import Severity
from benchaudit.registry import all_rules

BLOCK = re.compile(r"^(Bad|Better)(?: \(([^)]*)\))?::\n\n((?:(?:    .*)?\n)+)", re.M)


def _examples():
    for name, cls in all_rules().items():
        doc = cls.documentation() + "\n"
        for m in BLOCK.finditer(doc):
            kind, fname, body = m.group(1), m.group(2) or "example.md", m.group(3)
            if fname == "not runnable":
                continue
            yield pytest.param(
                name,
                kind,
                fname,
                textwrap.dedent(body).strip("\n") + "\n",
                id=f"{name}-{kind.lower()}",
            )


def test_every_rule_documents_what_why_and_examples():
    for name, cls in all_rules().items():
        doc = cls.documentation()
        assert cls.summary(), f"{name}: docstring needs a summary line"
        assert "Bad" in doc and "Better" in doc, f"{name}: docstring needs Bad:: and Better::"
        assert re.fullmatch(r"BA\d{3}", cls.code), f"{name}: code {cls.code}"
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", name), name


@pytest.mark.parametrize("rule,kind,fname,body", list(_examples()))
def test_docstring_example(rule, kind, fname, body, tmp_path):
    path = tmp_path / fname
    path.write_text(body, encoding="utf-8")
    cfg = Config(select=[rule])
    report = audit([str(path)], cfg)
    hits = [f for f in report.findings if f.name == rule and f.severity >= Severity.WARNING]
    if kind == "Bad":
        assert hits, f"{rule}: its Bad example does not trigger it"
    else:
        assert not hits, f"{rule}: its Better example triggers it: {[f.message for f in hits]}"
