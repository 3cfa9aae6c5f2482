"""Judge audits (kind ``judgments``): judge-vs-human labels, or judgments in both orders.

Three layouts, CSV/TSV or JSONL:

- labels: a ``judge`` column and a ``human`` column (also ``judge_label`` /
  ``human_label``, ``llm`` / ``gold``), one row per item;
- both orders: long, with an item column, an order column (``order``,
  ``swap``, ``swapped``, ``position``) and a verdict column (``verdict``,
  ``winner``, ``choice``), two rows per item; or wide, with
  ``verdict_original`` / ``verdict_swapped`` (``original`` / ``swapped``)
  columns. Verdicts name the slot: ``A``, ``B`` or ``tie``;
- per-item preferences against a baseline (AlpacaEval annotations): ``model``,
  an item column and ``preference`` (1–2 with 2 = the model won, or 0–1),
  with ``output`` / ``output_hash`` or ``output_len_chars`` when present.

Standard library only; these files are small.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchaudit.errors import InputError
from benchaudit.inputs import Probe, Reader, delimiter_of
from benchaudit.linebreaks import split_lines

if TYPE_CHECKING:
    from benchaudit.context import RunContext as Context
    from benchaudit.evidence import Source
    from benchaudit.stats.agreement import Kappa, PositionBias

JUDGE = ("judge", "judge_label", "llm", "llm_label", "llm_judge", "model_label", "judge_verdict")
HUMAN = ("human", "human_label", "gold", "gold_label", "annotator", "human_verdict", "reference")
#: A count column turns rows into cells of a contingency table ("pass,pass,65").
COUNT = ("count", "n", "items", "freq", "frequency", "num_items")
ITEM = ("item", "item_id", "question_id", "id", "pair_id", "qid")
ORDER = ("order", "swap", "swapped", "position", "game")
VERDICT = ("verdict", "winner", "choice", "judgment", "label")
WIDE = (
    ("verdict_original", "verdict_swapped"),
    ("original", "swapped"),
    ("verdict_ab", "verdict_ba"),
    ("first_order", "second_order"),
)
SWAPPED_VALUES = {"swapped", "swap", "ba", "b-a", "reversed", "1", "true", "yes", "second", "2nd"}
ORIGINAL_VALUES = {"original", "ab", "a-b", "forward", "0", "false", "no", "first", "1st"}


def _pick(names: list[str], wanted: tuple[str, ...]) -> str | None:
    low = {n.strip().lower(): n for n in names}
    for w in wanted:
        if w in low:
            return low[w]
    return None


def _fuzzy(names: list[str], exact: tuple[str, ...], parts: tuple[str, ...]) -> str | None:
    """An exact alias, else the only column whose name contains one of ``parts``."""
    got = _pick(names, exact)
    if got:
        return got
    hits = [n for n in names if any(p in n.strip().lower() for p in parts)]
    return hits[0] if len(hits) == 1 else None


def _judge_col(names: list[str]) -> str | None:
    return _fuzzy(names, JUDGE, ("judge", "llm", "gpt"))


def _human_col(names: list[str]) -> str | None:
    return _fuzzy(names, HUMAN, ("human", "gold", "annotat", "expert"))


PREFERENCE = ("preference", "pref", "win_prob")
OUTPUT = ("output", "output_text", "output_hash", "output_sha1", "generation")
OUTPUT_LEN = ("output_len_chars", "output_len", "output_length", "length")


#: FastChat MT-bench pair judgments: game 1 shows model_1 first, game 2 model_2
#: first; both winners are given as model_1 / model_2 / tie (or error).
MTBENCH = ("model_1", "model_2", "g1_winner", "g2_winner")
#: AlpacaEval annotations.json: generator_2 (the model) against generator_1 (the reference),
#: read per row; preference 1 = output_1 preferred, 2 = output_2.
ALPACA = ("generator_1", "generator_2", "preference")


def _layout(names: list[str]) -> str | None:
    low = {n.strip().lower() for n in names}
    if all(k in low for k in MTBENCH):
        return "mtbench"
    if all(k in low for k in ALPACA):
        return "annotations"
    if (
        _pick(names, ("model",))
        and _pick(names, PREFERENCE)
        and (_pick(names, ITEM) or _pick(names, ("item_idx", "instruction", "instruction_sha1")))
    ):
        return "preferences"
    jc, hc = _judge_col(names), _human_col(names)
    if jc and hc and jc != hc:
        return "labels"
    if any(o in low and s in low for o, s in WIDE):
        return "wide"
    if _pick(names, ITEM) and _pick(names, ORDER) and _pick(names, VERDICT):
        return "long"
    return None


def _records(text: str, suffix: str, display: str) -> tuple[list[str], list[dict[str, str]], list[int]]:
    if suffix == ".json":
        try:
            doc = json.loads(text)
        except ValueError as exc:
            raise InputError(display, f"invalid JSON ({str(exc).split(':')[0]})") from None
        if not isinstance(doc, list) or not all(isinstance(r, dict) for r in doc):
            raise InputError(display, "expected a JSON array of judgment records")
        names: list[str] = []
        for r in doc:
            names.extend(k for k in r if k not in names)
        recs = [{k: "" if v is None else str(v) for k, v in r.items()} for r in doc]
        return names, recs, list(range(1, len(recs) + 1))  # record numbers
    if suffix == ".jsonl":
        recs, lines, names = [], [], []
        for no, line in enumerate(split_lines(text), 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(display, f"invalid JSON ({exc.msg})", no) from None
            if not isinstance(rec, dict):
                raise InputError(display, "each line must be a JSON object", no)
            for k in rec:
                if k not in names:
                    names.append(k)
            recs.append({k: "" if v is None else str(v) for k, v in rec.items()})
            lines.append(no)
        return names, recs, lines
    delim = delimiter_of(text, suffix)
    try:
        rows = list(csv.reader(io.StringIO(text), delimiter=delim))
    except csv.Error as exc:
        raise InputError(display, f"malformed CSV: {exc}") from None
    if not rows:
        return [], [], []
    names = [h.strip() for h in rows[0]]
    recs, lines = [], []
    for no, row in enumerate(rows[1:], 2):
        if not any(c.strip() for c in row):
            continue
        if len(row) != len(names):
            raise InputError(display, f"ragged row: {len(row)} fields, expected {len(names)}", no)
        recs.append(dict(zip(names, (c.strip() for c in row))))
        lines.append(no)
    return names, recs, lines


def sniff(p: Probe) -> float:
    if p.suffix not in (".csv", ".tsv", ".jsonl", ".json"):
        return 0.0
    if p.suffix == ".json":
        head = p.text.lstrip()[:16384]
        if head.startswith("[") and all(f'"{k}"' in head for k in ALPACA):
            return 0.93  # AlpacaEval annotations.json
        return 0.0
    if p.suffix == ".jsonl":
        first = next((ln for ln in split_lines(p.text) if ln.strip()), "")
        try:
            rec = json.loads(first)
        except ValueError:
            return 0.0
        names = list(rec) if isinstance(rec, dict) else []
    else:
        names = next(csv.reader([p.first_line()], delimiter=p.delimiter), [])
    layout = _layout([str(n) for n in names])
    if layout == "mtbench":
        return 0.95
    return 0.0 if layout is None else 0.92 if layout in ("preferences", "annotations") else 0.9


@dataclass
class JudgmentSet:
    """Judge audit data: either paired labels or both-order verdicts."""

    path: str
    """The file, as the report names it."""
    layout: str
    """``labels`` (judge vs human), ``long`` / ``wide`` (both orders) or ``preferences``."""
    judge: list[str] = field(default_factory=list)
    """``labels``: the judge's label per item."""
    human: list[str] = field(default_factory=list)
    """``labels``: the human label per item."""
    original: list[str] = field(default_factory=list)
    """Both orders: the verdict with the answers in their original order, per item."""
    swapped: list[str] = field(default_factory=list)
    """Both orders: the verdict with the answers swapped, per item."""
    items: list[str] = field(default_factory=list)
    """Item ids, one per judgment (or per preference)."""
    lines: list[int] = field(default_factory=list)
    """File line of each judgment."""
    models: list[str] = field(default_factory=list)
    """``preferences``: the model judged against the baseline, per row."""
    preference: list[float] = field(default_factory=list)
    """``preferences``: the judge's preference for the model (0-1, or AlpacaEval's 1-2)."""
    outputs: list[str] | None = None
    """``preferences``: the model's output per row, when the file has it."""
    output_len: list[str] | None = None
    """``preferences``: the output's length per row, when the file has it."""
    pairs: list[tuple[str, str]] = field(default_factory=list)
    """Both-order judgments of named models (MT-bench): (model shown first in the
    original order, the other) per judgment."""
    errors: int = 0
    """Verdicts that could not be used (an unparsed ``error``), left out."""
    baseline: str | None = None
    """The model every preference is against, when every row names the same one."""
    baselines: list[str] = field(default_factory=list)
    """``preferences``: the model each row's preference is against (AlpacaEval's
    reference), per row; ``""`` when the row does not say. A file may mix several."""

    @property
    def has_swap(self) -> bool:
        return self.layout != "labels"

    # The analyses live in benchaudit.analysis.agreement; these ask it, for the rules
    # written against the judgment set.
    def kappa(self, ctx: Context) -> Kappa:
        """Cohen's kappa of judge and human labels (:func:`analysis.agreement.kappa`)."""
        from benchaudit.analysis import agreement

        return agreement.kappa(self, ctx)

    def position(self) -> PositionBias:
        """Position bias of both-order verdicts (:func:`analysis.agreement.position`)."""
        from benchaudit.analysis import agreement

        return agreement.position(self)

    def preferences(self) -> list[dict[str, Any]]:
        """Win rate per model against the baseline (:func:`analysis.agreement.preferences`)."""
        from benchaudit.analysis import agreement

        return agreement.preferences(self)


