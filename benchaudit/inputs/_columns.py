"""Which column of a per-item file plays which role, and what its values look like.

Shared by the probe (a few rows of text) and the reader (whole columns): the
same rules decide both, so what detection promised is what reading does.
Standard library only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from benchaudit.errors import InputError

if TYPE_CHECKING:
    from benchaudit.benchmarks import Registry

#: Spellings of each column role, most specific first (compared lower-cased,
#: with spaces and dashes read as underscores).
ROLES: dict[str, tuple[str, ...]] = {
    "model": (
        "model",
        "model_name",
        "model_id",
        "system",
        "system_name",
        "llm",
        "llm_name",
        "agent",
        "checkpoint",
        "name",
    ),
    "item": (
        "item",
        "item_id",
        "question_id",
        "question",
        "doc_id",
        "task_id",
        "example_id",
        "problem_id",
        "instance_id",
        "id",
        "problem",
        "qid",
        "uid",
        "idx",
        "example",
        "prob",
        "task",
    ),
    "score": (
        "correct",
        "is_correct",
        "is_pass",
        "is_passed",
        "score",
        "acc",
        "accuracy",
        "passed",
        "exact_match",
        "em",
        "pass",
        "success",
        "resolved",
        "result",
        "verdict",
        "points",
        "rating",
        "judge_score",
        "judge_rating",
        "grader_score",
        "f1",
        "outcome",
        "score_pct",
        "percent_correct",
    ),
    "points": ("points", "points_earned", "earned", "earned_points"),
    "max_points": (
        "max_points",
        "max_score",
        "points_possible",
        "possible_points",
        "total_points",
        "out_of",
    ),
    "cluster": (
        "cluster",
        "cluster_id",
        "passage",
        "passage_id",
        "repo",
        "repository",
        "repo_name",
        "conversation",
        "conversation_id",
        "dialogue_id",
        "thread_id",
        "topic",
        "context_id",
        "document_id",
        "article_id",
        "story_id",
        "group_id",
    ),
    "seed": ("seed", "run", "run_id", "replicate", "seed_id", "random_seed", "trial"),
    "sample": (
        "sample",
        "sample_id",
        "sample_idx",
        "sample_index",
        "sample_num",
        "generation",
        "generation_id",
        "generation_idx",
        "generation_index",
        "completion_id",
        "attempt",
        "attempt_id",
        "epoch",
    ),
    "turn": ("turn", "turn_id", "turn_idx", "turn_index"),
    "confidence": ("confidence", "probability", "prob", "p_correct"),
    "chosen": (
        "chosen",
        "choice",
        "chosen_option",
        "predicted_option",
        "pred_option",
        "selected",
        "selected_option",
        "prediction",
        "predicted",
        "pred",
        "predicted_answer",
        "model_answer",
    ),
    "gold": (
        "gold",
        "gold_option",
        "correct_option",
        "answer_key",
        "gold_answer",
        "correct_answer",
        "target",
        "label",
        "answer",
        "reference",
    ),
    "variant": (
        "variant",
        "variant_id",
        "prompt",
        "prompt_id",
        "prompt_variant",
        "prompt_template",
        "prompt_name",
        "template",
        "template_id",
        "checkpoint",
        "checkpoint_id",
        "config",
    ),
}
OPTIONAL = (
    "points",
    "max_points",
    "cluster",
    "seed",
    "sample",
    "turn",
    "confidence",
    "chosen",
    "gold",
    "variant",
)
#: Score columns whose name allows a wider scale (a rating, points, a percentage).
SCALED_SCORES = {"score", "points", "rating", "judge_score", "judge_rating", "grader_score"} | {
    "f1",
    "score_pct",
    "percent_correct",
}
#: Score columns that hold a verdict (0/1, or a fraction of one): any value
#: outside 0-1 in them is an error, not another scale.
UNIT_SCORES = set(ROLES["score"]) - SCALED_SCORES

TRUE_WORDS = ("true", "1", "yes", "y", "t", "1.0", "pass", "passed", "correct")
FALSE_WORDS = ("false", "0", "no", "n", "f", "0.0", "fail", "failed", "incorrect", "wrong")
#: Cell values that mean "no result here": a missing cell, never a zero.
MISSING_WORDS = ("", "na", "n/a", "nan", "null", "none", "-", "#n/a")
_NUMERIC = re.compile(r"^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$")

#: Column names that are never per-item model outputs (ids, counts, times,
#: lengths, costs), each with the reason given when a wide file has one.
NOT_OUTPUTS = (
    (re.compile(r"(^|_)(n_)?tokens?($|_)|_tokens?$|^tok(en)?s?_|^n_tok"), "a token count"),
    (re.compile(r"latency|duration|elapsed|(^|_)time($|_)|_secs?$|_seconds?$|_ms$|_s$"), "a time"),
    (re.compile(r"timestamp|tstamp|(^|_)date($|_)|created|updated"), "a timestamp"),
    (
        re.compile(
            r"(^|_)(n|num|count|counts|total|size)($|_)|_count$"
            r"|^n_?(words|chars|steps|turns|items|samples|calls|tries|attempts|lines)$"
        ),
        "a count",
    ),
    (re.compile(r"(^|_)(len|length|chars|words)($|_)"), "a length"),
    (re.compile(r"cost|price|usd|dollars"), "a cost"),
    (
        re.compile(r"(^|_)(temperature|temp|top_p|top_k|max_tokens|shard|fold|split|batch)($|_)"),
        "a setting or partition",
    ),
    (re.compile(r"(^|_)(id|idx|index|row|line|step|epoch|seed|turn|rank|year|k)($|_)"), "an index"),
)


def norm(name: str) -> str:
    """A column name as the spellings are written: lower case, spaces, dashes and other
    punctuation as single underscores (``Correct?`` -> ``correct``, ``Question ID`` ->
    ``question_id``); dots stay, they join nested JSON fields."""
    return re.sub(r"[^\w.]+", "_", str(name).strip().lower()).strip("_")


def not_output(name: str) -> str | None:
    """Why a column cannot hold a model's per-item scores, or None."""
    n = norm(name)
    for pattern, reason in NOT_OUTPUTS:
        if pattern.search(n):
            return reason
    return None


