"""Pairwise comparisons kept as numpy columns, with rows made only when asked for.

1,000 models give 499,500 pairs: as one dict per pair they take gigabytes and
most of the run. A :class:`PairTable` keeps one numpy array per field (or one
constant, such as the file name) and behaves as a read-only sequence of the
row dicts that ``results.comparisons`` has always held, so small reports and
existing callers see no change. Rules pick the rows they need from the columns
(:meth:`PairTable.column`, :meth:`PairTable.rows`); the JSON writer turns the
columns into text without building a dict per pair (:meth:`PairTable.json_rows`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

#: Rows turned into dicts (or JSON text) at a time: bounded memory whatever the pair count.
CHUNK = 65_536

#: Rows written as JSON text at a time (about 8 MB of text).
JSON_CHUNK = 16_384


class Names:
    """A column of model names as codes into one list of names."""

    def __init__(self, names: Sequence[str], codes: np.ndarray) -> None:
        self.names, self.codes = list(names), codes

    def __len__(self) -> int:
        return len(self.codes)

    def take(self, index: np.ndarray) -> Names:
        return Names(self.names, self.codes[index])

    _json: Any = None

    def tolist(self) -> list[str]:
        names = self.names
        return [names[c] for c in self.codes.tolist()]

    def json(self, escape: Any, pa: Any) -> Any:
        """The names as JSON strings, an Arrow array (made once)."""
        if getattr(self, "_json", None) is None:
            self._json = pa.array([escape(_dumps(n)) for n in self.names], pa.string())
        return self._json


class _Part:
    """One analysis's pairs: ordered fields, each an array (one value per pair) or a constant."""

    def __init__(self, fields: list[tuple[str, Any]], size: int) -> None:
        self.fields, self.size = fields, size

    def get(self, key: str) -> Any:
        return next((v for k, v in self.fields if k == key), None)

    def dicts(self, index: np.ndarray | slice) -> list[dict[str, Any]]:
        keys = [k for k, _ in self.fields]
        size = len(range(self.size)[index]) if isinstance(index, slice) else len(index)
        cols = [
            v.take(np.arange(self.size)[index]).tolist()
            if isinstance(v, Names)
            else v[index].tolist()
            if isinstance(v, np.ndarray)
            else [v] * size
            for _, v in self.fields
        ]
        return [dict(zip(keys, values)) for values in zip(*cols)]


