"""Caps on what one per-item file may make the reader do: model columns and cells of a
wide file, rows of a Parquet file. Past a cap: one line naming the file and the cap, exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from benchaudit.cli import main
from benchaudit.inputs.limits import DEFAULTS


def _check(path: Path, tmp_path: Path, line: str | None = None):
    args = ["check", str(path)]
    if line:
        cfg = tmp_path / "pyproject.toml"
        cfg.write_text(f"[tool.benchaudit]\n{line}\n")
        args += ["--config", str(cfg)]
    return CliRunner().invoke(main, args)


def _wide(path: Path, models: int, items: int) -> Path:
    cols = [f"m{j}" for j in range(models)]
    rows = ["item," + ",".join(cols)]
    rows += [f"q{i}," + ",".join(str((i * 7 + j) % 2) for j in range(models)) for i in range(items)]
    path.write_text("\n".join(rows) + "\n")
    return path


def _one_line(result, name: str, key: str) -> None:
    assert result.exit_code == 2, result.stdout
    err = result.stderr.strip()
    assert len(err.splitlines()) == 1 and name in err and key in err


def test_a_wide_file_of_2000_model_columns_is_refused_quickly(tmp_path):
    p = _wide(tmp_path / "wide.csv", 2000, 30)  # 131 KB; reading it used to exhaust 8 GB
    _one_line(_check(p, tmp_path), "wide.csv", "max-wide-columns")
    assert DEFAULTS["max-wide-columns"] < 2000


def test_wide_caps_are_configurable(tmp_path):
    p = _wide(tmp_path / "wide.csv", 6, 20)
    assert _check(p, tmp_path).exit_code in (0, 1)
    _one_line(_check(p, tmp_path, "max-wide-columns = 5"), "wide.csv", "max-wide-columns")
    _one_line(_check(p, tmp_path, "max-wide-cells = 100"), "wide.csv", "max-wide-cells")


def test_parquet_row_cap(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    p = tmp_path / "runs.parquet"
    n = 2000
    pq.write_table(
        pa.table({"model": ["a"] * n, "item": [f"q{i}" for i in range(n)], "correct": [1] * n}), p
    )
    assert _check(p, tmp_path).exit_code in (0, 1)
    _one_line(_check(p, tmp_path, "max-parquet-rows = 1000"), "runs.parquet", "max-parquet-rows")
    assert DEFAULTS["max-parquet-rows"] < 5 * 10**7


@pytest.mark.parametrize("key", sorted(DEFAULTS))
def test_every_cap_is_a_configuration_key(tmp_path, key):
    p = _wide(tmp_path / "wide.csv", 2, 4)
    assert _check(p, tmp_path, f"{key} = {DEFAULTS[key]}").exit_code in (0, 1)
    bad = _check(p, tmp_path, f"{key} = 0")
    assert bad.exit_code == 2 and key in bad.stderr
