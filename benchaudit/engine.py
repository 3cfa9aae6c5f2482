"""The engine: read inputs, analyse them, select rules, run them, filter, sort and grade.

The flow is one way (see ARCHITECTURE.md): readers return sources, the analyses
of :mod:`benchaudit.analysis.sections` return the rows of ``results`` (whatever
rules are selected), rules return findings, and the engine alone gathers them
into the :class:`~benchaudit.finding.Report`. Nothing here knows any single rule.
"""

from __future__ import annotations

import fnmatch
from pathlib import Path

from benchaudit import inputs, limits
from benchaudit.analysis.sections import analyse
from benchaudit.config import Config
from benchaudit.contamination.configured import configured_scan
from benchaudit.context import Results, RunContext
from benchaudit.errors import BenchauditError, InputError, UnknownKindError
from benchaudit.evidence import Claim, Source
from benchaudit.finding import Finding, Report, Severity, Suppressed, assign_fingerprints
from benchaudit.options import is_broad
from benchaudit.registry import (
    Note,
    Rows,
    Rule,
    catalogue,
    load_entry,
    rule_docs,
    select,
    selected,
)

#: The name the rules and readers were written against; the run context is read-only.
Context = RunContext


def load_sources(
    paths: list[str],
    ctx: RunContext,
    errors: list[InputError] | None = None,
    notes: list[str] | None = None,
) -> list[Source]:
    """Read every input; one that cannot be read never hides the others.

    A file that cannot be read, or that no reader recognises, is added to
    ``errors`` (the run then ends with exit code 2) and the rest are still
    read. Met while walking a directory (or with ``skip_unknown``, as the
    pre-commit hook runs), a file of no kind benchaudit knows, or an empty one,
    is skipped with a note in ``notes`` instead. The readers' own notes stay on
    the sources (:func:`audit_sources` puts them in the report).
    """
    failed: list[InputError] = [] if errors is None else errors
    said: list[str] = [] if notes is None else notes
    sources: list[Source] = []
    expanded = inputs.expand(paths, said)
    if not expanded:
        where = ", ".join(paths)
        raise BenchauditError(
            f"no input files to check in {where} (benchaudit reads "
            f"{', '.join(sorted(inputs.WALK_SUFFIXES))})"
        )
    for path, display, named in expanded:
        try:
            sources.extend(read(path, display, ctx, ctx.config.kind, named))
        except InputError as exc:
            skippable = isinstance(exc, UnknownKindError) or exc.detail == inputs.EMPTY
            if skippable and (not named or ctx.config.skip_unknown):
                said.append(f"skipped {display}: {exc.detail}")
            else:
                failed.append(exc)
    return sources


def read(
    path: Path, display: str, ctx: RunContext, forced: str | None = None, named: bool = False
) -> list[Source]:
    """Read one file (:func:`benchaudit.inputs.load`). What the readers said about it, their
    notes and the detection evidence of per-item inputs, stays on the sources until
    :func:`audit_sources` puts it in the report (``notes``, ``results.sources``)."""
    return inputs.load(path, display, ctx, forced, named)


def _collect(sources: list[Source], results: Results, notes: list[str]) -> None:
    """The notes and detection evidence of the sources read, into the report's."""
    found = [s.detection for s in sources if s.detection is not None]
    if found:
        results.add("sources", found)
    for s in sources:
        notes.extend(s.notes)


def _file_ignore(f: Finding, cfg: Config) -> str | None:
    """The per-file-ignores entry that hides ``f`` ("pattern: name"), or None."""
    for pattern, names in cfg.per_file_ignores.items():
        if fnmatch.fnmatch(f.location.file, pattern) or fnmatch.fnmatch(
            Path(f.location.file).name, pattern
        ):
            for n in names:
                broad = is_broad(n) and f.code.lower().startswith(n.rstrip("*").lower())
                if n in (f.name, f.code) or broad:
                    return f"{pattern}: {n}"
    return None


