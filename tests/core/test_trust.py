"""Trust boundaries: state markers are data, walks stay in their tree, special files are
refused before they are opened, outputs never overwrite inputs, configuration and
baseline files are read with a size cap and checked key by key."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys

import pytest
from click.testing import CliRunner

from benchaudit import fs
from benchaudit.cli import main
from benchaudit.config import Config, apply, load
from benchaudit.contamination import engines, markers
from benchaudit.contamination.audit import Settings, run
from benchaudit.contamination.shards import find_shards
from benchaudit.errors import ConfigError

CARD = "# Card\n\nWe reach 87.3% on HumanEval.\n"


def _cli(*args: str, cwd, timeout: float = 60) -> subprocess.CompletedProcess:
    """The command in a subprocess with a time cap: a hang fails the test, not the run."""
    return subprocess.run(
        [sys.executable, "-m", "benchaudit", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "NO_COLOR": "1"},
    )


# ------------------------------------------------------------------ markers


@pytest.fixture
def corpus(data_dir, tmp_path):
    gsm = data_dir / "contamination"
    pal = [json.loads(line) for line in (gsm / "pal_gsm.jsonl").open()][:20]
    shard_dir = tmp_path / "shards"
    shard_dir.mkdir()
    for k in range(2):
        with open(shard_dir / f"s{k}.jsonl", "w", encoding="utf-8") as fh:
            for r in pal[k * 10 : (k + 1) * 10]:
                fh.write(json.dumps({"text": "Context. " + r["input"]}) + "\n")
    return gsm / "gsm8k_test.jsonl", shard_dir


def _settings(corpus, state, pattern="*.jsonl"):
    bench, shard_dir = corpus
    return Settings(
        benchmark=str(bench),
        corpus=[str(shard_dir / pattern)],
        state_dir=str(state),
        workers=1,
        progress=False,
    )


class _Exploit:
    def __init__(self, target: str) -> None:
        self.target = target

    def __reduce__(self):
        return (os.mkdir, (self.target,))


def test_a_pickled_marker_is_refused_never_loaded(corpus, tmp_path):
    state = tmp_path / "state"
    fresh = run(_settings(corpus, state))
    done = sorted(state.glob("shard-*.done"))
    assert len(done) == 2 and all(json.loads(p.read_text())["schema"] for p in done)
    sentinel = tmp_path / "code-ran"
    for p in done:
        p.write_bytes(pickle.dumps(_Exploit(str(sentinel))))
    again = run(_settings(corpus, state))
    assert not sentinel.exists()
    assert [r["contaminated"] for r in again.results["contamination"]] == [
        r["contaminated"] for r in fresh.results["contamination"]
    ]
    assert sum("refused resume marker" in n for n in again.notes) == 2
    # The refused markers were replaced by JSON ones.
    assert all(json.loads(p.read_text())["schema"] == markers.SCHEMA for p in done)


def test_marker_round_trip_and_schema(corpus, tmp_path):
    state = tmp_path / "state"
    run(_settings(corpus, state))
    path = sorted(state.glob("shard-*.done"))[0]
    res = markers.load(str(path))
    assert json.loads(markers.dump(res)) == json.loads(path.read_text())
    good = json.loads(path.read_text())
    bad = [
        {**good, "extra": 1},
        {**good, "schema": "other/1"},
        {**good, "docs": -1},
        {**good, "arrays": {**good["arrays"], "run_doc": "not base64!"}},
        {**good, "arrays": {**good["arrays"], "run_item": "AAAAAAAAAAA="}},
        [good],
    ]
    for doc in bad:
        path.write_text(json.dumps(doc))
        with pytest.raises(markers.MarkerError):
            markers.load(str(path))


def test_state_folder_that_cannot_be_written_fails_before_the_scan(corpus, tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    scanned = []
    monkeypatch.setattr(engines, "scan_shard", lambda *a: scanned.append(a))
    with pytest.raises(Exception) as info:
        run(_settings(corpus, blocker / "state"))
    assert "cannot write resume markers" in str(info.value) and not scanned
    if os.geteuid() != 0:  # root writes anywhere
        ro = tmp_path / "ro"
        ro.mkdir(mode=0o500)
        with pytest.raises(Exception, match="cannot write resume markers"):
            run(_settings(corpus, ro))
        assert not scanned


# ---------------------------------------------------------- walks and globs


@pytest.fixture
def tree(tmp_path):
    """A folder with a card, a link out, a link loop, a FIFO and a secret outside."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("API_KEY=abc123 reaches 87.3% on HumanEval.\n")
    repo = tmp_path / "repo"
    (repo / "docs").mkdir(parents=True)
    (repo / "docs" / "card.md").write_text(CARD)
    (repo / "docs" / "leak.md").symlink_to(outside / "secret.md")
    (repo / "docs" / "again.md").symlink_to(repo / "docs" / "card.md")
    (repo / "loop").symlink_to(repo)
    (repo / "out").symlink_to(outside)
    os.mkfifo(repo / "docs" / "pipe.md")
    return repo


