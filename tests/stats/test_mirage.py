"""Metric mirage: metric kinds, transition widths, jumps, constant scores, scaling inputs,
and the Pythia zero-shot files."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchaudit.config import Config
from benchaudit.engine import Context, audit, load_sources
from benchaudit.errors import InputError
from benchaudit.inputs.scaling import family_of, from_harness, parse_size_value, split_column
from benchaudit.stats import mirage as mg


def skill(x: float) -> float:
    """The seed's smooth per-token skill: a logistic in log10 compute, 0.5 at 1e21."""
    return 1 / (1 + 10 ** -(x - 21))


@pytest.mark.parametrize(
    "metric,kind",
    [
        ("acc", mg.ALL_OR_NOTHING),
        ("exact_match,strict-match", mg.ALL_OR_NOTHING),
        ("acc_norm", mg.ALL_OR_NOTHING),
        ("ppl", mg.CONTINUOUS),
        ("word_perplexity", mg.CONTINUOUS),
        ("brier", mg.CONTINUOUS),
        ("edit_similarity", mg.CONTINUOUS),
        ("loglik", mg.CONTINUOUS),
        ("likelihood_difference", None),
        ("pct_stereotype", None),
    ],
)
def test_classify(metric, kind):
    assert mg.classify(metric) == kind


def test_directions():
    assert not mg.higher_is_better("ppl") and not mg.higher_is_better("brier")
    assert mg.higher_is_better("acc") and mg.higher_is_better("loglik")


def test_implied_per_token():
    assert mg.implied_per_token(0.9**30, 30) == pytest.approx(0.9)
    assert mg.implied_per_token(0.99**30, 30) == pytest.approx(0.99)
    assert 0.9**30 == pytest.approx(0.04, abs=0.003)  # the seed's 4%
    assert 0.99**30 == pytest.approx(0.74, abs=0.003)  # and 74%
    with pytest.raises(ValueError):
        mg.implied_per_token(0.5, 0)


def test_transition_widths_from_the_seed():
    xs = [12 + 0.1 * i for i in range(181)]
    p = [skill(x) for x in xs]
    assert mg.transition_width(xs, [v**30 for v in p]) == pytest.approx(1.36, abs=0.01)
    assert mg.transition_width(xs, p) == pytest.approx(1.91, abs=0.01)
    # In closed form the linear ruler's 10-90% width is 2 log10(9) decades.
    fine = [12 + 0.001 * i for i in range(18001)]
    assert mg.transition_width(fine, [skill(x) for x in fine]) == pytest.approx(
        2 * math.log10(9), abs=1e-4
    )


def test_width_narrows_as_answers_get_longer():
    xs = [12 + 0.05 * i for i in range(361)]
    p = [skill(x) for x in xs]
    widths = [mg.transition_width(xs, [v**L for v in p]) for L in (1, 2, 4, 8, 16, 32, 64)]
    assert widths[0] == pytest.approx(mg.transition_width(xs, p))
    assert all(a > b for a, b in zip(widths, widths[1:]))


def test_width_of_a_falling_metric_and_of_flat_curves():
    xs = [0.0, 1.0, 2.0]
    assert mg.transition_width(xs, [10.0, 5.0, 0.0], higher=False) == pytest.approx(1.6)
    assert mg.transition_width(xs, [0.3, 0.3, 0.3]) is None
    assert mg.transition_width([1.0], [0.5]) is None


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=2, max_size=12))
def test_width_is_within_the_span(values):
    xs = [float(i) for i in range(len(values))]
    w = mg.transition_width(xs, values)
    assert w is None or -xs[-1] <= w <= xs[-1]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(0.01, 1.0), min_size=3, max_size=10, unique=True))
def test_step_shares_sum_to_one_on_rising_curves(values):
    values = sorted(values)
    xs = [float(i) for i in range(len(values))]
    step = mg.steepest_step(xs, values)
    shares = [mg.step_share(xs, values, True, i) for i in range(1, len(values))]
    assert sum(shares) == pytest.approx(1.0)
    assert step.share_of_gain == pytest.approx(max(shares))


