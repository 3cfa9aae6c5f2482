"""The table rows a comparison's own words name when its model names are not spelled like them.

:mod:`benchaudit.claims.model_claims` finds model names by their shape (a capitalised word with
a digit). Many claims name their models otherwise: a name with no digit ("DeepSeekMoE",
"Kimi Linear", "SimPO"), a row label written the table's way, or a class of rows instead of
a name ("outperforms all open-source models", "surpasses both baselines"). This module reads
those against the labels of one table: the table says which names are models.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from benchaudit.claims.model_claims import (
    first_verb_at,
    fold,
    label,
    model_names,
    opening_scope_end,
)

if TYPE_CHECKING:
    from benchaudit.claims.model_claims import ModelComparison
    from benchaudit.claims.scoretable import ScoreTable

#: The rivals named as a class right after the verb: "all (other) open-source models",
#: "both baselines", "previous models", "existing open-source code LLMs".
_CLASS = re.compile(
    r"\s*(?:(?:all|both|the|other|previous|prior|existing|compared|remaining|leading)\s+){0,3}"
    r"(?:(?P<kind>open[- ]?source|open[- ]?weights?|closed[- ]?source|closed[- ]?weights?|proprietary|"
    r"commercial)\s+)?(?:(?P<adjective>[A-Za-z-]+)\s+)?"
    r"(?P<noun>models|baselines|methods|LLMs|counterparts|competitors|systems|approaches)\b",
    re.I,
)
#: A class bounded by something the table does not label: size, era, a model family.
_UNLABELLED = re.compile(
    r"\b(?:comparable|similar(?:ly)?|same|its|their)\s+(?:size|scale|sized)|size|scale|~\s*\d|"
    r"\d+(?:\.\d+)?\s*[BM]\b|smaller|larger|bigger|below|under|parameters?|except|excluding|"
    r"other\s+than|apart\s+from|class\b",
    re.I,
)
#: What may follow the class: the benchmarks, examples of it, the end of the clause. "models
#: with similar architectures", "models trained on ..." bound the class in words a table lacks.
_CLASS_END = re.compile(
    r"\s*(?:$|[,.;:)(]|(?:on|in|across|at|by|for|and|such\s+as|including|like|as\s+well|even|"
    r"listed|evaluated|compared|here|too)\b)",
    re.I,
)
_OPEN = re.compile(r"open", re.I)
_CLOSED = re.compile(r"closed|proprietary|commercial|api", re.I)


def named_in(text: str, models: list[str]) -> list[str]:
    """The table models whose own name (:func:`label`) ``text`` spells as a word, in the
    order they first occur; a label shorter than four letters and digits never counts."""
    found: list[tuple[int, str]] = []
    # A row's name without its variant word ("dots.llm1 .inst" is "dots.llm1" in prose; never a base row, another model), when
    # no other row shares what is left.
    bare = {m: _VARIANT_END.sub("", label(m).strip()) for m in models}
    shared = [b for b in bare.values()]
    for m in models:
        own = label(m)
        if len(fold(own)) < 4:
            continue
        spellings = [own]
        if bare[m] != own.strip() and len(fold(bare[m])) >= 4 and shared.count(bare[m]) == 1:
            spellings.append(bare[m])
        for spelling in spellings:
            parts = [re.escape(p) for p in re.split(r"[-\s_]+", spelling.strip()) if p]
            hit = re.search(r"(?<![\w-])" + r"[-\s_]?".join(parts) + r"(?![\w-]|\.\w)" + _NOT_ANOTHER, text, re.I)
            if hit:
                found.append((hit.start(), m))
                break
    seen = {m for _, m in found}
    for m, token in _own_tokens(models).items():
        # "SimPO outperforms DPO" beside rows "Llama 3 8B SimPO" and "Llama 3 8B DPO": the one
        # word that tells a row from the others of its table names it.
        # Never the head of a longer name ("DeepSeek-V2" of "DeepSeek-V2.5-Chat").
        hit = re.search(rf"(?<![\w-]){re.escape(token)}(?![\w+-]|\.\w)", text)
        if hit and m not in seen:
            found.append((hit.start(), m))
    return [m for _, m in sorted(found)]


def _own_tokens(models: list[str]) -> dict[str, str]:
    """The word of each row label that no other row of the table has, when there is exactly
    one and it is a name (capitals: "SimPO", "DPO"), not a size, a number or an ordinary word."""
    words = {m: set(re.split(r"[\s/,()]+", label(m))) - {""} for m in models}
    if len(words) < 2:
        return {}
    # Only a table whose rows are one shared name plus one word each ("Llama 3 8B SimPO",
    # "Llama 3 8B DPO"): elsewhere a word of one row is no name of it.
    common = set.intersection(*words.values())
    out: dict[str, str] = {}
    for m, mine in words.items():
        own = [w for w in mine - common if re.fullmatch(r"[A-Za-z][\w.+-]*", w) and _ACRONYM.search(w)]
        if common and mine == common | set(own) and len(own) == 1 and len(own[0]) >= 3:
            out[m] = own[0]
    # A word two rows share names neither.
    taken = [t for t in out.values()]
    return {m: t for m, t in out.items() if taken.count(t) == 1}


#: Not followed by a word that makes another model of the family ("GPT-4o mini" is not "GPT-4o").
_NOT_ANOTHER = r"(?!\s+(?:mini|pro|flash|lite|plus|max|turbo|ultra)\b)"
#: The variant word that ends a row's label ("-Base", " .inst", " Instruct", " Chat").
_VARIANT_END = re.compile(r"[\s._-]+(?:inst|instruct|chat)\.?$", re.I)
#: A name-like word: two capitals ("DPO", "SimPO", "GQA"), never a plain capitalised word.
_ACRONYM = re.compile(r"[A-Z].*[A-Z]")


def class_of_rivals(comp: ModelComparison) -> re.Match[str] | None:
    """The class of rivals the verb names ("all open-source models"), when it is one the
    table's labels can bound (a size or "comparable scale" class is not)."""
    after = comp.scope[comp.verb_at + len(comp.verb) :]
    m = _CLASS.match(after)
    if m is None or _UNLABELLED.search(after[: m.end() + 40]) or not _CLASS_END.match(after, m.end()):
        return None
    if m.group("adjective") and m.group("adjective")[0].isupper():
        return None  # "all Chinese LLMs": a class by origin or language, which no row group labels
    return m


