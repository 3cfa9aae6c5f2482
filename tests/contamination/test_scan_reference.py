"""The vectorised scan against a plain Python reference, on random texts.

The reference normalises byte by byte as the module documents it (ASCII letters
lower-cased, ASCII digits and every byte >= 0x80 kept, the listed Unicode
punctuation and every other ASCII byte a word break), splits into words, and finds
every unit-gram an item shares with a document by comparing word tuples; runs are
maximal chains of unit-gram hits on one diagonal, items shorter than the unit
match whole. The fast path must give exactly the same runs, gram document counts
and word counts, whatever the batch boundaries, the text (Unicode, punctuation,
long words, empty documents) and whether the words are keyed densely or sampled.
"""

from __future__ import annotations

import gzip
import json
from collections import defaultdict
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from benchaudit.contamination.benchmark import Item
from benchaudit.contamination.index import NgramIndex, build_index
from benchaudit.contamination.scan import ScanOptions, ShardResult, ShardScanner, scan_shard
from benchaudit.contamination.shards import Shard, batches, documents

_SEPARATORS = ("\u2018", "\u2019", "\u201c", "\u201d", "\u2013", "\u2014", "\u2026", "\u00a0")
_SEPARATORS += ("\u00b4",)


def _ref_words(text: bytes) -> list[bytes]:
    for sep in _SEPARATORS:
        text = text.replace(sep.encode(), b" ")
    out = bytearray()
    for b in text:
        if 65 <= b <= 90:
            out.append(b + 32)
        elif 97 <= b <= 122 or 48 <= b <= 57 or b >= 0x80:
            out.append(b)
        else:
            out.append(32)
    return bytes(out).split()


Run = tuple[int, int, int, int, int]  # item, document, item position, document position, length


def _ident(w: bytes) -> object:
    """What a word key tells apart: a word of up to 16 bytes exactly, a longer one by its
    first 8 bytes, last 8 bytes and length (the document counts go by keys; the runs are
    read back, so they go by the words themselves)."""
    return w if len(w) <= 16 else (w[:8], w[-8:], len(w))


def _reference(
    items: list[str], docs: list[bytes], unit: int
) -> tuple[set[Run], dict[tuple[object, ...], int], int]:
    """(runs, documents per matched gram, words) by brute force over word tuples.

    Grams are matched by what word keys tell apart (:func:`_ident`), chained into
    maximal runs, and a run is kept only when its words themselves equal the item's."""
    iws = [_ref_words(t.encode()) for t in items]
    grams: dict[tuple[object, ...], list[tuple[int, int]]] = defaultdict(list)
    for i, ws in enumerate(iws):
        g = min(unit, len(ws))
        for p in range(len(ws) - g + 1 if ws else 0):
            grams[tuple(map(_ident, ws[p : p + g]))].append((i, p))
    runs: set[Run] = set()
    df: dict[tuple[object, ...], int] = defaultdict(int)
    total = 0
    for d, text in enumerate(docs):
        dws = _ref_words(text)
        total += len(dws)
        hits: set[tuple[int, int, int]] = set()  # item, item pos, doc pos of unit hits
        found: set[Run] = set()
        seen: set[tuple[object, ...]] = set()
        for n in sorted({min(unit, len(ws)) for ws in iws if ws}):
            for q in range(len(dws) - n + 1):
                gram = tuple(map(_ident, dws[q : q + n]))
                for i, p in grams.get(gram, ()):
                    seen.add(gram)
                    if n == unit:
                        hits.add((i, p, q))
                    else:
                        found.add((i, d, p, q, n))
        for i, p, q in hits:
            if (i, p - 1, q - 1) in hits:
                continue  # not the first of its chain
            k = 1
            while (i, p + k, q + k) in hits:
                k += 1
            found.add((i, d, p, q, k + unit - 1))
        runs |= {r for r in found if dws[r[3] : r[3] + r[4]] == iws[r[0]][r[2] : r[2] + r[4]]}
        for gram in seen:
            df[gram] += 1
    return runs, dict(df), total


def _fast_runs(res: ShardResult, doc_first_word: list[int]) -> set[Run]:
    """The runs of a shard result, positions made relative to each document."""
    q0 = res.run_p0.astype("int64") + res.run_diag
    return {
        (int(i), int(d), int(p), int(q) - doc_first_word[int(d)], int(n))
        for i, d, p, q, n in zip(res.run_item, res.run_doc, res.run_p0, q0, res.run_len)
    }


