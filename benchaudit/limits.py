"""Caps on the work one input may cause: decompressed bytes, line length, PDF pages.

Inputs come from people nobody has vetted (benchaudit runs on pull requests), so every
reader that decompresses, splits lines or interprets a page stops at a cap and says which
one, naming the file, rather than running until memory or time runs out. The defaults are
far above what real shards, benchmark files and papers need; each has a flag and a
configuration key (``KEYS``) to raise it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

MiB = 1 << 20


@dataclass(frozen=True)
class Limits:
    """The caps of one run (see ``docs/limits.md``)."""

    #: Longest line of a shard or benchmark file (one JSONL record), and longest
    #: blank-line-separated document of a ``.txt`` shard.
    max_line_bytes: int = 32 * MiB
    #: Largest ratio of decompressed to compressed bytes of a ``.gz`` / ``.zst`` shard,
    #: checked once more than ``expansion_slack`` bytes came out. Text compresses 3-10x.
    max_expansion: int = 100
    expansion_slack: int = 64 * MiB
    #: Largest benchmark item file (decompressed size for ``.gz``); benchmarks are small.
    max_benchmark_bytes: int = 256 * MiB
    #: PDF: pages, characters drawn on one page, bytes of one decoded stream (memory), and
    #: decoded page-content bytes of the whole document (time: pdfminer interprets content
    #: at well under 1 MB/s; real papers hold 0.1-1 MB of it).
    pdf_max_pages: int = 2000
    pdf_max_chars_per_page: int = 200_000
    pdf_max_stream_bytes: int = 16 * MiB
    pdf_max_content_bytes: int = 4 * MiB
    #: Baseline files hold fingerprints (about 20 bytes each).
    max_baseline_bytes: int = 16 * MiB


#: Configuration key -> field of :class:`Limits` (the CLI flag is ``--`` + key).
KEYS = {f.name.replace("_", "-"): f.name for f in fields(Limits) if f.name != "expansion_slack"}

DEFAULT = Limits()


def of(config: Any) -> Limits:
    """The limits a configuration carries, else the defaults."""
    got = getattr(config, "limits", None)
    return got if isinstance(got, Limits) else DEFAULT


def with_flags(limits: Limits, **flags: int | None) -> Limits:
    """``limits`` with the caps given on the command line (``None``: not given)."""
    given = {k: v for k, v in flags.items() if v is not None}
    return replace(limits, **given) if given else limits


def size(n: int) -> str:
    """``32 MiB`` / ``1,500 bytes`` for a message."""
    if n >= MiB:
        return f"{n // MiB:,} MiB" if n % MiB == 0 else f"{n / MiB:,.1f} MiB"
    return f"{n:,} bytes"
