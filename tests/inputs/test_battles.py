"""The battles reader: formats, facts of the Arena-Hard files, malformed input, results."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from benchaudit.config import Config
from benchaudit.engine import Context, audit
from benchaudit.errors import InputError
from benchaudit.inputs import load

DATA = Path(__file__).parents[1] / "data" / "arena"
AH = DATA / "arena_hard_battles_74e8b6f.jsonl"
AH2 = DATA / "arena_hard_battles_57a9881.jsonl"


def _read(path: Path, **cfg):
    return load(path, str(path), Context(Config(**cfg)))[0]


def test_arena_hard_facts():
    src = _read(AH)
    assert src.kind == "battles"
    d = src.data
    assert d.n_battles == 2136
    assert np.bincount(d.outcome, minlength=3).tolist() == [347, 1758, 31]
    as_a, as_b = d.slots()
    haiku = d.models.index("claude-3-haiku-20240307")
    assert as_a[haiku] == 2136 and as_b[haiku] == 0
    per = {}
    for k, m in enumerate(d.models):
        if k == haiku:
            continue
        rows = d.b == k
        per[m] = np.bincount(d.outcome[rows], minlength=3).tolist()
    assert per == {
        "claude-3-5-sonnet-20240620": [59, 480, 5],
        "gpt-4o": [70, 478, 6],
        "gpt-4o-mini": [101, 416, 7],
        "claude-3-opus-20240229": [117, 384, 13],
    }
    rep = d.repeats()
    assert (rep["groups"], rep["repeated"], rep["conflicting"]) == (480, 480, 94)
    assert rep["max_repeats"] == 6


def test_second_version_facts():
    d = _read(AH2).data
    assert d.n_battles == 1348
    assert np.bincount(d.outcome, minlength=3).tolist() == [147, 1178, 23]
    assert "gpt-4o-mini" not in d.models
    assert d.repeats()["conflicting"] == 53


def _write_formats(tmp_path: Path) -> list[Path]:
    recs = [json.loads(x) for x in AH.read_text().splitlines()[:300]]
    out = []
    j = tmp_path / "b.jsonl"
    j.write_text("".join(json.dumps(r) + "\n" for r in recs))
    c = tmp_path / "b.csv"
    c.write_text(
        "question_id,model_a,model_b,winner\n"
        + "".join(f"{r['question_id']},{r['model_a']},{r['model_b']},{r['winner']}\n" for r in recs)
    )
    a = tmp_path / "b.json"
    a.write_text(json.dumps(recs))
    out += [j, c, a]
    import pyarrow as pa
    import pyarrow.parquet as pq

    p = tmp_path / "b.parquet"
    pq.write_table(pa.Table.from_pylist(recs), p)
    out.append(p)
    return out


def test_every_format_gives_the_same_counts(tmp_path):
    counts = []
    for path in _write_formats(tmp_path):
        src = _read(path)
        assert src.kind == "battles", path.suffix
        pc = src.data.pair_counts()
        counts.append(
            sorted(
                zip(
                    [pc.models[i] for i in pc.i],
                    [pc.models[j] for j in pc.j],
                    pc.wins_i.tolist(),
                    pc.wins_j.tolist(),
                    pc.ties.tolist(),
                )
            )
        )
    assert all(c == counts[0] for c in counts)


@pytest.mark.parametrize("sep", [",", ";", "\t"])
@pytest.mark.parametrize("suffix", [".csv", ".tsv"])
def test_separator_comes_from_the_content_not_the_extension(tmp_path, sep, suffix):
    """A semicolon CSV (spreadsheet export), a comma .tsv or a tab .csv reads the same."""
    recs = [json.loads(x) for x in AH.read_text().splitlines()[:200]]
    path = tmp_path / f"battles{suffix}"
    path.write_text(
        sep.join(["question_id", "model_a", "model_b", "winner"])
        + "\n"
        + "".join(
            sep.join([str(r["question_id"]), r["model_a"], r["model_b"], r["winner"]]) + "\n"
            for r in recs
        )
    )
    src = _read(path)
    assert src.kind == "battles"
    pc = src.data.pair_counts()
    assert int(pc.n.sum()) == len(recs)
    ref = tmp_path / "ref.jsonl"
    ref.write_text("".join(json.dumps(r) + "\n" for r in recs))
    want = _read(ref).data.pair_counts()
    assert pc.models == want.models and pc.wins_i.tolist() == want.wins_i.tolist()
    assert pc.ties.tolist() == want.ties.tolist()


@pytest.mark.parametrize(
    "body,line,text",
    [
        (
            '{"model_a": "x", "model_b": "y", "winner": "model_a"}\n'
            '{"model_a": "x", "model_b": "y", "winner": "draw"}\n',
            2,
            "winner is 'draw'",
        ),
        (
            '{"model_a": "x", "model_b": "y", "winner": "model_a"}\n{"model_a": "x", "model_b"\n',
            2,
            "invalid JSON",
        ),
        ('{"model_a": "x", "model_b": "x", "winner": "tie"}\n', 1, "against itself"),
        (
            '{"model_a": "x", "model_b": "y", "winner": null}\n'
            '{"model_a": "x", "model_b": "y", "winner": "tie"}\n',
            1,
            "winner is 'nothing'",
        ),
    ],
)
def test_malformed_jsonl(tmp_path, body, line, text):
    p = tmp_path / "battles.jsonl"
    p.write_text(body)
    with pytest.raises(InputError) as exc:
        _read(p)
    assert exc.value.line == line
    assert text in str(exc.value)


def test_malformed_csv_line_numbers(tmp_path):
    p = tmp_path / "battles.csv"
    p.write_text("model_a,model_b,winner\nx,y,model_a\nx,y,left\n")
    with pytest.raises(InputError) as exc:
        _read(p)
    assert exc.value.line == 3


def test_cli_bad_input_is_one_line_exit_2(tmp_path):
    p = tmp_path / "battles.jsonl"
    p.write_text('{"model_a": "x", "model_b": "y", "winner": "maybe"}\n')
    before = p.read_bytes()
    proc = subprocess.run(
        [sys.executable, "-m", "benchaudit", "check", str(p)], capture_output=True, text=True
    )
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and ":1:" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert p.read_bytes() == before


def test_ratings_in_results_are_deterministic_and_complete():
    cfg = dict(select=["BA210"], resamples=300)
    r1 = audit([str(AH)], Config(**cfg))
    r2 = audit([str(AH)], Config(**cfg))
    rows = r1.results["ratings"]
    assert rows == r2.results["ratings"]
    assert {"model", "rating", "ci_low", "ci_high", "rank_low", "rank_high", "battles"} <= set(
        rows[0]
    )
    assert rows[0]["model"] == "claude-3-5-sonnet-20240620"
    assert rows[-1]["model"] == "claude-3-haiku-20240307"
    assert sum(r["battles"] for r in rows) == 2 * 2136
    assert np.mean([r["rating"] for r in rows]) == pytest.approx(1000.0, abs=0.01)
    for r in rows:
        assert r["ci_low"] < r["rating"] < r["ci_high"]
        assert 1 <= r["rank_low"] <= r["rank_high"] <= len(rows)
    assert r1.results["elo_order"][0]["shuffles"] == 20


def test_json_output_is_byte_identical(tmp_path):
    out = []
    for k in range(2):
        target = tmp_path / f"o{k}.json"
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "benchaudit",
                "check",
                str(AH),
                "--format",
                "json",
                "--output",
                str(target),
                "--fail-on",
                "never",
            ],
            capture_output=True,
            text=True,
        )
        assert proc.returncode == 0, proc.stderr
        out.append(target.read_bytes())
    assert out[0] == out[1]
    doc = json.loads(out[0])
    assert {f["rule"] for f in doc["findings"]} >= {"BA502", "BA503"}


def test_a_battles_json_file_that_is_not_utf8_is_a_one_line_error(tmp_path):
    from click.testing import CliRunner

    from benchaudit.cli import main

    path = tmp_path / "battles.json"
    path.write_bytes(b'[{"model_a": "x\xff", "model_b": "y", "winner": "model_a"}]')
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 2
    assert "not UTF-8 text" in result.output and "Traceback" not in result.output
