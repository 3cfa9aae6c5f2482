"""Whether a rule pack is installed: the command's kept answer follows installs and removals."""

from __future__ import annotations

import os
import sys

import pytest

from benchaudit import regex_cache, registry


@pytest.fixture
def command_cache(tmp_path, monkeypatch):
    """The command's caches in place (as the console script installs them), in ``tmp_path``."""
    monkeypatch.setenv("BENCHAUDIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("BENCHAUDIT_NO_CACHE", raising=False)
    regex_cache.uninstall()
    regex_cache.install()
    yield
    regex_cache.uninstall()


def _install_pack(site, name: str = "shouted_rules-1.0.dist-info") -> None:
    meta = site / name
    meta.mkdir()
    (meta / "entry_points.txt").write_text(
        "[benchaudit.rules]\nshouted = shouted_rules\n", encoding="utf-8"
    )


def _bump(folder) -> None:
    """A folder's time moved on, as a later install's would be (file systems with coarse
    times may otherwise give the same time twice within a test)."""
    st = os.stat(folder)
    os.utime(folder, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))


@pytest.mark.parametrize("cached", [False, True])
def test_a_rule_pack_is_found_after_install_and_not_after_removal(
    tmp_path, monkeypatch, request, cached
):
    if cached:
        request.getfixturevalue("command_cache")
    site = tmp_path / "site"
    site.mkdir()
    (site / "other-2.0.dist-info").mkdir()  # a distribution without entry points
    monkeypatch.setattr(sys, "path", [str(site)])
    assert registry._any_rule_pack_installed() is False
    assert registry._any_rule_pack_installed() is False  # read back when cached
    _install_pack(site)
    _bump(site)
    assert registry._any_rule_pack_installed() is True
    for child in (site / "shouted_rules-1.0.dist-info").iterdir():
        child.unlink()
    (site / "shouted_rules-1.0.dist-info").rmdir()
    _bump(site)
    assert registry._any_rule_pack_installed() is False


def test_the_kept_answer_is_the_one_read_from_the_folders(tmp_path, monkeypatch, command_cache):
    site = tmp_path / "site"
    site.mkdir()
    _install_pack(site)
    monkeypatch.setattr(sys, "path", [str(site), str(tmp_path / "missing")])
    assert registry._look_for_rule_packs() is True
    assert registry._any_rule_pack_installed() is True
    assert registry._any_rule_pack_installed() is True