def subject_in(comp: ModelComparison, models: list[str]) -> str | None:
    """The one table model named before the verb, when the sentence names exactly one; for a
    sentence whose subject is a pronoun ("It outperforms ...", "Our model surpasses ..."),
    the one model the sentences before it in its paragraph name, else the table's one row
    labelled as the authors' own ("X (ours)"), else the one row of the model the document's
    title names; a short name of that model ("CodeGeeX2" for a row "CodeGeeX2-6B") likewise."""
    return subject_with_reason(comp, models)[0]


def subject_with_reason(comp: ModelComparison, models: list[str]) -> tuple[str | None, str]:
    """:func:`subject_in` and, when the row was inferred rather than named as written, why it
    was read so (words for a message); "" when the sentence names the row itself."""
    from benchaudit.claims.own_model import names_own, own_row

    # "For BLEU-2, ..., X delivers gains": the opening phrase says where, never who.
    # A parity clause after a superiority ("outperforms Y, and is comparable to Z"): its
    # subject is named before the first verb, where Y is not.
    end = min(comp.verb_at, first_verb_at(comp.sentence))
    text = comp.sentence[opening_scope_end(comp.sentence, end) : end]
    own_clause = _own_clause(comp, end)
    if own_clause is not None:
        text = own_clause  # "X is comparable to Y, and the Z model outperforms W": Z, not X
    # "we distilled Y with SFT to surpass Z": Y is what the authors used, never the subject.
    before = [] if authors_purpose(comp) else named_in(text, models)
    if before:
        return (before[0], "") if len(set(before)) == 1 else (None, "")
    own = own_row(comp.own, models) if comp.own else None
    if own is not None and not _NOT_SUBJECT.search(text) and names_own(text, comp.own) and _singular(text):
        # The title's model by a shorter name than its row: that row, read from the title.
        return own, f"'{_said_own(text, comp.own)}' read as the row {own}, the model the document's title names"
    if not (_PRONOUN_SUBJECT.match(comp.sentence[: comp.verb_at]) or _pronoun_clause(comp) or authors_purpose(comp)):
        return None, ""
    span = comp.block.text[max(0, comp.offset - _ANTECEDENT_SPAN) : comp.offset]
    earlier = [m for m in named_in(span, models) if not _as_object(span, m)]
    if earlier:
        # Several models before it: "it" may be any of them, and is not guessed.
        if len(set(earlier)) != 1:
            return None, ""
        return earlier[0], f"the subject read as {earlier[0]}, the model the sentence before names"
    mine = [m for m in models if _OWN_ROW.search(m)]
    if len(mine) == 1:
        return mine[0], f"the subject read as {mine[0]}, the row marked as the authors' own"
    if own is not None and _singular(comp.sentence[: comp.verb_at]):
        return own, f"the subject read as {own}, the model the document's title names"
    return None, ""


