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
from benchaudit.evidence import Claim, Source
from benchaudit.finding import Finding, Report, Suppressed, assign_fingerprints
from benchaudit.registry import AfterSuppressions, Note, Rule, load_entry, select, selected


@dataclass
class Context:
    """What rules and readers may consult besides the source itself."""

    config: Config
    results: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    #: Inputs that could not be read: each is one line in the report, and exit code 2.
    errors: list[InputError] = field(default_factory=list)
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
        joined = getattr(rows, "joined", None)  # columns (many pairs) stay columns
        if section not in self.results and callable(joined):
            self.results[section] = joined()
        else:
            self.results.setdefault(section, []).extend(rows)


def load_sources(paths: list[str], ctx: Context) -> list[Source]:
    """Read every input; one that cannot be read never hides the others.

    A file that cannot be read, or that no reader recognises, is recorded in
    ``ctx.errors`` (the run then ends with exit code 2) and the rest are still
    read. Met while walking a directory (or with ``skip_unknown``, as the
    pre-commit hook runs), a file of no kind benchaudit knows, or an empty one,
    is skipped with a note instead.
    """
    sources: list[Source] = []
    expanded = inputs.expand(paths, ctx.notes)
    if not expanded:
        where = ", ".join(paths)
        raise BenchauditError(
            f"no input files to check in {where} (benchaudit reads "
            f"{', '.join(sorted(inputs.WALK_SUFFIXES))})"
        )
    for path, display, named in expanded:
        try:
            sources.extend(inputs.load(path, display, ctx, ctx.config.kind, named))
        except InputError as exc:
            skippable = isinstance(exc, UnknownKindError) or exc.detail == inputs.EMPTY
            if skippable and (not named or ctx.config.skip_unknown):
                ctx.notes.append(f"skipped {display}: {exc.detail}")
            else:
                ctx.errors.append(exc)
    return sources


def _ignored_by_file(f: Finding, cfg: Config) -> bool:
    return _file_ignore(f, cfg) is not None


def _file_ignore(f: Finding, cfg: Config) -> str | None:
    """The per-file-ignores entry that hides ``f`` ("pattern: name"), or None."""
    from benchaudit.config import is_broad

    for pattern, names in cfg.per_file_ignores.items():
        if fnmatch.fnmatch(f.location.file, pattern) or fnmatch.fnmatch(
            Path(f.location.file).name, pattern
        ):
            for n in names:
                broad = is_broad(n) and f.code.lower().startswith(n.rstrip("*").lower())
                if n in (f.name, f.code) or broad:
                    return f"{pattern}: {n}"
    return None


def run_rules(rules: list[Rule], sources: list[Source], ctx: Context) -> list[Finding]:
    """The rules' findings; the notes they return go to ``ctx.notes`` (rules write nothing)."""
    findings: list[Finding] = []
    for rule in rules:
        if not any(s.kind in rule.reads for s in sources) and rule.reads:
            continue
        for out in rule.check_run(sources, ctx):
            if isinstance(out, Note):
                ctx.notes.append(out.text)
            elif isinstance(out, AfterSuppressions):
                from benchaudit.suppress import mark_stale_check

                mark_stale_check(out.source, rule, ctx)
            else:
                findings.append(out)
    return findings


def audit(paths: list[str], config: Config | None = None, on_error: str = "raise") -> Report:
    """Audit ``paths`` and return the report (findings sorted, fingerprinted).

    An input that cannot be read raises its :class:`InputError` (``on_error="raise"``)
    or is kept in ``Report.errors`` while the other inputs are audited (``"report"``,
    what the command does).
    """
    ctx = Context(config=config or Config())
    selected(ctx.config.select, ctx.config.ignore)  # an unknown rule name fails before reading
    sources = load_sources(paths, ctx)
    if ctx.errors and on_error == "raise":
        raise ctx.errors[0]
    report = audit_sources(sources, ctx)
    if report.errors and on_error == "raise":
        raise report.errors[0]
    return report


