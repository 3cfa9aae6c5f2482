"""Shard reading in blocks (pyarrow's JSON reader) against the line-by-line reference, and
the scan against a naive 13-gram set scan on English text."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest

from benchaudit.contamination.benchmark import read_items
from benchaudit.contamination.index import build_index
from benchaudit.contamination.normalize import words
from benchaudit.contamination.scan import ScanOptions, scan_shard
from benchaudit.contamination.shards import batches, documents, find_shards
from benchaudit.errors import InputError

ROOT = Path(__file__).resolve().parents[2]


def _from_batches(path, fields=None, block=256):
    return [
        (t, n)
        for b in batches(str(path), fields, batch_bytes=block)
        for t, n in zip(b.texts, b.lines)
    ]


def _write(path: Path, lines: list[str]) -> Path:
    blob = "".join(line + "\n" for line in lines).encode("utf-8")
    if path.suffix == ".gz":
        path.write_bytes(gzip.compress(blob))
    else:
        path.write_bytes(blob)
    return path


TRICKY = [
    '{"text": "plain", "id": 1}',
    '{"text": "escapes \\n\\t\\" \\u00e9 \\ud83d\\ude00 \\u2019", "id": "x"}',
    "",
    "   ",
    '{"content": "only content", "text": null}',
    '{"text": 5, "input": "text is a number"}',
    '{"input": "a", "code": "b"}',
    '{"text": "lone \\ud800 surrogate"}',
    '{"text": "dup", "text": "last wins"}',
    '{"text": "crlf"}\r',
    '{"text": "nested", "meta": {"a": [1, {"b": null}]}}',
] + [json.dumps({"text": f"document {k} " + "word " * (k % 40)}) for k in range(200)]


@pytest.mark.parametrize("suffix", [".jsonl", ".jsonl.gz"])
@pytest.mark.parametrize("block", [64, 300, 1 << 20])
def test_block_reader_gives_the_reference_documents_and_lines(tmp_path, monkeypatch, suffix, block):
    import benchaudit.contamination.shards as shards

    path = _write(tmp_path / f"s{suffix}", TRICKY)
    assert _from_batches(path, block=block) == list(documents(str(path)))
    clean = _write(tmp_path / f"c{suffix}", TRICKY[10:])  # blocks the fast paths take whole
    fast = shards._orjson_batch
    parsed_fast: list = []
    with monkeypatch.context() as mp:
        mp.setattr(
            shards, "_orjson_batch", lambda *a: parsed_fast.append(fast(*a)) or parsed_fast[-1]
        )
        assert _from_batches(clean, block=block) == list(documents(str(clean)))
    assert parsed_fast and all(p is not None for p in parsed_fast)
    # Without orjson: Arrow's JSON reader, to the same documents.
    monkeypatch.setattr(shards, "_orjson_batch", lambda *a: None)
    assert _from_batches(path, block=block) == list(documents(str(path)))
    parsed = []
    arrow = shards._arrow_texts
    monkeypatch.setattr(shards, "_arrow_texts", lambda *a: parsed.append(arrow(*a)) or parsed[-1])
    assert _from_batches(clean, block=block) == list(documents(str(clean)))
    assert parsed and all(p is not None for p in parsed)
    fields = _write(tmp_path / f"f{suffix}", [json.dumps({"input": "a", "code": "b"})] * 50)
    got = _from_batches(fields, ("input", "code"), block)
    assert got == list(documents(str(fields), ("input", "code")))
    assert got[0] == (b"a\nb", 1)


@pytest.mark.parametrize(
    "lines,line,text",
    [
        (['{"text": "a"}', "{oops"], 2, "invalid JSON"),
        (['{"text": "a"}', '{"text": "b"} {"text": "c"}'], 2, "invalid JSON"),
        (['{"text": "a"}', "[1, 2]"], 2, "must be a JSON object"),
        (['{"text": "a"}', '{"other": "b"}'], 2, "no text field"),
        (['{"text": "a"}'] * 30 + ['{"text": "\xff"}'], 31, "invalid JSON"),
    ],
)
def test_block_reader_errors_name_the_same_line(tmp_path, lines, line, text):
    path = tmp_path / "bad.jsonl"
    blob = "".join(x + "\n" for x in lines).encode("utf-8", errors="surrogateescape")
    path.write_bytes(blob.replace("\xff".encode(), b"\xff"))
    for read in (lambda: list(documents(str(path))), lambda: _from_batches(path)):
        with pytest.raises(InputError, match=text) as exc:
            read()
        assert exc.value.line == line


def _english_paragraphs() -> list[str]:
    """Prose of this repository's own documentation (English, with its common phrases)."""
    out = []
    for doc in sorted(
        [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *(ROOT / "docs").glob("*.md")]
    ):
        if doc.exists():
            out += [
                " ".join(p.split()) for p in doc.read_text().split("\n\n") if len(p.split()) > 6
            ]
    return out


