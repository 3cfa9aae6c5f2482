"""Random mutation probes: does any test notice when a condition is replaced by a constant?

A seeded sample of conditions (comparisons and ``and`` / ``or`` expressions in an
``if``, ``elif``, ``while``, ``return`` or conditional expression) is drawn from
the rules (``rules/``), the statistics (``benchaudit/stats/``) and the analyses
(``benchaudit/analysis/``). Each is
replaced by ``True`` or ``False`` (chosen by the same seed) in a temporary copy of
the working tree, and the tests that belong to the module are run there:

* a rule module: its case file (``tests/rules/test_rule_cases.py -k <rule>``);
* a statistics module: every test file that imports it;
* an analysis module: every test file that imports it, the test of ``results``
  (``tests/analysis/test_results_whatever_selected.py``) and every case file (the rules
  read the analyses, so the cases are where most of them are seen).

A mutant is *killed* when a test fails, *survives* when every test passes (the
tests cannot see that condition), *equivalent-looking* never: a survivor is
reported with its file, line and the text replaced so it can be judged by hand
(some survivors are conditions that only guard speed). Nothing in the checkout
is changed. Run from the repository root::

    python tools/mutation_probe.py                 # 20 conditions, seed 0
    python tools/mutation_probe.py -n 5 --seed 3   # another sample
    python tools/mutation_probe.py --list          # the sample, not run
    python tools/mutation_probe.py --at rules/integrity/generations_as_items.py:95
                                                   # every mutant of that line (a survivor re-run)

It takes about as long as running the sampled tests once per mutant (a few
seconds each); exit status 0 when no mutant survived. ``tests/probes/`` holds the
targeted probes (written by hand, with the test each one must turn red).
"""

from __future__ import annotations

import argparse
import ast
import random
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "probes"))

from run_probes import _copy_tree, _pytest  # noqa: E402

CASE_FILE = "tests/rules/test_rule_cases.py"
RESULTS_TEST = "tests/analysis/test_results_whatever_selected.py"
#: The folders whose conditions are sampled, in the order they are listed.
PROBED = ("rules", "benchaudit/stats", "benchaudit/analysis")


@dataclass(frozen=True)
class Mutant:
    file: str  # relative to the root
    line: int
    col: int
    end_col: int
    original: str
    constant: str

    def apply(self, text: str) -> str:
        lines = text.splitlines(keepends=True)
        row = lines[self.line - 1]
        lines[self.line - 1] = row[: self.col] + self.constant + row[self.end_col :]
        return "".join(lines)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.original} -> {self.constant}"


def _conditions(tree: ast.AST) -> list[ast.expr]:
    """The tests of ``if`` / ``while`` / conditional expressions and returned booleans,
    with the comparisons and boolean operations inside them."""
    out: list[ast.expr] = []
    for node in ast.walk(tree):
        test = None
        if isinstance(node, (ast.If, ast.While, ast.IfExp, ast.Assert)):
            test = node.test
        elif isinstance(node, ast.Return) and isinstance(node.value, (ast.Compare, ast.BoolOp)):
            test = node.value
        if test is None:
            continue
        for sub in ast.walk(test):
            if isinstance(sub, (ast.Compare, ast.BoolOp)):
                out.append(sub)
    return out


def candidates() -> list[Mutant]:
    """Every single-line condition of the modules probed, in a fixed order."""
    files = [p for folder in PROBED for p in sorted((ROOT / folder).rglob("*.py"))]
    out: list[Mutant] = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(ROOT).as_posix()
        for node in _conditions(ast.parse(text)):
            if node.lineno != node.end_lineno or node.end_col_offset is None:
                continue
            segment = ast.get_source_segment(text, node)
            if segment is None or "TYPE_CHECKING" in segment:
                continue
            for constant in ("True", "False"):
                out.append(Mutant(rel, node.lineno, node.col_offset, node.end_col_offset, segment, constant))
    return out


def sample(n: int, seed: int) -> list[Mutant]:
    """``n`` mutants, one per condition, drawn with ``seed``."""
    rng = random.Random(seed)
    by_site: dict[tuple[str, int, int], list[Mutant]] = {}
    for m in candidates():
        by_site.setdefault((m.file, m.line, m.col), []).append(m)
    sites = sorted(by_site)
    chosen = rng.sample(sites, min(n, len(sites)))
    return [rng.choice(by_site[s]) for s in sorted(chosen)]


def tests_for(file: str) -> list[str]:
    """The tests that belong to a probed module (see the module docstring)."""
    path = Path(file)
    if path.parts[0] == "rules":
        if path.name.startswith("_") or path.name == "__init__.py":
            return [CASE_FILE]  # shared wording: every case
        text = (ROOT / file).read_text(encoding="utf-8")
        found = re.search(r'^\s+name = "([a-z0-9-]+)"', text, re.M)
        return [CASE_FILE, "-k", found.group(1)] if found else [CASE_FILE]
    module, package = path.stem, path.parent.name  # "stats" or "analysis"
    pattern = re.compile(rf"{package}\.{module}\b|{package} import [\w, ]*\b{module}\b")
    found = sorted(
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "tests").rglob("test_*.py")
        if pattern.search(p.read_text(encoding="utf-8"))
    )
    if package == "analysis":
        # What the analyses give the report (``results``), and what the rules make of them.
        found += [t for t in (RESULTS_TEST, CASE_FILE) if t not in found]
    return found


def run(mutants: list[Mutant]) -> list[Mutant]:
    survivors = []
    with tempfile.TemporaryDirectory(prefix="benchaudit-mutants-") as tmp:
        tree = Path(tmp)
        _copy_tree(tree)
        for m in mutants:
            tests = tests_for(m.file)
            if not tests:
                print(f"untested  {m}")
                survivors.append(m)
                continue
            target = tree / m.file
            text = target.read_text(encoding="utf-8")
            try:
                target.write_text(m.apply(text), encoding="utf-8")
                passed, tail = _pytest(tree, tests)
            finally:
                target.write_text(text, encoding="utf-8")
            print(f"{'SURVIVED' if passed else 'killed  '}  {m}   [{tail}]", flush=True)
            if passed:
                survivors.append(m)
    return survivors


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", type=int, default=20, help="how many conditions (20)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the sample (0)")
    parser.add_argument("--list", action="store_true", help="print the sample, run nothing")
    parser.add_argument(
        "--at", action="append", metavar="FILE:LINE", help="every mutant of these lines, no sample"
    )
    args = parser.parse_args(argv)
    if args.at:
        wanted = {tuple(a.rsplit(":", 1)) for a in args.at}
        mutants = [m for m in candidates() if (m.file, str(m.line)) in wanted]
    else:
        mutants = sample(args.n, args.seed)
    if args.list:
        for m in mutants:
            print(m, "   tests:", " ".join(tests_for(m.file)))
        return 0
    survivors = run(mutants)
    print(f"\n{len(mutants) - len(survivors)} of {len(mutants)} killed; {len(survivors)} survived")
    for m in survivors:
        print(f"  {m}")
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
