"""The runtime dependencies in pyproject.toml are the packages the runtime imports: each one
is imported by some module of benchaudit/ or rules/, and every third-party module they import
is a dependency or belongs to an optional extra."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

from type_only import type_only

ROOT = Path(__file__).resolve().parents[2]

#: Distribution name -> the module it installs, where the two differ.
MODULE_OF = {"markdown-it-py": "markdown_it", "pdfminer.six": "pdfminer"}
#: Imported only by the optional commands of these extras (``benchaudit mcp``, Ray scans).
OPTIONAL = {"mcp", "ray"}
#: The standard library's own SHA-256 module of Python 3.12+ (3.11 calls it ``_sha256``), which
#: ``sys.stdlib_module_names`` of an older interpreter does not list.
STDLIB_LATER = {"_sha2"}


def _project() -> dict[str, object]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return dict(data["project"])


def _module(requirement: str) -> str:
    name = re.match(r"[A-Za-z0-9._-]+", requirement).group(0)
    return MODULE_OF.get(name, name.replace("-", "_").lower())



def _imported() -> set[str]:
    """Top-level modules imported anywhere in the package, lazily or not (type-only imports aside)."""
    found: set[str] = set()
    for folder in ("benchaudit", "rules"):
        for path in (ROOT / folder).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            skip = type_only(tree)
            for node in ast.walk(tree):
                if id(node) in skip:
                    continue
                if isinstance(node, ast.Import):
                    found.update(a.name.split(".")[0] for a in node.names)
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    found.add(node.module.split(".")[0])
    return {m for m in found if m not in sys.stdlib_module_names and m != "benchaudit"}


def test_every_runtime_dependency_is_imported():
    imported = _imported()
    unused = [r for r in _project()["dependencies"] if _module(r) not in imported]
    assert unused == [], f"runtime dependencies nothing imports (move them to an extra): {unused}"


def test_every_import_is_declared():
    declared = {_module(r) for r in _project()["dependencies"]}
    missing = sorted(_imported() - declared - OPTIONAL - STDLIB_LATER)
    assert missing == [], f"imported but not a runtime dependency: {missing}"


def test_test_only_packages_stay_out_of_the_runtime():
    imported = _imported()
    for name in ("statsmodels", "pdfplumber", "hypothesis", "pytest", "yaml"):
        assert name not in imported
