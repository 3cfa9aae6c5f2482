"""Arena-Hard-Auto judgments (``model_judgment/<judge>/<model>.jsonl``, kind ``judgments``).

One line per question: ``uid`` (older releases: ``question_id``), ``model``, often
``judge``, ``baseline`` and ``category``, and ``games``: two judgments of the same pair
of answers, the first with the baseline's answer shown as assistant A and the model's as
B, the second with the two swapped. Each game's ``score`` is the judge's verdict on the
slots (``A>>B``, ``A>B``, ``A=B``, ``B>A``, ``B>>A``, and the mirrored ``A<B`` forms);
a ``null`` score is a judgment the judge's answer could not be parsed into.

A file becomes two sources: the model's per-question preference against the baseline
(both games averaged, a win 1, a tie 1/2, a loss 0: the win rate with an interval over
questions), and the two games as verdicts in both orders (position bias and swap
consistency). Arena-Hard's own score counts a strong verdict (``>>``) three times; the
reader says what that count gives, so the two are not confused.
Standard library only.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchaudit.errors import InputError
from benchaudit.inputs import Probe, Reader
from benchaudit.linebreaks import split_lines

if TYPE_CHECKING:
    from benchaudit.context import RunContext as Context
    from benchaudit.evidence import Source
    from benchaudit.inputs.judgments import JudgmentSet

#: The slot a verdict prefers, and whether it is a strong one (``>>``).
VERDICTS: dict[str, tuple[str, bool]] = {
    "A>>B": ("A", True),
    "A>B": ("A", False),
    "A=B": ("tie", False),
    "B=A": ("tie", False),
    "B>A": ("B", False),
    "B>>A": ("B", True),
    "A<B": ("B", False),
    "A<<B": ("B", True),
    "B<A": ("A", False),
    "B<<A": ("A", True),
}
#: How many times Arena-Hard's scoring counts a strong verdict.
STRONG_WEIGHT = 3
ITEM_KEYS = ("uid", "question_id")


def _is_judgment(rec: Any) -> bool:
    if not isinstance(rec, dict) or not isinstance(rec.get("model"), str):
        return False
    games = rec.get("games")
    return (
        any(k in rec for k in ITEM_KEYS)
        and isinstance(games, list)
        and bool(games)
        and all(g is None or (isinstance(g, dict) and "score" in g) for g in games)
    )


def sniff(p: Probe) -> float:
    if p.suffix != ".jsonl":
        return 0.0
    first = next((ln for ln in split_lines(p.text) if ln.strip()), "")
    if '"games"' not in first:
        return 0.0
    try:
        rec = json.loads(first)
    except ValueError:
        # A long first line cut by the probe: the keys it starts with still say it.
        head = first[:400]
        return 0.9 if '"model"' in head and any(f'"{k}"' in head for k in ITEM_KEYS) else 0.0
    return 0.97 if _is_judgment(rec) else 0.0


def _model_score(slot: str, model_slot: str) -> float:
    """The model's result in one game: 1 won, 1/2 tie, 0 lost."""
    return 0.5 if slot == "tie" else 1.0 if slot == model_slot else 0.0


def _verdict(game: Any, display: str, no: int, k: int) -> tuple[str, bool] | None:
    score = game.get("score") if isinstance(game, dict) else None
    if score is None:
        return None
    if not isinstance(score, str) or score.strip() not in VERDICTS:
        raise InputError(
            display,
            f"game {k + 1} score {score!r} is not an Arena-Hard verdict (A>>B ... B>>A)",
            no,
        )
    return VERDICTS[score.strip()]


