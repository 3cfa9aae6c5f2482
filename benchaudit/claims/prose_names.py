"""Which rows of a table the names of a prose claim stand for: the subject and the rivals
as written, with the size and variant words prose puts after a name ("Qwen2.5 72B",
"DeepSeek-V2 Chat (SFT)"), a short name that heads one row's name, and the reasons given
when the subject is inferred rather than named.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from benchaudit.claims.model_claims import ModelComparison, NameMention
    from benchaudit.claims.scoretable import ScoreTable

#: The table model a prose name refers to (:func:`benchaudit.claims.model_claims.resolve`).
Resolver = Callable[[str, list[str]], "str | None"]


def pair_of(
    comp: ModelComparison, st: ScoreTable, resolve: Resolver, loose: bool = False
) -> tuple[str | None, list[str]]:
    """The subject's row and the rivals' rows of a pairwise claim in ``st``. ``loose`` also
    reads the table's own labels in the sentence (a name with no digit, "DeepSeekMoE") and a
    class of rivals ("all open-source models") where the name shapes found none."""
    from benchaudit.claims.rivals import rivals_in, subject_in

    models = sorted({c.model for line in st.lines for c in line.cells})
    base = resolve_loose if loose else resolve

    def find(mention: NameMention) -> str | None:
        return _resolve_spelled(comp.sentence, mention, models, base)

    mention = subject_mention(comp)
    a = find(mention) if mention is not None else None
    if a is not None and mention is not None and _variant_dropped(comp.sentence[mention.end :], a):
        return None, []  # "DeepSeek-V2 Chat (SFT)" said, the base row "DeepSeek-V2" found
    if a is None and loose and not _CONCESSIVE_START.match(comp.sentence):
        a = subject_in(comp, models)
    said = [comp.sentence[o.start : o.end + 12] for o in comp.objects]
    if a is not None and any(_tuning_clash(x, a) for x in said):
        return None, []  # "Ling-Plus ... comparable to DeepSeek-V2.5-Chat": not the base row
    rivals = [r for o, x in zip(comp.objects, said) if (r := find(o)) and r != a and not _tuning_clash(x, r)]
    if not rivals and loose and a is not None:
        rivals = rivals_in(comp, st, a)
    return a, rivals


_CONCESSIVE_START = re.compile(r"\W*(?:while|whereas|although|though|despite)\b", re.I)


def subject_mention(comp: ModelComparison) -> NameMention | None:
    """The name before the verb that is the claim's subject: the last one, unless it is the
    model the subject was built from ("X, based on Y-Base, surpassed ..."): then the one
    before that phrase."""
    from benchaudit.claims.model_claims import first_verb_at
    from benchaudit.claims.rivals import authors_purpose

    if authors_purpose(comp):
        return None  # "we distilled Y ... to surpass Z": Y is no subject
    names = [m for m in comp.subjects if not _BUILT_FROM.search(comp.sentence[max(0, m.start - 40) : m.start])]
    if _PARTICIPLE_AFTER.search(comp.sentence[: comp.verb_at]):
        # "X is on par with Y, surpassing other models": the participle's subject is the first
        # clause's, named before its verb; Y is that clause's rival.
        first = first_verb_at(comp.sentence)
        if first < comp.verb_at:
            names = [m for m in names if m.end <= first]
    return names[-1] if names else None


#: A participle opening a clause after a comma: ", surpassing", ", outperforming".
_PARTICIPLE_AFTER = re.compile(r",\s*(?:\w+ly\s+)?$")


#: The words that name what a model was built from, just before that model's name.
_BUILT_FROM = re.compile(
    r"\b(?:based|built|trained|fine-?tuned|initiali[sz]ed|distilled|derived|continued)\s+(?:on|from|upon)\s+"
    r"(?:the\s+|top\s+of\s+)?$",
    re.I,
)


def resolve_loose(name: str, models: list[str]) -> str | None:
    """:func:`benchaudit.claims.model_claims.resolve_label`, else the one row whose own name
    begins with the name as written and goes on with a word after a hyphen or a space
    ("Eurus-70B" for the table's only "Eurus-70b-NCA"): never a longer version or size
    ("DeepSeek-V2" is not "DeepSeek-V2.5", "Qwen2.5" not "Qwen2.5-7B"), never a variant that
    another row of the family also has."""
    from benchaudit.claims.model_claims import resolve_label

    found = resolve_label(name, models)
    return found if found is not None else head_row(name, models)


def head_row(name: str, models: list[str]) -> str | None:
    """The one row whose own name is ``name`` plus a word (see :func:`resolve_loose`)."""
    from benchaudit.claims.model_claims import fold, label

    said = name.strip()
    if len(fold(said)) < 4 or not re.search(r"\d", said):
        return None  # a bare family word ("Eurus") heads too many names to say one
    head = re.compile(r"[-\s_]?".join(re.escape(p) for p in re.split(r"[-\s_]+", said) if p) + r"[-\s_]+(?P<tail>.+)$", re.I)
    rows = []
    for m in models:
        own = label(m).strip()
        hit = head.match(own)
        if hit is not None and not _NOT_A_WORD_TAIL.search(hit.group("tail")):
            rows.append(m)
    return rows[0] if len(rows) == 1 else None


#: A tail that makes another model rather than a variant of the same one: any digit (a size,
#: a version, "-Distill-Qwen-32B"), a word of another model of the family ("mini", "Pro"), a
#: distilled or quantised copy.
_NOT_A_WORD_TAIL = re.compile(
    r"\d|^(?:mini|pro|flash|lite|plus|max|turbo|ultra|nano|air|vision|vl|coder|math)\b|distill|quant|int[48]|awq|gptq",
    re.I,
)


#: What prose writes after a model's name, spaced, that is still its name: a size ("Qwen2.5
#: 72B", "Mixtral 8x22B") and the variant words after it ("LLaMA3 70B Chat", "GPT-4o mini").
_SPACED_TAIL = re.compile(
    r"(?P<size>\s+(?:\d+x)?\d+(?:\.\d+)?[BM]\b)?"
    r"(?P<words>(?:\s+(?:chat|instruct|inst|base|mini|turbo|pro|flash|lite|plus|max|preview)\b)*)",
    re.I,
)


def _resolve_spelled(
    sentence: str, mention: NameMention, models: list[str], base: Resolver
) -> str | None:
    """The table model a prose name stands for, read with the size and variant words written
    after it ("Qwen2.5 72B", "GPT-4o mini"): the longest spelling that names one row. A size
    said that no row of the table carries with the name is another model, never the bare
    name's row ("Qwen2.5 72B" is not the table's only "Qwen2.5-7B")."""
    tail = _SPACED_TAIL.match(sentence, mention.end)
    said = tail.group(0) if tail else ""
    if not said.strip():
        return base(mention.text, models)
    words = said.split()
    for k in range(len(words), 0, -1):
        found = base(mention.text + " " + " ".join(words[:k]), models)
        if found is not None:
            return found
    if tail is not None and tail.group("size"):
        return None
    found = base(mention.text, models)
    # "GPT-4o mini" said, a "GPT-4o" row found: the words said are another model's.
    return None if found is not None and _variant_dropped(said, found, _OTHER_MODEL_WORDS) else found


def _tuning_clash(said: str, row: str) -> bool:
    """Whether a name as written says a chat or instruct model and the row is a base model, or
    the other way round: another model than the row, whatever the resolver folds away."""
    from benchaudit.claims.model_claims import label

    def kind(text: str) -> str:
        words = {w.lower() for w in re.findall(r"(?<![a-z])(base|chat|instruct|inst)(?![a-z])", text, re.I)}
        return "base" if words == {"base"} else "tuned" if words and "base" not in words else ""

    mine, theirs = kind(said), kind(label(row))
    return bool(mine and theirs and mine != theirs)


#: Variant words that make another model of a family ("mini", "Pro"), not another spelling.
_OTHER_MODEL_WORDS = re.compile(r"\s*(?:(?:mini|pro|flash|lite|plus|max|turbo)\b\s*)+", re.I)


#: The variant words that may follow a model's name in prose ("DeepSeek-V2 Chat (SFT)").
_VARIANT_AFTER = re.compile(r"\s*(?:(?:chat|instruct|base|sft|rl|dpo)\b[\s()]*)+", re.I)


def _variant_dropped(after: str, row: str, variants: re.Pattern[str] | None = None) -> bool:
    """Whether the words after a prose name give a variant ("Chat", "(SFT)") the row's label
    does not: the name as read was cut short, and the row found is another model."""
    from benchaudit.claims.model_claims import fold

    m = (variants or _VARIANT_AFTER).match(after)
    if m is None:
        return False
    words = re.findall(r"[a-z]+", m.group(0).lower())
    return any(w not in fold(row) for w in words)


def subject_reason(comp: ModelComparison, st: ScoreTable, a: str) -> str:
    """Why the claim's subject was read as the row ``a`` when the sentence does not name that
    row as written ("it" for the model the sentence before names, a short name of the title's
    model): words for the message, so the reader sees the premise; "" when it is named."""
    from benchaudit.claims.model_claims import resolve
    from benchaudit.claims.rivals import subject_with_reason

    models = sorted({c.model for line in st.lines for c in line.cells})
    mention = subject_mention(comp)
    if mention is not None and _resolve_spelled(comp.sentence, mention, models, resolve) == a:
        return ""
    if mention is not None and _resolve_spelled(comp.sentence, mention, models, resolve_loose) == a:
        if head_row(mention.text, models) == a:
            return f"'{mention.text}' read as the row {a}, the one row of the table whose name begins with it"
        return ""
    row, why = subject_with_reason(comp, models)
    return why if row == a else ""


def best_family(comp: ModelComparison, st: ScoreTable) -> tuple[set[str], str]:
    """The rows a claim to be the best is about in ``st``, and why they were read so ("" when
    the sentence names them as written): the rows its subject's name covers, else, for a
    subject that names no model ("the model achieves SOTA ...", "It sets ..."), the one row
    :func:`benchaudit.claims.rivals.subject_with_reason` infers, with its reason."""
    from benchaudit.claims.model_claims import resolve_family, subject_of
    from benchaudit.claims.rivals import subject_with_reason

    models = sorted({c.model for line in st.lines for c in line.cells})
    subject = subject_of(comp)
    if subject is not None:
        return set(resolve_family(subject, models)), ""
    row, why = subject_with_reason(comp, models)
    return ({row}, why) if row is not None and why else (set(), "")
