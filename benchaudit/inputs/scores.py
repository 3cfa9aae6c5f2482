"""Score claims in a sentence: "87.3% on HumanEval", "MATH-500: 96.3 (pass@1)",
"94.2% ± 0.1 on 1,000 items", and changes stated as a percentage
("improves from 70% to 75%, a 5% gain").

For every score the extractor decides which benchmark it is on (the name
right after or before it; "respectively"; the only name in its clause or
sentence; a name the registry does not know), the item count (stated in the
text, else the registry), the sampling protocol (its clause, its sentence, a
statement elsewhere in the paragraph or earlier in the document), an interval
or ``±`` right after it, and how sure the parse is.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from benchaudit.evidence import Claim
from benchaudit.finding import Confidence
from benchaudit.inputs import numbers as nums
from benchaudit.inputs.numbers import Number
from benchaudit.inputs.protocols import PASS_K, Protocol, protocols_in
from benchaudit.inputs.sentences import Mention, Sentence, find_benchmarks, mask

if TYPE_CHECKING:
    from benchaudit.benchmarks import Registry
    from benchaudit.engine import Context

# ---------------------------------------------------------------- score claims

_NUM = r"\d+(?:\.\d+)?"
_SEP = r"\s*(?:–|—|-|to|,)\s*"
_PM = re.compile(rf"\s*%?\s*\(?\s*(?:±|\+/-|\+-|\+/−)\s*({_NUM})\s*(%|pp|points?)?\s*\)?")
_LEVEL = r"(?:(?P<level>\d{2}(?:\.\d+)?)\s*%\s*)?"
_INTERVAL = re.compile(
    rf"\s*%?\s*[\[(,;]?\s*(?:with\s+(?:an?\s+|the\s+)?)?{_LEVEL}"
    rf"(?:(?:CI|C\.I\.|conf(?:idence)?\.?\s+int(?:erval)?\.?|confidence interval|interval)\s*"
    rf"(?:of\s+|is\s+|=\s*|:\s*)?)?"
    rf"[\[(]?\s*(?P<lo>[-−]?{_NUM})\s*%?{_SEP}(?P<hi>[-−]?{_NUM})\s*%?\s*[\])]?",
    re.I,
)
_LABELLED = re.compile(r"\d{2}(?:\.\d+)?\s*%\s*(?:CI|C\.I\.|conf|interval)|\bCI\b|interval", re.I)
_SE_WORDS = re.compile(r"\b(?:1\s*)?(?:SE|S\.E\.|SEM|standard errors?|std\.? err(?:or)?)\b", re.I)
_SD_WORDS = re.compile(
    r"\b(?:SD|S\.D\.|std|stdev|standard deviations?|across\s+\d+\s+(?:seeds|runs)"
    r"|over\s+\d+\s+(?:seeds|runs))\b",
    re.I,
)
_LEVEL_WORDS = re.compile(
    r"\b(\d{2}(?:\.\d+)?)\s*%\s*(?:CI|C\.I\.|confidence|credible|interval)", re.I
)

_SCORE_WORDS = re.compile(
    r"accura|\bscor|\bpass@|\bsolv|\bachiev|\breach|\bobtain|\battain|\bcorrect|success rate"
    r"|exact match|\bEM\b|resolve|\bgets?\b|\bperformance\b|\bresults?\b|\banswer|\bright\b",
    re.I,
)
NOT_GRID = re.compile(
    # "Perplexity" capitalised mid-sentence is the product ("followed by Perplexity (78.9%)").
    r"\bF1\b|\bBLEU|\bROUGE|\bMETEOR|chrF|(?-i:\bperplexity|\bPPL\b|^Perplexity|\bPerplexity\s+(?:of|on|is|was|=))"
    r"|\bElo\b|win[ -]rate|length[- ]controlled"
    r"|normali[sz]ed|macro|weighted|pass@(?:[2-9]|\d\d+)|\bAUC|correlation|\bkappa",
    re.I,
)


_T = TypeVar("_T")


def _nearest(items: list[_T], pos: int, key: Callable[[_T], int]) -> _T | None:
    return min(items, key=lambda x: abs(key(x) - pos)) if items else None


@dataclass
class _Interval:
    """An interval written after a score, and where its text ends."""

    end: int
    lo: str | None = None
    hi: str | None = None
    pm: str | None = None
    level: float | None = None


def _interval_after(text: str, pos: int) -> _Interval | None:
    """A ``± h`` or ``[lo, hi]`` / ``(95% CI lo–hi)`` right after a score."""
    # "87.2% of HumanEval (95% CI ...)": the interval may follow the benchmark name
    # (masked as NUL characters in ``text``).
    skip = re.match(r"\s*%?\s*(?:on|of|in|for|at)\s+(?:the\s+)?\x00+", text[pos : pos + 80]) or re.match(
        # or an item count: "99.0% of the 100 red-team prompts (95% CI ...)"
        r"\s*%?\s*(?:on|of|in|for|at|across|over)\s+(?:the\s+|our\s+|all\s+)?\d[\d,]*\s+(?:[\w-]+\s+){0,2}?"
        rf"(?:{nums.ITEM_NOUNS})\b",
        text[pos : pos + 80],
    )
    if skip:
        pos += skip.end()
    window = text[pos : pos + 80]
    m = _PM.match(window)
    if m:
        return _Interval(pos + m.end(), pm=m.group(1))
    m = _INTERVAL.match(window)
    if m and re.search(r"\d,\d{3}(?!\d)", m.group(0)) and not re.search(r"\d,\s", m.group(0)):
        return None  # "(1,172 questions)": a thousands separator, not the comma of an interval
    if m and (m.group(0).lstrip(" %")[:1] in "[(," or _LABELLED.search(m.group(0))):
        # A bare "70, 75" list is not an interval: require brackets or a label.
        bare = m.group(0).lstrip(" %")
        if bare[:1] == "," and not _LABELLED.search(m.group(0)):
            return None
        level = float(m.group("level")) / 100 if m.group("level") else None
        # A typeset minus ("−0.4") is the same sign as the ASCII one.
        lo, hi = (m.group(g).replace("−", "-") for g in ("lo", "hi"))
        return _Interval(pos + m.end(), lo=lo, hi=hi, level=level)
    return None


def _holds(interval: _Interval, num: Number) -> bool:
    """Whether ``[lo, hi]`` holds the score it follows (a citation's numbers usually do not)."""
    try:
        lo, hi = float(interval.lo or "nan"), float(interval.hi or "nan")
    except ValueError:
        return False
    return lo <= hi and lo - 1e-9 <= num.value <= hi + 1e-9


_UNKNOWN_AFTER = re.compile(
    r"\s*%?\s*(?:\([^()]*\)\s*)?(?:on|in|for)\s+(?:the\s+)?([A-Z][\w\-+.]*[A-Z0-9][\w\-+.]*)"
)
_UNKNOWN_BEFORE = re.compile(r"(?:^|[\s(,;])([A-Z][\w\-+.]*[A-Z0-9][\w\-+.]*)\s*(?:is|:|=|of)\s*$")


def _unknown_target(masked: str, start: int, end: int) -> bool:
    """A score written next to a benchmark-like name the registry does not know, or a share
    of a set it names itself ("78.1% of formalized past IMO problems")."""
    return bool(
        _UNKNOWN_AFTER.match(masked, end)
        or _UNKNOWN_BEFORE.search(masked[max(0, start - 40) : start])
        or _SHARE_OF.match(masked, end)
    )


#: "x% of (the) <a few words> problems": the score's own population, not a benchmark named
#: in another clause of the sentence (a masked benchmark name is NUL characters, not words).
_SHARE_OF = re.compile(
    rf"\s*%?\s*of\s+(?:the\s+|all\s+)?(?:[A-Za-z][\w-]*\s+){{1,4}}(?:{nums.ITEM_NOUNS})\b"
)


_BETWEEN = re.compile(r"\bbetween\s+(?:\d+(?:\.\d+)?\s*%?\s+and\s+)?$", re.I)


def _in_range(masked: str, num: Number) -> bool:
    """A bound of a range ("81.2–91.5%", "60%–70%", "between 60% and 70%"), not a score."""
    head = masked[: num.start]
    if re.search(r"\d\s*%?\s*[–—-]\s*$", head) or _BETWEEN.search(head[-40:]):
        return True
    return bool(re.match(r"\s*%?\s*[–—-]\s*\d", masked[num.end :]))


def _adjacent_after(text: str, end: int, mentions: list[Mention]) -> Mention | None:
    for mn in mentions:
        gap = text[end : mn.start]
        if mn.start >= end and re.fullmatch(
            r"[\s%)]*(?:\(?[^()]{0,40}\)\s*)?"
            r"(?:(?:accuracy|score|pass@\d+|exact[- ]match|EM|success rate|solve rate)\s+)?"
            r"(?:on|in|for|at|across)?\s*(?:the\s+)?(?:full\s+|official\s+)?",
            gap,
            re.I,
        ):
            return mn
    return None


def _adjacent_before(text: str, start: int, mentions: list[Mention]) -> Mention | None:
    for mn in reversed(mentions):
        gap = text[mn.end : start]
        if mn.end <= start and re.fullmatch(
            r"\s*(?:\([^()]{0,40}\))?\s*(?:[:=,]|\||\b(?:accuracy|score)\s+(?:is|was|of)\b|\bof\b|\bat\b|\bwith\b|\bis\b|\breaches\b|\bscores?\b"
            r"|\bscore of\b|\baccuracy of\b|\baccuracy\b|\bpass@1\b|\bpass@1 of\b|\b\(?[a-z]+@\d+\)?\s*(?:of|:)?)?"
            r"\s*(?:of\s+)?(?:a\s+score\s+of\s+|an\s+accuracy\s+of\s+)?(?:about\s+|~)?",
            gap,
            re.I,
        ):
            return mn
    return None


_SCORE_BEFORE = re.compile(
    r"(?:\bscores?|\baccuracy|\bpass@1|\bexact match|\bEM)\b"
    r"(?:\s*(?:of|:|=|is)|[^.;%]{0,30}?\b(?:is|was|of|reaches|reached|at)\s*)?\s*$",
    re.I,
)


_PM_WITH_LEVEL = re.compile(r"\s*±\s*\d+(?:\.\d+)?\s*\(\s*\d{2}(?:\.\d)?\s*%\s*(?:CI|confidence)\b")


def _is_plain_score(s: Sentence, num: Number, masked: str) -> str | None:
    """The unit of a bare number that reads as a score, or None."""
    if num.kind != "plain" or num.signed:
        return None
    v = num.value
    before = masked[max(0, num.start - 30) : num.start]
    if re.search(r"(?:\btop|\brank(?:ed)?|#|\bn\s*=|\bk\s*=|\d\s+(?:out\s+)?of)\s*$", before, re.I):
        return None
    if not (
        _adjacent_after(s.text, num.end, s.mentions)
        or _adjacent_before(s.text, num.start, s.mentions)
        or _SCORE_BEFORE.search(before)
        # "a HumanEval value of 88.2": the benchmark's name, then a noun for its number.
        or re.search(r"\x00\s*(?:value|result|number|figure)\s+(?:of|is|was|:)\s*$", before)
        # "On GSM8K ... we obtain 82.4 ± 0.3 (95% CI)": a ± with a stated level is a score's
        # interval when the sentence names one benchmark.
        or (len(s.mentions) == 1 and _PM_WITH_LEVEL.match(masked, num.end))
    ):
        return None
    if 0 < v <= 1 and not num.is_integer:
        return "proportion"
    if 1 < v <= 100:
        return "points"
    return None


def score_claims(s: Sentence, ctx: Context) -> list[Claim]:
    """Score claims in one sentence: "87.3% on HumanEval", "MATH-500: 96.3 (pass@1)"."""
    text = s.text
    masked = mask(text, s.mentions)
    consumed_until = -1
    found: list[tuple[Number, str, _Interval | None]] = []
    listed = _change_lists(masked, s.numbers)
    for num in s.numbers:
        if num.start < consumed_until or id(num) in listed:
            continue
        if _in_range(masked, num) or any(
            p.position <= num.start < p.position + len(p.metric) for p in s.protocols()
        ):
            continue  # a range bound, or the 64 of "avg of 64"
        if nums.bound_or_threshold(masked, num):
            continue
        if num.kind == "percent":
            if num.signed or nums.percent_role(masked, num) != "score" or not 0 <= num.value <= 100:
                continue
            unit = "percent"
        else:
            unit = _is_plain_score(s, num, masked) or ""
            if not unit:
                continue
        interval = _interval_after(masked, num.end)
        if (
            interval is not None
            and interval.lo is not None
            and not _holds(interval, num)
            and not _LABELLED.search(masked[num.end : interval.end])
        ):
            interval = None  # "[92, 78]" after a score is a citation, not its interval
        if interval is not None:
            consumed_until = interval.end
        found.append((num, unit, interval))
    if not found:
        return []
    benchmarks = {m.benchmark.name for m in s.mentions}
    has_score_words = bool(_SCORE_WORDS.search(text))
    respectively = "respectively" in text.lower() and len(found) == len(s.mentions)
    items = [n for n in s.numbers if n.kind == "items"]
    fractions = [n for n in s.numbers if n.kind == "fraction"]
    protocols = list(s.protocols())
    if PASS_K.search(text):
        # Next to pass@k, "n = 200" is the samples drawn per problem (Chen et al. 2021).
        for it in [it for it in items if it.noun == "n=" and it.digits.isdigit()]:
            items.remove(it)
            protocols.append(Protocol(it.start, "averaged", int(it.digits), f"n = {it.text}"))
    # A protocol stated in a sentence of its own ("All scores are averaged over 64
    # samples.") covers the paragraph; one stated next to another score does not.
    stating = s.block.stating_protocols() if s.block is not None else []
    block_protocols = [p for o in stating if o is not s for p in o.protocols()]
    if not block_protocols and s.block is not None and s.block.protocol_text:
        block_protocols = protocols_in(s.block.protocol_text)
    sentence_level = interval_kind(text)
    not_grid = bool(NOT_GRID.search(text))
    cuts = _clause_cuts(text)
    claims = []
    for idx, (num, unit, interval) in enumerate(found):
        end = interval.end if interval else num.end
        conf = Confidence.HIGH
        mention = _adjacent_after(text, end, s.mentions)
        if mention is None and not _UNKNOWN_AFTER.match(masked, end):
            mention = _adjacent_before(text, num.start, s.mentions)
        own = _own_set(masked, end, items)
        if own is not None:
            # "49.3% on our 500-question set": a set of its own, not a benchmark named nearby.
            mention, conf = None, Confidence.HIGH
        a, b = _clause(text, num.start, cuts)
        in_clause = {m.benchmark.name: m for m in s.mentions if a <= m.start < b}
        if respectively and own is None:
            # "x% and y% on A and B, respectively": order wins over adjacency.
            if mention is not s.mentions[idx]:
                mention, conf = s.mentions[idx], Confidence.MEDIUM
        elif mention is not None or own is not None:
            pass
        elif _unknown_target(masked, num.start, end):
            # "61.1% on BBH", "BBH is 61.1%": a benchmark the registry does not know.
            mention, conf = None, Confidence.MEDIUM
        elif len(in_clause) == 1 or len(benchmarks) == 1:
            mention = next(iter(in_clause.values())) if len(in_clause) == 1 else s.mentions[0]
            conf = Confidence.MEDIUM
        elif s.mentions:
            mention, conf = _nearest(s.mentions, num.start, lambda m: m.start), Confidence.LOW
        if mention is not None and len(found) > 1 and not respectively:
            # Two scores next to one benchmark name: which is the score is less sure.
            same = [
                f
                for f in found
                if f[0] is not num
                and (_adjacent_after(text, f[2].end if f[2] else f[0].end, s.mentions) is mention)
            ]
            if same and conf is Confidence.HIGH:
                conf = Confidence.MEDIUM
        if mention is None and not (has_score_words or interval or items or fractions):
            continue
        claim = Claim(
            kind="score",
            text=text,
            location=s.location_at(num.start),
            confidence=conf,
            value=num.text,
            unit=unit,
            benchmark=(getattr(mention.benchmark, "label", "") or mention.benchmark.name)
            if mention
            else None,
        )
        if mention is not None:
            claim.n = mention.benchmark.n
            if getattr(mention.benchmark, "metric", "binary") != "binary":
                claim.fields["grid"] = False
            claim.n_source = (
                "configuration" if mention.benchmark.source == "configuration" else "registry"
            )
        stated = _stated_n(
            text, num, items, fractions, mention, s.mentions, [f[0].start for f in found]
        )
        if stated is not None and claim.n_source != "configuration":
            # A count in the text wins over the registry; --n / configuration wins over both.
            claim.n, claim.n_source = stated, "text"
            if mention is None:
                claim.confidence = Confidence.MEDIUM
        elif mention is None:
            claim.confidence = Confidence.LOW
        k = _stated_k(text, num, fractions, [f[0] for f in found if f[0] is not num])
        if k is not None:
            claim.fields["k"] = k
        proto = _protocol_for(text, num.start, protocols, cuts) or (
            block_protocols[0] if block_protocols else None
        )
        if proto is not None:
            claim.protocol, claim.samples = proto.protocol, proto.samples
            claim.fields["protocol_text"] = proto.metric
            claim.fields["protocol_scope"] = "sentence"
        elif s.block is not None and s.block.document_single:
            document_protocol(claim, s.block.document_single, s.block.document_single_where)
        if s.block is not None:
            note_possible(
                claim, s.block.possible, s.block.possible_where, s.block.repeated_unstated, s.block.repeated_for
            )
        if not_grid:
            claim.fields["grid"] = False
        if interval is not None:
            if interval.pm is not None:
                claim.plus_minus = interval.pm
            elif interval.lo is not None and interval.hi is not None:  # both, without ±
                claim.interval = (interval.lo, interval.hi)
            claim.fields["interval_text"] = text[num.start : interval.end].strip()
            level = interval.level or sentence_level.get("level")
            claim.fields["level"] = level
            claim.fields["pm_kind"] = (
                _pm_kind(text[num.end : interval.end + 40])
                or sentence_level.get("pm_kind")
                or (s.block.pm_declared if s.block is not None else "")
                or None
            )
        claims.append(claim)
    return claims


_LIST_GAP = re.compile(r"\s*(?:,\s*(?:and\s+)?|and\s+|&\s*)$")


def _change_lists(masked: str, numbers: list[Number]) -> set[int]:
    """Numbers in a list that starts with a difference ("leads by 2.1%, 3.4% and 5.6%
    respectively"): every member of the list is a difference, not a score."""
    out: set[int] = set()
    prev: Number | None = None
    in_list = False
    for num in numbers:
        if num.kind != "percent" and num.kind != "plain":
            prev, in_list = None, False
            continue
        gap = masked[prev.end : num.start] if prev is not None else ""
        if prev is not None and in_list and _LIST_GAP.fullmatch(gap):
            out.add(id(num))
        elif num.kind == "percent" and nums.percent_role(masked, num) == "change":
            in_list = True
        else:
            in_list = False
        prev = num
    return out


_CLAUSE = re.compile(r";|,\s+(?:and|while|whereas|but)\b|\s(?:whereas|while)\s")


_OWN_SET = re.compile(
    r"\s*%?\s*(?:\([^()]*\)\s*)?(?:on|over|across|for)\s+(?:(?!on\b|of\b|and\b)[\w-]+\s+){0,3}$",
    re.I,
)


def _own_set(masked: str, end: int, items: list[Number]) -> Number | None:
    """The item count of "on our 500 questions" / "on a 100-problem subset" after a score."""
    for it in items:
        if it.start >= end and "\x00" not in masked[end : it.start]:
            if _OWN_SET.fullmatch(masked[end : it.start]):
                return it
    return None


def _clause_cuts(text: str) -> list[int]:
    return [0, *(m.start() for m in _CLAUSE.finditer(text)), len(text) + 1]


def _clause(text: str, pos: int, cuts: list[int] | None = None) -> tuple[int, int]:
    """The span of the clause of ``text`` that holds ``pos`` (``cuts`` from :func:`_clause_cuts`)."""
    cuts = cuts if cuts is not None else _clause_cuts(text)
    for a, b in zip(cuts, cuts[1:]):
        if a <= pos < b:
            return a, b
    return 0, len(text) + 1


def _protocol_for(
    text: str, pos: int, protocols: list[Protocol], cuts: list[int] | None = None
) -> Protocol | None:
    """The protocol stated in the same clause as ``pos``, else the sentence's only one."""
    a, b = _clause(text, pos, cuts)
    inside = [p for p in protocols if a <= p.position < b]
    if inside:
        return _nearest(inside, pos, lambda p: p.position)
    if (a, b) != (0, len(text) + 1):
        return None  # stated in another clause: "x% on A, while on B it gets y% greedily"
    kinds = {(p.protocol, p.samples) for p in protocols}
    return protocols[0] if len(kinds) == 1 else None


def interval_kind(text: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    """The level ("90% CI") and the kind of ``±`` (``se``, ``sd``) a text states."""
    m = _LEVEL_WORDS.search(text)
    if m:
        out["level"] = float(m.group(1)) / 100
    kind = _pm_kind(text)
    if kind:
        out["pm_kind"] = kind
    return out


def _pm_kind(text: str) -> str | None:
    if _SD_WORDS.search(text):
        return "sd"
    if _SE_WORDS.search(text):
        return "se"
    return None


def _stated_n(
    text: str,
    num: Number,
    items: list[Number],
    fractions: list[Number],
    mention: Mention | None,
    mentions: list[Mention],
    scores: list[int],
) -> int | None:
    """An item count stated in the sentence that belongs to this score.

    A count right after a benchmark name ("HumanEval (164 problems)") belongs
    to that benchmark's scores; a free-standing count ("on our 500
    questions") to the only score, to scores with no benchmark, or to the
    nearest score.
    """
    candidates: list[tuple[int, int]] = [
        (it.start, int(it.digits)) for it in items if it.digits.isdigit() and int(it.digits) > 0
    ]
    for fr in fractions:
        m = _DENOMINATOR.match(text[fr.end : fr.end + 14])
        if m and int(m.group(1).replace(",", "")) > 0:
            candidates.append((fr.start, int(m.group(1).replace(",", ""))))
    for m in _K_OF_N.finditer(text):
        if int(m.group(2).replace(",", "")) > 0:
            candidates.append((m.start(2), int(m.group(2).replace(",", ""))))
    free = []
    for pos, n in candidates:
        owner = next((mn for mn in mentions if mn.end <= pos <= mn.end + 6), None)
        if (
            owner is None
            and _NAMED_COUNT.search(text[max(0, pos - 40) : pos])
            and not (num.end <= pos and _OWN_NAMED_SET.fullmatch(text[num.end : pos]))
        ):
            continue  # "Putnam (5 problems)": the count of another, unnamed-in-registry set
        if owner is None:
            free.append((pos, n))
        elif mention is not None and owner.benchmark.name == mention.benchmark.name:
            return n
    if not free:
        return None
    if len(free) == 1 and (len(scores) == 1 or mention is None):
        return free[0][1]
    # Otherwise a free count belongs to the score nearest to it; of several such counts, the
    # nearest ("45% (18/40) in physics, 33% (13/26)": 33% is of 26, not of 40).
    for pos, n in sorted(free, key=lambda f: abs(f[0] - num.start)):
        if _nearest(scores, pos, lambda p: p) == num.start and abs(pos - num.start) < 60:
            return n
    return None


#: The n of a fraction "k/n", thousands separators included ("1,439/1,456").
_DENOMINATOR = re.compile(r"/\s*(\d{1,3}(?:,\d{3})+(?![\d.])|\d+)")
#: What lies between a score and the count of the set it is on: "84.23% on MGSM English (250".
_OWN_NAMED_SET = re.compile(r"\s*(?:on|in)\s+(?:the\s+)?[A-Z][\w\-+.]*(?:\s+[A-Za-z][\w\-+.]*){0,3}\s*\(\s*")
_NAMED_COUNT = re.compile(r"[A-Z][\w\-+.]*[\w+]\s*\(\s*$")
#: "14 of 30 correct", "14 of the 30 problems solved": a count of right answers.
_CORRECT_AFTER = re.compile(r"\s+(?:[\w-]+\s+){0,2}?(?:correct(?:ly)?|right|solved|passed)\b", re.I)
_K_OF_N = re.compile(r"(?<![\d.,])(\d+)\s+(?:out\s+)?of\s+(?:the\s+)?(\d[\d,]*)(?![\d.]|\s*%)")


def _stated_k(
    text: str, num: Number, fractions: list[Number], others: Sequence[Number] = ()
) -> int | None:
    """The count k written next to a score ("34/48 (70.8%)", "70.8% (34 of 48)"): the nearest one.

    A count nearer to another score of the sentence is that score's ("97.14% (34/35), followed
    by Gemini at 88.57%": 34 is not Gemini's)."""

    def gap_to(score: Number, start: int, end: int) -> int:
        return score.start - end if end <= score.start else start - score.end

    def own(start: int, end: int) -> int | None:
        gap = gap_to(num, start, end)
        if not 0 <= gap < 30:
            return None
        if any(0 <= gap_to(o, start, end) < gap for o in others):
            return None
        return gap

    found: list[tuple[int, int]] = []
    for m in _K_OF_N.finditer(text):
        if (gap := own(m.start(), m.end())) is not None:
            found.append((gap, int(m.group(1))))
        elif not others and len(_K_OF_N.findall(text)) == 1 and _CORRECT_AFTER.match(text, m.end()):
            # "With 14 of 30 correct on AIME 2025, the model scores 43.3%": the sentence's one
            # score and its one count of right answers, further apart.
            found.append((len(text), int(m.group(1))))
    for fr in fractions:
        if fr.digits.isdigit() and (gap := own(fr.start, fr.end)) is not None:
            found.append((gap, int(fr.digits)))
    return min(found)[1] if found else None


def document_protocol(claim: Claim, text: str, where: str) -> None:
    """A single pass stated for the whole evaluation elsewhere: an inferred premise, never certain."""
    from benchaudit.inputs.scoping import of_family, stated_for

    protos = [p for p in protocols_in(text) if p.protocol == "single"]
    family = stated_for(text, protos[0].position) if protos else None
    if not protos or (family and claim.model and not of_family(claim.model, family)):
        return  # none, or stated "for all X models" and this row is another model's
    claim.protocol, claim.samples = "single", 1
    claim.fields["protocol_text"] = protos[0].metric
    claim.fields["protocol_scope"] = "document"
    claim.fields["protocol_where"] = where


def named_for(
    bench: Any, named: list[tuple[str, Protocol, str]], registry: Registry
) -> tuple[list[tuple[str, Protocol, str]], list[tuple[str, Protocol, str]]]:
    """The protocol statements made by name for ``bench`` ("MATH500 and SuperGPQA are with a
    single run") and those made by name for other benchmarks only."""
    def names_it(text: str) -> bool:
        return any(m.benchmark.name == bench.name and m.benchmark.variant == bench.variant
                   for m in find_benchmarks(text, registry))

    mine = [st for st in named if names_it(st[0])]
    return mine, [st for st in named if st not in mine]


def same_protocol(a: Protocol, b: Protocol) -> bool:
    return (a.protocol, a.samples, a.metric) == (b.protocol, b.samples, b.metric)


def named_protocol(
    claim: Claim, mine: list[tuple[str, Protocol, str]], others: list[tuple[str, Protocol, str]],
    possible: list[Protocol],
) -> None:
    """A single pass stated for the claim's benchmark by name in its section: an inferred
    premise. The averages the document states only for other benchmarks by name are then no
    possible reading of the score."""
    if len(mine) != 1 or mine[0][1].protocol != "single":
        return  # none, or several statements for it: which one holds is not known
    _, proto, where = mine[0]
    claim.protocol, claim.samples = "single", 1
    claim.fields["protocol_text"] = proto.metric
    claim.fields["protocol_scope"] = "named"
    claim.fields["protocol_where"] = where
    elsewhere = Counter(p.samples for _, p, _ in others if p.protocol == "averaged")
    stated = Counter(p.samples for p in possible if p.protocol == "averaged")
    left = [k for k in claim.fields.get("possible_samples", []) if stated[k] > elsewhere[k]]
    if left:
        claim.fields["possible_samples"] = left
    else:
        claim.fields.pop("possible_samples", None)
        claim.fields.pop("possible_where", None)


def note_possible(
    claim: Claim, possible: list[Protocol], where: str, repeated: bool, repeated_for: tuple[str, ...] = ()
) -> None:
    """Record averaging stated elsewhere in the document as a possible reading of ``claim``;
    a repetition stated only for some benchmarks (``repeated_for``) is none for the others."""
    from benchaudit.inputs.scoping import covers
    samples = sorted({p.samples for p in possible if p.samples and p.samples > 1})
    if samples:
        claim.fields["possible_samples"] = samples
        claim.fields["possible_where"] = where
    if repeated and covers(repeated_for, claim.benchmark):
        claim.fields["repeated_unstated"] = True


# ---------------------------------------------------------------- change claims

_FROM_TO = re.compile(
    rf"\bfrom\s+(?P<a>{_NUM})\s*(?:%|percent)?\s*(?:\([^)]*\)\s*)?(?:to|→|->)\s+(?P<b>{_NUM})\s*(?:%|percent)?",
    re.I,
)
_RELATIVE = re.compile(r"\brelative(?:ly)?\b|\brel\.", re.I)
_ABSOLUTE = re.compile(r"\babsolute\b|\bpoints?\b|\bpp\b|percentage points?", re.I)


def change_claims(s: Sentence, ctx: Context) -> list[Claim]:
    """Changes stated as a percentage next to the two scores they compare.

    "improves from 70% to 75%, a 5% gain" gives a ``change`` claim with
    ``fields = {"before": "70", "after": "75", "delta": "5"}``.
    """
    text = s.text
    masked = mask(text, s.mentions)
    deltas = [
        n for n in s.numbers if n.kind == "percent" and nums.percent_role(masked, n) == "change"
    ]
    if not deltas:
        return []
    m = _FROM_TO.search(masked)
    if m:
        before, after, conf = m.group("a"), m.group("b"), Confidence.HIGH
    else:
        scores = [
            n
            for n in s.numbers
            if n.kind == "percent" and not n.signed and nums.percent_role(masked, n) == "score"
        ]
        if len(scores) != 2:
            return []
        # "75% vs 70%": which is the base is read from the direction of the change.
        before, after, conf = scores[1].digits, scores[0].digits, Confidence.MEDIUM
        if float(before) > float(after) and _rises(masked):
            before, after = after, before
    claims = []
    for d in deltas:
        window = masked[max(0, d.start - 25) : d.end + 25]
        claims.append(
            Claim(
                kind="change",
                text=text,
                location=s.location_at(d.start),
                confidence=conf,
                value=d.text,
                unit="percent",
                benchmark=s.mentions[0].benchmark.name
                if len({m.benchmark.name for m in s.mentions}) == 1
                else None,
                fields={
                    "before": before,
                    "after": after,
                    "delta": d.digits,
                    "relative_stated": bool(_RELATIVE.search(window)),
                    "absolute_stated": bool(_ABSOLUTE.search(window.replace(d.text, "", 1)[:40])),
                },
            )
        )
    return claims


def _rises(text: str) -> bool:
    return not re.search(
        r"\b(?:drop|decreas|declin|lower|worse|fall|fell|loses?|lost|reduc|degrad)", text, re.I
    )