def _label(value: str) -> str:
    """A label compared across raters: case-folded, ``1.0`` read as ``1``."""
    t = str(value).strip().lower()
    try:
        f = float(t)
    except ValueError:
        return t
    return str(int(f)) if f == int(f) else t


def _is_swapped(value: str, display: str, line: int, games: bool = False) -> bool:
    v = value.strip().lower()
    if games:  # game 1 / game 2
        return v == "2"
    if v in ORIGINAL_VALUES:
        return False
    if v in SWAPPED_VALUES:
        return True
    raise InputError(display, f"order {value!r} is neither original nor swapped", line)


def read(path: Path, display: str, ctx: Context) -> Source[JudgmentSet]:
    from benchaudit.evidence import Source

    text = path.read_text(encoding="utf-8").lstrip("\ufeff")
    suffix = path.suffix.lower()
    names, recs, lines = _records(text, suffix, display)
    layout = _layout(names)
    if layout is None:
        raise InputError(
            display, "judgments need judge and human columns, or an item, order and verdict column"
        )
    if not recs:
        raise InputError(display, "no judgments")
    data = JudgmentSet(path=display, layout=layout)
    notes: list[str] = []
    if layout == "preferences":
        _read_preferences(data, names, recs, lines, display, notes)
    elif layout == "annotations":
        _read_annotations(data, path, recs, lines, display, notes)
        data.layout = "preferences"
    elif layout == "mtbench":
        _read_mtbench(data, recs, lines, display, notes)
        data.layout = "long"
    elif layout == "labels":
        jc, hc = _judge_col(names), _human_col(names)
        assert jc is not None and hc is not None  # the layout was chosen because both exist
        cc = _pick(names, COUNT)
        for rec, no in zip(recs, lines):
            j, h = _label(rec.get(jc, "")), _label(rec.get(hc, ""))
            if not j or not h:
                raise InputError(display, "missing judge or human label", no)
            times = 1
            if cc:
                try:
                    times = int(float(rec.get(cc, "")))
                except ValueError:
                    times = -1
                if times < 0:
                    raise InputError(display, f"count {rec.get(cc)!r} is not a whole number", no)
            data.judge.extend([j] * times)
            data.human.extend([h] * times)
            data.lines.extend([no] * times)
        if not data.judge:
            raise InputError(display, "no judged items")
    elif layout == "wide":
        low = {n.strip().lower(): n for n in names}
        oc, sc = next((low[o], low[s]) for o, s in WIDE if o in low and s in low)
        ic = _pick(names, ITEM)
        for k, (rec, no) in enumerate(zip(recs, lines)):
            data.original.append(rec.get(oc, ""))
            data.swapped.append(rec.get(sc, ""))
            data.items.append(rec.get(ic, str(k)) if ic else str(k))
            data.lines.append(no)
    else:
        ic, order, vc = _pick(names, ITEM), _pick(names, ORDER), _pick(names, VERDICT)
        # The layout was chosen because all three exist.
        assert ic is not None and order is not None and vc is not None
        games = {rec.get(order, "").strip() for rec in recs} == {"1", "2"}
        seen: dict[str, dict[bool, str]] = {}
        first_line: dict[str, int] = {}
        for rec, no in zip(recs, lines):
            item = rec.get(ic, "")
            swapped = _is_swapped(rec.get(order, ""), display, no, games)
            slot = seen.setdefault(item, {})
            if swapped in slot:
                raise InputError(display, f"item {item!r} judged twice in the same order", no)
            slot[swapped] = rec.get(vc, "")
            first_line.setdefault(item, no)
        for item, both in seen.items():
            if len(both) != 2:
                raise InputError(
                    display, f"item {item!r} is judged in one order only", first_line[item]
                )
            data.items.append(item)
            data.original.append(both[False])
            data.swapped.append(both[True])
            data.lines.append(first_line[item])
    return Source(
        path=display, kind="judgments", data=data, lines=split_lines(text), notes=notes
    )


