"""docs/rules.md and the README's rule table are generated from the registry:
this test fails when a rule was added or its docstring changed without
running ``python -m benchaudit.docs``."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchaudit import docs

ROOT = Path(__file__).resolve().parents[2]


def test_rules_page_is_up_to_date():
    page = ROOT / "docs" / "rules.md"
    assert page.is_file(), "docs/rules.md is missing: run python -m benchaudit.docs"
    assert page.read_text(encoding="utf-8") == docs.rules_page(), (
        "docs/rules.md is out of date: run python -m benchaudit.docs"
    )


def test_readme_rule_table_is_up_to_date():
    readme = ROOT / "README.md"
    if not readme.is_file():
        pytest.skip("no README.md")
    text = readme.read_text(encoding="utf-8")
    new = docs.update_readme(text)
    if new is None:
        pytest.skip("README.md has no <!-- rules:start --> / <!-- rules:end --> markers")
    assert new == text, "the README's rule table is out of date: run python -m benchaudit.docs"


def test_every_rule_is_documented():
    page = docs.rules_page()
    from benchaudit.registry import all_rules

    for cls in all_rules().values():
        assert f"### {cls.code} {cls.name}\n" in page
        assert f"| {cls.code} |" in docs.rule_table()


def test_update_readme_only_touches_the_marked_part():
    text = "# Title\n\nintro\n\n<!-- rules:start -->\nold table\n<!-- rules:end -->\n\nrest\n"
    new = docs.update_readme(text)
    assert new.startswith("# Title\n\nintro\n\n<!-- rules:start -->\n\n| code | name |")
    assert new.endswith("\n<!-- rules:end -->\n\nrest\n")
    assert "old table" not in new
    assert docs.update_readme(new) == new
    assert docs.update_readme("no markers") is None


def test_write_and_check_round_trip(tmp_path, capsys):
    (tmp_path / "README.md").write_text("a\n<!-- rules:start -->\n<!-- rules:end -->\nb\n")
    assert docs.main(["--root", str(tmp_path), "--check"]) == 1
    assert docs.main(["--root", str(tmp_path)]) == 0
    assert docs.main(["--root", str(tmp_path), "--check"]) == 0
    assert (tmp_path / "docs" / "rules.md").read_text() == docs.rules_page()
