"""Hand-built reports shared by the writer tests (no reader or rule involved)."""

from __future__ import annotations

from benchaudit.finding import Confidence, Finding, Location, Report, Severity, assign_fingerprints

EVIL = "<script>alert(1)</script>"


def sample_report(model_name: str = EVIL) -> Report:
    findings = [
        Finding(
            code="BA101",
            name="unreachable-score",
            severity=Severity.ERROR,
            confidence=Confidence.HIGH,
            location=Location("docs/card.md", 12, 5),
            message="87.3% is not k/164 for any k: 143/164 = 87.20%, 144/164 = 87.80%",
            claim=f"{model_name} reaches 87.3% on HumanEval",
            suggestion="87.2% (143/164) or 87.8% (144/164)",
            evidence={"n": 164, "nearest": [0.872, 0.878], "samples_needed": 10},
        ),
        Finding(
            code="BA103",
            name="missing-interval",
            severity=Severity.INFO,
            confidence=Confidence.MEDIUM,
            location=Location("docs/card.md", 20),
            message="a score with no interval",
            claim="we get 70% on GSM8K, 50% better, a, b: c",
            suggestion="70.0% (95% CI 67.5-72.4%, n = 1,319)",
            evidence={"n": 1319, "ci": (0.675, 0.724)},
        ),
        Finding(
            code="BA201",
            name="within-noise",
            severity=Severity.WARNING,
            confidence=Confidence.LOW,
            location=Location("results/scores.csv", 3),
            message="the gain 100% -> 50%, within noise\nsecond line",
            claim=f"{model_name} beats base",
            suggestion=None,
            evidence={"diff": 0.03, "p_value": 0.29},
        ),
    ]
    findings.sort(key=Finding.sort_key)
    assign_fingerprints(findings)
    results = {
        "models": [
            {
                "file": "results/scores.csv",
                "model": model_name,
                "n_items": 500,
                "score": 0.7,
                "ci_low": 0.658,
                "ci_high": 0.739,
                "ci_method": "wilson",
            },
            {
                "file": "results/scores.csv",
                "model": "base",
                "n_items": 500,
                "score": 0.67,
                "ci_low": 0.627,
                "ci_high": 0.71,
                "ci_method": "wilson",
            },
            {
                "file": "results/scores.csv",
                "model": "small",
                "n_items": 500,
                "score": 0.41,
                "ci_low": 0.368,
                "ci_high": 0.454,
                "ci_method": "wilson",
            },
        ],
        "comparisons": [
            {
                "file": "results/scores.csv",
                "a": "base",
                "b": model_name,
                "diff": 0.03,
                "ci_low": 0.004,
                "ci_high": 0.056,
                "p_value": 0.036,
                "test": "mcnemar-exact",
                "p_adjusted": 0.072,
            },
            {
                "file": "results/scores.csv",
                "a": "base",
                "b": "small",
                "diff": -0.26,
                "ci_low": -0.31,
                "ci_high": -0.21,
                "p_value": 1e-12,
                "test": "mcnemar-exact",
                "p_adjusted": 2e-12,
            },
            {
                "file": "results/scores.csv",
                "a": model_name,
                "b": "small",
                "diff": -0.29,
                "ci_low": -0.34,
                "ci_high": -0.24,
                "p_value": 1e-14,
                "test": "mcnemar-exact",
                "p_adjusted": 3e-14,
            },
        ],
        "ratings": [
            {
                "model": model_name,
                "rating": 1012.5,
                "ci_low": 990.1,
                "ci_high": 1031.0,
                "rank_low": 1,
                "rank_high": 2,
                "battles": 812,
            },
            {
                "model": "base",
                "rating": 1003.0,
                "ci_low": 985.2,
                "ci_high": 1020.9,
                "rank_low": 1,
                "rank_high": 2,
                "battles": 790,
            },
            {
                "model": "small",
                "rating": 910.0,
                "ci_low": 890.0,
                "ci_high": 931.0,
                "rank_low": 3,
                "rank_high": 3,
                "battles": 600,
            },
        ],
        "calibration": [
            {
                "file": "results/conf.csv",
                "n_items": 500,
                "accuracy": 0.72,
                "mean_confidence": 0.81,
                "ece": 0.09,
                "bins": 10,
                "binning": "equal-width",
            },
        ],
        "reliability": [
            {
                "file": "results/conf.csv",
                "bin": 1,
                "lo": 0.0,
                "hi": 0.5,
                "count": 40,
                "confidence": 0.31,
                "accuracy": 0.25,
                "gap": -0.06,
            },
            {
                "file": "results/conf.csv",
                "bin": 2,
                "lo": 0.5,
                "hi": 0.8,
                "count": 120,
                "confidence": 0.66,
                "accuracy": 0.58,
                "gap": -0.08,
            },
            {
                "file": "results/conf.csv",
                "bin": 3,
                "lo": 0.8,
                "hi": 1.0,
                "count": 340,
                "confidence": 0.91,
                "accuracy": 0.83,
                "gap": -0.08,
            },
        ],
        "scaling": [
            {
                "family": model_name,
                "task": "arith",
                "metric": "exact_match",
                "kind": "discrete",
                "n_scales": 3,
                "first": 0.02,
                "last": 0.41,
                "points": [[1e8, 0.02], [1e9, 0.05], [1e10, 0.41]],
            },
            {
                "family": model_name,
                "task": "arith",
                "metric": "token_accuracy",
                "kind": "continuous",
                "n_scales": 3,
                "first": 0.55,
                "last": 0.9,
                "points": [
                    {"params": 1e8, "value": 0.55},
                    {"params": 1e9, "value": 0.71},
                    {"params": 1e10, "value": 0.90},
                ],
            },
        ],
        "passk": [
            {
                "file": "samples.jsonl",
                "k": 1,
                "estimate": 0.3,
                "ci_low": 0.25,
                "ci_high": 0.35,
                "plugin": 0.3,
            },
            {
                "file": "samples.jsonl",
                "k": 2,
                "estimate": 0.533,
                "ci_low": 0.47,
                "ci_high": 0.59,
                "plugin": 0.51,
            },
            {
                "file": "samples.jsonl",
                "k": 5,
                "estimate": 0.82,
                "ci_low": 0.77,
                "ci_high": 0.87,
                "plugin": 0.76,
            },
        ],
        "custom_analysis": [
            {"subset": "clean", "items": 400, "score": 0.66, "note": model_name},
            {"subset": "dirty", "items": 100, "score": 0.86, "note": "& < > \" '"},
        ],
    }
    return Report(
        findings=findings,
        claims_checked=7,
        numbers_seen=11,
        results=results,
        files=["docs/card.md", "results/scores.csv"],
        notes=[f"n for HumanEval taken from the registry; {model_name}"],
    )


def empty_report() -> Report:
    return Report(files=["README.md"], claims_checked=0, numbers_seen=0)
