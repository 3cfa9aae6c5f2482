"""Same input, same seed: byte-identical output, whatever PYTHONHASHSEED is."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p for p in (ROOT / "examples").glob("*") if p.is_file())


def _run(args: list[str], hashseed: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONHASHSEED=hashseed)
    return subprocess.run(
        [sys.executable, "-m", "benchaudit", *args],
        capture_output=True,
        env=env,
        cwd=ROOT,
        timeout=300,
    )


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["json", "text", "markdown", "sarif", "html"])
def test_output_is_identical_across_hash_seeds(fmt):
    if not EXAMPLES:
        pytest.skip("no examples yet")
    args = ["check", *[str(p.relative_to(ROOT)) for p in EXAMPLES], "--format", fmt, "--seed", "3"]
    first = _run(args, "0")
    if first.returncode == 2 and b"not available" in first.stderr:
        pytest.skip(f"format {fmt} not available")
    assert first.returncode in (0, 1), first.stderr.decode()
    for hashseed in ("1", "12345"):
        again = _run(args, hashseed)
        assert again.returncode == first.returncode
        assert again.stdout == first.stdout, f"{fmt} output differs with PYTHONHASHSEED={hashseed}"
