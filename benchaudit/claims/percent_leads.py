"""Leads written as a percentage that the document's own numbers show to be points.

Two shapes that need no claim linking:

- the paragraph gives both scores: "X proved 21.7% of the theorems, a 3.6%
  improvement over Y", with "Y (18.1%)" earlier in the paragraph: 21.7 − 18.1
  is 3.6 points, 19.9% relative;
- the table writes the change beside the score: "leading to 16.7% improvement
  on average" before a table whose cell reads "48.9 (+16.7)": 48.9 − 16.7 =
  32.2, so 16.7 is points, 51.9% relative.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from benchaudit.claims.model_claims import in_claim_free_section, line_of, model_names
from benchaudit.documents.model import Block, Document, Table
from benchaudit.inputs.numbers import drop_spread

_PCT = r"(\d{1,3}(?:\.\d+)?)\s*%"
#: "a 3.6% improvement over Y", "a gain of 3.6% over Y": the lead and where its rival begins.
_LEAD_OVER = re.compile(
    r"(?<![\w.+-])(?P<d>\d{1,3}(?:\.\d+)?)\s*%\s+(?:absolute\s+)?(?:improvement|gain|increase|boost|lead|advantage)"
    r"\s+(?:over|compared\s+(?:to|with)|against)\s+(?P<rival>[^.;:()]{2,120})",
    re.I,
)
#: "surpassing the human baseline by 4%", "outperforms Y by 1.3%": a lead after its rival.
_BEATS_BY = re.compile(
    r"\b(?:surpass|outperform|exceed|beat|top)(?:s|es|ed|ing)?\s+(?P<rival>[^.;:()%]{2,80}?)\s+by\s+"
    r"(?:a\s+(?:margin|gap)\s+of\s+)?(?P<d>\d{1,3}(?:\.\d+)?)\s*%",
    re.I,
)
#: "outperforming medical students (72.1%) by 8.3%": the rival's score in brackets after its name.
_BEATS_PAREN_BY = re.compile(
    r"\b(?:surpass|outperform|exceed|beat|top)(?:s|es|ed|ing)?\s+(?P<rival>[^.;:()%]{2,80}?)\s*\(\s*"
    + _PCT + r"\s*\)\s+by\s+(?:a\s+(?:margin|gap)\s+of\s+)?(?P<d>\d{1,3}(?:\.\d+)?)\s*%",
    re.I,
)
#: What a rival's score is introduced by after its name: "human experts achieving only 53.7%".
_SCORED = (
    r"[^.%;]{0,60}?\b(?:achiev|scor|reach|obtain|attain)\w*\s+(?:only\s+|just\s+)?"
    r"(?:a\s+score\s+of\s+|an?\s+(?:\w+\s+)?accuracy\s+of\s+)?" + r"(\d{1,3}(?:\.\d+)?)\s*%"
)
#: Human performance as a rival ("the human baseline", "human experts").
_HUMAN = re.compile(r"\bhumans?\b", re.I)
#: "from 59.94 to 43.49" in one sentence ...
_FROM_TO = re.compile(
    r"\bfrom\s+(?P<a>\d{1,3}(?:\.\d+)?)\s*%?\s+(?:to|→|->)\s+(?P<b>\d{1,3}(?:\.\d+)?)(?!\.?\d)\s*%?", re.I
)
#: ... and "This 37.8% decline" opening the next.
_THIS_CHANGE = re.compile(
    r"^(?:This|That|Such\s+an?|The)\s+(?:\w+\s+)?(?P<d>\d{1,3}(?:\.\d+)?)\s*%\s+"
    r"(?:decline|drop|decrease|reduction|fall|loss|increase|rise|gain|improvement|boost)\b",
    re.I,
)
#: A change in the words that mark it relative, or in points, is taken at its word.
_MARKED = re.compile(r"\brelative(?:ly)?\b|\bpoints?\b|\bpp\b|percentage\s+points?", re.I)
_SCORE = re.compile(r"(?<![\w.+-])" + _PCT)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\[])")
#: A table cell that writes its change: "48.9 (+16.7)", "48.9 (↑16.7)".
_CELL_CHANGE = re.compile(r"^\s*(?P<v>\d{1,3}(?:\.\d+)?)\s*%?\s*\(\s*(?:\+|↑)\s*(?P<d>\d{1,3}(?:\.\d+)?)\s*%?\s*\)\s*$")
#: "16.7% improvement", "**16.7%** improvement on average": a change stated as a percentage.
_CHANGE = re.compile(
    r"(?<![\w.+-])(?P<d>\d{1,3}(?:\.\d+)?)\s*%[*_]*\s+(?:absolute\s+)?(?:improvement|gain|increase|boost)s?\b", re.I
)


@dataclass(frozen=True)
class PointsLead:
    """A lead ``stated`` as a percentage that is ``score`` − ``base`` in points."""

    block: Block
    line: int | None
    sentence: str
    stated: str
    score: str
    base: str
    rival: str  # what ``base`` belongs to: a model's name, or "the table at line 160"
    in_table: bool = False  # the table writes the change beside the score
    #: The stated change is the difference divided by the final value ``score`` (a "37.8%
    #: decline" from 59.94 to 43.49 is 16.45 / 43.49), not a difference in points.
    over_final: bool = False

    @property
    def points(self) -> float:
        return float(self.score) - float(self.base)

    @property
    def relative(self) -> float:
        return 100 * self.points / float(self.base)


def _over_final(stated: str, start: str, end: str) -> bool:
    """Whether ``stated`` is the change from ``start`` to ``end`` divided by ``end`` (to the
    rounding of the numbers as written) and neither the relative change nor the points."""
    a, b, d = float(start), float(end), float(stated)
    if a <= 0 or b <= 0 or a == b:
        return False
    diff = abs(b - a)
    # The rounding of the two scores moves the quotient by at most this much.
    slack = 100 * (_half_unit(start) + _half_unit(end)) * (1 / b + diff / b**2)
    tol = _half_unit(stated) + slack
    return abs(100 * diff / b - d) <= tol and abs(100 * diff / a - d) > tol and abs(diff - d) > tol


def _decimals(x: str) -> int:
    return len(x.split(".")[1]) if "." in x else 0


def _half_unit(x: str) -> float:
    return 0.5 * 10.0 ** -_decimals(x)


def is_points(stated: str, score: str, base: str) -> bool:
    """Whether ``stated`` is the difference ``score`` − ``base`` (to the rounding of the three
    numbers as written) and not the relative change."""
    a, b, d = float(score), float(base), float(stated)
    if b <= 0 or a <= b:
        return False
    tol = _half_unit(stated) + _half_unit(score) + _half_unit(base)
    return abs(a - b - d) <= tol and abs(100 * (a - b) / b - d) > tol


def _sentences(block: Block) -> list[tuple[int, str]]:
    text, out, pos = block.text, [], 0
    for s in _SENTENCE.split(text):
        at = text.find(s, pos)
        out.append((at, s))
        pos = at + len(s)
    return out


def _prose_blocks(doc: Document) -> Iterator[Block]:
    for block in doc.blocks():
        if block.kind not in ("code", "heading") and not in_claim_free_section(block):
            yield block


def paragraph_leads(doc: Document) -> list[PointsLead]:
    """ "X achieves 21.7%, a 3.6% improvement over Y" where the paragraph states Y's score
    beside its name ("Y (18.1%)"), and X's score is the last one before the lead, in its
    sentence or the one before it."""
    found = []
    for block in _prose_blocks(doc):
        sentences = _sentences(block)
        for i, (at, sentence) in enumerate(sentences):
            for m in _LEAD_OVER.finditer(sentence):
                if _MARKED.search(sentence[m.end("d") : m.end("d") + 30]) or _MARKED.search(m.group("rival")):
                    continue
                before = _SCORE.findall(sentence[: m.start()])
                if not before and i > 0:
                    before = _SCORE.findall(sentences[i - 1][1])
                if not before:
                    continue
                score = before[-1]
                for name in model_names(m.group("rival")):
                    base = re.search(re.escape(name.text) + r"\s*\(\s*" + _PCT + r"\s*\)", block.text)
                    if base and is_points(m.group("d"), score, base.group(1)):
                        found.append(
                            PointsLead(block, line_of(block, at + m.start()), sentence, m.group("d"), score,
                                       base.group(1), name.text)
                        )
                        break
    return found


def _rival_score(text: str, rival: str) -> tuple[str, str] | None:
    """The score the paragraph gives the rival, and the rival's name: "Y (18.1%)", "Y achieves
    18.1%", or, for human performance, "human experts achieving only 53.7%"."""
    for name in model_names(rival):
        esc = re.escape(name.text)
        base = re.search(esc + r"\s*\(\s*" + _PCT + r"\s*\)", text) or re.search(esc + _SCORED, text)
        if base:
            return base.group(1), name.text
    if _HUMAN.search(rival):
        base = re.search(r"\bhumans?\b" + _SCORED, text, re.I)
        if base:
            return base.group(1), "human performance"
    return None


