"""The engine: read inputs, select rules, run them, filter, sort and grade.

Nothing here knows any single rule. Per-item analyses that belong in the
report's ``results`` (per-model intervals, comparisons, ratings ...) are
computed by the source's data object, if it offers ``report_results(ctx)``,
whether or not a rule reads them.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchaudit import inputs, limits
from benchaudit.config import Config
from benchaudit.errors import BenchauditError, InputError, UnknownKindError
from benchaudit.evidence import Source
from benchaudit.finding import Finding, Report, assign_fingerprints
from benchaudit.registry import Rule, select


@dataclass
class Context:
    """What rules and readers may consult besides the source itself."""

    config: Config
    results: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    _benchmarks: Any = None

    @property
    def seed(self) -> int:
        return self.config.seed

    @property
    def alpha(self) -> float:
        return self.config.alpha

    @property
    def benchmarks(self):
        """The benchmark registry, loaded on first use."""
        if self._benchmarks is None:
            from benchaudit.benchmarks import Registry

            self._benchmarks = Registry.load(overrides=self.config.n)
        return self._benchmarks

    def add_results(self, section: str, rows: list[dict[str, Any]]) -> None:
        self.results.setdefault(section, []).extend(rows)


def load_sources(paths: list[str], ctx: Context) -> list[Source]:
    sources: list[Source] = []
    expanded = inputs.expand(paths)
    if not expanded:
        raise BenchauditError("no input files to check")
    for path, display, named in expanded:
        try:
            sources.extend(inputs.load(path, display, ctx, ctx.config.kind))
        except UnknownKindError as exc:
            if named:
                raise
            ctx.notes.append(f"skipped {display}: {exc.detail}")
    return sources


def _ignored_by_file(f: Finding, cfg: Config) -> bool:
    for pattern, names in cfg.per_file_ignores.items():
        if fnmatch.fnmatch(f.location.file, pattern) or fnmatch.fnmatch(
            Path(f.location.file).name, pattern
        ):
            if any(n in (f.name, f.code) or n == "*" for n in names):
                return True
    return False


def run_rules(rules: list[Rule], sources: list[Source], ctx: Context) -> list[Finding]:
    findings: list[Finding] = []
    for rule in rules:
        if not any(s.kind in rule.reads for s in sources) and rule.reads:
            continue
        findings.extend(rule.check_run(sources, ctx))
    return findings


def audit(paths: list[str], config: Config | None = None) -> Report:
    """Audit ``paths`` and return the report (findings sorted, fingerprinted)."""
    cfg = config or Config()
    ctx = Context(config=cfg)
    rule_classes = select(cfg.select, cfg.ignore)
    sources = load_sources(paths, ctx)
    for source in sources:
        report_results = getattr(source.data, "report_results", None)
        if callable(report_results):
            for section, rows in report_results(ctx).items():
                ctx.add_results(section, rows)
    rules = [cls(cfg.rule_options(cls.name)) for cls in rule_classes]
    findings = [f for f in run_rules(rules, sources, ctx) if not _ignored_by_file(f, cfg)]

    from benchaudit import suppress

    findings = suppress.apply_inline(findings, sources)
    findings.sort(key=Finding.sort_key)
    assign_fingerprints(findings)
    if cfg.baseline:
        findings = suppress.apply_baseline(
            findings, cfg.baseline, limits.of(cfg).max_baseline_bytes
        )

    report = Report(findings=findings, results=ctx.results, notes=ctx.notes)
    report.files = [s.path for s in sources]
    report.claims_checked = sum(len(s.claims) for s in sources)
    report.numbers_seen = sum(s.numbers_seen for s in sources)
    scores = [c for s in sources for c in s.claims if c.kind == "score"]
    report.scores_read = len(scores)
    report.scores_with_n = sum(1 for c in scores if c.n)
    unknown: list[str] = []
    for s in sources:
        unknown.extend(str(x) for x in s.meta.get("unknown_benchmarks", ()))
    unknown.extend(str(c.benchmark) for c in scores if c.benchmark and not c.n)
    report.unknown_benchmarks = sorted(set(unknown), key=str.lower)
    # Data files are always assessed; a document only when a claim could be read from it.
    report.assessed = any(s.claims or s.kind != "document" for s in sources)
    return report


def exit_code(report: Report, fail_on: str) -> int:
    if fail_on == "never":
        return 0
    from benchaudit.finding import Severity

    threshold = Severity.parse(fail_on)
    worst = report.worst()
    return 1 if worst is not None and worst >= threshold else 0


__all__ = ["Context", "audit", "exit_code", "load_sources", "InputError"]
