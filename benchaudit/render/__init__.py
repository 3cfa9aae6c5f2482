"""Report writers, one module per format, each with ``render(report) -> str``."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from benchaudit.errors import BenchauditError

if TYPE_CHECKING:
    from benchaudit.finding import Report

FORMATS = ("text", "json", "markdown", "html", "sarif", "github")


def render(report: Report, fmt: str, color: bool | None = None) -> str:
    """The report in format ``fmt``; ``color`` is for text (None: decided from stdout)."""
    if fmt not in FORMATS:
        raise BenchauditError(f"unknown format {fmt!r} (use {', '.join(FORMATS)})")
    try:
        module = importlib.import_module(f"{__name__}.{fmt}")
    except ModuleNotFoundError:
        raise BenchauditError(f"format {fmt!r} is not available in this version") from None
    if fmt == "text":
        return str(module.render(report, color=color))
    return str(module.render(report))
