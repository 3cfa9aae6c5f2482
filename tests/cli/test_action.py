"""The composite GitHub Action (``action.yml``), its steps run here as a runner would.

Each ``run:`` step is executed with bash in a sample repository, its ``env:``
expressions filled from the action's inputs the way the runner fills them
(``inputs.*``, ``github.action_path``, ``steps.<id>.outputs.*``), with
``GITHUB_OUTPUT``, ``GITHUB_STEP_SUMMARY`` and ``RUNNER_TEMP`` pointing at
files of the test. The install step really installs the action's own tree
into a fresh virtual environment (which sees this interpreter's packages, so
only the distribution itself is built and installed). ``uses:`` steps (set up Python, upload SARIF) are GitHub's own actions:
the test checks that they are the ones expected and what they are given.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")

_EXPR = re.compile(r"\$\{\{\s*([^}]+?)\s*\}\}")


def _action_tree(dest: Path) -> Path:
    """The files of this tree (tracked and new, not ignored), as ``uses:`` checks them out;
    pip then builds there, not in the working tree."""
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, capture_output=True
    )
    if listed.returncode != 0:
        pytest.skip("the source tree is not a git work tree")
    for rel in filter(None, listed.stdout.decode().split("\0")):
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    return dest


def _fill(
    text: str, inputs: dict[str, str], outputs: dict[str, dict[str, str]], action_path: Path
) -> str:
    def value(m: re.Match) -> str:
        expr = m.group(1)
        if expr.startswith("inputs."):
            return inputs[expr[len("inputs.") :]]
        if expr == "github.action_path":
            return str(action_path)
        step = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expr)
        if step:
            return outputs.get(step.group(1), {}).get(step.group(2), "")
        raise AssertionError(f"the test does not know the expression {expr!r}")

    return _EXPR.sub(value, text)


def _read_outputs(path: Path) -> dict[str, str]:
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if "=" in line:
            k, v = line.split("=", 1)
            out[k] = v
    return out


def _sample_repository(path: Path) -> None:
    (path / "docs").mkdir(parents=True)
    (path / "results").mkdir()
    (path / "docs" / "card.md").write_text(
        "# Card\n\nOur model reaches 87.3% on HumanEval.\n", encoding="utf-8"
    )
    shutil.copy(ROOT / "examples" / "scores.csv", path / "results" / "scores.csv")
    (path / "package.json").write_text('{"name": "site", "version": "1.0.0"}\n')


def _fresh_python(path: Path) -> Path:
    """A new virtual environment that also sees this interpreter's packages (as a runner
    image with packages installed would), so the install step fetches and unpacks the
    action's own distribution rather than numpy, scipy and pandas once more."""
    venv.EnvBuilder(with_pip=True, clear=True).create(path)
    site_dirs = [p for p in sys.path if p.endswith("site-packages") and Path(p).is_dir()]
    own = next(path.glob("lib/python*/site-packages"), None) or path / "Lib" / "site-packages"
    (own / "_outer_packages.pth").write_text("\n".join(site_dirs) + "\n", encoding="utf-8")
    return path / ("Scripts" if os.name == "nt" else "bin")


def test_inputs_have_defaults_and_steps_use_known_actions():
    inputs = ACTION["inputs"]
    assert {"paths", "fail-on", "args", "sarif-file", "upload-sarif", "install"} <= set(inputs)
    assert inputs["fail-on"]["default"] == "warning"
    assert ACTION["runs"]["using"] == "composite"
    uses = [s["uses"] for s in ACTION["runs"]["steps"] if "uses" in s]
    assert uses == ["actions/setup-python@v5", "github/codeql-action/upload-sarif@v3"]
    upload = next(s for s in ACTION["runs"]["steps"] if "upload-sarif" in s.get("uses", ""))
    assert upload["with"]["sarif_file"] == "${{ inputs.sarif-file }}"
    # Inputs reach the scripts through env only, never spliced into the shell text.
    for step in ACTION["runs"]["steps"]:
        assert "${{" not in step.get("run", ""), step["name"]


@pytest.mark.slow
def test_action_steps_run_on_a_sample_repository(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    _sample_repository(repo)
    runner_temp = tmp_path / "runner-temp"
    runner_temp.mkdir()
    summary = tmp_path / "step-summary.md"
    summary.write_text("")
    bin_dir = _fresh_python(tmp_path / "python")
    action_path = _action_tree(tmp_path / "action")
    inputs = {k: str(v.get("default", "")) for k, v in ACTION["inputs"].items()}
    inputs["paths"] = "docs results package.json"
    inputs["args"] = "--skip-unknown"

    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "VIRTUAL_ENV"))}
    if "PIP_CACHE_DIR" not in env:
        cache = subprocess.run(
            [sys.executable, "-m", "pip", "cache", "dir"], capture_output=True, text=True
        ).stdout.strip()
        if cache:
            env["PIP_CACHE_DIR"] = cache
    env.update(
        PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}",
        RUNNER_TEMP=str(runner_temp),
        GITHUB_STEP_SUMMARY=str(summary),
        GITHUB_WORKSPACE=str(repo),
        NO_COLOR="1",
        # Byte-compiling numpy, pandas, scipy ... is most of an install's time, and
        # nothing here imports them twice.
        PIP_NO_COMPILE="1",
    )
    outputs: dict[str, dict[str, str]] = {}
    logs: dict[str, subprocess.CompletedProcess] = {}
    for i, step in enumerate(ACTION["runs"]["steps"]):
        if "run" not in step:
            continue
        out_file = tmp_path / f"output-{i}"
        out_file.write_text("")
        step_env = {**env, "GITHUB_OUTPUT": str(out_file)}
        step_env.update(
            {k: _fill(str(v), inputs, outputs, action_path) for k, v in step.get("env", {}).items()}
        )
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
            cwd=repo,
            env=step_env,
            capture_output=True,
            text=True,
            timeout=900,
        )
        logs[step["name"]] = done
        if "id" in step:
            outputs[step["id"]] = _read_outputs(out_file)

    install = logs["Install benchaudit"]
    assert install.returncode == 0, install.stdout[-3000:] + install.stderr[-3000:]
    assert (bin_dir / "benchaudit").exists(), "the install step did not install the command"
    installed = list(
        (tmp_path / "python").glob("lib/python*/site-packages/benchaudit_lint-*.dist-info")
    )
    assert installed, "the action's distribution was not installed into the new environment"
    where = subprocess.run(
        [str(bin_dir / "python"), "-c", "import benchaudit; print(benchaudit.__file__)"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    ).stdout
    assert str(tmp_path / "python") in where, where  # the new install, not this checkout

    check = logs["Check"]
    assert check.returncode == 0, check.stderr  # the step records the code; the last step fails
    assert outputs["check"]["exit-code"] == "1"
    # Workflow annotations in the log, pinned to file and line.
    assert re.search(r"^::warning file=docs/card\.md,line=3,", check.stdout, re.M), check.stdout
    # SARIF for code scanning, written where the upload step looks.
    sarif = json.loads((repo / inputs["sarif-file"]).read_text(encoding="utf-8"))
    assert sarif["version"] == "2.1.0"
    rules = {r["ruleId"] for r in sarif["runs"][0]["results"]}
    assert "BA101" in rules
    # The Markdown job summary.
    text = summary.read_text(encoding="utf-8")
    assert "docs/card.md" in text and "unreachable-score" in text
    assert "skipped package.json" in text

    result = logs["Result"]
    assert result.returncode == 1
    assert "findings at or above the fail-on level" in result.stdout
