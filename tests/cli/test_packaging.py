"""The wheel carries the engine, the rules, the report templates and the registry;
the README's test command is the one CI runs."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_wheel_contents(tmp_path):
    pytest.importorskip("setuptools")
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(tmp_path),
            str(ROOT),
        ],
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        pytest.skip(f"cannot build a wheel offline here: {out.stderr.strip().splitlines()[-1:]}")
    wheel = next(tmp_path.glob("benchaudit_lint-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "benchaudit/benchmarks.toml" in names
    assert "benchaudit/rules/__init__.py" in names
    assert "benchaudit/reports/__init__.py" in names
    rule_modules = {f"benchaudit/rules/{p.relative_to(ROOT / 'rules').as_posix()}" for p in (ROOT / "rules").rglob("*.py")}
    assert not rule_modules - names, f"rule modules missing from the wheel: {sorted(rule_modules - names)}"
    for tpl in (ROOT / "reports").glob("*.j2"):
        assert f"benchaudit/reports/{tpl.name}" in names
    for pkg in (ROOT / "benchaudit").rglob("__init__.py"):
        rel = pkg.relative_to(ROOT).as_posix()
        assert rel in names, f"{rel} missing from the wheel (add it to [tool.setuptools] packages)"
    assert not any(n.startswith(("rules/", "reports/", "tests/")) for n in names)


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    blocks = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    commands = [line for line in blocks.splitlines() if line.startswith("python3 -m venv")]
    assert len(commands) == 2, commands
    assert "pytest" in commands[1]
    assert commands[1] in ci


def test_distribution_name_is_our_own_and_every_install_line_uses_it():
    """``benchaudit`` on the package index is an unrelated project: nothing may tell a
    user to install it. The import package and the command keep the name."""
    import benchaudit

    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["name"] == benchaudit.DISTRIBUTION == "benchaudit-lint"
    assert project["scripts"] == {"benchaudit": "benchaudit.command:main"}
    assert project["license"] == "Apache-2.0"  # an SPDX expression, not the table form
    texts = [ROOT / "README.md", ROOT / "corpora" / "README.md", *(ROOT / "docs").glob("*.md")]
    texts += [*(ROOT / "benchaudit").rglob("*.py"), ROOT / "action.yml"]
    import re

    wrong = re.compile(r"pip install [\"']?benchaudit(?![-\w])")
    for path in texts:
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            assert not wrong.search(line), f"{path.relative_to(ROOT)}:{i}: {line.strip()}"