#: Where a second clause with its own subject starts: ", and", ";", ", while".
_CLAUSE = re.compile(r",\s*(?:and|while|whereas)\s+|;\s*", re.I)


def _own_clause(comp: ModelComparison, first: int) -> str | None:
    """The text before the verb of a later clause that names its own subject ("..., and the
    Granite-3.0-A800M-3B model outperforms W"): from the clause's start to the verb; None
    when the verb is the sentence's first or its clause names no model (", and is ...")."""
    if comp.verb_at <= first:
        return None
    starts = [m.end() for m in _CLAUSE.finditer(comp.sentence, first, comp.verb_at)]
    if not starts:
        return None
    clause = comp.sentence[starts[-1] : comp.verb_at]
    return clause if model_names(clause) else None


def _as_object(text: str, model: str) -> bool:
    """Whether every time ``text`` names the row ``model`` it is the object of a comparison
    ("remaining close to CosyVoice2", "better than Y"): a rival, never what a later "it" is."""
    hits = [m.start() for m in _spelled_at(text, model)]
    # "We compare X with Y": both sides of a comparison said as such, neither the rival only.
    return bool(hits) and all(
        _OBJECT_BEFORE.search(text[max(0, h - 30) : h]) and not _COMPARE.search(text[max(0, h - 80) : h]) for h in hits
    )


def _spelled_at(text: str, model: str) -> list[re.Match[str]]:
    own = label(model)
    parts = [re.escape(p) for p in re.split(r"[-\s_]+", own.strip()) if p]
    return list(re.finditer(r"(?<![\w-])" + r"[-\s_]?".join(parts) + r"(?![\w-])", text, re.I)) if parts else []


_COMPARE = re.compile(r"\bcompar\w*\b|\bbetween\b", re.I)
#: The words just before a name that make it a comparison's object, not a subject.
_OBJECT_BEFORE = re.compile(
    r"\b(?:to|than|with|over|against|vs\.?|versus|like|behind|beyond|from|of|surpassing|outperforming|beating)"
    r"\s+(?:the\s+)?$",
    re.I,
)


def _singular(before: str) -> bool:
    """Whether the subject before the verb is one model ("it", "our model", "CodeGeeX2"), not
    several ("our base models", "Granite-3.0 models", "the M1 series"): a family stands for
    no one row of a table."""
    return _PLURAL_SUBJECT.search(before) is None


#: A subject that is several models, or one of a kind the row may not be ("base", "chat").
_PLURAL_SUBJECT = re.compile(
    r"\b(?:models|methods|approaches|systems|series|family|variants|versions|they|both|base|chat|instruct)\b", re.I
)


def _said_own(text: str, names: tuple[str, ...]) -> str:
    from benchaudit.claims.own_model import names_own

    return next((n for n in names if names_own(text, (n,))), names[0])


#: Words that make the text before the verb a concession or a comparison ("while CodeGeeX2 ...",
#: "than CodeGeeX2"), where the own model's name is not the subject.
_CONCESSION_WORDS = r"while|whereas|although|though|but|despite"
_NOT_SUBJECT = re.compile(rf"\b(?:{_CONCESSION_WORDS}|than|compared|unlike)\b", re.I)


#: A subject that names no model: "It", "Our model", "Our 7B model", "Ours", "The model" (in a
#: document about one model, that model). An opening phrase
#: ("Notably, it ...", "On MMLU, our model ...") may come first; a concession never does.
_PRONOUN_SUBJECT = re.compile(
    r"^(?:(?!.*\b(?:while|whereas|although|though|but)\b)"
    r"(?:[^.;]{0,80},|[^.;]{0,80}\b(?:show|shows|showed|demonstrate|demonstrates|indicate|indicates)\s+that)\s*)?"
    r"(?:it|ours|our\s+(?:[\w.-]+\s+){0,2}(?:model|method|approach|system)s?|(?:the|this)\s+model)"
    r"(?:\s+(?:also|further|even|still|consistently|significantly|clearly|notably|substantially))*\s*$",
    re.I,
)


