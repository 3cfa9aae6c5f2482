"""Bradley–Terry fit, Elo scale, pair-count bootstrap and online-Elo order checks."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchaudit.stats import bradley_terry as bt

DATA = Path(__file__).parents[1] / "data" / "arena"


def _simulate(m: int, n: int, seed: int, tie_rate: float = 0.1):
    rng = np.random.default_rng(seed)
    true = rng.normal(0, 0.8, m)
    a = rng.integers(0, m, n)
    b = (a + rng.integers(1, m, n)) % m
    p = 1 / (1 + np.exp(-(true[a] - true[b])))
    u = rng.random(n)
    out = np.where(u < tie_rate, 2, np.where(rng.random(n) < p, 0, 1))
    return a, b, out, [f"m{k}" for k in range(m)]


# --- golden numbers (docs/validation.md) ---------------------------------------------------


def test_strengths_4_2_1_recovered_by_newton_and_mm():
    pc = bt.PairCounts.from_strengths_expected([4, 2, 1], games=100)
    s = np.exp(bt.fit(pc))
    s /= s.sum()
    assert s == pytest.approx([0.571, 0.286, 0.143], abs=5e-4)
    assert s == pytest.approx([4 / 7, 2 / 7, 1 / 7], rel=1e-4)
    assert bt.fit_mm(pc) == pytest.approx([4 / 7, 2 / 7, 1 / 7], rel=1e-4)
    r = bt.to_elo(bt.fit(pc))
    assert r.mean() == pytest.approx(1000.0)
    assert r[0] - r[1] == pytest.approx(120.4, abs=0.1)  # 400·log10(2)
    assert r[0] - r[2] == pytest.approx(240.8, abs=0.1)


@pytest.mark.parametrize("gap,rate", [(30, 0.543), (100, 0.640), (200, 0.760)])
def test_elo_gap_expected_win_rate(gap, rate):
    assert bt.expected_win_rate(gap) == pytest.approx(rate, abs=5e-4)


def test_elo_scale_is_400_over_ln10():
    assert bt.ELO_PER_UNIT == pytest.approx(173.7178, abs=1e-4)
    # sigma(beta_a - beta_b) equals the Elo expected score of the mapped ratings.
    beta = np.array([0.3, -0.2])
    r = bt.to_elo(beta)
    assert 1 / (1 + math.exp(-0.5)) == pytest.approx(bt.expected_win_rate(r[0] - r[1]))


# --- the fit against independent references ------------------------------------------------


def test_fit_matches_statsmodels_binomial_glm():
    sm = pytest.importorskip("statsmodels.api")
    a, b, out, models = _simulate(6, 3000, seed=1)
    pc = bt.PairCounts.from_codes(a, b, out, models)
    beta = bt.fit(pc, ridge=0.0)
    m = pc.n_models
    x = np.zeros((len(pc.i), m))
    x[np.arange(len(pc.i)), pc.i] = 1
    x[np.arange(len(pc.i)), pc.j] = -1
    x = x[:, 1:]  # model 0 is the reference level in the GLM
    wins = pc.score_i()
    endog = np.column_stack([wins, pc.n - wins])
    res = sm.GLM(endog, x, family=sm.families.Binomial()).fit()
    ref = np.concatenate([[0.0], res.params])
    assert beta - beta[0] == pytest.approx(ref - ref[0], abs=1e-6)


def _reference_mm(path: Path) -> dict[str, float]:
    """Hunter's MM algorithm written out plainly, ties as half a win each."""
    wins: dict[str, float] = {}
    games: dict[tuple[str, str], float] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        a, b, w = rec["model_a"], rec["model_b"], rec["winner"]
        for name in (a, b):
            wins.setdefault(name, 0.0)
        key = tuple(sorted((a, b)))
        games[key] = games.get(key, 0.0) + 1
        if w == "model_a":
            wins[a] += 1
        elif w == "model_b":
            wins[b] += 1
        else:
            wins[a] += 0.5
            wins[b] += 0.5
    s = {name: 1.0 for name in wins}
    for _ in range(20000):
        new = {}
        for i in s:
            denom = sum(
                n / (s[i] + s[j if i == k else k]) for (k, j), n in games.items() if i in (k, j)
            )
            new[i] = wins[i] / denom
        total = sum(new.values())
        new = {k: v / total for k, v in new.items()}
        done = max(abs(new[k] - s[k]) for k in s) < 1e-13
        s = new
        if done:
            break
    return {k: 400 * math.log10(v) for k, v in s.items()}


