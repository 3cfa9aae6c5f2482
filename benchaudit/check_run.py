"""The ``check`` command's body, without click: the console script runs it directly for
the plain argument lines of :mod:`benchaudit.fastpath` and through :mod:`benchaudit.cli`
for everything else, so both give the same report, messages and exit code.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, NoReturn

from benchaudit.config import check_int
from benchaudit.errors import BenchauditError, ConfigError
from benchaudit.render import FORMATS

if TYPE_CHECKING:
    from benchaudit.finding import Report

#: Writes a piece of text to stdout, or stderr with ``err=True`` (``click.echo``'s shape).
Echo = Callable[..., None]


def pairs(values: Iterable[str], flag: str) -> dict[str, str]:
    """``NAME=VALUE`` arguments as a mapping; a one-line error for any other shape."""
    out: dict[str, str] = {}
    for v in values:
        if "=" not in v:
            raise ConfigError(f"{flag} takes NAME=VALUE, got {v!r}")
        k, val = v.split("=", 1)
        out[k.strip()] = val.strip()
    return out


def log_line(message: str) -> str:
    from benchaudit.render.escape import line

    return line(message)


def fail(echo: Echo, message: str, code: int = 2) -> NoReturn:
    # Messages name files and models from the input: one line, nothing a terminal
    # or a CI runner would act on.
    echo(f"benchaudit: {log_line(message)}", err=True)
    sys.exit(code)


def guarded(echo: Echo, run: Callable[[], Any], passing: tuple[type[BaseException], ...] = ()) -> Any:
    """``run()``, with every exception but those in ``passing`` turned into one line and
    exit 2 (130 for an interrupt; a closed stdout ends quietly)."""
    try:
        return run()
    except passing:
        raise
    except BenchauditError as exc:
        fail(echo, str(exc))
    except KeyboardInterrupt:
        fail(echo, "interrupted", code=130)
    except BrokenPipeError:
        sys.stderr.close()
        sys.exit(0)
    except Exception as exc:  # noqa: BLE001 - the last line of defence
        if os.environ.get("BENCHAUDIT_DEBUG"):
            raise
        where = getattr(exc, "benchaudit_file", None)
        prefix = f"{where}: " if where else ""
        detail = str(exc).splitlines()[0] if str(exc) else ""
        fail(
            echo,
            f"{prefix}internal error: {type(exc).__name__}: {detail} "
            "(set BENCHAUDIT_DEBUG=1 for details)",
        )


def refuse_inputs(targets: Iterable[str], inputs: Iterable[str]) -> None:
    """A one-line error before anything is written when a target is one of the inputs."""
    from benchaudit.fs import same_file

    named = [p for p in inputs if p]
    for target in targets:
        for p in named:
            if same_file(target, p):
                raise BenchauditError(
                    f"{target}: is an input of this run ({p}); benchaudit never writes to its "
                    "inputs, so choose another file"
                )


def run_check(
    echo: Echo,
    paths: tuple[str, ...],
    formats: tuple[str, ...] = (),
    outputs: tuple[str, ...] = (),
    select: tuple[str, ...] = (),
    ignore: tuple[str, ...] = (),
    fail_on: str | None = None,
    config_path: str | None = None,
    baseline: str | None = None,
    write_baseline: str | None = None,
    n_overrides: tuple[str, ...] = (),
    seed: int | None = None,
    kind: str | None = None,
    columns: tuple[str, ...] = (),
    baseline_model: str | None = None,
    max_rows: int | None = None,
    resamples: int | None = None,
    all_pairs: bool = False,
    skip_unknown: bool = False,
    pdf_max_pages: int | None = None,
    pdf_max_chars_per_page: int | None = None,
    pdf_max_stream_bytes: int | None = None,
    pdf_max_content_bytes: int | None = None,
) -> NoReturn:
    """Audit ``paths``, write the report in the formats asked for, exit with its code."""
    from benchaudit import limits
    from benchaudit.api import audit, build_config
    from benchaudit.engine import exit_code

    cfg = build_config(
        config=config_path,
        select=select or None,
        ignore=ignore or None,
        fail_on=fail_on,
        baseline=baseline,
        n={k: check_int(f"--n {k}", v, "n") for k, v in pairs(n_overrides, "--n").items()},
        seed=seed,
        kind=kind,
        columns=pairs(columns, "--column"),
        baseline_model=baseline_model,
        max_rows=max_rows,
        resamples=resamples,
        skip_unknown=skip_unknown,
    )
    caps = limits.with_flags(
        limits.of(cfg),
        pdf_max_pages=pdf_max_pages,
        pdf_max_chars_per_page=pdf_max_chars_per_page,
        pdf_max_stream_bytes=pdf_max_stream_bytes,
        pdf_max_content_bytes=pdf_max_content_bytes,
    )
    cfg.limits = caps
    fmts = list(formats) or cfg.formats
    for f in fmts:
        if f not in FORMATS:
            raise ConfigError(f"unknown format {f!r} (use {', '.join(FORMATS)})")
    if len(outputs) > len(fmts):
        raise ConfigError("more --output files than --format options")

    report = audit(list(paths), config=cfg, on_error="report")
    report.all_pairs = all_pairs
    targets = [o for o in outputs if o != "-"] + ([write_baseline] if write_baseline else [])
    refuse_inputs(targets, [*paths, *report.files, cfg.source or "", cfg.baseline or ""])
    if write_baseline:
        from benchaudit.suppress import write_baseline as write

        write(report.findings, write_baseline)
    # Nothing could be read: the error lines alone say it (an empty report would not).
    if report.errors and not report.files:
        fmts = []
    for i, fmt in enumerate(fmts):
        to_file = i < len(outputs) and outputs[i] != "-"
        # JSON is written in pieces: a report of 499,500 pairs never sits in memory whole.
        text = _pieces(report, fmt, to_file)
        if to_file:
            _write_output(outputs[i], text)
        else:
            for piece in text:
                echo(piece, nl=False)
    # After the report, so that a file that cannot be read never hides the others' findings.
    for line in report.input_errors:
        echo(f"benchaudit: {log_line(line)}", err=True)
    sys.exit(exit_code(report, cfg.fail_on))


def _pieces(report: Report, fmt: str, to_file: bool = False) -> Iterable[str]:
    if fmt == "json":
        from benchaudit.render.json import chunks

        return chunks(report)
    if fmt == "text":
        from benchaudit.render.text import render, use_color

        return [render(report, color=use_color(to_file))]
    return [report.render(fmt)]


def _write_output(path: str, text: Iterable[str]) -> None:
    try:
        # errors=: a file name that is not UTF-8 is written back as the bytes it was
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as fh:
            for piece in text:
                fh.write(piece)
    except OSError as exc:
        raise BenchauditError(f"{path}: cannot write report: {exc.strerror or exc}") from None
