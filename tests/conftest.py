from __future__ import annotations

import os
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


@pytest.fixture
def data_dir() -> Path:
    return DATA


@pytest.fixture(autouse=True)
def _no_debug_env(monkeypatch):
    monkeypatch.delenv("BENCHAUDIT_DEBUG", raising=False)
    yield


def pytest_configure(config):
    os.environ.setdefault("PYTHONHASHSEED", "0")
    # The command keeps compiled patterns in the user's cache folder; a test run, and every
    # command it starts, uses a folder of its own instead of the user's.
    if "BENCHAUDIT_CACHE_DIR" not in os.environ:
        import tempfile

        os.environ["BENCHAUDIT_CACHE_DIR"] = tempfile.mkdtemp(prefix="benchaudit-test-cache-")
