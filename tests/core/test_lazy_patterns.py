"""Patterns compiled on first use behave as ``re.compile`` and are compiled once."""

from __future__ import annotations

import re
import subprocess
import sys

from benchaudit.lazy_patterns import LazyPattern, lazy


def test_a_lazy_pattern_matches_as_the_compiled_one():
    text = "Ours 73.0% vs 70.0% (p < 0.05), n = 1,319; p = 0.2"
    for source, flags in ((r"p\s*([<=])\s*(\d*\.\d+)", 0), (r"(?P<n>\d[\d,]*)", re.I)):
        eager, late = re.compile(source, flags), lazy(source, flags)
        assert late.pattern == eager.pattern
        assert [m.span() for m in late.finditer(text)] == [m.span() for m in eager.finditer(text)]
        assert late.search(text).groups() == eager.search(text).groups()
        assert late.findall(text) == eager.findall(text)
        assert late.sub("#", text) == eager.sub("#", text)
        assert late.split(text) == eager.split(text)
        assert (late.flags, late.groups, late.groupindex) == (eager.flags, eager.groups, eager.groupindex)


def test_compiled_on_first_use_and_only_once():
    p = LazyPattern(r"\bvs\.?\b", re.I)
    assert "_compiled" not in vars(p)  # nothing compiled yet
    assert p.pattern == r"\bvs\.?\b"  # the text is there without compiling
    first = p.compiled()
    assert p.search("A VS b") is not None
    assert p.compiled() is first
    assert vars(p)["search"] == first.search  # later calls go straight to the pattern


def test_importing_the_comparison_patterns_compiles_none():
    probe = (
        "import benchaudit.inputs.comparisons as K\n"
        "from benchaudit.lazy_patterns import LazyPattern\n"
        "found = [v for v in vars(K).values() if isinstance(v, LazyPattern)]\n"
        "found += [p for v in vars(K).values() if isinstance(v, list) for p in v "
        "if isinstance(p, LazyPattern)]\n"
        "assert len(found) > 80, len(found)\n"
        "print(sum('_compiled' in vars(p) for p in found))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-800:]
    assert out.stdout.strip() == "0"