def _batch_first_words(path: Path, block: int) -> list[int]:
    """Each document's first word in the numbering of the reader batch it falls in."""
    first_word: list[int] = []
    for bt in batches(str(path), batch_bytes=block):
        at = 0
        for d in bt.texts:
            first_word.append(at)
            at += len(_ref_words(d)) + 1
    return first_word


def _fast_df(index: NgramIndex, res: ShardResult) -> dict[tuple[object, ...], int]:
    out = {}
    for k, c in zip(res.df_key.tolist(), res.df_count.tolist()):
        e = int(index.starts[k])
        i, p, n = int(index.entry_item[e]), int(index.entry_pos[e]), int(index.entry_len[e])
        out[tuple(map(_ident, index.words_of(i, p, n)))] = c
    return out


# Words of the benchmark's vocabulary, in several spellings, and noise: Unicode letters,
# the separators, ASCII punctuation, line breaks, digits, words of 8, 9 and 17+ bytes.
_VOCAB = ["cat", "Cat", "CAT", "dog", "8bytesxx", "ninebytes", "seventeen-bytes-x", "42", "été"]
_VOCAB += ["naïve", "日本語", "a", "abcdefghijklmnopq"]
_NOISE = ["the", "\u2019", "\u2014", "...", ",", "!", "\n", "\n\n", "  ", "\u00a0", "x" * 20]
_NOISE += ["😀", "tab\tbed", "é", "E\u0301", "0", "'s", "-", "\u201cq\u201d", "\\", '"']
_NOISE += ["abcdefghZjklmnopq"]  # the same key as a benchmark word: never a match

_word = st.sampled_from(_VOCAB)
_text = st.lists(st.one_of(_word, st.sampled_from(_NOISE)), max_size=30).map(" ".join)


@st.composite
def _case(draw: st.DrawFn) -> tuple[list[str], list[bytes], list[int], int]:
    items = draw(st.lists(st.lists(_word, max_size=14).map(" ".join), min_size=1, max_size=4))
    docs = []
    for _ in range(draw(st.integers(0, 8))):
        doc = draw(_text)
        if items and draw(st.booleans()):  # paste a stretch of an item, re-spelt
            src = draw(st.sampled_from(items)).split()
            a = draw(st.integers(0, len(src)))
            b = draw(st.integers(a, len(src)))
            glue = draw(st.sampled_from([" ", "\n", ", ", " \u2014 ", "\u2019 "]))
            piece = glue.join(src[a:b])
            doc = draw(st.sampled_from([piece, doc + " " + piece, piece + " " + doc]))
        docs.append(doc.encode("utf-8"))
    cuts = sorted(draw(st.lists(st.integers(1, max(1, len(docs))), max_size=4)))
    unit = draw(st.integers(1, 5))
    return items, docs, cuts, unit


def _index(items: list[str], unit: int) -> NgramIndex:
    return build_index(
        [Item(index=i, id=str(i), text=t, line=i + 1) for i, t in enumerate(items)],
        ngram=max(unit, 8),
        unit=unit,
    )


@settings(max_examples=300, deadline=None)
@given(case=_case(), dense_first=st.booleans())
def test_scan_equals_the_reference_on_random_text(case, dense_first):
    items, docs, cuts, unit = case
    index = _index(items, unit)
    want_runs, want_df, want_words = _reference(items, docs, unit)
    scanner = ShardScanner(index, Shard(path="memory", ordinal=0, size=0))
    scanner.dense = dense_first
    first_word: list[int] = []  # each document's first word in its batch's numbering
    bounds = [0, *(c for c in cuts if c < len(docs)), len(docs)]
    for a, b in zip(bounds, bounds[1:]):
        if a == b:
            continue
        at = 0
        for d in docs[a:b]:
            first_word.append(at)
            at += len(_ref_words(d)) + 1  # the separator between documents is one word
        scanner.add(docs[a:b], list(range(a + 1, b + 1)), sum(map(len, docs[a:b])))
    res = scanner.finish()
    assert _fast_runs(res, first_word) == want_runs
    assert len(res.run_item) == len(want_runs)  # no run twice
    assert _fast_df(index, res) == want_df
    assert res.tokens == want_words and res.docs == len(docs)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(case=_case(), block=st.sampled_from([40, 300, 1 << 20]))
