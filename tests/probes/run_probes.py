"""Re-run the mutation probes of tests/MUTATION_PROBES.md.

Each probe replaces one condition or constant in the code under test with a
constant and runs the tests that should notice. A probe is *red* (good) when at
least one of its tests fails, *green* (bad: the tests cannot see the change)
when they all pass, *stale* when its anchor text is no longer in the file
exactly once (the code moved; update the probe), and *broken* when its tests
fail even unmutated.

Patches are applied in a temporary copy of the working tree, never in the
checkout itself. Run from the repository root::

    python tests/probes/run_probes.py            # every probe
    python tests/probes/run_probes.py P03 P07    # some
    python tests/probes/run_probes.py --list
    python tests/probes/run_probes.py --branches  # every (rule, source kind) silenced in turn

``--branches`` is the sweep that found rank-tie's untested battles branch: for
every rule and every source kind it reads, the rule's findings on sources of
that kind are dropped and the rule's case file is run; a green pair is a branch
no case asserts on.

Exit status 0 when every probe selected is red.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from probes import PROBES, Probe  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _copy_tree(dest: Path) -> None:
    """Copy the files git knows of (tracked and new, not ignored) into ``dest``."""
    out = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout.decode()
    for rel in filter(None, out.split("\0")):
        src = ROOT / rel
        if not src.is_file():  # deleted in the work tree but not yet in the index
            continue
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, target)


def _resolve(tree: Path, rel: str) -> Path | None:
    # The package may live at the top or under src/ (the layout is moving).
    for candidate in (tree / rel, tree / "src" / rel):
        if candidate.is_file():
            return candidate
    return None


def _pytest(tree: Path, tests: list[str]) -> tuple[bool, str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tree), str(tree / "src")]))
    env.pop("PYTEST_ADDOPTS", None)
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *tests],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
    )
    tail = (proc.stdout.strip().splitlines() or [""])[-1]
    return proc.returncode == 0, tail


def run_probe(probe: Probe, tree: Path) -> tuple[str, str]:
    path = _resolve(tree, probe.file)
    if path is None:
        return "stale", f"{probe.file} not found"
    text = path.read_text(encoding="utf-8")
    if text.count(probe.find) != 1:
        return "stale", f"anchor found {text.count(probe.find)} times in {probe.file}"
    try:
        path.write_text(text.replace(probe.find, probe.replace), encoding="utf-8")
        passed, tail = _pytest(tree, list(probe.tests))
    finally:
        path.write_text(text, encoding="utf-8")
    return ("green" if passed else "red"), tail


#: The base class's dispatch, patched so that BENCHAUDIT_PROBE_DROP="rule:kind" silences a branch.
DISPATCH = (
    "benchaudit/registry.py",
    "            if source.kind in self.reads:\n                yield from self.check(source, ctx)",
    "            if source.kind in self.reads:\n"
    "                if f\"{self.name}:{source.kind}\" == __import__('os').environ.get(\n"
    "                    'BENCHAUDIT_PROBE_DROP'\n"
    "                ):\n"
    "                    continue\n"
    "                yield from self.check(source, ctx)",
)


def sweep_branches(tree: Path, only: list[str]) -> int:
    """Silence each (rule, kind) in turn and run the rule's cases; return how many stayed green."""
    path = _resolve(tree, DISPATCH[0])
    text = path.read_text(encoding="utf-8") if path else ""
    if path is None or text.count(DISPATCH[1]) != 1:
        print(f"stale: the dispatch in {DISPATCH[0]} has changed; update DISPATCH")
        return 1
    path.write_text(text.replace(DISPATCH[1], DISPATCH[2]), encoding="utf-8")
    try:
        return _sweep(tree, only)
    finally:
        path.write_text(text, encoding="utf-8")


def _sweep(tree: Path, only: list[str]) -> int:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tree), str(tree / "src")]))
    listing = subprocess.run(
        [sys.executable, "-c", _LIST_RULES], cwd=tree, env=env, capture_output=True, text=True
    )
    green = 0
    for line in listing.stdout.splitlines():
        name, kinds = line.split(" ", 1)
        if only and name not in only:
            continue
        for kind in kinds.split():
            os.environ["BENCHAUDIT_PROBE_DROP"] = f"{name}:{kind}"
            try:
                passed, tail = _pytest(tree, [CASE_FILE, "-k", name])
            finally:
                del os.environ["BENCHAUDIT_PROBE_DROP"]
            green += passed
            print(f"{name:28} {kind:12} {'green' if passed else 'red  '}  [{tail}]", flush=True)
    return green


CASE_FILE = "tests/rules/test_rule_cases.py"
_LIST_RULES = """
from benchaudit.registry import Rule, all_rules
for name, cls in sorted(all_rules().items()):
    # What a rule reads in on_run (the run's sources together) is out of this sweep's reach.
    if cls.on_run is Rule.on_run:
        print(name, " ".join(cls.reads))
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ids", nargs="*", help="probe ids (default: all)")
    parser.add_argument("--list", action="store_true", help="list the probes and stop")
    parser.add_argument(
        "--branches",
        action="store_true",
        help="silence each (rule, source kind) in turn instead; ids then name rules",
    )
    parser.add_argument(
        "--tree",
        type=Path,
        help="probe this copy (e.g. an older revision from git archive) instead of a fresh "
        "copy of the working tree; its files are restored after each probe",
    )
    args = parser.parse_args(argv)
    chosen = [p for p in PROBES if not args.ids or p.id in args.ids]
    if args.list:
        for p in chosen:
            print(f"{p.id}  {p.file}: {p.what}")
        return 0
    bad = 0
    with tempfile.TemporaryDirectory(prefix="probes-") as tmp:
        tree = args.tree.resolve() if args.tree else Path(tmp)
        if not args.tree:
            _copy_tree(tree)
        if args.branches:
            return 1 if sweep_branches(tree, args.ids) else 0
        baseline: dict[tuple[str, ...], tuple[bool, str]] = {}
        for p in chosen:
            if p.tests not in baseline:
                baseline[p.tests] = _pytest(tree, list(p.tests))
            passed, tail = baseline[p.tests]
            state, tail = run_probe(p, tree) if passed else ("broken", f"unmutated: {tail}")
            bad += state != "red"
            print(f"{p.id} {state:5}  {p.file}: {p.what}  [{tail}]", flush=True)
    print(f"{len(chosen) - bad} of {len(chosen)} probe(s) red")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