def read(path: Path, display: str, ctx: Context) -> list[Source[JudgmentSet]]:
    from benchaudit.evidence import Source
    from benchaudit.inputs.judgments import JudgmentSet

    text = path.read_text(encoding="utf-8").lstrip("\ufeff")
    lines = split_lines(text)
    pref = JudgmentSet(path=display, layout="preferences")
    orders = JudgmentSet(path=display, layout="long")
    seen: dict[tuple[str, str], int] = {}
    # Without a baseline in the rows, the judge folder stands for it: Arena-Hard judges
    # every model of ``model_judgment/<judge>/`` against the one baseline of its config,
    # so models of one folder are compared on shared questions, never across folders.
    unnamed = f"the baseline of {path.parent.name or '.'}/"
    nulls = strong = 0
    weighted: dict[str, list[float]] = {}
    judges: set[str] = set()
    for no, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(display, f"invalid JSON ({exc.msg})", no) from None
        if not _is_judgment(rec):
            raise InputError(display, "not an Arena-Hard judgment (uid, model, games)", no)
        item = str(next(rec[k] for k in ITEM_KEYS if k in rec))
        model = rec["model"].strip()
        baseline = str(rec.get("baseline") or "").strip() or unnamed
        if not model:
            raise InputError(display, "empty model name", no)
        if (model, item) in seen:
            raise InputError(
                display, f"{model} on {item} is judged twice (line {seen[model, item]})", no
            )
        seen[model, item] = no
        judges.add(str(rec.get("judge") or ""))
        games = rec["games"]
        if len(games) > 2:
            raise InputError(display, f"{len(games)} games; Arena-Hard plays one or two", no)
        got = [_verdict(g, display, no, k) for k, g in enumerate(games)]
        if any(v is None for v in got):
            nulls += 1  # Arena-Hard leaves the whole question out, and so does this
            continue
        verdicts = [v for v in got if v is not None]
        # Game 1 shows the model as B, game 2 (the swap) as A.
        scores = [_model_score(v[0], "B" if k == 0 else "A") for k, v in enumerate(verdicts)]
        pref.models.append(model)
        pref.baselines.append(baseline)
        pref.items.append(item)
        pref.preference.append(1.0 + sum(scores) / len(scores))  # AlpacaEval's 1-2 scale
        pref.lines.append(no)
        for v, s in zip(verdicts, scores):
            strong += v[1]
            weighted.setdefault(model, []).extend([s] * (STRONG_WEIGHT if v[1] else 1))
        if len(verdicts) == 2:
            # The model is the subject: the order that shows it first (game 2, model as A)
            # is the original, game 1 (the baseline as A) the swap.
            orders.original.append(verdicts[1][0])
            orders.swapped.append(verdicts[0][0])
            orders.items.append(item)
            orders.pairs.append((model, baseline))
            orders.lines.append(no)
    if not pref.preference:
        raise InputError(display, "no usable judgments (every game's score is null)")
    notes = _notes(display, pref, nulls, strong, weighted, judges, unnamed)
    from benchaudit.inputs.judgments import _note_baselines

    _note_baselines(pref, display, notes)
    out = [Source(path=display, kind="judgments", data=pref, lines=lines, notes=notes)]
    if orders.original:
        out.append(Source(path=display, kind="judgments", data=orders, lines=lines, notes=[]))
    return out


def _notes(
    display: str,
    pref: JudgmentSet,
    nulls: int,
    strong: int,
    weighted: dict[str, list[float]],
    judges: set[str],
    unnamed: str,
) -> list[str]:
    notes = []
    games = sum(len(v) for v in weighted.values()) - (STRONG_WEIGHT - 1) * strong
    shown = ", ".join(f"{m} {100 * sum(s) / len(s):.2f}%" for m, s in weighted.items())
    notes.append(
        f"{display}: Arena-Hard judgments: win rate per question (the two games averaged, "
        f"a tie counted half); {strong} of {games} games are strong verdicts (>>), which "
        f"Arena-Hard's own score counts {STRONG_WEIGHT} times ({shown}), and its leaderboard "
        "fits a Bradley-Terry model over all models, so its headline can differ"
    )
    if unnamed in pref.baselines:
        notes.append(
            f"{display}: the file does not name the baseline model (Arena-Hard sets it in "
            f"judge_config.yaml): the win rate is against {unnamed.removesuffix('/')} "
            "(its judge folder), which every file of that folder shares"
        )
    if nulls:
        notes.append(
            f"{display}: {nulls} question(s) with a null game score (the judge's verdict "
            "could not be parsed) left out, as Arena-Hard leaves them out"
        )
    judges.discard("")
    if len(judges) > 1:
        notes.append(f"{display}: judged by {len(judges)} judges ({', '.join(sorted(judges))})")
    return notes


READER = Reader(
    kind="judgments",
    sniff=sniff,
    read=read,
    description="Arena-Hard-Auto model_judgment JSONL (two games per question)",
    formats=(".jsonl",),
)
