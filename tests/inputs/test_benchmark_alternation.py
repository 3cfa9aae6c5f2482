"""The alternation of every registry name, kept by the command between runs, is the one
built from the names."""

from __future__ import annotations

from benchaudit import regex_cache
from benchaudit.benchmarks import Registry
from benchaudit.inputs import sentences


def _built(names: list[str]) -> str:
    return "|".join(sentences._name_pattern(n) for n in names)


def test_the_kept_alternation_is_the_built_one(tmp_path, monkeypatch):
    names = Registry.load().names()
    assert sentences._alternation(names) == _built(names)  # no cache: built here
    monkeypatch.setenv("BENCHAUDIT_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("BENCHAUDIT_NO_CACHE", raising=False)
    cache = regex_cache.ProgramCache(str(tmp_path / regex_cache.file_name()), lambda p, f: None)
    monkeypatch.setattr(regex_cache, "_INSTALLED", cache)
    first = sentences._alternation(names)
    assert list(tmp_path.glob("benchmark-names-*"))
    again = sentences._alternation(names)  # read back from the folder
    assert first == again == _built(names)
    fewer = names[:-1]
    assert sentences._alternation(fewer) == _built(fewer)  # other names: built again
    assert sentences._alternation([]) == ""
    assert sentences._alternation(["odd\nname", "MMLU"]) == _built(["odd\nname", "MMLU"])
