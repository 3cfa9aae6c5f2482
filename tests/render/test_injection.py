"""Nothing from an input reaches a terminal, a CI log or a pull-request comment as markup.

Model names and file names carry the payloads of the security review: a newline
followed by a GitHub workflow command, ``##[`` mid-line, ANSI / OSC escapes
(cursor movement, OSC 52 clipboard, OSC 8 hyperlink, the one-byte C1 CSI
``\\x9b``), Markdown links, images, emphasis, backticks, mentions and HTML. Every
output format is checked: text, markdown and github through a workflow-command
parser equivalent, markdown also rendered, JSON and SARIF parsed back to the
raw strings.
"""

from __future__ import annotations

import csv
import json
import random
import re

import pytest
from click.testing import CliRunner

from benchaudit.cli import main
from benchaudit.render import escape

#: One model name per payload of the review, plus all of them in one.
PAYLOADS = {
    "command-after-newline": "m1\n::error file=README.md,line=1::pwned",
    "add-mask": "m2\n::add-mask::secret",
    "stop-commands": "m3\r\n::stop-commands::tok",
    "legacy-mid-line": "m4 ##[error]mid-line",
    "ansi-csi": "m5\x1b[2J\x1b[1;1H",
    "osc-52": "m6\x1b]52;c;Y3VybCBldmlsIHwgc2g=\x07",
    "osc-8": "m7\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\",
    "c1-csi": "m8\x9b31m\x9d0;title\x07\x85\x7fz",
    "bidi": "m9\u202egnp.exe\u2028x",
    "md-link": "[x](https://evil.example)",
    "md-image": "![](https://evil.example/t.png)",
    "mention": "@octocat &#64;octocat",
    "emphasis": "**bold** _em_ ~~s~~ $\\undefinedcommand$",
    "html": "<img src=x onerror=alert(1)><script>alert(1)</script>",
    "backtick": "a`b``c",
}

#: A GitHub runner reads a line as a command when it starts (after blanks) with
#: ``::name ...::`` or holds ``##[`` anywhere.
COMMAND = re.compile(r"^\s*::([a-z-]+)( [^:]*)?::", re.I)
LEGACY = "##["
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def commands(text: str) -> list[str]:
    """Workflow commands a runner would find in ``text``: names, and '##[' per line."""
    found = []
    for line in re.split(r"\r\n|\r|\n", text):
        m = COMMAND.match(line)
        if m:
            found.append(m.group(1).lower())
        if LEGACY in line:
            found.append(LEGACY)
    return found


def _scores(path, names):
    rng = random.Random(3)
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["model", "item", "score"])
        for m in names:
            for i in range(30):
                w.writerow([m, i, int(rng.random() < 0.6)])