#: How MT-bench names a game's winner, as the slot it was shown in: game 1 shows
#: model_1 in slot A, game 2 (the swap) shows model_2 there.
_GAME1 = {"model_1": "A", "model_2": "B", "tie": "tie"}
_GAME2 = {"model_2": "A", "model_1": "B", "tie": "tie"}


def _judge_model(value: str) -> str:
    """The judge model of a FastChat ``judge`` field, ``["gpt-4", "pair-v2"]`` (the prompt
    name after it changes with the question's category and turn, the model does not)."""
    import ast

    v = value.strip()
    if v.startswith(("[", "(")):
        try:
            got = ast.literal_eval(v)
        except (ValueError, SyntaxError):
            return v
        if isinstance(got, (list, tuple)) and got:
            return str(got[0])
    return v


def _read_mtbench(
    data: JudgmentSet, recs: list[dict[str, str]], lines: list[int], display: str, notes: list[str]
) -> None:
    """FastChat pair judgments as verdicts in both orders, per question and turn."""
    seen: dict[tuple[str, str, str], int] = {}
    judges: set[str] = set()
    for rec, no in zip(recs, lines):
        g1, g2 = rec.get("g1_winner", "").strip(), rec.get("g2_winner", "").strip()
        m1, m2 = rec.get("model_1", ""), rec.get("model_2", "")
        item = rec.get("question_id", "")
        if rec.get("turn", "").strip():
            item = f"{item} turn {rec['turn'].strip()}"
        # The same two models in either order on one item is the same comparison.
        key = (min(m1, m2), max(m1, m2), item)
        if key in seen:
            raise InputError(
                display, f"{m1} vs {m2} on {item} is judged twice (line {seen[key]})", no
            )
        seen[key] = no
        judges.add(_judge_model(rec.get("judge", "")))
        if g1 not in _GAME1 or g2 not in _GAME2:
            if not (g1 in _GAME1 or g1 == "error") or not (g2 in _GAME2 or g2 == "error"):
                raise InputError(
                    display, f"winner {g1!r} / {g2!r} is not model_1, model_2 or tie", no
                )
            data.errors += 1  # the judge's answer could not be parsed: a missing verdict
            continue
        data.original.append(_GAME1[g1])
        data.swapped.append(_GAME2[g2])
        data.items.append(item)
        data.pairs.append((m1, m2))
        data.lines.append(no)
    if not data.original:
        raise InputError(display, "no usable pair judgments (every verdict is an error)")
    judges.discard("")
    if len(judges) > 1:
        notes.append(
            f"{display}: the rows are judged by {len(judges)} judge models "
            f"({', '.join(sorted(judges))}): the position-bias analysis pools them"
        )
    if data.errors:
        notes.append(
            f"{display}: {data.errors} pair judgment(s) with an unparsed verdict ('error') "
            "left out of the position-bias analysis"
        )