@pytest.mark.parametrize(
    "name", ["arena_hard_battles_74e8b6f.jsonl", "arena_hard_battles_57a9881.jsonl"]
)
def test_arena_hard_within_one_elo_of_reference_mm(name):
    from benchaudit.config import Config
    from benchaudit.engine import Context
    from benchaudit.inputs import load

    path = DATA / name
    src = load(path, str(path), Context(Config()))[0]
    pc = src.data.pair_counts()
    ours = dict(zip(pc.models, bt.to_elo(bt.fit(pc))))
    ref = _reference_mm(path)
    assert set(ours) == set(ref)
    base = "claude-3-haiku-20240307"
    for model in ref:
        assert ours[model] - ours[base] == pytest.approx(ref[model] - ref[base], abs=1.0)
    # The fit agrees far more tightly than the 1-Elo requirement.
    diffs = [abs((ours[m] - ours[base]) - (ref[m] - ref[base])) for m in ref]
    assert max(diffs) < 0.01


def test_separated_data_gives_finite_ratings():
    a = np.array([0, 0, 0, 1, 1, 2])
    b = np.array([1, 2, 1, 2, 2, 0])
    out = np.array([0, 0, 0, 0, 1, 1])  # model 0 never loses
    pc = bt.PairCounts.from_codes(a, b, out, ["x", "y", "z"])
    beta = bt.fit(pc)
    assert np.all(np.isfinite(beta))
    assert beta[0] == beta.max()


def test_disconnected_models_do_not_crash():
    a = np.array([0, 0, 2, 2])
    b = np.array([1, 1, 3, 3])
    out = np.array([0, 1, 0, 2])
    pc = bt.PairCounts.from_codes(a, b, out, ["p", "q", "r", "s"])
    r = bt.bootstrap(pc, resamples=50, seed=0)
    assert np.all(np.isfinite(r.rating))


# --- properties -------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(st.integers(3, 7), st.integers(0, 10_000))
def test_swapping_slots_and_relabelling_do_not_change_ratings(m, seed):
    a, b, out, models = _simulate(m, 400, seed)
    r1 = bt.to_elo(bt.fit(bt.PairCounts.from_codes(a, b, out, models)))
    # Swap model_a / model_b (and the outcome with them).
    out2 = np.where(out == 2, 2, 1 - out)
    r2 = bt.to_elo(bt.fit(bt.PairCounts.from_codes(b, a, out2, models)))
    assert r2 == pytest.approx(r1, abs=1e-6)
    # Relabel models by a permutation: ratings follow their models.
    perm = np.random.default_rng(seed).permutation(m)
    r3 = bt.to_elo(bt.fit(bt.PairCounts.from_codes(perm[a], perm[b], out, models)))
    assert r3[perm] == pytest.approx(r1, abs=1e-6)
    assert r1.mean() == pytest.approx(1000.0)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000))
def test_gradient_is_zero_at_the_fit(seed):
    a, b, out, models = _simulate(5, 300, seed)
    pc = bt.PairCounts.from_codes(a, b, out, models)
    beta = bt.fit(pc, ridge=0.0)
    p = 1 / (1 + np.exp(-(beta[pc.i] - beta[pc.j])))
    r = pc.score_i() - pc.n * p
    grad = np.bincount(pc.i, r, 5) - np.bincount(pc.j, r, 5)
    assert np.abs(grad).max() < 1e-6


# --- bootstrap ----------------------------------------------------------------------------


