"""A structure-aware, seeded fuzzer over every input kind, and the driver that runs it.

Where ``test_fuzz_inputs.py`` flips bytes of real files, this one edits them as what they
are: a JSON value or a CSV cell is replaced by a hostile payload (a 5,000-digit number, NaN,
1e308, a control sequence, U+2028, a workflow command, 2,000 nested brackets), records are
duplicated or dropped, keys are removed, Markdown and HTML get payloads in a prose line or a
table cell, PDFs are built with payload text, Parquet and inspect ``.eval`` files are
rewritten with an edited value, and contamination runs get shards of every format with
hostile records. Cases are a pure function of (seed file, kind, case number).

``python tests/hostile_fuzz.py CASES.json`` runs the cases in one interpreter (so the suite
pays for start-up once) and prints one JSON line per case: exit code, an escaped exception,
whether an input changed, the time, and the process's peak resident memory so far.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import random
import signal
import sys
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
MAX_SEED_BYTES = 300_000

PAYLOAD_STRINGS = [
    "\x1b[31mred\x1b[0m",
    "\x1b]52;c;aGVsbG8=\x07",
    "a\u2028b",
    "a\x85b\fc\vd",
    "a\rb",
    "::error file=README.md,line=1::x",
    "##[error]x",
    "$\\undefinedcommand$",
    "[x](https://example.com) ![](https://example.com/a.png) @someone `x",
    "<script>alert(1)</script>",
    "x" * 100_000,
    "",
    " ",
    "\u202eevil",
    "caf\u00e9 \U0001f600",
]
PAYLOAD_NUMBERS = [
    "NaN",
    "nan",
    "inf",
    "-inf",
    "Infinity",
    "1e308",
    "-1e308",
    "1e-400",
    "-0",
    "-7",
    "9" * 35,
    "9" * 155,
    "7" * 4301,
    "0x10",
    "1,000,000",
    "87.3",
    "100.0000000000000000000000000001",
]


def _payload(rng: random.Random) -> str:
    return rng.choice(PAYLOAD_STRINGS if rng.random() < 0.5 else PAYLOAD_NUMBERS)


def _json_payload(rng: random.Random) -> Any:
    r = rng.random()
    if r < 0.15:
        return json.loads("[" * 40 + "]" * 40)
    if r < 0.3:
        return rng.choice([None, True, [], {}, [1, 2], {"a": 1}])
    if r < 0.45:
        return rng.choice([float("nan"), float("inf"), 1e308, -1e308, 10**40, -(10**30)])
    return _payload(rng)


# ------------------------------------------------------------------ structured edits


def _leaves(obj: Any, path: tuple = ()) -> list[tuple]:
    out = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.append((*path, k))
            out.extend(_leaves(v, (*path, k)))
    elif isinstance(obj, list):
        for i, v in enumerate(obj[:50]):
            out.append((*path, i))
            out.extend(_leaves(v, (*path, i)))
    return out


def _edit_json(obj: Any, rng: random.Random) -> Any:
    places = _leaves(obj)
    for _ in range(rng.randint(1, 3)):
        if not places:
            return _json_payload(rng)
        where = rng.choice(places)
        parent = obj
        for step in where[:-1]:
            parent = parent[step]
        key = where[-1]
        op = rng.random()
        try:
            if op < 0.6:
                parent[key] = _json_payload(rng)
            elif op < 0.75 and isinstance(parent, dict):
                del parent[key]
            elif op < 0.9 and isinstance(parent, list):
                parent.insert(key, parent[key])
            elif isinstance(parent, dict):
                parent[_payload(rng)[:50]] = parent[key]
        except (KeyError, IndexError, TypeError):
            pass
        places = _leaves(obj)
    return obj


def _dump_json(obj: Any, rng: random.Random) -> str:
    text = json.dumps(obj, ensure_ascii=rng.random() < 0.5)
    if rng.random() < 0.1:
        text = "[" * 2000 + text  # nested deeper than any parser's recursion limit
    return text


def _json_file(data: bytes, rng: random.Random) -> bytes:
    try:
        obj = json.loads(data)
    except ValueError:
        return data
    return _dump_json(_edit_json(obj, rng), rng).encode("utf-8")


def _jsonl_file(data: bytes, rng: random.Random) -> bytes:
    lines = data.decode("utf-8", "replace").split("\n")
    records = [ln for ln in lines if ln.strip()][:400]
    if not records:
        return data
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(records))
        try:
            records[i] = _dump_json(_edit_json(json.loads(records[i]), rng), rng)
        except ValueError:
            records[i] = _payload(rng)
        if rng.random() < 0.2:
            records.insert(i, records[i])
    sep = rng.choice(["\n", "\r\n", "\r", "\u2028\n"])
    return sep.join(records).encode("utf-8") + sep.encode("utf-8")


def _csv_file(data: bytes, rng: random.Random, delimiter: str = ",") -> bytes:
    text = data.decode("utf-8", "replace")
    try:
        rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))[:400]
    except csv.Error:
        return data
    if len(rows) < 2:
        return data
    for _ in range(rng.randint(1, 4)):
        r = rng.randrange(len(rows))
        if not rows[r]:
            continue
        op = rng.random()
        if op < 0.6:
            rows[r][rng.randrange(len(rows[r]))] = _payload(rng)
        elif op < 0.7:
            rows.insert(r, list(rows[r]))
        elif op < 0.8:
            rows[r] = rows[r][:-1]
        elif op < 0.9:
            rows[r] = [*rows[r], _payload(rng)]
        else:
            for row in rows:  # a column of hostile values
                if row:
                    row[-1] = _payload(rng)
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter, lineterminator=rng.choice(["\n", "\r\n"])).writerows(rows)
    return out.getvalue().encode("utf-8")


def _text_file(data: bytes, rng: random.Random) -> bytes:
    lines = data.decode("utf-8", "replace").split("\n")[:3000]
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(lines) + 1)
        op = rng.random()
        if op < 0.3:  # a payload inside a claim
            p = _payload(rng)[:5000]
            lines.insert(i, f"Our model {p} reaches 87.3% on HumanEval ({p} problems), p < 0.05.")
        elif op < 0.5:  # a payload in a table cell
            lines[i:i] = ["", "| Model | HumanEval |", "|---|---|", f"| {_payload(rng)[:500]} | 87.3 |",
                          "| base | 85.1 |", ""]
        elif op < 0.6:
            lines.insert(i, "<!-- benchaudit: ignore[*] " + _payload(rng)[:200] + " -->")
        elif op < 0.8:
            lines.insert(i, _payload(rng))
        else:
            lines.insert(i, "".join(rng.choice(["\u2028", "\x85", "\f", "\r", "\v"]) for _ in range(5)))
    return "\n".join(lines).encode("utf-8", "surrogatepass")


def _pdf_file(data: bytes, rng: random.Random) -> bytes:
    from hostile_cases import _FONT, _pdf, _stream

    lines = [f"Our model {_payload(rng)[:300]} reaches 87.3% on HumanEval." for _ in range(3)]
    ops = b"BT /F1 10 Tf 72 720 Td 14 TL " + b" ".join(
        b"(" + ln.encode("latin-1", "replace").replace(b"\\", b"\\\\").replace(b"(", b"\\(")
        .replace(b")", b"\\)") + b") '" for ln in lines
    ) + b" ET"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        b"/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
        _stream(ops),
        _FONT,
    ]
    out = _pdf(objects)
    if rng.random() < 0.3:  # a damaged cross-reference table or a truncated file
        out = out[: rng.randrange(len(out))] if rng.random() < 0.5 else out.replace(b"xref", b"xrff")
    return out


def _parquet_file(data: bytes, rng: random.Random) -> bytes:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pq.read_table(io.BytesIO(data))
    cols = {name: table.column(name).to_pylist()[:2000] for name in table.column_names}
    name = rng.choice(list(cols))
    values = cols[name]
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(values))
        if isinstance(values[i], (int, float)) and not isinstance(values[i], bool):
            values[i] = rng.choice([float("nan"), float("inf"), -1e308, 10**18])
        else:
            values[i] = _payload(rng)[:1000]
    try:
        new = pa.table(cols)
    except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError):
        return data
    out = io.BytesIO()
    pq.write_table(new, out)
    return out.getvalue()


def _eval_file(data: bytes, rng: random.Random) -> bytes:
    src = zipfile.ZipFile(io.BytesIO(data))
    members = {n: src.read(n) for n in src.namelist()}
    name = rng.choice([n for n in members if n.endswith(".json")] or list(members))
    members[name] = _json_file(members[name], rng)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for n, body in members.items():
            z.writestr(n, body)
    return out.getvalue()


EDITORS: dict[str, Callable[[bytes, random.Random], bytes]] = {
    ".json": _json_file,
    ".jsonl": _jsonl_file,
    ".csv": _csv_file,
    ".tsv": lambda d, r: _csv_file(d, r, "\t"),
    ".md": _text_file,
    ".html": _text_file,
    ".txt": _text_file,
    ".pdf": _pdf_file,
    ".parquet": _parquet_file,
    ".eval": _eval_file,
}


def seeds() -> dict[str, list[Path]]:
    """Real inputs of every kind under tests/data and examples/, small enough to run fast."""
    out: dict[str, list[Path]] = {}
    for base in (ROOT / "tests" / "data", ROOT / "examples"):
        for p in sorted(base.rglob("*")):
            if p.is_file() and p.suffix.lower() in EDITORS and p.stat().st_size <= MAX_SEED_BYTES:
                out.setdefault(p.suffix.lower(), []).append(p)
    return out


def _shard_case(folder: Path, rng: random.Random, i: int) -> dict[str, Any]:
    """A contamination run: a benchmark and one shard of a random format, both hostile."""
    import gzip

    bench = folder / f"bench{i}.jsonl"
    items = [{"id": f"q{j}", "question": f"How many clips did Natalia sell in {j} months?"}
             for j in range(5)]
    bench.write_bytes(_jsonl_file("\n".join(json.dumps(x) for x in items).encode(), rng))
    docs = [{"text": "Natalia sold clips to 48 of her friends. How many clips did Natalia sell "
                     "in 3 months? " * rng.randint(1, 5)} for _ in range(20)]
    body = _jsonl_file("\n".join(json.dumps(d) for d in docs).encode(), rng)
    kind = rng.choice([".jsonl", ".jsonl.gz", ".jsonl.zst", ".txt", ".txt.gz"])
    if kind.startswith(".txt"):
        body = _text_file(b"\n\n".join(d["text"].encode() for d in docs), rng)
    if rng.random() < 0.2:
        body = b"\n" * rng.randint(1, 200_000) + body + b"x" * rng.randint(1, 300_000)
    shard = folder / f"shard{i}{kind}"
    if kind.endswith(".gz"):
        data = gzip.compress(body)
        if rng.random() < 0.2:
            data = data[: len(data) // 2]
        shard.write_bytes(data)
    elif kind.endswith(".zst"):
        import zstandard

        shard.write_bytes(zstandard.ZstdCompressor().compress(body))
    else:
        shard.write_bytes(body)
    argv = ["contamination", "--benchmark", str(bench), "--corpus", str(shard), "--workers", "1",
            "--format", "json"]
    return {"argv": argv, "inputs": [str(bench), str(shard)], "kind": "shard" + kind}


def build_cases(folder: Path, per_kind: int, seed: int = 0) -> list[dict[str, Any]]:
    """``per_kind`` cases for every kind of input, written under ``folder``."""
    cases: list[dict[str, Any]] = []
    for suffix, files in sorted(seeds().items()):
        for i in range(per_kind):
            src = files[(i * 7919 + seed) % len(files)]
            rng = random.Random(f"{seed}-{suffix}-{i}-{src.name}")
            try:
                data = EDITORS[suffix](src.read_bytes(), rng)
            except Exception:  # noqa: BLE001 - a seed the editor cannot parse stays as it is
                data = src.read_bytes()
            target = folder / f"{suffix[1:]}{i}" / src.name
            target.parent.mkdir(parents=True)
            target.write_bytes(data)
            argv = ["check", str(target), "--format", rng.choice(["json", "text", "markdown",
                                                                  "sarif", "github"]),
                    "--resamples", "200"]
            if rng.random() < 0.2:
                baseline = target.parent / "baseline.json"
                baseline.write_bytes(_json_file(b'{"fingerprints": ["abc"]}', rng))
                argv += ["--baseline", str(baseline)]
            cases.append({"argv": argv, "inputs": [str(target)], "kind": suffix[1:]})
    for i in range(per_kind):
        cases.append(_shard_case(folder, random.Random(f"{seed}-shard-{i}"), i))
    return cases


# ------------------------------------------------------------------ driver


def _digest(path: str) -> str:
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


class _Hang(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Hang()


def drive(cases: list[dict[str, Any]], timeout: int) -> None:
    from click.testing import CliRunner
    from hostile_cases import peak_rss_self

    from benchaudit.cli import main

    signal.signal(signal.SIGALRM, _alarm)
    for case in cases:
        before = [_digest(p) for p in case["inputs"]]
        start = time.monotonic()
        signal.alarm(timeout)
        try:
            result = CliRunner().invoke(main, case["argv"])
            code, exc = result.exit_code, result.exception
            stderr = result.stderr
            hung = False
        except _Hang:
            code, exc, stderr, hung = -1, None, "", True
        finally:
            signal.alarm(0)
        if isinstance(exc, SystemExit):
            exc = None
        row = {
            "kind": case["kind"],
            "argv": case["argv"],
            "code": code,
            "hung": hung,
            "exception": None if exc is None else f"{type(exc).__name__}: {str(exc)[:200]!r}",
            "stderr": stderr[-2000:],
            "changed": [p for p, h in zip(case["inputs"], before) if _digest(p) != h],
            "seconds": round(time.monotonic() - start, 2),
            "peak_rss": peak_rss_self(),
        }
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    drive(json.loads(Path(sys.argv[1]).read_text()), int(os.environ.get("HOSTILE_CASE_TIMEOUT", "30")))
