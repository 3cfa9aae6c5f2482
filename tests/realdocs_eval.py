"""Precision and recall of benchaudit on the real-document corpus.

Runs the engine on every document of ``tests/data/realdocs``, matches each
error and warning with the hand verdicts of the document's truth file, and
each listed problem with the findings (see ``tests/data/realdocs/README.md``).
``python tests/realdocs_eval.py`` prints the table and every unjudged finding
in the truth-file format, ready to be judged; ``--batch 2`` limits the run.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from benchaudit import __version__

ROOT = Path(__file__).parent / "data" / "realdocs"
LINE_SLACK = 3


@dataclass
class DocResult:
    slug: str
    kind: str
    batch: int
    right: int = 0
    wrong: int = 0
    debatable: int = 0
    unjudged: list = field(default_factory=list)
    problems: int = 0
    found: int = 0
    missed: list = field(default_factory=list)
    wrong_list: list = field(default_factory=list)
    #: Verdicts counted once per finding as printed: a table's finding that lists cells takes its
    #: worst cell's verdict (unjudged < wrong < debatable < right).
    findings: dict = field(default_factory=lambda: {"right": 0, "wrong": 0, "debatable": 0, "unjudged": 0})


def truth_files() -> list[Path]:
    return sorted((ROOT / "truth").glob("*.yaml"))


def _matches(entry: dict, finding, is_pdf: bool) -> bool:
    if entry.get("rule") != finding.name:
        return False
    match = str(entry.get("match", ""))
    text = f"{finding.claim or ''}\n{finding.message}"
    if match and match not in text:
        return False
    page = entry.get("page")
    if is_pdf and page is not None and finding.location.page is not None:
        return int(page) == int(finding.location.page)
    line = entry.get("line")
    if line is not None and finding.location.line is not None and not is_pdf:
        # A table's finding lists its cells, each on its own line (evidence "lines").
        lines = [finding.location.line, *finding.evidence.get("lines", ())]
        return any(abs(int(line) - int(at)) <= LINE_SLACK for at in lines)
    return True


def _claims_of(finding) -> list:
    """What a finding claims, one judgment each: itself, or, for a table's finding that lists
    its cells (evidence "cells" with their "claim", "text" and "line"), each cell. A table's
    finding is as right as each cell it names, and counting cells keeps the figures comparable
    with the rounds when each cell was its own finding."""
    from types import SimpleNamespace

    from benchaudit.finding import Location

    cells = finding.evidence.get("cells") or []
    if not finding.evidence.get("lines") or not all(isinstance(c, dict) and c.get("claim") for c in cells):
        return [finding]
    return [
        SimpleNamespace(
            name=finding.name,
            severity=finding.severity,
            claim=c["claim"],
            message=c.get("text", ""),
            evidence={},
            location=Location(finding.location.file, c.get("line"), None, finding.location.page),
        )
        for c in cells
    ]


def evaluate(truth_path: Path) -> DocResult:
    from benchaudit.engine import audit

    truth = yaml.safe_load(truth_path.read_text("utf-8"))
    doc = ROOT / truth["document"]
    is_pdf = doc.suffix.lower() == ".pdf"
    result = DocResult(truth_path.stem, "pdf" if is_pdf else "markdown", int(truth.get("batch", 1)))
    report = audit([str(doc)])
    serious = [f for f in report.findings if f.severity.label in ("error", "warning")]
    verdicts = truth.get("verdicts") or []
    problems = truth.get("problems") or []
    rank = {"unjudged": 0, "wrong": 1, "debatable": 2, "right": 3}
    for whole in serious:
        worst = "right"
        for f in _claims_of(whole):
            entry = next((v for v in verdicts if _matches(v, f, is_pdf)), None)
            if entry is None and any(_matches(p, f, is_pdf) for p in problems):
                # A finding on a problem the reviewer listed is judged right by that entry.
                verdict = "right"
                result.right += 1
            elif entry is None:
                verdict = "unjudged"
                result.unjudged.append(f)
            elif entry["verdict"] == "right":
                verdict = "right"
                result.right += 1
            elif entry["verdict"] == "debatable":
                verdict = "debatable"
                result.debatable += 1
            else:
                verdict = "wrong"
                result.wrong += 1
                result.wrong_list.append((f, entry))
            worst = min(worst, verdict, key=rank.__getitem__)
        result.findings[worst] += 1
    for p in problems:
        result.problems += 1
        want_any = str(p.get("severity", "warning")) == "info"
        pool = report.findings if want_any else serious
        if any(_matches(p, f, is_pdf) for f in pool):
            result.found += 1
        else:
            result.missed.append(p)
    return result


@dataclass
class Totals:
    right: int = 0
    wrong: int = 0
    debatable: int = 0
    unjudged: int = 0
    problems: int = 0
    found: int = 0
    findings: dict = field(default_factory=lambda: {"right": 0, "wrong": 0, "debatable": 0, "unjudged": 0})

    def add(self, r: DocResult) -> None:
        for k, v in r.findings.items():
            self.findings[k] += v
        self.right += r.right
        self.wrong += r.wrong
        self.debatable += r.debatable
        self.unjudged += len(r.unjudged)
        self.problems += r.problems
        self.found += r.found

    @property
    def flagged(self) -> int:
        return self.right + self.wrong + self.debatable + self.unjudged

    @property
    def strict(self) -> float:
        """Right over everything flagged; debatable and unjudged count as not right."""
        return self.right / self.flagged if self.flagged else 1.0

    @property
    def strict_per_finding(self) -> float:
        """Strict precision counting each finding once as printed (a table's finding by its
        worst cell)."""
        total = sum(self.findings.values())
        return self.findings["right"] / total if total else 1.0

    @property
    def lenient(self) -> float:
        return (self.right + self.debatable) / self.flagged if self.flagged else 1.0

    @property
    def recall(self) -> float:
        return self.found / self.problems if self.problems else 1.0

    def line(self, name: str) -> str:
        return (
            f"{name:<22} flagged {self.flagged:>4}  right {self.right:>3}  wrong {self.wrong:>3}  "
            f"debatable {self.debatable:>3}  unjudged {self.unjudged:>3}  "
            f"precision strict {self.strict:.2f} lenient {self.lenient:.2f}  "
            f"recall {self.found}/{self.problems} = {self.recall:.2f}  "
            f"per finding {self.findings['right']}/{sum(self.findings.values())} = "
            f"{self.strict_per_finding:.2f}"
        )


def summarise(results: list[DocResult]) -> dict[str, Totals]:
    groups: dict[str, Totals] = {}
    for r in results:
        for key in ("all", f"batch {r.batch}", r.kind, f"{r.kind} batch {r.batch}"):
            groups.setdefault(key, Totals()).add(r)
    return groups


def _yaml_entry(f) -> str:
    claim = (f.claim or "").replace('"', "'")[:60]
    where = f"    page: {f.location.page}\n" if f.location.page else ""
    return (
        f"  - rule: {f.name}\n    severity: {f.severity.label}\n{where}    line: {f.location.line}\n"
        f'    match: "{claim}"\n    verdict: \n    reason: >-\n      {f.message}\n'
        f'    judged_against: "{__version__}"\n'
    )


def evaluate_all(paths: list[Path]) -> list[DocResult]:
    """:func:`evaluate` on every truth file, in order, spread over the machine's cores (each
    document is audited alone, so the results do not depend on how they are spread)."""
    import os
    from concurrent.futures import ProcessPoolExecutor

    workers = min(len(paths), len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)
    if workers < 2:
        return [evaluate(p) for p in paths]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        # The PDFs are slowest: long jobs first, so no core idles at the end.
        order = sorted(range(len(paths)), key=lambda i: -_cost(paths[i]))
        done = dict(zip(order, pool.map(evaluate, [paths[i] for i in order])))
    return [done[i] for i in range(len(paths))]


def _cost(truth_path: Path) -> int:
    document = yaml.safe_load(truth_path.read_text("utf-8"))["document"]
    return (ROOT / document).stat().st_size


def main(argv: list[str]) -> int:
    batch = int(argv[argv.index("--batch") + 1]) if "--batch" in argv else None
    only = [a for a in argv if not a.startswith("--") and not a.isdigit()]
    paths = [p for p in truth_files() if not only or p.stem in only]
    results = [r for r in evaluate_all(paths) if batch is None or r.batch == batch]
    for r in results:
        print(
            f"{r.slug:<32} {r.kind:<8} b{r.batch} right {r.right} wrong {r.wrong} "
            f"debatable {r.debatable} unjudged {len(r.unjudged)} found {r.found}/{r.problems}"
        )
    for name, t in sorted(summarise(results).items()):
        print(t.line(name))
    if "--show" in argv:
        for r in results:
            if r.unjudged:
                print(f"\n# {r.slug}: unjudged")
                print("".join(_yaml_entry(f) for f in r.unjudged))
            for f, entry in r.wrong_list:
                print(f"# {r.slug}: WRONG {f.name} {f.severity.label} {f.location.line} p{f.location.page} {entry.get('reason','')[:150]}")
                print(f"#    message: {f.message[:200]}")
            for p in r.missed:
                print(f"# {r.slug}: missed {p.get('rule')} line {p.get('line')} {str(p.get('description',''))[:150]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