def beaten_by_leads(doc: Document) -> list[PointsLead]:
    """ "X achieves 57.7%, surpassing Y by 4%" where the paragraph gives Y's score ("Y achieves
    53.7%"): 57.7 − 53.7 is 4 points, 7.4% relative."""
    found = []
    for block in _prose_blocks(doc):
        for at, raw in _sentences(block):
            sentence = drop_spread(raw)
            for m in _BEATS_PAREN_BY.finditer(sentence):
                # "X achieves 80.4%, outperforming Y (72.1%) by 8.3%": Y's score is in the brackets.
                if _MARKED.search(sentence[m.end() : m.end() + 30]) or _MARKED.search(m.group("rival")):
                    continue
                before = _SCORE.findall(sentence[: m.start()])
                base = m.group(2)
                if before and base != before[-1] and is_points(m.group("d"), before[-1], base):
                    found.append(
                        PointsLead(block, line_of(block, at + m.start()), raw, m.group("d"), before[-1], base,
                                   m.group("rival").strip())
                    )
            for m in _BEATS_BY.finditer(sentence):
                if _MARKED.search(sentence[m.end() : m.end() + 30]) or _MARKED.search(m.group("rival")):
                    continue
                before = _SCORE.findall(sentence[: m.start()])
                rival = _rival_score(block.text, m.group("rival"))
                if not before or rival is None:
                    continue
                base, name = rival
                if base != before[-1] and is_points(m.group("d"), before[-1], base):
                    found.append(
                        PointsLead(block, line_of(block, at + m.start()), sentence, m.group("d"), before[-1], base, name)
                    )
    return found


