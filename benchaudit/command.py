"""The ``benchaudit`` console script (and ``python -m benchaudit``).

The command line of :mod:`benchaudit.cli`, started with the compiled-regex cache of
:mod:`benchaudit.regex_cache` in place before anything compiles a pattern, so the
patterns of click, the Markdown parser and the claim reader all come from it, and the
compiled record-class methods of :mod:`benchaudit.method_cache` before any class is made. A plain
``check`` line is run by :mod:`benchaudit.fastpath` without importing click.
"""

from __future__ import annotations

import sys


def main() -> None:
    from benchaudit import method_cache, regex_cache

    regex_cache.install()
    method_cache.install()
    from benchaudit import fastpath

    if fastpath.run(sys.argv[1:]):
        return  # pragma: no cover - the check exits
    from benchaudit.cli import main as command

    command()