#: The authors' action and its aim: "we distilled DeepSeek-R1 with curriculum SFT & DPO to
#: surpass Y", "we train on X to outperform Y". What surpasses is the authors' model; the names
#: between "we" and "to" are what they worked with.
_AUTHORS_PURPOSE = re.compile(
    r"(?:^|[,;:]\s*|\b(?:and|then)\s+)we\s+(?:also\s+|further\s+|successfully\s+)?[a-z]+(?:ed|t)\b"
    r"[^,;.()]{0,120}?\s(?:in\s+order\s+)?to\s+(?:\w+ly\s+)?$",
    re.I,
)


def authors_purpose(comp: ModelComparison) -> bool:
    """Whether the comparative verb is the aim of the authors' own action ("we distilled Y ...
    to surpass Z"): its subject is the authors' model, named before the sentence if at all."""
    return _AUTHORS_PURPOSE.search(comp.sentence[: comp.verb_at]) is not None


def _pronoun_clause(comp: ModelComparison) -> bool:
    """Whether a participle's subject is the "it" of the clause before it ("and in Python it
    reached 35.9%, surpassing the larger Y"): that clause names no model, and no concession
    opens the sentence."""
    if not _PARTICIPLE.match(comp.verb):
        return False
    before = comp.sentence[: comp.verb_at]
    return _IT_CLAUSE.search(before) is not None and not _CONCESSION.search(before)


#: A comparative verb as a participle: "surpassing", "outperforming", "exceeding", "beating".
_PARTICIPLE = re.compile(r"(?:surpass|outperform|exceed|beat)ing\b", re.I)
#: The last clause before the participle: "it" and its verb, then the comma the participle
#: follows; no other clause break between them.
_IT_CLAUSE = re.compile(r"(?:^|[,;(]\s*|\band\s+)(?:[^,;()]{0,40}?\s)?it\s+(?:\w+ly\s+)?\w+(?:ed|s)\b[^,;()]*,\s*$", re.I)
_CONCESSION = re.compile(rf"\b(?:{_CONCESSION_WORDS})\b", re.I)


#: How far back in its paragraph the model "it" stands for is looked for (about two sentences).
_ANTECEDENT_SPAN = 300
_OWN_ROW = re.compile(r"\(\s*ours\s*\)|\bours\b", re.I)


def rivals_in(comp: ModelComparison, st: ScoreTable, subject: str) -> list[str]:
    """The rivals of ``subject`` in ``st``: the table models the verb's clause names, else
    every model of the class it names (the row groups labelled open or closed for an
    "open-source" class; every other group's rows otherwise)."""
    models = sorted({c.model for line in st.lines for c in line.cells})
    after = comp.scope[comp.verb_at + len(comp.verb) :]
    if comp.rival_span is not None:
        # "Compared to Y, X achieves ...": the rivals are those the opening phrase names.
        after = comp.sentence[comp.rival_span[0] : comp.rival_span[1]]
    named = [m for m in named_in(after, models) if m != subject]
    if named:
        return named
    sibling = variant_rival(comp, models, subject)
    if sibling is not None:
        return [sibling]
    cls = class_of_rivals(comp)
    if cls is None:
        return sized_rivals(comp, models, subject)
    # "on par with Y, surpassing other models": the class is the models other than those the
    # sentence names before the verb.
    named_before = set(named_in(comp.sentence[: comp.verb_at], models))
    models = [m for m in models if m not in named_before or m == subject]
    group = {c.model: c.group or _prefix(c.model) for line in st.lines for c in line.cells}
    mine = group.get(subject, "")
    kind = cls.group("kind") or ""
    if kind:
        want = _OPEN if _OPEN.match(kind) else _CLOSED
        # Which rows are open or closed only the table's row groups can say.
        return sorted(m for m in models if m != subject and want.search(group.get(m, "")) and group[m] != mine)
    return sorted(m for m in models if m != subject and (not mine or group.get(m, "") != mine))


def _prefix(model: str) -> str:
    """The row group a two-level label puts before the model ("Open-Weights Models / X")."""
    return model.rsplit(" / ", 1)[0] if " / " in model else ""


