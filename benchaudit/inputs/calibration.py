"""Per-item confidence and correctness -> a ``calibration`` source.

Layouts (CSV, TSV or JSONL):

* a confidence column (``confidence``, ``probability``, ``prob``, ``conf``)
  and a correctness column (``correct``, ``is_correct``, ``passed``), or a
  prediction and a label column instead of correctness;
* a probability of the positive class and a 0/1 ``label`` (binary tasks):
  the confidence is that of the predicted class, max(p, 1 - p);
* per-class probabilities or logits with a ``label`` column: JSONL lists
  under ``probs`` / ``probabilities`` / ``logits``, or CSV columns
  ``prob_0, prob_1, ...`` / ``logit_0, logit_1, ...``. With logits (or
  probabilities, through their logs) a temperature is fitted.
"""

from __future__ import annotations

import csv
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchaudit.errors import InputError
from benchaudit.inputs import Probe, Reader
from benchaudit.inputs._columns import ROLES, value_type
from benchaudit.inputs._records import read_records

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source
    from benchaudit.stats.calibration import CalibrationSummary

CONF_KEYS = (
    "confidence",
    "conf",
    "probability",
    "prob",
    "p_correct",
    "score_confidence",
    "confidence_score",
    "max_prob",
    "y_prob",
    "pred_prob",
    "predicted_probability",
)
CORRECT_KEYS = ("correct", "is_correct", "passed", "accurate", "hit", "accuracy")
LABEL_KEYS = ("label", "target", "gold", "y", "y_true", "true_label", "answer_index")
PRED_KEYS = ("prediction", "pred", "predicted", "y_pred", "predicted_label")
PROBS_KEYS = ("probs", "probabilities", "class_probs")
LOGITS_KEYS = ("logits",)
_CLASS_COL = re.compile(r"^(prob|p|logit)_(\d+)$", re.I)

_TRUE = {"true", "1", "1.0", "yes", "t", "y", "correct"}
_FALSE = {"false", "0", "0.0", "no", "f", "n", "incorrect", "wrong"}


@dataclass
class CalibrationData:
    """Top-label confidence and correctness per item, and class scores when the file has them."""

    path: str
    """The file, as the report names it."""
    confidence: Any
    """Per item (numpy float array), the confidence in the predicted label, 0-1."""
    correct: Any
    """Per item, 1.0 when the prediction was right, else 0.0."""
    lines: Any
    """File line of each item."""
    logits: Any = None
    """Per item and class, the scores the confidences came from (for temperature), or None."""
    labels: Any = None
    """Per item, the true class index when ``logits`` are given."""
    layout: str = "confidence"
    """How the file states confidence: ``probabilities``, ``logits``, ``binary`` ..."""

    def summary(self, n_bins: int = 10, binning: str = "equal-width") -> CalibrationSummary:
        from benchaudit.stats.calibration import summarise

        return summarise(
            self.confidence, self.correct, n_bins, binning, logits=self.logits, labels=self.labels
        )


def binning_options(options: dict[str, Any]) -> tuple[int, str]:
    """(bins, binning) from the calibration-bins options; 10 equal-width by default."""
    from benchaudit.errors import ConfigError

    try:
        n_bins = int(options.get("bins", 10))
    except (TypeError, ValueError):
        raise ConfigError("calibration-bins: bins must be a whole number") from None
    binning = str(options.get("binning", "equal-width")).replace("_", "-").lower()
    if n_bins < 1 or binning not in ("equal-width", "equal-mass"):
        raise ConfigError(
            "calibration-bins: bins must be >= 1 and binning equal-width or equal-mass"
        )
    return n_bins, binning


def _pick(keys: list[str], wanted: tuple[str, ...]) -> str | None:
    lower = {k.lower().strip(): k for k in keys}
    for w in wanted:
        if w in lower:
            return lower[w]
    return None


def _float(value: Any, display: str, line: int, what: str) -> float:
    try:
        f = float(value)
    except (TypeError, ValueError):
        raise InputError(display, f"{what} must be a number, got {value!r}", line) from None
    if not math.isfinite(f):
        raise InputError(display, f"{what} must be finite, got {value!r}", line)
    return f


def _prob(value: Any, display: str, line: int, what: str) -> float:
    f = _float(value, display, line, what)
    if not 0.0 <= f <= 1.0:
        hint = " (a percentage? give confidences as fractions)" if 1 < f <= 100 else ""
        raise InputError(display, f"{what} must be in [0, 1], got {value!r}{hint}", line)
    return f


