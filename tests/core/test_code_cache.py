"""The command's module cache imports what the import system would import, or steps aside.

Each case runs in a child interpreter (imports are per process): a package of its own on
``sys.path`` is imported with the cache installed, the cache saved, and then imported
again by a second child, with the source, the folders or the bytecode changed in between.
"""

from __future__ import annotations

import json
import os
import py_compile
import subprocess
import sys
import textwrap
from pathlib import Path

from benchaudit import code_cache

#: Imports the modules named on the command line with the cache installed, prints what
#: they are, and saves the cache (as the command does at exit).
CHILD = textwrap.dedent(
    """
    import json, sys
    sys.path[:0] = sys.argv[1].split(",")
    from benchaudit import code_cache
    cache = code_cache.install()
    import importlib
    out = {}
    for name in sys.argv[2:]:
        m = importlib.import_module(name)
        out[name] = {
            "value": getattr(m, "VALUE", None),
            "file": m.__file__,
            "cached": m.__cached__,
            "origin": m.__spec__.origin,
            "path": list(getattr(m, "__path__", []) or []) or None,
            "served": type(m.__loader__) is code_cache._Loader,
            "code": [f.__code__.co_filename for f in vars(m).values() if callable(f) and hasattr(f, "__code__")],
            "source": m.__loader__.get_source(name),
        }
    print(json.dumps(out))
    code_cache.uninstall()
    """
)


def _run(tmp: Path, paths: list[Path], *names: str) -> dict[str, dict[str, object]]:
    env = {**os.environ, "BENCHAUDIT_CACHE_DIR": str(tmp / "cache")}
    env.pop("BENCHAUDIT_NO_CACHE", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    done = subprocess.run(
        [sys.executable, "-c", CHILD, ",".join(map(str, paths)), *names],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp,
        timeout=60,
        check=True,
    )
    result: dict[str, dict[str, object]] = json.loads(done.stdout.splitlines()[-1])
    return result


def _package(root: Path, value: int = 1) -> Path:
    pkg = root / "cachedpkg"
    pkg.mkdir(parents=True, exist_ok=True)
    (pkg / "__init__.py").write_text(f"VALUE = {value}\n", encoding="utf-8")
    (pkg / "leaf.py").write_text(
        f"VALUE = {value * 10}\n\ndef f():\n    return VALUE\n", encoding="utf-8"
    )
    return root


def test_second_run_is_served_and_is_the_same_module(tmp_path):
    root = _package(tmp_path / "a")
    first = _run(tmp_path, [root], "cachedpkg", "cachedpkg.leaf")
    assert not first["cachedpkg"]["served"]  # nothing kept yet
    second = _run(tmp_path, [root], "cachedpkg", "cachedpkg.leaf")
    assert second["cachedpkg"]["served"] and second["cachedpkg.leaf"]["served"]
    for name in first:
        a = {k: v for k, v in first[name].items() if k != "served"}
        b = {k: v for k, v in second[name].items() if k != "served"}
        assert a == b, name  # file, cached, origin, __path__, values, code file names, source
    assert second["cachedpkg.leaf"]["code"] == [str(root / "cachedpkg" / "leaf.py")]


def test_an_edited_source_is_imported_afresh(tmp_path):
    root = _package(tmp_path / "a")
    _run(tmp_path, [root], "cachedpkg.leaf")
    _run(tmp_path, [root], "cachedpkg.leaf")
    leaf = root / "cachedpkg" / "leaf.py"
    leaf.write_text("VALUE = 99\n", encoding="utf-8")
    st = leaf.stat()
    os.utime(leaf, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    got = _run(tmp_path, [root], "cachedpkg.leaf")["cachedpkg.leaf"]
    assert got["value"] == 99 and not got["served"]
    again = _run(tmp_path, [root], "cachedpkg.leaf")["cachedpkg.leaf"]
    assert again["value"] == 99 and again["served"]  # stored anew


def test_a_module_added_earlier_on_the_path_wins(tmp_path):
    root = _package(tmp_path / "a")
    early = tmp_path / "early"
    early.mkdir()
    _run(tmp_path, [early, root], "cachedpkg")
    assert _run(tmp_path, [early, root], "cachedpkg")["cachedpkg"]["served"]
    (early / "cachedpkg.py").write_text("VALUE = 7\n", encoding="utf-8")
    got = _run(tmp_path, [early, root], "cachedpkg")["cachedpkg"]
    assert got["value"] == 7 and got["file"] == str(early / "cachedpkg.py")
    assert not got["served"]


def test_a_file_added_beside_the_module_makes_it_looked_up_again(tmp_path):
    root = _package(tmp_path / "a")
    _run(tmp_path, [root], "cachedpkg.leaf")
    # a package of the same name comes before the module in the path finder's order
    pkg = root / "cachedpkg"
    (pkg / "leaf").mkdir()
    (pkg / "leaf" / "__init__.py").write_text("VALUE = 5\n", encoding="utf-8")
    got = _run(tmp_path, [root], "cachedpkg.leaf")["cachedpkg.leaf"]
    assert got["value"] == 5 and not got["served"]


def test_a_module_without_valid_bytecode_is_not_kept(tmp_path):
    root = _package(tmp_path / "a")
    leaf = root / "cachedpkg" / "leaf.py"
    # hash-based bytecode is checked by the loader its own way: left to it
    py_compile.compile(
        str(leaf), invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH, doraise=True
    )
    _run(tmp_path, [root], "cachedpkg.leaf")
    got = _run(tmp_path, [root], "cachedpkg", "cachedpkg.leaf")
    assert got["cachedpkg"]["served"] and not got["cachedpkg.leaf"]["served"]
    assert got["cachedpkg.leaf"]["value"] == 10


def test_a_relative_path_entry_is_never_kept(tmp_path):
    _package(tmp_path / "a")
    _run(tmp_path, [Path("a")], "cachedpkg")
    got = _run(tmp_path, [Path("a")], "cachedpkg")["cachedpkg"]
    assert got["value"] == 1 and not got["served"]


def test_a_broken_cache_file_is_ignored(tmp_path):
    root = _package(tmp_path / "a")
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / code_cache.file_name()).write_bytes(b"\x00not marshal")
    got = _run(tmp_path, [root], "cachedpkg")["cachedpkg"]
    assert got["value"] == 1 and not got["served"]
    assert _run(tmp_path, [root], "cachedpkg")["cachedpkg"]["served"]


def test_the_cache_is_off_without_a_cache_folder(monkeypatch):
    monkeypatch.setenv("BENCHAUDIT_NO_CACHE", "1")
    assert code_cache.install() is None