def _nested_score(n: str) -> bool:
    """``result.correct``, ``scores.match.value``, ``metrics.acc``: a nested score field."""
    if "." not in n:
        return False
    parts = n.split(".")
    if parts[0] in ("scores", "score") and parts[-1] == "value" and len(parts) == 3:
        return True
    return parts[-1] in ROLES["score"] and parts[-1] != "points"


def score_candidates(names: Sequence[str]) -> list[str]:
    """Every column whose name says it holds the score (flat or nested)."""
    out = []
    for n in names:
        k = norm(n)
        if k in ROLES["score"] or _nested_score(k):
            out.append(n)
    return out


def find_columns(
    names: Sequence[str], overrides: dict[str, str] | None = None, display: str | None = None
) -> dict[str, str]:
    """Role -> actual column name, from overrides first, then common spellings.

    Nested JSON fields arrive flattened (``result.correct``); a nested score is
    taken when no flat one exists. With ``display``, several nested score fields
    and no choice made are an error naming them and the flag that chooses.
    """
    by_norm: dict[str, str] = {}
    for n in names:
        by_norm.setdefault(norm(n), n)
    out: dict[str, str] = {}
    used: set[str] = set()
    for role, name in (overrides or {}).items():
        actual = by_norm.get(norm(name))
        if actual is not None:
            out[role] = actual
            used.add(actual)
    for role, spellings in ROLES.items():
        if role in out:
            continue
        if role == "variant" and out.get("model") == by_norm.get("checkpoint"):
            continue  # checkpoint is the model column here, not a version of one
        for s in spellings:
            actual = by_norm.get(s)
            if actual is not None and actual not in used:
                out[role] = actual
                used.add(actual)
                break
    if "item" not in out and "item" not in (overrides or {}) and names and _index_name(names[0]):
        # A table written with its index (pandas ``to_csv()``): the unnamed first column.
        out["item"] = names[0]
    if "item" not in out and "item" not in (overrides or {}) and out.get("sample") is not None:
        # inspect_ai and OpenAI evals call the dataset item ``sample_id``: with no other
        # item column it can only be the item (a generation index needs an item beside it).
        if norm(out["sample"]) in ("sample_id", "sample") and "sample" not in (overrides or {}):
            out["item"] = out.pop("sample")
    if "score" not in out:
        nested = [n for n in names if _nested_score(norm(n)) and n not in used]
        if len(nested) == 1:
            out["score"] = nested[0]
        elif len(nested) > 1 and display is not None and "model" in out:
            # (Without a model column each nested object is a system: nested_json's layout.)
            raise InputError(
                display,
                f"{len(nested)} nested score fields ({', '.join(nested[:6])}): two readings are "
                f"plausible; choose one with --column score={nested[0]}",
            )
    # Points earned with a maximum: the points column is the score.
    if "max_points" in out and "points" not in out and "score" in out:
        out["points"] = out["score"]
    if "points" in out and "score" not in out:
        out["score"] = out["points"]
    if "points" in out and "score" in out and out["score"] != out["points"]:
        # A 0/1 column next to points: points decide the score.
        out["score"] = out["points"]
    return out