def test_shard_scan_reads_and_finds_as_the_reference(tmp_path: Path, case, block):
    """Through a gzip'd JSON-lines shard: the block reader gives the reference reader's
    documents, and the scan the reference's runs, whatever the block size."""
    items, docs, _, unit = case
    path = tmp_path / "s.jsonl.gz"
    texts = [d.decode("utf-8") for d in docs]
    path.write_bytes(gzip.compress("".join(json.dumps({"text": t}) + "\n" for t in texts).encode()))
    got = [
        (t, n) for bt in batches(str(path), batch_bytes=block) for t, n in zip(bt.texts, bt.lines)
    ]
    assert got == list(documents(str(path))) == [(d, k + 1) for k, d in enumerate(docs)]
    index = _index(items, unit)
    res = scan_shard(
        index, Shard(path=str(path), ordinal=0, size=0), ScanOptions(batch_bytes=block)
    )
    first_word = _batch_first_words(path, block)
    want_runs, want_df, want_words = _reference(items, docs, unit)
    assert _fast_runs(res, first_word) == want_runs
    assert _fast_df(index, res) == want_df
    assert res.tokens == want_words


def test_no_documents_and_empty_documents():
    index = _index(["one two three four five six"], 5)
    empty = ShardScanner(index, Shard(path="memory", ordinal=0, size=0)).finish()
    assert empty.docs == 0 and empty.tokens == 0 and len(empty.run_item) == 0
    scanner = ShardScanner(index, Shard(path="memory", ordinal=0, size=0))
    scanner.add([b"", b"...", b"One, two three\nfour five!"], [1, 2, 3], 30)
    res = scanner.finish()
    assert res.tokens == 5 and _fast_runs(res, [0, 1, 2]) == {(0, 2, 0, 0, 5)}


def _longest_common(a: list[bytes], b: list[bytes]) -> int:
    """Length of the longest stretch of words that ``a`` and ``b`` share."""
    best, prev = 0, [0] * (len(b) + 1)
    for x in a:
        cur = [0] * (len(b) + 1)
        for j, y in enumerate(b):
            if x == y:
                cur[j + 1] = prev[j] + 1
                best = max(best, cur[j + 1])
        prev = cur
    return best


