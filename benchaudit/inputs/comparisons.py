"""Comparison and significance claims in one sentence.

The text pipeline splits a document into sentences and calls
:func:`extract_sentence` on each; this module turns one sentence into zero or
more :class:`~benchaudit.evidence.Claim` objects of these kinds:

``comparison``
    two scores compared ("A (73.0%) vs B (70.0%)", "improves from 70 to 73",
    "+3 points", outperforms / on par / no degradation), reported p-values and
    test statistics, discordant counts, intervals, significance wording.
``selection``
    the best of k prompts / checkpoints / seeds picked ("best of 20 prompts").
``seeds``
    a mean and spread over a few seeds or runs.
``agreement``
    a judge's raw agreement with humans ("85% agreement").
``pass-at-k``
    a pass@k formula written out.
``emergence``
    an emergence / sudden-jump claim, with the metric named nearby.
``chance-level``
    a multiple-choice procedure and the chance level it is compared with.
``generations``
    several samples per item counted as items.

Every claim keeps the author's numbers as strings in ``fields`` and gets a
``confidence``: high when the sentence spells the comparison out, medium when
a value or the pairing is inferred, low when the parse is a guess (rules then
give info, not errors). :func:`extract_document` is a second pass that fills
in the benchmark and item count from earlier sentences and attaches score
tables to sentences such as "improves on every benchmark".

Only the standard library is imported here: this runs on every README.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict

from benchaudit.evidence import Claim
from benchaudit.finding import Confidence, Location
from benchaudit.inputs.numbers import CANDIDATES_BEFORE, drop_spread
from benchaudit.lazy_patterns import lazy

if TYPE_CHECKING:
    from benchaudit.engine import Context

_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "fifteen": 15,
    "twenty": 20,
    "thirty": 30,
    "fifty": 50,
    "hundred": 100,
    "a hundred": 100,
    "a dozen": 12,
    "dozen": 12,
}
_WORDNUM = (
    r"(?:\d[\d,]*|a hundred|a dozen|" + "|".join(sorted(_WORDS, key=len, reverse=True)) + r")"
)
NUM = r"[-+−–]?\d+(?:\.\d+)?"
_UNUM = r"\d+(?:\.\d+)?"
_PCT = rf"({_UNUM})\s*(?:%|percent\b|pp\b|points?\b)?"
_DASH = r"\s*(?:-|–|—|to|,)\s*"
_MINUS = "−–—"

_ITEMS = (
    r"(?:questions?|items?|problems?|examples?|prompts?|tasks?|instances?|test cases?|"
    r"samples?|puzzles?|exercises?|conversations?|queries|pairs|cases|vignettes)"
)


def to_int(text: str) -> int | None:
    """``"1,319"`` / ``"three"`` -> int."""
    t = text.strip().lower()
    if t in _WORDS:
        return _WORDS[t]
    t = t.replace(",", "")
    return int(t) if t.isdigit() else None


def to_float(text: str) -> float:
    return float(text.translate({ord(c): "-" for c in _MINUS}).replace("+", ""))


@dataclass
class LocatedSentence:
    """A sentence and where it starts, when the caller has no richer object."""

    text: str
    location: Location
    block: Any = None  # the paragraph it belongs to (any object shared by its sentences)


# --- patterns -------------------------------------------------------------------

_P_VALUE = lazy(
    # Not the p of "top-p", "top_p" or "nucleus p": a sampling parameter, not a p-value.
    r"(?<![\w\-‑_])(?<!nucleus )p(?:[- ]?values?)?\s*(?:\(\w+\)\s*)?(=|<=|>=|<|>|≤|≥|≈|~)\s*"
    r"(\d*\.\d+(?:\s*[x×·*]\s*10\s*\^?\s*[-−]?\d+)?|\d(?:\.\d+)?[eE][-−]?\d+|[01](?![\d.]))",
    re.I,
)
_STAT_T = lazy(r"\bt\s*\(\s*(\d+(?:\.\d+)?)\s*\)\s*=\s*(" + NUM + ")")
_STAT_F = lazy(r"\bF\s*\(\s*(\d+(?:\.\d+)?)\s*,\s*(\d+(?:\.\d+)?)\s*\)\s*=\s*(" + _UNUM + ")")
_STAT_CHI = lazy(
    r"(?:χ\s*(?:2|²|\^2)|chi[- ]?(?:squared?|2|²|\^2)|X\s*(?:2|²|\^2))\s*"
    r"\(\s*(\d+)\s*(?:,\s*N\s*=\s*[\d,]+)?\s*\)\s*=\s*(" + _UNUM + ")",
    re.I,
)
_STAT_CHI_NODF = lazy(
    r"(?:χ\s*(?:2|²|\^2)|chi[- ]?(?:squared?|2|²|\^2))\s*=\s*(" + _UNUM + ")", re.I
)
#: "χ2 = 14.9, df = 1", "χ (2) = 101.95, df = 8": the degrees of freedom after the value.
_STAT_CHI_DF_AFTER = lazy(
    r"(?:χ\s*\(?\s*(?:2|²|\^2)\s*\)?|chi[- ]?(?:squared?|2|²|\^2))\s*=\s*(" + _UNUM + r")\s*[,;]\s*"
    r"(?:df|d\.f\.)\s*=\s*(\d+)\b",
    re.I,
)
_STAT_Z = lazy(r"(?<![\w.])[zZ]\s*=\s*(" + NUM + r")(?![\d.]*\s*%)")
_STAT_R = lazy(r"\br\s*\(\s*(\d+)\s*\)\s*=\s*([-+−]?\d*\.\d+|[-+−]?[01])")

_DISCORDANT = [
    lazy(r"(\d[\d,]*)\s*(?:vs\.?|versus|and|/|to)\s*(\d[\d,]*)\s*discordant", re.I),
    lazy(
        r"discordant\s*(?:pairs|items|counts?|cells|questions)?\s*(?:of|were|are|:|=)?\s*"
        r"\(?(\d[\d,]*)\s*(?:vs\.?|versus|and|/|,)\s*(\d[\d,]*)",
        re.I,
    ),
    lazy(r"\bb\s*=\s*(\d+)\s*,\s*(?:and\s*)?c\s*=\s*(\d+)"),
    lazy(
        r"(?:right|correct)\s+on\s+(\d[\d,]*)\s+" + _ITEMS + r"\s+(?:where|that|on which)\s+"
        r"\S+(?:\s\S+)?\s+(?:was|is|got|were)\s+(?:wrong|incorrect)[^.;]*?"
        r"(?:and|while|whereas|but)\s+\S+(?:\s\S+)?\s+(?:on|for|in)\s+(\d[\d,]*)",
        re.I,
    ),
    lazy(
        r"(?:fixes|solves|wins)\s+(\d[\d,]*)\s+" + _ITEMS + r"?[^.;]*?(?:breaks|loses|fails)\s+"
        r"(?:on\s+)?(\d[\d,]*|none|no)\b",
        re.I,
    ),
]
_DISCORDANT.append(
    lazy(
        r"(?:disagree|differ)\w*\s+(?:on|in)\s+(?:only\s+|just\s+)?\d[\d,]*\s+"
        + _ITEMS
        + r"\s*\(\s*(\d[\d,]*)\s*(?:vs\.?|versus|/|:|to|and)\s*(\d[\d,]*)\s*\)",
        re.I,
    )
)
_DISCORDANT.append(
    lazy(
        r"(?:disagree|discordant|differ|mcnemar)[^.;%]{0,60}?\(\s*(\d[\d,]*)\s*(?:vs\.?|versus)\s*(\d[\d,]*)\s*\)",
        re.I,
    )
)
_DISAGREE = lazy(
    r"(?:disagree|differ)\w*\s+(?:on|in)\s+(?:only\s+|just\s+)?("
    + _WORDNUM
    + r")\s+(?:(?:out\s+)?of\s+(?:the\s+)?\d[\d,]*\s+)?"  # "disagree on only 4 of the 31 questions"
    + _ITEMS
    + r"|\b("
    + _WORDNUM
    + r")\s+"
    + _ITEMS
    + r"\s+(?:where|on which|that)\s+(?:the\s+)?(?:two\s+)?"
    r"(?:models|systems)\s+disagree",
    re.I,
)

_INTERVAL = lazy(
    r"(?:(\d+(?:\.\d+)?)\s*%\s*)?(?:CI|confidence interval|credible interval|interval)"
    r"\s*(?:of|:|=|\[|\(|is|was)?\s*[\[(]?\s*("
    + NUM
    + r")\s*%?"
    + _DASH
    + r"("
    + NUM
    + r")\s*%?\s*[\])]?",
    re.I,
)
_BRACKET = lazy(r"\[\s*(" + NUM + r")\s*%?\s*,\s*(" + NUM + r")\s*%?\s*\]")
_PLUSMINUS = lazy(r"(" + _UNUM + r")\s*%?\s*(?:±|\+/-|\+-)\s*(" + _UNUM + r")\s*(%)?")

_N = [
    lazy(r"\b[nN]\s*=\s*(\d[\d,]*)"),
    lazy(
        r"\b(?:on|over|across|of|with|using|from)\s+(?:the\s+|all\s+|its\s+|their\s+)?"
        r"(?:same\s+)?(\d[\d,]*)\s+(?:[\w-]+\s+){0,2}?(?:held[- ]out\s+|test\s+)?" + _ITEMS + r"\b",
        re.I,
    ),
    lazy(r"\b(\d[\d,]*)[- ](?:question|item|problem|example|prompt|task)\b", re.I),
    # "our 300 held-out tickets": "held-out" marks the evaluation set whatever its items are
    # called; collections of item sets (benchmarks, languages, ...) are no item count.
    lazy(
        r"\b(\d[\d,]*)\s+held[- ]out\s+(?!(?:benchmarks|datasets|languages|domains|splits|sets|"
        r"models|seeds|subjects|categories)\b)[a-z]+s\b",
        re.I,
    ),
    # "200 multiple-choice question stems ... were entered": a count of questions that opens its
    # clause (no "of" before it), in the paragraph's method sentence.
    # "1136 publicly available DXIT examination questions were input": up to four words between
    # ("5 of the hardest questions" counts a subset).
    lazy(
        r"(?:^|[,:;]\s+|\b(?:METHODS?|Methods?):?\s+)(\d[\d,]*)\s+(?:(?!of\b)[\w-]+\s+){0,4}?"
        r"(?:questions?|cases|vignettes)\b"
    ),
]

_FROM_TO = lazy(
    r"\bfrom\s+(?:an?\s+)?(?:accuracy\s+of\s+|score\s+of\s+)?(" + _UNUM + r")\s*(%|percent|points)?"
    r"\s+(?:\w+\s+){0,3}?to\s+(" + _UNUM + r")\s*(%|percent|points)?",
    re.I,
)
_VS = lazy(
    # A denominator is no score: "14/20 vs 11/20" compares the two fractions, not 20 with 11.
    r"(?<![\w\-./])(?P<x>" + _UNUM + r")(?!\s*/\s*\d)\s*(?P<xu>%|percent)?\s*(?:\)\s*)?(?:\([^)]{0,40}\)\s*)?"
    # "VS" before a lowercase word is an abbreviation ("the 35 VS cases"), not "versus".
    r"(?:(?-i:[vV]s\.?|VS\.?(?!\s+[a-z]))|versus|compared (?:to|with)|against|relative to|over|vis-à-vis|and|"
    r",?\s*(?:just |slightly |narrowly )?ahead of|,?\s*(?:just|slightly|narrowly) above)\s+"
    # A rival's name may hold a version ("Claude 3.5 Sonnet at 58.6%"): the 3.5 is no score.
    r"(?:(?:the\s+)?[A-Za-z][\w.\-]*(?:\s(?:[A-Za-z][\w.\-]*|\d+(?:\.\d+)?)){0,3}?\s*[(:]?\s*)?\[?"
    r"(?<![\d.])(?P<y>" + _UNUM + r")(?!\s+(?-i:[A-Z][a-z])|\.?\d|\s*[BM]\b|\s*/\s*\d)"
    r"\s*(?P<yu>%|percent)?",
    re.I,
)
_DELTA_PTS = lazy(
    r"(?<![\w.])()(" + _UNUM + r")\s*(percentage points?|points?|pts?\.?|pp)\b", re.I
)
_PAREN_PAIR = lazy(
    r"\((\d{1,3}(?:\.\d+)?)\s*%?\)\s*,?\s*(?:clearly\s+|significantly\s+|slightly\s+|substantially\s+|"
    r"narrowly\s+|just\s+)?"
    r"(?:outperform(?:s|ing)?|beat(?:s|ing)?|surpass(?:es|ing)?|exceed(?:s|ing)?|improves on|is better than|"
    r"edges out|trails|"
    r"underperforms?|matches|is on par with|is comparable to|is worse than)\s+[^()]{1,60}?"
    r"\((\d{1,3}(?:\.\d+)?)\s*%?\)",
    re.I,
)
#: "46.7% on AIME24 (outperforms o1-preview at 44.6%)": the subject's score, then the rival
#: named after the verb with its own score ("at 44.6%", "(44.6%)").
_RIVAL_AT = lazy(
    r"(?<![\w.])(\d{1,3}(?:\.\d+)?)\s*%[^%()]{0,60}?[(,]?\s*(?:clearly\s+|narrowly\s+)?"
    r"(?:outperform(?:s|ing)?|beat(?:s|ing)?|surpass(?:es|ing)?|exceed(?:s|ing)?)\s+"
    r"[^%()]{1,60}?(?:\s+at\s+|\s*\(\s*)(\d{1,3}(?:\.\d+)?)\s*%",
    re.I,
)
_DELTA = lazy(
    r"(?<![\w.])([+−–-]|by\s+|gains?\s+(?:of\s+)?)\s*(" + _UNUM + r")\s*"
    r"(percentage points?|points?|pts?\.?|pp\b|%)",
    re.I,
)
#: "Our model (+1.8) surpasses Rival ... with 83.6%": a bare signed gain in brackets next to the
#: model it belongs to; read only with a lead verb and one score in the sentence.
_DELTA_BARE = lazy(r"\((\+)\s*(" + _UNUM + r")()\s*\)")
#: "a 3.6% improvement over Y", "a 2.1-point gain over Y": a margin named by its noun, never
#: a score of its own.
_GAIN_NOUN = r"(?=[\s-]+(?:absolute\s+)?(?:improvement|gain|increase|boost|lead|advantage)s?\s+(?:over|compared|relative|against)\b)"
_DELTA_NOUN = lazy(
    r"(?<![\w.])()(" + _UNUM + r")\s*(percentage[\s-]points?|points?|pts?\.?|pp\b|%)" + _GAIN_NOUN,
    re.I,
)

_BETTER = lazy(
    r"\b(outperform\w*|beat\w*|surpass\w*|exceed\w*|improv\w*|better|higher|gain\w*|boost\w*|"
    r"ris(?:es|e|ing)|rose|increas(?:es|ed|ing)|climb\w*|jump(?:s|ed)?|"
    r"edges? out|leads?|ahead of|wins? over|(?:clear|decisive|convincing|comfortable|outright) (?:win|victory)|tops?(?![-‑]\w)|superior|state[- ]of[- ]the[- ]art|SOTA|best|"
    r"ranks? (?:first|1st|#1|top)|first place|new record)\b",
    re.I,
)
#: A purpose, not a result: "we switch to full attention during generation for better
#: performance", "tuned to improve accuracy".
_PURPOSE = lazy(
    r"\b(?:for|to\s+(?:get|obtain|achieve|ensure|reach))\s+(?:a\s+)?(?:better|improved|higher|stronger)\s+"
    r"(?:performance|results?|accuracy|quality|efficiency|stability)\b"
    r"|\bin\s+order\s+to\s+improve\b|\bto\s+(?:further\s+)?(?:improve|boost|enhance)\s+(?:the\s+)?(?:performance|results?|accuracy)\b",
    re.I,
)
_WORSE = lazy(
    r"\b(worse|lower|drops?|declin\w*|degrad\w*|underperform\w*|trails?|behind)\b", re.I
)
#: Verbs that put the subject at or below the rival they name: "closely approaching
#: GPT-3.5 (70.0%)", "just short of", "trailing". They govern the rival's score that follows.
_APPROACH = lazy(
    r"\b(?:approach(?:es|ed|ing)?|clos(?:e|ing)\s+(?:in\s+on|to)|(?:just\s+)?short\s+of|"
    r"(?:nearly|almost|closely)\s+match\w*|within\s+(?:reach|striking\s+distance)\s+of)\b",
    re.I,
)
_EQUIV = lazy(
    r"\b(on par|comparabl[ey]|(?:the )?same (?:as|performance|accuracy|quality|level)|similar(?:ly)?|"
    r"(?<!exact )(?<!exact-)match(?:es|ed|ing)?|equivalent|indistinguishable|no (?:meaningful |notable |real |measurable )?"
    r"(?:difference|change)|no (?:meaningful |(?:statistically )?significant |notable |real |measurable )?"
    r"(?:(?:performance|accuracy|quality) )?(?:degradation|drop|loss|decrease|regression)|"
    r"perform(?:s|ed|ing)? (?:about |roughly |nearly )?equally|"
    r"(?:does|did|do)(?: not|n't) (?:\w+ly )?(?:suffer|degrade|hurt|harm|lose|reduce|affect|impact|change)|"
    r"equally (?:well|good|strong|effective|capable)|perform(?:s|ed)? (?:the )?same|same level|"
    r"no different|tied|statistical tie|neither (?:\w+ ){0,3}?(?:is|was|performs?|can be said to be) better|"
    r"(?:just |equally )?as (?:good|strong|capable|accurate|effective)|"
    # "did not differ significantly" reports a null result; it does not claim equivalence.
    r"(?:do|does|did)(?: not|n't) differ(?!\s+(?:\w+\s+)?(?:statistically\s+)?significantly)|no (?:evidence|sign|indication) of (?:any )?(?:\w+ )?"
    r"(?:degradation|drop|loss|regression|difference)|"
    r"without (?:any |significant |noticeable |a )?(?:loss|degradation|drop|sacrific\w+)|"
    r"negligible|nearly identical|virtually identical|"
    r"(?:preserv\w+|retain\w*|maintain\w*)(?=\s+(?:[\w-]+\s+){0,3}?(?:performance|accuracy|quality|scores?|results|reasoning|"
    r"capabilit(?:y|ies)|abilit(?:y|ies)|skills?)\b)|"
    r"no worse than|as good as|lossless|identical|(?:does|do|did)(?: not|n't) matter|interchangeabl[ey]|"
    # "... (p = 0.12); the model is therefore language-agnostic": a null read as no effect.
    r"(?:is|are|was|were) (?:therefore |thus |hence )?(?:[a-z]+-agnostic|(?:insensitive|invariant) to)|"
    # "answers were consistent over time (p > 0.05)": a null read as stability.
    r"(?:is|are|was|were|remain(?:s|ed)?) (?:stable|consistent(?! with)|unchanged)|"
    # A null result read as "nothing lost": "so quantization costs nothing", "safe to ship".
    r"costs? (?:us )?nothing|at no cost|(?:is|are|was|were) safe to (?:ship|deploy|release|swap))\b",
    re.I,
)
_NOT_SIG = lazy(
    r"\b(not (?:statistically )?significant(?:ly)?|no (?:statistically )?significant|"
    # "not a significant difference"; "not a significant issue" is no test result.
    r"not (?:a|an|any) (?:statistically )?significant (?:difference|change|gain|improvement|effect|drop|"
    r"decrease|increase|advantage|lead|degradation|loss)|"
    r"non-?significant|insignificant|n\.s\.|did not reach (?:statistical )?significance|"
    r"not significantly (?:hurt|degrade|reduce|affect|change|differ|impact|harm|lower|decrease|worse|better)\w*|"
    r"not (?:statistically )?distinguishable|statistically indistinguishable|"
    r"(?:did|does|do)(?: not|n't) (?:differ|improve|change|degrade|drop|decrease|increase)\w* "
    r"(?:\w+ )?significantly|"
    r"fail\w* to (?:be|reach|achieve|attain) (?:statistical(?:ly)? )?significan\w*|(?:does|did|do)(?: not|n't) (?:\w+ )?(?:suffer|show|exhibit|"
    r"lead to|cause|result in) (?:from |any |a )?(?:statistically )?significant)",
    re.I,
)
_SIG = lazy(r"\b((?:statistically )?significant(?:ly)?|significance)\b", re.I)
_UNPAIRED_TEST = lazy(
    r"\b(two[- ]proportion\w*(?: z)?[- ]test|z[- ]test for (?:two |independent )?proportions|"
    r"test of (?:two |independent )?proportions|proportions? z[- ]test|"
    r"chi[- ]?squared? test(?: of independence)?|χ2 test|χ² test|fisher'?s exact(?: test)?|"
    r"unpaired (?:t[- ])?test|welch'?s?(?: t)?[- ]test|independent[- ]samples?(?: t)?[- ]test|"
    r"two[- ]sample (?:t[- ]|z[- ])?test|mann[- ]whitney|t[- ]tests? with unequal variances?|"
    r"separate (?:95\s*% )?(?:confidence )?(?:intervals|CIs)|"
    r"(?:confidence )?intervals (?:do not|don't|did not) overlap|non-?overlapping (?:confidence )?intervals)",
    re.I,
)
_PAIRED_TEST = lazy(
    r"\b(mcnemar\w*|paired|sign[- ]test|signed[- ]rank|wilcoxon|permutation test|"
    r"sign[- ]flip|per[- ](?:item|question|example) (?:differences|comparison))",
    re.I,
)
_SAME_ITEMS = lazy(
    r"\b((?:same|shared|common|identical)\b[^.;]{0,30}?\b(?:"
    + _ITEMS[3:-1]
    + r"|test set|benchmark|split|"
    r"eval(?:uation)? set)|"
    r"identical (?:test )?" + _ITEMS + r"|both models|both systems|each of the same)\b",
    re.I,
)
#: "260 questions ... were run through ChatGPT and Gemini", "1136 questions were input into
#: GPT-4v and GPT-4o": one set of items given to two models.
_ITEMS_GIVEN_TO_BOTH = lazy(
    r"\b(?:questions|items|problems|prompts|cases|vignettes)\b[^.;]{0,60}?\b(?:were|was)\s+(?:\w+\s+)?"
    r"(?:run through|input (?:in)?to|entered into|presented to|submitted to|posed to|fed (?:in)?to|given to)"
    r"\s+[^.;]{1,60}?\band\b",
    re.I,
)
_OVERLAP_NULL = lazy(
    r"\b((?:confidence |error |credible )?(?:intervals|bars|CIs)\b"
    r"(?:(?! (?:do|does|did)(?: not|n't) )(?:[^.;]|(?<=\d)\.(?=\d))){0,80}?"
    r"\boverlap(?:s|ped)?\b|"
    r"overlapping (?:confidence |credible |95% )?(?:intervals|error bars|CIs|bars)|"
    r"within (?:each other'?s|the other'?s|the) (?:confidence |error )?(?:interval|bars?)|"
    r"(?:intervals|bars|CIs) (?:largely |substantially )?overlap)",
    re.I,
)
#: What an overlap is taken to show, beyond the equivalence words: "A is no better than B",
#: "neither degrades accuracy more than the other".
_OVERLAP_SAME = lazy(
    r"\b(?:is|are|was|were)\s+(?:no|not)\s+better\s+than\b|\bneither\b[^.;]{0,60}?\bmore\s+than\s+the\s+other\b|"
    r"\bno\s+(?:real|significant|meaningful|actual|genuine|measurable)?\s*(?:gain|improvement|difference|"
    r"benefit|advantage|effect)\b",
    re.I,
)
_OVERLAP_SIG = lazy(
    r"\b((?:intervals|bars|CIs) (?:do not|don't|did not) overlap|non-?overlapping (?:confidence |95% )?"
    r"(?:intervals|error bars|CIs))",
    re.I,
)
_CORRECTION = lazy(
    r"\b(bonferroni|holm|benjamini|hochberg|FDR|false discovery|(?:multiple[- ]comparisons?|"
    r"multiplicity) (?:correction|adjust\w*)|corrected|adjusted p)",
    re.I,
)
_HEDGED = lazy(
    r"\b(inconclusive|cannot (?:reach|detect|rule out|be significant)|too few|so few (?:disagreements|discordant|items|questions|problems|samples|examples)|under-?powered|"
    r"insufficient (?:statistical )?power|no (?:\w+ )?test can|not (?:enough|sufficient) (?:power|data|items))\b",
    re.I,
)
#: "you can't confidently say A is better", "Can you say X is better?": a clause that denies a
#: difference, up to a "but" or the end of its sentence, and a question sentence.
_NO_CLAIM = lazy(
    r"\b(?:can(?:not|'t|’t| not)|could(?:n't|n’t| not)|unable to)\s+(?:\w+\s+){0,2}?"
    r"(?:say|conclude|claim|tell|declare|establish)\b[^.;!?]*?(?=,?\s+but\b|[.;!?]|$)|"
    r"[^.;!?]*\?",
    re.I,
)
_ONE_SIDED = lazy(r"\b(one[- ]sided|one[- ]tailed|directional)\b", re.I)
_EVERY = lazy(
    r"\b((?:on|across|in) (?:every|all|each|both) (?:\w+ )?(?:benchmarks?|tasks?|datasets?|evaluations?)|"
    r"(?:every|all|each) (?:of the )?(?:\w+ )?benchmarks?|across the board|"
    r"consistently (?:outperform\w*|improv\w*|better))\b",
    re.I,
)

# selection
_SELECT = [
    lazy(
        r"\bbest[- ]of[- ]("
        + _WORDNUM
        + r")\b(?:\s+(prompts?|templates?|checkpoints?|seeds?|runs?|"
        r"samples|configurations?|variants?))?",
        re.I,
    ),
    lazy(
        r"\b(?:tried|try|evaluated|evaluate|tested|test|ran|run|swept|sweep|explored|sampled|compared|"
        r"trained|searched over|generated|wrote|considered)\s+(?:over\s+|about\s+|around\s+)?(" + _WORDNUM + r")\s+"
        r"(?:different\s+|candidate\s+|random\s+)?(prompts?|prompt (?:templates|variants|formats)|"
        r"(?:decoding |sampling )?temperatures|decoding (?:strategies|settings|configurations)|"
        r"templates?|checkpoints?|seeds?|runs?|configurations?|configs?|hyper-?parameter (?:settings|"
        r"configurations)|system prompts?|instructions?|variants?|models?)"
        r"[^.;]*?\b(best|highest|top[- ]scoring|maximum|max)\b",
        re.I,
    ),
    lazy(
        r"\b(?:best|highest[- ]scoring|top[- ]scoring|strongest)\s+(?:of\s+|among\s+|out of\s+)?(?:the\s+)?"
        r"("
        + _WORDNUM
        + r")\s+(prompts?|templates?|checkpoints?|seeds?|runs?|configurations?|variants?)",
        re.I,
    ),
    lazy(
        r"\b(?:best|highest|top)\s+(prompt|template|checkpoint|seed|run|configuration|variant)\s+"
        r"(?:out\s+of|of|among|from)\s+(" + _WORDNUM + r")\b",
        re.I,
    ),
    lazy(
        r"\bmax(?:imum)?\s+(?:\w+\s+)?(?:over|across)\s+("
        + _WORDNUM
        + r")\s+(prompts?|seeds?|runs?|"
        r"checkpoints?|templates?)",
        re.I,
    ),
    lazy(
        r"\b(?:best|highest|top|strongest)\s+(?:\w+\s+){0,2}?(?:among|across|over|of|out of|from)\s+(?:the\s+)?"
        r"(" + _WORDNUM + r")\s+(?:[a-z\-]+\s+)?(prompts?|templates?|"
        r"checkpoints?|seeds?|runs?|configurations?|variants?|system prompts?|trials?)",
        re.I,
    ),
    # "Out of 8 RL checkpoints we select the one with the highest test score".
    lazy(
        r"\b(?:out of|from|among|of)\s+(?:the\s+|all\s+)?(" + _WORDNUM + r")\s+(?:[\w-]+\s+){0,2}?"
        r"(prompts?|templates?|checkpoints?|seeds?|runs?|configurations?|variants?|system prompts?|trials?)"
        r"\b[^.;]{0,40}?\b(?:select\w*|pick\w*|choose|chose|keep|kept|report\w*|take|took)\b"
        # "we report the mean, and the best run reaches ...": the mean is what is reported.
        r"(?:(?!\b(?:mean|average|median)\b)[^.;]){0,40}?\b(?:best|highest|top[- ]scoring|maximum|max)\b",
        re.I,
    ),
    # "after a grid search over 36 learning-rate and temperature settings ..., our best
    # configuration": a search names its candidates after modifiers joined by "and".
    lazy(
        r"\b(?:grid[- ]|random[- ])?search(?:ed)?\s+over\s+(" + _WORDNUM + r")\s+"
        r"(?:[\w-]+\s+(?:and\s+)?){0,4}?(settings|configurations?|combinations|candidates)\b"
        r"[^.;]*?\b(best|highest|top)\b",
        re.I,
    ),
    # "the checkpoint with the best test-set score among the 15 we saved": the candidate noun
    # first, the count after "among".
    lazy(
        r"\b(prompt|template|checkpoint|seed|run|configuration|variant)\s+with\s+the\s+"
        r"(?:best|highest)\b[^.;]{0,40}?\b(?:among|out\s+of|from)\s+(?:the\s+|all\s+)?("
        + _WORDNUM
        + r")\b",
        re.I,
    ),
]
_VALIDATION = lazy(
    r"\b(validation|dev(?:elopment)?(?: set| split)?|held[- ]out (?:dev|validation|tuning)|"
    r"tuning set|train(?:ing)? split|not (?:on |using )?the test)\b",
    re.I,
)

# seeds
_SEEDS = lazy(
    r"(?:\b(?:over|across|from|of|averaged over|average of|mean of)\s+|[(,;:]\s*|\bwith\s+)("
    + _WORDNUM
    + r")\s+"
    r"(?:random\s+|independent\s+|different\s+|training\s+)?(seeds?|runs?|trials?|repetitions?|"
    r"restarts?|replicates?)\b",
    re.I,
)
_Z196 = lazy(
    r"(1\.96\s*(?:[×x·*]\s*)?(?:the\s+)?(?:σ|sd|s\.d\.|std|standard deviations?|stdev|standard errors?|"
    r"SE\b|s\.e\.)|"
    r"(?:±|\+/-)\s*1\.96|normal(?:[- ]approximation)?(?: 95\s*%)? (?:confidence )?(?:interval|quantile|"
    r"approximation)|z[- ]interval|z\s*=\s*1\.96)",
    re.I,
)
_TQUANT = lazy(
    r"\b(t[- ]distribution|student'?s? t|t[- ]interval|t\s*\(\s*\d+\s*\)|t[- ]quantile)", re.I
)
_CI95 = lazy(r"\b(95\s*%\s*(?:CI|confidence|interval)|confidence interval|CI)\b", re.I)

# judges
_AGREE = [
    lazy(
        # "80\\%" is LaTeX's percent sign; "85% human agreement" names whom the judge agrees with.
        r"(" + _UNUM + r")\s*\\?%\+?\s*(?:raw\s+|overall\s+|pairwise\s+)?(?:(?:human|expert|annotator)s?\s+)?"
        r"(?:agreement|agree|consistency|"
        r"alignment|concordance)\b",
        re.I,
    ),
    lazy(
        r"\b(?:agree\w*|agreement|concordance)\b[^.;%]{0,60}?(?:of|at|is|was|reaches|reached|achieves?)?\s*"
        r"(" + _UNUM + r")\s*%",
        re.I,
    ),
]
_AGREE.append(
    lazy(
        r"\b(?:match\w*|agree\w*|align\w*|concur\w*)\s+(?:with\s+)?(?:the\s+)?(?:\w+\s+)?(?:human|expert|annotator|"
        # "matched the expert label 89% of the time": the preposition before the figure is optional.
        r"rater|crowd|people|user)\w*\s+(?:\w+\s+){0,2}?(?:(?:in|on|for)\s+)?(" + _UNUM + r")\s*%",
        re.I,
    )
)
_JUDGE_MODEL = lazy(
    r"\b(LLM|GPT[\w.-]*|judges?|model|automatic|auto-?raters?|(?:automatic |auto-?)?evaluators?|Claude|"
    r"Gemini|graders?|reward models?|machine|classifier|metric)\b",
    re.I,
)
_INTER_HUMAN = lazy(
    r"\b(inter-?annotator|inter-?rater|between (?:the )?(?:two |three )?(?:human )?(?:raters|annotators|"
    r"experts|labell?ers))\b",
    re.I,
)
_JUDGE = lazy(
    r"\b(human|humans|annotators?|raters?|experts?|crowd\w*|judges?|judgments?|labell?ers?|"
    r"evaluators?|preferences?)\b",
    re.I,
)
_QUALITATIVE_AGREE = lazy(
    r"\b(?:high|strong|excellent|close|near[- ]perfect|very good)\s+(?:agreement|alignment)\s+with\s+"
    r"(?:the\s+)?(?:human|expert|annotator|crowd)\w*",
    re.I,
)
_KAPPA = lazy(
    r"(\bkappa\b|κ|cohen|krippendorff|fleiss|scott'?s pi|\bICC\b|chance[- ]corrected)", re.I
)
_SWAP = lazy(
    r"\b(swap\w*|both orders?|order[- ]swapp\w*|position(?:al)? bias|reversed? order|"
    r"randomi[sz]ed (?:the )?order|both positions)\b",
    re.I,
)

# pass@k
_PASSK_PLUGIN = lazy(
    r"1\s*[-−–]\s*\(\s*1\s*[-−–]\s*(?:c\s*/\s*n|p̂|p\^|\\hat\{?p\}?|p|c_i\s*/\s*n|"
    r"(?:the )?(?:pass@1|pass rate|success rate)|num_correct\s*/\s*num_samples)\s*\)\s*"
    r"(?:\^|\*\*)\s*\{?(?:k|\d+)\}?",
    re.I,
)
_PASSK_UNBIASED = lazy(
    r"(C\s*\(\s*n\s*[-−]\s*c\s*,\s*k\s*\)|binom|biased|\bbias\b|jensen|underestimat\w*|comb\(|\\binom|"
    r"tempting|instead of|rather than|not the)",
    re.I,
)
_PASSK = lazy(r"\bpass\s*@\s*(\d+|k)\b", re.I)

# emergence
_EMERGE = lazy(
    r"\b(emerg(?:es|ed|ent|ence|ing)|sudden(?:ly)?|sharp(?:ly)? (?:transition|jump|increase|rise)|"
    r"phase transition|abrupt(?:ly)?|discontinu\w+|jump(?:s|ed)?,? (?:from|to|sharply|suddenly|abruptly)|"
    r"unpredictabl[ey]|"
    r"step[- ]change|takes? off|hockey[- ]stick)\b",
    re.I,
)
#: A citation of other work: "(Wei et al., 2022)", "(Brown et al. 2020; Kaplan et al. 2020)", "[12, 13]".
_CITED = lazy(
    r"\((?:[^()]*?\bet al\.?|[A-Z][\w-]+(?:\s+(?:and|&)\s+[A-Z][\w-]+)?),?\s*\d{4}[a-z]?(?:;[^()]*)?\)"
    r"|\[\d+(?:\s*[,–-]\s*\d+)*\]"
)
_DISCRETE_METRIC = lazy(
    r"\b(exact[- ]match|EM\b|exact[- ]string[- ]match|accuracy|pass@1|pass rate|solve rate|"
    r"multiple[- ]choice grade|all[- ]or[- ]nothing|0/1|binary (?:metric|score))",
    re.I,
)
_CONT_METRIC = lazy(
    r"\b(edit distance|brier|log[- ]?(?:likelihood|prob\w*)|cross[- ]entropy|token[- ]level|"
    r"per[- ]token|continuous metric|partial credit|calibrated probability|perplexity)\b",
    re.I,
)
_SCALE = lazy(
    r"\b(scales?|scaling|sizes?|parameters|parameter counts?|params|\d+(?:\.\d+)?\s*[BM]\b|FLOPs|compute|"
    r"larger models?|smaller models?|bigger models?|training (?:steps|tokens|compute)|checkpoints)",
    re.I,
)

# chance level
_CHANCE = lazy(
    r"(?:(?:chance|random)(?:[- ]level|[- ]guess\w*| baseline| performance| accuracy| chance)?"
    r"\s*(?:\w+\s+){0,3}?(?:of|is|=|at|:|\()?\s*(" + _UNUM + r")\s*%)|"
    r"(?:(" + _UNUM + r")\s*%\s*\(?(?:(?!(?:above|below|over|than|beats?)\b)\w+\s+){0,3}?(?:random|chance))",
    re.I,
)
_ROTATION = lazy(
    r"\b(rotat\w+|circular(?:eval)?|permut\w+|shuffl\w+|reorder\w*|option orders?|orderings?|"
    r"cyclic(?:ally)? shift\w*)\b",
    re.I,
)
_NEED = [
    lazy(
        r"\bmajority\s+(?:vote\s+)?(?:of|over|across)\s+(?:the\s+)?(" + _WORDNUM + r")\b", re.I
    ),
    lazy(
        r"\b(?:at least\s+)?(" + _WORDNUM + r")\s+(?:out\s+)?of\s+(?:the\s+)?(" + _WORDNUM + r")\s+"
        r"(?:rotations|permutations|orderings|shuffles|circular|passes)",
        re.I,
    ),
    lazy(
        r"\b(?:all|every one of the|each of the)\s+(" + _WORDNUM + r")\s+(?:rotations|permutations|"
        r"orderings|shuffles|circular\w*|option orders?|(?:shuffled|permuted|rotated) orders)",
        re.I,
    ),
    lazy(r"\bin\s+(?:all|every)\s+(?:rotations?|permutations?|orderings?)", re.I),
]
_OPTIONS = lazy(
    r"\b(" + _WORDNUM + r")[- ](?:option|choice|way|answer)s?\b|\b(" + _WORDNUM + r")\s+"
    r"(?:answer\s+)?(?:options|choices|candidates|alternatives)\b",
    re.I,
)

# generations
_PER_ITEM_EACH = lazy(
    r"(?:×|\bx|\*|\bby)\s*("
    + _WORDNUM
    + r")\s+(?:samples|completions|generations|responses|attempts|solutions)"
    r"|\b("
    + _WORDNUM
    + r")\s+(?:samples|completions|generations|responses|attempts|solutions)\s+each\b"
    # "Each of the 164 problems was sampled 10 times"
    r"|\b(?:sampled|generated|run|repeated|queried)\s+(" + _WORDNUM + r")\s+times\b",
    re.I,
)
_PER_ITEM = lazy(
    r"\b(" + _WORDNUM + r")\s+(?:samples|completions|generations|responses|attempts|solutions)\s+"
    # "for each of the 30 AIME 2024 problems": a benchmark's name of up to three words between
    r"(?:per|for each|for every|on each|each)\s+(?:of\s+(?:the\s+)?)?(?:\d[\d,]*\s+)?(?:[\w-]+\s+){0,3}?"
    r"(?:problem|question|item|prompt|task|example)s?",
    re.I,
)
_AS_ITEMS = lazy(
    r"\b(?:over|across|on|from|using)\s+(?:all\s+)?(?:the\s+)?(\d[\d,]*)\s+(?:\w+\s+)?"
    r"(?:samples|completions|generations|responses|attempts|solutions)\b|"
    r"\b[nN]\s*=\s*(\d[\d,]*)|treat\w*\s+(?:each|every|all)\s+(?:of\s+(?:the\s+)?)?(?:\d[\d,]*\s+)?"
    r"(?:sample|completion|generation|response)s?|as (?:an? )?independent (?:observation|item|sample|trial)s?",
    re.I,
)
#: Nouns for the generations drawn per item.
_GEN_NOUNS = r"(?:samples|completions|generations|responses|attempts|solutions)\b"
_GEN_COUNT = lazy(r"\b(\d[\d,]*)\s+" + _GEN_NOUNS, re.I)
_GEN_PRODUCT = lazy(r"\b(\d[\d,]*)\s*[×x*]\s*(\d[\d,]*)\s*=\s*(\d[\d,]*)\s+" + _GEN_NOUNS, re.I)
_SE_WORDS = lazy(
    r"(±|\+/-|standard error|\bSE\b|std\.? err|confidence interval|\bCI\b|95\s*%\s*intervals?|significan|"
    r"(?<![\w-])p\s*[<=])",
    re.I,
)

#: "Across the 25 tasks ... significantly better on 6": the count of tests comes first.
_MULTI_ACROSS = lazy(
    r"\b(?:across|on|over|of|in)\s+(?:the\s+|all\s+)?(" + _WORDNUM + r")\s+(?:[\w-]+\s+){0,3}?"
    r"(?:tasks|benchmarks|datasets|languages|subjects|categories|comparisons)\b[^.;]{0,60}?"
    r"\bsignificant\w*\s+(?:\w+\s+){0,3}?(?:on|for|in)\s+(?:only\s+)?(" + _WORDNUM + r")\b(?!\s*%)",
    re.I,
)
#: "On 20 benchmarks with separate t-tests; 2 differences were significant", "Of the 40
#: languages tested, 3 showed a significant gain": the count of tests first, then the count of
#: significant ones at the head of the next clause.
_MULTI_ACROSS_K = lazy(
    r"\b(?:across|on|over|of|in)\s+(?:the\s+|all\s+)?(" + _WORDNUM + r")\s+(?:[\w-]+\s+){0,3}?"
    r"(?:tasks|benchmarks|datasets|languages|subjects|categories|comparisons)\b[^.;]{0,60}?"
    r"[,;]\s*(" + _WORDNUM + r")\s+(?:of\s+(?:them|these)\s+)?(?:[\w-]+\s+){0,2}?"
    r"(?:a\s+)?significant",
    re.I,
)
_MULTI_SIG = lazy(
    r"\b(?:significant|p\s*<\s*0?\.\d+)\w*\s+(?:\w+\s+){0,4}?(?:on|for|in)\s+(" + _WORDNUM + r")\s+"
    r"(?:of|out of)\s+(?:the\s+)?("
    + _WORDNUM
    + r")\b|\b("
    + _WORDNUM
    + r")\s+(?:out\s+)?of\s+(?:the\s+)?("
    + _WORDNUM
    + r")\s+(?:\w+\s+){0,3}?(?:comparisons|tests|benchmarks|tasks|datasets|languages|"
    r"subjects|categories)\s+(?:\w+\s+){0,4}?(?:significant|p\s*<)",
    re.I,
)
_OUT_OF = lazy(
    r"\bout of ("
    + _WORDNUM
    + r")\s+(?:[\w-]+\s+){0,2}?(?:benchmarks|tasks|datasets|comparisons|tests|subjects|"
    r"languages)\b[^.;]{0,60}?(?:\b(?:on|in)\s+|,\s*)(" + _WORDNUM + r")\b[^.;]{0,40}?(?:p\s*<|significan)",
    re.I,
)
#: "We tested 20 prompt variants ... 2 of them significantly improve": k wins among n tries.
_TRIED_SIG = lazy(
    r"\b(?:tested|compared|tried|evaluated|ran|screened)\s+(" + _WORDNUM + r")\s+(?:[\w-]+\s+){0,2}?"
    r"(?:variants|prompts|configurations|settings|methods|strategies|interventions|ablations|"
    # "we ran 57 t-tests; 9 subjects improved significantly": the tests themselves, and the
    # clause after a semicolon that counts the significant ones.
    r"hyperparameters|recipes|templates|(?:t-|z-)?tests)\b(?:[^.;]|;\s){0,80}?\b(" + _WORDNUM + r")\s+"
    r"(?:of\s+(?:them|these|those)\s+)?"
    r"(?:\w+\s+){0,2}?(?:significant\w*|reach\w* significance)",
    re.I,
)
#: "We tested 15 prompt formats against the default; format 7 was significantly better": one
#: named winner among n tries.
_TRIED_ONE_SIG = lazy(
    r"\b(?:tested|compared|tried|evaluated|ran|screened)\s+(" + _WORDNUM + r")\s+(?:[\w-]+\s+){0,2}?"
    r"(variants|prompts|formats|configurations|settings|methods|strategies|templates|recipes)\b"
    r"(?:[^.;]|;\s){0,80}?\b(?:variant|prompt|format|configuration|setting|method|strategy|template|"
    r"recipe)\s+(?:#\s*)?[\w-]+\s+(?:was|is)\s+(?:\w+\s+)?significantly\b",
    re.I,
)
_NTESTS = lazy(
    r"\b(" + _WORDNUM + r")\s+(?:separate\s+|pairwise\s+|independent\s+|individual\s+)*"
    r"(?:significance\s+)?(?:tests|comparisons|hypothes[ie]s)\b",
    re.I,
)


# --- helpers ----------------------------------------------------------------------


_LEVEL_AFTER = lazy(
    r"\s*(?:CI|C\.I\.|conf\w*|credible|interval|level|bootstrap|of (?:the )?(?:time|cases|pairs))",
    re.I,
)


#: "achieves 57.3 pass@1 and surpasses Claude-Plus (+6.8), Bard (+15.3)": the own score once,
#: then leads in parentheses after the rivals a verb of superiority names.
_OWN_PASS = lazy(r"(?<![\w.])(\d{1,2}\.\d)\s*%?\s*(?:pass@1|accuracy)\b", re.I)
_PAREN_LEAD = lazy(
    r"\b(?:outperform\w*|surpass\w*|beat\w*|exceed\w*)\s+[^()]{1,80}?\(\s*\+\s*(\d{1,2}(?:\.\d)?)\s*\)", re.I
)
_PAREN_MORE = lazy(r"\(\s*\+\s*(\d{1,2}(?:\.\d)?)\s*\)")


def _paren_leads(
    text: str, a_val: str | None, b_val: str | None, delta: str | None, how: str | None
) -> tuple[str | None, str | None, str | None, str | None]:
    """The own score and the rival's implied by the smallest parenthesised lead, when the
    sentence states one own score ("57.3 pass@1") and leads only as "(+6.8)"."""
    own = _OWN_PASS.findall(text)
    first = _PAREN_LEAD.search(text)
    if len(set(own)) != 1 or first is None:
        return a_val, b_val, delta, how
    leads = [first.group(1)] + _PAREN_MORE.findall(text, first.end())
    lead = min(leads, key=float)
    rival = float(own[0]) - float(lead)
    if rival < 0:
        return a_val, b_val, delta, how
    return own[0], f"{rival:.{_decimals(own[0])}f}", lead, "value-delta"


def _values_pct(text: str) -> list[str]:
    """Percentages that are scores: not the level of an interval ("95% CI")."""
    # "80.4 ± 10.9%": the % is the score's and 10.9 its spread, so the score is 80.4.
    text = drop_spread(text)
    return [
        m.group(1)
        for m in re.finditer(r"(\d+(?:\.\d+)?)\s*%", text)
        if not _LEVEL_AFTER.match(text, m.end()) and not _DELTA_NOUN.match(text, m.start())
    ]


#: "the highest ... 95.9% ..., followed by Y (93.9%": the first two scores of a ranking.
_FOLLOWED_BY = lazy(
    r"\b(?:the\s+)?(?:highest|best|top)\b[^.;%]{0,80}?(?<![\d.])(?P<a>\d{1,3}(?:\.\d+)?)\s*%"
    r"(?:[^.;]|\.(?=\d)){0,50}?,?\s*followed\s+(?:closely\s+)?by\s+[^.;%(]{0,40}?\(?\s*(?:at\s+|with\s+)?"
    r"(?<![\d.])(?P<b>\d{1,3}(?:\.\d+)?)\s*%",
    re.I,
)


def _own_fraction_n(text: str, value: str) -> int | None:
    """The n of the one k/n count that the score ``value`` is the percentage of ("97.14%
    (34/35)"): the item count of the comparison."""
    found = [(int(m.group(1)), int(m.group(2).replace(",", ""))) for m in _FRACTION_PAIR.finditer(text)]
    if len(found) != 1 or not found[0][1]:
        return None
    k, n = found[0]
    return n if abs(100 * k / n - float(value)) < 0.1 else None


_FRACTION_PAIR = lazy(r"(?<![\d.,/])(\d{1,6})\s*/\s*(\d{1,3}(?:,\d{3})+|\d{1,6})(?![\d.,/%]|\s*%)")


def _two_fractions(text: str) -> tuple[str, str, int] | None:
    """The two scores of a sentence written as k/n of one n ("79/100 ... against 68/100"), as
    percentages in the order written, and n; None unless there are exactly two such counts."""
    found = [(int(m.group(1)), int(m.group(2).replace(",", ""))) for m in _FRACTION_PAIR.finditer(text)]
    if len(found) != 2 or found[0][1] != found[1][1] or found[0][1] < 5:
        return None
    n = found[0][1]
    if any(k > n for k, _ in found):
        return None
    return f"{100 * found[0][0] / n:.2f}", f"{100 * found[1][0] / n:.2f}", n


def _find_n(text: str) -> int | None:
    for rx in _N:
        for m in rx.finditer(text):
            n = to_int(m.group(1))
            if n and 1990 <= n <= 2039 and _NAME_BEFORE_YEAR.search(text[: m.start(1)]):
                continue  # "Each AIME 2024 problem": the year of a benchmark's name
            if n and n >= 5 and not CANDIDATES_BEFORE.search(text[: m.start(1)]):
                return n
    return None


#: A capitalised name right before a four-digit number: "AIME 2024", "HMMT 2025".
_NAME_BEFORE_YEAR = lazy(r"\b[A-Z][\w-]*\s+$")


def _benchmark(text: str, ctx: Context | None) -> tuple[str | None, int | None]:
    """The first registry benchmark named in ``text`` and its item count."""
    if ctx is None:
        return None, None
    try:
        from benchaudit.inputs.sentences import find_benchmarks

        found = find_benchmarks(text, ctx.benchmarks)
    except Exception:  # noqa: BLE001 - a broken registry must not stop text extraction
        return None, None
    if not found:
        return None, None
    b = min(found, key=lambda m: m.start).benchmark
    return b.name, b.n


def _location(sentence: Any) -> tuple[str, Location]:
    if isinstance(sentence, str):
        return sentence, Location("<text>")
    text = getattr(sentence, "text", None) or str(sentence)
    loc = getattr(sentence, "location", None)
    if loc is None:
        loc = Location(
            getattr(sentence, "path", "<text>"),
            getattr(sentence, "line", None),
            getattr(sentence, "column", None),
            getattr(sentence, "page", None),
        )
    return text, loc


def _norm(text: str) -> str:
    # Unicode minus and the like would hide numbers from the patterns.
    return (
        text.replace("\u2212", "-")
        .replace("\u00a0", " ")
        .replace("\u2009", " ")
        .replace("≦", "≤")
        .replace("＜", "<")
        .replace("p\u02c6", "p\u0302")
        .replace("\u02c6p", "p\u0302")
    )


# --- the comparison claim ---------------------------------------------------------


def _stats(text: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for m in _STAT_T.finditer(text):
        out.append(
            {"test": "t", "value": m.group(2), "df": [float(m.group(1))], "text": m.group(0)}
        )
    for m in _STAT_F.finditer(text):
        out.append(
            {
                "test": "F",
                "value": m.group(3),
                "df": [float(m.group(1)), float(m.group(2))],
                "text": m.group(0),
            }
        )
    for m in _STAT_CHI.finditer(text):
        out.append(
            {"test": "chi2", "value": m.group(2), "df": [float(m.group(1))], "text": m.group(0)}
        )
    if not any(s["test"] == "chi2" for s in out):
        for m in _STAT_CHI_DF_AFTER.finditer(text):
            out.append(
                {"test": "chi2", "value": m.group(1), "df": [float(m.group(2))], "text": m.group(0)}
            )
    if not any(s["test"] == "chi2" for s in out) and re.search(r"mcnemar", text, re.I):
        for m in _STAT_CHI_NODF.finditer(text):
            out.append({"test": "chi2", "value": m.group(1), "df": [1.0], "text": m.group(0)})
    for m in _STAT_R.finditer(text):
        out.append(
            {"test": "r", "value": m.group(2), "df": [float(m.group(1))], "text": m.group(0)}
        )
    for m in _STAT_Z.finditer(text):
        out.append({"test": "z", "value": m.group(1), "df": [], "text": m.group(0)})
    out.sort(key=lambda s: text.find(s["text"]))
    return out


def _pvalues(text: str) -> list[dict[str, Any]]:
    out = []
    for m in _P_VALUE.finditer(text):
        raw = re.sub(r"\s+", "", m.group(2)).replace("−", "-")
        sci = re.match(r"(\d*\.?\d+)[x×·*]10\^?(-?\d+)", raw)
        value = f"{float(sci.group(1)) * 10 ** int(sci.group(2)):.3g}" if sci else raw
        if value.startswith("."):
            value = "0" + value
        try:
            if not 0 <= float(value) <= 1:
                continue
        except ValueError:
            continue
        op = {"≤": "<=", "≥": ">=", "≈": "=", "~": "="}.get(m.group(1), m.group(1))
        out.append({"op": op, "value": value, "text": m.group(0), "sci": bool(sci)})
    return out


#: Parity said of scores: "similar accuracy", "broadly comparable performance".
_PARITY_OF_SCORES = lazy(
    r"\b(?:similar|comparable|equivalent|the same)\s+(?:[\w-]+\s+){0,2}?(?:accuracy|performance|scores?|results)\b",
    re.I,
)


def _null_in_own_clause(text: str, pos: int, first: bool = False) -> bool:
    """Whether the word at ``pos`` sits in a contrasting clause of its own that states only p-values
    at or above 0.05 and no claim of significance; with ``first``, the sentence's first clause
    counts too when a contrasting one follows it ("comparable to ... (P = 0.608) but lower than
    ... (all P ≤ 0.005)")."""
    from benchaudit.inputs.clauses import clause_of, contrast_clause

    clause = clause_of(text, pos) if first else contrast_clause(text, pos)
    if clause is None or _SIG.search(clause):
        return False
    ps = _pvalues(clause)
    return bool(ps) and all(_p_not_below(p) for p in ps)


def _mixed_significance(text: str, not_sig: re.Match[str]) -> bool:
    """A sentence that calls one thing significant and another not, with a p-value after the
    significant one and before the null ("a significant predictor (P = .022), whereas question length ... were not
    significantly associated"): the p is not that of the null."""
    positive = [
        m
        for m in _SIG.finditer(text)
        if not not_sig.start() <= m.start() < not_sig.end()
        and "significant" in m.group(1).lower()
        and not re.search(r"\b(?:no|not|non-?)\s*(?:statistically\s+)?$", text[: m.start()], re.I)
    ]
    if not positive:
        return False
    at = positive[0].end()
    return any(at <= m.start() < not_sig.start() for m in _P_VALUE.finditer(text))


def _decimals(text: str) -> int:
    return len(text.split(".", 1)[1]) if "." in text else 0


def _p_not_below(p: dict[str, Any], alpha: float = 0.05) -> bool:
    """A reported p that is at or above alpha for every value that rounds to it."""
    value = float(p["value"])
    if p["op"] in (">", ">="):
        return value >= alpha
    if p["op"] != "=":
        return False
    digits = len(p["value"].split(".", 1)[1]) if "." in p["value"] else 0
    return bool(value - 0.5 * 10**-digits >= alpha)


class _StatedInterval(TypedDict, total=False):
    """An interval in a sentence: ``lo``, ``hi`` and its ``level``, or ``value`` ± ``pm``;
    ``pos`` is where it starts."""

    lo: str
    hi: str
    level: str
    value: str
    pm: str
    pos: int


def _intervals(text: str) -> list[_StatedInterval]:
    out: list[_StatedInterval] = []
    spans: list[tuple[int, int]] = []
    for m in _INTERVAL.finditer(text):
        out.append(
            {"lo": m.group(2), "hi": m.group(3), "level": m.group(1) or "", "pos": m.start()}
        )
        spans.append(m.span())
    for m in _BRACKET.finditer(text):
        if any(a <= m.start() < b for a, b in spans):
            continue
        lo, hi = m.group(1), m.group(2)
        if "." not in lo + hi and (m.group(0).lstrip()[:1] == "[" or float(lo) > float(hi)):
            continue  # "[92, 78]": citation numbers, not an interval
        out.append({"lo": lo, "hi": hi, "level": "", "pos": m.start()})
    for m in _PLUSMINUS.finditer(text):
        out.append({"value": m.group(1), "pm": m.group(2), "pos": m.start()})
    for m in _ASYMMETRIC.finditer(text):
        # "1287 (95% CI +9/−8)": a rating's interval as the distances above and below it.
        v, up, down = float(m.group(1)), float(m.group(2)), float(m.group(3))
        out.append({"lo": f"{v - down:g}", "hi": f"{v + up:g}", "level": "95", "pos": m.start()})
    out.sort(key=lambda d: d["pos"])
    return out


_ASYMMETRIC = lazy(
    r"(?<![\w.])(\d{3,4}(?:\.\d+)?)\s*\((?:95\s*%\s*CI:?\s*)?\+(\d+(?:\.\d+)?)\s*/\s*[−–-](\d+(?:\.\d+)?)\)"
)


_ARROW = lazy(r"(?<![\d.])(" + _UNUM + r")\s*%?\s*(?:→|->|=>|⟶|⇒)\s*(" + _UNUM + r")\s*%?")


_SAID_VS = lazy(r"\bvs\.?\b|versus|\bahead of\b")


def _pair(text: str) -> tuple[str | None, str | None, str]:
    """(first, second, how) scores being compared: "from x to y" (before, after)
    or "x vs y" (claimed better, baseline)."""
    m = _ARROW.search(text)
    if m:
        return m.group(1), m.group(2), "from-to"
    m = _FROM_TO.search(text)
    if m and not re.search(
        r"\bfrom\s+" + re.escape(m.group(1)) + r"\s+(?:to\s+)?\d+\s*(?:B|M)\b", text
    ):
        return m.group(1), m.group(3), "from-to"
    m = _PAREN_PAIR.search(text)
    if m:
        return m.group(1), m.group(2), "paren"
    m = _RIVAL_AT.search(text)
    if m:
        return m.group(1), m.group(2), "two-values"
    from benchaudit.inputs.named_pairs import named_pair
    from benchaudit.inputs.pair_lists import nearest_of_pairs

    listed = nearest_of_pairs(text)
    if listed is not None:
        return listed[0], listed[1], "vs"  # "A (73.2 vs. 67.0), B (73.2 vs. 72.5)": the nearest rival
    named = named_pair(text)
    if named is not None:
        return named[0], named[1], "vs"  # "84.8 for A vs 83.1 for B": the first is the one claimed
    # The first "x vs y" that reads as a pair: "(April 2024) and GPT-4o ... (90.9% vs. 90.2%)"
    # first matches "2024) and GPT-4", which is no pair, and the pair comes after it.
    m = next((v for v in _VS.finditer(text) if v.group("xu") or v.group("yu") or _SAID_VS.search(v.group(0))), None)
    if m:
        verb = _BETTER.search(text) or _EQUIV.search(text) or _WORSE.search(text)
        rivals = verb is not None and m.start() > verb.start() and not re.search(
            r"\bvs\.?\b|versus|compared|against|relative|\bover\b|\bahead of\b|\babove\b", m.group(0)
        )
        if not rivals:  # "exceeds X (18.4%) and Y (19.4%)": two rivals, not a pair
            return m.group("x"), m.group("y"), "vs"
    # A margin ("a 3.6% improvement over Y") is no second score.
    found = [m for m in re.finditer(r"\b(\d{1,3}(?:\.\d+)?)\s*%", text) if not _DELTA_NOUN.match(text, m.start())]
    compared = re.search(r"\b(compared (?:to|with)|relative to|versus|vs\b|against)", text, re.I)
    verb = _BETTER.search(text) or _EQUIV.search(text) or _WORSE.search(text) or compared
    if verb is not None and _KEEPS.match(verb.group(0)):
        verb = None  # "87.89% sparsity, 84% fewer FLOPs, while maintaining performance": no pair
    if len(found) == 2 and verb and found[0].start() < verb.start():
        return found[0].group(1), found[1].group(1), "two-values"
    if len(found) == 3 and verb:
        # "a score of 94.61% ..., a 0.13% improvement over the previous best score of 94.48%":
        # a score, its lead and the rival's score, the lead their difference in points.
        x, d, y = (float(f.group(1)) for f in found)
        if d > 0 and abs((x - y) - d) < 1e-6 + 10 ** -_decimals(found[1].group(1)) / 2:
            return found[0].group(1), found[2].group(1), "two-values"
    m = re.search(
        r"\((\d{1,3}\.\d+)\)[^()]{1,80}?\((\d{1,3}\.\d+)\)", text
    )  # "A (73.0) ... B (70.0)"
    verb = _BETTER.search(text) or _EQUIV.search(text)
    if m and verb and m.start() < verb.start():
        return m.group(1), m.group(2), "two-values"
    # Two values after the verb ("exceeds X (18.4%) and Y (19.4%)") are both the rivals'.
    return None, None, ""


def _direction_of_pair(text: str, a: str, b: str, direction: str) -> str | None:
    """The direction of the verb that governs the second score of a pair: the last
    comparison word between the two. "69% ..., closely approaching GPT-3.5 (70.0%),
    surpassing Llama 3": the pair is 69 against GPT-3.5's 70.0 under "approaching", and
    "surpassing" is said of a rival with no score; reading it as a lead of 70.0 over 69
    gives the lead to the wrong side."""
    first = re.search(r"(?<![\d.])" + re.escape(a) + r"(?![\d.]\d)", text)
    if first is None:
        return direction
    second = re.search(r"(?<![\d.])" + re.escape(b) + r"(?![\d.]\d)", text[first.end() :])
    if second is None:
        return direction
    between = text[first.end() : first.end() + second.start()]
    last: tuple[int, str] | None = None
    for kind, rx in (("better", _BETTER), ("worse", _WORSE), ("equal", _EQUIV), ("approach", _APPROACH)):
        for m in rx.finditer(between):
            if last is None or m.start() >= last[0]:
                last = (m.start(), kind)
    if last is None or last[1] == "better":
        return direction
    # At or below the rival: a deficit ("trails") keeps its direction; nearness or parity
    # ("approaching", "matching", said next to a superiority over someone else) claims no lead.
    return "worse" if last[1] == "worse" else None


#: "maintains / preserves / retains (its) performance": said of one model's score, not a pair.
_KEEPS = lazy(r"(?:preserv|retain|maintain)", re.I)

_OURS = lazy(r"\b(our|ours|we|proposed|this work|the new)\b", re.I)
_TEST_WORDS = lazy(
    r"\b(signific\w*|tests?|p-?values?|mcnemar|bootstrap|permutation|chi|wilcoxon|anova|regression|"
    r"null hypothesis)\b",
    re.I,
)
_CHEAP = (
    "=",
    "<",
    ">",
    "≤",
    "≥",
    "signific",
    "overlap",
    "discordant",
    "disagree",
    "differ",
    "test",
    "right on",
    "fixes",
    "wins",
    "n.s.",
    "vs",
    "versus",
    "compared",
    "relative to",
    "points",
    " pp",
    " from ",
    "interval",
    "separate",
    "compare",
    " CI",
)


def _comparison(text: str, loc: Location, ctx: Context | None, context: str = "") -> Claim | None:
    low = text.lower()
    if not _has(low, _CHEAP) and not (
        _BETTER.search(text) or _WORSE.search(text) or _EQUIV.search(text) or "followed by" in low
    ):
        return None
    pvals = _pvalues(text)
    stats = _stats(text)
    disc = None
    for rx in _DISCORDANT:
        m = rx.search(text)
        if m:
            c_raw = m.group(2).lower()
            c = 0 if c_raw in ("none", "no") else to_int(c_raw)
            b = to_int(m.group(1))
            if b is not None and c is not None:
                disc = [b, c]
                break
    disagree = None
    m = _DISAGREE.search(text)
    if m:
        disagree = to_int(m.group(1) or m.group(2))
    a_val, b_val, how = _pair(text)
    delta = None
    delta_unit = None
    dm = _DELTA.search(text) or _DELTA_PTS.search(text) or _DELTA_NOUN.search(text)
    if dm is None and _BETTER.search(text) and len(_values_pct(text)) == 1:
        dm = _DELTA_BARE.search(text)
    if dm and not re.search(r"relative", text[dm.end() : dm.end() + 20], re.I):
        sign = "-" if dm.group(1) in ("−", "–", "-") else ""
        delta = sign + dm.group(2)
        delta_unit = dm.group(3).lower() or "points"
    vals = _values_pct(text)
    led_by = dm is not None and dm.group(1).lower().startswith("by") and delta is not None
    if dm is not None and led_by and how == "two-values" and dm.group(2) in (a_val, b_val):
        # "achieves 57.7%, surpassing the human baseline by 4%": the 4% is the lead, not a score.
        lead = dm.group(2)
        a_val = b_val = None
        how = ""
        vals = [v for v in vals if v != lead]
    if dm is not None and a_val is None and delta and len(vals) == 1 and not delta.startswith("-"):
        # "reaches 64.0%, 1.2 points higher than B": B scored 62.8%.
        higher = (
            re.search(
                r"\b(higher|more|above|over|ahead|better|improvement|gain|up)\b",
                text[dm.end() : dm.end() + 40],
                re.I,
            )
            or dm.group(1).strip() == "+"
            # "surpassing the human baseline by 4%": the lead verb comes before "by".
            or (led_by and _BETTER.search(text[max(0, dm.start() - 60) : dm.start()]))
        )
        if higher and vals[0] != dm.group(2):
            before = float(vals[0]) - float(delta)
            if before >= 0:
                a_val, b_val, how = vals[0], f"{before:.{_decimals(vals[0])}f}", "value-delta"
    if dm is None and a_val is None:
        a_val, b_val, delta, paren_how = _paren_leads(text, a_val, b_val, delta, how)
        how = paren_how if paren_how is not None else how
        if how == "value-delta":
            delta_unit = "points"
    pair_n = None
    followed = _FOLLOWED_BY.search(text) if a_val is None else None
    if followed is not None:
        # "achieved the highest accuracy (95.9%, ...), followed by Claude Opus 4 (93.9%, ...)":
        # a ranking, the lead of the first over the second.
        a_val, b_val, how = followed.group("a"), followed.group("b"), "vs"
        pair_n = _own_fraction_n(text, a_val)
    if a_val is None and b_val is None and not _values_pct(text):
        # "answered 79/100 questions correctly against 68/100": two counts of one test set.
        pair = _two_fractions(text)
        if pair is not None:
            a_val, b_val, pair_n = pair
            how = "two-values"
    not_sig = _NOT_SIG.search(text)
    sig = None
    if not_sig:
        sig = None if pvals and _mixed_significance(text, not_sig) else "no"
    elif _SIG.search(text) and not re.search(
        r"\bsignificant(?:ly)? (?:more|larger|fewer) (?:data|compute|parameters)", text, re.I
    ):
        sig = "yes"
    sig_from = "words" if sig else None
    if sig is None and pvals and all(_p_not_below(p) for p in pvals):
        # "p > 0.05", or "p = 0.21" next to a named test, with no claim of significance
        # ("at p = 0.9, exact match is 0.9^30" is a probability, not a p-value).
        if (
            any(p["op"] in (">", ">=") for p in pvals)
            or _TEST_WORDS.search(text)
            or _EQUIV.search(text)
        ):
            sig, sig_from = "no", "p"
    better = _BETTER.search(_PURPOSE.sub(" ", text)) or followed
    worse = _WORSE.search(text)
    equiv = _EQUIV.search(text)
    sup = re.search(r"\b(?:exceed\w*|outperform\w*|surpass\w*|better than|beats?)\b", text, re.I)
    if equiv and sup:
        null_first = (
            equiv.end() <= sup.start()
            and pvals
            and all(_p_not_below(p) for p in pvals)
            and all(equiv.end() <= m.start() < sup.start() for m in _P_VALUE.finditer(text))
        )
        if null_first:
            # "A and B were equivalent (P=0.963), C outperformed both": the p is the first
            # clause's, a null read as equality; the later lead states no number of its own.
            better = None
        else:
            equiv = None  # "maintains strong performance, exceeding X": a superiority claim
    if equiv and sig == "yes" and _null_in_own_clause(text, equiv.start()):
        # "significantly longer responses (p < 0.001), whereas response time was comparable
        # (p = 0.29)": the significance is the first clause's; the parity is read from a null.
        sig, sig_from, better = "no", "clause", None
    elif equiv and sig is None and pvals and _null_in_own_clause(text, equiv.start(), first=True):
        # Mixed p-values: the parity word's own clause holds only the null ones.
        sig, sig_from = "no", "clause"
    if (
        equiv
        and sig is None
        and not (better or worse)
        and context
        and _NOT_SIG.search(context)
        and _PARITY_OF_SCORES.search(text)
    ):
        # "There was no statistically significant difference ... (p = 0.298). ... LRMs and LLMs
        # exhibited similar accuracy": the paragraph's null read as equality.
        sig, sig_from = "no", "paragraph"
    overlap_null = _OVERLAP_NULL.search(text)
    overlap_sig = _OVERLAP_SIG.search(text)
    unpaired = _UNPAIRED_TEST.search(text)
    if unpaired is None and pvals and context:
        # "... using two-tailed t-tests with unequal variance to compare X and Y. X answered
        # 57.14% (p < 0.018) ...": the p-values are those of the test the paragraph named before.
        unpaired = _UNPAIRED_TEST.search(context)
    shared = bool(_SAME_ITEMS.search(text)) or bool(
        unpaired and _ITEMS_GIVEN_TO_BOTH.search(context + " " + text)
    )
    paired = _PAIRED_TEST.search(text)
    intervals = _intervals(text)
    ntests = _NTESTS.search(text)
    multi = _MULTI_SIG.search(text)
    every = _EVERY.search(text)
    implicit = (
        a_val is not None
        and b_val is not None
        and not (better or worse or equiv)
        and sig != "no"  # "we found no significant difference (14/20 vs 11/20)" claims no gain
        and _OURS.search(text)
        and re.search(r"\b(compared (?:to|with)|relative to|versus|vs\.?|against)", text, re.I)
    )
    if implicit and a_val is not None and b_val is not None:
        # "our model achieves 73.0% compared to 70.0%": an implied improvement
        better_value = max(float(a_val), float(b_val))
        implied_better = better_value > min(float(a_val), float(b_val))
    else:
        implied_better = False
    has_signal = (
        pvals
        or stats
        or disc
        or disagree
        or sig
        or overlap_null
        or overlap_sig
        or unpaired
        or (a_val is not None and (better or worse or equiv or how != "two-values"))
        or (delta and (better or worse))
        or (
            equiv
            and (
                better
                or worse
                or not_sig
                or sig_from == "paragraph"
                or re.search(r"quanti[sz]\w*|distill\w*|compress\w*|prun\w*", text, re.I)
            )
        )
        or (every and (better or worse))
        or implied_better
        or (
            sum(1 for iv in intervals if "lo" in iv or "pm" in iv) >= 2
            and (better or worse or equiv)
        )
    )
    if not has_signal:
        return None
    bench, bench_n = _benchmark(text, ctx)
    if (
        disc
        and a_val is not None
        and {to_int(a_val.split(".")[0]), to_int((b_val or "").split(".")[0] or "x")} == set(disc)
    ):
        a_val = b_val = None  # "(90 vs 70)" were the discordant counts, not two scores
        how = ""
    n = _find_n(text) or pair_n
    if n is not None and disc and (n in disc or n == sum(disc)):
        n = None  # "right on 90 items where B was wrong" counts discordant items, not the test set
    n_source = "sentence" if n else None
    # The sentence's own count, then its benchmark, then the paragraph's count or benchmark.
    if n is None and bench_n:
        n, n_source = bench_n, "registry"
    if n is None and context and not (bench is None and _AGGREGATE_TALK.search(text)):
        # (a sentence about an aggregate names its own benchmark or takes none from before)
        n = _find_n(context)
        n_source = "paragraph" if n else None
        if bench is None:
            bench, ctx_n = _benchmark(context, ctx)
            if n is None and ctx_n:
                n, n_source = ctx_n, "registry"
    direction = None
    if equiv and not (better and better.start() < equiv.start() and not not_sig):
        direction = "equal"
    elif better:
        direction = "better"
    elif worse:
        direction = "worse"
    if (how == "value-delta" or implied_better) and direction is None:
        direction = "better"
    if direction == "better" and a_val is not None and b_val is not None and how in ("two-values", "paren"):
        direction = _direction_of_pair(text, a_val, b_val, direction)
    if direction in ("better", "worse") and _NO_CLAIM.search(text):
        rest = _NO_CLAIM.sub(" ", text)
        if not (_BETTER.search(_PURPOSE.sub(" ", rest)) or _WORSE.search(rest)):
            direction = None  # every comparison word is in a denial or a question
    fields: dict[str, Any] = {
        "a_value": a_val,
        "b_value": b_val,
        "pair": how,
        "delta": delta,
        "direction": direction,
        "verb": verb.group(0) if (verb := equiv or better or worse) else None,
        "equivalence": equiv.group(0) if equiv else None,
        "significant": sig,
        "significant_from": sig_from,
        "pvalues": pvals,
        "stats": stats,
        "discordant": disc,
        "disagreements": disagree,
        "intervals": intervals,
        "unpaired_test": unpaired.group(0) if unpaired else None,
        "paired_test": paired.group(0) if paired else None,
        "same_items": shared,
        "overlap": (
            "null"
            if overlap_null and not overlap_sig and (equiv or not_sig or _OVERLAP_SAME.search(text))
            else ("sig" if overlap_sig else None)
        ),
        "one_sided": bool(_ONE_SIDED.search(text)),
        "hedged": bool(_HEDGED.search(text)),
        "correction": bool(_CORRECTION.search(text)),
        "n_tests": to_int(ntests.group(1)) if ntests else None,
        "every": bool(every),
        "values_pct": _values_pct(text),
        # The paragraph's sentences before this one: what "these benchmarks" refers back to.
        "before": context,
    }
    across = None if multi else _MULTI_ACROSS.search(text)
    if multi:
        g = [x for x in multi.groups() if x]
        if len(g) >= 2:
            fields["sig_of"] = [to_int(g[0]), to_int(g[1])]
    elif across:
        fields["sig_of"] = [to_int(across.group(2)), to_int(across.group(1))]
    elif across_k := _MULTI_ACROSS_K.search(text):
        fields["sig_of"] = [to_int(across_k.group(2)), to_int(across_k.group(1))]
    elif om := _OUT_OF.search(text):
        fields["sig_of"] = [to_int(om.group(2)), to_int(om.group(1))]
    elif tm := _TRIED_SIG.search(text):
        fields["sig_of"] = [to_int(tm.group(2)), to_int(tm.group(1))]
    elif one := _TRIED_ONE_SIG.search(text):
        fields["sig_of"] = [1, to_int(one.group(1))]
    conf = Confidence.HIGH
    if a_val is not None and how == "two-values":
        conf = Confidence.MEDIUM
    if how == "value-delta":
        # A "%" lead may be relative, unless the rival's score it leaves is one the text states
        # ("human experts achieving only 53.7%" ... "57.7%, surpassing the human baseline by 4%").
        stated = b_val is not None and re.search(
            r"(?<![\d.])" + re.escape(b_val) + r"(?![\d])", context + " " + text[: dm.start() if dm else 0]
        )
        conf = Confidence.LOW if delta_unit == "%" and not stated else Confidence.MEDIUM
    if implied_better:
        conf = Confidence.MEDIUM
    if a_val is None and not (pvals or stats or disc):
        conf = Confidence.MEDIUM
    return Claim(
        kind="comparison",
        text=text,
        location=loc,
        confidence=conf,
        value=a_val,
        unit="%" if "%" in text else None,
        benchmark=bench,
        n=n,
        n_source=n_source,
        fields=fields,
    )


# --- the other claim kinds ----------------------------------------------------------


def _selection(text: str, loc: Location, ctx: Context | None) -> Claim | None:
    for i, rx in enumerate(_SELECT):
        m = rx.search(text)
        if not m:
            continue
        groups = m.groups()
        noun_first = i in (3, len(_SELECT) - 1)  # patterns that name the candidates before k
        k_raw = groups[1] if noun_first else groups[0]
        what = (
            groups[0]
            if noun_first
            else (groups[1] if len(groups) > 1 and groups[1] else "candidates")
        )
        if i == len(_SELECT) - 1:
            what += "s"  # "the checkpoint with the best score among the 15": best of 15 checkpoints
        after = text[m.end() : m.end() + 40].lower()
        if what.lower() == "samples" or re.match(
            r"\s*(?:sampling|samples|decoding|generations?|reranking|"
            r"responses|completions|with a (?:reward|verifier))",
            after,
        ):
            continue  # best-of-n sampling at inference is a method, not selection on the test set
        if i == 0 and "-" in m.group(0)[:8] and not (len(groups) > 1 and groups[1]):
            # A bare "best-of-64" (hyphenated, no candidates named) is most often a per-problem choice among samples (by a reward
            # model or a vote): it names no candidates chosen on the test set.
            continue
        k = to_int(k_raw)
        if not k or k < 2:
            continue
        bench, bench_n = _benchmark(text, ctx)
        n = _find_n(text) or bench_n
        vals = _values_pct(text)
        return Claim(
            kind="selection",
            text=text,
            location=loc,
            confidence=Confidence.HIGH if i in (0, 1, 3) else Confidence.MEDIUM,
            value=vals[0] if vals else None,
            benchmark=bench,
            n=n,
            n_source="sentence" if _find_n(text) else ("registry" if bench_n else None),
            fields={
                "k": k,
                "what": what.lower(),
                "validation": bool(_VALIDATION.search(text)),
            },
        )
    return None


def _seeds(text: str, loc: Location) -> Claim | None:
    m = _SEEDS.search(text)
    if not m:
        return None
    k = to_int(m.group(1))
    if not k or k < 2:
        return None
    pm = _PLUSMINUS.search(text)
    iv = [d for d in _intervals(text) if "lo" in d]
    return Claim(
        kind="seeds",
        text=text,
        location=loc,
        confidence=Confidence.HIGH if (pm or iv) else Confidence.MEDIUM,
        value=pm.group(1) if pm else None,
        plus_minus=pm.group(2) if pm else None,
        interval=(iv[0]["lo"], iv[0]["hi"]) if iv else None,
        fields={
            "k": k,
            "unit": m.group(2).lower(),
            "z196": bool(_Z196.search(text)),
            "t_quantile": bool(_TQUANT.search(text)),
            "ci95": bool(_CI95.search(text)),
            "sd": bool(re.search(r"\b(sd|s\.d\.|std|standard deviation|σ|stdev)\b", text, re.I)),
            "se": bool(re.search(r"\b(se|s\.e\.|standard error|sem)\b", text, re.I)),
        },
    )


def _agreement(text: str, loc: Location) -> Claim | None:
    if not _JUDGE.search(text) or not _JUDGE_MODEL.search(text) or _INTER_HUMAN.search(text):
        return None
    for rx in _AGREE:
        m = rx.search(text)
        if m:
            judge = re.search(
                r"\b(LLM|GPT|judge|automatic|auto-?rater|evaluator|Claude|Gemini|"
                r"grader|reward model)\b",
                text,
                re.I,
            )
            return Claim(
                kind="agreement",
                text=text,
                location=loc,
                confidence=Confidence.HIGH if judge else Confidence.MEDIUM,
                value=m.group(1),
                unit="%",
                fields={"kappa": bool(_KAPPA.search(text)), "swap": bool(_SWAP.search(text))},
            )
    q = _QUALITATIVE_AGREE.search(text)
    if q and re.search(r"\b(?:LLM|GPT[\w.-]*|judges?|automatic|auto-?raters?|evaluators?|graders?)\b", text, re.I):
        # "an automatic evaluator that has high agreement with humans": agreement with no figure.
        return Claim(
            kind="agreement",
            text=text,
            location=loc,
            confidence=Confidence.MEDIUM,
            fields={
                "kappa": bool(_KAPPA.search(text)),
                "swap": bool(_SWAP.search(text)),
                "qualitative": q.group(0),
            },
        )
    return None


def _passk(text: str, loc: Location) -> Claim | None:
    m = _PASSK_PLUGIN.search(text.replace(" ", " "))
    if not m:
        return None
    return Claim(
        kind="pass-at-k",
        text=text,
        location=loc,
        confidence=Confidence.HIGH if _PASSK.search(text) else Confidence.MEDIUM,
        fields={"formula": m.group(0), "unbiased_named": bool(_PASSK_UNBIASED.search(text))},
    )


def _is_title(text: str) -> bool:
    """Title Case text (a paper, post or section title), not a sentence that claims something."""
    words = [w for w in re.findall(r"[A-Za-z][A-Za-z\-']+", text) if len(w) >= 4]
    if len(words) < 3:
        return False
    capitals = sum(1 for w in words if w[0].isupper())
    return capitals >= 0.6 * len(words)


def _emergence(text: str, loc: Location) -> Claim | None:
    m = _EMERGE.search(text)
    if not m:
        return None
    if not _SCALE.search(text):
        return None  # "emerged with new behaviours" is not a claim about scale
    if _is_title(text):
        return None  # "Blog: 7B Model and 8K Examples: Emerging Reasoning ..." names a post
    if re.search(r"\bemergence\s+of\s+(?:numerous|many|new|various|several|recent|more)\b", text, re.I):
        return None  # "the emergence of numerous models": a trend in the field, not a metric's jump
    if re.search(r"\bemerg(?:es|ed|ing)\s+as\b", m.group(0) + text[m.end() : m.end() + 4], re.I):
        return None  # "emerges as the best-performing model": turns out, not an emergent ability
    if _CITED.search(text) and not re.search(r"\d", _CITED.sub("", text)):
        return None  # "... exhibit emergent capabilities (Wei et al., 2022)": background, no result
    metric = _DISCRETE_METRIC.search(text)
    scale = _SCALE.search(text)
    return Claim(
        kind="emergence",
        text=text,
        location=loc,
        confidence=Confidence.HIGH
        if (metric and scale)
        else (Confidence.MEDIUM if metric or scale else Confidence.LOW),
        fields={
            "word": m.group(0),
            "metric": metric.group(0) if metric else None,
            "continuous": bool(_CONT_METRIC.search(text)),
            "scale": bool(scale),
        },
    )


#: Two-way items: "true/false", "yes/no", "binary" questions.
_TWO_WAY = lazy(r"\b(?:true[/-]false|yes[/-]no|binary|dichotomous)\b(?=\s+(?:[\w-]+\s+){0,2}?"
                r"(?:items?|questions?|tasks?|answers?|classification|choices?|benchmarks?|tests?|exams?|"
                r"questionnaires?|format))", re.I)


def _chance(text: str, loc: Location) -> Claim | None:
    cm = _CHANCE.search(text)
    rot = _ROTATION.search(text)
    if cm and not rot:
        return _single_chance(text, loc, cm)
    if not cm or not rot:
        return None
    stated = cm.group(1) or cm.group(2)
    m_rot = need = None
    for i, rx in enumerate(_NEED):
        m = rx.search(text)
        if not m:
            continue
        if i == 0:
            m_rot = to_int(m.group(1))
            need = m_rot // 2 + 1 if m_rot else None
        elif i == 1:
            need, m_rot = to_int(m.group(1)), to_int(m.group(2))
        elif i == 2:
            m_rot = to_int(m.group(1))
            need = m_rot
        else:
            need = -1  # "all rotations", count from the options
        break
    om = _OPTIONS.search(text)
    options = to_int(om.group(1) or om.group(2)) if om else None
    if need == -1:
        m_rot = need = options
    if (
        m_rot is None
        and options
        and re.search(r"\bcircular|all (?:rotations|permutations)", text, re.I)
    ):
        m_rot = need = options
    if options is None and stated:
        # "25% chance" implies four options
        try:
            v = float(stated)
            if v > 0 and abs(100 / v - round(100 / v)) < 1e-6:
                options = round(100 / v)
        except ValueError:
            pass
    return Claim(
        kind="chance-level",
        text=text,
        location=loc,
        confidence=Confidence.HIGH if (m_rot and need and options) else Confidence.LOW,
        value=stated,
        unit="%",
        fields={"rotations": m_rot, "needed": need, "options": options, "procedure": rot.group(0)},
    )


def _single_chance(text: str, loc: Location, cm: re.Match[str]) -> Claim | None:
    """A chance level stated for single-asking items whose option count the sentence states
    ("the 4-option questions ... the 50% chance level", "true/false items ... 25% chance"):
    the chance of one guess is 1/k."""
    said = cm.group(0)
    if not re.search(r"chance|random[- ](?:guess\w*|baseline|performance|accuracy|chance)", said, re.I):
        return None  # "a random 10% subset"
    if re.match(r"\s*(?:level\s+)?(?:of|that|to)\b", text[cm.end() :], re.I):
        return None  # "a 30% chance of solving": a probability, not the guessing baseline
    om = _OPTIONS.search(text)
    options = to_int(om.group(1) or om.group(2)) if om else (2 if _TWO_WAY.search(text) else None)
    stated = cm.group(1) or cm.group(2)
    if not options or not stated or options < 2:
        return None
    return Claim(
        kind="chance-level",
        text=text,
        location=loc,
        confidence=Confidence.MEDIUM,
        value=stated,
        unit="%",
        fields={"rotations": 1, "needed": 1, "options": options, "procedure": "single asking"},
    )


def _generations(text: str, loc: Location, ctx: Context | None) -> Claim | None:
    m = _PER_ITEM.search(text)
    product = _GEN_PRODUCT.search(text)
    if m is not None:
        k = to_int(m.group(1))
    elif (me := _PER_ITEM_EACH.search(text)) is not None:
        k = to_int(me.group(1) or me.group(2) or me.group(3))
    elif product is not None:
        # "8 × 164 = 1,312 completions": the factor that is the benchmark's count is the items.
        a, b = to_int(product.group(1)), to_int(product.group(2))
        _, bench_n = _benchmark(text, ctx)
        if not a or not b or bench_n not in (a, b) or a * b != to_int(product.group(3)):
            return None
        k = b if a == bench_n else a
    else:
        from benchaudit.inputs.response_counts import responses_over_items

        counted = responses_over_items(text, _intervals(text))
        if counted is None or not _SE_WORDS.search(text):
            return None
        # "91.1% of its 3,600 responses (the 60 questions ...), 95% CI 90.2-92.0%".
        per, total, asked = counted
        return _generations_claim(text, loc, Confidence.MEDIUM, asked, per, total)
    if not k or k < 2:
        return None
    used = None
    for am in _AS_ITEMS.finditer(text):
        if m is not None and am.start() < m.end() and m.start() < am.end():
            continue  # "averaged over 8 samples per problem" states k, not the n of an interval
        if am.group(1) or am.group(2):
            used = to_int(am.group(1) or am.group(2))
        else:
            used = -1  # "treating each sample as an item"
        break
    items = None
    im = re.search(
        r"\b(\d[\d,]*)\s+(?:[\w-]+\s+){0,3}?(?:problems|questions|items|prompts|tasks)\b", text, re.I
    )
    if im:
        items = to_int(im.group(1))
    _, bench_n = _benchmark(text, ctx)
    items = items or bench_n
    if used is None and items:
        # "the 960 generations give a 95% interval": a count of all generations, items × k.
        for gm in _GEN_COUNT.finditer(text):
            if to_int(gm.group(1)) == items * k:
                used = items * k
                break
    if used is None or not _SE_WORDS.search(text):
        return None
    conf = Confidence.HIGH if used and used > 0 and items else Confidence.MEDIUM
    return _generations_claim(text, loc, conf, items, k, used)


def _generations_claim(
    text: str, loc: Location, conf: Confidence, items: int | None, k: int, used: int
) -> Claim:
    """``k`` samples of each of ``items`` items, with ``used`` (−1: "each sample an item") the n
    the sentence's interval or test was computed on."""
    return Claim(
        kind="generations",
        text=text,
        location=loc,
        confidence=conf,
        n=items,
        samples=k,
        fields={"n_used": used, "items": items},
    )


_BEFORE_SENTENCES = 6
_BEFORE_CHARS = 2400


def _before(sentence: Any) -> str:
    """The sentences of the same paragraph before this one (benchmark and n often sit there)."""
    block = getattr(sentence, "block", None)
    if block is None:
        return ""
    before = []
    for s in getattr(block, "sentences", []):
        if s is sentence:
            break
        before.append(s)
    # The nearest sentences only: the whole paragraph again for each sentence in it would make a
    # long paragraph quadratic, and a benchmark named further back is rarely this claim's.
    out: list[str] = []
    size = 0
    for s in reversed(before[-_BEFORE_SENTENCES:]):
        text = _norm(getattr(s, "text", ""))
        size += len(text) + 1
        if size > _BEFORE_CHARS and out:
            break
        out.append(text)
    return " ".join(reversed(out))


def extract_sentence(sentence: Any, ctx: Context | None = None) -> list[Claim]:
    """Claims of comparison, significance and procedure in one sentence.

    ``sentence`` is a string or an object with ``text`` and ``location``.
    """
    raw, loc = _location(sentence)
    text = _norm(" ".join(raw.split()))
    low = text.lower()
    digit = any(ch.isdigit() for ch in text)
    out: list[Claim] = []
    # Cheap gates first: most sentences of a document carry none of these words,
    # and the patterns below cost tens of microseconds each.
    makers: list[Callable[[], Claim | None]] = []
    if digit or _has(low, _GATE_COMPARISON):
        makers.append(lambda: _comparison(text, loc, ctx, _before(sentence)))
    if _has(low, ("best", "max", "highest", "top", "strongest")):
        makers.append(lambda: _selection(text, loc, ctx))
    if digit and _has(low, ("seed", "run", "trial", "repetition", "restart", "replicate")):
        makers.append(lambda: _seeds(text, loc))
    if ("%" in text and _has(low, ("agree", "concordance", "consisten", "align", "match", "concur"))) or (
        _has(low, (" agreement with", " alignment with"))
    ):
        makers.append(lambda: _agreement(text, loc))
    if "^" in text or "**" in text:
        makers.append(lambda: _passk(text, loc))
    if _has(low, _GATE_EMERGENCE):
        makers.append(lambda: _emergence(text, loc))
    if "%" in text and _has(low, ("chance", "random")):
        makers.append(lambda: _chance(text, loc))
    if digit and _has(
        low, ("sample", "completion", "generation", "response", "attempt", "solution", "answers")
    ):
        makers.append(lambda: _generations(text, loc, ctx))
    block = getattr(sentence, "block", None)
    for maker in makers:
        claim = maker()
        if claim is not None:
            # Which paragraph the claim came from: context is only shared within one.
            claim.fields["paragraph"] = id(block) if block is not None else None
            if _in_figure_caption(block):
                claim.fields["figure_caption"] = True
            out.append(claim)
    return out


_FIGURE_START = lazy(r"^\s*(?:Figure|Fig\.)\s*\d+\s*[:.|]", re.I)


def _in_figure_caption(block: Any) -> bool:
    """A sentence of a figure's caption ("Figure 6: ... . X consistently outperforms Y"):
    about the figure, never about a table printed near it."""
    sentences = getattr(block, "sentences", None) or []
    return bool(sentences) and bool(_FIGURE_START.match(getattr(sentences[0], "text", "")))


_GATE_COMPARISON = (
    "signific",
    "overlap",
    "interval",
    "equivalen",
    "degrad",
    "on par",
    "comparab",
    "same",
    "suffer",
    "loss",
    "lose",
    "every",
    "all ",
    "each",
    "across the board",
    "consistently",
    "indistinguishable",
    "identical",
    "similar",
    "match",
    "no difference",
    "drop",
    "hurt",
    "preserv",
    "retain",
    "maintain",
    "negligible",
    "differ",
    "equally",
    "tie",
)
_GATE_EMERGENCE = (
    "emerg",
    "sudden",
    "sharp",
    "phase transition",
    "abrupt",
    "discontinu",
    "jump",
    "unpredictab",
    "breakthrough",
    "step",
    "take off",
    "takes off",
    "hockey",
)


def _has(low: str, words: tuple[str, ...]) -> bool:
    return any(w in low for w in words)


# --- the document pass --------------------------------------------------------------

#: how far back (in lines) a benchmark or item count mentioned earlier still applies
CONTEXT_LINES = 6


#: A sentence about an aggregate ("reasoning performance ... from 66.0 to 66.2", "the average
#: rises"): the numbers are not the previous sentence's benchmark, so its n is not inherited.
_AGGREGATE_TALK = lazy(
    r"\b(?:average[ds]?|avg|overall|mean|aggregate|(?:reasoning|general|coding|math(?:ematical)?|"
    r"language|multilingual)\s+(?:performance|capabilit\w*|abilit\w*))\b",
    re.I,
)


def extract_document(
    claims: list[Claim], tables: list[Any] | None, ctx: Context | None
) -> list[Claim]:
    """Second pass: context from earlier sentences and score tables.

    A comparison without its own item count inherits the benchmark and n of the
    nearest earlier claim within :data:`CONTEXT_LINES` lines; a table-wide
    sentence ("improves on every benchmark", "does not degrade") gets the
    document's score tables in ``fields["tables"]``. Document-wide facts
    (a multiple-comparison correction mentioned anywhere, how many p-values the
    document reports) go into every comparison's fields.
    """
    last: Claim | None = None
    correction = any(c.fields.get("correction") for c in claims if c.kind == "comparison")
    texts = " ".join(dict.fromkeys(c.text for c in claims))
    kappa = bool(_KAPPA.search(texts))
    swap = bool(_SWAP.search(texts))
    n_p = sum(len(c.fields.get("pvalues", [])) for c in claims if c.kind == "comparison")
    continuous = bool(_CONT_METRIC.search(texts))
    doc_metric = _DISCRETE_METRIC.search(texts)
    for c in sorted(claims, key=lambda c: c.location.line or 0):
        if c.kind == "comparison":
            c.fields["doc_correction"] = correction
            c.fields["doc_pvalues"] = n_p
            if (c.n is None or c.benchmark is None) and last is not None:
                same = c.fields.get("paragraph") is not None and c.fields.get(
                    "paragraph"
                ) == last.fields.get("paragraph")
                near = same and (c.location.line or 0) - (last.location.line or 0) <= CONTEXT_LINES
                if near and c.n is None and last.n and not _AGGREGATE_TALK.search(c.text):
                    c.n, c.n_source = last.n, f"context (line {last.location.line})"
                    c.benchmark = c.benchmark or last.benchmark
            if (
                tables
                and (c.fields.get("every") or c.fields.get("equivalence"))
                and c.fields.get("a_value") is None
            ):
                near_table = _nearest_table(tables, c.location.line or 0, c.text)
                doc_table = getattr(near_table, "doc", None)
                if doc_table is not None and getattr(doc_table, "origin", "") == "pdf":
                    near_table = _pdf_table_meant(tables, near_table, c)
                if near_table is not None:
                    c.fields["tables"] = [near_table]
        elif c.kind == "agreement":
            c.fields["doc_kappa"] = kappa
            c.fields["doc_swap"] = swap
        elif c.kind == "emergence":
            c.fields["doc_continuous"] = continuous
            if c.fields.get("metric") is None and doc_metric:
                c.fields["metric"] = doc_metric.group(0)
                c.fields["metric_from"] = "document"
        if c.n and (c.benchmark or c.n_source == "sentence"):
            last = c
    return claims


#: how far (in lines) a table may sit from a sentence about it
TABLE_LINES = 40
#: the same in a PDF, on the sentence's own page
PDF_TABLE_LINES = 25


def _pdf_table_meant(tables: list[Any], near: Any, c: Claim) -> Any:
    """In a PDF the nearest table by line is often not the one meant: the table the sentence
    names by number, else the nearest one only when it is the only table on the sentence's
    page, a few lines away, and no figure is named."""
    from benchaudit.documents.model import TABLE_REF

    ref = TABLE_REF.search(c.text)
    if ref:
        named = [t for t in tables if getattr(t, "doc", None) is not None and t.doc.numbered(ref.group(1))]
        return named[0] if len(named) == 1 else None
    on_page = [t for t in tables if t.page is not None and t.page == c.location.page]
    if len(on_page) != 1 or not _same_page_and_close(near, c):
        return None
    return near


def _models_held(table: Any, names: list[str]) -> int:
    """How many of the (folded) model names have a row or a column in the table."""
    from benchaudit.claims.model_claims import extends, fold

    labels = [fold(r[0]) for r in getattr(table, "rows", []) if r] + [fold(h) for h in getattr(table, "header", [])]
    labels = [x for x in labels if len(x) >= 3]
    return sum(1 for n in names if any(extends(x, n) or extends(n, x) for x in labels))


def _same_page_and_close(table: Any, c: Claim) -> bool:
    if re.search(r"\b(?:Figure|Fig\.)\s*\d", c.text) or c.fields.get("figure_caption"):
        return False
    if table.page is None or c.location.page is None or table.page != c.location.page:
        return False
    first = getattr(table, "header_line", None) or 0
    rows = [x for x in getattr(table, "row_lines", []) if x]
    last = max(rows) if rows else first
    line = c.location.line or 0
    return min(abs(line - first), abs(line - last)) <= PDF_TABLE_LINES


def _nearest_table(tables: list[Any], line: int, text: str = "") -> Any:
    """The table a sentence refers to: the closest one above it, else the closest below;
    when the sentence names models, only a table with a row or column for one of them."""
    from benchaudit.claims.model_claims import fold, model_names

    names = [fold(n.text) for n in model_names(text)]
    names = [n for n in names if len(n) >= 3]
    held = [_models_held(t, names) for t in tables]
    most = max(held, default=0)
    # The tables holding the most of the models the sentence names; when none holds any (a
    # shortened name), every table.
    tables = [t for t, k in zip(tables, held) if k == most] if most else tables
    best, best_key = None, None
    for t in tables:
        first = getattr(t, "header_line", None) or 0
        rows = [x for x in getattr(t, "row_lines", []) if x]
        last = max(rows) if rows else first
        if last <= line:
            key = (0, line - last)
        else:
            key = (1, first - line)
        if key[1] > TABLE_LINES:
            continue
        if best_key is None or key < best_key:
            best, best_key = t, key
    return best
