"""The console script reads plain ``check`` lines without click: same bytes on stdout and
stderr, same files written, same exit code as the click command, and every other line
is left to click."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest

from benchaudit import fastpath

CARD = (
    "# Card\n\nWith greedy decoding we reach 87.3% on HumanEval, up from 84.1%.\n\n"
    "| Model | GSM8K | MMLU |\n|---|---|---|\n| ours | 92.5 | 70.3 |\n| base | 90.1 | 68.9 |\n"
)
CSV = "model,item,correct\n" + "".join(
    f"{m},q{i},{(i * (2 + k)) % 3 == 0:d}\n" for k, m in enumerate("ab") for i in range(10)
)

FAST = "from benchaudit.command import main; main()"
CLICK = "from benchaudit import regex_cache; regex_cache.install(); from benchaudit.cli import main; main()"

LINES = [
    ["check", "README.md"],
    ["check", "README.md", "--fail-on", "never"],
    ["check", "README.md", "--fail-on", "info"],
    ["check", "README.md", "--format", "json"],
    ["check", "README.md", "--format", "json", "--format", "markdown", "--output", "out.json"],
    ["check", "README.md", "--format", "sarif", "--output", "-"],
    ["check", "README.md", "--format", "html", "--output", "out.html"],
    ["check", "README.md", "--select", "BA103", "--ignore", "BA104"],
    ["check", "README.md", "results.csv", "--all-pairs", "--skip-unknown"],
    ["check", "results.csv", "--baseline-model", "a"],
    ["check", "results.csv", "--baseline-model", "nobody"],
    ["check", "missing.md"],
    ["check", "README.md", "missing.md"],
    ["check", "README.md", "--n", "HumanEval=abc"],
    ["check", "README.md", "--n", "HumanEval"],
    ["check", "README.md", "--column", "model"],
    ["check", "README.md", "--kind", "nonsense"],
    ["check", "README.md", "--output", "README.md", "--format", "text"],
    ["check", "README.md", "--output", "a", "--output", "b"],
    ["check", "README.md", "--config", "nowhere.toml"],
    ["check", "README.md", "--write-baseline", "base.json"],
    ["check", "README.md", "--baseline", "nowhere.json"],
    ["check", "."],
]

#: Lines click must read (help, usage errors, conversions, other commands).
TO_CLICK = [
    [],
    ["--help"],
    ["--version"],
    ["rules"],
    ["check"],
    ["check", "--help"],
    ["check", "-h", "README.md"],
    ["check", "README.md", "--fail-on"],
    ["check", "README.md", "--fail-on", "bogus"],
    ["check", "README.md", "--fail-on", "NEVER"],
    ["check", "README.md", "--format", "yaml"],
    ["check", "README.md", "--fail-on=never"],
    ["check", "README.md", "--fail-on", "never", "--fail-on", "error"],
    ["check", "README.md", "--all-pairs", "--all-pairs"],
    ["check", "README.md", "--seed", "3"],
    ["check", "README.md", "--pdf-max-pages", "0"],
    ["check", "README.md", "--output", "--format"],
    ["check", "README.md", "--frmat", "json"],
    ["check", "--", "README.md"],
    ["check", "-"],
    ["chek", "README.md"],
]


def _files(tmp_path: Path) -> Path:
    tmp_path.mkdir(exist_ok=True)
    (tmp_path / "README.md").write_text(CARD, encoding="utf-8")
    (tmp_path / "results.csv").write_text(CSV, encoding="utf-8")
    return tmp_path


def _run(code: str, argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[bytes, bytes, int, dict[str, bytes]]:
    proc = subprocess.run(
        [sys.executable, "-c", code, *argv], cwd=cwd, capture_output=True, timeout=120, env=env
    )
    written = {p.name: p.read_bytes() for p in sorted(cwd.iterdir()) if p.is_file()}
    return proc.stdout, proc.stderr, proc.returncode, written


@pytest.mark.parametrize("argv", LINES, ids=[" ".join(a[1:]) for a in LINES])
def test_the_fast_path_reads_these_lines(argv):
    assert fastpath.parse(argv) is not None


@pytest.mark.parametrize("argv", TO_CLICK, ids=[" ".join(a) or "(none)" for a in TO_CLICK])
def test_other_lines_go_to_click(argv):
    assert fastpath.parse(argv) is None


def test_parse_gives_click_s_keywords():
    got = fastpath.parse(
        ["check", "a.md", "--format", "json", "--output", "-", "b.md", "--fail-on", "never", "--all-pairs"]
    )
    assert got == {
        "paths": ("a.md", "b.md"),
        "formats": ("json",),
        "outputs": ("-",),
        "fail_on": "never",
        "all_pairs": True,
    }


def test_same_output_files_and_exit_codes_as_click(tmp_path):
    env = {**os.environ, "BENCHAUDIT_CACHE_DIR": str(tmp_path / "cache"), "PYTHONHASHSEED": "0"}
    env.pop("FORCE_COLOR", None)
    codes = set()
    for n, argv in enumerate(LINES):
        fast = _run(FAST, argv, _files(tmp_path / f"fast{n}"), env)
        slow = _run(CLICK, argv, _files(tmp_path / f"click{n}"), env)
        assert fast[2] == slow[2], argv
        assert fast[0] == slow[0], argv
        assert fast[1] == slow[1], argv
        assert fast[3] == slow[3], argv
        codes.add(fast[2])
    assert codes == {0, 1, 2}  # clean runs, findings and one-line errors all compared


def test_forced_colour_is_stripped_off_a_pipe_as_click_strips_it(tmp_path):
    env = {**os.environ, "BENCHAUDIT_CACHE_DIR": str(tmp_path / "cache"), "FORCE_COLOR": "1"}
    argv = ["check", "README.md"]
    fast = _run(FAST, argv, _files(tmp_path / "fast"), env)
    slow = _run(CLICK, argv, _files(tmp_path / "click"), env)
    assert fast[:3] == slow[:3] and b"\x1b" not in fast[0]


class _Tty(io.TextIOWrapper):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("tty", [False, True])
@pytest.mark.parametrize("nl", [False, True])
@pytest.mark.parametrize("text", ["", "plain", "\x1b[1mbold\x1b[0m and \x1b[31;1mred\x1b[0m\n", "\x1b]8;;x\x1b\\"])
def test_echo_writes_what_click_echo_writes(monkeypatch, text, nl, tty):
    outs = []
    for write in (fastpath.echo, click.echo):
        raw = io.BytesIO()
        stream = (_Tty if tty else io.TextIOWrapper)(raw, encoding="utf-8", errors="strict")
        monkeypatch.setattr(sys, "stdout", stream)
        write(text, nl=nl)
        outs.append(raw.getvalue())
    assert outs[0] == outs[1]


def test_a_stream_click_would_rewrap_goes_to_click(monkeypatch):
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BytesIO(), encoding="ascii"))
    assert fastpath.run(["check", "README.md"]) is False


def test_the_fast_path_s_options_are_click_s_own():
    # An option read here must mean to click what it means here: a string (or the same
    # choices), taken once or many times as here, the same keyword; a flag a plain flag.
    from benchaudit.cli import check

    params = {opt: p for p in check.params for opt in p.opts}
    for flag, dest in {**fastpath._MULTIPLE, **fastpath._SINGLE}.items():
        p = params[flag]
        assert p.name == dest and not getattr(p, "is_flag", False), flag
        assert p.multiple == (flag in fastpath._MULTIPLE), flag
        if flag in fastpath._CHOICES:
            assert isinstance(p.type, click.Choice) and tuple(p.type.choices) == tuple(fastpath._CHOICES[flag])
            assert p.type.case_sensitive
        else:
            assert p.type is click.STRING, flag
        # no default (click 8.5 marks it with a sentinel), no environment variable, no callback
        assert str(p.default) in ("None", "()", "Sentinel.UNSET"), flag
        assert p.envvar is None and p.callback is None, flag
    for flag, dest in fastpath._FLAGS.items():
        p = params[flag]
        assert p.name == dest and p.is_flag and not p.multiple and p.callback is None, flag
    paths = next(p for p in check.params if p.name == "paths")
    assert paths.nargs == -1 and paths.required and paths.type is click.STRING