def _annotation_sides(
    path: Path, recs: list[dict[str, str]]
) -> tuple[str | None, bool]:
    """(the folder's model name, whether the folder names generator_1) of an annotations.json.

    AlpacaEval writes ``results/<model>/<annotator>/annotations.json`` with the model as
    generator_2 and the reference as generator_1 (``annotate_head2head(outputs_1=reference,
    outputs_2=model)``). A folder naming generator_1 says the sides are the other way round.
    """
    folder = path.parent.parent.name if path.parent.name else ""
    if not folder or not all(r.get("annotator") == path.parent.name for r in recs):
        return None, False
    if all(r.get("generator_1") == folder != r.get("generator_2") for r in recs):
        return folder, True
    return folder, False


def _read_annotations(
    data: JudgmentSet,
    path: Path,
    recs: list[dict[str, str]],
    lines: list[int],
    display: str,
    notes: list[str],
) -> None:
    """AlpacaEval annotations.json: the judge's preference for output_2 over output_1, per
    instruction, on AlpacaEval's 1-2 scale (1 output_1 preferred, 2 output_2, 1.5 or the
    older 0 a draw). The model and the reference are read per row, never from one row."""
    import hashlib

    folder, flipped = _annotation_sides(path, recs)
    # The folder names the model (generator_2 may be a placeholder such as "example"),
    # but only when the file holds one generator_2: it cannot name several.
    one_model = len({r.get("generator_2", "") for r in recs}) == 1
    data.outputs, data.output_len = [], []
    missing = draws0 = 0
    for rec, no in zip(recs, lines):
        raw = rec.get("preference", "").strip()
        if raw.lower() in ("", "nan", "none", "null"):
            missing += 1
            continue
        try:
            pref = float(raw)
        except ValueError:
            raise InputError(display, f"preference {raw!r} is not a number", no) from None
        if pref == 0.0:
            # AlpacaEval's older code for a draw (its win rate reads 0 as 1.5), not a loss.
            pref, draws0 = 1.5, draws0 + 1
        elif not 1.0 <= pref <= 2.0:
            raise InputError(
                display, f"preference {pref} outside AlpacaEval's 1-2 scale (0 = draw)", no
            )
        side = "1" if flipped else "2"
        model, baseline = rec.get(f"generator_{side}", ""), rec.get("generator_1", "")
        if flipped:
            baseline, pref = rec.get("generator_2", ""), 3.0 - pref  # preference for output_1
        elif folder and one_model:
            model = folder
        text = rec.get("instruction", "")
        data.models.append(model)
        data.baselines.append(baseline.strip())
        data.items.append(hashlib.sha1(text.encode()).hexdigest()[:12] if text else str(no))
        data.preference.append(pref)
        data.outputs.append(rec.get(f"output_{side}", ""))
        data.output_len.append(str(len(rec.get(f"output_{side}", ""))))
        data.lines.append(no)
    if not data.preference:
        raise InputError(display, "no annotations with a preference")
    if draws0:
        notes.append(
            f"{display}: {draws0} preference(s) of 0 read as draws (1.5), as AlpacaEval "
            "reads its older draw code"
        )
    if missing:
        notes.append(f"{display}: {missing} annotation(s) without a preference left out")
    _note_baselines(data, display, notes)
    against = data.baseline or "each row's reference"
    if flipped:
        sides = (
            f"the folder names generator_1 ({folder}) as the model, so generator_2 is "
            "read as the reference and the preference for output_1 as its win"
        )
    elif folder and (one_model and folder == recs[0].get("generator_2")):
        sides = "generator_1 is the reference, as the folder confirms"
    else:
        sides = (
            "the file does not say which side is the reference; read by AlpacaEval's "
            "convention, generator_1 the reference and generator_2 the model"
        )
    notes.append(
        f"{display}: win rate against {against} ({sides}) as the judge preferred, not "
        "length-controlled; AlpacaEval 2.0's headline length-controlled win rate corrects "
        "for the judge's preference for longer outputs and can differ by tens of points"
    )


