"""``benchaudit check`` without click, for the argument lines click would read one way only.

Importing click and building the command tree costs about as much as starting Python, and
a pre-commit hook pays it on every run. :func:`parse` reads the plain argument lines of
``check`` (paths and ``--flag VALUE`` options whose values click would accept as they are)
and returns ``None`` for anything else: help, a version, a typo, ``--flag=VALUE``, a value
click would refuse or convert, another command. Those go to :mod:`benchaudit.cli`, so every
usage error and help text stays click's own; what is accepted here runs the same
:func:`benchaudit.check_run.run_check` that the click command calls.
"""

from __future__ import annotations

import codecs
import io
import os
import sys
from typing import Any, NoReturn

from benchaudit.check_run import guarded, run_check
from benchaudit.config import FAIL_ON
from benchaudit.render import FORMATS

#: Options taken any number of times: flag -> keyword of :func:`run_check`.
_MULTIPLE = {
    "--format": "formats",
    "--output": "outputs",
    "--select": "select",
    "--ignore": "ignore",
    "--n": "n_overrides",
    "--column": "columns",
}
#: Options taken once (click keeps the last of several; those lines go to click).
_SINGLE = {
    "--fail-on": "fail_on",
    "--config": "config_path",
    "--baseline": "baseline",
    "--write-baseline": "write_baseline",
    "--kind": "kind",
    "--baseline-model": "baseline_model",
}
_FLAGS = {"--all-pairs": "all_pairs", "--skip-unknown": "skip_unknown"}
#: The values click checks against a list (case-sensitive, as click's Choice is).
_CHOICES = {"--format": FORMATS, "--fail-on": FAIL_ON}


def parse(argv: list[str]) -> dict[str, Any] | None:
    """The keywords of :func:`run_check` for ``argv`` (after the program name), or None
    when click should read the line."""
    if not argv or argv[0] != "check":
        return None
    paths: list[str] = []
    many: dict[str, list[str]] = {}
    out: dict[str, Any] = {}
    rest = argv[1:]
    i = 0
    while i < len(rest):
        arg = rest[i]
        i += 1
        if not arg.startswith("-"):
            paths.append(arg)
        elif arg in _FLAGS:
            if _FLAGS[arg] in out:
                return None
            out[_FLAGS[arg]] = True
        elif arg in _MULTIPLE or arg in _SINGLE:
            if i >= len(rest):
                return None  # click's "requires an argument"
            value = rest[i]
            i += 1
            # click takes the next word whatever it looks like; "-" alone is stdout.
            if value.startswith("-") and value != "-":
                return None
            if arg in _CHOICES and value not in _CHOICES[arg]:
                return None
            if arg in _MULTIPLE:
                many.setdefault(_MULTIPLE[arg], []).append(value)
            elif _SINGLE[arg] in out:
                return None
            else:
                out[_SINGLE[arg]] = value
        else:  # help, "--", "--x=y", short options, an unknown flag, "-": click's to read
            return None
    if not paths:
        return None
    out["paths"] = tuple(paths)
    out.update({k: tuple(v) for k, v in many.items()})
    return out


def _plain_stream(stream: object) -> bool:
    """A UTF-8 text stream that click would write to as it is."""
    if type(stream) is not io.TextIOWrapper or stream.errors is None:
        return False
    try:
        return codecs.lookup(stream.encoding).name == "utf-8"
    except LookupError:
        return False


def echo(message: str, nl: bool = True, err: bool = False) -> None:
    """What ``click.echo`` does with a str on a plain stream: ANSI codes removed unless it
    is a terminal, then written and flushed."""
    stream = sys.stderr if err else sys.stdout
    out = message + "\n" if nl else message
    if not out:
        stream.flush()
        return
    try:
        tty = stream.isatty()
    except Exception:  # noqa: BLE001 - click's own test: anything wrong means "not a terminal"
        tty = False
    if not tty and "\x1b" in out:
        import re

        out = re.sub(r"\033\[[0-?]*[ -/]*[@-~]", "", out)
    stream.write(out)
    stream.flush()


def run(argv: list[str]) -> bool:
    """Run ``check`` for ``argv`` without click when it can be read here; False when not
    (nothing has been done then)."""
    if os.name != "posix" or not (_plain_stream(sys.stdout) and _plain_stream(sys.stderr)):
        return False
    options = parse(argv)
    if options is None:
        return False
    guarded(echo, lambda: _check(options))
    return True  # pragma: no cover - run_check always exits


def _check(options: dict[str, Any]) -> NoReturn:
    run_check(echo, **options)
