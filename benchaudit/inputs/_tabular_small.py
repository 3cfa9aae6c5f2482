"""Small plain CSV / TSV result files read with the standard library (and numpy).

Importing pyarrow and ``pyarrow.compute`` costs more than reading a file of a few
thousand rows in Python, and a pre-commit hook over a results file pays it on every
run. This module reads the common small case, long form with exactly a model, an item
and a score column, and produces the same :class:`ResultSet` the Arrow reader would:
the same column types Arrow infers (so detection sees the same cell texts), the
same codes by first appearance, the same score dtype and line numbers.

Anything it is not sure to read exactly as Arrow would (quotes, blank lines, empty
or ``NA`` cells, padded labels, other columns that look like numbers, dates or
booleans, overrides, a ``--max-rows`` bound) it hands back, and the Arrow reader reads
the file and says what is wrong with it.

A file of 0/1 scores with one row per model x item and few enough cells
(:data:`NUMPY_FREE_CELLS`) is held in Python lists
(:class:`~benchaudit.inputs._small_results.SmallResults`) and analysed without
importing numpy, which costs more than the rest of its check.
"""

from __future__ import annotations

import operator
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchaudit.inputs import file_delimiter
from benchaudit.inputs._columns import find_columns
from benchaudit.inputs._columns import norm as _norm

if TYPE_CHECKING:
    from numpy.typing import DTypeLike, NDArray

    from benchaudit.inputs.resultset import Coded

#: Files up to this size are read here; above it the pyarrow import is the smaller cost.
SMALL_BYTES = 256 * 1024
#: 0/1 files up to this many model x item cells are analysed without numpy: below it
#: the Python analysis costs less than importing numpy (``benchmarks/bench_startup.py``).
NUMPY_FREE_CELLS = 20_000
#: ... and up to this many models (the pairs then stay under ``stats.paired._SMALL_MANY``,
#: where the numpy analysis computes its p-values one by one, as the Python one does).
NUMPY_FREE_MODELS = 32
#: Off: every file is analysed with numpy (the tests compare the two).
NUMPY_FREE = True
#: Rows whose cell texts detection looks at (as ``_tabular_arrow._head_text``).
HEAD_ROWS = 1000
#: Roles read as categories (strings), whatever their values look like.
CATEGORICAL = ("model", "item", "cluster", "seed", "sample", "turn", "chosen", "gold", "variant")
#: Columns that mark a file as an LLM judge's ratings (FastChat single-answer judgments).
JUDGE_COLUMNS = ("judge", "judgment", "judge_model")
#: Arrow's default null spellings: a cell with one of them is null there, so not read here.
ARROW_NULLS = frozenset(
    "#N/A|#N/A N/A|#NA|-1.#IND|-1.#QNAN|-NaN|-nan|1.#IND|1.#QNAN|N/A|NA|NULL|NaN|n/a|nan|null".split(
        "|"
    )
)
TRUE_WORDS = frozenset(("true", "True", "TRUE"))
FALSE_WORDS = frozenset(("false", "False", "FALSE"))
#: Integers Arrow and Python print alike (no sign, no leading zeros, within int64).
_INT = re.compile(r"(0|-?[1-9][0-9]{0,17})")
#: Plain decimals (no exponent), whose float both parse to the nearest double.
_DECIMAL = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?")
#: Text Arrow might infer as a number, a date or a time when it is not an int or decimal.
_NUMBERISH = re.compile(r"[0-9]|inf|nan", re.IGNORECASE)


