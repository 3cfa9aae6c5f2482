"""The nodes of a module under ``if TYPE_CHECKING:``: imports the type checker reads and the
interpreter never runs (the import-graph and dependency tests leave them aside)."""

from __future__ import annotations

import ast


def type_only(tree: ast.AST) -> set[int]:
    """Ids of the nodes under ``if TYPE_CHECKING:``."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            out.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    return out
