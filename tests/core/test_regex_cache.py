"""The command's cache of compiled regular expressions gives the patterns :mod:`re` gives."""

from __future__ import annotations

import os
import re

import pytest

from benchaudit import regex_cache

PATTERNS = [
    (r"(?P<v>[-+−]?\d+(?:\.\d+)?)\s*(?P<pct>%)?", 0),
    (r"\b(?:HumanEval|GSM8K|MATH-500)\b", re.I),
    (r"""(?x) (?<![\w-]) (?:pass) @ (\d+)  # a comment""", 0),
    (r"^\s*(?:avg\.?|average|mean)\b", re.I | re.M),
    (r"(a)|(?P<b>b)(?(1)c|d)", 0),
    ("[À-ÿ]+|\\u2212\\d", re.UNICODE),
    (r"(?s).{2,5}?$", 0),
]


def _fresh(pattern: str, flags: int) -> re.Pattern[str]:
    """The ordinary compiler's pattern, bypassing re's own cache and any cache installed."""
    return (
        regex_cache._compiler.compile(pattern, flags)
        if regex_cache._INSTALLED is None
        else (regex_cache._INSTALLED.original(pattern, flags))
    )


@pytest.fixture
def cache_file(tmp_path):
    return str(tmp_path / regex_cache.file_name())


def test_a_program_read_back_gives_the_same_pattern(cache_file):
    first = regex_cache.ProgramCache(cache_file, _fresh)
    for p, f in PATTERNS:
        assert first.compile(p, f) == _fresh(p, f)
    assert first.added == len(PATTERNS)
    first.save()
    again = regex_cache.ProgramCache(cache_file, _fail_if_called)
    for p, f in PATTERNS:
        got = again.compile(p, f)
        want = _fresh(p, f)
        # re.Pattern equality is flags, pattern text and program code
        assert got == want and got.groupindex == want.groupindex and got.groups == want.groups
        assert [m.groupdict() for m in got.finditer("x 87.2% HumanEval pass@5")] == [
            m.groupdict() for m in want.finditer("x 87.2% HumanEval pass@5")
        ]
    assert again.added == 0


def _fail_if_called(pattern: str, flags: int) -> re.Pattern[str]:
    raise AssertionError(f"compiled {pattern!r} although it was cached")


def test_a_damaged_file_is_ignored(cache_file):
    with open(cache_file, "wb") as fh:
        fh.write(b"\x00not marshal data")
    cache = regex_cache.ProgramCache(cache_file, _fresh)
    assert cache.programs == {}
    assert cache.compile(r"\d+", 0).match("42")


def test_an_entry_that_does_not_fit_is_compiled_afresh(cache_file):
    cache = regex_cache.ProgramCache(cache_file, _fresh)
    cache.programs[(r"\d+", 0)] = (32, b"\xff\xff\xff\xff" * 3, 0, {}, (None,))
    got = cache.compile(r"\d+", 0)
    assert got == _fresh(r"\d+", 0)
    assert cache.programs[(r"\d+", 0)][1] != b"\xff\xff\xff\xff" * 3


def test_bytes_and_debug_patterns_are_left_to_re(cache_file):
    cache = regex_cache.ProgramCache(cache_file, _fresh)
    assert cache.compile(rb"\d+", 0).match(b"7")
    assert cache.added == 0