def _index_name(name: str) -> bool:
    """The header a written index gets: empty, or pandas' ``Unnamed: 0``."""
    return re.fullmatch(r"\s*(unnamed:?\s*0)?\s*", str(name).lower()) is not None


# --- values ----------------------------------------------------------------------------


def is_missing(value: str) -> bool:
    return value.strip().lower() in MISSING_WORDS


def number(value: str) -> float | None:
    v = value.strip().lower()
    if v in TRUE_WORDS:
        return 1.0
    if v in FALSE_WORDS:
        return 0.0
    return float(v) if _NUMERIC.match(v) else decimal_comma(v)


_DECIMAL_COMMA = re.compile(r"^\s*[-+]?(\d+),(\d+)\s*$")
_PERCENT = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+))\s*%\s*$")


def percent(value: str) -> float | None:
    """``56%`` or ``56.0 %`` as the proportion 0.56; anything else None. Read only when a
    whole score column is written this way (:func:`value_type`), so one stray ``%`` never
    changes the scale of plain numbers."""
    m = _PERCENT.match(value)
    return float(m.group(1)) / 100.0 if m else None


def decimal_comma(value: str) -> float | None:
    """``0,5`` as 0.5: a decimal comma, as spreadsheets in many locales write scores (in
    ``;``-separated files). ``1,000`` and ``12,500`` could be thousands and are not read."""
    m = _DECIMAL_COMMA.match(value)
    if m is None or (len(m.group(2)) == 3 and m.group(1).lstrip("-+") != "0"):
        return None
    return float(value.strip().replace(",", "."))


def value_type(values: Sequence[str]) -> str:
    """What a column's cells look like: ``0/1``, ``0-1 graded``, ``0-100``, ``1-10``,
    ``integers``, ``numbers``, ``text`` or ``empty`` (missing cells are skipped)."""
    nums: list[float] = []
    percents = 0
    for v in values:
        if is_missing(v):
            continue
        x = number(v)
        if x is None:
            x = percent(v)
            if x is None:
                return "text"
            percents += 1
        nums.append(x)
    if not nums:
        return "empty"
    if percents and percents < len(nums):
        return "text"  # percentages beside plain numbers: no one scale to read them on
    return scale_of(nums)


