"""The document reader: detection, decoding, bad input, and the CLI end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from benchaudit.cli import main
from benchaudit.config import Config
from benchaudit.engine import Context
from benchaudit.errors import InputError
from benchaudit.inputs import probe
from benchaudit.inputs import text as T

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "model_card.md"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_suffixes_are_claimed_and_text_is_a_fallback(tmp_path):
    for name in ("a.md", "a.markdown", "a.txt", "a.rst"):
        p = tmp_path / name
        p.write_text("We reach 87.2% on HumanEval.\n", encoding="utf-8")
        assert T.sniff(probe(p, name)) == 0.8
    other = tmp_path / "NOTES"
    other.write_text("plain text\n", encoding="utf-8")
    assert 0 < T.sniff(probe(other, "NOTES")) < 0.5
    garbage = tmp_path / "blob.bin"
    garbage.write_bytes(b"\x00\x01\x02" * 100)
    assert T.sniff(probe(garbage, "blob.bin")) == 0


def test_read_gives_a_document_source(tmp_path):
    p = tmp_path / "card.md"
    p.write_bytes("\ufeffWe reach 87.2% on HumanEval.\r\nSecond line.\r\n".encode())
    src = T.read(p, "card.md", Context(Config()))
    assert src.kind == "document" and src.lines[0].startswith("We reach")
    assert [c.value for c in src.claims] == ["87.2"] and src.numbers_seen == 1


@pytest.mark.parametrize(
    "content,message",
    [
        (b"", "empty file"),
        (b"  \n\n", "empty file"),
        (b"ok line\nbad \xff\xfe byte\n", "not valid UTF-8"),
        (b"text\x00with nul", "binary"),
    ],
)
def test_bad_input_is_an_input_error(tmp_path, content, message):
    p = tmp_path / "card.md"
    p.write_bytes(content)
    with pytest.raises(InputError) as err:
        T.read(p, "card.md", Context(Config()))
    assert message in str(err.value) and "card.md" in str(err.value)


def test_non_utf8_names_the_line(tmp_path):
    p = tmp_path / "card.md"
    p.write_bytes(b"line one\nline two \xe9\n")
    with pytest.raises(InputError) as err:
        T.read(p, "card.md", Context(Config()))
    assert err.value.line == 2


@pytest.mark.parametrize(
    "name,content",
    [
        ("missing.md", None),
        ("empty.md", b""),
        ("latin1.md", "Caf\xe9 scores 87.2% on HumanEval.\n".encode("latin-1")),
        ("garbage.md", bytes(range(256)) * 4),
    ],
)
def test_cli_bad_input_exits_2_with_one_line(tmp_path, name, content):
    p = tmp_path / name
    if content is not None:
        p.write_bytes(content)
    result = run("check", str(p))
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and name in lines[0]
    assert "Traceback" not in result.output


def test_cli_exit_codes(tmp_path):
    bad = tmp_path / "bad.md"
    bad.write_text("We reach 87.3% on HumanEval with greedy decoding.\n", encoding="utf-8")
    good = tmp_path / "good.md"
    good.write_text("We reach 87.2% on HumanEval (95% CI 81.2–91.5%).\n", encoding="utf-8")
    assert run("check", str(bad)).exit_code == 1
    assert run("check", str(good)).exit_code == 0
    assert run("check", "--fail-on", "never", str(bad)).exit_code == 0


def test_inputs_are_never_written(tmp_path):
    p = tmp_path / "card.md"
    p.write_text("We reach 87.3% on HumanEval.\n", encoding="utf-8")
    before = (p.read_bytes(), p.stat().st_mtime_ns)
    run("check", str(p))
    assert (p.read_bytes(), p.stat().st_mtime_ns) == before


def test_example_model_card():
    result = run("check", "--format", "json", "--select", "BA1", str(EXAMPLE))
    assert result.exit_code == 1
    report = json.loads(result.output)
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    serious = [f for f in report["findings"] if f["severity"] in ("error", "warning")]
    unreachable = {
        (f["line"], f["evidence"]["value"]) for f in serious if f["name"] == "unreachable-score"
    }
    # The impossible ones, each on its own line.
    for value, needle in [
        ("87.3", "| 87.3 |"),
        ("96.3", "| 96.3 |"),
        ("39.2", "39.2%"),
        ("49.3", "49.3%"),
        ("25.03", "25.03%"),
    ]:
        line = next(i for i, t in enumerate(lines, 1) if needle in t)
        assert (line, value) in unreachable, value
    # The possible ones: no error or warning of any reporting rule.
    for value in ("87.2", "92.5", "79.8"):
        assert not [f for f in serious if f["evidence"].get("value") == value], value
    names = {f["name"] for f in serious}
    assert {
        "interval-mismatch",
        "interval-out-of-range",
        "percent-vs-points",
        "excess-precision",
    } <= names
    assert report["summary"]["numbers_seen"] >= report["summary"]["claims_checked"] > 10


def test_json_is_deterministic():
    a = run("check", "--format", "json", str(EXAMPLE)).output
    b = run("check", "--format", "json", str(EXAMPLE)).output
    assert a == b
