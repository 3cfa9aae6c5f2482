"""One input that cannot be read never hides the report on the others.

Named on the command line, an unreadable or unrecognised file is one line on
stderr naming it, the other files are audited and printed, and the exit code
is 2 at the end. In a directory walk (and with ``--skip-unknown``, as the
pre-commit hook runs) files of no known kind and empty files are skipped with
a note.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from benchaudit.cli import main

CARD = "Our model reaches 87.3% pass@1 on HumanEval with greedy decoding.\n"
OTHERS = {
    "package.json": '{"name": "site", "version": "1.0.0", "scripts": {"test": "jest"}}\n',
    "tsconfig.json": '{"compilerOptions": {"strict": true}}\n',
    "people.csv": "name,age,city\nbob,3,paris\nann,5,rome\n",
    "empty.md": "",
}


def _run(*args: str):
    return CliRunner().invoke(main, ["check", *args])


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("docs").mkdir()
    Path("docs/card.md").write_text(CARD, encoding="utf-8")
    for name, text in OTHERS.items():
        Path("docs", name).write_text(text, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("other", [*OTHERS, "missing.md"])
def test_a_named_file_that_cannot_be_read_is_one_line_and_the_rest_is_reported(folder, other):
    res = _run("docs/card.md", f"docs/{other}")
    assert res.exit_code == 2
    assert "docs/card.md:1:19: BA101 error" in res.stdout  # the card's findings are there
    assert "grade F" in res.stdout
    errors = [line for line in res.stderr.splitlines() if line.strip()]
    assert len(errors) == 1 and errors[0].startswith(f"benchaudit: docs/{other}: "), res.stderr


def test_unreadable_first_does_not_hide_later_files(folder):
    res = _run("docs/package.json", "docs/card.md", "--format", "json")
    assert res.exit_code == 2
    assert '"unreachable-score"' in res.stdout


def test_walk_skips_unknown_and_empty_files_with_a_note(folder):
    res = _run("docs")
    assert res.exit_code == 1, res.output  # the card's error, nothing else
    for name in OTHERS:
        assert f"note: skipped docs/{name}: " in res.stdout
    assert res.stderr == ""


def test_skip_unknown_treats_named_files_like_a_walk(folder):
    named = [f"docs/{n}" for n in OTHERS]
    res = _run("--skip-unknown", "--fail-on", "warning", "docs/card.md", *named)
    assert res.exit_code == 1
    assert "docs/card.md:1:19: BA101" in res.stdout
    assert "note: skipped docs/package.json" in res.stdout and res.stderr == ""
    # A file it does recognise but cannot read is still an error under --skip-unknown.
    Path("docs/broken.jsonl").write_text('{"model": "a", "item": 1, "correct": 1}\nnot json\n')
    res = _run("--skip-unknown", "docs/card.md", "docs/broken.jsonl")
    assert res.exit_code == 2 and "docs/broken.jsonl" in res.stderr


def test_no_input_files_names_the_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("src").mkdir()
    Path("src/main.py").write_text("print(1)\n")
    res = _run("src")
    assert res.exit_code == 2
    assert "no input files to check in src" in res.stderr


def test_ci_formats_name_the_file_that_could_not_be_read(folder):
    res = _run("docs/card.md", "docs/package.json", "--format", "github")
    assert res.exit_code == 2
    assert (
        "::error file=docs/package.json,title=cannot read this input::docs/package.json: "
        in res.stdout
    )
    assert "::error file=docs/card.md,line=1,col=19" in res.stdout
    res = _run("docs/card.md", "docs/package.json", "--format", "markdown")
    assert "could not read docs/package.json: " in res.stdout
