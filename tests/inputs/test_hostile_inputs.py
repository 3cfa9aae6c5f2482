"""Hostile inputs, each in a fresh interpreter under a memory and a time cap.

The reproducers of the security review (bombs, one-line files, huge numbers, NaN boards, a
non-UTF-8 file name ...) are built at test time by ``hostile_cases.py``; the structure-aware
fuzzer of ``hostile_fuzz.py`` edits real inputs of every kind. Each run must end within
30 s with exit 0, 1 or 2, print no traceback, change no input, name the file when it
refuses one, and stay under the stated memory bound:

* address space (``RLIMIT_AS``): 1 GiB. The interpreter with numpy, scipy and pyarrow
  imported maps about 700 MB without touching it, and scipy fails to load below 768 MB,
  so a 256 MB address-space cap cannot be used;
* peak resident memory (``VmHWM`` of the run's own process, which unlike ``ru_maxrss``
  does not inherit the test runner's figure through fork and exec): 256 MB for every input
  under 1 MB on disk (the reproducers' larger sparse files and the 6 MB PDF are allowed
  the bound their case states).

``BENCHAUDIT_FUZZ_BUDGET`` sets the fuzz cases per input kind (default 2; try 50).
``BENCHAUDIT_HOSTILE_ALL=1`` also runs the reproducers whose bound lives in other parts of
the code base (claim extraction, tabular readers) and are skipped until those land.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import hostile_cases as hc
import hostile_fuzz as hf
import pytest

TIMEOUT = 30.0
BUDGET = int(os.environ.get("BENCHAUDIT_FUZZ_BUDGET", "2"))
HERE = Path(__file__).resolve().parents[1]  # tests/, where the hostile-input helpers are


def _fingerprint(path: Path) -> str:
    """Hash of a file; for the sparse multi-GB reproducers, of its size, ends and mtime."""
    st = path.stat()
    h = hashlib.sha256(f"{st.st_size}:{st.st_mtime_ns}".encode())
    with open(path, "rb") as fh:
        if st.st_size <= 16 * hc.MiB:
            h.update(fh.read())
        else:
            h.update(fh.read(hc.MiB))
            fh.seek(-hc.MiB, os.SEEK_END)
            h.update(fh.read())
    return h.hexdigest()


@pytest.mark.slow
@pytest.mark.parametrize("name", list(hc.BUILDERS))
def test_reproducer_is_bounded(name: str, tmp_path: Path) -> None:
    case = hc.BUILDERS[name](tmp_path)
    if case.owner and not os.environ.get("BENCHAUDIT_HOSTILE_ALL"):
        pytest.skip(f"bounded by the {case.owner} change")
    before = {p: _fingerprint(p) for p in case.inputs}
    run = hc.run_capped(case.argv, timeout=TIMEOUT, cwd=str(tmp_path))
    assert not run.timed_out, f"{name}: no answer within {TIMEOUT:.0f} s"
    assert run.code in (0, 1, 2), (run.code, run.stderr[-2000:])
    assert "Traceback" not in run.stderr and "internal error" not in run.stderr, run.stderr[-2000:]
    if case.expect == "error":
        err = run.stderr.strip()
        assert run.code == 2 and len(err.splitlines()) == 1, err
        assert case.names in err, err
    elif case.expect == "answer":
        assert run.code in (0, 1), run.stderr[-2000:]
    assert 0 < run.peak_rss <= case.rss_bound, f"{name}: peak {run.peak_rss / hc.MiB:.0f} MB"
    assert {p: _fingerprint(p) for p in case.inputs} == before, "an input was changed"


@pytest.mark.slow
def test_structure_aware_fuzz_of_every_input_kind(tmp_path: Path) -> None:
    cases = hf.build_cases(tmp_path, BUDGET)
    kinds = {c["kind"].split(".")[0] for c in cases}
    assert {"csv", "tsv", "json", "jsonl", "md", "html", "pdf", "parquet", "eval", "shard"} <= kinds
    assert all(os.path.getsize(p) < hc.MiB for c in cases for p in c["inputs"])
    spec = tmp_path / "cases.json"
    spec.write_text(json.dumps(cases), encoding="utf-8")
    run = hc.run_capped(
        [str(spec)],
        timeout=TIMEOUT * len(cases) + 60,
        cwd=str(tmp_path),
        script=str(HERE / "hostile_fuzz.py"),
    )
    rows = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    assert len(rows) == len(cases), run.stderr[-3000:]
    bad = []
    for row in rows:
        err = row["stderr"].strip()
        if (
            row["hung"]
            or row["code"] not in (0, 1, 2)
            or row["exception"]
            or row["changed"]
            or "Traceback" in err
            or "internal error" in err
            or (row["code"] == 2 and (len(err.splitlines()) != 1 or not err))
        ):
            bad.append(row)
    assert not bad, json.dumps(bad[:3], indent=1)[:6000]
    # Every input is under 1 MB, so the whole run (all kinds in one process) is held to 256 MB.
    peak = max(run.peak_rss, *(row["peak_rss"] for row in rows))
    assert 0 < peak <= hc.PEAK_RSS_BOUND, f"peak {peak / hc.MiB:.0f} MB"


def test_interpreter_with_imports_fits_the_address_space_cap() -> None:
    """The cap the suite states is one the heavy imports fit under."""
    proc = subprocess.run(
        [sys.executable, "-c", "import numpy, scipy.stats, pyarrow.parquet, pandas, benchaudit.cli"],
        preexec_fn=hc._limit(hc.ADDRESS_SPACE_CAP),
        env=dict(os.environ, **hc._THREADS),
        capture_output=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