def test_scan_finds_the_hits_of_a_naive_13_gram_scan_on_english_text(tmp_path, data_dir):
    bench = data_dir / "contamination" / "gsm8k_test.jsonl"
    items = read_items(bench)[:300]
    index = build_index(items, ngram=13)
    rng = random.Random(7)
    paras = _english_paragraphs()
    docs = []
    for _ in range(400):
        at = rng.randrange(len(paras))
        parts = paras[at : at + rng.randint(1, 6)]
        roll = rng.random()
        src = items[rng.randrange(len(items))].text.split()
        if roll < 0.1:  # a whole item
            parts.insert(rng.randint(0, len(parts)), " ".join(src))
        elif roll < 0.25:  # a stretch of 10-20 words of one
            a = rng.randrange(max(1, len(src) - 10))
            parts.insert(rng.randint(0, len(parts)), " ".join(src[a : a + rng.randint(10, 20)]))
        elif roll < 0.3:  # an item with one word changed every 12
            parts.append(" ".join(w if k % 12 else "CHANGED" for k, w in enumerate(src)))
        docs.append("\n\n".join(parts))
    shard = _write(tmp_path / "en.jsonl.gz", [json.dumps({"text": d}) for d in docs])
    res = scan_shard(index, find_shards([str(shard)])[0], ScanOptions(batch_bytes=1 << 14))
    got = {
        (int(d), int(i))
        for d, i, n in zip(res.run_doc, res.run_item, res.run_len)
        if n >= index.item_ngram(int(i))
    }
    grams: dict[tuple, set[int]] = {}
    for k, item in enumerate(items):
        ws = words(item.text)
        n = min(13, len(ws))
        for p in range(len(ws) - n + 1):
            grams.setdefault(tuple(ws[p : p + n]), set()).add(k)
    lengths = {len(g) for g in grams}
    want = set()
    for d, text in enumerate(docs):
        ws = words(text)
        for n in lengths:
            for p in range(len(ws) - n + 1):
                for k in grams.get(tuple(ws[p : p + n]), ()):
                    want.add((d, k))
    assert len(want) > 40  # the planted items and stretches
    assert got == want


def test_block_reader_refuses_a_line_over_the_cap_like_the_reference(tmp_path):
    from dataclasses import replace

    from benchaudit.limits import DEFAULT

    limits = replace(DEFAULT, max_line_bytes=200)
    path = _write(tmp_path / "long.jsonl", ['{"text": "short"}', json.dumps({"text": "x" * 500})])
    with pytest.raises(InputError, match="max-line-bytes") as ref:
        list(documents(str(path), limits=limits))
    with pytest.raises(InputError, match="max-line-bytes") as got:
        list(batches(str(path), batch_bytes=1 << 20, limits=limits))
    assert got.value.line == ref.value.line == 2


@pytest.mark.parametrize("block", [1, 7, 64, 4096, 1 << 20])
def test_gzip_blocks_and_line_lists_give_back_the_file(tmp_path, block):
    """Every byte of every gzip member comes out once, in order, in blocks of at most
    ``block`` (text that inflates a thousand times too), and the line lists of those
    blocks are the file's lines with the right first line numbers."""
    from benchaudit.contamination import shards
    from benchaudit.limits import DEFAULT

    rng = random.Random(block)
    text = b"".join(
        (b"x" * rng.choice([0, 1, 5000]) + b"line %d\n" % k + b"\n" * rng.choice([0, 0, 2]))
        for k in range(400)
    )
    text += b"no final break"
    path = tmp_path / "m.jsonl.gz"
    path.write_bytes(gzip.compress(text[:9000]) + gzip.compress(text[9000:]))
    chunks = list(shards._gzip_chunks(str(path), block, DEFAULT))
    assert b"".join(chunks) == text and max(map(len, chunks)) <= block
    got: list[bytes] = []
    for first, lines, ended in shards._line_lists(str(path), DEFAULT, block):
        assert first == len(got) + 1
        got += lines
        assert ended or lines == [b"no final break"]
    assert got == text.split(b"\n")
