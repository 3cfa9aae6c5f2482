"""Report writers, one module per format, each with ``render(report) -> str``."""

from __future__ import annotations

import importlib
from collections.abc import Callable

from benchaudit.errors import BenchauditError
from benchaudit.finding import Report

FORMATS = ("text", "json", "markdown", "html", "sarif", "github")


def render(report: Report, fmt: str) -> str:
    if fmt not in FORMATS:
        raise BenchauditError(f"unknown format {fmt!r} (use {', '.join(FORMATS)})")
    try:
        module = importlib.import_module(f"{__name__}.{fmt}")
    except ModuleNotFoundError:
        raise BenchauditError(f"format {fmt!r} is not available in this version") from None
    writer: Callable[[Report], str] = module.render
    return writer(report)