def test_walk_stays_in_its_tree(tree):
    notes: list[str] = []
    got = [p.relative_to(tree).as_posix() for p in fs.walk(tree, notes)]
    assert got == ["docs/card.md"]
    text = "\n".join(notes)
    assert "leak.md: a link that leads out of the tree" in text
    assert "pipe.md: a FIFO" in text
    assert "linked folder" in text and "loop" in text


def test_check_on_the_tree_says_what_it_skipped_and_echoes_no_secret(tree):
    out = _cli("check", ".", cwd=tree)
    assert out.returncode == 0, out.stderr
    assert "API_KEY" not in out.stdout + out.stderr
    assert out.stdout.count("docs/card.md:3") >= 1 and "again.md:3" not in out.stdout
    assert "note: skipped docs/leak.md" in out.stdout and "note: skipped docs/pipe.md" in out.stdout


def test_named_fifo_device_and_link_out_are_refused_in_one_line(tree):
    for name, words in (
        ("docs/pipe.md", "FIFO"),
        ("/dev/zero", "character device"),
        ("docs/leak.md", "outside the working folder"),
    ):
        out = _cli("check", name, cwd=tree, timeout=30)
        assert out.returncode == 2 and words in out.stderr, (name, out.stderr)
        assert out.stderr.count("\n") == 1 and "API_KEY" not in out.stderr
    # A file named outside the working folder as such is the caller's choice.
    card = tree / "docs" / "card.md"
    assert _cli("check", str(card), cwd=tree.parent / "outside").returncode == 0


