"""``benchaudit contamination``: scan training shards for benchmark items.

Only click and the standard library are imported here, so that
``benchaudit --help`` stays fast; the scan is imported when the command runs.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import click

from benchaudit.options import MAX_DOCS, MAX_WORKERS
from benchaudit.render import FORMATS as _FORMATS

if TYPE_CHECKING:
    from benchaudit.contamination.audit import Outcome
    from benchaudit.finding import Finding



@runtime_checkable
class ItemFindings(Protocol):
    """What the contamination rule offers this command: the findings of a scan's outcome."""

    def item_findings(self, outcome: Outcome, display: str) -> list[Finding]: ...


def _fields(value: str | None) -> tuple[str, ...] | None:
    if not value:
        return None
    out = tuple(v.strip() for v in value.split(",") if v.strip())
    return out or None


@click.command("contamination")
@click.option(
    "--benchmark",
    required=True,
    help="Benchmark items: .jsonl/.json/.csv/.parquet (HumanEval-style .jsonl.gz too).",
)
@click.option(
    "--corpus",
    "corpus",
    multiple=True,
    metavar="PATH_OR_GLOB",
    help="Training shards (.jsonl, .jsonl.gz, .jsonl.zst, .txt, .parquet); "
    "files, folders or globs; repeatable. The paths after it are shards too, so a "
    "glob the shell expanded (--corpus shards/*.jsonl.gz) works.",
)
@click.option(
    "--scores",
    default=None,
    help="Per-item results (item id, score[, model]) to "
    "compare the clean and contaminated subsets.",
)
@click.option(
    "--ngram",
    type=click.IntRange(min=1),
    default=None,
    help="n of the exact n-gram match (default 13, or the config's ngram).",
)
@click.option(
    "--minhash", is_flag=True, help="Also search item-sized near-duplicates (MinHash LSH)."
)
@click.option(
    "--engine",
    type=click.Choice(("local", "ray")),
    default="local",
    help="local: a process pool (default); ray: a Ray cluster.",
)
@click.option("--address", default=None, help="Ray cluster address (default: start a local one).")
@click.option(
    "--workers",
    type=click.IntRange(min=1, max=MAX_WORKERS),
    default=None,
    help="Worker processes / Ray actors (default: all CPUs).",
)
@click.option("--state-dir", default=None, help="Keep per-shard done markers here to resume.")
@click.option(
    "--text-field",
    default=None,
    help="Shard field(s) holding the text, comma-separated (default: text).",
)
@click.option(
    "--field",
    "item_field",
    default=None,
    help="Benchmark field(s) to search for, comma-separated (default: question/"
    "prompt/problem/input/text plus answer/canonical_solution).",
)
@click.option(
    "--id-field",
    default=None,
    help="Benchmark id field (default: id, task_id, ...; else the 0-based line number).",
)
@click.option(
    "--max-docs",
    type=click.IntRange(min=0, max=MAX_DOCS),
    default=10,
    show_default=True,
    help="Ignore n-grams found in more documents than this (0: no cap).",
)
@click.option(
    "--format",
    "formats",
    multiple=True,
    type=click.Choice(_FORMATS),
    help="Output format; repeat for several.",
)
@click.option("--output", "outputs", multiple=True, help="Write the report here (per --format).")
@click.option(
    "--fail-on",
    type=click.Choice(("error", "warning", "info", "never")),
    default="warning",
    show_default=True,
    help="Lowest severity that makes the exit code 1.",
)
@click.option("--seed", type=int, default=None, help="Seed for the bootstrap (default 0).")
@click.option("--config", "config_path", default=None, help="Config file (default: discovered).")
@click.argument("more_shards", nargs=-1, metavar="[SHARD]...")
@click.option(
    "--max-line-bytes",
    type=click.IntRange(min=1),
    default=None,
    help="Longest shard or benchmark line / text document, in bytes (default 32 MiB).",
)
@click.option(
    "--max-expansion",
    type=click.IntRange(min=1),
    default=None,
    help="Largest decompressed-to-compressed ratio of a .gz/.zst shard (default 100).",
)
@click.option(
    "--max-benchmark-bytes",
    type=click.IntRange(min=1),
    default=None,
    help="Largest benchmark item file, in bytes (default 256 MiB).",
)
def contamination(
    benchmark: str,
    corpus: Sequence[str],
    more_shards: tuple[str, ...],
    scores: str | None,
    ngram: int | None,
    minhash: bool,
    engine: str,
    address: str | None,
    workers: int | None,
    state_dir: str | None,
    text_field: str | None,
    item_field: str | None,
    id_field: str | None,
    max_docs: int,
    formats: tuple[str, ...],
    outputs: tuple[str, ...],
    fail_on: str,
    seed: int | None,
    config_path: str | None,
    max_line_bytes: int | None,
    max_expansion: int | None,
    max_benchmark_bytes: int | None,
) -> None:
    """Find benchmark items in training-corpus shards (exit 1 when some are found)."""
    from benchaudit import config as config_mod
    from benchaudit import limits as limits_mod
    from benchaudit.contamination.audit import Settings, run
    from benchaudit.engine import exit_code
    from benchaudit.errors import ConfigError
    from benchaudit.finding import Report, assign_fingerprints
    from benchaudit.registry import lookup, rule_docs
    from benchaudit.render import render
    from benchaudit.render.text import use_color

    cfg = config_mod.load(config_path)
    corpus = [*corpus, *more_shards]
    if not corpus:
        raise ConfigError("no training shards: give --corpus PATH_OR_GLOB...")
    fmts = list(formats) or [f for f in cfg.formats if f in _FORMATS] or ["text"]
    if len(outputs) > len(fmts):
        raise ConfigError("more --output files than --format options")
    settings = Settings(
        benchmark=benchmark,
        corpus=list(corpus),
        scores=scores,
        ngram=ngram if ngram is not None else cfg.ngram,
        minhash=minhash,
        engine=engine,
        address=address,
        workers=workers,
        state_dir=state_dir,
        text_fields=_fields(text_field),
        item_fields=_fields(item_field),
        id_field=id_field,
        max_docs=max_docs,
        seed=seed if seed is not None else cfg.seed,
        resamples=cfg.resamples,
        alpha=cfg.alpha,
        limits=limits_mod.with_flags(
            limits_mod.of(cfg),
            max_line_bytes=max_line_bytes,
            max_expansion=max_expansion,
            max_benchmark_bytes=max_benchmark_bytes,
        ),
    )
    from benchaudit.check_run import refuse_inputs

    targets = [o for o in outputs if o != "-"]
    refuse_inputs(targets, [benchmark, scores or "", *corpus, cfg.source or ""])
    outcome = run(settings)
    rule = lookup("contamination")()
    if not isinstance(rule, ItemFindings):
        raise ConfigError("the contamination rule cannot word its findings (rule pack clash?)")
    findings = rule.item_findings(outcome, benchmark)
    findings.sort(key=lambda f: f.sort_key())
    assign_fingerprints(findings)
    report = Report(
        findings=findings,
        results=outcome.results,
        notes=outcome.notes,
        files=[benchmark],
        claims_checked=len(outcome.items),
        config=cfg.source,
        rule_docs=rule_docs(findings),
    )
    for i, fmt in enumerate(fmts):
        to_file = i < len(outputs) and outputs[i] != "-"
        text = render(report, fmt, color=use_color(to_file))
        if to_file:
            try:
                with open(outputs[i], "w", encoding="utf-8", errors="surrogateescape") as fh:
                    fh.write(text)
            except OSError as exc:
                raise ConfigError(
                    f"{outputs[i]}: cannot write report: {exc.strerror or exc}"
                ) from None
        else:
            click.echo(text, nl=False)
    sys.exit(exit_code(report, fail_on))