def over_final_changes(doc: Document) -> list[PointsLead]:
    """ "plummeting from 59.94 to 43.49. This 37.8% decline ...": the stated change is the
    difference over the final value (16.45 / 43.49), not over the starting one (27.4%)."""
    found = []
    for block in _prose_blocks(doc):
        sentences = _sentences(block)
        for (_, first), (at, second) in zip(sentences, sentences[1:]):
            m, c = _FROM_TO.search(first), _THIS_CHANGE.match(second)
            if m is None or c is None or _MARKED.search(second[: c.end() + 30]):
                continue
            start, end = m.group("a"), m.group("b")
            if _over_final(c.group("d"), start, end):
                found.append(
                    PointsLead(block, line_of(block, at + c.start()), f"{first} {second}", c.group("d"), end, start,
                               "", over_final=True)
                )
    return found


def table_written_leads(doc: Document) -> list[PointsLead]:
    """ "leading to 16.7% improvement on average" in the text before a table whose cell writes
    "48.9 (+16.7)": the table itself gives the change in points."""
    found = []
    items = doc.items
    for k, item in enumerate(items):
        if not isinstance(item, Table):
            continue
        written = [
            (m.group("v"), m.group("d"))
            for row in item.rows
            for c in row
            if (m := _CELL_CHANGE.match(c.text))
        ]
        if not written:
            continue
        where = f"the table at {'page ' + str(item.page) if doc.format == 'pdf' else 'line ' + str(item.line)}"
        for block in _lead_blocks(items, k):
            for at, sentence in _sentences(block):
                for m in _CHANGE.finditer(sentence):
                    if _MARKED.search(sentence[max(0, m.start() - 12) : m.end() + 30]):
                        continue
                    hit = next(
                        ((v, d) for v, d in written if d == m.group("d") and float(v) > float(d)), None
                    )
                    if hit is None:
                        continue
                    v, d = hit
                    base = f"{float(v) - float(d):.{max(_decimals(v), _decimals(d))}f}"
                    if is_points(d, v, base):
                        found.append(
                            PointsLead(block, line_of(block, at + m.start()), sentence, d, v, base, where, True)
                        )
    return found


def _lead_blocks(items: list[Block | Table], k: int) -> list[Block]:
    """The prose right before the table at ``items[k]``: up to three blocks back, not past a
    heading or another table."""
    out = []
    for item in reversed(items[max(0, k - 3) : k]):
        if isinstance(item, Table) or item.kind == "heading":
            break
        if item.kind != "code":
            out.append(item)
    return out
