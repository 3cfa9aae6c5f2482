"""The rule index's checksums, kept in the command's cache folder while no file changed."""

from __future__ import annotations

import os
import subprocess
import sys

from benchaudit import regex_cache, registry


def _files(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    files = {}
    for name, text in (("reporting.a", "class A: ...\n"), ("evidence.py", "KINDS = ()\n")):
        path = src / name
        path.write_text(text, encoding="utf-8")
        files[name] = str(path)
    return files


def _installed(monkeypatch, tmp_path):
    cache = regex_cache.ProgramCache(str(tmp_path / "cache" / "regex.marshal"), lambda p, f=0: None)
    monkeypatch.setattr(regex_cache, "_INSTALLED", cache)


def test_sums_equal_those_read_and_are_kept_while_files_are_unchanged(monkeypatch, tmp_path):
    files = _files(tmp_path)
    monkeypatch.setattr(registry, "_index_files", lambda: files)
    read = registry._read_checksums(files)
    _installed(monkeypatch, tmp_path)
    assert registry._checksums() == read
    # unchanged files: the kept sums, no source read
    monkeypatch.setattr(registry, "_read_checksums", lambda f: {"never": 0})
    assert registry._checksums() == read


def test_a_changed_file_is_read_again(monkeypatch, tmp_path):
    files = _files(tmp_path)
    monkeypatch.setattr(registry, "_index_files", lambda: files)
    _installed(monkeypatch, tmp_path)
    before = registry._checksums()
    path = files["reporting.a"]
    with open(path, "a", encoding="utf-8") as fh:
        fh.write("class B: ...\n")
    after = registry._checksums()
    assert after == registry._read_checksums(files) and after != before
    # same size, another time: read again too
    with open(path, "r+", encoding="utf-8") as fh:
        fh.write("class C")
    st = os.stat(path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    assert registry._checksums() == registry._read_checksums(files) != after


def test_a_missing_file_gives_none(monkeypatch, tmp_path):
    files = _files(tmp_path)
    files["reporting.gone"] = str(tmp_path / "gone.py")
    monkeypatch.setattr(registry, "_index_files", lambda: files)
    assert registry._checksums() is None
    _installed(monkeypatch, tmp_path)
    assert registry._checksums() is None


def test_without_the_command_cache_every_file_is_read(monkeypatch, tmp_path):
    files = _files(tmp_path)
    monkeypatch.setattr(registry, "_index_files", lambda: files)
    monkeypatch.setattr(regex_cache, "_INSTALLED", None)
    assert registry._checksums() == registry._read_checksums(files)
    assert not (tmp_path / "cache").exists()


def test_the_command_raises_the_collector_threshold():
    probe = (
        "import gc, sys\n"
        "from benchaudit import command\n"
        "sys.argv = ['benchaudit', '--version']\n"
        "try:\n    command.main(whole_process=False)\n"
        "except SystemExit:\n    pass\n"
        "print(gc.get_threshold()[0], command.START_THRESHOLD)\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    first, wanted = map(int, out.stdout.split()[-2:])
    assert first == wanted >= 50_000