def test_a_read_only_folder_costs_no_run(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        cache = regex_cache.ProgramCache(str(folder / "x" / "c.marshal"), _fresh)
        cache.compile(r"a+", 0)
        cache.save()  # no exception
    finally:
        folder.chmod(0o700)


def test_the_folder_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("BENCHAUDIT_CACHE_DIR", str(tmp_path))
    assert regex_cache.cache_dir() == str(tmp_path)
    monkeypatch.setenv("BENCHAUDIT_NO_CACHE", "1")
    assert regex_cache.cache_dir() is None
    monkeypatch.delenv("BENCHAUDIT_NO_CACHE")
    monkeypatch.delenv("BENCHAUDIT_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    if os.name == "posix" and os.uname().sysname == "Linux":
        assert regex_cache.cache_dir() == str(tmp_path / "xdg" / "benchaudit")


def test_install_and_uninstall(monkeypatch, tmp_path):
    monkeypatch.setenv("BENCHAUDIT_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(regex_cache, "_INSTALLED", None)
    before = regex_cache._compiler.compile
    cache = regex_cache.install()
    try:
        assert cache is not None and regex_cache._compiler.compile == cache.compile
        pattern = "(?:installed-cache-probe)+" + str(os.getpid())
        assert re.compile(pattern).fullmatch("installed-cache-probe" + str(os.getpid()))
    finally:
        regex_cache.uninstall()
    assert regex_cache._compiler.compile is before
    assert os.path.exists(os.path.join(str(tmp_path), regex_cache.file_name()))


def test_remembered_parses_once_while_the_text_is_unchanged(monkeypatch, tmp_path):
    monkeypatch.setenv("BENCHAUDIT_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(regex_cache, "_INSTALLED", None)
    calls: list[str] = []

    def parse(text: str) -> dict[str, list[int]]:
        calls.append(text)
        return {"n": [len(text)], "f": [0.5]}

    # Without the command's cache it is the parse itself.
    assert regex_cache.remembered("probe", "abc", parse) == {"n": [3], "f": [0.5]}
    regex_cache.install()
    try:
        assert regex_cache.remembered("probe", "abcd", parse) == {"n": [4], "f": [0.5]}
        assert regex_cache.remembered("probe", "abcd", parse) == {"n": [4], "f": [0.5]}
        assert regex_cache.remembered("probe", "abcde", parse) == {"n": [5], "f": [0.5]}
    finally:
        regex_cache.uninstall()
    assert calls == ["abc", "abcd", "abcde"]


def test_importing_benchaudit_leaves_re_alone():
    import benchaudit.engine  # noqa: F401 - the Python API's entry

    if regex_cache._INSTALLED is None:
        assert regex_cache._compiler.compile.__module__ in ("re._compiler", "sre_compile")


def test_programs_no_run_uses_are_dropped(cache_file, monkeypatch):
    monkeypatch.setattr(regex_cache, "KEEP_SAVES", 3)
    for run in range(6):
        cache = regex_cache.ProgramCache(cache_file, _fresh)
        cache.compile(r"kept\d", 0)
        cache.compile(f"changing-{run}", 0)  # a pattern whose text differs every run
        cache.save()
    kept = regex_cache.ProgramCache(cache_file, _fail_if_called)
    assert (r"kept\d", 0) in kept.programs
    assert sorted(p for p, _ in kept.programs if p.startswith("changing")) == [
        "changing-3",
        "changing-4",
        "changing-5",
    ]


@pytest.mark.parametrize(
    ("pattern", "single"),
    [
        ("[abc]", True),
        ("[^a-z]", True),
        (r"[\]\[\\\n~]", True),
        ("[a][b]", False),
        ("[a]+", False),
        ("x[a]", False),
        ("[]", False),
        ("[│┃║|]", False),  # compiled into a table of the whole range: kept
    ],
)
def test_one_character_class_is_recognised(pattern, single):
    assert regex_cache.one_class(pattern) is single


def test_a_character_class_is_compiled_not_kept(cache_file):
    # The Markdown parser joins a set of characters into one class: its text changes from
    # run to run, and keeping it would rewrite the whole file every time.
    cache = regex_cache.ProgramCache(cache_file, _fresh)
    got = cache.compile("[" + re.escape("".join({"*", "_", "`", "["})) + "]", 0)
    assert got.search("a*b").group() == "*"
    assert cache.added == 0 and cache.programs == {}


def test_a_second_card_check_does_not_rewrite_the_cache(tmp_path):
    import subprocess
    import sys

    card = tmp_path / "README.md"
    card.write_text("| Model | GSM8K |\n|---|---|\n| *ours* | **92.5** |\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("BENCHAUDIT_")}
    env["BENCHAUDIT_CACHE_DIR"] = str(tmp_path / "cache")
    program = "import sys; sys.argv = ['benchaudit', 'check', 'README.md']; from benchaudit.command import main; main()"
    stamps = []
    for _ in range(3):
        subprocess.run([sys.executable, "-c", program], cwd=tmp_path, env=env, capture_output=True, timeout=120)
        stamps.append(os.stat(tmp_path / "cache" / regex_cache.file_name()).st_mtime_ns)
    assert stamps[1] == stamps[2]
