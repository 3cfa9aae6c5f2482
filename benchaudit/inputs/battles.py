"""Pairwise battles: one row per vote, ``model_a``, ``model_b``, ``winner``.

``winner`` is ``model_a``, ``model_b``, ``tie`` or ``tie (bothbad)`` (the
Chatbot Arena spelling); ``question_id`` is optional (it turns on the
question-level bootstrap and the repeat checks); other columns (``judge``,
``turn``, ...) are ignored.
JSONL, CSV/TSV, a JSON array and Parquet are read column-wise with pyarrow, so
a file of a million battles reads in about a second. The battles become
pair-outcome counts (:class:`benchaudit.stats.bradley_terry.PairCounts`), the
only thing the Bradley–Terry fit and its bootstrap need.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchaudit.errors import InputError
from benchaudit.inputs import Probe, Reader, file_delimiter
from benchaudit.linebreaks import split_lines
from benchaudit.memo import Memo

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
    import pyarrow as pa

    from benchaudit.context import RunContext as Context
    from benchaudit.evidence import Source
    from benchaudit.stats.bradley_terry import PairCounts, Ratings

SUFFIXES = (".jsonl", ".json", ".csv", ".tsv", ".parquet")
REQUIRED = ("model_a", "model_b", "winner")
QUESTION = ("question_id", "qid", "prompt_id", "question")
WINNERS = {
    "model_a": 0,
    "a": 0,
    "model_b": 1,
    "b": 1,
    "tie": 2,
    "tie (bothbad)": 2,
    "tie(bothbad)": 2,
    "tie_bothbad": 2,
    "bothbad": 2,
}


def _header_keys(p: Probe) -> list[str]:
    text = p.text
    if p.suffix == ".jsonl":
        line = next((ln for ln in split_lines(text) if ln.strip()), "")
        try:
            rec = json.loads(line)
        except ValueError:
            return []
        return [str(k).lower() for k in rec] if isinstance(rec, dict) else []
    if p.suffix == ".json":
        head = text.lstrip()[:4000]
        return [k.lower() for k in REQUIRED if f'"{k}"' in head] if head.startswith("[") else []
    if p.suffix in (".csv", ".tsv"):
        # The separator from the content, as the tabular readers do (',', ';' or tab).
        return [c.strip().strip('"').lower() for c in p.first_line().split(p.delimiter)]
    return []


def sniff(p: Probe) -> float:
    if p.suffix not in SUFFIXES:
        return 0.0
    if p.suffix == ".parquet":
        return 0.6 if b"model_a" in p.head and b"winner" in p.head else 0.0
    keys = set(_header_keys(p))
    return 0.95 if all(k in keys for k in REQUIRED) else 0.0


@dataclass
class BattleSet:
    """Battles of one file, coded: ``a``/``b`` index ``models``; outcome 0 a won, 1 b won, 2 tie."""

    path: str
    """The file, as the report names it."""
    models: list[str]
    """Model names; ``a`` and ``b`` index this list."""
    a: Any
    """Per battle (numpy int array), the model shown as model_a."""
    b: Any
    """Per battle, the model shown as model_b."""
    outcome: Any
    """Per battle: 0 model_a won, 1 model_b won, 2 tie (ties both-bad included)."""
    question: Any = None
    """Per battle, a code of its question (``meta["question_labels"]`` names it), or None."""
    first_line: int = 1
    """File line of the first battle (battle k is on line ``first_line + k``)."""
    meta: dict[str, Any] = field(default_factory=dict)
    """``question_labels`` and other facts of the file."""
    memo: Memo = field(default_factory=Memo, repr=False, compare=False)
    """Values computed once per run (pair counts, repeats, ratings)."""

    @property
    def n_battles(self) -> int:
        return int(len(self.a))

    def line_of(self, row: int) -> int:
        return int(row) + self.first_line

    def pair_counts(self) -> PairCounts:
        """Outcome counts per pair of models: all the Bradley–Terry fit needs."""
        from benchaudit.stats.bradley_terry import PairCounts

        return self.memo.get(
            "pair-counts", lambda: PairCounts.from_codes(self.a, self.b, self.outcome, self.models)
        )

    def slots(self) -> tuple[Any, Any]:
        """Battles per model as model_a and as model_b."""
        import numpy as np

        m = len(self.models)
        return np.bincount(self.a, minlength=m), np.bincount(self.b, minlength=m)

    def repeats(self) -> dict[str, Any]:
        """Repeated (question, pair) battles and those whose outcomes conflict."""
        return self.memo.get("repeats", self._repeats)

    def _repeats(self) -> dict[str, Any]:
        import numpy as np

        out: dict[str, Any] = {"groups": 0, "repeated": 0, "conflicting": 0, "examples": []}
        if self.question is None:
            return out
        m = len(self.models)
        lo, hi = np.minimum(self.a, self.b), np.maximum(self.a, self.b)
        # Outcome seen from the lower-coded model: 0 it won, 1 it lost, 2 tie.
        oc = np.where((self.a > self.b) & (self.outcome < 2), 1 - self.outcome, self.outcome)
        # One int64 key per (question, pair): questions < 2**62 / m**2 always hold here.
        key = self.question.astype(np.int64) * (m * m) + lo * m + hi
        uniq, first, inv = np.unique(key, return_index=True, return_inverse=True)
        inv = inv.ravel()
        size = np.bincount(inv)
        per = np.bincount(inv * 3 + oc, minlength=3 * len(uniq)).reshape(-1, 3)
        conflicting = (per > 0).sum(axis=1) > 1
        out["groups"] = int(len(uniq))
        out["repeated"] = int(np.sum(size > 1))
        out["conflicting"] = int(np.sum(conflicting))
        out["max_repeats"] = int(size.max()) if len(size) else 0
        rows = np.sort(first[conflicting])[:3]
        qlabels = self.meta.get("question_labels", [])
        out["examples"] = [
            {
                "line": self.line_of(r),
                "question_id": qlabels[int(self.question[r])],
                "pair": [self.models[int(self.a[r])], self.models[int(self.b[r])]],
            }
            for r in rows
        ]
        return out

    def clustered(self) -> bool:
        """Whether some (question, pair) is battled more than once."""
        return bool(self.repeats()["repeated"] > 0)

    def cluster_cells(self) -> tuple[Any, Any, Any, Any, int]:
        """(question, pair, points of the pair's first model, games) cells for the question bootstrap."""
        import numpy as np

        pc = self.pair_counts()
        m = len(self.models)
        lo, hi = np.minimum(self.a, self.b), np.maximum(self.a, self.b)
        pair_key = pc.i * m + pc.j
        pair_idx = np.searchsorted(pair_key, lo * m + hi)
        oc = np.where((self.a > self.b) & (self.outcome < 2), 1 - self.outcome, self.outcome)
        pts = np.where(oc == 0, 1.0, np.where(oc == 1, 0.0, 0.5))
        q = int(self.question.max()) + 1
        return (self.question.astype(np.int64), pair_idx, pts, np.ones(len(pts)), q)

    # The analyses live in benchaudit.analysis.battles; these ask it, for the rules
    # written against the battle set (the value is computed once either way).
    def ratings(self, ctx: Context) -> Ratings:
        """Bradley–Terry ratings with bootstrap intervals (:func:`analysis.battles.ratings`)."""
        from benchaudit.analysis import battles

        return battles.ratings(self, ctx)

    def battle_level_ratings(self, ctx: Context) -> Ratings:
        """Ratings whose bootstrap resamples battles (:mod:`benchaudit.analysis.battles`)."""
        from benchaudit.analysis import battles

        return battles.battle_level_ratings(self, ctx)

    def order_check(self, ctx: Context) -> dict[str, Any] | None:
        """Online-Elo order sensitivity (:mod:`benchaudit.analysis.battles`)."""
        from benchaudit.analysis import battles

        return battles.order_check(self, ctx)


def _find(names: list[str], wanted: tuple[str, ...]) -> str | None:
    low = {n.lower().strip(): n for n in names}
    for w in wanted:
        if w in low:
            return low[w]
    return None


def _bad_json_line(path: Path) -> tuple[int, str]:
    with open(path, encoding="utf-8") as fh:
        for no, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as exc:
                return no, f"invalid JSON ({exc.msg})"
            if not isinstance(rec, dict):
                return no, "each line must be a JSON object"
    return 0, "cannot read as JSON lines"


def _table(path: Path, display: str, suffix: str) -> tuple[pa.Table, int]:
    import pyarrow as pa

    try:
        if suffix == ".jsonl":
            import pyarrow.json as pj

            try:
                return pj.read_json(path, read_options=pj.ReadOptions(block_size=1 << 24)), 1
            except (pa.ArrowInvalid, pa.ArrowTypeError):
                line, msg = _bad_json_line(path)
                if line:
                    raise InputError(display, msg, line) from None
                # Mixed value types across rows: fall back to the slow reader.
                with open(path, encoding="utf-8") as fh:
                    recs = [json.loads(ln) for ln in fh if ln.strip()]
                return _from_records(recs, display), 1
        if suffix == ".json":
            with open(path, encoding="utf-8") as fh:
                try:
                    recs = json.load(fh)
                except json.JSONDecodeError as exc:
                    raise InputError(display, f"invalid JSON ({exc.msg})", exc.lineno) from None
            if not isinstance(recs, list) or not all(isinstance(r, dict) for r in recs):
                raise InputError(display, "expected a JSON array of battle objects")
            return _from_records(recs, display), 1
        if suffix in (".csv", ".tsv"):
            import pyarrow.csv as pc

            parse = pc.ParseOptions(delimiter=file_delimiter(path))
            conv = pc.ConvertOptions(
                column_types={c: pa.string() for c in (*REQUIRED, "question_id", "judge")}
            )
            return pc.read_csv(path, parse_options=parse, convert_options=conv), 2
        import pyarrow.parquet as pq

        return pq.read_table(path), 1
    except InputError:
        raise
    except UnicodeDecodeError as exc:
        raise InputError(display, f"not UTF-8 text (byte {exc.start} cannot be decoded)") from None
    except (pa.ArrowInvalid, pa.ArrowTypeError, OSError) as exc:
        msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise InputError(display, f"cannot read battles: {msg}") from None


def _from_records(recs: list[dict[str, Any]], display: str) -> pa.Table:
    import pyarrow as pa

    # Every record's keys: a column first seen late in the file is still a column.
    keys: dict[str, None] = {}
    for r in recs:
        keys.update(dict.fromkeys(r))
    cols = {k: [None if r.get(k) is None else str(r.get(k)) for r in recs] for k in keys}
    return pa.table(cols)


def _codes(col: pa.Array[Any] | pa.ChunkedArray[Any]) -> tuple[npt.NDArray[np.int64], list[str]]:
    """Dictionary-encode a column: (codes as numpy int, labels), nulls as -1."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    col = col.combine_chunks() if isinstance(col, pa.ChunkedArray) else col
    if not pa.types.is_string(col.type) and not pa.types.is_large_string(col.type):
        col = pc.cast(col, pa.string())
    enc = col.dictionary_encode()
    codes = enc.indices.fill_null(-1).to_numpy(zero_copy_only=False).astype(np.int64)
    return codes, [str(x) for x in enc.dictionary.to_pylist()]


def read(path: Path, display: str, ctx: Context) -> Source[BattleSet]:
    import numpy as np
    import pyarrow as pa

    from benchaudit.evidence import Source

    table, first_line = _table(path, display, Probe(path, b"", 0).suffix)
    names = table.column_names
    found = {k: _find(names, (k,)) for k in REQUIRED}
    cols = {k: v for k, v in found.items() if v is not None}
    missing = [k for k in REQUIRED if k not in cols]
    if missing:
        raise InputError(display, f"battles need columns {', '.join(missing)}")
    if table.num_rows == 0:
        raise InputError(display, "no battles")
    import pyarrow.compute as pac

    both = pa.chunked_array(
        pac.cast(table[cols["model_a"]], pa.string()).chunks
        + pac.cast(table[cols["model_b"]], pa.string()).chunks,
        type=pa.string(),
    )
    codes, models = _codes(both)
    n = table.num_rows
    a, b = codes[:n], codes[n:]
    bad = np.flatnonzero((a < 0) | (b < 0))
    if len(bad):
        raise InputError(display, "missing model name", int(bad[0]) + first_line)
    same = np.flatnonzero(a == b)
    if len(same):
        raise InputError(
            display, f"a battle of {models[a[same[0]]]} against itself", int(same[0]) + first_line
        )
    wcodes, wlabels = _codes(table[cols["winner"]])
    lut = np.full(len(wlabels) + 1, -1, dtype=np.int64)
    for k, label in enumerate(wlabels):
        lut[k] = WINNERS.get(label.strip().lower(), -1)
    outcome = lut[wcodes]  # -1 code (null) maps to the trailing -1
    bad = np.flatnonzero(outcome < 0)
    if len(bad):
        got = wlabels[wcodes[bad[0]]] if wcodes[bad[0]] >= 0 else "nothing"
        raise InputError(
            display,
            f"winner is {got!r}; expected model_a, model_b, tie or tie (bothbad)",
            int(bad[0]) + first_line,
        )
    meta: dict[str, Any] = {"columns": cols}
    notes: list[str] = []
    question = None
    qcol = _find(names, QUESTION)
    if qcol is not None:
        qcodes, qlabels = _codes(table[qcol])
        if np.all(qcodes >= 0):
            question = qcodes
            meta["question_labels"] = qlabels
        else:
            # Said, not silently dropped: without every question the question-level
            # bootstrap and the repeat checks cannot run.
            notes.append(
                f"{display}: {int(np.sum(qcodes < 0))} of {n} battles have no {qcol}: the "
                "question-level bootstrap and the repeat checks are off"
            )
    data = BattleSet(
        path=display,
        models=models,
        a=a,
        b=b,
        outcome=outcome.astype(np.int8),
        question=question,
        first_line=first_line,
        meta=meta,
    )
    return Source(path=display, kind="battles", data=data, meta={"battles": n}, notes=notes)


READER = Reader(
    kind="battles",
    sniff=sniff,
    read=read,
    description="pairwise battles (model_a, model_b, winner) as JSONL, CSV, JSON or Parquet",
)