class PairTable(Sequence[dict[str, Any]]):
    """The ``comparisons`` rows of one or more analyses, stored column by column."""

    def __init__(self, parts: list[_Part | list[dict[str, Any]]] | None = None) -> None:
        self.parts: list[_Part | list[dict[str, Any]]] = list(parts or [])

    @classmethod
    def of(cls, fields: list[tuple[str, Any]], size: int) -> PairTable:
        return cls([_Part(fields, size)])

    # --- the sequence of row dicts -------------------------------------------------------

    def __len__(self) -> int:
        return sum(p.size if isinstance(p, _Part) else len(p) for p in self.parts)

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, slice):
            return self.rows(np.arange(len(self))[key])
        n = len(self)
        if not -n <= key < n:
            raise IndexError(key)
        return self.rows(np.array([key % n]))[0]

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for part in self.parts:
            if isinstance(part, _Part):
                for start in range(0, part.size, CHUNK):
                    yield from part.dicts(slice(start, start + CHUNK))
            else:
                yield from part

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (PairTable, list)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def tolist(self) -> list[dict[str, Any]]:
        return list(self)

    def __repr__(self) -> str:
        return f"<PairTable of {len(self):,} comparisons>"

    # --- columns ---------------------------------------------------------------------------

    def column(self, key: str) -> np.ndarray | None:
        """One field over every row (None where no row has it, as ``row.get`` gives)."""
        out = []
        found = False
        for part in self.parts:
            if isinstance(part, _Part):
                v = part.get(key)
                found = found or v is not None
                if isinstance(v, Names):
                    v = np.array(v.tolist(), dtype=object)
                elif not isinstance(v, np.ndarray):
                    v = np.full(part.size, v, dtype=object)
                out.append(v)
            else:
                found = found or any(key in r for r in part)
                out.append(np.array([r.get(key) for r in part], dtype=object))
        if not found:
            return None
        return out[0] if len(out) == 1 else np.concatenate(out)

    def distinct(self, key: str) -> list[str]:
        """The sorted distinct text values of one field."""
        seen: set[str] = set()
        for part in self.parts:
            if isinstance(part, _Part):
                v = part.get(key)
                if isinstance(v, np.ndarray):
                    seen.update(str(x) for x in set(v.tolist()))
                elif v is not None and part.size:
                    seen.add(str(v))
            else:
                seen.update(str(r[key]) for r in part if key in r)
        return sorted(seen)

    def involves(self, model: str) -> np.ndarray:
        """Rows in which ``model`` is a or b."""
        masks = []
        for part in self.parts:
            if isinstance(part, _Part):
                a, b = part.get("a"), part.get("b")
                code = a.names.index(model) if model in a.names else -1
                masks.append((a.codes == code) | (b.codes == code))
            else:
                masks.append(np.array([model in (r["a"], r["b"]) for r in part], dtype=bool))
        return np.concatenate(masks) if masks else np.zeros(0, dtype=bool)

    def rows(self, index: Any) -> list[dict[str, Any]]:
        """The row dicts at these positions, in their order."""
        index = np.asarray(index, dtype=np.int64).reshape(-1)
        out: list[Any] = [None] * index.size
        start = 0
        for part in self.parts:
            size = part.size if isinstance(part, _Part) else len(part)
            at = np.flatnonzero((index >= start) & (index < start + size))
            mine = index[at] - start
            got = part.dicts(mine) if isinstance(part, _Part) else [part[int(i)] for i in mine]
            for j, row in zip(at.tolist(), got):
                out[j] = row
            start += size
        return out

    # --- the run's results -----------------------------------------------------------------

    def joined(self) -> PairTable:
        """A new table over the same parts, which :meth:`extend` may grow without
        touching the analysis this one came from."""
        return PairTable(self.parts)

    def extend(self, rows: Any) -> None:
        if isinstance(rows, PairTable):
            self.parts.extend(rows.parts)
        else:
            self.parts.append(list(rows))

    def with_constant(self, after: str, key: str, value: Any) -> PairTable:
        """The same rows with a constant field inserted after ``after``."""
        parts: list[_Part | list[dict[str, Any]]] = []
        for part in self.parts:
            if isinstance(part, _Part):
                fields = list(part.fields)
                at = next(i for i, (k, _) in enumerate(fields) if k == after) + 1
                fields.insert(at, (key, value))
                parts.append(_Part(fields, part.size))
            else:
                parts.append([{after: r[after], key: value, **r} for r in part])
        return PairTable(parts)

    def json_rows(self, escape: Any) -> Iterator[str]:
        """The rows as compact JSON objects (``", "`` and ``": "`` separators), joined by
        ``", "``, a chunk of text at a time; ``escape`` is applied to every JSON string
        that came from an input. Floats are Arrow's shortest round-trip digits (a
        number that parses to the same float), non-finite values are null."""
        first = True
        for part in self.parts:
            if isinstance(part, _Part):
                chunks: Iterator[str] = _json_chunks(part, escape)
            else:
                chunks = iter(
                    [", ".join(escape(_dumps(_plain(r))) for r in part)] if part else []
                )
            for text in chunks:
                yield text if first else ", " + text
                first = False


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False)


def _plain(row: dict[str, Any]) -> dict[str, Any]:
    from benchaudit.plain import jsonable as _jsonable

    plain: dict[str, Any] = _jsonable(row)
    return plain