def test_exact_match_jumps_where_the_skill_is_smooth():
    sizes = np.logspace(18, 24, 8)
    xs = np.log10(sizes).tolist()
    p = [skill(x) for x in xs]
    em = [v**30 for v in p]
    step = mg.apparent_jump(xs, em)
    assert step is not None and step.share_of_gain > 0.4
    slope, r2 = mg.power_fit(p, em)
    assert slope == pytest.approx(30) and r2 == pytest.approx(1.0)
    assert mg.monotone(p)


def test_even_log_linear_rise_is_no_jump():
    xs = [float(i) for i in range(8)]
    assert mg.apparent_jump(xs, [0.1 + 0.1 * i for i in range(8)]) is None


def test_jump_within_noise_is_no_jump():
    xs = [0.0, 1.0, 2.0, 3.0]
    values = [0.50, 0.50, 0.56, 0.57]
    assert mg.apparent_jump(xs, values) is not None
    assert mg.apparent_jump(xs, values, stderr=[0.03] * 4) is None


def test_monotone_allows_noise():
    assert mg.monotone([0.5, 0.49, 0.6], stderr=[0.01, 0.01, 0.01])
    assert not mg.monotone([0.5, 0.40, 0.6], stderr=[0.01, 0.01, 0.01])
    assert mg.monotone([10.0, 5.0, 4.0], higher=False)


def test_degenerate_and_chance():
    assert mg.degenerate([0.3654, 0.3654, 0.5673, 0.3654, 0.3654]) == (0.3654, 4)
    assert mg.degenerate([0.1, 0.2, 0.3]) is None
    assert mg.at_chance("hendrycksTest-anatomy", [0.24, 0.26, 0.28]) == 0.25
    assert mg.at_chance("mmlu", [0.24, 0.26, 0.35]) is None
    assert mg.at_chance("lambada_openai", [0.2, 0.2]) is None
    assert mg.chance_level("piqa") == 0.5


def test_format_size():
    assert mg.format_size(7e7) == "70M" and mg.format_size(1.4e9) == "1.4B"


# --------------------------------------------------------------------------- inputs


def test_family_and_sizes():
    assert family_of("EleutherAI/pythia-v1.1-1b-bf16") == "EleutherAI/pythia-v1.1-*"
    assert family_of("EleutherAI/pythia-v1.1-12b") == "EleutherAI/pythia-v1.1-*"
    assert parse_size_value("1.4B") == 1.4e9 and parse_size_value("7e7") == 7e7
    assert parse_size_value("abc") is None and parse_size_value("0") is None
    assert split_column("lambada_openai_ppl") == ("lambada_openai", "ppl")
    assert split_column("mmlu_mean_acc") == ("mmlu_mean", "acc")
    assert split_column("exact_match") == ("", "exact_match")
    assert split_column("n_mmlu_subjects") == ("n_mmlu_subjects", "n_mmlu_subjects")


def test_harness_files_group_by_setting(data_dir):
    ctx = Context(Config())
    paths = [
        str(data_dir / "metrics" / "pythia_zero_shot"),
        str(data_dir / "metrics" / "pythia_five_shot"),
    ]
    groups = from_harness(load_sources(paths, ctx))
    assert [(g.setting, len(g.curves[("lambada_openai", "acc")].points)) for g in groups] == [
        ("0-shot", 8),
        ("5-shot", 7),
    ]
    mmlu = groups[0].curves[("mmlu", "acc")]
    assert mmlu.note.startswith("57 subjects")
    assert min(mmlu.values) == pytest.approx(0.244, abs=5e-4)
    assert max(mmlu.values) == pytest.approx(0.283, abs=5e-4)


