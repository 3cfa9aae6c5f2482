"""The mutation probes: one condition or constant replaced, and the tests that must notice.

See tests/MUTATION_PROBES.md for what each probe found and tests/probes/run_probes.py
to re-run them. ``find`` must occur exactly once in ``file``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Probe:
    id: str
    file: str
    what: str
    find: str
    replace: str
    tests: tuple[str, ...]


CASES = "tests/rules/test_rule_cases.py::test_rule_case"

PROBES: list[Probe] = [
    # The three of issue 17.
    Probe(
        "P01",
        "benchaudit/render/text.py",
        "text for --output FILE coloured like the terminal (file check removed)",
        '    if os.environ.get("TERM") == "dumb" or to_file:',
        '    if os.environ.get("TERM") == "dumb":',
        (
            "tests/render/test_render_text_markdown.py::test_no_colour_in_an_output_file_even_from_a_terminal",
        ),
    ),
    Probe(
        "P02",
        "rules/comparisons/rank_tie.py",
        "rank-tie's battles branch deleted",
        "        return _battles(self, source, ctx)\n",
        "        return ()\n",
        (f"{CASES}[rank-tie:8:battles ratings with overlapping intervals are information only]",),
    ),
    Probe(
        "P03",
        "rules/integrity/run_drift.py",
        "run-drift's McNemar p fixed at 1.0",
        "            p = mcnemar_exact(up, down)",
        "            p = 1.0",
        (f"{CASES}[run-drift:0:beta changed on six items, alpha did not]",),
    ),
    # Statistics.
    Probe(
        "P04",
        "benchaudit/stats/ranks.py",
        "best rank ignores the models wholly above",
        "        above = sum(1 for j in range(n) if j != k and low[j] > high[k])",
        "        above = 0",
        ("tests/inputs/test_leaderboard.py::test_rank_ranges_on_the_arena_hard_leaderboard",),
    ),
    Probe(
        "P05",
        "benchaudit/stats/ranks.py",
        "every pair of intervals overlaps",
        "    return lo1 <= hi2 and lo2 <= hi1",
        "    return True",
        (
            "tests/inputs/test_leaderboard.py::test_arena_hard_leaderboard_tie_groups_match_the_overlaps",
            "tests/probes/test_mutation_survivors.py::test_tie_groups_join_only_neighbours_whose_intervals_share_a_point",
        ),
    ),
    Probe(
        "P06",
        "benchaudit/stats/multiple.py",
        "Holm multiplies by 1 (no adjustment)",
        "min(1.0, (m - rank) * float(pvals[i]))",
        "min(1.0, float(pvals[i]))",
        ("tests/stats/test_stats_multiple.py::test_worked_example",),
    ),
    Probe(
        "P07",
        "benchaudit/stats/multiple.py",
        "Holm without the running maximum",
        "        running = max(running, min(1.0, (m - rank) * float(pvals[i])))",
        "        running = min(1.0, (m - rank) * float(pvals[i]))",
        ("tests/stats/test_stats_multiple.py::test_worked_example",),
    ),
    Probe(
        "P08",
        "benchaudit/stats/multiple.py",
        "vectorised Holm without the running maximum",
        "    out[order] = np.maximum.accumulate(scaled)",
        "    out[order] = scaled",
        ("tests/stats/test_stats_multiple.py::test_matches_statsmodels",),
    ),
    Probe(
        "P09",
        "benchaudit/stats/proportions.py",
        "Wilson centre is the raw proportion",
        "    centre = (p + z2 / (2 * n)) / denom",
        "    centre = p",
        ("tests/stats/test_proportions.py::test_seed_worked_numbers",),
    ),
    Probe(
        "P10",
        "benchaudit/stats/paired.py",
        "exact McNemar one-sided (factor 2 dropped)",
        "    return min(1.0, 2.0 * binom_cdf(min(b, c), m, 0.5))",
        "    return min(1.0, binom_cdf(min(b, c), m, 0.5))",
        ("tests/stats/test_stats_paired.py::test_mcnemar_worked_numbers",),
    ),
    Probe(
        "P11",
        "benchaudit/stats/paired.py",
        "vectorised McNemar one-sided",
        "    p = 2.0 * bdtr(np.minimum(b, c), np.maximum(m, 1), 0.5)",
        "    p = bdtr(np.minimum(b, c), np.maximum(m, 1), 0.5)",
        ("tests/stats/test_stats_paired.py::test_mcnemar_exact_many_same_on_both_branches",),
    ),
    Probe(
        "P12",
        "benchaudit/stats/passk.py",
        "unbiased pass@k replaced by the plug-in",
        "        prod *= 1.0 - c / (n - j)",
        "        prod *= 1.0 - c / n",
        ("tests/stats/test_passk.py::test_golden",),
    ),
    Probe(
        "P13",
        "benchaudit/stats/calibration.py",
        "ECE with signed gaps",
        "    return float(sum(b.count / n * abs(gap) for b in table if (gap := b.gap) is not None))",
        "    return float(sum(b.count / n * gap for b in table if (gap := b.gap) is not None))",
        ("tests/stats/test_calibration.py::test_seed_example_ece_and_brier",),
    ),
    Probe(
        "P14",
        "benchaudit/stats/calibration.py",
        "equal-width bins left-closed instead of right-closed",
        '        idx = np.searchsorted(edges, conf, side="left") - 1',
        '        idx = np.searchsorted(edges, conf, side="right") - 1',
        ("tests/stats/test_calibration.py::test_right_closed_bins",),
    ),
    Probe(
        "P15",
        "benchaudit/stats/agreement.py",
        "kappa with chance agreement 0 (kappa = raw agreement)",
        "    pe = sum(row[i] * col[i] for i in range(k))",
        "    pe = 0.0",
        ("tests/stats/test_agreement.py::test_kappa_golden_65_20_5_10",),
    ),
    Probe(
        "P16",
        "benchaudit/stats/selection.py",
        "winner's curse: expected maximum of one candidate",
        "    return math.fsum(1.0 - f**k for f in cdf[:-1])",
        "    return math.fsum(1.0 - f for f in cdf[:-1])",
        ("tests/stats/test_stats_selection.py::test_grows_with_k",),
    ),
    Probe(
        "P17",
        "benchaudit/stats/granularity.py",
        "every value reachable",
        "    return len(counts(value, n, samples, scale)) > 0",
        "    return True",
        ("tests/stats/test_granularity.py::test_humaneval_87_3_is_unreachable",),
    ),
    # Readers.
    Probe(
        "P18",
        "benchaudit/inputs/leaderboard.py",
        "offsets such as +5/-4 read as absolute bounds",
        "    if lo <= 0 <= hi:  # offsets such as +5/-4 or (-1.7, 1.9)",
        "    if False:  # offsets such as +5/-4 or (-1.7, 1.9)",
        ("tests/inputs/test_leaderboard.py::test_parse_interval",),
    ),
    Probe(
        "P19",
        "benchaudit/inputs/battles.py",
        "winner model_b counted as a win of model_a",
        '    "model_b": 1,',
        '    "model_b": 0,',
        ("tests/inputs/test_battles.py::test_arena_hard_facts",),
    ),
    Probe(
        "P20",
        "benchaudit/suppress.py",
        "any reason, even an empty one, makes a suppression valid",
        "        return bool(_REASON.search(self.reason))",
        "        return True",
        ("tests/rules/test_suppress.py::test_no_reason_is_invalid",),
    ),
    # Rules (through their case files).
    Probe(
        "P21",
        "rules/reporting/interval_out_of_range.py",
        "no interval is ever out of range",
        "            if lo >= 0 and hi <= sc:",
        "            if True:",
        (CASES, "-k", "interval-out-of-range"),
    ),
    Probe(
        "P22",
        "rules/reporting/excess_precision.py",
        "any number of extra digits tolerated",
        "            if extra <= TOLERATED:",
        "            if True:",
        (CASES, "-k", "excess-precision"),
    ),
    Probe(
        "P23",
        "rules/reporting/percent_vs_points.py",
        "a change is never read as percent-for-points",
        "            if off_abs > tol or off_rel <= unit or off_abs >= off_rel:",
        "            if True:",
        (CASES, "-k", "percent-vs-points"),
    ),
    # Renderers.
    Probe(
        "P24",
        "benchaudit/render/sarif.py",
        "info findings as SARIF warnings",
        'LEVELS = {"error": "error", "warning": "warning", "info": "note"}',
        'LEVELS = {"error": "error", "warning": "warning", "info": "warning"}',
        ("tests/render/test_render_sarif.py",),
    ),
    Probe(
        "P25",
        "benchaudit/render/github.py",
        "percent signs not escaped in annotations",
        '    text = text.replace("%", "%25").replace("\\r", "%0D").replace("\\n", "%0A")',
        '    text = text.replace("\\r", "%0D").replace("\\n", "%0A")',
        ("tests/render/test_render_github.py::test_message_escaping",),
    ),
    Probe(
        "P26",
        "benchaudit/render/escape.py",
        "pipes not escaped in markdown table cells",
        '        s = s.replace("|", "\\\\|")',
        "        s = s",
        ("tests/render/test_render_text_markdown.py::test_markdown_neutralises_mentions_and_pipes",),
    ),
    Probe(
        "P27",
        "benchaudit/render/markdown.py",
        "markdown comment never cut to size",
        "MAX_CHARS = 60_000",
        "MAX_CHARS = 10**9",
        ("tests/render/test_render_text_markdown.py::test_markdown_is_cut_to_comment_size",),
    ),
    # Engine, report and analyses.
    Probe(
        "P28",
        "benchaudit/engine.py",
        "--fail-on needs a finding worse than the threshold",
        "    return 1 if worst is not None and worst >= threshold else 0",
        "    return 1 if worst is not None and worst > threshold else 0",
        ("tests/inputs/test_text_reader.py::test_cli_exit_codes",),
    ),
    Probe(
        "P29",
        "benchaudit/finding.py",
        "identical findings in one file share a fingerprint",
        '            f"{key}\\x1f{nth}".encode("utf-8", "surrogateescape")',
        '            f"{key}".encode("utf-8", "surrogateescape")',
        ("tests/core/test_core.py::test_fingerprints_ignore_line_numbers_and_tell_duplicates_apart",),
    ),
    Probe(
        "P30",
        "benchaudit/finding.py",
        "the report's grade is always A",
        "        g = claim_grade(group)\n        if GRADES.index(g) > GRADES.index(grade):",
        "        g = claim_grade(group)\n        if False:",
        ("tests/core/test_core.py::test_grades_are_monotone",),
    ),
    Probe(
        "P31",
        "benchaudit/suppress.py",
        "the baseline hides nothing",
        "    return [f for f in findings if f.fingerprint not in accepted]",
        "    return list(findings)",
        ("tests/rules/test_suppress.py::test_baseline_written_and_reread_gives_exit_0",),
    ),
    Probe(
        "P32",
        "benchaudit/render/html.py",
        "HTML template without autoescape",
        "        autoescape=True,",
        "        autoescape=False,",
        ("tests/render/test_render_html.py::test_script_in_a_model_name_is_escaped_everywhere",),
    ),
    Probe(
        "P33",
        "benchaudit/stats/power.py",
        "required n without the power term",
        "    num = za * math.sqrt(2 * pbar * (1 - pbar)) + zb * math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))",
        "    num = za * math.sqrt(2 * pbar * (1 - pbar))",
        ("tests/stats/test_stats_power.py::test_required_n_table",),
    ),
    Probe(
        "P34",
        "benchaudit/analysis/results.py",
        "pairwise p-values in results not Holm-adjusted",
        "    p_adj = holm_array(p[ok]) if ok.any() else np.array([])",
        "    p_adj = p[ok] if ok.any() else np.array([])",
        # The cases' small files take the list-based analysis (analysis/small.py); the
        # numpy one is seen by a test on a file read into a ResultSet.
        ("tests/analysis/test_results_analysis.py::test_holm_across_pairs_matches_statsmodels",),
    ),
]
