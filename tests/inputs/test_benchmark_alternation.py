"""The alternation of every registry name, kept by the command between runs, is the one
built from the names; grouped by first letters, it matches what the flat alternation does."""

from __future__ import annotations

import re

from benchaudit import regex_cache
from benchaudit.benchmarks import Registry
from benchaudit.inputs import sentences


def _built(names: list[str]) -> str:
    return sentences._factored([sentences._name_pattern(n) for n in names])


def _flat(names: list[str]) -> str:
    return "|".join(sentences._name_pattern(n) for n in names)


def test_the_kept_alternation_is_the_built_one(tmp_path, monkeypatch):
    names = Registry.load().names()
    assert sentences._alternation(names) == _built(names)  # no cache: built here
    monkeypatch.setenv("BENCHAUDIT_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("BENCHAUDIT_NO_CACHE", raising=False)
    cache = regex_cache.ProgramCache(str(tmp_path / regex_cache.file_name()), lambda p, f: None)
    monkeypatch.setattr(regex_cache, "_INSTALLED", cache)
    first = sentences._alternation(names)
    assert list(tmp_path.glob("benchmark-alternation-*"))
    again = sentences._alternation(names)  # read back from the folder
    assert first == again == _built(names)
    fewer = names[:-1]
    assert sentences._alternation(fewer) == _built(fewer)  # other names: built again
    assert sentences._alternation([]) == ""
    assert sentences._alternation(["odd\nname", "MMLU"]) == _built(["odd\nname", "MMLU"])


def _scanner(alternation: str) -> re.Pattern[str]:
    # the pattern sentences._scan_benchmarks builds around the alternation
    return re.compile(rf"(?<![\w\-])(?:{alternation})(?![\w+]|-\w)", re.I)


def test_the_grouped_alternation_matches_as_the_flat_one():
    names = Registry.load().names()
    grouped, flat = _scanner(_built(names)), _scanner(_flat(names))
    assert grouped.pattern != flat.pattern
    texts = [
        "MMLU 70.3, GSM8K 92.5, HumanEval+ 80.1, MATH-500 76.4 and mmlu-pro; SWE-bench Verified.",
        "Scores on AIME 2024 / AIME 2025 (Pass@1), LiveCodeBench v5, GPQA-Diamond and MBPP sanitized.",
    ]
    for n in names:  # each name as written, in capitals, hyphenated, glued, followed, in other case forms
        texts.append(
            f"{n} | {n.upper()} ({n.lower().replace(' ', '-')}) x{n} {n}x {n}-v2 {n}_ {n.replace(' ', '')}"
            f" {n.lower().replace('k', 'K').replace('s', 'ſ')}."
        )
    for text in texts:
        got = [(m.start(), m.end()) for m in grouped.finditer(text)]
        assert got == [(m.start(), m.end()) for m in flat.finditer(text)], text


def test_alternatives_that_do_not_begin_with_a_letter_stay_flat():
    assert sentences._factored(["\\(a\\)", "ab", "ac", "ad"]) == "\\(a\\)|ab|ac|ad"
    assert sentences._factored(["ab", "ac"]) == "ab|ac"  # too few to group
    assert sentences._factored(["ab", "Ac", "b", "ad"]) == "a(?:b|c|d)|b(?:)"