def test_unreadable_folder_is_reported(tmp_path, monkeypatch):
    (tmp_path / "locked").mkdir()
    (tmp_path / "card.md").write_text(CARD)
    real = os.scandir

    def scandir(path="."):
        if os.fspath(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    notes: list[str] = []
    assert [p.name for p in fs.walk(tmp_path, notes)] == ["card.md"]
    assert any("locked: cannot read it" in n for n in notes)


def test_corpus_glob_follows_no_folder_link_and_counts_each_shard_once(corpus, tmp_path):
    _, shard_dir = corpus
    (shard_dir / "a").symlink_to(".")
    (shard_dir / "b").symlink_to("..")
    (shard_dir / "sub").mkdir()
    (shard_dir / "sub" / "c").symlink_to("../..")
    notes: list[str] = []
    shards = find_shards([str(shard_dir / "**" / "*.jsonl")], notes)
    assert sorted(os.path.basename(s.path) for s in shards) == ["s0.jsonl", "s1.jsonl"]
    assert any("linked folder" in n for n in notes)


def test_glob_patterns():
    import re

    matcher = fs._segment_regex
    assert re.fullmatch(matcher("s[0-9].jsonl"), "s1.jsonl")
    assert not re.fullmatch(matcher("s[!0-9].jsonl"), "s1.jsonl")
    assert re.fullmatch(matcher("*.json?"), "a.jsonl") and not re.fullmatch(matcher("*"), "a/b")


# ------------------------------------------------- outputs never overwrite inputs


@pytest.mark.parametrize("flag", ["--output", "--write-baseline"])
def test_output_refuses_to_overwrite_an_input(tmp_path, flag):
    (tmp_path / "card.md").write_text(CARD)
    out = _cli("check", "card.md", flag, "card.md", cwd=tmp_path)
    assert out.returncode == 2 and "is an input of this run" in out.stderr
    assert (tmp_path / "card.md").read_text() == CARD


def test_output_refuses_a_link_to_an_input(tmp_path):
    (tmp_path / "card.md").write_text(CARD)
    (tmp_path / "report.md").symlink_to(tmp_path / "card.md")
    out = _cli("check", "card.md", "--format", "markdown", "--output", "report.md", cwd=tmp_path)
    assert out.returncode == 2 and (tmp_path / "card.md").read_text() == CARD


# ------------------------------------------------ configuration and baseline files


def test_baseline_from_a_device_is_refused_at_once(tmp_path):
    (tmp_path / "card.md").write_text(CARD)
    out = _cli("check", "card.md", "--baseline", "/dev/zero", cwd=tmp_path, timeout=30)
    assert out.returncode == 2 and "character device" in out.stderr
    (tmp_path / "pyproject.toml").write_text('[tool.benchaudit]\nbaseline = "/dev/zero"\n')
    out = _cli("check", "card.md", cwd=tmp_path, timeout=30)
    assert out.returncode == 2 and "/dev/zero" in out.stderr


def test_huge_baseline_and_config_are_refused(tmp_path):
    (tmp_path / "card.md").write_text(CARD)
    (tmp_path / "big.json").write_text('{"fingerprints": []}' + " " * (32 << 20))
    out = _cli("check", "card.md", "--baseline", "big.json", cwd=tmp_path)
    assert out.returncode == 2 and "larger than" in out.stderr
    (tmp_path / "pyproject.toml").write_text("[tool.benchaudit]\n" + "#" * (2 << 20) + "\n")
    out = _cli("check", "card.md", cwd=tmp_path)
    assert out.returncode == 2 and "config file is larger than" in out.stderr


@pytest.mark.parametrize(
    "raw,words",
    [
        ({"resamples": 10**8}, "'resamples' must be at most 100,000"),
        ({"resamples": 10**12}, "'resamples' must be at most 100,000"),
        ({"resamples": 0}, "'resamples' must be at least 1"),
        ({"alpha": [1]}, "'alpha' must be a number, got [1]"),
        ({"alpha": True}, "'alpha' must be a number"),
        ({"seed": "9" * 5000}, "'seed' is out of range"),
        ({"ngram": 1.5}, "'ngram' must be a whole number"),
        ({"select": 5}, "'select' must be a list"),
        ({"baseline": 5}, "'baseline' must be a string"),
        ({"columns": {"model": [1]}}, "'columns.model' must be a string"),
        ({"n": {"bench": 10**12}}, "'n.bench' must be at most"),
        ({"rules": {"no-such-rule": {"x": 1}}}, "rules.no-such-rule: unknown rule"),
        ({"rules": {"within-noise": {"x": 1}}}, "rules.within-noise.x: unknown option"),
        ({"rules": {"position-confound": {"min-battle": 3}}}, "known: min-battles"),
        ({"rules": {"position-confound": {"min-battles": "x"}}}, "must be a whole number"),
        ({"rules": {"contamination": {"max-docs": -1}}}, "'rules.contamination.max-docs'"),
        ({"rules": {"contamination": {"workers": 10**6}}}, "must be at most 256"),
        ({"rules": {"calibration-bins": {"binning": "odd"}}}, "equal-width, equal-mass"),
        ({"rules": {"biased-pass-at-k": 3}}, "must be a table of options"),
        ({"allow-broad-ignores": "perhaps"}, "must be true or false"),
        ({"per-file-ignores": {"*.md": ["no-such"]}}, "unknown rule 'no-such'"),
    ],
)
def test_configuration_errors_are_one_line_naming_the_key(raw, words):
    with pytest.raises(ConfigError) as info:
        apply(Config(), raw, "pyproject.toml")
    text = str(info.value)
    assert text.startswith("pyproject.toml: ") and words in text and "\n" not in text


def test_configuration_accepts_good_values():
    cfg = apply(
        Config(),
        {
            "resamples": 100_000,
            "rules": {
                "BA502": {"min-battles": 5},
                "contamination": {"workers": 4, "max-docs": 0, "minhash": True},
                "biased-pass-at-k": {"k": "1, 10", "reported": {"pass@1": 0.5}},
            },
        },
        "x",
    )
    assert cfg.resamples == 100_000
    assert cfg.rules["contamination"] == {"workers": 4, "max-docs": 0, "minhash": True}
    assert cfg.rules["biased-pass-at-k"]["k"] == [1, 10]


def test_command_line_numbers_have_the_same_bounds(tmp_path):
    (tmp_path / "card.md").write_text(CARD)
    result = CliRunner().invoke(main, ["check", str(tmp_path / "card.md"), "--resamples", "10000000"])
    assert result.exit_code == 2 and "at most 100,000" in result.stderr


def test_usage_errors_quote_arguments_safely():
    result = CliRunner().invoke(main, ["check", "--form\x1b]52;c;Zm9v\x07\n::error::x", "a"])
    assert result.exit_code == 2 and "\x1b]" not in result.stderr
    assert not any(line.startswith("::") for line in result.stderr.splitlines())


def test_the_configuration_file_used_is_named(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.benchaudit]\nseed = 3\n")
    cfg = load(start=str(tmp_path))
    assert cfg.source == str((tmp_path / "pyproject.toml").resolve())
