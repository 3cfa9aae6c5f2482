"""Command line: ``check``, ``rules``, ``explain``, ``contamination`` and ``mcp``.

``check`` is a thin layer over :mod:`benchaudit.api`: flags become the API's
options, and the report is written in the formats asked for.

Every failure the user can fix ends in one line on stderr and exit code 2;
an unexpected failure also ends in one line and exit 2 (set
``BENCHAUDIT_DEBUG=1`` to see the traceback), never in exit 0.
"""

from __future__ import annotations

from typing import Any

import click

from benchaudit import __version__
from benchaudit.check_run import guarded, log_line, refuse_inputs, run_check
from benchaudit.check_run import pairs as _pairs
from benchaudit.config import FAIL_ON
from benchaudit.render import FORMATS as _FORMATS

__all__ = ["main", "refuse_inputs"]
_ = _pairs  # kept for callers of the old name


#: Commands that live with their subsystem: name -> (module, attribute). Each is imported
#: when it is named or the commands are listed, so ``check`` never pays for the others.
_OPTIONAL_COMMANDS = {"contamination": ("benchaudit.contamination.cli", "contamination")}


class _Group(click.Group):
    """Turns every exception into one line and exit 2."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._attach_optional()
        return super().list_commands(ctx)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:  # an optional one, or a typo ("did you mean" lists all)
            self._attach_optional()
        return super().get_command(ctx, cmd_name)

    def _attach_optional(self) -> None:
        for name in _OPTIONAL_COMMANDS:
            if name not in self.commands:
                _attach_optional_command(self, name)

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except click.ClickException as exc:
            # click types message as Final; it is rewritten in place so that the exception
            # (its class, exit code and usage hint) stays the one click raised.
            exc.message = _log_line(exc.message)  # type: ignore[misc]  # a usage error may quote an argument
            raise

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return guarded(
                click.echo,
                lambda: super(_Group, self).invoke(ctx),
                passing=(click.ClickException, click.exceptions.Exit, click.exceptions.Abort),
            )
        except click.ClickException as exc:
            exc.message = _log_line(exc.message)  # type: ignore[misc]  # Final in click; it may quote a file name
            raise


def _log_line(message: str) -> str:
    return log_line(message)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="benchaudit")
def main() -> None:
    """Audit the numbers people publish about ML evaluations."""


@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option(
    "--format",
    "formats",
    multiple=True,
    type=click.Choice(_FORMATS),
    help="Output format; repeat for several (each needs its own --output, or goes to stdout).",
)
@click.option("--output", "outputs", multiple=True, help="Write the report here (per --format).")
@click.option("--select", multiple=True, help="Only these rules (names, codes, code prefixes).")
@click.option("--ignore", multiple=True, help="Skip these rules.")
@click.option(
    "--fail-on",
    type=click.Choice(FAIL_ON),
    default=None,
    help="Lowest severity that makes the exit code 1 (default: error).",
)
@click.option("--config", "config_path", default=None, help="Config file (default: discovered).")
@click.option("--baseline", default=None, help="Hide findings recorded in this baseline file.")
@click.option("--write-baseline", default=None, help="Record the current findings as a baseline.")
@click.option(
    "--n",
    "n_overrides",
    multiple=True,
    metavar="BENCHMARK=N",
    help="Item count for a benchmark, overriding the registry.",
)
@click.option("--seed", type=int, default=None, help="Seed for randomised methods (default 0).")
@click.option("--kind", default=None, help="Force the input kind (results, document, ...).")
@click.option(
    "--column",
    "columns",
    multiple=True,
    metavar="ROLE=NAME",
    help="Column for a role in per-item files: model, item, score, points, ...",
)
@click.option("--baseline-model", default=None, help="Model comparisons are made against.")
@click.option("--max-rows", type=int, default=None, help="Refuse per-item files above this size.")
@click.option("--resamples", type=int, default=None, help="Bootstrap / permutation resamples.")
@click.option(
    "--all-pairs",
    is_flag=True,
    help="Text and Markdown: print every pairwise comparison (default: the significant ones "
    "when there are more than 45 pairs; JSON always has all).",
)
@click.option(
    "--skip-unknown",
    is_flag=True,
    help="Skip files of no known kind, and empty files, with a note (as in a directory walk).",
)
@click.option(
    "--pdf-max-pages", type=click.IntRange(min=1), default=None, help="Refuse PDFs with more pages (default 2000)."
)
@click.option(
    "--pdf-max-chars-per-page",
    type=click.IntRange(min=1),
    default=None,
    help="Refuse PDF pages that draw more characters (default 200000).",
)
@click.option(
    "--pdf-max-stream-bytes",
    type=click.IntRange(min=1),
    default=None,
    help="Refuse PDFs with a stream that decodes to more bytes (default 16 MiB).",
)
@click.option(
    "--pdf-max-content-bytes",
    type=click.IntRange(min=1),
    default=None,
    help="Refuse PDFs with more decoded page content in all (default 4 MiB).",
)
def check(
    paths: tuple[str, ...],
    formats: tuple[str, ...],
    outputs: tuple[str, ...],
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    fail_on: str | None,
    config_path: str | None,
    baseline: str | None,
    write_baseline: str | None,
    n_overrides: tuple[str, ...],
    seed: int | None,
    kind: str | None,
    columns: tuple[str, ...],
    baseline_model: str | None,
    max_rows: int | None,
    resamples: int | None,
    all_pairs: bool,
    skip_unknown: bool,
    pdf_max_pages: int | None,
    pdf_max_chars_per_page: int | None,
    pdf_max_stream_bytes: int | None,
    pdf_max_content_bytes: int | None,
) -> None:
    """Audit claims, result files, leaderboards or battles in PATHS."""
    run_check(
        click.echo,
        paths,
        formats,
        outputs,
        select,
        ignore,
        fail_on,
        config_path,
        baseline,
        write_baseline,
        n_overrides,
        seed,
        kind,
        columns,
        baseline_model,
        max_rows,
        resamples,
        all_pairs,
        skip_unknown,
        pdf_max_pages,
        pdf_max_chars_per_page,
        pdf_max_stream_bytes,
        pdf_max_content_bytes,
    )


@main.command("rules")
def rules_cmd() -> None:
    """List every rule: code, name, default severity, summary."""
    from benchaudit.registry import all_rules

    for cls in all_rules().values():
        click.echo(f"{cls.code}  {cls.name:<24} {cls.severity.label:<8} {cls.summary()}")


@main.command()
@click.argument("name")
def explain(name: str) -> None:
    """Print a rule's documentation (by name or code)."""
    from benchaudit.registry import lookup

    cls = lookup(name)
    click.echo(f"{cls.code} {cls.name} (default severity: {cls.severity.label})\n")
    click.echo(cls.documentation())


@main.command("mcp")
def mcp_cmd() -> None:
    """Serve the checks as MCP tools over stdio, for agents (needs the mcp extra)."""
    from benchaudit.mcp_server import serve

    serve()


def _attach_optional_command(group: click.Group, name: str) -> None:
    """Add the command ``name`` of a subsystem to ``group``; nothing when it is not installed."""
    import importlib

    module_name, attr = _OPTIONAL_COMMANDS[name]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            return
        raise
    group.add_command(getattr(module, attr))