def _bool(value: Any, display: str, line: int, what: str) -> float:
    if isinstance(value, bool):
        return float(value)
    text = str(value).strip().lower()
    if text in _TRUE:
        return 1.0
    if text in _FALSE:
        return 0.0
    raise InputError(display, f"{what} must be true/false or 1/0, got {value!r}", line)


def _label(value: Any, display: str, line: int, k: int | None = None) -> int:
    try:
        f = float(value)
    except (TypeError, ValueError):
        raise InputError(display, f"label must be a class index, got {value!r}", line) from None
    if f != int(f) or f < 0 or (k is not None and f >= k):
        raise InputError(
            display,
            f"label {value!r} is not a class index" + (f" below {k}" if k is not None else ""),
            line,
        )
    return int(f)


def read(path: Path, display: str, ctx: Context) -> Source[CalibrationData]:
    import numpy as np

    from benchaudit.evidence import Source
    from benchaudit.stats.calibration import confidence_and_correct

    keys, rows = read_records(path, display, Probe(path, b"", 0).suffix)
    if not rows:
        raise InputError(display, "no rows")
    lines = np.array([ln for ln, _ in rows], dtype=np.int64)
    lab_key = _pick(keys, LABEL_KEYS)
    vec_key = _pick(keys, LOGITS_KEYS) or _pick(keys, PROBS_KEYS)
    class_cols = sorted(
        (
            (int(m.group(2)), m.group(1).lower(), k)
            for k in keys
            if (m := _CLASS_COL.match(k.strip()))
        ),
        key=lambda t: t[0],
    )
    data = CalibrationData(path=display, confidence=None, correct=None, lines=lines)
    if (vec_key or class_cols) and lab_key:
        is_logits = (vec_key in LOGITS_KEYS) if vec_key else class_cols[0][1] == "logit"
        table = []
        for line, rec in rows:
            vec = rec.get(vec_key) if vec_key else [rec.get(c) for _, _, c in class_cols]
            if not isinstance(vec, list) or len(vec) < 2:
                raise InputError(display, f"{vec_key} must be a list of class scores", line)
            table.append([_float(v, display, line, "class score") for v in vec])
        if len({len(r) for r in table}) != 1:
            raise InputError(display, "rows give different numbers of classes")
        scores = np.array(table, dtype=np.float64)
        k = scores.shape[1]
        labels = np.array([_label(rec.get(lab_key), display, ln, k) for ln, rec in rows])
        if not is_logits:
            if np.any((scores < 0) | (scores > 1)):
                raise InputError(display, "class probabilities must lie in [0, 1]")
            if np.any(np.abs(scores.sum(axis=1) - 1) > 1e-3):
                bad = int(np.argmax(np.abs(scores.sum(axis=1) - 1) > 1e-3))
                raise InputError(display, "class probabilities do not sum to 1", int(lines[bad]))
        conf, ok = confidence_and_correct(scores, labels, logits=is_logits)
        data.logits = scores if is_logits else np.log(np.clip(scores, 1e-300, 1.0))
        data.labels = labels
        data.layout = "logits" if is_logits else "probabilities"
    else:
        ckey, okey = _pick(keys, CONF_KEYS), _pick(keys, CORRECT_KEYS)
        pkey = _pick(keys, PRED_KEYS)
        if ckey is None:
            raise InputError(
                display, "no confidence column (expected one of: " + ", ".join(CONF_KEYS) + ")"
            )
        conf = np.array([_prob(rec.get(ckey), display, ln, ckey) for ln, rec in rows])
        if okey is not None:
            ok = np.array([_bool(rec.get(okey), display, ln, okey) for ln, rec in rows])
        elif pkey is not None and lab_key is not None:
            ok = np.array(
                [
                    float(str(rec.get(pkey)).strip() == str(rec.get(lab_key)).strip())
                    for _, rec in rows
                ]
            )
        elif lab_key is not None:
            # A probability of the positive class against a 0/1 label.
            y = np.array([_label(rec.get(lab_key), display, ln, 2) for ln, rec in rows])
            ok = ((conf >= 0.5).astype(np.int64) == y).astype(np.float64)
            conf = np.maximum(conf, 1.0 - conf)
            data.layout = "binary"
        else:
            raise InputError(
                display,
                "no correctness column (expected one of: "
                + ", ".join(CORRECT_KEYS)
                + ", or prediction and label)",
            )
    data.confidence, data.correct = conf, ok
    return Source(
        path=display,
        kind="calibration",
        data=data,
        numbers_seen=len(rows),
        meta={"format": f"calibration ({data.layout})"},
    )