@st.composite
def _planted(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    """Items of 5 to 20 words and documents with stretches of them planted, re-spelt (case,
    punctuation, Unicode separators, line breaks inside the text), or cut in two across
    consecutive documents, where no n-gram may run on."""
    items = draw(st.lists(st.lists(_word, min_size=5, max_size=20).map(" ".join), min_size=1))
    docs: list[str] = []
    for _ in range(draw(st.integers(1, 6))):
        doc = draw(_text)
        if draw(st.booleans()):
            src = draw(st.sampled_from(items)).split()
            a = draw(st.integers(0, len(src) // 3))
            b = draw(st.one_of(st.just(len(src)), st.integers(a, len(src))))
            glue = draw(st.sampled_from([" ", "\n", ",\n", " \u2014 ", "\u2019 ", ". ", "\u00a0"]))
            words = [w.upper() if draw(st.booleans()) else w for w in src[a:b]]
            if draw(st.booleans()) and len(words) > 1:  # the stretch ends one document
                cut = draw(st.integers(1, len(words) - 1))
                docs.append(doc + " " + glue.join(words[:cut]))
                doc = glue.join(words[cut:]) + " " + draw(_text)
            else:
                doc = draw(_text) + glue + glue.join(words) + glue + doc
        docs.append(doc)
    return items, docs


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(case=_planted(), block=st.sampled_from([48, 200, 1 << 20]))
@example(  # 20 words of an item, cut 12 + 8 across two documents: no 13-gram
    case=(
        [" ".join(f"w{k}" for k in range(20))],
        [" ".join(f"w{k}" for k in range(12)), " ".join(f"W{k}" for k in range(12, 20))],
    ),
    block=1 << 20,
)
def test_dirty_13_gram_flag_equals_the_reference(tmp_path: Path, case, block):
    """GPT-3's dirty flag (a shared 13-gram, the whole item when shorter) and the longest
    exact match of every item, from a gzip'd JSON-lines shard read in blocks of any size,
    are what a brute-force comparison of word lists gives: an n-gram runs across line
    breaks inside a document, never across two documents (two JSON lines)."""
    from benchaudit.contamination.results import merge

    items, docs = case
    path = tmp_path / "s.jsonl.gz"
    lines = "".join(
        json.dumps({"id": k, "text": t}, ensure_ascii=False) + "\n" for k, t in enumerate(docs)
    )
    path.write_bytes(gzip.compress(lines.encode()))
    index = build_index(
        [Item(index=i, id=str(i), text=t, line=i + 1) for i, t in enumerate(items)], ngram=13
    )
    res = scan_shard(
        index, Shard(path=str(path), ordinal=0, size=0), ScanOptions(batch_bytes=block)
    )
    summary = merge(index, [res], max_docs=10**9)
    dws = [_ref_words(t.encode()) for t in docs]
    assert res.tokens == sum(map(len, dws)) and res.docs == len(docs)
    for k, item in enumerate(items):
        iw = _ref_words(item.encode())
        n = min(13, len(iw))
        longest = max(_longest_common(iw, d) for d in dws)
        hit_lines = {j + 1 for j, d in enumerate(dws) if _longest_common(iw, d) >= n}
        got = summary.items[k]
        event(f"dirty: {longest >= n}")
        assert got.dirty_ngram == (longest >= n)
        assert got.longest_match == (longest if longest >= 5 else 0)
        fast_lines = {
            int(ln)
            for i, ln, m in zip(res.run_item, res.run_line, res.run_len)
            if i == k and m >= n
        }
        assert fast_lines == hit_lines


_DATA = Path(__file__).resolve().parents[1] / "data"


def _english_case() -> tuple[list[str], list[bytes]]:
    """English text nobody wrote for this test: GSM8K test questions as the benchmark, and
    documents made of the paragraphs of real model cards (tests/data/realdocs), with
    questions planted from PAL's copy of GSM8K (exact) and from GSM-Hard (numbers
    changed), one every few documents, re-spelt with line breaks."""
    bench = (_DATA / "contamination" / "gsm8k_test.jsonl").read_text().splitlines()[:300]
    items = [json.loads(line)["question"] for line in bench]
    pal = (_DATA / "contamination" / "pal_gsm.jsonl").read_text().splitlines()
    hard = (_DATA / "contamination" / "pal_gsmhardv2.jsonl").read_text().splitlines()
    planted = [json.loads(pal[k])["input"] for k in range(0, 300, 7)]
    planted += [json.loads(hard[k])["input"] for k in range(3, 300, 11)]
    paras: list[str] = []
    for doc in sorted((_DATA / "realdocs" / "docs").glob("*.md"))[:12]:
        paras += [p for p in doc.read_text(errors="replace").split("\n\n") if len(p) > 40]
    docs: list[bytes] = []
    for k in range(0, len(paras), 4):
        text = "\n\n".join(paras[k : k + 4])
        if k % 12 == 0 and planted:
            q = planted.pop().replace(". ", ".\n", 1)
            text = text[: len(text) // 2] + " " + q + " " + text[len(text) // 2 :]
        docs.append(text.encode("utf-8"))
    assert not planted  # every question went into a document
    return items, docs


@pytest.mark.parametrize(("block", "ahead"), [(1 << 20, 2), (1 << 20, 0), (4096, 2), (997, 1)])
def test_scan_equals_the_reference_on_english_text(tmp_path: Path, block: int, ahead: int):
    """Real English prose, dense in benchmark words, read from a gzip'd shard in blocks of
    any size, with or without the reader thread: the same runs, gram document counts and
    words as the brute-force reference."""
    items, docs = _english_case()
    path = tmp_path / "s.jsonl.gz"
    lines = "".join(json.dumps({"text": d.decode()}) + "\n" for d in docs)
    path.write_bytes(gzip.compress(lines.encode()))
    index = _index(items, 5)
    res = scan_shard(
        index,
        Shard(path=str(path), ordinal=0, size=0),
        ScanOptions(batch_bytes=block, read_ahead=ahead),
    )
    first_word = _batch_first_words(path, block)
    want_runs, want_df, want_words = _reference(items, docs, 5)
    assert len(want_runs) > 60  # the planted questions and the prose's common phrases
    assert _fast_runs(res, first_word) == want_runs
    assert _fast_df(index, res) == want_df
    assert res.tokens == want_words and res.docs == len(docs)