def test_bootstrap_is_seeded_and_never_anchors():
    a, b, out, models = _simulate(6, 2000, seed=3)
    pc = bt.PairCounts.from_codes(a, b, out, models)
    r1 = bt.bootstrap(pc, resamples=200, seed=7)
    r2 = bt.bootstrap(pc, resamples=200, seed=7)
    assert np.array_equal(r1.ci_low, r2.ci_low) and np.array_equal(r1.ci_high, r2.ci_high)
    assert np.all(r1.ci_high - r1.ci_low > 1.0)  # every model has an interval
    assert np.all((r1.ci_low <= r1.rating) & (r1.rating <= r1.ci_high))
    assert r1.replicates.mean(axis=1) == pytest.approx(np.full(200, 1000.0))
    assert r1.battles.sum() == 2 * 2000


def test_multinomial_replicates_keep_the_battle_count():
    a, b, out, models = _simulate(5, 1000, seed=4)
    pc = bt.PairCounts.from_codes(a, b, out, models)
    s, n = bt._replicate_counts(pc, np.random.default_rng(0), 50, "half")
    assert s.shape == (50, len(pc.i))
    assert np.all(n.sum(axis=1) == 1000)
    assert np.all((0 <= s) & (s <= n))


@pytest.mark.slow
def test_pair_count_bootstrap_agrees_with_refitting_resampled_battles():
    """The multinomial over pair-outcome cells is the row bootstrap, in distribution."""
    a, b, out, models = _simulate(8, 20_000, seed=5)
    pc = bt.PairCounts.from_codes(a, b, out, models)
    fast = bt.bootstrap(pc, resamples=1000, seed=11)
    rng = np.random.default_rng(12)
    reps = []
    for _ in range(1000):
        rows = rng.integers(0, len(a), len(a))
        rpc = bt.PairCounts.from_codes(a[rows], b[rows], out[rows], models)
        reps.append(bt.to_elo(bt.fit(rpc)))
    lo, hi = np.quantile(np.array(reps), [0.025, 0.975], axis=0)
    assert fast.ci_low == pytest.approx(lo, abs=2.5)
    assert fast.ci_high == pytest.approx(hi, abs=2.5)


def test_question_bootstrap_is_wider_on_repeated_arena_hard_battles():
    from benchaudit.config import Config
    from benchaudit.engine import Context
    from benchaudit.inputs import load

    ctx = Context(Config(resamples=400))
    path = DATA / "arena_hard_battles_74e8b6f.jsonl"
    data = load(path, str(path), ctx)[0].data
    assert data.clustered()
    q, b = data.ratings(ctx), data.battle_level_ratings(ctx)
    assert q.method == "question-bootstrap" and b.method == "battle-bootstrap"
    ratio = (q.ci_high - q.ci_low).mean() / (b.ci_high - b.ci_low).mean()
    assert ratio > 1.3


# --- online Elo ------------------------------------------------------------------------------


def test_online_elo_matches_a_plain_loop():
    a, b, out, models = _simulate(4, 300, seed=6)
    orders = np.stack([np.arange(300), np.arange(300)[::-1]])
    got = bt.online_elo(a, b, out, 4, orders, k=16)
    for row, order in zip(got, orders):
        r = [1000.0] * 4
        for t in order:
            ea = 1 / (1 + 10 ** ((r[b[t]] - r[a[t]]) / 400))
            sa = {0: 1.0, 1: 0.0, 2: 0.5}[int(out[t])]
            r[a[t]] += 16 * (sa - ea)
            r[b[t]] -= 16 * (sa - ea)
        assert row == pytest.approx(r)


def test_order_sensitivity_flags_close_top_models():
    # Two nearly equal top models: online Elo with a large K flips them by order.
    a, b, out, models = _simulate(5, 3000, seed=8)
    pc = bt.PairCounts.from_codes(a, b, out, models)
    mle = bt.to_elo(bt.fit(pc))
    res = bt.order_sensitivity(a, b, out, 5, mle, shuffles=30, seed=0, k=32)
    again = bt.order_sensitivity(a, b, out, 5, mle, shuffles=30, seed=0, k=32)
    assert res == again
    assert 0.0 <= res["top1_changed"] <= res["topk_changed"] <= 1.0
    assert res["max_abs_gap"] > 0
    calm = bt.order_sensitivity(a, b, out, 5, mle, shuffles=30, seed=0, k=1)
    assert calm["max_abs_gap"] < res["max_abs_gap"]


