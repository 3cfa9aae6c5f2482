"""The console script ends its process without the interpreter's teardown, and nothing the
ordinary exit does for the user is lost: output, ``atexit`` functions, exit status."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

CARD = "| Model | GSM8K |\n|---|---|\n| ours | 92.5 |\n\nWe reach 87.3% on HumanEval.\n"

#: A program that runs the command as the console script does, after leaving a buffered
#: line on stdout and an exit function that writes to both streams and to a file.
PROGRAM = textwrap.dedent(
    """
    import atexit, sys
    marker = sys.argv[1]
    print("before", end="\\n")
    def done():
        print("exit function ran")
        sys.stderr.write("exit function stderr\\n")
        open(marker, "w").write("written at exit")
    atexit.register(done)
    sys.argv = ["benchaudit", *sys.argv[2:]]
    from benchaudit.command import main
    main(whole_process={whole})
    """
)


def _run(tmp_path: Path, whole: bool, *args: str, stdout: int | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BENCHAUDIT_")}
    env["BENCHAUDIT_CACHE_DIR"] = str(tmp_path / "cache")
    return subprocess.run(
        [sys.executable, "-c", PROGRAM.format(whole=whole), str(tmp_path / "marker"), *args],
        cwd=tmp_path,
        capture_output=stdout is None,
        stdout=stdout,
        stderr=subprocess.PIPE if stdout is not None else None,
        text=True,
        env=env,
        timeout=120,
    )


@pytest.mark.parametrize(
    "args",
    [
        ["check", "README.md"],
        ["check", "README.md", "--fail-on", "info"],
        ["check", "README.md", "--format", "json"],
        ["check", "missing.md"],
        ["check", "--no-such-flag"],
        ["--version"],
        ["rules"],
    ],
)
def test_the_quick_end_gives_what_the_ordinary_exit_gives(tmp_path, args):
    (tmp_path / "README.md").write_text(CARD, encoding="utf-8")
    quick = _run(tmp_path, True, *args)
    marker = (tmp_path / "marker").read_text(encoding="utf-8")
    (tmp_path / "marker").unlink()
    ordinary = _run(tmp_path, False, *args)
    assert (quick.returncode, quick.stdout, quick.stderr) == (
        ordinary.returncode,
        ordinary.stdout,
        ordinary.stderr,
    )
    assert quick.stdout.startswith("before\n") and "exit function ran" in quick.stdout
    assert "exit function stderr" in quick.stderr
    assert marker == (tmp_path / "marker").read_text(encoding="utf-8") == "written at exit"


def test_the_caches_are_saved_by_the_quick_end(tmp_path):
    from benchaudit import method_cache, regex_cache

    (tmp_path / "README.md").write_text(CARD, encoding="utf-8")
    done = _run(tmp_path, True, "check", "README.md", "--fail-on", "never")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "cache" / regex_cache.file_name()).is_file()
    assert (tmp_path / "cache" / method_cache.file_name()).is_file()


def test_a_stream_that_cannot_be_written_is_left_to_the_ordinary_exit(tmp_path):
    (tmp_path / "README.md").write_text(CARD, encoding="utf-8")
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    with open("/dev/full", "w") as full:
        quick = _run(tmp_path, True, "check", "README.md", stdout=full.fileno())
        ordinary = _run(tmp_path, False, "check", "README.md", stdout=full.fileno())
    assert quick.returncode == ordinary.returncode != 0
    assert quick.stderr == ordinary.stderr


def test_end_process_returns_for_what_it_cannot_do_the_same_way(monkeypatch):
    from benchaudit import command

    ended: list[int] = []
    monkeypatch.setattr(os, "_exit", ended.append)
    command.end_process("a message")  # printed by the ordinary exit
    command.end_process(256)  # truncated by the ordinary exit
    command.end_process(-1)
    assert ended == []


def test_python_dash_m_run_by_another_program_returns_to_it(tmp_path):
    (tmp_path / "README.md").write_text(CARD, encoding="utf-8")
    program = textwrap.dedent(
        """
        import runpy, sys
        sys.argv = ["benchaudit", "check", "README.md"]
        try:
            runpy.run_module("benchaudit", run_name="__main__")
        except SystemExit as exc:
            print("returned", exc.code)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", program], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.stdout.rstrip().endswith("returned 0"), done.stdout + done.stderr
