"""Caps on the work one input may cause, with their defaults.

A hostile or broken file (a gzip bomb, a wide file of thousands of columns, a
Parquet file of a hundred million identical rows) must end in a one-line
message naming the file and the cap, not in an exhausted machine. Each cap is
a configuration key (``max-decompressed-mb = 2048``); the message names it.
"""

from __future__ import annotations

from typing import Any

from benchaudit.errors import InputError

#: Defaults, by configuration key.
DEFAULTS: dict[str, int] = {
    "max-decompressed-mb": 512,
    "max-wide-columns": 200,
    "max-wide-cells": 20_000_000,
    "max-parquet-rows": 20_000_000,
}


def cap(ctx: Any, key: str) -> int:
    """The configured value of a cap, or its default."""
    cfg = getattr(ctx, "config", None)
    value = getattr(cfg, key.replace("-", "_"), None)
    return int(value) if value else DEFAULTS[key]


def decompressed_bytes(ctx: Any) -> int:
    return cap(ctx, "max-decompressed-mb") << 20


def exceeded(display: str, what: str, key: str, limit: int, line: int | None = None) -> InputError:
    """The error for an input past a cap: what it holds, the cap, and how to raise it."""
    shown = f"{limit >> 20:,} MB" if key == "max-decompressed-mb" else f"{limit:,}"
    return InputError(
        display, f"{what}: more than the cap of {shown} (configuration key {key})", line
    )
