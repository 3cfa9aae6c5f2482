"""The Python API: :func:`audit` over files, :func:`audit_results` over a table in memory.

Both return a :class:`benchaudit.finding.Report`. The ``benchaudit check``
command is this module plus argument parsing and output files: the keyword
options here are its flags (``fail_on`` is ``--fail-on``, ``n`` is ``--n``,
``columns`` is ``--column``), applied on top of the configuration file in the
same way.

Only the standard library is imported at module level: ``audit`` on a model
card stays on the text path, which imports neither numpy nor pandas.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from benchaudit.config import FAIL_ON, Config
from benchaudit.errors import ConfigError, InputError, UnknownKindError

if TYPE_CHECKING:
    from benchaudit.finding import Report

PathLike = str | os.PathLike[str]

#: What to do with an input that cannot be read: raise its InputError, or keep
#: it in ``Report.input_errors`` and audit the rest (what the command does).
OnError = Literal["raise", "report"]


def build_config(
    *,
    config: PathLike | Config | None = None,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    fail_on: str | None = None,
    baseline: PathLike | None = None,
    n: Mapping[str, int] | None = None,
    seed: int | None = None,
    kind: str | None = None,
    columns: Mapping[str, str] | None = None,
    baseline_model: str | None = None,
    max_rows: int | None = None,
    resamples: int | None = None,
    alpha: float | None = None,
    skip_unknown: bool = False,
) -> Config:
    """The configuration (a file given, a :class:`Config`, or the file discovered
    from the current folder) with these options on top."""
    from benchaudit import config as config_mod

    if isinstance(config, Config):
        cfg = dataclasses.replace(config)
    else:
        cfg = config_mod.load(os.fspath(config) if config is not None else None)
    if select is not None:
        cfg.select = _names(select)
    if ignore is not None:
        cfg.ignore = [*cfg.ignore, *_names(ignore)]
    if fail_on is not None:
        if fail_on not in FAIL_ON:
            raise ConfigError(f"fail_on must be one of {', '.join(FAIL_ON)}, got {fail_on!r}")
        cfg.fail_on = fail_on
    if baseline is not None:
        cfg.baseline = os.fspath(baseline)
    for name, value in (n or {}).items():
        cfg.n[name] = config_mod.check_int(f"--n {name}", value, "n")
    if seed is not None:
        cfg.seed = config_mod.check_int("--seed", seed, "seed")
    if kind:
        cfg.kind = kind
    cfg.columns.update({str(k): str(v) for k, v in (columns or {}).items()})
    if baseline_model:
        cfg.baseline_model = baseline_model
    if max_rows is not None:
        cfg.max_rows = config_mod.check_int("--max-rows", max_rows, "max-rows")
    if resamples is not None:
        cfg.resamples = config_mod.check_int("--resamples", resamples, "resamples")
    if alpha is not None:
        if not 0 < alpha < 1:
            raise ConfigError("alpha must be between 0 and 1")
        cfg.alpha = float(alpha)
    if skip_unknown:
        cfg.skip_unknown = True
    return cfg


def _names(values: Iterable[str]) -> list[str]:
    """Rule names from a list, each item possibly comma-separated."""
    if isinstance(values, str):
        values = [values]
    return [x.strip() for v in values for x in str(v).split(",") if x.strip()]


def audit(
    paths: PathLike | Iterable[PathLike],
    *,
    on_error: OnError = "raise",
    **options: Any,
) -> Report:
    """Audit files and folders: model cards, papers, per-item results, leaderboards ...

    ``paths`` is one path or several; folders are walked. ``options`` are those of
    :func:`build_config` (``select``, ``ignore``, ``fail_on``, ``n``, ``seed``,
    ``kind``, ``columns``, ``baseline``, ``baseline_model``, ``max_rows``,
    ``resamples``, ``alpha``, ``config``). With ``on_error="raise"`` (the default)
    an input that cannot be read raises :class:`benchaudit.errors.InputError`;
    with ``"report"`` it is listed in ``Report.input_errors`` and the other
    inputs are still audited.
    """
    from benchaudit import engine

    cfg = build_config(**options)
    names = (
        [os.fspath(paths)]
        if isinstance(paths, (str, os.PathLike))
        else [os.fspath(p) for p in paths]
    )
    if on_error not in ("raise", "report"):
        raise ConfigError(f"on_error must be 'raise' or 'report', got {on_error!r}")
    return engine.audit(names, cfg, on_error=on_error)


def audit_results(
    table: Any,
    *,
    model: str | None = None,
    item: str | None = None,
    score: str | None = None,
    name: str = "results.csv",
    columns: Mapping[str, str] | None = None,
    on_error: OnError = "raise",
    **options: Any,
) -> Report:
    """Audit per-item results held in memory: a pandas DataFrame or a pyarrow Table.

    One row per model x item (long form) or one column per model (wide form),
    as in a per-item CSV file. ``model``, ``item`` and ``score`` name those
    columns (found by their usual names when not given); ``columns`` names
    other roles (``{"cluster": "passage", "sample": "gen"}``). Findings point at
    ``name`` and at the line the row has in ``table.to_csv(index=False)``: the
    result is the one ``benchaudit check`` gives on that CSV file.
    """
    roles = {k: v for k, v in {"model": model, "item": item, "score": score}.items() if v}
    cfg = build_config(columns={**(columns or {}), **roles}, **options)
    frame = _as_pandas(table)
    if not name.lower().endswith((".csv", ".tsv")):
        name += ".csv"
    sep = "\t" if name.lower().endswith(".tsv") else ","
    return _audit_written(
        lambda path: frame.to_csv(path, index=False, sep=sep), name, cfg, on_error, tabular=True
    )


def audit_text(
    text: str,
    *,
    name: str = "text.md",
    on_error: OnError = "raise",
    **options: Any,
) -> Report:
    """Audit a claim, a paragraph or a whole document given as a string.

    ``name`` is the file name findings point at; its extension says how the text
    is read (``.md`` Markdown, the default; ``.html``; ``.txt``). ``options`` are
    those of :func:`audit`.
    """
    cfg = build_config(**options)
    if "." not in Path(name).name:
        name += ".md"
    return _audit_written(lambda path: path.write_text(text, encoding="utf-8"), name, cfg, on_error)


def _audit_written(
    write: Any, name: str, cfg: Config, on_error: OnError, tabular: bool = False
) -> Report:
    """Write the input into a private folder and audit it under ``name``.

    With ``tabular``, a table whose columns detection does not recognise by name
    (they were named with ``model=`` ...) is read by the per-item reader itself.
    """
    import tempfile  # here: its import (random, shutil) is a fifth of bare Python's start-up

    from benchaudit import engine

    with tempfile.TemporaryDirectory(prefix="benchaudit-") as tmp:
        path = Path(tmp) / Path(name).name
        write(path)
        ctx = engine.run_context(cfg, (name,))
        errors: list[InputError] = []
        try:
            try:
                sources = engine.read(path, name, ctx, cfg.kind)
            except UnknownKindError:
                if not tabular:
                    raise
                from benchaudit.inputs.tabular import READER

                got = READER.read(path, name, ctx)
                sources = got if isinstance(got, list) else [got]
        except InputError as exc:
            if on_error == "raise":
                raise
            sources = []
            errors.append(exc)
        report = engine.audit_sources(sources, ctx, errors)
    _raise_first(report, on_error)
    return report


def _as_pandas(table: Any) -> Any:
    import pandas as pd

    if isinstance(table, pd.DataFrame):
        return table
    to_pandas = getattr(table, "to_pandas", None)  # pyarrow Table / RecordBatch, polars
    if callable(to_pandas):
        out = to_pandas()
        if isinstance(out, pd.DataFrame):
            return out
    raise TypeError(
        f"audit_results takes a pandas DataFrame or a pyarrow Table, not {type(table).__name__}"
    )


def _raise_first(report: Report, on_error: OnError) -> None:
    if on_error == "raise" and report.errors:
        raise report.errors[0]
    if on_error not in ("raise", "report"):
        raise ConfigError(f"on_error must be 'raise' or 'report', got {on_error!r}")


__all__ = ["audit", "audit_results", "audit_text", "build_config"]