class RowLines:
    """Line numbers first, first + 1, ... without storing an array per row."""

    def __init__(self, first: int, n: int) -> None:
        self.first, self.n = first, n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, key: Any) -> Any:
        try:
            at = operator.index(key)  # an int or a numpy integer
        except TypeError:
            at = None
        if at is not None:
            if not -self.n <= at < self.n:
                raise IndexError(key)
            return self.first + (at % self.n)
        import numpy as np

        if isinstance(key, slice):
            start, stop, step = key.indices(self.n)
            return np.arange(self.first + start, self.first + stop, step, dtype=np.int64)
        key = np.asarray(key)
        if key.dtype == bool:
            return np.flatnonzero(key).astype(np.int64) + self.first
        return np.where(key < 0, key + self.n, key).astype(np.int64) + self.first

    def __array__(self, dtype: DTypeLike | None = None, copy: bool | None = None) -> NDArray[Any]:
        import numpy as np

        return np.arange(self.first, self.first + self.n, dtype=dtype or np.int64)

    def tolist(self) -> list[int]:
        return list(range(self.first, self.first + self.n))


def _records(path: Path) -> tuple[list[str], list[list[str]]] | None:
    """Header and rows of a plain delimited file, or None if it is not plain."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if not data or data.isspace() or b'"' in data or data.startswith(b"\xef\xbb\xbf"):
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if "\r" in text:
        if text.count("\r") != text.count("\r\n"):
            return None  # a lone carriage return ends a line for Arrow
        text = text.replace("\r\n", "\n")
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    if len(lines) < 2 or any(not ln.strip() for ln in lines):
        return None  # blank lines shift the line numbers: the Arrow reader counts them
    delim = file_delimiter(path)
    names = lines[0].split(delim)
    width = len(names)
    if width < 2 or len(set(names)) != width or any(n != n.strip() or not n for n in names):
        return None
    rows = [ln.split(delim) for ln in lines[1:]]
    if any(len(r) != width for r in rows):
        return None
    return names, rows


def _typed(values: list[str], categorical: bool) -> tuple[str, list[str]] | None:
    """The type Arrow's CSV reader gives a column, and its cells as detection sees
    them (``_scalar_text`` of Arrow's values); None when unsure."""
    if categorical:
        if any(not v or v != v.strip() or v in ARROW_NULLS for v in values):
            return None
        return "string", values
    if all(_INT.fullmatch(v) for v in values):
        return "int", values
    if all(_DECIMAL.fullmatch(v) for v in values):
        return "float", [str(float(v)) for v in values]
    if all(v in TRUE_WORDS or v in FALSE_WORDS for v in values):
        return "bool", ["true" if v in TRUE_WORDS else "false" for v in values]
    if any(
        not v or v in ARROW_NULLS or v in TRUE_WORDS or v in FALSE_WORDS or _NUMBERISH.search(v)
        for v in values
    ):
        return None
    return "string", values


def _coded(values: list[str]) -> Coded:
    """Codes by first appearance, as the Arrow reader numbers models and items."""
    import numpy as np

    from benchaudit.inputs.resultset import Coded

    index: dict[str, int] = {}
    codes = [index.setdefault(v, len(index)) for v in values]
    dtype = np.int16 if len(index) < np.iinfo(np.int16).max else np.int32
    return Coded(codes=np.asarray(codes, dtype=dtype), labels=list(index))


def read_small(path: Path, display: str, overrides: dict[str, str], ctx: Any) -> Any:
    """The results of a small plain long-form file, or None for the Arrow reader."""
    from benchaudit.inputs._plan import plan

    if path.suffix.lower() not in (".csv", ".tsv", ".txt") or overrides:
        return None
    try:
        if path.stat().st_size > SMALL_BYTES:
            return None
    except OSError:
        return None
    got = _records(path)
    if got is None:
        return None
    names, rows = got
    if any(_norm(n) in JUDGE_COLUMNS for n in names):
        return None
    found = find_columns(names, overrides)
    strings = {found[r] for r in CATEGORICAL if r in found}
    types: dict[str, str] = {}
    cells: list[list[str]] = []
    for j, name in enumerate(names):
        typed = _typed([r[j] for r in rows], name in strings)
        if typed is None:
            return None
        types[name], column = typed
        cells.append(column[:HEAD_ROWS])
    head = [list(row) for row in zip(*cells)]
    forced = getattr(getattr(ctx, "config", None), "kind", None) is not None
    shape = plan(names, head, overrides, display, forced=forced)
    cols: dict[str, str] = shape["columns"]
    if shape["layout"] != "long" or set(cols) != {"model", "item", "score"}:
        return None
    if types[cols["score"]] == "string" or not {cols["model"], cols["item"]} <= strings:
        return None
    return _resultset(names, rows, types, cols, shape, display)


def _resultset(
    names: list[str],
    rows: list[list[str]],
    types: dict[str, str],
    cols: dict[str, str],
    shape: dict[str, Any],
    display: str,
) -> Any:
    at = {name: j for j, name in enumerate(names)}
    small = _numpy_free(rows, types, cols, at, shape, display)
    if small is not None:
        return small
    import numpy as np

    from benchaudit.inputs._scaled import apply_scale
    from benchaudit.inputs.resultset import ResultSet

    model = _coded([r[at[cols["model"]]] for r in rows])
    item = _coded([r[at[cols["item"]]] for r in rows])
    raw = [r[at[cols["score"]]] for r in rows]
    kind = types[cols["score"]]
    if kind == "bool":
        score = np.asarray([v in TRUE_WORDS for v in raw], dtype=np.float32)
    else:  # Arrow's int64 and double columns are both read as float64
        score = np.asarray([float(v) for v in raw], dtype=np.float64)
    if bool(np.all((score == 0.0) | (score == 1.0))):
        score = score.astype(np.float32, copy=False)  # exact for 0/1, half the memory
    meta = _meta(shape, cols)
    rs = ResultSet(
        path=display,
        model=model,
        item=item,
        score=score,
        line=RowLines(2, len(rows)),  # type: ignore[arg-type]  # array-like, as in Arrow's reader
        columns=dict(cols),
        layout="long",
        meta=meta,
    )
    return apply_scale(rs, cols.get("score"), display)


def _meta(shape: dict[str, Any], cols: dict[str, str]) -> dict[str, Any]:
    meta: dict[str, Any] = {"value_types": {c: shape["value_types"].get(c) for c in cols.values()}}
    if shape["left_out"]:
        meta["left_out"] = dict(shape["left_out"])
    return meta


def _numpy_free(
    rows: list[list[str]],
    types: dict[str, str],
    cols: dict[str, str],
    at: dict[str, int],
    shape: dict[str, Any],
    display: str,
) -> Any:
    """The rows as :class:`SmallResults` when they are 0/1 scores on the 0/1 scale, one row
    per model x item and few enough cells; else None (the numpy reading)."""
    from benchaudit.inputs._scaled import plain_01

    if not NUMPY_FREE or not plain_01(cols["score"]):
        return None
    j = at[cols["score"]]
    kind = types[cols["score"]]
    if kind == "bool":
        score = [1.0 if r[j] in TRUE_WORDS else 0.0 for r in rows]
    else:
        score = [float(r[j]) for r in rows]
        if any(s != 0.0 and s != 1.0 for s in score):
            return None
        score = [1.0 if s else 0.0 for s in score]  # -0.0 is 0
    model = _codes([r[at[cols["model"]]] for r in rows])
    item = _codes([r[at[cols["item"]]] for r in rows])
    cells = len(model.labels) * len(item.labels)
    if len(model.labels) > NUMPY_FREE_MODELS or cells > NUMPY_FREE_CELLS:
        return None
    if len(set(zip(model.codes, item.codes))) != len(rows):
        return None  # repeated cells are averaged (and reported) by the numpy analysis
    from benchaudit.inputs._small_results import SmallResults

    meta = _meta(shape, cols)
    meta["scale"] = "0/1"
    line = RowLines(2, len(rows))
    return SmallResults(display, model, item, score, line, columns=dict(cols), meta=meta)


def _codes(values: list[str]) -> Any:
    """Codes by first appearance, in a list."""
    from benchaudit.inputs._small_results import Codes

    index: dict[str, int] = {}
    return Codes(codes=[index.setdefault(v, len(index)) for v in values], labels=list(index))
