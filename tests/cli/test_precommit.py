"""The pre-commit hook, end to end with pre-commit itself.

The hook repository is a snapshot of this working tree committed into a
temporary git repository, so the test does not depend on what the parent
repository has committed. pre-commit installs the hook into its own virtual
environment from that commit the way it does for a user: pip installs the
distribution and its dependencies from the package index (through the
machine's pip cache, so a machine that has installed the test extra fetches
little). The ``repo: local`` test below runs the same hook definition against
the installed command.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
HOOKS = ROOT / ".pre-commit-hooks.yaml"

#: The README's headline example: a warning (the protocol is not stated), which the
#: hook blocks because it fails on warnings.
BAD = "Our model reaches 87.3% on HumanEval.\n"
GOOD = "We reach 87.2% on HumanEval (greedy decoding, a single pass; 143/164, 95% CI 81.2-91.5%).\n"
#: Staged beside the cards: matches the hook's extensions, is no kind benchaudit reads.
PACKAGE_JSON = '{"name": "site", "version": "1.0.0", "scripts": {"test": "jest"}}\n'
TSCONFIG = '{"compilerOptions": {"strict": true}}\n'


pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _precommit() -> list[str]:
    try:
        import pre_commit  # noqa: F401
    except ImportError:
        pytest.skip("pre-commit is not installed (it is in the 'test' extra)")
    return [sys.executable, "-m", "pre_commit"]


def _pip_cache() -> str:
    """The pip cache of the user running the tests (HOME is replaced below)."""
    out = subprocess.run(
        [sys.executable, "-m", "pip", "cache", "dir"], capture_output=True, text=True
    )
    if out.returncode == 0 and out.stdout.strip():
        return out.stdout.strip()
    return os.environ.get("PIP_CACHE_DIR") or str(Path.home() / ".cache" / "pip")


def _git_env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT"))}
    env.setdefault("PIP_CACHE_DIR", _pip_cache())
    env.update(
        GIT_AUTHOR_NAME="benchaudit tests",
        GIT_AUTHOR_EMAIL="tests@benchaudit.invalid",
        GIT_COMMITTER_NAME="benchaudit tests",
        GIT_COMMITTER_EMAIL="tests@benchaudit.invalid",
        GIT_CONFIG_NOSYSTEM="1",
        HOME=str(tmp / "home"),
        PRE_COMMIT_HOME=str(tmp / "cache"),
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        # Byte-compiling the dependencies is most of an install's time.
        PIP_NO_COMPILE="1",
    )
    (tmp / "home").mkdir(exist_ok=True)
    return env


def _git(cwd: Path, env: dict[str, str], *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True
    ).stdout.strip()


def _snapshot(dest: Path, env: dict[str, str]) -> str:
    """Commit the working tree's files (tracked and new, not ignored) into ``dest``."""
    if not (ROOT / ".git").exists():
        pytest.skip("the source tree is not a git work tree; nothing to snapshot")
    listed = (
        subprocess.run(
            ["git", "ls-files", "-co", "--exclude-standard", "-z"],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
        .stdout.decode()
        .split("\0")
    )
    for rel in filter(None, listed):
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    _git(dest, env, "init", "-q")
    _git(dest, env, "add", "-A")
    _git(dest, env, "commit", "-q", "-m", "snapshot for the hook test")
    return _git(dest, env, "rev-parse", "HEAD")


def _project(path: Path, env: dict[str, str], config: dict) -> None:
    path.mkdir()
    _git(path, env, "init", "-q")
    (path / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    (path / "bad.md").write_text(BAD)
    (path / "good.md").write_text(GOOD)
    (path / "notes.txt").write_text(BAD)  # not a file type the hook looks at
    (path / "package.json").write_text(PACKAGE_JSON)
    (path / "tsconfig.json").write_text(TSCONFIG)
    (path / "empty.md").write_text("")
    _git(path, env, "add", "-A")


def _run(cmd: list[str], path: Path, env: dict[str, str], *files: str):
    return subprocess.run(
        [*cmd, "run", "--color", "never", "--files", *files],
        cwd=path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_hooks_file_is_valid_for_pre_commit():
    _precommit()
    from pre_commit.clientlib import load_manifest

    (hook,) = load_manifest(str(HOOKS))
    assert hook["id"] == "benchaudit"
    assert hook["entry"].split() == ["benchaudit", "check", "--fail-on", "warning", "--skip-unknown"]
    assert hook["language"] == "python"
    pattern = re.compile(hook["files"])
    for name in (
        "card.md",
        "README.markdown",
        "scores.csv",
        "s.tsv",
        "log.jsonl",
        "results.json",
        "paper.pdf",
    ):
        assert pattern.search(name), name
    assert not pattern.search("train.py") and not pattern.search("notes.txt")


@pytest.mark.slow
def test_hook_installed_from_a_commit_blocks_bad_card_passes_good(tmp_path):
    cmd = _precommit()
    env = _git_env(tmp_path)
    hook_repo = tmp_path / "hook"
    hook_repo.mkdir()
    rev = _snapshot(hook_repo, env)
    project = tmp_path / "project"
    _project(
        project,
        env,
        {"repos": [{"repo": str(hook_repo), "rev": rev, "hooks": [{"id": "benchaudit"}]}]},
    )
    others = ("package.json", "tsconfig.json", "empty.md", "notes.txt")
    good = _run(cmd, project, env, "good.md", *others)
    out = good.stdout + good.stderr
    assert good.returncode == 0, out
    assert "Passed" in good.stdout
    bad = _run(cmd, project, env, "bad.md", *others)
    out = bad.stdout + bad.stderr
    assert bad.returncode == 1, out
    assert "Failed" in bad.stdout
    # The findings are printed, and the files it does not read are named as skipped.
    assert "bad.md:1:19: BA101 warning" in bad.stdout, out
    assert "suggestion: Report 87.2% (143/164) or 87.8% (144/164)" in bad.stdout
    assert "skipped package.json" in bad.stdout and "skipped empty.md" in bad.stdout
    assert "notes.txt" not in bad.stdout
    envs = list((tmp_path / "cache").glob("repo*/py_env-*"))
    assert envs, "the hook was not installed into its own environment"
    installed = list(envs[0].glob("lib/python*/site-packages/benchaudit_lint-*.dist-info"))
    assert installed, "the hook environment holds no benchaudit-lint distribution"


@pytest.mark.slow
def test_local_system_hook_with_the_same_definition(tmp_path):
    cmd = _precommit()
    # The console script sits beside the interpreter running the tests (a venv's bin/),
    # which need not be on PATH: CI calls .venv/bin/python directly.
    path = str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", "")
    if shutil.which("benchaudit", path=path) is None:
        pytest.skip("no benchaudit command beside the test interpreter or on PATH")
    env = _git_env(tmp_path)
    env["PATH"] = path
    (hook,) = yaml.safe_load(HOOKS.read_text())
    hook = {**hook, "language": "system"}
    hook.pop("minimum_pre_commit_version", None)
    _project(tmp_path / "project", env, {"repos": [{"repo": "local", "hooks": [hook]}]})
    good = _run(cmd, tmp_path / "project", env, "good.md", "package.json", "empty.md")
    assert good.returncode == 0, good.stdout + good.stderr
    bad = _run(cmd, tmp_path / "project", env, "bad.md", "good.md", "package.json")
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "bad.md:1:" in bad.stdout
    assert not re.search(r"good\.md:\S+ BA\d+ error", bad.stdout)
