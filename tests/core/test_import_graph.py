"""No import cycle among the package's modules, function-level imports included.

The graph is built from the source with ``ast``: every ``import`` and ``from ...
import`` anywhere in a module (at the top, inside a function, in a ``try``) and
every ``importlib.import_module("literal")`` is an edge; an ``import_module`` of a
computed name is an edge to every module it can name (``DYNAMIC``). Imports under ``if
TYPE_CHECKING:`` are left out: they never run, they only name types.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

from type_only import type_only

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ((ROOT / "benchaudit", "benchaudit"), (ROOT / "rules", "benchaudit.rules"))

def modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for base, package in PACKAGES:
        for path in base.rglob("*.py"):
            parts = list(path.relative_to(base).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join([package, *parts])] = path
    return out



def _targets(node: ast.AST, name: str, is_package: bool, known: dict[str, Path]) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if isinstance(node, ast.ImportFrom):
        if node.level:
            base = name.split(".") if is_package else name.split(".")[:-1]
            base = base[: len(base) - (node.level - 1)]
            module = ".".join(base + ([node.module] if node.module else []))
        else:
            module = node.module or ""
        # ``from pkg import sub`` imports the submodule; ``from pkg import name``, pkg.
        return [
            f"{module}.{a.name}" if f"{module}.{a.name}" in known else module for a in node.names
        ]
    if _is_import_module(node):
        assert isinstance(node, ast.Call)
        first = node.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return [first.value]
        return sorted(_dynamic_targets(name, known))
    return []


def _is_import_module(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and ast.unparse(node.func).endswith("import_module")
        and bool(node.args)
    )


#: Modules that import a module whose name they compute (plugin discovery: the registry loads
#: every rule module, the writer and reader tables load theirs), and the package whose modules
#: the computed name can be. A computed import anywhere else fails the test below, so none hides
#: an edge. ``None``: the names are the module's own string constants (a table of "module:attr").
DYNAMIC: dict[str, str | None] = {
    "benchaudit.registry": "benchaudit.rules",
    "benchaudit.docs": "benchaudit.rules",
    "benchaudit.render": "benchaudit.render",
    "benchaudit.inputs": "benchaudit.inputs",
    "benchaudit": None,
    "benchaudit.cli": None,
    "benchaudit.analysis.sections": None,
    "benchaudit.regex_cache": "re",
}


def _dynamic_targets(name: str, known: dict[str, Path]) -> set[str]:
    assert name in DYNAMIC, f"{name} imports a computed module name; declare it in DYNAMIC"
    package = DYNAMIC[name]
    if package is not None:
        return {m for m in known if m.startswith(package + ".")}
    tree = ast.parse(known[name].read_text(encoding="utf-8"))
    names = {
        n.value.partition(":")[0]
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str)
    }
    return names & set(known)


@cache
def import_graph() -> dict[str, set[str]]:
    known = modules()
    graph: dict[str, set[str]] = {m: set() for m in known}
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = type_only(tree)
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            for target in _targets(node, name, path.name == "__init__.py", known):
                while target and target not in known:
                    target = target.rpartition(".")[0]
                # A module's own package is where it lives, not something it depends on.
                if target and target != name and not name.startswith(target + "."):
                    graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[set[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    out.append(component)
    return out


def _edges_within(graph: dict[str, set[str]], component: set[str]) -> str:
    return "\n".join(
        f"  {m} -> {', '.join(sorted(graph[m] & component))}" for m in sorted(component)
    )


def test_the_package_has_no_import_cycle() -> None:
    graph = import_graph()
    found = cycles(graph)
    assert not found, "import cycles:\n" + "\n\n".join(_edges_within(graph, c) for c in found)


def test_the_graph_sees_function_level_and_literal_imports() -> None:
    graph = import_graph()
    # engine imports the join of several runs inside audit_sources only.
    assert "benchaudit.inputs.joining" in graph["benchaudit.engine"]
    # the report's views import their writers inside methods.
    assert "benchaudit.render.json" in graph["benchaudit.finding"]
    # a module named to importlib.import_module as a literal
    assert "benchaudit.inputs.comparisons" in graph["benchaudit.inputs.claims"]
    # a computed name is an edge to every module it can be: the registry discovers the rules
    assert "benchaudit.rules.reporting.unreachable_score" in graph["benchaudit.registry"]
    assert "benchaudit.render.sarif" in graph["benchaudit.render"]
    # a rule imports the rule kit, never the registry that imports it
    assert "benchaudit.registry" not in graph["benchaudit.rules.reporting.unreachable_score"]
    # type-only imports are no edges: suppress names the run context for annotations only
    assert "benchaudit.context" not in graph["benchaudit.suppress"]


def test_a_cycle_is_found() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [{"a", "b", "c"}]
