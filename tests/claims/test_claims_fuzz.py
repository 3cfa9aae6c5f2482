"""The whole document path on generated documents: it never crashes, whatever the mix."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchaudit.config import Config
from benchaudit.engine import audit

FRAGMENTS = [
    "We reach",
    "the model scores",
    "on",
    "of",
    "HumanEval",
    "GSM8K",
    "AIME 2024",
    "MATH-500",
    "(164 problems)",
    "n = 500",
    "on 1,000 questions",
    "averaged over 64 samples",
    "avg@8",
    "maj@64",
    "pass@10",
    "greedy",
    "±",
    "(95% CI",
    ")",
    "–",
    "from",
    "to",
    "a",
    "improvement",
    "by",
    "points",
    "relative",
    "%",
    ".",
    ",",
    ";",
    "|",
    "\n",
    "\n\n",
    "| Model | HumanEval |",
    "|---|---|",
    "**",
    "[12]",
    "7B",
    "2024",
    "v1.2",
    "0",
    "100",
    "101",
    "1,000,000",
    "1e9",
]


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.one_of(st.sampled_from(FRAGMENTS), st.decimals(0, 200, places=2).map(str)),
        min_size=1,
        max_size=40,
    )
)
def test_audit_never_crashes(tmp_path, parts):
    path = tmp_path / "doc.md"
    text = " ".join(parts)
    if not text.strip():
        text = "x"
    path.write_text(text, encoding="utf-8")
    report = audit([str(path)], Config(select=["BA1"]))
    for f in report.findings:
        if f.severity.label != "info":
            assert f.suggestion