def scale_of(nums: Sequence[float]) -> str:
    """The bounded scale that values fit, by the smallest one that holds them all."""
    lo, hi = min(nums), max(nums)
    integral = all(float(x).is_integer() for x in nums)
    halves = all(float(x * 2).is_integer() for x in nums)  # a judge's 8.5 of 10
    if lo >= 0 and hi <= 1:
        return "0/1" if all(x in (0.0, 1.0) for x in nums) else "0-1 graded"
    if halves and lo >= 0 and hi <= 10:
        top = 5 if hi <= 5 else 7 if hi <= 7 else 10
        return f"{0 if lo == 0 else 1}-{top}"
    if lo >= 0 and hi <= 100:
        return "0-100"
    return "integers" if integral else "numbers"


def is_scoreish(value_kind: str) -> bool:
    return value_kind not in ("text", "empty", "integers", "numbers")


def wide_models(
    names: Sequence[str], rows: Sequence[Sequence[str]], cols: dict[str, str]
) -> tuple[list[str], dict[str, str]]:
    """Columns of a wide layout, and the columns left out with the reason.

    A model column holds per-item scores on the scale the other model columns
    use; identifiers, counts, times, lengths and costs never do, whatever
    their values.
    """
    skip = set(cols.values())
    kinds: dict[str, str] = {}
    left_out: dict[str, str] = {}
    for j, n in enumerate(names):
        if n in skip:
            continue
        reason = not_output(n)
        if reason:
            left_out[n] = reason
            continue
        kind = value_type([r[j] for r in rows if j < len(r)])
        if is_scoreish(kind):
            kinds[n] = kind
        else:
            # An empty column is said too: it may be a model whose run wrote nothing.
            left_out[n] = "no values" if kind == "empty" else f"{kind} values"
    models = list(kinds)
    if models:
        # One scale for all models: 0/1 and graded 0-1 share the unit scale.
        family = {k: ("unit" if k in ("0/1", "0-1 graded") else k) for k in kinds.values()}
        counts: dict[str, int] = {}
        for n in models:
            counts[family[kinds[n]]] = counts.get(family[kinds[n]], 0) + 1
        main = max(counts, key=lambda f: (counts[f], f == "unit"))
        for n in list(models):
            if family[kinds[n]] != main:
                left_out[n] = f"on another scale ({kinds[n]})"
                models.remove(n)
    return models, left_out


#: Suffixes that a wide file's model columns may share (``gpt-4o_correct``): the score's
#: name, not part of the model's.
SCORE_SUFFIXES = ("_is_correct", "_correct", "_passed", "_pass", "_acc", "_accuracy", "_score")


def model_labels(columns: Sequence[str]) -> list[str]:
    """The models of a wide file's columns: a score suffix that every column shares is
    dropped (``a_correct``, ``b_correct`` -> ``a``, ``b``) when the names stay distinct."""
    for suffix in SCORE_SUFFIXES:
        if columns and all(norm(c).endswith(suffix) and len(c) > len(suffix) for c in columns):
            cut = [c[: -len(suffix)].rstrip("_ -.") for c in columns]
            if all(cut) and len(set(cut)) == len(cut):
                return cut
    return list(columns)


# --- task names and rival columns ------------------------------------------------------

#: lm-evaluation-harness group prefixes that precede a benchmark's own name.
TASK_GROUP_PREFIXES = ("leaderboard_", "openllm_", "tinybenchmarks_", "tiny")


def is_task_name(value: str) -> bool:
    """A benchmark of the registry, or an lm-eval task of one (``mmlu_anatomy``,
    ``gsm8k_cot``, ``leaderboard_ifeval``): underscore-joined prefixes are tried."""
    from benchaudit.benchmarks import Registry

    reg = _registry(Registry)
    v = value.strip().lower()
    for prefix in TASK_GROUP_PREFIXES:
        if v.startswith(prefix) and len(v) > len(prefix):
            v = v[len(prefix) :]
            break
    parts = v.split("_")
    return any(reg.resolve("_".join(parts[:k])) is not None for k in range(len(parts), 0, -1))


