"""How rules are built: one module per rule in a family folder, logic in hooks named
for the evidence they read, nothing written to the run's shared state."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from benchaudit.config import Config
from benchaudit.engine import Context, run_rules
from benchaudit.evidence import KINDS, Source
from benchaudit.finding import Location
from benchaudit.registry import Note, Rule, all_rules, hook

RULES = Path(__file__).resolve().parents[2] / "rules"
MODULES = sorted(p for p in RULES.glob("*/*.py") if not p.name.startswith("_"))


def test_every_rule_module_is_in_a_family_folder_and_defines_one_rule():
    assert not [p.name for p in RULES.glob("*.py") if not p.name.startswith("_")]
    by_module: dict[str, list[str]] = {}
    for name, cls in all_rules().items():
        by_module.setdefault(cls.__module__, []).append(name)
    for path in MODULES:
        module = "benchaudit.rules." + ".".join(path.relative_to(RULES).with_suffix("").parts)
        assert len(by_module.get(module, [])) == 1, f"{module} defines {by_module.get(module)}"


def test_rules_use_the_hooks_only():
    """No string jump tables, no own dispatch: ``on_<kind>`` and ``on_run`` are the entry points."""
    hooks = {hook(k) for k in KINDS} | {"on_run"}
    for cls in all_rules().values():
        assert not hasattr(cls, "branches"), cls.name
        for entry in ("check", "check_run"):
            assert getattr(cls, entry) is getattr(Rule, entry), f"{cls.name} overrides {entry}"
        own = {n for n in vars(cls) if n.startswith("on_")}
        assert own <= hooks, f"{cls.name}: {sorted(own - hooks)} name no evidence kind"
        if hasattr(cls, "audit_suppressions"):
            continue  # it reads the suppressions once they are applied (suppress.SuppressionAudit)
        assert own, f"{cls.name} reads nothing"
        if "on_run" not in own:
            assert set(cls.reads) == {k for k in KINDS if hook(k) in own}, cls.name


def _writes_shared_state(tree: ast.AST) -> list[str]:
    """Appends, assignments and deletions on ``ctx.*`` or a source's ``meta``/``claims``."""
    bad = []
    for node in ast.walk(tree):
        target = None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in ("append", "extend", "insert", "update", "pop", "setdefault"):
                target = node.func.value
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            target = next((t for t in targets if isinstance(t, (ast.Attribute, ast.Subscript))), None)
        while isinstance(target, ast.Subscript):
            target = target.value
        text = ast.unparse(target) if target is not None else ""
        if text.startswith("ctx.") or text.endswith((".meta", ".claims", ".cache")):
            bad.append(f"line {node.lineno}: {ast.unparse(node)[:80]}")
    return bad


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.stem)
def test_a_rule_writes_nothing_shared(path):
    """Findings, notes and rows are returned (the run context has nowhere to write)."""
    assert _writes_shared_state(ast.parse(path.read_text(encoding="utf-8"))) == []


def test_the_base_class_dispatches_by_kind_and_the_engine_collects_notes():
    class Probe(Rule):
        """A probe rule."""

        code, name = "BA999", "probe"

        def on_harness_summary(self, source: Source, ctx: Context):
            yield Note(f"read {source.path}")
            yield self.finding(Location(source.path, 1), "summary seen")

        def on_document(self, source: Source, ctx: Context):
            yield self.finding(Location(source.path, 2), "document seen")

    assert Probe.reads == ("document", "harness-summary")
    ctx = Context(config=Config())
    sources = [Source("a.md", "document"), Source("r.json", "harness-summary"), Source("b.csv", "results")]
    notes: list[str] = []
    found = run_rules([Probe()], sources, ctx, notes)
    assert [(f.location.file, f.message) for f in found] == [
        ("a.md", "document seen"),
        ("r.json", "summary seen"),
    ]
    assert notes == ["read r.json"]


def test_a_rule_pack_with_the_old_dispatch_table_is_refused():
    with pytest.raises(TypeError, match="on_<kind>"):

        class Old(Rule):
            code, name = "BA998", "old"
            branches = {"document": "pack.module:function"}
