"""The ``benchaudit`` console script (and ``python -m benchaudit``).

The command line of :mod:`benchaudit.cli`, started with the compiled-regex cache of
:mod:`benchaudit.regex_cache` in place before anything compiles a pattern, so the
patterns of click, the Markdown parser and the claim reader all come from it.
"""

from __future__ import annotations


def main() -> None:
    from benchaudit import regex_cache

    regex_cache.install()
    from benchaudit.cli import main as command

    command()