#: Column names of a model: several models in one file go to the generic reader first.
MODEL_KEYS = tuple(ROLES["model"])


def _head_keys(p: Probe) -> list[str]:
    if p.suffix in (".jsonl", ".json"):
        first = p.text.lstrip().split("\n", 1)[0]
        try:
            rec = json.loads(first)
        except json.JSONDecodeError:
            return []
        return [str(k) for k in rec] if isinstance(rec, dict) else []
    if p.suffix in (".csv", ".tsv"):
        delim = p.delimiter
        try:
            return [h.strip() for h in next(csv.reader([p.first_line()], delimiter=delim))]
        except (StopIteration, csv.Error):
            return []
    return []


def sniff(p: Probe) -> float:
    keys = _head_keys(p)
    if not keys:
        return 0.0
    several_models = _pick(keys, MODEL_KEYS) is not None
    has_label = _pick(keys, LABEL_KEYS) is not None
    vectors = _pick(keys, LOGITS_KEYS + PROBS_KEYS) or any(_CLASS_COL.match(k) for k in keys)
    if vectors and has_label:
        return 0.4 if several_models else 0.9
    conf = _pick(keys, CONF_KEYS)
    if conf and (_pick(keys, CORRECT_KEYS) or has_label) and _probabilities(p, conf):
        return 0.4 if several_models else 0.9
    return 0.0


def _probabilities(p: Probe, column: str) -> bool:
    """True unless the probe shows the column holding something else than confidences
    (``prob`` is as often a problem id: ``p12``, ``17``)."""
    from benchaudit.inputs.tabular import _header_and_rows

    names, rows = _header_and_rows(p)
    if column not in names:
        return True
    kind = value_type([r[names.index(column)] for r in rows if len(r) == len(names)])
    percent = kind == "0-100" and column.strip().lower() != "prob"
    return percent or kind in ("0-1 graded", "0/1", "empty")


# --------------------------------------------------------------------------- documents

_ECE = re.compile(r"\bECE\b[^0-9\n|]{0,25}?(\d+(?:\.\d+)?)\s*(%?)", re.I)
_BINS = re.compile(
    r"\b(\d+)\s*(?:equal[- ](?:width|mass|frequency)\s+|adaptive\s+)?bins?\b"
    r"|\b(?:n_bins|M|bins)\s*[=:]\s*(\d+)",
    re.I,
)
_MASS = re.compile(r"equal[- ](?:mass|frequency)|adaptive", re.I)
_CELL = re.compile(r"(\d+(?:\.\d+)?)\s*(%?)")


def _binning_in(text: str) -> tuple[int | None, str | None]:
    m = _BINS.search(text)
    bins = int(m.group(1) or m.group(2)) if m else None
    mass = bool(_MASS.search(text))
    return bins, ("equal-mass" if mass else "equal-width") if (bins or mass) else None


def ece_mentions(lines: list[str]) -> list[tuple[int, str, float, int | None, str | None]]:
    """(line, text, value, bins, binning) of each ECE a document states.

    Prose: "ECE 3.1% (15 bins)" on one line. Markdown tables: the column whose
    header says ECE, with the binning taken from that header or from the row.
    ``bins`` is ``None`` when the document does not say.
    """
    out = []
    col: int | None = None
    head: tuple[int | None, str | None] = (None, None)
    for i, raw in enumerate(lines, 1):
        s = raw.strip()
        if s.startswith("|"):
            cells = [c.strip() for c in s.strip("|").split("|")]
            if col is None:
                for j, c in enumerate(cells):
                    if re.search(r"\bECE\b", c, re.I):
                        col, head = j, _binning_in(c)
                        break
                continue
            if set(s) <= set("|-: ") or col >= len(cells):
                continue
            m = _CELL.fullmatch(cells[col])
            if m:
                row = _binning_in(" ".join(c for j, c in enumerate(cells) if j != col))
                bins, binning = row if row[0] is not None else head
                value = float(m.group(1)) / (100 if m.group(2) else 1)
                out.append((i, s, value, bins, binning))
            continue
        col, head = None, (None, None)
        for m in _ECE.finditer(s):
            bins, binning = _binning_in(s)
            value = float(m.group(1)) / (100 if m.group(2) else 1)
            out.append((i, s, value, bins, binning))
    return out


READER = Reader(
    kind="calibration",
    sniff=sniff,
    read=read,
    description="per-item confidence and correctness, or class probabilities / logits and labels",
)
