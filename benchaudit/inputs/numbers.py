"""Numbers in prose: find them, keep them as written, and say what each one is.

Every number stays the string the author wrote (``"70.0"`` keeps its
trailing zero, which is a claim of precision). :func:`scan` returns each
number in a piece of text with a ``kind``:

``percent``      a number followed by ``%`` / "percent" (a score candidate)
``points``       followed by "points", "pp", "percentage points"
``plain``        a bare number that may be a score on a 0–100 or 0–1 scale
``items``        a count of test items: "500 questions", "n = 500", "(164 problems)"
``samples``      samples or runs per item: "64 samples", "8 runs", "3 seeds"
``count``        any other count: "12 subjects", "5-shot", "2 GPUs"
``fraction``     ``k/n`` such as ``143/164``
``year``, ``date``, ``version`` (v1.2, Llama 3.1), ``reference`` (Table 3),
``size`` (7B, 1.5T tokens), ``citation`` (``[12]``), ``ordinal``,
``multiplier`` (3x), ``identifier`` (GPT-4)

Which percentages are scores (as opposed to "2.5% of the compute budget")
is decided from the words around them by :func:`percent_role`; which numbers are
bounds, approximations or thresholds ("over 70%", "about 46%", "the 70% barrier") by
:func:`bound_or_threshold`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: A number as written: optional sign, digits with optional thousands
#: separators, optional decimals. Not inside a word, a version or a metric
#: name like ``pass@1`` (those are handled by their own patterns).
_NUMBER = re.compile(
    r"(?<![\w@^.$€£/\\])([+±−–-]?)(\d{1,3}(?:,\d{3})+(?!\d)|\d+)(\.\d+)?(?![\d,]\d)"
)

#: ", 88.9%)" after "(n = 40": the share that the count is of its group.
_SHARE_AFTER = re.compile(r"\s*[,;]\s*\d{1,3}(?:\.\d+)?\s*%\s*\)")
#: A score with its spread, "80.4 ± 10.9%": the percent sign is the score's.
_SPREAD = re.compile(r"(?<![\d.])(\d{1,3}(?:\.\d+)?)(\s*(?:±|\+/-|\+-)\s*\d+(?:\.\d+)?\s*)%")


def drop_spread(text: str) -> str:
    """``text`` with each "± spread" before a percent sign blanked out, leaving the score and
    its percent sign ("80.4 ± 10.9%" reads as "80.4%"); the length stays, so positions hold."""
    return _SPREAD.sub(lambda m: m.group(1) + "%" + " " * len(m.group(2)), text)


_PERCENT = re.compile(r"\s?(%|percent\b|per cent\b)", re.I)
_POINTS = re.compile(r"\s?(pp\b|p\.p\.|percentage[ -]points?\b|points?\b|pts?\b)", re.I)
_SIZE = re.compile(
    r"(\s?(?:[BMKT]\b|[bmkt]\b|bn\b|billion\b|million\b|trillion\b|thousand\b|k\b)"
    r"|[BMKT](?=[-‑]))"
)
_MULT = re.compile(r"\s?(?:x\b|×)")
_ORDINAL = re.compile(r"(?:st|nd|rd|th)\b")
_MONTHS = (
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|jun(?:e)?|jul(?:y)?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)
_DATE_AFTER = re.compile(rf"\s(?:{_MONTHS})\b", re.I)
_DATE_BEFORE = re.compile(rf"\b(?:{_MONTHS})\.?\s$", re.I)
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}/\d{2,4}")
_VERSION_BEFORE = re.compile(r"(?:\bv|\bversion\s|\brelease\s|\bpython\s)$", re.I)
_SHOT = re.compile(r"[-‑ ]?shots?\b", re.I)

#: Nouns that count test items (an item count stated in the text).
ITEM_NOUNS = (
    r"questions?|problems?|items?|examples?|tasks?|prompts?|instances?|test[ -]cases?"
    r"|puzzles?|theorems?|bugs?|exercises?|challenges?|queries|query|issues?|samples? in the test set"
)
#: Nouns that count samples or repeated runs per item.
SAMPLE_NOUNS = (
    r"samples?|generations?|completions?|runs?|seeds?|trials?|attempts?|draws?|rollouts?"
    r"|responses?|solutions?|outputs?|repetitions?|repeats?"
)

_NOT_ADJ = r"(?!(?:on|of|in|at|for|over|across|from|to|and|or|with|per|by|as|is|are|was|were|vs)\b)"
#: Nouns that, after an item noun, make a compound that counts something else:
#: "24 prompt styles", "20 prompt templates", "5 task categories".
_COMPOUND = (
    r"(?![\s\-](?:styles?|templates?|formats?|types?|categories|category|variants?|variations?"
    r"|families|family|domains?|languages?|subjects?|groups?|levels?|kinds?|sources?"
    r"|classes|class|genres?|topics?)\b)"
)
_COUNT_AFTER = re.compile(
    # A benchmark name, masked to NULs by the sentence reader, may stand between the count and
    # its noun: "the 500 MBPP test problems".
    rf"\s?(?:[-‑ ]?(?:(?:{_NOT_ADJ}[a-z]+|\x00+)[- ]){{0,2}}?)(?P<noun>(?:{ITEM_NOUNS}){_COMPOUND}"
    rf"|(?:{SAMPLE_NOUNS}){_COMPOUND}|{_NOT_ADJ}[a-z]+s)\b",
    re.I,
)
#: Words before a count that make it the number of candidates a selection was made from
#: ("best of 6 prompts", "top-scoring among the 12 prompts", "we tried 20 prompts").
CANDIDATES_BEFORE = re.compile(
    r"\b(?:(?:best|highest|top|strongest)(?:[- ]scoring)?[- ](?:of|among|out of|from)[- ](?:the\s+)?"
    r"|(?:tried|try|swept|sweep|searched over)\s+(?:over\s+)?)$",
    re.I,
)
_ITEMS_BEFORE = re.compile(
    # "size 500" counts items unless a hyperparameter's size: "batch size 16", "beam size 4".
    r"\bn\s*=\s*$|\bN\s*=\s*$|"
    r"(?<!batch )(?<!mini-batch )(?<!minibatch )(?<!beam )(?<!group )(?<!window )(?<!context )"
    r"(?<!chunk )(?<!block )(?<!step )(?<!hidden )(?<!vocabulary )(?<!vocab )(?<!embedding )"
    r"(?<!kernel )(?<!patch )(?<!model )(?<!cache )(?<!buffer )(?<!file )"
    r"\bsize\s+(?:of\s+)?$",
    re.I,
)


#: A capitalised word right before a bare number: "Llama 3.1", "Table 2".
_NAME_BEFORE = re.compile(r"(?:^|[\s(\[])([A-Z][A-Za-z]+|[a-z]+[A-Z][A-Za-z]*)\s$")
#: Words that may stand right before a score ("Accuracy 87.3").
_SCORE_WORDS = {
    "accuracy",
    "acc",
    "score",
    "scores",
    "average",
    "avg",
    "mean",
    "overall",
    "total",
    "em",
    "f1",
    "result",
    "results",
    "only",
    "about",
    "around",
    "approximately",
    "nearly",
    "roughly",
    "just",
    "to",
    "from",
    "and",
    "or",
    "of",
    "at",
    "with",
    "reaches",
    "achieves",
    "gets",
    "on",
    "in",
    "for",
    "across",
    "over",
    "by",
    "all",
    "is",
    "was",
    "are",
    "were",
    "than",
}
_REFERENCES = {
    "table",
    "tab",
    "figure",
    "fig",
    "section",
    "sec",
    "appendix",
    "eq",
    "equation",
    "chapter",
    "step",
    "round",
    "level",
    "phase",
    "stage",
    "version",
    "part",
    "row",
    "column",
    "line",
    "page",
    "item",
    "task",
    "question",
    "problem",
    "example",
    "exercise",
    "rule",
    "footnote",
}


@dataclass(frozen=True)
class Number:
    """One number in a text, as written, with what it looks like."""

    text: str  # the digits as written, without sign or unit: "87.3", "1,319"
    start: int  # offset of the number (sign included) in the scanned text
    end: int  # offset just past the number and its unit
    kind: str
    sign: str = ""
    unit: str = ""  # "%", "pp", "B", "x", ...
    noun: str = ""  # for counts: the noun that follows ("questions")

    @property
    def value(self) -> float:
        return float(self.text.replace(",", ""))

    @property
    def digits(self) -> str:
        """The number without thousands separators, sign or unit: ``"1319"``."""
        return self.text.replace(",", "")

    @property
    def is_integer(self) -> bool:
        return "." not in self.text

    @property
    def signed(self) -> bool:
        return self.sign in ("+", "-", "−", "–", "±")


def _inside_brackets(text: str, start: int, end: int) -> bool:
    """A citation or footnote: ``[12]``, ``[3, 4]``, ``[5-7]``, ``[^2]``."""
    left = text.rfind("[", 0, start)
    if left < 0 or text.rfind("]", 0, start) > left:
        return False
    right = text.find("]", end)
    return right >= 0 and re.fullmatch(r"\^?[\d,\s\-–]+", text[left + 1 : right]) is not None


def _classify(text: str, m: re.Match[str]) -> Number:
    sign, whole, frac = m.group(1), m.group(2), m.group(3) or ""
    num = whole + frac
    start, end = m.start(), m.end()
    before = text[max(0, start - 20) : start]
    after = text[end : end + 40]

    def make(kind: str, unit: str = "", length: int = 0, noun: str = "") -> Number:
        return Number(num, start, end + length, kind, sign, unit, noun)

    if re.search(r"[A-Za-z][-‑]$", before) or re.search(r"[A-Za-z]$", before):
        return make("identifier")
    if _inside_brackets(text, start, end):
        return make("citation")
    if _VERSION_BEFORE.search(before) or (frac and after[:1] == "." and after[1:2].isdigit()):
        return make("version")
    iso = _ISO_DATE.match(text, start + len(sign))
    if iso:
        return Number(num, start, iso.end(), "date", sign)
    if m_ := _PERCENT.match(after):
        return make("percent", "%", m_.end())
    if m_ := _POINTS.match(after):
        return make("points", "pp", m_.end())
    if after[:1] == "/" and re.match(r"/\d", after):
        # "05/21" or "3/14/2024" is a date, not k/n: nobody writes a count with a
        # leading zero, and k/n/m is not a fraction.
        if (len(whole) > 1 and whole.startswith("0")) or re.match(r"/\d+/\d", after):
            date = re.match(r"(?:/\d+)+", after)
            assert date is not None  # after starts with "/<digit>"
            return make("date", length=len(date.group(0)))
        return make("fraction")
    if m_ := _SIZE.match(after):
        return make("size", m_.group(0).strip(), m_.end())
    if m_ := _MULT.match(after):
        return make("multiplier", "x", m_.end())
    if _ORDINAL.match(after):
        return make("ordinal")
    if after[:1].isalpha():
        return make("identifier")
    if _DATE_AFTER.match(after) or _DATE_BEFORE.search(before):
        return make("date")
    if m_ := _SHOT.match(after):
        return make("count", "shot", m_.end(), "shot")
    if re.search(r"\(\s*n\s*=\s*$", before, re.I) and _SHARE_AFTER.match(after):
        # "(n = 40, 88.9%)": the cases counted and their share of a larger group; 40 is k, not n.
        return make("count", "", 0, "cases")
    if before.endswith("/") or _ITEMS_BEFORE.search(before):
        return make("items", noun="n=" if re.search(r"\bn\s*=\s*$", before, re.I) else "")
    if not frac and (m_ := _COUNT_AFTER.match(after)):
        noun = m_.group("noun").lower()
        if re.fullmatch(ITEM_NOUNS, noun, re.I):
            if "\x00" in m_.group(0) and re.fullmatch(r"tasks?|challenges?", noun):
                # "the 23 BBH tasks": the benchmark's subtasks, not its items.
                return make("count", "", m_.end(), noun)
            if CANDIDATES_BEFORE.search(before):
                # "the best of 6 system prompts": candidates picked from, not test items.
                return make("count", "", m_.end(), noun)
            return make("items", "", m_.end(), noun)
        if re.fullmatch(SAMPLE_NOUNS, noun, re.I):
            return make("samples", "", m_.end(), noun)
        if noun not in ("points", "percent"):
            if not (1900 <= int(num.replace(",", "")) <= 2099):
                return make("count", "", m_.end(), noun)
    if not frac and not sign and "," not in whole and 1900 <= int(whole) <= 2099:
        return make("year")
    word = _NAME_BEFORE.search(before)
    if word and word.group(1).lower() not in _SCORE_WORDS:
        # "Table 3", "Llama 3.1", "Qwen 2.5", "Claude 3.5": a reference or a name.
        return make("reference" if word.group(1).lower() in _REFERENCES else "version")
    return make("plain")


#: Longest whole part read as a number (Python's int() refuses 4,301 digits and more).
MAX_DIGITS = 30


def scan(text: str) -> list[Number]:
    """Every number in ``text``, classified, in order of appearance."""
    out: list[Number] = []
    pos = 0
    while (m := _NUMBER.search(text, pos)) is not None:
        if len(m.group(2)) > MAX_DIGITS:  # no claim has such a number; int() would refuse it
            num = Number(m.group(2) + (m.group(3) or ""), m.start(), m.end(), "identifier")
        else:
            num = _classify(text, m)
        out.append(num)
        # A date or a unit may run past the digits: resume after it.
        pos = max(m.end(), num.end)
    return out


#: Words after "X% of" that make X% a share of test items, i.e. a score.
_SCORE_OF = re.compile(
    rf"\s*of\s+(?:the\s+|all\s+|its\s+|our\s+|these\s+)?(?:\S+\s+){{0,3}}?(?:{ITEM_NOUNS})\b", re.I
)
_CHANGE_AFTER = re.compile(
    r"\s*(?:relative\s+|absolute\s+)?(?:improvement|increase|gain|boost|jump|rise|drop|decrease"
    r"|decline|reduction|lift|uplift|higher|lower|better|worse|more|less|fewer|faster|slower"
    r"|smaller|larger|bigger|cheaper|improvements|gains)\b",
    re.I,
)
_CHANGE_BEFORE = re.compile(
    r"(?:\bby|(?:improvement|increase|gain|boost|jump|rise|drop|decrease|decline|reduction|lift"
    r"|uplift|margin|difference|delta|change|lead|advantage|edge|gap)s?\s+of|\bup|\bdown|\bimproves?|\bimproved|\bgains?|\bgained|\badds?|\bboosts?)\s+(?:about\s+|roughly\s+|nearly\s+|almost\s+|over\s+|around\s+|~\s*)?$",
    re.I,
)
_LEVEL_AFTER = re.compile(
    r"\s*(?:(?:Wald|Wilson|Clopper[- ]Pearson|Agresti[- ]Coull|exact|binomial|normal|bootstrapped"
    r"|two[- ]sided)\s+)?"
    r"(?:CI\b|C\.I\.|conf|confidence|credible|interval|bootstrap|prediction interval|level)",
    re.I,
)
_NOT_SCORE_AFTER = re.compile(
    r"\s*(?:of\b|more\b|less\b|fewer\b|faster\b|slower\b|smaller\b|larger\b|cheaper\b"
    r"|of the time|quantile|percentile|trimmed|subset|split|sparsity|dropout|warmup|tokens?\b"
    r"|parameters?\b|params\b|compute\b|budget\b|data\b|chance\b|probability\b|likely\b)",
    re.I,
)
#: A verb of solving right before "X% of the time": the share is a success rate.
_SUCCEEDS_BEFORE = re.compile(r"\b(?:succeeds?|solves?|passes|answers? correctly|is correct)\s*(?:on\s+)?$", re.I)
_NOT_SCORE_BEFORE = re.compile(
    r"(?:\btop|\bbottom|\bfirst|\blast|\brandom|\bremaining|\bheld[- ]out|\bonly|\bsparsity(?: of)?"
    r"|\bdropout(?: of| rate of)?|(?<!accuracy )(?<!success )(?<!pass )(?<!resolve )\brate of|\bratio of|\bshare of|\bfraction of|\bprobability of"
    r"|\bp\s*[<=>≤≥]|\balpha\s*=|\bα\s*=|\bsubsample(?:d)?(?: to)?|\bsampled|\bmasked)\s*$",
    re.I,
)


def percent_role(text: str, num: Number) -> str:
    """What a percentage is doing in its sentence.

    ``"level"`` (the 95 of "95% CI"), ``"change"`` ("improves by 5%", "a 5%
    gain"), ``"share"`` ("20% of the data", "top 10%", "2.5% of the compute
    budget") or ``"score"``.
    """
    after = text[num.end : num.end + 60]
    before = text[max(0, num.start - 40) : num.start]
    if _LEVEL_AFTER.match(after):
        return "level"
    if num.sign in ("+", "±") or (
        num.sign in ("-", "−", "–") and not before.rstrip().endswith(tuple("0123456789"))
    ):
        if num.sign == "±":
            return "plus-minus"
        return "change"
    if _CHANGE_AFTER.match(after) or _CHANGE_BEFORE.search(before):
        return "change"
    if _SCORE_OF.match(after) or re.match(r"\s*of\s+(?:the\s+)?\x00", after):
        return "score"  # "87.3% of the problems", "87.3% of HumanEval" (names masked)
    if re.match(r"\s*of the time", after) and _SUCCEEDS_BEFORE.search(before):
        return "score"  # "the agent succeeds 41.7% of the time": a success rate, not a frequency
    if _NOT_SCORE_AFTER.match(after) or _NOT_SCORE_BEFORE.search(before):
        return "share"
    return "score"


#: A bound or an approximation before a number ("over 70%", "about 46%", "~41%", "at
#: least 80"): it states no exact share of items, so it is no score to check.
_BOUND_BEFORE = re.compile(
    r"(?:\b(?:about|around|approximately|approx\.|roughly|nearly|almost|circa|over|above|beyond"
    r"|exceed(?:s|ed|ing)?|more\s+than|less\s+than|fewer\s+than|under|below|up\s+to"
    r"|at\s+least|at\s+most|upwards\s+of|(?:break|cross|surpass|pass|exceed|top)(?:es|s|ed|ing)?"
    r"\s+(?:the|a|an))|[~≈>≥<≤])\s*$",
    re.I,
)
#: A threshold after a number ("the 70% barrier", "the 80% mark").
_THRESHOLD_AFTER = re.compile(r"\s*%?\s*(?:barrier|mark|threshold|milestone|ceiling)\b", re.I)


def bound_or_threshold(text: str, num: Number) -> bool:
    """Whether ``num`` is a bound, an approximation or a threshold rather than an exact value
    ("over 70%", "about 46%", "~41%", "the 70% barrier"): no exact share of items."""
    before = text[max(0, num.start - 30) : num.start]
    return bool(_BOUND_BEFORE.search(before) or _THRESHOLD_AFTER.match(text, num.end))