@pytest.mark.parametrize("m,n", [(10, 20_000), (6, 60)])
def test_fixed_information_steps_reach_the_newton_maximum(m, n):
    a, b, out, models = _simulate(m, n, seed=9)
    pc = bt.PairCounts.from_codes(a, b, out, models)
    beta = bt.fit(pc)
    s, g = bt._replicate_counts(pc, np.random.default_rng(0), 64, "half")
    inv = np.linalg.inv(bt.information(pc.games(), pc.i, pc.j, m, beta, bt.DEFAULT_RIDGE))
    fast = bt.solve_batch(s, g, pc.i, pc.j, m, beta, inv)
    slow = bt.newton(s, g, pc.i, pc.j, m, beta0=beta, tol=1e-10)
    assert bt.to_elo(fast) == pytest.approx(bt.to_elo(slow), abs=1e-3)


def test_votes_needed_for_a_30_point_gap():
    # Seed 002 §7: about 520 votes for the interval to exclude 50%, about 1,060 for 80% power.
    assert bt.votes_needed(30) == pytest.approx(520, abs=5)
    assert bt.votes_needed(30, power=0.8) == pytest.approx(1060, abs=5)
    assert bt.votes_needed(100) < bt.votes_needed(30)


# --- the fast resampling and solver against slow references ------------------------------


def test_bootstrap_intervals_match_a_slow_refit_of_the_same_replicates():
    """Every replicate refitted from a cold start by full Newton gives the same intervals."""
    a, b, out, models = _simulate(7, 3000, seed=13)
    pc = bt.PairCounts.from_codes(a, b, out, models)
    fast = bt.bootstrap(pc, resamples=300, seed=5)
    rng = np.random.default_rng(5)
    s, n = bt._replicate_counts(pc, rng, 300, "half")
    slow = []
    for k in range(300):
        beta = bt.newton(s[k][None, :], n[k], pc.i, pc.j, 7, tol=1e-12)[0]
        slow.append(bt.to_elo(beta))
    lo, hi = np.quantile(np.array(slow), [0.025, 0.975], axis=0)
    assert fast.ci_low == pytest.approx(lo, abs=1e-3)
    assert fast.ci_high == pytest.approx(hi, abs=1e-3)


def test_poisson_draws_follow_the_poisson_law():
    from scipy import stats

    lam = np.array([0.0, 0.4, 3.0, 7.0, 66.0, 150.0, 150.0])
    draws = bt.poisson_counts(lam, np.random.default_rng(2), 40_000)
    assert draws.shape == (40_000, len(lam))
    assert np.all(draws[:, 0] == 0)
    for c in range(1, len(lam)):
        x = draws[:, c]
        top = int(lam[c] + 5 * np.sqrt(lam[c]) + 5)
        seen = np.bincount(np.minimum(x, top), minlength=top + 1)
        pmf = stats.poisson.pmf(np.arange(top + 1), lam[c])
        pmf[-1] = stats.poisson.sf(top - 1, lam[c])
        keep = pmf * len(x) >= 5  # cells with enough expected draws for chi-square
        expect = pmf[keep] * len(x)
        chi2 = float(((seen[keep] - expect) ** 2 / expect).sum())
        assert stats.chi2.sf(chi2, keep.sum() - 1) > 1e-3, (lam[c], chi2)
    # The same seed gives the same draws; two cells with one mean are independent.
    again = bt.poisson_counts(lam, np.random.default_rng(2), 40_000)
    assert np.array_equal(draws, again)
    assert abs(np.corrcoef(draws[:, 5], draws[:, 6])[0, 1]) < 0.03


def test_multinomial_draws_match_numpy_in_distribution():
    cells = np.array([50.0, 3.0, 0.0, 120.0, 7.0, 20.0])
    ours = bt.multinomial_counts(cells, np.random.default_rng(3), 20_000)
    ref = np.random.default_rng(4).multinomial(200, cells / 200, size=20_000)
    assert np.all(ours.sum(axis=1) == 200)
    assert np.all(ours[:, 2] == 0)
    assert ours.mean(axis=0) == pytest.approx(ref.mean(axis=0), abs=0.25)
    assert np.cov(ours.T) == pytest.approx(np.cov(ref.T), abs=1.5)
