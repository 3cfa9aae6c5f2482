"""The scan a run's configuration asks for, made once, as contamination evidence.

When the configuration names a training ``corpus`` (and the ``benchmark`` item
file), the engine runs the scan once, before any rule, whatever rules are
selected: its rows go to the report's ``results`` and its notes to the notes,
and the contamination rule turns the hits into findings. Without a corpus
nothing here runs (nor is :mod:`benchaudit.contamination.audit` imported), so
a run that does not ask for the scan never pays for it.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from benchaudit import fs, limits
from benchaudit.contamination.evidence import KIND, OPTIONS, ContaminationHits
from benchaudit.errors import ConfigError
from benchaudit.evidence import Source

if TYPE_CHECKING:
    from benchaudit.context import RunContext


def configured_scan(sources: list[Source], ctx: RunContext) -> Source[ContaminationHits] | None:
    """The hits of the scan the configuration asks for, as a source of kind :data:`KIND`;
    None when it names no corpus. A corpus without a benchmark file is a
    :class:`~benchaudit.errors.ConfigError`. Relative paths are looked for beside the
    configuration, in the working directory, then beside the inputs."""
    cfg = ctx.config
    if not cfg.corpus:
        return None
    if not cfg.benchmark:
        raise ConfigError("config names a corpus but no benchmark file for contamination")
    from benchaudit.contamination.audit import Settings, run

    options = cfg.rule_options(OPTIONS)
    bases = _bases(cfg.source, sources)
    settings = Settings(
        benchmark=_resolve(cfg.benchmark, bases),
        corpus=[_resolve(c, bases) for c in cfg.corpus],
        ngram=cfg.ngram,
        minhash=bool(options.get("minhash", False)),
        max_docs=int(options.get("max-docs", 10)),
        progress=False,
        workers=options.get("workers"),
        seed=cfg.seed,
        resamples=cfg.resamples,
        alpha=cfg.alpha,
        limits=limits.of(cfg),
    )
    hits = ContaminationHits(outcome=run(settings), display=cfg.benchmark)
    return Source(path=cfg.benchmark, kind=KIND, data=hits)


def _bases(config_source: str | None, sources: list[Source]) -> list[str]:
    """Folders a relative path may be relative to: the config's, the cwd, the inputs'."""
    out = [os.path.dirname(os.path.abspath(config_source))] if config_source else []
    out.append(os.getcwd())
    out.extend(os.path.dirname(os.path.abspath(s.path)) for s in sources)
    return out


def _resolve(path: str, bases: list[str]) -> str:
    if os.path.isabs(path):
        return path
    for base in bases:
        candidate = os.path.join(base, path)
        if os.path.exists(candidate) or fs.glob(candidate):
            return candidate
    return path


__all__ = ["configured_scan"]
