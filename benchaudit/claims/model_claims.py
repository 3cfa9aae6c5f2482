"""Sentences that compare models ("X outperforms Y", "comparable to Z") and the models they name.

A comparison in prose is a claim about rows of the document's tables. This
module finds the comparative verb, the model names before and after it, and
resolves those names against the models the tables contain, so that rules
can check the claim benchmark by benchmark, or say that the document holds no
evidence for it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from benchaudit.documents.model import Block, Document
from benchaudit.inputs.sentences import ABBREVIATION

#: What a comparative adjective may be said of: a score, not a cost ("higher accuracy than",
#: "more problems than"; never "more tokens than", "higher latency than").
_PERF = (
    r"(?:performance|accuracy|scores?|results?|(?:pass|success|win|resolve[d]?)\s+rates?|"
    r"correlation|problems|questions|tasks|capabilit(?:y|ies))"
)
_SUPERIOR = re.compile(
    r"\b(?:outperform(?:s|ed|ing)?|surpass(?:es|ed|ing)?|beat(?:s|ing)?|exceed(?:s|ed|ing)?|"
    r"(?:is|are|was|were)\s+(?:significantly\s+|substantially\s+|much\s+)?better\s+than|"
    r"superior\s+(?:performance\s+)?(?:to|compared\s+(?:to|with)|over))\b|"
    # The comparative shapes below name a rival after them, never a number ("higher than 80%");
    # "comparable or better performance than Y" claims parity at least, not a lead.
    r"\b(?<!\bor\s)(?:"
    # "performs (significantly) better than", "scores higher than"
    r"(?:perform|scor|fare)\w*\s+(?:\w+\s+)?(?:better|higher)\s+than|"
    # "better (retrieval) performance than", "slightly better tolerance ... compared to"
    r"better\s+(?:[\w-]+\s+){0,3}?(?:than|compared\s+(?:to|with)|relative\s+to)|"
    # "higher accuracy than", "more problems from AIME 2024 than"
    r"(?:higher|greater|more|stronger)\s+(?:[\w-]+\s+){0,2}?" + _PERF
    + r"\s+(?:[^.;,()]{0,40}?\s)?(?:than|compared\s+(?:to|with)|relative\s+to)|"
    # "significant improvements over", "advantages over GQA", "a 3.6% improvement over"
    r"(?:improvements?|gains?|advantages?|advancements?|superiority)\s+(?:over|to(?=\s+(?:the\s+)?[A-Z]))|"
    r"superior\s+(?:[\w-]+\s+){1,2}?(?:[^.;()]{0,60}?\s)?(?:compared\s+(?:to|with)|relative\s+to))"
    r"\b(?!\s*[-+]?\d)",
    re.I,
)
_EQUIVALENT = re.compile(
    r"\b(?:comparable\s+(?:(?:code|math|reasoning|overall|general)\s+(?:and\s+\w+\s+)?)?"
    r"(?:performance\s+|capabilit(?:y|ies)\s+|results\s+)?(?:to|with|as)|on\s+(?:a\s+)?par\s+with|competitive\s+with|"
    r"perform(?:s|ed|ing)?\s+(?:similarly|comparably)\s+(?:to|with)|similar\s+(?:performance|results)\s+(?:to|with|as)|"
    r"match(?:es|ing)?\s+the\s+performance\s+of|"
    # "matched or even improved": parity at least, no margin given ("matches or exceeds Y"
    # is read as the lead it also claims, above)
    r"match(?:es|ed|ing)?\s+or\s+(?:even\s+)?improv\w*|"
    # "..., matching DeepSeekMath with 3% of the tokens": a participle whose object is a name.
    r"(?<=[,;—–-]\s)match(?:ing|es)\s+(?=[A-Z][\w.+-]*[A-Z0-9])|"
    r"closely\s+(?:approximat|match|approach)\w*)\b",
    re.I,
)
#: A comparison whose rival opens the sentence ("Compared to Y, X achieves superior results
#: on ..."): the names of that phrase are the rivals, and the verb may then drop its "than".
_RIVAL_FIRST = re.compile(
    r"^\W*(?:(?:\w+ly|furthermore|moreover|additionally|also|overall|finally|however|besides|meanwhile),\s+)?"
    r"(?:compared\s+(?:to|with)|in\s+comparison\s+(?:to|with)|relative\s+to|against)\s+(?P<rival>[^,;]{2,80}),\s*",
    re.I,
)
_RIVAL_FIRST_VERB = {
    # "comparable or superior performance" is parity at least, read as parity.
    "superior": re.compile(
        r"\b(?<!\bor\s)(?:superior|better|stronger|higher)\s+(?:[\w-]+\s+){0,2}?" + _PERF + r"\b|"
        # "Compared to Y, X improves ...", "... brings gains": a gain over the opening rival.
        r"\b(?:improv(?:es|ed|ing|ements?)|gains?|boosts?)\b(?!\s+(?:of|in)\s+(?:efficiency|speed|throughput|latency))|"
        # "Compared to Y, X achieved outstanding results on AIME (+1.5)": the signed gains say it.
        r"\b(?:results|performance|scores?)\b(?=[^.;]{0,120}\(\s*\+\s*\d)",
        re.I,
    ),
    "equivalent": re.compile(
        r"\b(?:similar|comparable|competitive)(?:\s+or\s+(?:better|superior|higher))?\s+(?:[\w-]+\s+){0,2}?"
        + _PERF + r"\b|"
        r"\bperform(?:s|ed)?\s+(?:similarly|comparably)\b", re.I
    ),
}
#: A claim to be the best: "achieves the (overall) best results", "the highest score",
#: "sets SOTA results", "surpassing all other models".
_BEST = re.compile(
    r"\b(?:(?:achiev|obtain|attain|deliver|set|reach|yield|record|receiv)\w*\s+(?:the\s+|a\s+)?(?:new\s+)?"
    r"(?:overall\s+)?(?:best|highest|strongest|top|state[- ]of[- ]the[- ]art|SOTA)\b|"
    r"(?:surpass|outperform|exceed|beat|dominat)\w*\s+all\s+(?:the\s+)?(?:other\s+)?"
    r"(?:models|methods|baselines|competitors|approaches|systems)\b|"
    r"performs?\s+(?:the\s+)?best\b)",
    re.I,
)
#: A best-claim limited to a class of models or hedged: not checkable against the whole table.
_BEST_LIMITED = re.compile(
    r"\b(?:among|open[- ]source|open[- ]weights?|closed[- ]source|proprietary|similar(?:ly)?[- ]sized|"
    r"comparable\s+size|of\s+(?:its|their|the\s+same)\s+size|in[\s-]+(?:its\s+)?class|except|nearly|almost|"
    r"exclud\w*|apart\s+from|other\s+than|average|avg|mean|"
    r"most|many|several|second|third|some|tied?|(?<![\w.-])\d+(?:\.\d+)?\s*[BM]\b|parameters?)\b",
    re.I,
)
#: Sections whose text cites or thanks rather than claims.
_NOT_CLAIMS = re.compile(r"^\W*(?:\d+(?:\.\d+)*\s*)?(?:references|bibliography|acknowledg\w*|citation)\b", re.I)


def in_claim_free_section(block: Block) -> bool:
    """A block under References, Bibliography or Acknowledgements."""
    section = block.section
    return section is not None and any(_NOT_CLAIMS.match(s.title) for s in section.path())
#: A model name: a capitalised word with a digit in it or after it ("Llama2-13B",
#: "GPT-3.5-Turbo-0125", "Phi-3.5-mini-instruct", "Qwen2.5 72B", "MPT-30B", "DeepSeek R1").
#: Model families often written in lower case ("o1-preview", "gpt-4o", "claude-3-opus"); other
#: lower-case words with a digit ("math500", "fp16", "top-5") are not model names.
_LOWER_FAMILIES = (
    r"(?:o(?=[1-9]\b|[1-9]-)|gpt(?=-\d)|claude(?=-\d)|llama(?=-?\d)|qwen(?=\d)|gemma(?=-?\d)|"
    r"gemini(?=-\d)|mistral(?=-\d)|mixtral(?=-\d)|phi(?=-\d)|deepseek(?=-[a-z]*\d))"
)
_MODEL = re.compile(
    r"(?<![\w.-])(?:[A-Z][A-Za-z]*|[a-z]+[A-Z][A-Za-z]*|" + _LOWER_FAMILIES + r")"
    r"(?:-[A-Z][A-Za-z]*)*(?:\s[A-Z](?=\d))?"
    r"(?:[-\s.]?[vo]?\d[\w.]*)"
    r"(?:-[A-Za-z0-9.]+)*(?![\w-])"
)
_GENERIC = re.compile(r"^(?:Our|The|This|These|Its|Their|An?|Each|All|Both|Only|Over|Top|Table|Figure|Fig|Section|Sec|Appendix|Step|Version|Top|Rank|Pass|Avg|Top-\d)\b", re.I)
_BENCHMARK_LIKE = re.compile(r"[A-Z]{2,}[-\s]?(?:'|20)?\d{2}")
_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\[])")


def split_sentences(text: str) -> list[str]:
    """A block's sentences: cut after a full stop before a capital, except after a word that
    ends in one and ends no sentence ("e.g. Qwen2.5-7B", "vs. GPT-4", "Zhu et al. (2024)")."""
    out: list[str] = []
    start = 0
    for m in _SPLIT.finditer(text):
        word = ABBREVIATION.search(text[max(start, m.start() - 8) : m.start()])
        # A lone capital before the stop ("in Appendix A.") may end a sentence: cut there.
        if word is None or len(word.group(0)) <= 2:
            out.append(text[start : m.start()])
            start = m.end()
    out.append(text[start:])
    return out


_ACROSS = re.compile(
    r"\b(?:across|all|every|most|various|multiple|many|several|a\s+(?:wide\s+)?range\s+of|majority)\b", re.I
)
#: Words that end a model's name in some spellings of the same model ("-Instruct", "-Chat").
_SUFFIX_WORDS = "instruct|inst|chat|base|preview|it|sft|rl|hf"
_SUFFIXES = re.compile(rf"(?:{_SUFFIX_WORDS})$")


@dataclass(frozen=True)
class NameMention:
    """A model name as written in a sentence, with its span."""

    start: int
    end: int
    text: str


@dataclass(frozen=True)
class ModelComparison:
    """One comparative sentence: ``subject`` verb ``objects``."""

    block: Block
    sentence: str
    offset: int  # where the sentence starts in the block's text
    kind: str  # "superior" or "equivalent"
    verb: str
    verb_at: int
    subjects: tuple[NameMention, ...]
    objects: tuple[NameMention, ...]
    general: bool  # "across benchmarks", "on all tasks": a claim about every benchmark
    #: Where the rivals are named when they open the sentence ("Compared to Y, X ..."), else None.
    rival_span: tuple[int, int] | None = None
    #: The names the document's title gives its own model (:mod:`benchaudit.claims.own_model`).
    own: tuple[str, ...] = ()

    @property
    def line(self) -> int | None:
        return line_of(self.block, self.offset + self.verb_at)

    @property
    def page(self) -> int | None:
        """The page of :attr:`line` (a paragraph may run over a page break)."""
        return page_at(self.block, self.line)

    @property
    def scope(self) -> str:
        """What the verb governs: the sentence from its subject to the next contrasting clause
        ("X outperforms Y on Aider, but is comparable on SWE Verified": the first half)."""
        m = _CONTRAST.search(self.sentence, self.verb_at + len(self.verb))
        return self.sentence[: m.start()] if m else self.sentence


def fold(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", name.lower())


def core(name: str) -> str:
    """A model name folded, without "instruct", "chat" or a trailing date code."""
    folded = fold(name)
    folded = re.sub(r"(?:20\d\d)?\d{4}$", "", folded) if re.search(r"[a-z]\d*\d{4}$", folded) else folded
    return _SUFFIXES.sub("", folded) or folded


def model_names(text: str) -> list[NameMention]:
    out = []
    for m in _MODEL.finditer(text):
        name = m.group(0).strip().rstrip(".,;:")
        if _BENCHMARK_LIKE.fullmatch(name):
            continue  # "AIME24", "IOI24", "AMC23": a benchmark and its year, not a model
        if _GENERIC.match(name) or re.fullmatch(r"[A-Z]?\d[\w.]*", name) or len(fold(name)) < 4:
            continue
        if re.fullmatch(r"[A-Z][a-z]+\s\d+(?:\.\d+)?", name) and not re.search(r"\d[BbMmKk]\b", name):
            continue  # "Table 3", "Llama 3" stays; "Section 2" gone; ambiguous: keep only with a size
        out.append(NameMention(m.start(), m.end(), name))
    return out


def subject_names(sentence: str) -> list[NameMention]:
    """The model names a sentence is about: those before its comparative verb ("Our model
    outperforms Llama-3-8B": none, the rival is no subject); every name when it has no such verb."""
    names = model_names(sentence)
    for pattern in (_SUPERIOR, _EQUIVALENT, _BEST):
        m = pattern.search(sentence)
        if m:
            return [n for n in names if n.end <= m.start()]
    return names


def page_at(block: Block, line: int | None) -> int | None:
    """The page of a document line of ``block``: a PDF paragraph cut by a page break
    goes on on the next page, so its first line's page is not every line's."""
    return next((t.page for t in block.lines if t.line == line and t.page is not None), block.page)


def line_of(block: Block, offset: int) -> int | None:
    """The document line of a character offset in ``block.text``."""
    pos = 0
    for t in block.lines:
        text = " ".join(t.text.split())
        if not text:
            continue
        if offset <= pos + len(text):
            return t.line
        pos += len(text) + 1
    return block.line


#: The name a title opens with before its subtitle ("Mango-MT: Advancing ...", "KIMI LINEAR: AN
#: EXPRESSIVE ...", "CodeGeeX2 - A More Powerful ..."): at most three words.
_LEAD = re.compile(r"^\W*(?P<name>[A-Za-z][\w.+-]*(?:\s+[A-Za-z0-9][\w.+-]*){0,2})\s*(?::|\s[-–—]\s)")


def title_names(doc: Document) -> tuple[str, ...]:
    """The model names the document's first heading gives: the name before its subtitle and
    every name shaped like a model's (a capitalised word with a digit)."""
    first = next((b for b in doc.blocks() if b.kind == "heading"), None)
    if first is None:
        return ()
    text = " ".join(first.text.split())
    names = []
    lead = _LEAD.match(text)
    if lead is not None:
        names.append(lead.group("name"))
    names.extend(n.text for n in model_names(text))
    return tuple(dict.fromkeys(n for n in names if len(re.sub(r"[^a-z0-9]", "", n.lower())) >= 4))


def comparisons(doc: Document, clauses: bool = False) -> list[ModelComparison]:
    """The comparison each sentence makes; with ``clauses``, also the parity a sentence
    claims beside its superiority ("X achieves comparable performance as Y and outperforms
    Z"): a clause the first verb's reading would hide."""
    own = title_names(doc)
    out: list[ModelComparison] = []
    for block in doc.blocks():
        if block.kind in ("code", "heading") or in_claim_free_section(block):
            continue
        if block.kind == "caption" and not _TABLE_CAPTION.match(block.text):
            continue  # a figure's caption: its claim is about a chart no table holds
        text = block.text
        pos = 0
        for sentence in split_sentences(text):
            offset = text.find(sentence, pos)
            pos = offset + len(sentence)
            found = _comparison(block, sentence, offset)
            if found is not None:
                found = replace(found, own=own)
                out.append(found)
                if clauses and found.kind != "equivalent":
                    also = _parity_clause(block, sentence, offset, found)
                    if also is not None:
                        out.append(replace(also, own=own))
    return out


def _parity_clause(block: Block, sentence: str, offset: int, first: ModelComparison) -> ModelComparison | None:
    """The parity clause of a sentence read first as a superiority ("outperforms Y, and
    attains performance comparable to Z"): its subject is the sentence's subject, its rivals
    the names between its verb and the other verb or the clause's end."""
    m = _EQUIVALENT.search(sentence)
    if m is None or _CONCESSIVE.match(sentence.lstrip()):
        return None
    names = model_names(sentence)
    other = first.verb_at
    if other < m.start():
        subjects = first.subjects
        end = _clause_end(sentence, m.end())
    else:
        subjects = tuple(n for n in names if n.end <= m.start())
        end = other
    objects = tuple(n for n in names if m.end() <= n.start < end)
    # A rival named again in the superiority's clause ("outperforms GPT-4's CoT result, and
    # is competitive with GPT-4 solving problems with programs") is another run of it that
    # the name alone does not tell apart.
    beaten = {fold(n.text) for n in first.objects if n.start < m.start()}
    if not objects or any(fold(n.text) in beaten for n in objects):
        return None
    return ModelComparison(
        block, sentence, offset, "equivalent", m.group(0), m.start(), subjects, objects,
        bool(_ACROSS.search(sentence[m.end() : end])),
    )


def _comparison(block: Block, sentence: str, offset: int) -> ModelComparison | None:
    """The comparison a sentence makes, if any: superior, equivalent, or a claim to be best."""
    first = _RIVAL_FIRST.match(sentence)
    for kind, pattern in (("superior", _SUPERIOR), ("equivalent", _EQUIVALENT), ("best", _BEST)):
        m = pattern.search(sentence)
        bare = False
        if first is not None and kind in _RIVAL_FIRST_VERB and (m is None or m.start() < first.end()):
            # "Compared to Y, X achieves superior results": the verb needs no "than" of its own.
            m = _RIVAL_FIRST_VERB[kind].search(sentence, first.end())
            bare = m is not None
        if not m:
            continue
        if kind == "superior" and _PASSIVE.match(sentence, m.end()):
            # "X is marginally outperformed by Y": the roles are reversed; not read as X's claim.
            return None
        if kind != "best" and _NEGATED.search(sentence[: m.start()]):
            return None  # "does not perform better than Y", "no better than Y": no such claim
        names = model_names(sentence)
        # "For BLEU-2, ..., X delivers gains over ...": the opening phrase names what the
        # claim is measured on, never its subject.
        lead = opening_scope_end(sentence, m.start())
        names = [n for n in names if n.start >= lead]
        rival = first.span("rival") if first is not None and first.end() <= m.start() else (0, 0)
        leading = tuple(n for n in names if rival[0] <= n.start < rival[1])
        subjects = tuple(n for n in names if n.end <= m.start() and n not in leading)
        end = _clause_end(sentence, m.end())
        # The rivals of a verb end where the sentence's other comparison starts ("better than
        # Y, closely approximating Z": Z is a parity's rival, not one Y's verb beat).
        other = (_EQUIVALENT if kind == "superior" else _SUPERIOR).search(sentence, m.end())
        end = min(end, other.start()) if other is not None else end
        # A bare verb after the rival ("superior results on GSM8K"): the rival is the opening one.
        objects = leading if bare else tuple(n for n in names if m.end() <= n.start < end) or leading
        if kind == "superior" and not objects:
            best = _BEST.search(sentence)
            if best is not None:
                # "surpassing all other models": a claim to be the best, not a pairwise one.
                kind, m = "best", best
                subjects = tuple(n for n in names if n.end <= m.start())
        return ModelComparison(
            block, sentence, offset, kind, m.group(0), m.start(), subjects, objects,
            bool(_ACROSS.search(sentence[m.end():])), rival if rival != (0, 0) else None,
        )
    return _joint_parity(block, sentence, offset)


#: Parity said of two models together, with no rival after the verb: "X and Y perform
#: comparably (across all benchmarks)", "X and Y achieve similar results".
_JOINT = re.compile(
    r"\b(?:perform(?:s|ed)?\s+(?:comparably|similarly|on\s+par)|"
    r"(?:achiev|show|yield|deliver|obtain)\w*\s+(?:comparable|similar)\s+(?:performance|results|scores))\b"
    r"(?!\s+(?:to|with|as)\b)",
    re.I,
)


def _joint_parity(block: Block, sentence: str, offset: int) -> ModelComparison | None:
    """The parity of "X and Y perform comparably": X the subject, Y its rival, when the text
    before the verb is just the two names joined by "and"."""
    m = _JOINT.search(sentence)
    if m is None:
        return None
    names = [n for n in model_names(sentence) if n.end <= m.start()]
    if len(names) != 2:
        return None
    a, b = names
    if not re.fullmatch(r"\W*(?:the\s+|both\s+)?", sentence[: a.start], re.I) or not re.fullmatch(
        r"\s+and\s+", sentence[a.end : b.start]
    ) or sentence[b.end : m.start()].strip():
        return None
    return ModelComparison(
        block, sentence, offset, "equivalent", m.group(0), m.start(), (a,), (b,),
        bool(_ACROSS.search(sentence[m.end():])),
    )


#: A table's caption ("Table 8: ... MHA demonstrates significant advantages over GQA"): its
#: claims are about that table, which its own "Table 8" names.
_TABLE_CAPTION = re.compile(r"^\W*(?:Table|Tab\.)\s*\d+\b", re.I)
#: An opening phrase that says where a claim holds ("For BLEU-2,", "On GSM8K,", "In Table 3,").
_SCOPE_FIRST = re.compile(r"^\W*(?:for|on|in|across|under|at)\s+[^,;]{1,80},\s*", re.I)
def first_verb_at(sentence: str) -> int:
    """Where the sentence's first comparative verb starts (its length when it has none): a
    second clause's rival ("outperforms Y, and is comparable to Z") is never its subject."""
    found = [m.start() for p in (_SUPERIOR, _EQUIVALENT, _BEST) if (m := p.search(sentence))]
    return min(found, default=len(sentence))


def opening_scope_end(sentence: str, verb_at: int) -> int:
    """Where an opening phrase that says where a claim holds ("For BLEU-2, ...") ends, when it
    ends before the verb at ``verb_at``; else 0."""
    m = _SCOPE_FIRST.match(sentence)
    return m.end() if m is not None and m.end() <= verb_at else 0


#: A comparative verb negated just before it: "does not perform better than", "no better than".
#: "not only outperforms Y but also Z" is no negation: it claims both.
_NEGATED = re.compile(r"\b(?:not(?!\s+(?:only|just|merely)\b)|no|never|cannot|n't)\s+(?:[\w-]+\s+)?$", re.I)
_PASSIVE = re.compile(r"\s+by\b", re.I)


def _clause_end(sentence: str, after: int) -> int:
    """Where the verb's clause ends: at a contrasting clause ("..., but Z lags behind W"), and
    in a sentence opened by a concession ("While X outperforms Y, Z ...") at its comma."""
    c = _CONTRAST.search(sentence, after)
    end = c.start() if c else len(sentence)
    if _CONCESSIVE.match(sentence.lstrip()):
        comma = sentence.find(",", after)
        if comma >= 0:
            end = min(end, comma)
    return end


_NAME_LIKE = re.compile(r"(?<![\w-])[A-Z][\w.+]*(?:-[\w.+]+)+|(?<![\w-])[A-Z][a-z]+[A-Z][\w.+]*")


def subject_of(comp: ModelComparison) -> str | None:
    """The model a comparison is about: the last name before its verb, or a hyphenated or
    camel-case name there ("Janus-Pro achieves", "Kimi-Audio sets") that has no digit."""
    before = comp.sentence[: comp.verb_at]
    if _CONCESSIVE.search(before):
        return None  # "while X obtains the highest ..., ours ...": a concession, not the claim
    if comp.subjects:
        return comp.subjects[-1].text
    # A name with no digit counts only as the sentence's grammatical subject: at its start
    # (after an opening phrase such as "Notably,"), never after a pronoun subject.
    # The rival that opens the sentence ("Compared to Y, X achieves ...") is never its subject.
    m = _NAME_LIKE.search(before, comp.rival_span[1] if comp.rival_span is not None else 0)
    if m is None or re.search(r"\b(?:it|this|they|we|our|its)\b", before[: m.start()], re.I):
        return None
    lead = before[: m.start()]
    if len(lead.split()) > 4 and "," not in lead:
        return None
    return m.group(0)


_CONCESSIVE = re.compile(r"\b(?:while|whereas|although|though|despite|but)\b", re.I)
#: "but also" goes on with the same claim ("not only outperforms Y but also Z"), never contrasts.
_CONTRAST = re.compile(r"[,;]?\s+\b(?:but(?!\s+also\b)|while|whereas|although|though|yet|except)\b|;", re.I)


def limited(comp: ModelComparison) -> bool:
    """A best-claim hedged or limited to a class of models ("among open-source models")."""
    return bool(_BEST_LIMITED.search(comp.sentence))


def resolve_family(name: str, models: list[str]) -> list[str]:
    """The table models a prose name covers: the one it resolves to, else every model whose
    folded name contains it ("Janus-Pro" covers Janus-Pro-1B and Janus-Pro-7B)."""
    one = resolve(name, models)
    if one is not None:
        return [one]
    want = core(name)
    if len(want) < 4:
        return []
    return [m for m in models if want in fold(m)]


def resolve(name: str, models: list[str]) -> str | None:
    """The table model a prose name refers to, when exactly one fits."""
    want = core(name)
    if len(want) < 4:
        return None
    exact = [m for m in models if core(m) == want]
    if len(exact) == 1:
        return exact[0]
    if exact:
        return None
    loose = [m for m in models if extends(fold(m), want) or extends(fold(name), core(m))]
    loose = [m for m in loose if len(core(m)) >= 4]
    if len(loose) == 1:
        return loose[0]
    if loose:
        return None
    # A table that shortens the family's name ("DS-Coder-V2-Instruct" for DeepSeek-Coder-V2).
    short = [m for m in models if _abbreviated(core(m)) == _abbreviated(want)]
    return short[0] if len(short) == 1 else None


#: Family names tables often shorten: the long form folded, and its short form.
_ABBREVIATIONS = (("deepseek", "ds"),)


def _abbreviated(folded: str) -> str:
    """A folded model name with its family written short ("dscoderv2" for "deepseekcoderv2")."""
    for long, short in _ABBREVIATIONS:
        if folded.startswith(long):
            return short + folded[len(long) :]
    return folded


def resolve_label(name: str, models: list[str]) -> str | None:
    """:func:`resolve` on the table models' own names (:func:`label`): a row group or a
    citation around the name does not hide it; where "X-RL" and "X-SFT" (or "X" and
    "X-Instruct") both fit, the spelling as written decides."""
    own = {label(m): m for m in models}
    if len(own) < len(models):
        return resolve(name, models)  # two rows share a name once the groups are dropped
    found = resolve(name, list(own))
    if found is None:
        same = [m for m in own if core(m) == core(name) and fold(m) == fold(name)]
        found = same[0] if len(same) == 1 else None
    return own[found] if found is not None else None


def label(model: str) -> str:
    """A table model's own name: without the row group a two-level label puts before it
    ("Open-Weights Models / DeepSeek-R1") and a citation after it ("Llemma-7B [5]")."""
    name = re.sub(r"\s*\[[\d,\s–-]+\]\s*$", "", model)
    last = name.rsplit(" / ", 1)[-1]
    return last if len(fold(last)) >= 4 else name


#: What may follow a model's name in a longer spelling of the same model: a date or version
#: code, "instruct" and the like. A size or another family ("-Distill-Qwen-32B") is another model.
_SAME_MODEL_TAIL = re.compile(rf"(?:\d{{3,8}}|v?\d(?:\d)?|{_SUFFIX_WORDS}|latest|turbo)*")


def extends(longer: str, shorter: str) -> bool:
    """Whether ``longer`` is ``shorter`` plus only what names the same model."""
    at = longer.find(shorter)
    if at < 0 or len(shorter) < 2:
        return False
    head, tail = longer[:at], longer[at + len(shorter) :]
    return _SAME_MODEL_TAIL.fullmatch(tail) is not None and (not head or head in _VENDORS)


#: Vendor words that prefix a model's name in some spellings ("OpenAI o1-mini" for "o1-mini").
_VENDORS = frozenset({"openai", "anthropic", "google", "meta", "deepseek", "qwen", "mistral", "deepseekai"})


#: Words some spellings of a model's name add or drop ("GPT-4-Turbo-1106-Preview" for
#: "GPT-4-1106-Preview").
_FILLER = re.compile(r"(?<=[-\s])(?:turbo|preview)(?=[-\s]|$)|[-\s](?:turbo|preview)$", re.I)


def mentioned(name: str, haystack: str) -> bool:
    """Whether a model name occurs in folded text, with or without "instruct", "preview" ..."""
    keys = {k for k in (fold(name), core(name), fold(_FILLER.sub("", name))) if len(k) >= 2}
    # A short core ("o1" of "O1-Preview") only counts as itself, never inside a longer word.
    if any(k in haystack for k in keys if len(k) >= 4) or fold(name) in haystack:
        return True
    # An abbreviated name ("GShard 2B" for a "GShard" column, "Qwen-235B" for
    # "Qwen3-235B-A22B"): its family word is enough, so a doubtful miss is not reported.
    stem = re.match(r"[A-Za-z]{4,}", name)
    return stem is not None and stem.group(0).lower() in haystack
