"""Single lines whose numbers have roles a naive reader confuses (issue 12, item 2).

Each case is one sentence audited with every rule: the rules it must draw at warning
or error, and that nothing else does.
"""

from __future__ import annotations

import pytest

from benchaudit.config import Config
from benchaudit.engine import audit
from benchaudit.finding import Severity

CASES = [
    # A hyperparameter's size is no item count.
    ("We use lm-evaluation-harness with batch size 16 and report acc_norm on HellaSwag: 79.6.", set()),
    # The candidates of a selection are no item count (MMLU-Pro's 12,032 questions stand).
    (
        "We picked the best of 6 system prompts by test accuracy on MMLU-Pro and report 55.1%.",
        {"winners-curse"},
    ),
    # A typeset minus bounds an interval like an ASCII one.
    ("Accuracy: 3.0% (95% CI −0.4 to 6.4) on the 100-item probe.", {"interval-out-of-range"}),
    # 37.5% of 8 items is exactly 3/8: no excess digits.
    ("On the 8 problems of our hardest tier, the model solves 37.5%.", set()),
    ("On the 30 AIME 2024 problems the model scores 43.33% with greedy decoding.", {"excess-precision"}),
    # Two unrelated percentages beside "while maintaining performance" are no comparison.
    (
        "This model achieves an average sparsity of 87.89% in the FFN layer, reducing FFN FLOPs by "
        "84%, while maintaining downstream task performance.",
        set(),
    ),
    # A rival's name with a version in it, and "ahead of" / "just above".
    (
        "Our model tops the leaderboard on GPQA Diamond at 59.1%, just above Claude 3.5 Sonnet at 58.6%.",
        {"within-noise"},
    ),
    ("Our 7B model is the new best on GPQA Diamond with 49.5%, ahead of Mistral-7B (47.0%).", {"within-noise"}),
    ("It reaches 90.2% on HumanEval, far ahead of Llama 3 8B at 62.2%.", set()),
    # The model's own score above chance is not the chance level it is compared with.
    (
        "With the rotation protocol (a question counts only if all four shuffled orders are answered "
        "correctly), the model's 31% is well above random guessing (25%).",
        {"wrong-chance-level"},
    ),
    # The count of tests before the count of significant ones.
    (
        "Across the 25 BIG-Bench Hard tasks our model is significantly better on 6 (p < 0.05 each, uncorrected).",
        {"multiple-comparisons"},
    ),
    ("Out of 12 tasks, 3 use more than 1,000 examples.", set()),
]


def _warnings(folder, text: str, config: Config) -> list:
    path = folder / "line.md"
    path.write_text(text + "\n", encoding="utf-8")
    return [f for f in audit([str(path)], config).findings if f.severity >= Severity.WARNING]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_line(tmp_path, text, expected):
    found = _warnings(tmp_path, text, Config())
    fired = {f.name for f in found} - {"claim-without-evidence"}  # a sentence alone has no tables
    assert fired == expected, [f.message for f in found]


def test_a_comparison_is_about_the_row_named_before_its_verb(tmp_path):
    # "Our model outperforms Llama-3-8B": the authors' row against Llama's, not the reverse.
    card = (
        "Our model outperforms Llama-3-8B on both benchmarks.\n\n"
        "| Model | MMLU | GSM8K |\n|---|---|---|\n| Ours-8B | 68.2 | 80.1 |\n| Llama-3-8B | 66.6 | 79.6 |"
    )
    (finding,) = _warnings(tmp_path, card, Config(select=["within-noise"]))
    assert "1 of 2 gains" in finding.message and "GSM8K 80.1 vs 79.6" in finding.message
    assert "not gains at all" not in finding.message