@pytest.fixture
def hostile(tmp_path):
    """A per-item CSV, a JSONL and a battles file whose model names are the payloads,
    and a model card whose file name is one."""
    names = [*PAYLOADS.values(), "base"]
    _scores(tmp_path / "scores.csv", names)
    rng = random.Random(4)
    with open(tmp_path / "scores.jsonl", "w", encoding="utf-8") as fh:
        for m in names:
            for i in range(30):
                fh.write(json.dumps({"model": m, "item": i, "score": int(rng.random() < 0.5)}))
                fh.write("\n")
    with open(tmp_path / "battles.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["model_a", "model_b", "winner"])
        for _ in range(200):
            a, b = rng.sample(names, 2)
            w.writerow([a, b, rng.choice(["model_a", "model_b", "tie"])])
    card = tmp_path / "cards" / "x\n::error file=README.md::evil `a` ##[warning]\x1b[2J.md"
    card.parent.mkdir()
    card.write_text("# Card\n\nWe reach 87.3% on HumanEval.\n", encoding="utf-8")
    return tmp_path


def _run(args, cwd, monkeypatch):
    monkeypatch.chdir(cwd)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    result = CliRunner().invoke(main, ["check", *args, "--fail-on", "never"])
    assert result.exit_code == 0, result.output + result.stderr
    return result.stdout, result.stderr


INPUTS = ["scores.csv", "scores.jsonl", "battles.csv", "cards"]


@pytest.mark.parametrize("path", INPUTS)
@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_no_workflow_command_and_no_control_character(hostile, monkeypatch, path, fmt):
    out, err = _run([path, "--format", fmt], hostile, monkeypatch)
    assert commands(out) == [] and commands(err) == []
    assert not CONTROL.search(out) and not CONTROL.search(err)
    assert "\\x1b" in out or path == "battles.csv"  # shown, not sent


@pytest.mark.parametrize("path", INPUTS)
def test_github_format_commands_are_only_the_annotations(hostile, monkeypatch, path):
    out, err = _run([path, "--format", "github"], hostile, monkeypatch)
    found = commands(out)
    lines = out.splitlines()
    assert set(found) <= {"error", "warning", "notice"}
    assert len(found) == sum(1 for line in lines if line.startswith("::"))
    assert len(found) == len(lines) - 1  # one annotation per finding, then the summary
    assert not CONTROL.search(out) and commands(err) == []


@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_json_keeps_raw_strings_and_prints_safely(hostile, monkeypatch, fmt):
    out, _ = _run(["scores.csv", "--format", fmt], hostile, monkeypatch)
    doc = json.loads(out)
    assert not CONTROL.search(out.replace("\n", ""))
    assert commands(out) == []
    if fmt == "json":
        models = {r["model"] for r in doc["results"]["models"]}
        assert set(PAYLOADS.values()) <= models  # the raw names, byte for byte
    else:
        texts = [r["message"]["text"] for r in doc["runs"][0]["results"]]
        assert any(PAYLOADS["osc-52"] in t for t in texts)


def test_html_shows_control_characters_and_escapes_markup(hostile, monkeypatch):
    out, _ = _run(["scores.csv", "cards", "--format", "html"], hostile, monkeypatch)
    assert "\x1b" not in out and "\x9b" not in out and "\\x1b" in out
    assert "<script" not in out and "<img" not in out and "&lt;script&gt;alert" in out
    assert commands(out) == []


def _rendered(md: str) -> str:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(md)


def test_markdown_renders_no_link_image_emphasis_html_or_mention(hostile, monkeypatch):
    out, _ = _run(["scores.csv", "cards", "--format", "markdown"], hostile, monkeypatch)
    html = _rendered(out)
    assert "<a " not in html and "<img" not in html and "<script" not in html
    assert "<em>" not in html and "<s>" not in html and "<del>" not in html
    outside_code = re.sub(r"<code>.*?</code>", "", html, flags=re.S)
    # Mentions and URLs only inside code spans, where GitHub neither notifies nor links.
    assert "@" not in outside_code and "://" not in outside_code
    # Our own bold counts in the header are the only emphasis.
    assert all(m in ("<strong>",) for m in re.findall(r"<strong>", outside_code))
    assert "bold" not in re.findall(r"<strong>([^<]*)</strong>", html)
    # The backtick in the file name stays inside the heading's code span.
    heading = re.search(r"<h4>(.*?)</h4>", html, re.S).group(1)
    assert heading.startswith("<code>") and heading.endswith("</code>")
    assert "evil `a`" in heading


def test_error_messages_on_stderr_are_one_safe_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    name = "gone\n::error file=README.md::x \x1b]52;c;Zm9v\x07 ##[error].md"
    result = CliRunner().invoke(main, ["check", name])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and commands(result.stderr) == []
    assert not CONTROL.search(result.stderr.rstrip("\n"))
    assert "no such file" in result.stderr


@pytest.mark.parametrize("payload", list(PAYLOADS.values()), ids=list(PAYLOADS))
def test_escape_functions_on_each_payload(payload):
    for out in (escape.line(payload), escape.markdown(payload), escape.markdown_code(payload)):
        assert "\n" not in out and not CONTROL.search(out) and commands(out) == []
    html = _rendered(escape.markdown(payload))
    assert "<a " not in html and "<img" not in html and "<em>" not in html
    assert "<script" not in html and "<strong>" not in html
    assert json.loads(escape.json_text(json.dumps(payload, ensure_ascii=False))) == payload


def test_markdown_code_span_survives_any_backticks():
    for text in ("a`b", "``x", "y``", "`", "a ``` b"):
        html = _rendered(escape.markdown_code(text, table=False))
        assert html.count("<code>") == 1 and html.strip().endswith("</code></p>")


def test_undecodable_file_name_bytes_are_shown_not_sent():
    name = b"card\xff.md".decode("utf-8", "surrogateescape")
    assert escape.line(name) == "card\\udcff.md"
    assert escape.line(name).encode("utf-8")
    dumped = escape.json_text(json.dumps(name, ensure_ascii=False))
    assert dumped.encode("utf-8") and json.loads(dumped) == name
