"""Leaderboard tables: interval parsing, rank ranges, tie groups and the anchored row."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchaudit.config import Config
from benchaudit.engine import Context, audit
from benchaudit.errors import InputError
from benchaudit.inputs import load
from benchaudit.inputs.leaderboard import analyse_table, parse_interval, top_within_noise
from benchaudit.stats.ranks import rank_ranges, tie_groups

DATA = Path(__file__).parents[1] / "data" / "arena"
ARENA_HARD = DATA / "arena_hard_auto_leaderboard_2024-05-21.csv"
ALPACA = DATA / "weighted_alpaca_eval_gpt4_turbo_leaderboard.csv"


@pytest.mark.parametrize(
    "text,score,want",
    [
        ("+5/-4", 1287, (1283, 1292)),
        ("-4/+5", 1287, (1283, 1292)),
        ("(-1.7, 1.9)", 82.6, (80.9, 84.5)),
        ("(0.0, 0.0)", 50.0, (50.0, 50.0)),
        ("[1578, 1663]", 1615, (1578, 1663)),
        ("± 2.1", 70.0, (67.9, 72.1)),
        ("\u22122.0/+2.2", 41.1, (39.1, 43.3)),
        ("n/a", 41.1, None),
    ],
)
def test_parse_interval(text, score, want):
    got = parse_interval(text, score)
    if want is None:
        assert got is None
    else:
        assert got == pytest.approx(want)


def _independent_groups(rows):
    """Adjacent rows (by score) whose [score-lo, score+hi] intervals overlap, chained; each run
    cut where a neighbouring gap exceeds 1.96 standard errors of the difference (standard errors
    from the interval widths), a run whose every gap is clear kept whole."""
    rows = sorted(rows, key=lambda r: -r[1])

    def clear(a, b):
        se = math.hypot((a[3] - a[2]) / 3.919928, (b[3] - b[2]) / 3.919928)
        return se > 0 and abs(a[1] - b[1]) > 1.959964 * se

    runs, run = [], [rows[0]]
    for prev, cur in zip(rows, rows[1:]):
        if cur[2] <= prev[3] and prev[2] <= cur[3]:
            run.append(cur)
        else:
            runs.append(run)
            run = [cur]
    runs.append(run)
    groups = []
    for run in (r for r in runs if len(r) > 1):
        pieces = [[run[0]]]
        for prev, cur in zip(run, run[1:]):
            if clear(prev, cur):
                pieces.append([cur])
            else:
                pieces[-1].append(cur)
        tied = [p for p in pieces if len(p) > 1] or [run]
        groups.extend([r[0] for r in p] for p in tied)
    return groups


def test_arena_hard_leaderboard_tie_groups_match_the_overlaps():
    import csv
    import re

    rows = []
    with open(ARENA_HARD, encoding="utf-8") as fh:
        for rec in csv.DictReader(fh):
            lo, hi = map(float, re.findall(r"-?\d+\.\d+", rec["95% CI"]))
            s = float(rec["score"])
            rows.append((rec["model"], s, round(s + lo, 6), round(s + hi, 6)))
    expected = _independent_groups(rows)
    report = audit([str(ARENA_HARD)], Config(select=["rank-tie", "anchored-baseline"]))
    ties = [f for f in report.findings if f.name == "rank-tie"]
    assert [f.evidence["models"] for f in ties] == expected
    assert len(expected) == 7
    anchored = [f for f in report.findings if f.name == "anchored-baseline"]
    assert [f.evidence["model"] for f in anchored] == ["gpt-4-0314"]
    assert anchored[0].location.line == 8
    assert anchored[0].severity.label == "warning" and anchored[0].suggestion


def test_rank_ranges_on_the_arena_hard_leaderboard():
    report = audit([str(ARENA_HARD)], Config(select=["rank-tie"]))
    rows = {r["model"]: r for r in report.results["leaderboard"]}
    assert (
        rows["gpt-4-turbo-2024-04-09"]["rank_low"],
        rows["gpt-4-turbo-2024-04-09"]["rank_high"],
    ) == (1, 1)
    assert (rows["gpt-4-0314"]["rank_low"], rows["gpt-4-0314"]["rank_high"]) == (7, 8)
    assert (
        rows["claude-3-haiku-20240307"]["rank_low"],
        rows["claude-3-haiku-20240307"]["rank_high"],
    ) == (10, 14)


def test_alpacaeval_uses_the_standard_error_of_the_chosen_score():
    src = load(ALPACA, str(ALPACA), Context(Config()))[0]
    board = src.data
    assert src.kind == "leaderboard" and len(board.entries) == 223
    assert board.score_column == "win_rate" and board.interval_from == "standard error"
    null = next(e for e in board.entries if e.model == "NullModel")
    assert null.low == pytest.approx(76.91979180386511 - 1.959964 * 0.9090102449662572, abs=1e-5)
    lc = load(ALPACA, str(ALPACA), Context(Config(columns={"score": "length_controlled_winrate"})))[
        0
    ]
    null_lc = next(e for e in lc.data.entries if e.model == "NullModel")
    assert null_lc.score == pytest.approx(86.45780691307947)
    assert null_lc.high - null_lc.score == pytest.approx(1.959964 * 0.14180005113427935, abs=1e-5)


def test_top_within_noise_for_documents():
    board = analyse_table(
        ["Model", "Score", "95% CI"],
        [["a", "82.6", "(-1.7, 1.9)"], ["b", "81.9", "(-2.1, 2.4)"]],
        [3, 4],
        "card.md",
    )
    got = top_within_noise(board)
    assert got["model"] == "a" and got["runner_up"] == "b"
    assert (got["rank_low"], got["rank_high"]) == (1, 2)
    clear = analyse_table(
        ["Model", "Score", "95% CI"], [["a", "90", "±1"], ["b", "80", "±1"]], None, "card.md"
    )
    assert top_within_noise(clear) is None


def test_not_a_leaderboard():
    assert analyse_table(["item", "model", "score"], [["1", "a", "1"], ["2", "a", "0"]]) is None
    assert analyse_table(["model", "notes"], [["a", "x"], ["b", "y"]]) is None


@pytest.mark.parametrize(
    "body,line,text",
    [
        ("model,score\na,1\nb,2,3\n", 3, "ragged row"),
        ("model,score\na,1\na,2\n", 3, "appears twice"),
    ],
)
def test_malformed_leaderboards(tmp_path, body, line, text):
    p = tmp_path / "board.csv"
    p.write_text(body)
    with pytest.raises(InputError) as exc:
        load(p, str(p), Context(Config(kind="leaderboard")))
    assert exc.value.line == line and text in str(exc.value)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 100), st.floats(0, 10)), min_size=1, max_size=12))
def test_rank_range_laws(rows):
    score = [s for s, _ in rows]
    lo = [s - h for s, h in rows]
    hi = [s + h for s, h in rows]
    best, worst = rank_ranges(lo, hi)
    order = sorted(range(len(rows)), key=lambda k: -score[k])
    for pos, k in enumerate(order, 1):
        assert 1 <= best[k] <= pos <= worst[k] <= len(rows)  # the point rank is in the range
    for g in tie_groups(score, lo, hi):
        assert len(g) >= 2
    if all(h == 0 for _, h in rows) and len(set(score)) == len(score):
        assert best == worst  # exact scores: ranks are exact