def run_rules(
    rules: list[Rule],
    sources: list[Source],
    ctx: RunContext,
    notes: list[str] | None = None,
    results: Results | None = None,
) -> list[Finding]:
    """The rules' findings; the notes and rows they return go to ``notes`` and ``results``
    (the report's, or None for rules run only to count what they would find)."""
    findings: list[Finding] = []
    for rule in rules:
        if not any(s.kind in rule.reads for s in sources) and rule.reads:
            continue
        for out in rule.check_run(sources, ctx):
            if isinstance(out, Note):
                if notes is not None:
                    notes.append(out.text)
            elif isinstance(out, Rows):
                if results is not None:
                    results.add(out.section, out.rows)
            else:
                findings.append(out)
    return findings


def run_context(config: Config, paths: tuple[str, ...]) -> RunContext:
    """The run's context, with the rules it knows and selects (an unknown rule name in the
    selection is a :class:`ConfigError` here, before any input is read)."""
    ran = selected(config.select, config.ignore)
    every = catalogue()
    return RunContext(
        config=config,
        paths=paths,
        known_rules=frozenset(k.lower() for e in every for k in (e.name, e.code)),
        selected_rules=frozenset(k.lower() for e in ran for k in (e.name, e.code)),
        all_selected=len(ran) >= len(every),
    )


def _with_rule_names(ctx: RunContext) -> RunContext:
    from dataclasses import replace

    named = run_context(ctx.config, ctx.paths)
    return replace(
        ctx,
        known_rules=named.known_rules,
        selected_rules=named.selected_rules,
        all_selected=named.all_selected,
    )


def audit(paths: list[str], config: Config | None = None, on_error: str = "raise") -> Report:
    """Audit ``paths`` and return the report (findings sorted, fingerprinted).

    An input that cannot be read raises its :class:`InputError` (``on_error="raise"``)
    or is kept in ``Report.errors`` while the other inputs are audited (``"report"``,
    what the command does).
    """
    ctx = run_context(config or Config(), tuple(paths))  # an unknown rule name fails here
    errors: list[InputError] = []
    notes: list[str] = []
    sources = load_sources(paths, ctx, errors, notes)
    if errors and on_error == "raise":
        raise errors[0]
    report = audit_sources(sources, ctx, errors, notes)
    if report.errors and on_error == "raise":
        raise report.errors[0]
    return report