#: A rival named as another variant of a model named before the verb: "its instruct version",
#: "its chat counterpart", "the base model".
_ITS_VARIANT = re.compile(
    r"\s*(?:its|their|the)\s+(?:own\s+)?(?P<kind>instruct(?:ion)?|chat|base)(?:[- ]tuned)?\s+"
    r"(?:version|variant|counterpart|model|release)\b",
    re.I,
)
_KIND_WORDS = {"instruct": ("instruct", "inst"), "instruction": ("instruct", "inst"), "chat": ("chat",), "base": ("base",)}


def variant_rival(comp: ModelComparison, models: list[str], subject: str) -> str | None:
    """The row "its instruct version" names: of a model named before the verb (the subject,
    or the one it is "based on"), the one other row of the same name whose label carries that
    variant word ("Qwen-2.5-Math-7B-Instruct" for "based on Qwen-2.5-Math-7B-Base, surpassed
    its instruct version"); None when no row or several fit."""
    from benchaudit.claims.model_claims import core, model_names

    m = _ITS_VARIANT.match(comp.scope, comp.verb_at + len(comp.verb))
    if m is None:
        return None
    words = _KIND_WORDS[m.group("kind").lower()]
    cores = {core(n.text) for n in model_names(comp.sentence[: comp.verb_at])} | {core(label(subject))}
    found = {
        r for r in models
        if r != subject and core(label(r)) in cores
        and any(re.search(rf"(?<![a-z]){w}(?![a-z])", label(r), re.I) for w in words)
    }
    return found.pop() if len(found) == 1 else None


#: A class of rivals bounded by size: "other ~8B models", "models of comparable size",
#: "similarly sized open-source models", "approximately 7B parameters".
_SIZED_CLASS = re.compile(
    r"^\s*(?:(?:all|the|other|existing|leading|open[- ]?source|SoTA|state[- ]of[- ]the[- ]art|instruct|base|chat)\s+){0,4}"
    r"(?:(?P<approx>~\s*|approximately\s+|about\s+|around\s+)?(?P<size>\d+(?:\.\d+)?)\s*B\s+|"
    r"(?:similar(?:ly)?|comparabl[ey])[- ]sized\s+)?"
    r"(?:(?:open[- ]?source|instruct|base|chat)\s+)?(?:models|LLMs|baselines)\b"
    r"(?P<tail>\s+(?:of|with|at)\s+(?:(?:a\s+)?(?:comparable|similar|the\s+same)\s+(?:size|scale)|"
    r"(?:approximately\s+|about\s+|~\s*)?(?P<size2>\d+(?:\.\d+)?)\s*B\s+(?:parameters|scales?)))?",
    re.I,
)
#: How far a row's size may be from the class's and still be "~8B" or "of comparable size".
_SIZE_FACTOR = 1.35
_SIZE_IN_LABEL = re.compile(r"(?<![\w.])(?:\d+x)?(\d+(?:\.\d+)?)\s*B(?![a-z])", re.I)


def sized_class(comp: ModelComparison, subject: str) -> float | None:
    """The size in billions of parameters a class of rivals is bounded by ("other ~8B models":
    8; "models of comparable size": the subject row's own size), or None when the clause names
    no such class or a range ("7B-13B") the rows cannot be read against."""
    after = comp.scope[comp.verb_at + len(comp.verb) :]
    m = _SIZED_CLASS.match(after)
    if m is None:
        return None
    said = m.group("size") or m.group("size2")
    if said is None and not (m.group("tail") or re.search(r"sized", m.group(0), re.I)):
        return None  # "other models": no size bound, class_of_rivals' reading or none
    if re.match(r"\s*[-–]\s*\d", after[m.end("size") if m.group("size") else m.end() :]):
        return None
    return float(said) if said else row_size(subject)


def row_size(model: str) -> float | None:
    """The parameter count a row's label gives (the first, "235B" of "Qwen3-235B-A22B")."""
    m = _SIZE_IN_LABEL.search(label(model))
    return float(m.group(1)) if m else None


def sized_rivals(comp: ModelComparison, models: list[str], subject: str) -> list[str]:
    """The rows of a size-bounded class ("other ~8B models"): those whose label gives a size
    within a factor of 1.35 of it; rows that give no size are left out (the message names the
    rows compared, so the reader sees the premise)."""
    size = sized_class(comp, subject)
    if size is None:
        return []
    out = []
    for m in models:
        got = row_size(m)
        if m != subject and got is not None and size / _SIZE_FACTOR <= got <= size * _SIZE_FACTOR:
            out.append(m)
    return sorted(out)
