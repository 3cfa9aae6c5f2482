"""Preference pairs are formed per row's baseline: models judged against the same baseline
are compared instruction by instruction, never across baselines. Expected numbers are
recomputed here (the exact McNemar test as a two-sided binomial test with scipy)."""

from __future__ import annotations

import pytest
from scipy.stats import binomtest

from benchaudit.analysis.preference_pairs import preference_pairs
from benchaudit.config import Config
from benchaudit.engine import Context
from benchaudit.inputs.judgments import JudgmentSet


def _set(path: str, rows: list[tuple[str, str, str, float]]) -> JudgmentSet:
    """rows: (model, baseline, item, preference on 1-2)."""
    d = JudgmentSet(path=path, layout="preferences")
    for model, base, item, pref in rows:
        d.models.append(model)
        d.baselines.append(base)
        d.items.append(item)
        d.preference.append(pref)
        d.lines.append(len(d.lines) + 2)
    return d


def test_pairs_only_within_one_baseline_of_a_mixed_file():
    a = [1.0 + (k % 3 == 0) for k in range(30)]  # model A's 0/1 wins against X
    b = [1.0 + (k % 5 == 0) for k in range(30)]  # model B's against X
    y = [2.0] * 30  # model B against Y: must never meet A's rows against X
    rows = [("A", "X", f"i{k}", p) for k, p in enumerate(a)]
    rows += [("B", "X", f"i{k}", p) for k, p in enumerate(b)]
    rows += [("B", "Y", f"i{k}", p) for k, p in enumerate(y)]
    got = preference_pairs([_set("mixed.csv", rows)], Context(Config()))
    (pair,) = got
    assert (pair["baseline"], pair["a"], pair["b"]) == ("X", "A", "B")
    d = [x - z for x, z in zip(a, b)]
    wins, losses = sum(v > 0 for v in d), sum(v < 0 for v in d)
    assert pair["items"] == 30 and pair["diff"] == pytest.approx(round(sum(d) / 30, 6))
    assert (pair["a_better"], pair["b_better"]) == (wins, losses)
    assert pair["test"] == "mcnemar-exact"
    assert pair["p_value"] == pytest.approx(binomtest(wins, wins + losses, 0.5).pvalue)


def test_rows_without_a_baseline_pair_within_their_file_only():
    one = _set("one.csv", [("A", "", f"i{k}", 1.0 + k % 2) for k in range(10)])
    two = _set("two.csv", [("B", "", f"i{k}", 2.0) for k in range(10)])
    assert preference_pairs([one, two], Context(Config())) == []


def test_two_files_against_the_same_named_baseline_pair():
    one = _set("one.csv", [("A", "X", f"i{k}", 1.0 + k % 2) for k in range(10)])
    two = _set("two.csv", [("B", "X", f"i{k}", 2.0) for k in range(10)])
    (pair,) = preference_pairs([one, two], Context(Config()))
    assert pair["win_rate_a"] == pytest.approx(0.5) and pair["win_rate_b"] == pytest.approx(1.0)