def _note_baselines(data: JudgmentSet, display: str, notes: list[str]) -> None:
    """Set the file's one baseline, or say that its rows are against several."""
    named = sorted({b for b in data.baselines if b})
    if len(named) == 1 and all(data.baselines):
        data.baseline = named[0]
        return
    if len(named) > 1:
        shown = ", ".join(named[:5]) + (f" and {len(named) - 5} more" if len(named) > 5 else "")
        notes.append(
            f"{display}: the rows are judged against {len(named)} different baselines "
            f"({shown}): win rates are given per model and baseline, and models are compared "
            "only on rows against the same baseline"
        )
    if named and not all(data.baselines):
        notes.append(
            f"{display}: {sum(not b for b in data.baselines)} row(s) do not name their "
            "baseline: they are kept apart from the rows that do"
        )


def _read_preferences(
    data: JudgmentSet,
    names: list[str],
    recs: list[dict[str, str]],
    lines: list[int],
    display: str,
    notes: list[str],
) -> None:
    mc, pc = _pick(names, ("model",)), _pick(names, PREFERENCE)
    ic = _pick(names, ITEM) or _pick(names, ("item_idx", "instruction", "instruction_sha1"))
    # The layout was chosen because these three exist.
    assert mc is not None and pc is not None and ic is not None
    oc, lc = _pick(names, OUTPUT), _pick(names, OUTPUT_LEN)
    outputs: list[str] = []
    output_len: list[str] = []
    data.outputs = outputs if oc else None
    data.output_len = output_len if lc else None
    for rec, no in zip(recs, lines):
        try:
            pref = float(rec.get(pc, ""))
        except ValueError:
            raise InputError(display, f"preference {rec.get(pc)!r} is not a number", no) from None
        if not 0.0 <= pref <= 2.0 or pref != pref:
            raise InputError(display, f"preference {pref} outside 0-1 or 1-2", no)
        data.models.append(rec.get(mc, ""))
        data.items.append(rec.get(ic, ""))
        data.preference.append(pref)
        data.lines.append(no)
        if oc:
            outputs.append(rec.get(oc, ""))
        if lc:
            output_len.append(rec.get(lc, ""))
    if data.preference and min(data.preference) < 1.0 < max(data.preference):
        raise InputError(display, "preferences mix the 0-1 and the 1-2 scale")
    bc = _pick(names, ("baseline", "generator_1", "reference_model"))
    # The baseline is a property of each row: a file may hold several.
    data.baselines = [rec.get(bc, "").strip() if bc else "" for rec in recs]
    _note_baselines(data, display, notes)


READER = Reader(
    kind="judgments",
    sniff=sniff,
    read=read,
    description="judge-vs-human labels, or pairwise judgments made in both orders",
)