_REGISTRY: list[Registry] = []


def _registry(cls: type[Registry]) -> Registry:
    if not _REGISTRY:
        _REGISTRY.append(cls.load())
    return _REGISTRY[0]


def names_tasks(values: Sequence[str]) -> bool:
    """Whether a column's values are task or benchmark names (half or more of the
    distinct ones), so the column is not a model column whatever its name."""
    distinct = {v.strip() for v in values if not is_missing(v)}
    if not distinct:
        return False
    return 2 * sum(is_task_name(v) for v in distinct) >= len(distinct)


#: Spellings that say little on their own: a column so named takes a role with less
#: evidence than one named for the role.
WEAK_SPELLINGS = {"name", "id", "question", "problem", "prob", "task", "result", "points"}
#: Two columns whose fit for a role differs by less than this are rival readings.
ROLE_MARGIN = 0.1
#: The roles whose column is contested among other columns of the role's spellings.
CONTESTED = ("model", "item", "score")


def role_fit(role: str, name: str, values: Sequence[str], most_distinct: int = 0) -> float:
    """How well a column fits a role (0-1): the evidence of its name times that of its
    values. A model column holds a few repeated labels, an item column as many distinct
    ones as the most varied of its rivals (``most_distinct``), a score column values on
    a bounded score scale."""
    strength = 0.8 if norm(name) in WEAK_SPELLINGS else 1.0
    cells = [v.strip() for v in values if not is_missing(v)]
    if not cells:
        return 0.0
    kind = value_type(cells)
    distinct = len(set(cells))
    if role == "score":
        fit = 1.0 if is_scoreish(kind) else 0.3 if kind in ("integers", "numbers") else 0.0
    elif role == "model":
        if norm(name) == "name" and names_tasks(cells):
            return 0.0
        fit = 0.2 if kind != "text" else 1.0 if distinct < len(cells) else 0.6
    else:  # item: the more distinct values, the better
        fit = distinct / max(most_distinct, distinct)
    return strength * fit


def same_reading(a: Sequence[str], b: Sequence[str], role: str) -> bool:
    """Two columns give the same reading: equal scores, or labels in one-to-one
    correspondence (``model`` and ``model_id`` naming the same runs)."""
    pairs = list(zip(a, b))
    if role == "score":
        return all(number(x) == number(y) for x, y in pairs if not (is_missing(x) or is_missing(y)))
    forward: dict[str, str] = {}
    backward: dict[str, str] = {}
    for x, y in pairs:
        if forward.setdefault(x, y) != y or backward.setdefault(y, x) != x:
            return False
    return True


def rival_columns(
    names: Sequence[str],
    rows: Sequence[Sequence[str]],
    cols: dict[str, str],
    overrides: dict[str, str] | None = None,
) -> tuple[str, str, str] | None:
    """(role, chosen column, rival column) when another column spelled for the role fits
    it within :data:`ROLE_MARGIN` of the chosen one and reads differently; else None.

    Roles named with ``--column`` are never contested; points decide the score.
    """
    overrides = overrides or {}
    taken = set(cols.values())
    for role in CONTESTED:
        chosen = cols.get(role)
        if chosen is None or role in overrides or (role == "score" and "points" in cols):
            continue
        spellings = set(ROLES[role])
        others = [
            n
            for n in names
            if n != chosen
            and n not in taken
            and (norm(n) in spellings or (role == "score" and _nested_score(norm(n))))
        ]
        if not others:
            continue
        column = {n: [r[j] for r in rows if j < len(r)] for j, n in enumerate(names)}
        most = max(len(set(column[n])) for n in (chosen, *others))
        mine = role_fit(role, chosen, column[chosen], most)
        for other in others:
            theirs = role_fit(role, other, column[other], most)
            if min(mine, theirs) < 0.5 or abs(mine - theirs) >= ROLE_MARGIN:
                continue
            if not same_reading(column[chosen], column[other], role):
                return role, chosen, other
    return None