@pytest.mark.slow
def test_pythia_zero_shot_lambada_is_a_mirage(data_dir):
    report = audit(
        [str(data_dir / "metrics" / "pythia_zero_shot")],
        Config(select=["metric-mirage", "constant-score"]),
    )
    warnings = [f for f in report.findings if f.severity.label == "warning"]
    mirage = [f for f in warnings if f.name == "metric-mirage"]
    assert [f.evidence["task"] for f in mirage] == ["lambada_openai"]
    ev = mirage[0].evidence
    assert ev["metric"] == "acc" and ev["continuous_metric"] == "ppl"
    assert (ev["step_from"], ev["step_to"]) == (1.6e8, 4.1e8)
    assert ev["continuous_values"][0] == pytest.approx(142.4, abs=0.05)
    assert ev["power_r2"] > 0.95
    assert mirage[0].location.file.endswith("410m_step143000.json")
    constant = {f.evidence["task"]: f for f in warnings if f.name == "constant-score"}
    assert set(constant) == {"wsc", "mmlu"}
    assert constant["wsc"].evidence["repeated_value"] == 0.3654
    assert constant["wsc"].evidence["repeats"] == 5
    rows = {(r["task"], r["metric"]): r for r in report.results["scaling"]}
    assert rows[("lambada_openai", "acc")]["n_scales"] == 8
    assert rows[("lambada_openai", "acc")]["transition_width"] == pytest.approx(1.555, abs=1e-3)
    assert rows[("lambada_openai", "ppl")]["kind"] == "continuous"


def test_summary_csv_reads_as_two_settings(data_dir):
    ctx = Context(Config())
    sources = load_sources([str(data_dir / "metrics" / "pythia_step143000_summary.csv")], ctx)
    assert [s.kind for s in sources] == ["scaling", "scaling"]
    assert [s.data.setting for s in sources] == ["five_shot", "zero_shot"]
    lam = sources[1].data.curves[("lambada_openai", "acc")]
    assert lam.values[0] == pytest.approx(0.1846)


@pytest.mark.parametrize(
    "content,message,line",
    [
        ("model,n_params,acc\na-1b,1e9,0.5\na-2b,lots,0.6\n", "positive number", 3),
        ("model,n_params,acc\na-1b,1e9,0.5\na-2b,2e9\n", "ragged", 3),
    ],
)
def test_bad_scaling_csv(tmp_path, content, message, line):
    path = tmp_path / "scaling.csv"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=message) as err:
        audit([str(path)], Config(kind="scaling"))
    assert err.value.line == line


def test_scaling_csv_without_size_column(tmp_path):
    path = tmp_path / "scaling.csv"
    path.write_text("model,acc\na,0.5\nb,0.6\n", encoding="utf-8")
    with pytest.raises(InputError, match="no size column"):
        audit([str(path)], Config(kind="scaling"))


def test_v04_harness_files_with_filtered_metrics(tmp_path):
    import json

    em = {"1b": 0.01, "7b": 0.02, "70b": 0.40}
    ppl = {"1b": 20.0, "7b": 12.0, "70b": 7.0}
    paths = []
    for size in em:
        doc = {
            "results": {
                "toyqa": {
                    "alias": "toyqa",
                    "exact_match,strict-match": em[size],
                    "exact_match_stderr,strict-match": 0.005,
                    "word_perplexity,none": ppl[size],
                    "word_perplexity_stderr,none": "N/A",
                }
            },
            "n-samples": {"toyqa": {"original": 1000, "effective": 1000}},
            "config": {"model": "hf", "model_args": f"pretrained=acme/toy-{size}"},
            "lm_eval_version": "0.4.3",
        }
        path = tmp_path / f"results_toy-{size}.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        paths.append(str(path))
    report = audit(paths, Config(select=["metric-mirage"]))
    (f,) = [f for f in report.findings if f.severity.label == "warning"]
    assert f.evidence["metric"] == "exact_match,strict-match"
    assert f.evidence["continuous_metric"] == "word_perplexity"
    assert f.evidence["sparse"] is True and "only 3 sizes" in f.message
    rows = {r["metric"]: r for r in report.results["scaling"]}
    assert rows["exact_match,strict-match"]["family"] == "acme/toy-*"
    assert rows["exact_match,strict-match"]["sparse"] is True
