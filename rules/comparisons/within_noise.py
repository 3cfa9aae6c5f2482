"""BA201 within-noise: a claimed improvement, ranking or "#1" the numbers do not support."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from benchaudit.rules._claims import claims, emit, mean_halfwidth, points, unpaired
from benchaudit.rules._wording import interval, level, num, signed
from benchaudit.rules.comparisons._bold_leads import (
    ASSUMED_MAX_ITEMS,
    bold_leads,
    items_to_separate,
)

from benchaudit.claims.linking import (
    anchored,
    benchmark_keys,
    best_family,
    clause_lines,
    lines_claimed,
    subject_reason,
    table_about,
)
from benchaudit.finding import Confidence, Finding, Location, Severity
from benchaudit.rulebase import Note, Output, Rule

if TYPE_CHECKING:
    from benchaudit.claims.model_claims import ModelComparison
    from benchaudit.claims.scoretable import ScoreLine, ScoreTable
    from benchaudit.engine import Context
    from benchaudit.evidence import Claim, Source


class WithinNoise(Rule):
    """A claimed improvement, ranking or "#1" lies inside the noise of its own numbers.

    **What.** Leaderboards: a row marked as the winner ("#1", "SOTA", "state of
    the art", "best", a medal, bold) whose interval overlaps the runner-up's is
    flagged with both intervals and the rank range of the top row.

    **Why.** "#1" is a claim that the top row beats the second. When the two
    intervals overlap, the data do not establish the order: another draw of
    the same evaluation could swap them.

    Bad (leaderboard.csv)::

        model,score,95% CI
        our-model (SOTA),82.6,"(-1.7, 1.9)"
        rival,81.9,"(-2.1, 2.4)"
        older,60.4,"(-2.5, 2.5)"

    Better (leaderboard.csv)::

        model,score,95% CI
        our-model,82.6,"(-1.7, 1.9)"
        rival,81.9,"(-2.1, 2.4)"
        older,60.4,"(-2.5, 2.5)"

    Documents: a sentence saying one model outperforms, improves on or is
    significantly better than another is checked against its own numbers: a
    reported p at or above alpha; two scores whose unpaired 95% interval of the
    difference contains zero (n from the sentence, the paragraph, the one
    test-set size the document states, or the benchmark registry); with no
    item count, a lead so small that only a test set of more than 100,000
    items could separate it (83.4 vs 83.3); two stated intervals likewise; a score table with
    "improves on every benchmark", benchmark by benchmark. The message says
    the verdict used the unpaired bound (a paired analysis needs per-item
    results). 73.0% vs 70.0% on 500 questions is +3.0 points, unpaired 95%
    interval -2.6 to +8.6.

    Score tables: a bold "best" cell is tested against the next value of its
    benchmark (or of its row group, when the bold marks each group's best or
    each base model's best variant) on the benchmark's item count. When that
    count is unknown but the table is about a set whose total the document
    states ("1,781 objective questions" over "Scoring Rate of Objective
    Questions" by subject), the lead is tested at that total: an upper bound,
    at which the interval is narrowest, so a lead inside the noise there is
    inside it on the true count ("even at n = 1,781"). Likewise a column whose
    label names no benchmark in a table about one benchmark of 0/1 items (its
    heading, caption or short lead-in: "### HumanEval-X" over "C++ | Go",
    "Performance on MVBench" over its task columns) is a part of it, tested at
    most at that benchmark's count; a label naming the whole ("Full",
    "Overall") or a benchmark of its own ("Multi-SWE-bench mini") is not. A
    heading that is only a split's bare name ("### Airline") names that split of
    the benchmark the document is about (its first heading, or the repository
    it first clones: "tau-bench"), never by the word alone. One exact count the
    document states for every test set ("We sample 200 instances from every
    test set") is taken for each column of a table whose columns name no
    benchmark and no count, and the message quotes the sentence. A
    bold average
    ("Average", "Avg.") is tested when the table shows what it averages: the
    variance of a mean of K scores is (1/K²)·Σ p(1-p)/n over its parts with a
    known count of 0/1 items (a part without one adds none, so the interval is
    never wider than the true one). A lead inside the unpaired interval is a
    warning, and the message says a paired test would be narrower. Three or
    more such cells of one table are one finding that lists them.

    Bad::

        On the same 500 questions, model A (73.0%) outperforms model B (70.0%).

    Better::

        On the same 500 questions, model A (73.0%) scores 3.0 points above model B
        (70.0%); a paired McNemar test gives p = 0.036.

    **Assumptions.** Intervals are 95% intervals of each row (an SE column
    becomes ± 1.96·SE); overlap is the conservative reading of "not separated".
    """

    code = "BA201"
    name = "within-noise"
    severity = Severity.WARNING

    def on_leaderboard(self, source: Source, ctx: Context) -> Iterable[Finding]:
        return _leaderboard(self, source, ctx)

    def on_document(self, source: Source, ctx: Context) -> Iterable[Output]:
        return _document(self, source, ctx)


def _leaderboard(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
    from benchaudit.inputs.leaderboard import TOP_MARKERS, leaderboards_of, top_within_noise

    for board in leaderboards_of(source):
        rows = board.ranked()
        if len(rows) < 2 or not any(TOP_MARKERS.search(c) for c in rows[0].cells):
            continue
        got = top_within_noise(board)
        if got is None:
            continue
        top, second = rows[0], rows[1]
        yield rule.finding(
            Location(board.path, top.line),
            f"{top.model} is marked as the top model, but its 95% interval "
            f"[{top.low:g}, {top.high:g}] overlaps {second.model}'s [{second.low:g}, "
            f"{second.high:g}]: the lead of {top.score - second.score:.3g} is within noise",
            claim=" ".join(top.cells),
            suggestion=(
                f'Drop the "#1" wording: "{top.model} and {second.model} are statistically '
                f"tied for first ({top.score:g} vs {second.score:g}; rank range "
                f'{got["rank_low"]}–{got["rank_high"]})".'
            ),
            evidence=got,
        )


def _document(rule: Rule, source: Source, ctx: Context) -> Iterable[Output]:
    said: set[int | None] = set()
    for out in _comparison_claims(rule, source, ctx):
        if isinstance(out, Finding):
            said.add(out.location.line)
        yield out
    yield from bold_leads(rule, source, ctx)
    # A sentence already checked against its table benchmark by benchmark is said once.
    yield from (f for f in _prose_against_tables(rule, source, ctx) if f.location.line not in said)
    yield from _best_against_tables(rule, source, ctx)


def _prose_against_tables(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
    """ "X outperforms Y (across benchmarks)" checked against the rows of X and Y in a table."""
    from benchaudit.claims.linking import linked_pairs
    from benchaudit.claims.rivals import class_of_rivals, sized_class

    for comp, st, pair in linked_pairs(source, ctx, "superior", loose=True):
        a, rivals, spoken = pair
        qualified = _QUALIFIED.search(comp.scope, comp.verb_at)
        if (
            qualified
            and not _both_groups(qualified.group(0), st)
            and not clause_lines(comp, st, ctx.benchmarks)
        ):
            # "on all Chinese benchmarks", "on reasoning-related benchmarks": a class of lines
            # the table does not label, whatever else the paragraph names ("across both" groups
            # of a two-group table is every line).
            continue
        if _AVERAGE.search(comp.scope):
            # "beats Y by 9.3% on average": the claim is the average line's, not each line's.
            spoken = [line for line in spoken or st.lines if _AVERAGE.search(line.label)]
            if not spoken:
                continue
        rated = st.ratings if comp.general and not spoken else []
        # "outperforms all open-source models": on each line, against the strongest of them.
        strongest = class_of_rivals(comp) is not None or sized_class(comp, a) is not None
        got = _breakdown(a, rivals, (spoken or st.lines) + rated, ctx.alpha, strongest)
        verdict = _unsupported(comp, got)
        if verdict is None:
            continue
        why = subject_reason(comp, st, a)
        yield rule.finding(
            Location(source.path, comp.line, None, comp.page),
            f"the table at {_where(st)} does not show '{comp.verb}'{verdict}: " + _said(a, got)
            + (f" ({why})" if why else ""),
            claim=comp.sentence,
            suggestion=(
                f"Say where {a} leads and where it does not, benchmark by benchmark (e.g. "
                f"'ahead of {', '.join(rivals)} beyond the noise on {len(got['clear'])} of "
                f"{got['checked']}'), and call a lead inside the noise a tie"
            ),
            evidence={"model": a, "rivals": rivals, **{k: v for k, v in got.items() if k != "checked"}},
            confidence=Confidence.MEDIUM,
        )


def _both_groups(qualifier: str, st: ScoreTable) -> bool:
    """Whether "across both X" covers every line: the table groups its lines under exactly two
    upper labels ("Python / EM", "Java / ES"), the two the qualifier counts."""
    if not re.search(r"\bboth\b", qualifier, re.I):
        return False
    groups = {line.label.split(" / ")[0].strip() for line in st.lines if " / " in line.label}
    return len(groups) == 2 and all(" / " in line.label for line in st.lines)


def _where(st: ScoreTable) -> str:
    return f"line {st.table.line}" if st.table.page is None else f"page {st.table.page}"


def _breakdown(
    a: str, rivals: list[str], lines: list[ScoreLine], alpha: float, strongest: bool = False
) -> dict[str, Any]:
    """Each comparison of ``a`` with a rival on the lines (with ``strongest``, only the best
    rival of each line): a loss, a tie, a lead inside the noise of the line's n, a lead
    beyond it, or a lead on a line whose n is not known (an average, a benchmark the registry
    has no count for): that lead is not judged."""
    got: dict[str, Any] = {"losses": [], "level": [], "noisy": [], "clear": [], "unknown": [], "checked": 0}
    for line in lines:
        by = {c.model: c for c in line.cells}
        if a not in by:
            continue
        sign = 1 if line.higher_is_better else -1
        scale = 100.0 if line.proportion else 1.0
        present = [r for r in rivals if r in by]
        if strongest and present:
            present = [max(present, key=lambda r: sign * by[r].value)]
        for r in present:
            if r not in by:
                continue
            got["checked"] += 1
            mine, theirs = by[a], by[r]
            pair = f"{line.label} {mine.text} vs {r} {theirs.text}"
            if sign * mine.value < sign * theirs.value:
                got["losses"].append(pair)
            elif mine.value == theirs.value:
                got["level"].append(pair)
            elif not line.n or line.rating or not (0 <= mine.value * scale <= 100 and 0 <= theirs.value * scale <= 100):
                got["unknown"].append(line.label)
            else:
                u = unpaired(mine.value * scale, theirs.value * scale, line.n, 1 - alpha)
                kind = "noisy" if u["lo"] <= 0 <= u["hi"] else "clear"
                got[kind].append(f"{pair} ({signed(u['lo'])} to {signed(u['hi'])}, n = {line.n:,})")
    return got


def _unsupported(comp: ModelComparison, got: dict[str, Any]) -> str | None:
    """Why the breakdown does not support the claim (words for the message), or None.

    A loss or tie contradicts "outperforms" (a hedged "on most benchmarks" tolerates a
    quarter, and so does a claim said of results overall, with no word of every benchmark,
    when most of its leads are beyond the noise); with none, the claim needs one lead beyond the noise, and a claim of a
    large or "significant" margin (no test named) or of a lead "across" / "consistently"
    needs most of its leads beyond it."""
    checked = got["checked"]
    behind = len(got["losses"]) + len(got["level"])
    noisy, clear = len(got["noisy"]), len(got["clear"])
    if not checked:
        return None
    unknown = len(got["unknown"])
    own = _own_clause(comp)
    hedged = bool(_HEDGED.search(own))
    # "X outperforms Y", said of results overall with no word of every benchmark: a few losses
    # among leads mostly beyond the noise do not contradict it.
    overall = not _EVERY.search(own) and clear > noisy + behind
    if behind and not ((hedged or overall) and behind * 4 <= checked):
        return ""
    if not noisy:
        return None
    if not clear and noisy >= len(got["unknown"]):
        return " beyond the noise"
    strong = _STRONG.search(comp.sentence)
    if strong and not _TESTED.search(comp.sentence) and noisy > clear and noisy >= unknown:
        return f" ('{strong.group(0)}', and no test is named)"
    # A lead whose n is unknown may be beyond the noise: it counts on the claim's side.
    if (comp.general or _CONSISTENT.search(comp.sentence)) and noisy + behind > clear + unknown:
        return " beyond the noise on most of what it compares"
    return None


def _said(a: str, got: dict[str, Any]) -> str:
    """The benchmark-by-benchmark breakdown, worst first."""
    n = got["checked"]
    parts = []
    if got["losses"]:
        parts.append(f"{a} is behind on {len(got['losses'])} of {n} comparison(s): {'; '.join(got['losses'][:6])}")
    if got["level"]:
        parts.append(f"level on {len(got['level'])}: {'; '.join(got['level'][:4])}")
    if got["noisy"]:
        parts.append(f"leads inside the unpaired 95% interval on {len(got['noisy'])} of {n}: {'; '.join(got['noisy'][:6])}")
    parts.append(f"ahead beyond the noise on {len(got['clear'])} of {n}")
    if got["unknown"]:
        avg = [x for x in got["unknown"] if _AVERAGE.search(x)]
        parts.append(
            f"{len(got['unknown'])} lead(s) not judged, the item count is unknown"
            + (" (an average's n is unknown)" if avg else "")
            + f": {', '.join(dict.fromkeys(got['unknown']))}"
        )
    return "; ".join(parts)


#: Lines named by a class ("Chinese benchmarks", "code generation tasks"), not every line.
_QUALIFIED = re.compile(
    r"\b(?:on|in|across|for)\s+(?:(?:all|most|many|the|every|each|several|both)\s+)*"
    r"(?!(?:evaluated|other|these|those|standard|common|popular|various|multiple|different|"
    r"key|major|mainstream|public|benchmark|selected|remaining|all|most)\b)"
    r"[A-Za-z][\w-]*(?:\s+[a-z][\w-]*)?\s+(?:benchmarks|tasks|datasets|evaluations|domains|categories|languages)\b",
    re.I,
)
#: A claim of a large or significant margin.
_STRONG = re.compile(
    r"\b(?:significant(?:ly)?|substantial(?:ly)?|considerabl[ey]|clearly|distinctly|dramatically|markedly|"
    r"by\s+(?:a\s+)?(?:large|wide|significant|substantial|notable|sizeable|clear|huge)\s+margins?|"
    r"(?:large|wide|sizeable|notable|substantial)\s+margins?)\b",
    re.I,
)
#: A test or interval named beside the claim: "significant" may then be a tested statement.
_TESTED = re.compile(r"\bp\s*[<=≤]|\bp-value|\btest\b|\bconfidence\s+interval|\bCI\b|±|\bstd\b|standard\s+(?:error|deviation)", re.I)
_CONSISTENT = re.compile(r"\bconsistent(?:ly)?\b|\bacross\b", re.I)
_AVERAGE = re.compile(r"\b(?:avg|average|mean|overall)\b", re.I)


def _best_against_tables(rule: Rule, source: Source, ctx: Context) -> Iterable[Finding]:
    """ "X achieves the best results (on B)" checked against X's cells in the table it is about:
    another model ahead, or level with it, contradicts "best"; a lead inside the noise of n
    items does not establish it."""
    from benchaudit.claims.access import document_of, score_tables
    from benchaudit.claims.linking import benchmark_keys
    from benchaudit.claims.model_claims import comparisons, limited, subject_of

    doc = document_of(source)
    if doc is None:
        return
    tables = score_tables(source, ctx)
    for comp in comparisons(doc) if tables else []:
        subject = subject_of(comp)
        if comp.kind != "best" or limited(comp):
            continue
        named = benchmark_keys(comp.sentence, ctx.benchmarks)
        # A subject that names no model ("the model achieves SOTA"): only the table the
        # sentence is about, and the row inferred for it, said in the message.
        chosen = table_about(comp, tables, doc) or (anchored(comp, tables, named, None) if subject else [])
        for st in chosen[:1]:
            family, why = best_family(comp, st)
            lines = lines_claimed(comp, st, named, family)
            if not family or not lines:
                continue
            behind: list[str] = []
            level: list[str] = []
            noisy: list[str] = []
            for line in lines:
                sign = 1 if line.higher_is_better else -1
                mine = [c for c in line.cells if c.model in family]
                others = [c for c in line.cells if c.model not in family and c.model not in st.outside]
                if not mine or not others:
                    continue
                top = max(mine, key=lambda c: sign * c.value)
                rival = max(others, key=lambda c: sign * c.value)
                if sign * rival.value > sign * top.value:
                    behind.append(f"{line.label}: {rival.model} {rival.text} vs {top.text}")
                elif rival.value == top.value:
                    level.append(f"{line.label}: {rival.model} {rival.text} = {top.text}")
                elif line.n and not line.proportion:
                    u = unpaired(top.value, rival.value, line.n, 1 - ctx.alpha)
                    if u["lo"] <= 0 <= u["hi"]:
                        noisy.append(f"{line.label}: {top.text} vs {rival.model} {rival.text} (n = {line.n:,})")
            if not (behind or level) and (not noisy or len(noisy) < len(lines)):
                continue  # best where claimed, and at least one lead beyond the noise
            parts = []
            if behind:
                parts.append(f"another model is ahead on {len(behind)}: {'; '.join(behind[:5])}")
            if level:
                parts.append(f"level on {len(level)}: {'; '.join(level[:5])}")
            if noisy:
                parts.append(f"leads inside the unpaired 95% interval: {'; '.join(noisy[:5])}")
            where = f"table at line {st.table.line}" if doc.format != "pdf" else "table on page " + str(st.table.page)
            yield rule.finding(
                Location(source.path, comp.line, None, comp.page),
                f"the {where} does not show '{comp.verb}': " + "; ".join(parts) + (f" ({why})" if why else ""),
                claim=comp.sentence,
                suggestion="Say where it leads and where it does not, benchmark by benchmark, and call "
                "a lead inside the noise a tie",
                evidence={"models": sorted(family), "behind": behind, "level": level, "noisy": noisy},
                confidence=Confidence.MEDIUM,
            )


def _own_clause(comp: ModelComparison) -> str:
    """The claim's own words: its scope up to a clause that comments on it (", making it a
    good choice for many use cases", ", which ...", ", demonstrating ..."): a hedge there
    ("many") qualifies that comment, not how often the lead holds."""
    scope = comp.scope
    m = _COMMENT.search(scope, comp.verb_at + len(comp.verb))
    return scope[: m.start()] if m else scope


#: A clause that comments on the claim before it: a relative or a participle after a comma
#: ("including" lists the rivals, and stays with the claim).
_COMMENT = re.compile(r",\s*(?:which|making|(?!including\b)[a-z]+ing)\b")


#: A claim said of every line ("on all benchmarks", "consistently", "across the board").
_EVERY = re.compile(
    r"\b(?:all|every|each|consistent(?:ly)?|uniformly|comprehensively|across\s+the\s+board|without\s+exception)\b",
    re.I,
)


#: A claim hedged in how often it holds, or one of a small lead ("a slight advantage over Y"):
#: a loss on a quarter of the lines does not contradict it.
_HEDGED = re.compile(
    r"\b(?:nearly|almost|most|majority|many|several|generally|largely|slight(?:ly)?|marginal(?:ly)?)\b", re.I
)


# --- claims of a difference in prose: a p, two scores, two intervals, a table ------


def _comparison_claims(rule: Rule, source: Source, ctx: Context) -> Iterable[Output]:
    """A claimed improvement, ranking or "significant" difference inside the noise.

    Checked in order: a reported p at or above alpha; two scores whose unpaired
    interval of the difference contains 0; two stated intervals likewise; a
    score table with "improves on every benchmark", row by row.
    """
    unchecked: list[Claim] = []
    for c in claims(source, "comparison"):
        f = c.fields
        if (
            f.get("a_value")
            and f.get("b_value")
            and not c.n
            and f.get("direction") in ("better", "worse")
        ):
            unchecked.append(c)
        yield from _within_noise_claim(rule, c, ctx)
    if unchecked:
        # Say what could not be checked rather than passing it silently.
        yield Note(
            f"within-noise: {len(unchecked)} comparison(s) of two scores in {source.path} name no item "
            f"count (e.g. line {unchecked[0].location.line}); name the benchmark or pass --n NAME=N "
            "to check them"
        )


def _within_noise_claim(rule: Rule, c: Claim, ctx: Context) -> Iterable[Finding]:
    f, alpha = c.fields, ctx.alpha
    claims_win = f.get("direction") in ("better", "worse") or f.get("significant") == "yes"
    if not claims_win or f.get("direction") == "equal":
        return
    exact = [p for p in f.get("pvalues", []) if p["op"] in ("=", ">", ">=")]
    said_not_significant = f.get("significant") == "no" and f.get("significant_from") == "words"
    if (
        exact
        and all(_at_least(p, alpha) for p in exact)
        and not (f.get("hedged") or said_not_significant)
    ):
        p = exact[0]
        yield emit(
            rule,
            c,
            f"claimed as a difference, but the reported p {p['op']} {p['value']} is "
            f"not below α = {alpha:g}",
            suggestion=f"The difference is not statistically significant (p {p['op']} "
            f"{p['value']}); report it as inconclusive rather than as an improvement.",
            evidence={"p": float(p["value"]), "alpha": alpha},
        )
        return
    if f.get("significant") == "no":
        return
    if any(
        (p["op"] in ("<", "<=") and float(p["value"]) <= alpha)
        or (p["op"] == "=" and float(p["value"]) < alpha)
        for p in f.get("pvalues", [])
    ):
        return
    if f.get("discordant") or f.get("stats") or f.get("paired_test"):
        return
    a, b = f.get("a_value"), f.get("b_value")
    if a and b and c.n:
        yield from _two_scores(rule, c, a, b, c.n, alpha)
        return
    ivs = [iv for iv in f.get("intervals", []) if "lo" in iv or "pm" in iv]
    if a and b and len(ivs) != 2:
        yield from _tiny_prose_lead(rule, c, a, b, alpha)
        return
    if len(ivs) == 2:
        yield from _two_intervals(rule, c, ivs)
    elif f.get("tables") and f.get("every"):
        yield from _table_rows(rule, c, ctx)


def _at_least(p: dict[str, str], alpha: float) -> bool:
    """A reported p is at or above alpha for every value that rounds to it
    ("p = .05" may be 0.046; "p > .05" and "p = .21" are not below alpha)."""
    from benchaudit.stats.significance import decimals

    value = float(p["value"])
    if p["op"] != "=":
        return value >= alpha
    return bool(value - 0.5 * 10 ** -decimals(p["value"]) >= alpha)


def _two_scores(
    rule: Rule, c: Claim, a: str, b: str, n: int, alpha: float
) -> Iterable[Finding]:
    x, y = points(a, b), points(b, a)
    if c.fields.get("pair") == "from-to":
        x, y = y, x  # "from 70 to 73": the new score is the second
    if not (0 <= x <= 100 and 0 <= y <= 100) or x == y:
        return
    if c.fields.get("pair") == "two-values" and c.fields.get("direction") == "better" and x < y:
        x, y = y, x  # "compared with B (53.6%), A reaches 55.1%": the claimed winner is the higher
    u = unpaired(x, y, n, 1 - alpha)
    if u["lo"] > 0 or u["hi"] < 0:
        return
    where = f"the same {c.n} questions" if c.fields.get("same_items") else f"{c.n} items"
    src = "" if c.n_source == "sentence" else f" (n = {c.n} from the {c.n_source})"
    conf = c.confidence
    if c.n_source not in ("sentence", "registry"):
        conf = min(conf, Confidence.MEDIUM)
    yield emit(
        rule,
        c,
        f"{num(x)}% vs {num(y)}% is {signed(u['diff'])} points; the unpaired {level(alpha)} interval "
        f"{interval(u['lo'], u['hi'], sign=True)} contains 0 (unpaired bound; pairing not "
        f"assumed){src}",
        suggestion=f"{num(x)}% vs {num(y)}% on {where}: {signed(u['diff'])} points; the unpaired "
        f"{level(alpha)} interval is {interval(u['lo'], u['hi'], sign=True)} and a paired analysis needs the "
        f"per-item results.",
        evidence={**u, "a": x, "b": y, "n_source": c.n_source, "bound": "unpaired"},
        confidence=conf,
    )


#: Units after a number that make it no score: "45.1 ms", "81 tokens/s", "3.2 GB".
_NOT_A_SCORE_UNIT = re.compile(
    r"\s*(?:ms|s|sec\w*|min\w*|hours?|tokens?|tok/s|[KMGT]B|[kKMB]\b|x\b|×|\$|fps|°|Elo)", re.I
)


#: What says the two numbers are scores on test items: a score word, a test set, a benchmark.
_ITEM_SCORE_WORDS = re.compile(
    r"\b(?:accuracy|acc\.?|scor(?:e[ds]?|ing)|pass@\d+|pass rate|solve rate|success rate|exact[- ]match|"
    r"benchmark|test set|leaderboard)\b|\bon\s+(?:the\s+)?[A-Z][\w.-]*(?:Bench|QA|Eval|Math|Code)",
    re.I,
)
#: Ratios of scores and system measures: no share of items ("the highest retention at 97.2%").
_NOT_ITEM_SHARE = re.compile(
    r"\b(?:retention|retain\w*|ratio|relative|speed-?ups?|sparsity|compression|utili[sz]ation|throughput|"
    r"latency|memory|cost|recover\w*)\b",
    re.I,
)


def _tiny_prose_lead(rule: Rule, c: Claim, a: str, b: str, alpha: float) -> Iterable[Finding]:
    """A lead of two scores on a test set of unstated size, so small that only a test set larger
    than any common benchmark could separate them ("Intern-S1 (83.4) beats Grok-4 (83.3)"): as
    shares of items scored 0/1, the same bar the score tables use."""
    x, y = points(a, b), points(b, a)
    if not (10 < x < 100 and 10 < y < 100) or x == y or c.fields.get("pair") == "value-delta":
        return  # a lead stated as a difference may be relative; a bare value below 10 a rating
    if any(_NOT_A_SCORE_UNIT.match(c.text, m.end()) for v in (a, b) for m in re.finditer(re.escape(v), c.text)):
        return
    if not _ITEM_SCORE_WORDS.search(c.text) or _NOT_ITEM_SHARE.search(c.text):
        return  # not said to be scores on test items
    needed = items_to_separate(x, y, 1 - alpha)
    if needed < ASSUMED_MAX_ITEMS:
        return
    (hi, hi_text), (lo, lo_text) = sorted(((x, a), (y, b)), reverse=True)
    places = max(len(t.partition(".")[2]) for t in (a, b))
    yield emit(
        rule,
        c,
        f"{hi_text} vs {lo_text} is a lead of {hi - lo:.{places}f} points on a test set of unstated "
        f"size; read as shares of items scored 0/1, the unpaired {level(alpha)} interval of the "
        f"difference excludes 0 only from about {needed:,} items, more than common benchmarks have",
        suggestion=f"Say the two scores ({hi_text} and {lo_text}) are tied within noise, or give the "
        "item count and a paired test on per-item results.",
        evidence={"a": hi, "b": lo, "items_needed": needed, "bound": "unpaired"},
        confidence=min(c.confidence, Confidence.MEDIUM),
    )


def _two_intervals(rule: Rule, c: Claim, ivs: list[dict[str, str]]) -> Iterable[Finding]:
    (m1, h1), (m2, h2) = mean_halfwidth(ivs[0]), mean_halfwidth(ivs[1])
    d, h = m1 - m2, (h1 * h1 + h2 * h2) ** 0.5
    if abs(d) > h or h == 0:
        return
    yield emit(
        rule,
        c,
        f"the stated intervals give a difference of {signed(d)} ± {num(h)} points, which "
        f"contains 0 (unpaired bound from the two intervals)",
        suggestion=f"The difference is {signed(d)} points (95% interval {interval(d - h, d + h, sign=True)}"
        f", unpaired); the data do not show one model is better.",
        evidence={"diff": d, "halfwidth": h, "bound": "unpaired"},
        confidence=min(c.confidence, Confidence.MEDIUM),
    )


#: "in these benchmarks", "on both datasets": the benchmarks of an earlier sentence.
_THESE = re.compile(
    r"\b(?:these|those|both|the\s+(?:above|two|three|four|same))\s+(?:[\w-]+\s+){0,2}?"
    r"(?:benchmarks?|datasets?|tasks|evaluations|test\s*sets)\b",
    re.I,
)


_COUNT_WORDS = {"both": 2, "two": 2, "three": 3, "four": 4}


def _table_rows(rule: Rule, c: Claim, ctx: Context) -> Iterable[Finding]:
    from benchaudit.rules._tables import pairwise_rows

    only: set[str] | None = None
    these = _THESE.search(c.text)
    if these and not benchmark_keys(c.text, ctx.benchmarks):
        # "in these benchmarks": those an earlier sentence of the paragraph names; when it
        # names none, the table's when their number is the one said ("both benchmarks" of a
        # two-benchmark table), else benchmarks this check cannot tell.
        only = benchmark_keys(c.fields.get("before", ""), ctx.benchmarks) or None
    rows = list(pairwise_rows(c.fields["tables"], ctx, c.text, only))
    if these and only is None and not benchmark_keys(c.text, ctx.benchmarks):
        words = these.group(0).lower().split()
        count = _COUNT_WORDS.get(words[1] if words[0] == "the" else words[0])
        if count is None or len({r["benchmark"] for r in rows}) != count:
            return
    noisy = [r for r in rows if r["lo"] <= 0 <= r["hi"] and r["diff"] > 0]
    behind = [r for r in rows if r["diff"] <= 0]
    if not rows or not (noisy or behind):
        return
    pct = level(ctx.alpha)

    def part(r: dict[str, Any]) -> str:
        return (
            f"{r['benchmark']} {num(r['a'])} vs {num(r['b'])} ({signed(r['diff'])}; {interval(r['lo'], r['hi'], sign=True)}"
            f", n = {r['n']})"
        )

    said = []
    if behind:
        said.append(f"{len(behind)} of {len(rows)} are not gains at all: {'; '.join(map(part, behind))}")
    if noisy:
        said.append(
            f"{len(noisy)} of {len(rows)} gains have a {pct} interval containing 0: "
            f"{'; '.join(map(part, noisy))}"
        )
    clear = len(rows) - len(noisy) - len(behind)
    weak = [r["benchmark"] for r in [*behind, *noisy]]
    yield emit(
        rule,
        c,
        "checked benchmark by benchmark with n from the registry (unpaired bound, model minus "
        f"comparator): {'; '.join(said)}",
        suggestion=f"Improves on {clear} of {len(rows)} benchmarks beyond "
        f"sampling noise (unpaired {pct} intervals); on "
        f"{', '.join(weak)} it does not.",
        evidence={"rows": rows, "bound": "unpaired"},
        confidence=Confidence.MEDIUM,
    )
