"""BA101 unreachable-score: a score no whole number of correct items can produce."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from benchaudit.rules import _scores as S
from benchaudit.rules._wording import severity_for

from benchaudit.finding import Finding, Severity
from benchaudit.inputs.premises import PROTOCOL_UNSTATED, Certainty, capped, premises_of
from benchaudit.rulebase import Note, Output, Rule
from benchaudit.stats import granularity as G

#: What a finding says when one pass is inferred from the rest of the column.
ONE_PASS_COLUMN = (
    "the sampling protocol is not stated; the other cells of the column are k/n for one pass, "
    "which chance would hardly give"
)

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Claim, Source


class UnreachableScore(Rule):
    """A reported score that k correct out of n items cannot round to, for any whole k.

    **What.** A score averaged over ``n`` items (and ``s`` samples per item) is
    ``k / (n·s)``. The rule finds the whole numbers ``k`` whose score rounds to
    the reported value at its stated precision (either rounding direction at a
    tie) and flags the value when there is none. ``n`` comes from the text
    ("on 500 questions", "(164 problems)", "n = 500", a table header
    "HumanEval (164)"), else from the benchmark registry or ``--n``; ``s`` from
    "averaged over 64 samples", "avg@64", "mean of 8 runs". The finding gives
    the nearest reachable values and the smallest number of samples per item
    that would make the value reachable.

    **Why.** An impossible number means arithmetic the reader has not been
    shown: a different subset, a different item count, a mistyped digit, or an
    average over samples that the text does not mention. 87.3% on HumanEval
    (164 problems) is not possible: 143/164 = 87.2% and 144/164 = 87.8%.

    Severity: an error when the text states the protocol (a single pass, or an
    average over a stated number of samples that still cannot give the value);
    a warning when the protocol is unstated (an average over unstated samples
    could explain it) or is a majority vote (``maj@64``, ``cons@64``: one
    answer per item, unless several votes were averaged); info when the parse
    is unsure. A cell marked as taken from another report ("66.30*") is info
    unless its row is the document's own: the protocol in the column's header
    need not be that report's. A value that only cutting (not rounding) makes
    k/n is info, unless the cells around it (its table; for prose, the
    document's prose scores) show the writer rounds.

    Bad::

        Our model solves 87.3% of HumanEval with a single greedy pass.

    Better::

        Our model solves 87.2% of HumanEval (143/164) with a single greedy pass.

    **Assumptions.** Each item scores 0 or 1 and counts once; F1, BLEU, win
    rates, macro averages and pass@k for k > 1 are not checked. The check has
    no power when ``n·s ≥ 10^d`` (``d`` decimals of the score as a
    proportion): then every value is reachable, and the report says how many
    scores that applied to rather than passing them silently.
    """

    code = "BA101"
    name = "unreachable-score"
    severity = Severity.ERROR
    reads = ("document",)

    def on_run(self, sources: list[Source], ctx: Context) -> Iterable[Output]:
        no_power: list[Claim] = []
        no_n = 0
        for source in sources:
            if source.kind not in self.reads:
                continue
            found: list[tuple[Claim, Finding]] = []
            columns: dict[tuple[object, str], list[Claim]] = defaultdict(list)
            checked: list[Claim] = []
            for claim in S.scores(source):
                if not S.on_grid(claim):
                    continue
                if not claim.n:
                    no_n += 1
                    continue
                if not G.can_detect(S.written(claim), claim.n, claim.samples or 1, S.scale(claim)):
                    no_power.append(claim)
                    continue
                if claim.fields.get("table"):
                    columns[_column(claim)].append(claim)
                checked.append(claim)
            single = {key for key, cells in columns.items() if _column_is_one_pass(cells)}
            rounded = _rounding_shown(checked)
            for claim in checked:
                one_pass = _column(claim) in single if claim.fields.get("table") else False
                where = claim.fields.get("table_line") if claim.fields.get("table") else None
                finding = self._check(claim, claim.samples or 1, ctx, one_pass, where in rounded)
                if finding is not None:
                    found.append((claim, finding))
            yield from self._by_table(found, columns, source.path, _speaks_of_sampling(source))
        if no_power:
            c = no_power[0]
            yield Note(
                f"{self.name}: {len(no_power)} score(s) could not be checked because n × samples "
                f"≥ 10^decimals, so every value at that precision is reachable (e.g. "
                f"{S.as_written(c, S.written(c))} {S.on_what(c)})"
            )
        if no_n:
            yield Note(
                f"{self.name}: {no_n} score(s) had no known item count (state n, name a "
                "benchmark in the registry, or pass --n NAME=N)"
            )

    # ------------------------------------------------------------ tables

    def _by_table(
        self,
        found: list[tuple[Claim, Finding]],
        columns: dict[tuple[object, str], list[Claim]],
        path: str,
        sampling_said: bool = True,
    ) -> Iterator[Finding]:
        """Column checks and one finding per table where the cause is shared."""
        flagged = {id(c) for c, _ in found}
        downgraded: dict[int, tuple[Severity, str]] = {}
        for (_, label), cells in columns.items():
            bad = [c for c in cells if id(c) in flagged]
            if len(cells) >= 3 and len(bad) * 2 > len(cells):
                # Most of the column does not fit one pass over n items: the column was averaged
                # over samples or run on another split, not mistyped. Where another count fits
                # every cell, the split is the likely cause: information. Where none does, the
                # column is averaged over samples the document does not state, which a reader
                # cannot know: still a warning (never an error, the cause is not a typo).
                fits = G.fitting_n([S.written(c) for c in cells], S.scale(cells[0]), cells[0].n)
                if fits is not None and not _telling_fit(fits, cells) and not sampling_said:
                    # Every count fits a column written this coarsely: no split is named by it,
                    # and a document that nowhere speaks of sampling states no averaging.
                    fits = None
                counted = f"{len(bad)} of {len(cells)} cells of the column '{label}' are not k/{S.count(S.items(cells[0]))} for one pass"
                if fits:
                    # A count that fits is no named split (AIME has none but its 30 problems): either
                    # reading may hold, and the message says both.
                    why = (
                        f"{counted}, so the column is probably measured on another split or averaged "
                        f"over several samples (n = {S.count(fits)} fits every cell)"
                    )
                    severity = Severity.INFO
                else:
                    why = f"{counted}, so the column is probably averaged over samples the document does not state"
                    severity = Severity.WARNING
                for c in bad:
                    downgraded[id(c)] = (severity, why)
        groups: dict[tuple[object, Severity], list[tuple[Claim, Finding]]] = defaultdict(list)
        singles: list[Finding] = []
        for claim, finding in found:
            if id(claim) in downgraded:
                severity, why = downgraded[id(claim)]
                if finding.severity is not Severity.INFO:
                    finding.severity = severity
                finding.message += f"; {why}"
            if claim.fields.get("table") and finding.severity is not Severity.ERROR:
                groups[(claim.fields.get("table_line"), finding.severity)].append((claim, finding))
            else:
                singles.append(finding)
        yield from singles
        for (line, severity), members in groups.items():
            if len(members) < 3:
                yield from (f for _, f in members)
                continue
            first = members[0][1]
            listed = "; ".join(f"{c.model or '?'} | {c.fields.get('column_label')}: {S.as_written(c, S.written(c))}" for c, _ in members[:12])
            more = f" and {len(members) - 12} more" if len(members) > 12 else ""
            reasons = sorted({str(f.evidence.get("uncertain", "")) for _, f in members} - {""})
            message = (
                f"{len(members)} cells of the table at line {line} are not k/n for one pass over "
                f"their benchmark's items: {listed}{more}"
            )
            if reasons:
                message += f" ({'; '.join(reasons)})"
            yield self.finding(
                first.location,
                message,
                claim=f"table at line {line}",
                suggestion=(
                    "State the sampling protocol of the table (e.g. 'pass@1 averaged over k samples "
                    "per problem') and the split of each benchmark, or correct the cells"
                ),
                evidence={
                    # Each cell with its claim, message and line, so that a reader (or a
                    # verdict) can take the table's finding cell by cell.
                    "cells": [
                        {**f.evidence, "claim": f.claim, "text": f.message, "line": f.location.line}
                        for _, f in members
                    ],
                    "lines": sorted({f.location.line for _, f in members if f.location.line is not None}),
                },
                severity=severity,
                confidence=first.confidence,
            )

    # ------------------------------------------------------------ one score

    def _check(
        self, claim: Claim, samples: int, ctx: Context, one_pass: bool = False, rounds: bool = False
    ) -> Finding | None:
        value, n, sc = S.written(claim), S.items(claim), S.scale(claim)
        if G.is_reachable(value, n, samples, sc):
            return self._check_stated_k(claim, samples)
        if samples == 1 and claim.fields.get("k") is not None and claim.n_source == "text":
            # "33% (13/26)": the count written beside the score is its protocol, one pass.
            return self._check_stated_k(claim, samples)
        if claim.plus_minus and claim.fields.get("pm_kind") == "sd":
            return None  # "29.7 ± 0.5" with ± a spread over runs: the mean of several runs
        premises = premises_of(claim, getattr(ctx, "benchmarks", None))
        marked = _marked(claim)
        if (
            one_pass
            and not marked  # a marked cell ("72.5*": from another report) has its own protocol
            and premises.protocol is Certainty.UNKNOWN
            and premises.own is not Certainty.UNKNOWN
        ):
            # The table states no protocol, but the rest of its column fits one pass over n so
            # closely that chance cannot explain it: one pass is inferred, not unknown.
            premises = replace(
                premises,
                protocol=Certainty.INFERRED,
                reasons=tuple(
                    ONE_PASS_COLUMN if r == PROTOCOL_UNSTATED else r for r in premises.reasons
                ),
            )
        below, above = G.nearest(value, n, samples, sc)
        smin = G.min_samples(value, n, sc)
        total = f"{S.count(n)}" if samples == 1 else f"({S.count(n)} × {samples})"
        options = [
            f"{S.as_written(claim, nb.text)} ({S.count(nb.k)}/{S.count(nb.total)})"
            for nb in (below, above)
            if nb is not None
        ]
        stated = str(claim.fields.get("protocol_text", ""))
        vote = claim.protocol == "single" and any(
            w in stated.lower() for w in ("maj", "cons", "vot")
        )
        if claim.protocol == "single" or (claim.protocol == "averaged" and claim.samples):
            severity = Severity.ERROR
            if vote:
                # A vote gives one answer per item, but several votes may have been
                # averaged without saying so: not as certain as a stated single pass.
                severity = Severity.WARNING
                how = f"with one voted answer per item ({stated})"
            elif claim.protocol == "single" and claim.fields.get("protocol_scope") == "document":
                how = (
                    f"as a single pass ({claim.fields.get('protocol_text')}, stated for the "
                    f"evaluation at {claim.fields.get('protocol_where')}, if it covers this score)"
                )
            elif claim.protocol == "single" and claim.fields.get("protocol_scope") == "named":
                how = (
                    f"as a single pass ({claim.fields.get('protocol_text')}, stated for this benchmark "
                    f"by name at {claim.fields.get('protocol_where')}, in the same section)"
                )
            elif claim.protocol == "single":
                how = "as a single pass"
            else:
                how = f"averaged over {samples} samples"
        else:
            severity = Severity.WARNING
            how = "if each item was scored once (the protocol is not stated)"
        severity = capped(severity, premises.cap())
        # "76.6" for 23/30 = 76.67 may be cut rather than rounded, unless the cells around it
        # (the same table; for prose, the document's prose scores) are written rounded.
        truncated = claim.protocol is None and not rounds and _truncation_fits(value, n, samples, sc)
        if truncated:
            severity = Severity.INFO  # "76.6" for 23/30 = 76.67: cut, not rounded, is possible
        possible = [int(k) for k in claim.fields.get("possible_samples", [])]
        message = (
            f"{S.as_written(claim, value)} {S.on_what(claim)} is not k/{total} for any whole k "
            f"{how}: the nearest reachable values are {' and '.join(options)}"
        )
        # A vote stated in the column's own header is certain; one read from the sentence may be
        # about something else when the document averages over samples.
        vote_unsure = vote and claim.fields.get("protocol_scope") != "column"
        if vote_unsure and claim.fields.get("repeated_unstated") and not possible:
            severity = Severity.INFO
            message += "; the document says results were averaged over sampled responses elsewhere"
        if vote_unsure and possible and any(G.is_reachable(value, n, k, sc) for k in possible):
            # The document averages over samples elsewhere; "one voted answer" may be a misread
            # column header, and the value fits the average: say so, do not accuse.
            severity = Severity.INFO
            message += "; it is reachable under the averaging over samples the document states elsewhere"
        if claim.protocol is None and possible:
            fitting = [k for k in possible if G.is_reachable(value, n, k, sc)]
            where = claim.fields.get("possible_where") or "elsewhere"
            if fitting:
                # The reading under which the score is possible: say so, do not accuse.
                severity = Severity.INFO
                message += (
                    f"; it is reachable averaged over {fitting[0]} samples per item, as the "
                    f"document states at {where} (if that statement covers this score)"
                )
            else:
                message += f"; nor averaged over {', '.join(map(str, possible))} samples as stated at {where}"
        elif claim.protocol is None and claim.fields.get("repeated_unstated"):
            severity = Severity.INFO
            message += "; the document says results were repeated, without saying how many times"
        if claim.plus_minus and not claim.fields.get("pm_kind") and claim.protocol is None:
            severity = Severity.INFO
            message += "; it is given with an unlabelled ±, usually a spread over several runs"
        if truncated:
            message += "; it is k/n cut (not rounded) to its last digit, as some reports write scores"
        other = _other_split(claim, ctx, value, sc, samples)
        if other is not None:
            severity = Severity.INFO
            # A split key is one word ("dev"); a longer key names another problem set.
            where = f"the {other[0]} split" if " " not in other[0] else other[0]
            message += f"; it is reachable on {where} ({S.count(other[1])} items)"
        if marked and premises.own is not Certainty.CERTAIN and severity is not Severity.INFO:
            # "66.30*" under "AIME24 (avg@10)": the mark sends the reader to another report,
            # whose protocol the column's header need not describe.
            severity = Severity.INFO
            message += "; the cell is marked (taken from another report, whose protocol may differ)"
        if premises.reasons and severity is not Severity.ERROR:
            message += f" ({premises.why()})"
        fix = f"Report {' or '.join(options)} {S.on_what(claim)}"
        if smin is not None and smin > 1 and claim.protocol != "single":
            fix += (
                f", or state the number of samples averaged per item "
                f"({S.as_written(claim, value)} needs at least {smin} samples per item)"
            )
        elif vote:
            fix += ", or state how many independent votes were averaged"
        elif claim.n_source == "registry":
            fix += ", or state the number of items if you used a different split"
        evidence = {
            "value": value,
            "n": n,
            "n_source": claim.n_source,
            "samples": samples,
            "protocol": claim.protocol,
            "decimals": G.decimals(value),
            "nearest_below": below.text if below else None,
            "k_below": below.k if below else None,
            "nearest_above": above.text if above else None,
            "k_above": above.k if above else None,
            "min_samples": smin,
            "uncertain": premises.why(),
        }
        return self.finding(
            claim.location,
            message,
            claim=claim,
            suggestion=fix,
            evidence=evidence,
            severity=severity_for(claim.confidence, severity),
            confidence=claim.confidence,
        )

    def _check_stated_k(self, claim: Claim, samples: int) -> Finding | None:
        """A score next to its own count ("87.8% (143/164)") that the count does not give."""
        k = claim.fields.get("k")
        value, n = S.written(claim), S.items(claim)
        if k is None or samples != 1 or k in G.counts(value, n, 1, S.scale(claim)):
            return None
        places = G.decimals(value)
        right = G.format_at(k, n, places, S.scale(claim))
        return self.finding(
            claim.location,
            f"{S.as_written(claim, value)} does not match its own count: "
            f"{k}/{S.count(n)} = {S.as_written(claim, right)}",
            claim=claim,
            suggestion=f"Report {S.as_written(claim, right)} ({k}/{S.count(n)})",
            evidence={"value": claim.value, "n": claim.n, "k": k, "k_gives": right},
            severity=severity_for(claim.confidence, Severity.ERROR),
            confidence=claim.confidence,
        )


def _column(claim: Claim) -> tuple[object, str]:
    return (claim.fields.get("table_line"), str(claim.fields.get("column_label")))


#: The chance that every on-grid cell of a column fits one pass by luck, below which the column
#: is taken for single-pass scores.
CHANCE = 0.01


def _column_is_one_pass(cells: list[Claim]) -> bool:
    """At least four cells, at most a quarter of them off the one-pass grid, and the rest on
    it against odds of 1 in 100: each fitting cell had a chance of about (n·s + 1) / (number
    of printable values) to fit at its precision by luck."""
    # A marked cell ("74.90*", "sourced from other public reports") carries another report's
    # protocol: it says nothing about how this table's own cells were measured.
    cells = [c for c in cells if not _marked(c)]
    if len(cells) < 4:
        return False
    chance, off = 1.0, 0
    for c in cells:
        value, n, sc = S.written(c), S.items(c), S.scale(c)
        if G.is_reachable(value, n, c.samples or 1, sc):
            printable = 10 ** G.proportion_decimals(value, sc) + 1
            chance *= min(1.0, (n * (c.samples or 1) + 1) / printable)
        else:
            off += 1
    return 0 < off and 4 * off <= len(cells) and chance < CHANCE


def _marked(claim: Claim) -> bool:
    """Whether the cell carries a marker symbol after its value ("72.5*", "61.0†")."""
    return re.search(r":\s*[-\d.]+\s*%?\s*[*†‡§¶#]", claim.text) is not None


def _rounding_shown(claims: list[Claim]) -> set[object]:
    """The tables (by their line; None for prose) where some score is k/n rounded and could
    not be k/n cut to its decimals: there the writer rounds, and a value that only cutting
    explains is not put down to cutting. A table with more cells that only cutting explains
    than cells that only rounding does is taken to cut."""
    only_rounded: dict[object, int] = defaultdict(int)
    only_cut: dict[object, int] = defaultdict(int)
    for c in claims:
        value, n, sc, s = S.written(c), S.items(c), S.scale(c), c.samples or 1
        where = c.fields.get("table_line") if c.fields.get("table") else None
        reached, cut = G.is_reachable(value, n, s, sc), _truncation_fits(value, n, s, sc)
        if reached and not cut:
            only_rounded[where] += 1
        elif cut and not reached:
            only_cut[where] += 1
    return {w for w, k in only_rounded.items() if k > only_cut.get(w, 0)}


def _truncation_fits(value: str, n: int, samples: int, scale: int) -> bool:
    """Whether some k/(n·samples) gives ``value`` when cut to its decimals instead of rounded."""
    from fractions import Fraction
    from math import ceil

    total = n * samples
    unit = Fraction(1, 10 ** G.decimals(value))
    lo, hi = G.exact(value) / scale, (G.exact(value) + unit) / scale
    k = ceil(lo * total)
    return k <= total and Fraction(k, total) < hi


def _other_split(claim: Claim, ctx: Context, value: str, scale: int, samples: int) -> tuple[str, int] | None:
    """Another split (or version) of the claim's benchmark on which the value is reachable."""
    registry = getattr(ctx, "benchmarks", None)
    bench = registry.get(claim.benchmark) if registry and claim.benchmark else None
    if bench is None or claim.n_source != "registry":
        return None
    unreported = getattr(bench, "other_splits", None) or {}
    splits = {**(getattr(bench, "splits", None) or {}), **unreported}
    printable = 10 ** G.proportion_decimals(value, scale) + 1
    for name, n in sorted(splits.items(), key=lambda kv: str(kv[0])):
        if name in unreported and str(name).lower().startswith("train") and (int(n) * samples + 1) / printable >= 0.5:
            # A training split (GSM8K's 7,473 problems), which no score is reported on, where most
            # values at this precision are reachable: the fit explains nothing. Other unreported
            # sets (MBPP's full 974, AMC's 83) may be what a report ran on, and keep their say.
            continue
        if n and n != claim.n and G.is_reachable(value, int(n), samples, scale):
            return str(name), int(n)
    return None


def _telling_fit(n: int, cells: list[Claim]) -> bool:
    """Whether a count at which every cell is k/n says something. At d decimals a value is
    reachable on n items with chance about n/(scale·10^d), and every value is from n =
    scale·10^d on; a fit found by trying every count up to n is telling only when chance
    would give one for under 5% of columns (the expected number of chance fits up to n)."""
    digits = max(len(S.written(c).partition(".")[2]) for c in cells)
    vacuous = S.scale(cells[0]) * 10**digits
    usable = len(cells)
    chance: float = sum(min(1.0, m / vacuous) ** usable for m in range(10, n + 1))
    return chance < 0.05


#: A number of samples, runs or votes, or a sampling temperature above zero, stated anywhere in
#: a document ("we sample 32 times", "avg@8", "over 5 runs", "temperature=1.0"): the document
#: samples, and may say how often where no score is linked to it.
_SAMPLING_SAID = re.compile(
    r"\bsampl\w*\s+(?:\w+\s+){0,3}?\d+\b|\b\d+\s+(?:runs|times|samples|seeds|trials|generations|responses)\b"
    r"|\b(?:avg|mean|maj|cons)@\d|\btemperature\W{0,3}(?:of\s+)?(?:0?\.\d*[1-9]|1(?:\.0*)?)\b",
    re.I,
)


def _speaks_of_sampling(source: Source) -> bool:
    from benchaudit.claims.access import full_text

    return bool(_SAMPLING_SAID.search(full_text(source) or ""))
