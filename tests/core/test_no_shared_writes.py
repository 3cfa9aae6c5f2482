"""Readers and rules never write the run context: they return what they make.

The run context (:class:`benchaudit.context.RunContext`) is frozen and has no sink
(no notes list, no results to add to); readers put their notes on the sources they
return, rules return findings, notes and rows, and the engine alone gathers them.
A static check over every module under ``benchaudit/inputs/`` and ``rules/`` keeps
it so: no assignment to, mutating call on, or ``setattr`` / ``getattr`` of the
context (a name ``ctx`` or ``context``, or a parameter annotated ``Context`` or
``RunContext``).
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from benchaudit.config import Config
from benchaudit.context import RunContext

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted([*(ROOT / "benchaudit" / "inputs").rglob("*.py"), *(ROOT / "rules").rglob("*.py")])

#: Methods that change the object they are called on.
MUTATORS = {"append", "extend", "add", "update", "setdefault", "insert", "pop", "clear", "remove"}
#: Attributes that would be a place to write (gone from the context; a reader or rule
#: that still reaches for one is writing shared state).
SINKS = {"notes", "results", "_results", "add_results", "__dict__"}


def _context_names(func: ast.AST) -> set[str]:
    names = {"ctx", "context"}
    if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        for arg in [*func.args.args, *func.args.kwonlyargs, *func.args.posonlyargs]:
            note = ast.unparse(arg.annotation) if getattr(arg, "annotation", None) else ""
            if "Context" in note:
                names.add(arg.arg)
    return names


def _root(node: ast.AST) -> str | None:
    """The name an attribute or subscript chain starts from (``ctx`` of ``ctx.a.b[0]``)."""
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def writes_to_context(tree: ast.AST) -> list[str]:
    """Lines of ``tree`` that write the run context, or reach for a sink on it."""
    bad: list[str] = []
    # Every name the module gives a context (coarse: one set for the whole module).
    names = {"ctx", "context"}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            names |= _context_names(node)

    def flag(node: ast.AST) -> None:
        bad.append(f"line {getattr(node, 'lineno', 0)}: {ast.unparse(node)[:90]}")

    for node in ast.walk(tree):
        targets: list[ast.AST] = []
        if isinstance(node, (ast.Assign, ast.Delete)):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        if any(isinstance(t, (ast.Attribute, ast.Subscript)) and _root(t) in names for t in targets):
            flag(node)
        if isinstance(node, ast.Attribute) and _root(node) in names and node.attr in SINKS:
            flag(node)
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in MUTATORS and _root(func.value) in names:
                flag(node)
            if (
                isinstance(func, ast.Name)
                and func.id in ("setattr", "delattr", "getattr", "vars")
                and node.args
                and isinstance(node.args[0], ast.Name)
                and node.args[0].id in names
                and (
                    func.id != "getattr"
                    or (
                        len(node.args) > 1
                        and isinstance(node.args[1], ast.Constant)
                        and node.args[1].value in SINKS
                    )
                )
            ):
                flag(node)
    return bad


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_reader_or_rule_writes_nothing_into_the_run_context(path: Path) -> None:
    assert writes_to_context(ast.parse(path.read_text(encoding="utf-8"))) == []


@pytest.mark.parametrize(
    "code",
    [
        "def f(ctx):\n    ctx.notes.append('x')\n",
        "def f(ctx):\n    ctx.add_results('runs', [])\n",
        "def f(c: Context):\n    c.config.columns['score'] = 'acc'\n",
        "def f(ctx):\n    notes = getattr(ctx, 'notes', None)\n",
        "def f(ctx):\n    setattr(ctx, 'seed', 1)\n",
        "def f(run_ctx: RunContext):\n    run_ctx.config.select.extend(['x'])\n",
        "def f(ctx):\n    ctx._results.add('x', [])\n",
    ],
)
def test_the_check_sees_each_way_of_writing(code: str) -> None:
    assert writes_to_context(ast.parse(code))


def test_reading_the_context_is_no_write() -> None:
    code = (
        "def f(ctx: Context, source):\n"
        "    notes = []\n    notes.append(ctx.config.alpha)\n"
        "    source.notes.append('x')\n    return ctx.benchmarks.get('MMLU'), ctx.seed\n"
    )
    assert writes_to_context(ast.parse(code)) == []


def test_the_run_context_is_frozen_and_has_no_sink() -> None:
    ctx = RunContext(config=Config())
    for sink in ("notes", "results", "add_results", "quiet"):
        assert not hasattr(ctx, sink), sink
    with pytest.raises(dataclasses.FrozenInstanceError):
        ctx.paths = ("x",)  # type: ignore[misc]


def test_a_hand_built_context_still_reports_stale_suppressions(tmp_path):
    from benchaudit.engine import audit_sources
    from benchaudit.inputs import load

    card = tmp_path / "card.md"
    card.write_text(
        "We reach 87.2% on HumanEval. <!-- benchaudit: ignore[within-noise] reviewed -->\n",
        encoding="utf-8",
    )
    ctx = RunContext(config=Config())
    report = audit_sources(load(card, str(card), ctx), ctx)
    assert "stale-suppression" in {f.name for f in report.findings}