def _json_chunks(part: _Part, escape: Any) -> Iterator[str]:
    import pyarrow as pa
    import pyarrow.compute as pc

    # Columns whose values hardly repeat in a chunk (intervals, p-values of many items): the
    # later chunks skip the search for repeats, which costs a sort and finds none. Either
    # way each value gets the same text.
    distinct: set[str] = set()
    for start in range(0, part.size, JSON_CHUNK):
        stop = min(start + JSON_CHUNK, part.size)
        pieces: list[Any] = []
        literal = "{"
        for i, (key, value) in enumerate(part.fields):
            literal += ("" if i == 0 else ", ") + _dumps(key) + ": "
            if isinstance(value, (Names, np.ndarray)):
                texts = _json_values(value, start, stop, escape, pa, pc, key not in distinct)
                if texts is None:
                    distinct.add(key)
                    texts = _json_values(value, start, stop, escape, pa, pc, False)
                pieces += [pa.scalar(literal), texts]
                literal = ""
            else:
                literal += escape(_dumps(_plain({"v": value})["v"]))
        pieces.append(pa.scalar(literal + "}"))
        if len(pieces) == 1:
            yield ", ".join([literal + "}"] * (stop - start))
            continue
        pieces[-1] = pa.scalar(literal + "}, ")
        rows = pc.binary_join_element_wise(*pieces, pa.scalar(""))
        del pieces
        # The rows' bytes lie end to end in the data buffer: one decode, no join.
        offsets = np.frombuffer(rows.buffers()[1], dtype=np.int32)[rows.offset :]
        first, end = int(offsets[0]), int(offsets[len(rows)])
        yield memoryview(rows.buffers()[2])[first : end - 2].tobytes().decode()
        del rows


def _json_values(
    value: Any, start: int, stop: int, escape: Any, pa: Any, pc: Any, repeats: bool = False
) -> Any:
    """One column of a chunk as an Arrow array of JSON texts. With ``repeats``, each distinct
    value is formatted once, or None is returned when most values are distinct (the caller
    then asks again without)."""
    if isinstance(value, Names):
        return value.json(escape, pa).take(pa.array(value.codes[start:stop]))
    v = value[start:stop]
    if v.dtype == object:
        return _dictionary_texts(v.astype(str), lambda x: escape(_dumps(str(x))), pa)
    if repeats:
        bits = v.astype(np.int64) if v.dtype.kind in "iub" else v.view(np.int64)
        distinct, inverse = np.unique(bits, return_inverse=True)
        if 2 * distinct.size > v.size:
            return None
        # Counts, floors, MDEs and differences of k/n repeat: format each value once.
        values = distinct if v.dtype.kind in "iub" else distinct.view(np.float64)
        texts = _json_values(values, 0, values.size, escape, pa, pc, False)
        return texts.take(pa.array(inverse.astype(np.int32)))
    if v.dtype.kind in "iub":
        return pc.cast(pa.array(v.astype(np.int64)), pa.string())
    text = pc.cast(pa.array(v), pa.string())
    # Arrow writes 1.0 as "1" and nan as "nan": those (few distinct) values are
    # written as Python's json writes them, null for the non-finite.
    special = ~np.isfinite(v)
    special |= v == np.trunc(np.where(special, 0.0, v))
    at = np.flatnonzero(special)
    if not at.size:
        return text
    bits = v.view(np.int64)  # bit patterns: -0.0 and 0.0 stay apart
    codes = np.zeros(v.size, dtype=np.int64)
    distinct, codes[at] = np.unique(bits[at], return_inverse=True)
    texts = [_dumps(_plain({"v": float(x)})["v"]) for x in distinct.view(np.float64)]
    fixed = pa.array(texts, pa.string()).take(pa.array(codes))
    return pc.if_else(pa.array(special), fixed, text)


def _dictionary_texts(values: np.ndarray, encode: Any, pa: Any) -> Any:
    labels, codes = np.unique(values, return_inverse=True)
    return pa.array([encode(x) for x in labels], pa.string()).take(pa.array(codes))