def audit_sources(sources: list[Source], ctx: Context) -> Report:
    """Run the rules over sources already read (inputs that failed are in ``ctx.errors``)."""
    cfg = ctx.config
    selected(cfg.select, cfg.ignore)
    inputs.check_baseline_model(sources, cfg.baseline_model)
    if sum(s.kind in ("results", "samples") for s in sources) > 1:
        from benchaudit.inputs.joining import join_sources

        sources = join_sources(sources, ctx)  # outputs of several models on one task
    for source in list(sources):
        report_results = getattr(source.data, "report_results", None)
        if callable(report_results):
            try:
                sections = report_results(ctx)
            except InputError as exc:  # found only when the data is analysed
                ctx.errors.append(exc)
                sources.remove(source)
                continue
            for section, rows in sections.items():
                ctx.add_results(section, rows)
    # Only the rules for the kinds read are imported (a README never loads the battle rules).
    kinds = {s.kind for s in sources}
    rules = [cls(cfg.rule_options(cls.name)) for cls in select(cfg.select, cfg.ignore, kinds)]
    hidden: list[Suppressed] = []
    findings = []
    for f in run_rules(rules, sources, ctx):
        entry = _file_ignore(f, cfg)
        if entry is None:
            findings.append(f)
        else:
            hidden.append(Suppressed(f, "per_file_ignores", entry))
    hidden.extend(_ignored_rules(cfg, sources, ctx))

    from benchaudit import suppress

    findings = suppress.apply_inline(findings, sources, hidden, cfg.allow_broad_ignores)
    findings.sort(key=Finding.sort_key)
    assign_fingerprints(findings)
    if cfg.baseline:
        findings = suppress.apply_baseline(
            findings, cfg.baseline, hidden, limits.of(cfg).max_baseline_bytes
        )
    assign_fingerprints([h.finding for h in hidden if not h.finding.fingerprint])
    hidden.sort(key=lambda h: h.finding.sort_key())

    report = Report(findings=findings, results=ctx.results, notes=ctx.notes)
    report.suppressed = hidden
    report.config = cfg.source
    report.errors = list(ctx.errors)
    report.files = [s.path for s in sources]
    report.claims_checked = sum(1 for s in sources for c in s.claims if s.kind != "document" or _checkable(c))
    report.numbers_seen = sum(s.numbers_seen for s in sources)
    scores = [c for s in sources for c in s.claims if c.kind == "score"]
    report.scores_read = len(scores)
    report.scores_with_n = sum(1 for c in scores if c.n)
    unknown: list[str] = []
    for s in sources:
        unknown.extend(str(x) for x in s.meta.get("unknown_benchmarks", ()))
    unknown.extend(str(c.benchmark) for c in scores if c.benchmark and not c.n)
    report.unknown_benchmarks = sorted(set(unknown), key=str.lower)
    # Data files are always assessed; a document only when a claim a rule can check was read
    # from it (a comparison sentence with no number, test or table checks nothing).
    report.assessed = any(s.kind != "document" or any(map(_checkable, s.claims)) for s in sources)
    return report


def _checkable(claim: Claim) -> bool:
    if claim.kind != "comparison":
        return True
    f = claim.fields
    return bool((f.get("a_value") and claim.n) or f.get("pvalues") or f.get("intervals") or f.get("tables"))


def _ignored_rules(cfg: Config, sources: list[Source], ctx: Context) -> list[Suppressed]:
    """Findings of the rules the ignore list switched off, counted as suppressed.

    They are run on a copy of the context, so they add no results or notes; a
    rule that reads no source kind (contamination, a scan of its own) is not run.
    """
    if not cfg.ignore:
        return []
    wanted = selected(cfg.select, [])
    running = {e.name for e in selected(cfg.select, cfg.ignore)}
    kinds = {s.kind for s in sources}
    off = [e for e in wanted if e.name not in running and kinds.intersection(e.reads)]
    if not off:
        return []
    from benchaudit.suppress import STALE_KEY

    quiet = Context(config=cfg, _benchmarks=ctx._benchmarks)
    rules = [cls(cfg.rule_options(cls.name)) for cls in map(load_entry, off)]
    deferred = [(s, s.meta.get(STALE_KEY)) for s in sources]
    got = [Suppressed(f, "config", f"ignore: {f.name}") for f in run_rules(rules, sources, quiet)]
    for s, marker in deferred:  # an ignored stale-suppression must not report later
        if marker is None:
            s.meta.pop(STALE_KEY, None)
        else:
            s.meta[STALE_KEY] = marker
    return got


def exit_code(report: Report, fail_on: str) -> int:
    """2 when an input could not be read, else 1 when a finding reaches ``fail_on``."""
    if report.input_errors:
        return 2
    if fail_on == "never":
        return 0
    from benchaudit.finding import Severity

    threshold = Severity.parse(fail_on)
    worst = report.worst()
    return 1 if worst is not None and worst >= threshold else 0


__all__ = ["Context", "audit", "audit_sources", "exit_code", "load_sources", "InputError"]