def audit_sources(
    sources: list[Source],
    ctx: RunContext,
    errors: list[InputError] | None = None,
    notes: list[str] | tuple[str, ...] = (),
) -> Report:
    """Analyse sources already read and run the rules over them; ``errors`` are the
    inputs that could not be read (they stay in the report, and the exit code is 2),
    ``notes`` what reading them said beside the sources (files skipped).

    Every analysis runs once per source whatever rules are selected, and is the
    only producer of ``results`` (:mod:`benchaudit.analysis.sections`); the rules
    then read the sources and the analyses and return findings. The engine alone
    writes the report's notes and results: nothing it calls gets a place to write.
    """
    cfg = ctx.config
    if not ctx.known_rules:
        # A context built by hand (the Python API) gets the registry's rule names, so that
        # stale-suppression can judge comments there as it does in a command run.
        ctx = _with_rule_names(ctx)
    failed = list(errors or ())
    said = list(notes)
    results = Results()
    selected(cfg.select, cfg.ignore)
    _collect(sources, results, said)
    inputs.check_baseline_model(sources, cfg.baseline_model)
    if sum(s.kind in ("results", "samples") for s in sources) > 1:
        from benchaudit.inputs._small_results import with_numpy
        from benchaudit.inputs.joining import join_sources

        joined = join_sources([with_numpy(s) for s in sources])  # several models on one task
        sources = joined.sources
        if joined.runs:
            results.add("runs", joined.runs)
        said.extend(joined.notes)
    analysed = analyse(sources, ctx)
    failed.extend(analysed.errors)  # found only when the data is analysed
    sources = analysed.sources
    for section, rows in analysed.sections:
        results.add(section, rows)
    # The contamination scan the configuration asks for, once, whatever rules run: its hits
    # are evidence for the rules beside the inputs read (they are not an input file).
    hits = configured_scan(sources, ctx)
    if hits is not None:
        for section, rows in hits.data.outcome.results.items():
            results.add(section, rows)
        said.extend(hits.data.outcome.notes)
    # Only the rules for the kinds read are imported (a README never loads the battle rules).
    kinds = {s.kind for s in sources} | ({hits.kind} if hits is not None else set())
    rules = [cls(cfg.rule_options(cls.name)) for cls in select(cfg.select, cfg.ignore, kinds)]
    if any("results" in r.reads and not type(r).__module__.startswith("benchaudit.") for r in rules):
        from benchaudit.inputs._small_results import with_numpy

        sources = [with_numpy(s) for s in sources]  # a rule pack reads numpy result sets
    evidence = [*sources, *([hits] if hits is not None else [])]
    hidden: list[Suppressed] = []
    findings = []
    for f in run_rules(rules, evidence, ctx, said, results):
        entry = _file_ignore(f, cfg)
        if entry is None:
            findings.append(f)
        else:
            hidden.append(Suppressed(f, "per_file_ignores", entry))
    hidden.extend(_ignored_rules(cfg, evidence, ctx))

    from benchaudit import suppress

    findings = suppress.apply_inline(findings, sources, hidden, cfg.allow_broad_ignores)
    # What the suppressions did is known only now: rules that audit them answer here.
    for rule in rules:
        if isinstance(rule, suppress.SuppressionAudit):
            audited = rule.audit_suppressions(sources, ctx)
            findings.extend(f for f in audited if _file_ignore(f, cfg) is None)
    findings.sort(key=Finding.sort_key)
    assign_fingerprints(findings)
    if cfg.baseline:
        findings = suppress.apply_baseline(
            findings, cfg.baseline, hidden, limits.of(cfg).max_baseline_bytes
        )
    assign_fingerprints([h.finding for h in hidden if not h.finding.fingerprint])
    hidden.sort(key=lambda h: h.finding.sort_key())

    # A note said twice (the same file skipped by two walks) is said once.
    report = Report(findings=findings, results=results.sections, notes=list(dict.fromkeys(said)))
    report.suppressed = hidden
    report.config = cfg.source
    report.rule_docs = rule_docs([*findings, *(h.finding for h in hidden)])
    report.errors = [*failed]
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


def _ignored_rules(cfg: Config, sources: list[Source], ctx: RunContext) -> list[Suppressed]:
    """Findings of the rules the ignore list switched off, counted as suppressed.

    Their notes and rows are dropped (the report's come from the rules that ran),
    and nothing they find after suppression is asked of them; a rule that reads none of
    the kinds present (contamination without a configured corpus) is not run.
    """
    if not cfg.ignore:
        return []
    wanted = selected(cfg.select, [])
    running = {e.name for e in selected(cfg.select, cfg.ignore)}
    kinds = {s.kind for s in sources}
    off = [e for e in wanted if e.name not in running and kinds.intersection(e.reads)]
    if not off:
        return []
    rules = [cls(cfg.rule_options(cls.name)) for cls in map(load_entry, off)]
    return [Suppressed(f, "config", f"ignore: {f.name}") for f in run_rules(rules, sources, ctx)]


def exit_code(report: Report, fail_on: str) -> int:
    """2 when an input could not be read, else 1 when a finding reaches ``fail_on``."""
    if report.input_errors:
        return 2
    if fail_on == "never":
        return 0
    threshold = Severity.parse(fail_on)
    worst = report.worst()
    return 1 if worst is not None and worst >= threshold else 0


__all__ = [
    "Context",
    "InputError",
    "RunContext",
    "audit",
    "audit_sources",
    "exit_code",
    "load_sources",
    "read",
]
