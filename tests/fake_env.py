"""A tiny reader and rule, so tests of the engine's plumbing (suppressions,
baselines, writers, the command line) do not depend on any real rule's wording.

``install(monkeypatch)`` makes every ``.md``, ``.txt``, ``.csv`` and ``.html``
file a document whose lines containing ``87.3%`` are errors of the rule
``test-unreachable`` (BA199) and lines containing ``within noise`` are
warnings of ``test-noise`` (BA299).
"""

from __future__ import annotations

import re
from pathlib import Path

from benchaudit import inputs, registry
from benchaudit.evidence import Claim, Source
from benchaudit.finding import Location, Severity
from benchaudit.registry import Rule


class FakeUnreachable(Rule):
    """Flags 87.3% (a test double).

    Bad::

        87.3%

    Better::

        87.2%
    """

    code = "BA199"
    name = "test-unreachable"
    severity = Severity.ERROR
    reads = ("document",)

    def check(self, source, ctx):
        for claim in source.claims:
            if "87.3%" in claim.text:
                yield self.finding(
                    claim.location,
                    "87.3% is not k/164 for any k",
                    claim=claim,
                    suggestion="87.2% (143/164)",
                    evidence={"n": 164},
                )


class FakeNoise(Rule):
    """Flags 'within noise' (a test double).

    Bad::

        within noise

    Better::

        clear
    """

    code = "BA299"
    name = "test-noise"
    severity = Severity.WARNING
    reads = ("document",)

    def check(self, source, ctx):
        for claim in source.claims:
            if "within noise" in claim.text:
                yield self.finding(
                    claim.location,
                    "gain within noise",
                    claim=claim,
                    suggestion="say 'no detectable difference'",
                    evidence={"p_value": 0.29},
                )


def _sniff(probe) -> float:
    return 1.0 if probe.suffix in (".md", ".txt", ".csv", ".html") else 0.0


def _read(path: Path, display: str, ctx) -> Source:
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    bare = [re.sub(r"<!--.*?-->|#\s*benchaudit:.*", "", line).strip() for line in lines]
    claims = [
        Claim(kind="score", text=text, location=Location(display, i + 1, 1))
        for i, text in enumerate(bare)
        if text
    ]
    return Source(
        path=display,
        kind="document",
        claims=claims,
        lines=lines,
        numbers_seen=sum(c.text.count("%") for c in claims),
    )


def install(monkeypatch) -> None:
    import benchaudit.rules.suppressions.stale_suppression as stale
    import benchaudit.rules.suppressions.suppression_without_reason as no_reason

    reader = inputs.Reader("document", _sniff, _read, "test documents")
    monkeypatch.setattr(inputs, "_READERS", [reader])
    if hasattr(inputs, "FAST_PATH"):  # detection's shortcut for markdown skips _READERS
        monkeypatch.setattr(inputs, "FAST_PATH", {})
    table = {
        cls.name: cls
        for cls in (
            FakeUnreachable,
            FakeNoise,
            no_reason.SuppressionWithoutReason,
            stale.StaleSuppression,
        )
    }
    monkeypatch.setattr(
        registry, "_REGISTRY", dict(sorted(table.items(), key=lambda kv: kv[1].code))
    )
