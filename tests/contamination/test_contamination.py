"""Contamination audit: readers, hashing, scan, merge and the published criteria."""

from __future__ import annotations

import gzip
import json
import os
import random
import re
import subprocess
import sys

import numpy as np
import pytest

from benchaudit.contamination.audit import Settings, run
from benchaudit.contamination.benchmark import read_items
from benchaudit.contamination.index import build_index, gram_hashes
from benchaudit.contamination.normalize import normalize, words
from benchaudit.contamination.results import merge
from benchaudit.contamination.scan import ScanOptions, scan_shard
from benchaudit.contamination.shards import documents, find_shards
from benchaudit.errors import InputError


@pytest.fixture
def gsm(data_dir):
    return data_dir / "contamination"


def _jsonl(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


# --- normalisation and hashing ------------------------------------------------------------


def test_normalisation_lowercases_strips_punctuation_joins_lines_keeps_numbers():
    assert words("Janet’s ducks lay 16 eggs\nper-day: $2.50!") == [
        b"janet",
        b"s",
        b"ducks",
        b"lay",
        b"16",
        b"eggs",
        b"per",
        b"day",
        b"2",
        b"50",
    ]
    assert words("Café  CAFÉ") == [b"caf\xc3\xa9", b"caf\xc3\x89"]  # ASCII case only


def test_gram_hashes_match_one_at_a_time():
    ids = np.array([5, 1, 9, 9, 2, 7, 3], dtype=np.int32)
    got = gram_hashes(ids, [1, 3, 5])
    for n in (1, 3, 5):
        assert len(got[n]) == len(ids) - n + 1
        for i in range(len(ids) - n + 1):
            assert got[n][i] == gram_hashes(ids[i : i + n], [n])[n][0]
    assert len(set(got[3].tolist())) == len(got[3])


def test_hashes_are_the_same_in_every_process():
    code = (
        "import numpy as np; from benchaudit.contamination.index import gram_hashes;"
        "print(gram_hashes(np.arange(1, 40, dtype=np.int32), [13])[13].sum())"
    )
    outs = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        outs.add(
            subprocess.run(
                [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
            ).stdout
        )
    assert len(outs) == 1


# --- benchmark readers --------------------------------------------------------------------


def test_gsm8k_items_join_question_and_answer(gsm):
    items = read_items(gsm / "gsm8k_test.jsonl")
    assert len(items) == 1319
    assert items[0].id == "0" and items[0].line == 1
    assert items[0].text.startswith("Janet") and "#### 18" in items[0].text
    assert items[0].main.startswith("Janet") and "####" not in items[0].main


def test_humaneval_gz_uses_task_id_prompt_and_solution(tmp_path):
    path = tmp_path / "HumanEval.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        fh.write(
            json.dumps(
                {
                    "task_id": "HumanEval/0",
                    "prompt": "def f(x):\n",
                    "canonical_solution": "    return x\n",
                    "test": "...",
                }
            )
            + "\n"
        )
    (item,) = read_items(path)
    assert item.id == "HumanEval/0"
    assert item.text == "def f(x):\n\n    return x\n"


@pytest.mark.parametrize("suffix", ["json", "csv", "tsv", "parquet"])
def test_other_benchmark_formats(tmp_path, suffix):
    rows = [
        {"problem": "What is two plus two", "solution": "four"},
        {"problem": "Name a colour", "solution": "red"},
    ]
    path = tmp_path / f"b.{suffix}"
    if suffix == "json":
        path.write_text(json.dumps({"data": rows}))
    elif suffix in ("csv", "tsv"):
        sep = "," if suffix == "csv" else "\t"
        path.write_text(
            f"problem{sep}solution\n"
            + "".join(f"{r['problem']}{sep}{r['solution']}\n" for r in rows)
        )
    else:
        import pyarrow as pa
        import pyarrow.parquet as pq

        pq.write_table(pa.Table.from_pylist(rows), path)
    items = read_items(path)
    assert [i.id for i in items] == ["0", "1"]
    assert items[1].text == "Name a colour\nred"


@pytest.mark.parametrize(
    "content,message",
    [
        ('{"question": "a"}\n{not json}\n', "invalid JSON"),
        ('{"label": 1}\n', "no text field"),
        ("", "no benchmark items"),
    ],
)
def test_bad_benchmark_files(tmp_path, content, message):
    path = tmp_path / "b.jsonl"
    path.write_text(content)
    with pytest.raises(InputError, match=message):
        read_items(path)


# --- shard readers ------------------------------------------------------------------------


def test_shard_formats_stream_the_same_documents(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq
    import zstandard

    recs = [{"text": "first document"}, {"text": "second\ndocument"}]
    blob = "".join(json.dumps(r) + "\n" for r in recs).encode()
    (tmp_path / "a.jsonl").write_bytes(blob)
    with gzip.open(tmp_path / "b.jsonl.gz", "wb") as fh:
        fh.write(blob)
    (tmp_path / "c.jsonl.zst").write_bytes(zstandard.ZstdCompressor().compress(blob))
    (tmp_path / "d.txt").write_text("first document\n\n\nsecond\ndocument\n")
    pq.write_table(pa.Table.from_pylist(recs), tmp_path / "e.parquet")
    shards = find_shards([str(tmp_path)])
    assert [os.path.basename(s.path) for s in shards] == [
        "a.jsonl",
        "b.jsonl.gz",
        "c.jsonl.zst",
        "d.txt",
        "e.parquet",
    ]
    for s in shards:
        docs = list(documents(s.path))
        assert [d for d, _ in docs] == [b"first document", b"second\ndocument"] or [
            d for d, _ in docs
        ] == [b"first document\n", b"second\ndocument\n"]
    assert [line for _, line in documents(str(tmp_path / "d.txt"))] == [1, 4]


def test_text_field_and_errors(tmp_path):
    path = _jsonl(tmp_path / "s.jsonl", [{"input": "x", "code": "y"}])
    assert list(documents(str(path))) == [(b"x", 1)]  # falls back to input
    assert list(documents(str(path), ("input", "code"))) == [(b"x\ny", 1)]
    (tmp_path / "bad.jsonl").write_text('{"text": "a"}\n{oops\n')
    with pytest.raises(InputError, match="invalid JSON") as exc:
        list(documents(str(tmp_path / "bad.jsonl")))
    assert exc.value.line == 2
    (tmp_path / "bad.jsonl.gz").write_bytes(b"not gzip at all")
    with pytest.raises(InputError, match="cannot read shard"):
        list(documents(str(tmp_path / "bad.jsonl.gz")))
    with pytest.raises(InputError, match="no corpus shards"):
        find_shards([str(tmp_path / "*.parquet")])


# --- the scan against brute force ---------------------------------------------------------


def _brute_longest(item: list[bytes], doc: list[bytes]) -> int:
    best = 0
    for i in range(len(item)):
        for j in range(len(doc)):
            k = 0
            while i + k < len(item) and j + k < len(doc) and item[i + k] == doc[j + k]:
                k += 1
            best = max(best, k)
    return best


def _scan_texts(tmp_path, items_text, docs_text, ngram=13, **kw):
    bench = _jsonl(tmp_path / "bench.jsonl", [{"text": t} for t in items_text])
    shard = _jsonl(tmp_path / "shard.jsonl", [{"text": t} for t in docs_text])
    index = build_index(read_items(bench), ngram=ngram)
    res = scan_shard(
        index, find_shards([str(shard)])[0], ScanOptions(batch_bytes=kw.pop("batch_bytes", 4 << 20))
    )
    return merge(index, [res], **kw)


def test_longest_match_and_dirty_flag_equal_brute_force(tmp_path):
    rng = random.Random(3)
    vocab = [f"w{i}" for i in range(6)]
    items = [" ".join(rng.choice(vocab) for _ in range(rng.randint(3, 30))) for _ in range(12)]
    docs = []
    for _ in range(15):
        d = [rng.choice(vocab + ["zz"]) for _ in range(rng.randint(0, 40))]
        if rng.random() < 0.5:
            src = rng.choice(items).split()
            a = rng.randint(0, len(src) - 1)
            d[rng.randint(0, len(d)) : 0] = src[a : a + rng.randint(1, 20)]
        docs.append(" ".join(d))
    summary = _scan_texts(tmp_path, items, docs, ngram=8, max_docs=0, batch_bytes=200)
    for s, text in zip(summary.items, items):
        iw = words(text)
        longest = max(_brute_longest(iw, words(d)) for d in docs)
        n = min(8, len(iw))
        # Matches shorter than the unit (5 words) are below what the scan records.
        expect = longest if longest >= min(5, len(iw)) else 0
        if len(iw) < 5:
            expect = len(iw) if any(_brute_longest(iw, words(d)) == len(iw) for d in docs) else 0
        assert s.longest_match == expect, (text, s)
        assert s.dirty_ngram == (longest >= n if len(iw) >= 5 else expect == len(iw))


def test_long_words_sharing_a_key_never_match(tmp_path, monkeypatch):
    import benchaudit.contamination.scan as scan_mod
    from benchaudit.contamination.tokens import keys, word_key

    alias = {
        word_key(b"unbelievable"): word_key(b"extraordinary"),
        word_key(b"conjectures"): word_key(b"propositions"),
    }

    def colliding(norm, starts, ends):  # two corpus words take the keys of item words
        out = keys(norm, starts, ends)
        for k, v in alias.items():
            out[out == np.uint64(k)] = np.uint64(v)
        return out

    monkeypatch.setattr(scan_mod, "keys", colliding)
    item = "the extraordinary mathematician considered twelve remarkable propositions"
    s = _scan_texts(
        tmp_path,
        [item],
        [
            "the extraordinary mathematician considered twelve remarkable propositions",
            "the unbelievable mathematician considered twelve remarkable conjectures",
        ],
        max_docs=0,
    ).items[0]
    assert s.longest_match == 7 and s.docs == 1


def test_hash_collisions_never_become_matches(tmp_path, monkeypatch):
    import benchaudit.contamination.index as index_mod
    import benchaudit.contamination.scan as scan_mod

    items = ["alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi"]
    docs = [
        "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu",
        "nu mu lambda kappa iota theta eta zeta epsilon delta gamma beta alpha",
    ]
    honest = _scan_texts(tmp_path, items, docs, max_docs=0)

    def weak(ids, lengths):  # every n-gram of a length gets the same key
        return {n: np.full(max(len(ids) - n + 1, 0), n, dtype=np.uint64) for n in lengths}

    def weak_at(x, starts, n):
        return np.full(len(starts), n, dtype=np.uint64)

    monkeypatch.setattr(index_mod, "gram_hashes", weak)
    monkeypatch.setattr(scan_mod, "gram_keys_at", weak_at)
    colliding = _scan_texts(tmp_path, items, docs, max_docs=0)
    assert colliding.items[0].longest_match == honest.items[0].longest_match == 13
    assert colliding.items[0].docs == honest.items[0].docs == 1


@pytest.mark.parametrize("short_items", [False, True])
@pytest.mark.parametrize("density", [0.02, 0.3, 0.9])
def test_keying_every_unit_th_word_first_finds_the_same_grams(density, short_items):
    from benchaudit.contamination.benchmark import Item
    from benchaudit.contamination.scan import JOIN, _lookup, _word_keys
    from benchaudit.contamination.tokens import PAD, keys, spans

    rng = random.Random(int(density * 100) + short_items)
    bench_vocab = [f"b{i}" for i in range(40)] + ["extraordinarily", "x"]
    texts = [
        " ".join(rng.choice(bench_vocab) for _ in range(rng.randint(6, 25))) for _ in range(30)
    ]
    if short_items:  # whole-item grams of 2 and 3 words: every other word is keyed first
        texts += ["b1 b2", "b4 b5 b6"]
    index = build_index(
        [Item(index=i, id=str(i), text=t, line=i + 1) for i, t in enumerate(texts)], ngram=8
    )
    docs = []
    for _ in range(60):
        ws = [
            rng.choice(bench_vocab) if rng.random() < density else f"o{rng.randint(0, 999)}"
            for _ in range(rng.randint(0, 120))
        ]
        src = rng.choice(texts).split()
        a = rng.randint(0, len(src) - 1)
        ws[rng.randint(0, len(ws)) : 0] = src[a : a + rng.randint(1, 12)]
        docs.append(" ".join(ws).encode())
    norm = normalize(JOIN.join(docs) + PAD)
    _, starts, ends = spans(norm)
    ids, maybe = _word_keys(index, norm, starts, ends)
    all_ids = keys(norm, starts, ends)
    assert np.array_equal(ids[maybe], all_ids[maybe])
    every = np.flatnonzero(index.may_be_word(all_ids))
    for got, want in zip(_lookup(index, ids, maybe), _lookup(index, all_ids, every)):
        assert np.array_equal(got, want)
    assert len(_lookup(index, ids, maybe)[0]) > 0


def test_published_criteria_on_one_item(tmp_path):
    item = " ".join(f"w{i}" for i in range(40))
    first_half = " ".join(f"w{i}" for i in range(20))
    edited = " ".join("EDIT" if i % 10 == 9 else f"w{i}" for i in range(40))
    s = _scan_texts(tmp_path, [item], ["pre " + first_half + " post"]).items[0]
    assert s.dirty_ngram and s.longest_match == 20
    assert s.containment == pytest.approx(13 / 33)  # 8-grams starting at 0..12 of 0..32
    assert s.coverage == pytest.approx(0.5) and s.bucket == "not-clean"
    s = _scan_texts(tmp_path, [item], ["pre " + edited + " post"]).items[0]
    assert not s.dirty_ngram  # no 13 words in a row survive an edit every 10th word
    # Llama 2 skip budget: the gaps inside count, the edited last word does not.
    assert s.coverage == pytest.approx(39 / 40) and s.bucket == "dirty"
    s = _scan_texts(tmp_path, [item], ["unrelated words only"]).items[0]
    assert not s.contaminated and s.bucket == "clean"


def test_boilerplate_cap(tmp_path):
    item = " ".join(f"w{i}" for i in range(40))
    phrase = " ".join(f"w{i}" for i in range(15))
    docs = [f"doc {k} {phrase} end" for k in range(4)]
    assert _scan_texts(tmp_path, [item], docs, max_docs=3).items[0].contaminated is False
    assert _scan_texts(tmp_path, [item], docs, max_docs=4).items[0].docs == 4
    # A whole item copied into many documents is never boilerplate.
    many = [f"doc {k} {item} end" for k in range(6)]
    assert _scan_texts(tmp_path, [item], many, max_docs=3).items[0].docs == 6


# --- real data: GSM8K against PAL's re-packagings -----------------------------------------


def _gsm_run(gsm, corpus, **kw):
    return run(
        Settings(
            benchmark=str(gsm / "gsm8k_test.jsonl"),
            corpus=[str(gsm / corpus)],
            progress=False,
            **kw,
        )
    ).summary.row("gsm8k")


@pytest.mark.slow
def test_gsm8k_real_sources_behave_as_their_provenance_says(gsm):
    row = _gsm_run(gsm, "pal_gsm.jsonl")
    assert row["contaminated"] == row["dirty_ngram"] == 1319
    row = _gsm_run(gsm, "pal_gsmhardv2.jsonl", text_fields=("input",))
    assert row["dirty_ngram"] == 1302
    assert row["contaminated"] >= 1302
    row = _gsm_run(gsm, "pal_gsmhardv2.jsonl", text_fields=("input", "code"))
    assert row["dirty_ngram"] >= 1316
    row = _gsm_run(gsm, "pal_svamp.jsonl")
    assert row["contaminated"] == 0 and row["containment_70"] == 0


# --- planted corpus (mirrors how the audit is judged) -------------------------------------


def _planted_corpus(gsm, folder, seed=0, edit_rate=0.1, question_only=False):
    rng = random.Random(seed)
    items = [json.loads(line) for line in (gsm / "gsm8k_test.jsonl").open()]
    svamp = [json.loads(line)["input"] for line in (gsm / "pal_svamp.jsonl").open()]
    filler_words = " ".join(svamp).split()

    def filler(n):
        return " ".join(rng.choice(filler_words) for _ in range(n))

    def text(i):
        it = items[i]
        return it["question"] if question_only else it["question"] + "\n" + it["answer"]

    order = list(range(len(items)))
    rng.shuffle(order)
    verbatim, numbers, edited, untouched = order[:120], order[120:240], order[240:360], order[360:]
    docs = [filler(150) + " " + text(i) + " " + filler(150) for i in verbatim]
    docs += [
        re.sub(r"\d+", lambda m: str(int(m.group()) + rng.randint(1, 9)), text(i)) for i in numbers
    ]
    for i in edited:
        ws = text(i).split()
        ws = [rng.choice(filler_words) if rng.random() < edit_rate else w for w in ws]
        docs.append(filler(150) + " " + " ".join(ws) + " " + filler(150))
    docs += [filler(300) for _ in range(600)]
    rng.shuffle(docs)
    for k in range(3):
        with gzip.open(folder / f"part-{k}.jsonl.gz", "wt", encoding="utf-8") as fh:
            for d in docs[k::3]:
                fh.write(json.dumps({"text": d}) + "\n")
    return verbatim, numbers, edited, untouched


@pytest.mark.slow
@pytest.mark.parametrize("question_only,minhash", [(False, False), (True, True)])
def test_planted_items_are_found_and_untouched_ones_are_not(gsm, tmp_path, question_only, minhash):
    verbatim, numbers, edited, untouched = _planted_corpus(
        gsm, tmp_path, seed=1, question_only=question_only
    )
    out = run(
        Settings(
            benchmark=str(gsm / "gsm8k_test.jsonl"),
            corpus=[str(tmp_path / "*.jsonl.gz")],
            minhash=minhash,
            progress=False,
        )
    )
    flag = [s.contaminated for s in out.summary.items]
    planted = verbatim + numbers + edited
    assert all(flag[i] for i in verbatim)
    assert sum(flag[i] for i in planted) / len(planted) >= 0.93
    assert sum(flag[i] for i in untouched) / len(untouched) <= 0.01


# --- MinHash near-duplicates --------------------------------------------------------------


def _numbers_item(k: int = 0) -> str:
    words_ = [f"word{i}" for i in range(36)]
    return " ".join(f"{w} {i * 7 + k}" if i % 3 == 2 else w for i, w in enumerate(words_))


@pytest.mark.parametrize("padding", [0, 1500])
def test_minhash_finds_an_item_with_new_numbers(tmp_path, padding):
    item = _numbers_item()
    changed = _numbers_item(k=1000)  # every number differs; no 5 words in a row survive
    rng = random.Random(0)
    pad = " ".join(f"filler{rng.randint(0, 500)}" for _ in range(padding))
    doc = f"{pad} {changed} {pad}"
    bench = _jsonl(tmp_path / "bench.jsonl", [{"text": item}, {"text": "other words " * 10}])
    shard = _jsonl(tmp_path / "shard.jsonl", [{"text": doc}, {"text": pad or "nothing"}])
    plain = run(Settings(benchmark=str(bench), corpus=[str(shard)], progress=False))
    assert not plain.summary.items[0].contaminated
    near = run(Settings(benchmark=str(bench), corpus=[str(shard)], minhash=True, progress=False))
    s = near.summary.items[0]
    # A window never lines up exactly with the item inside a long document.
    assert s.contaminated and s.methods == ["minhash"]
    assert s.near_duplicate >= (0.95 if not padding else 0.7)
    assert s.example["line"] == 1 and not near.summary.items[1].contaminated


# --- a law: the scan's longest match is the brute-force longest common run ----------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=40, deadline=None)
@given(
    item=st.lists(st.sampled_from("abcd"), min_size=5, max_size=25),
    doc=st.lists(st.sampled_from("abcde"), min_size=0, max_size=40),
)
def test_longest_match_law(tmp_path_factory, item, doc):
    folder = tmp_path_factory.mktemp("law")
    got = _scan_texts(folder, [" ".join(item)], [" ".join(doc) or "z"], ngram=13, max_docs=0).items[
        0
    ]
    longest = _brute_longest([w.encode() for w in item], [w.encode() for w in doc])
    assert got.longest_match == (longest if longest >= 5 else 0)
    assert got.dirty_ngram == (longest >= min(13, len(item)))
