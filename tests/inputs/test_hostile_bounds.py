"""Each cap and each crash fix on its own, in-process and small (the bombs themselves are in
``test_hostile_inputs.py``)."""

from __future__ import annotations

import gzip
import json
import math
import os
import random
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner
from hostile_cases import _deflate_repeated

from benchaudit.cli import main
from benchaudit.contamination.benchmark import read_items
from benchaudit.contamination.shards import _lines, documents
from benchaudit.errors import InputError
from benchaudit.limits import KEYS, Limits
from benchaudit.linebreaks import split_lines

SMALL = Limits(max_line_bytes=1000, max_expansion=10, expansion_slack=10_000, max_benchmark_bytes=500)


def test_every_cap_has_a_configuration_key_and_a_default():
    assert set(KEYS) == {
        "max-line-bytes", "max-expansion", "max-benchmark-bytes", "pdf-max-pages",
        "pdf-max-chars-per-page", "pdf-max-stream-bytes", "pdf-max-content-bytes",
        "max-baseline-bytes",
    }
    assert all(getattr(Limits(), field) > 0 for field in KEYS.values())


@pytest.mark.parametrize("block", [1, 2, 3, 7, 64])
def test_shard_lines_match_a_plain_split_whatever_the_block(tmp_path, block):
    rng = random.Random(block)
    for t in range(60):
        data = bytes(rng.choice(b"ab\n\n\n \r") for _ in range(rng.randint(0, 80)))
        p = tmp_path / f"{t}.jsonl"
        p.write_bytes(data)
        want = [(i + 1, ln) for i, ln in enumerate(data.split(b"\n")) if ln]
        assert list(_lines(str(p), block=block)) == want, data


def test_a_line_over_the_cap_is_refused_without_reading_the_rest(tmp_path):
    p = tmp_path / "shard.jsonl"
    p.write_bytes(b'{"text": "ok"}\n' * 3 + b"x" * 5000)
    with pytest.raises(InputError, match="max-line-bytes") as err:
        list(documents(str(p), limits=SMALL))
    assert err.value.line == 4


def test_a_text_document_over_the_cap_is_refused(tmp_path):
    p = tmp_path / "shard.txt"
    p.write_bytes(b"a short line\n" * 200)
    with pytest.raises(InputError, match="max-line-bytes"):
        list(documents(str(p), limits=SMALL))
    assert len(list(documents(str(p)))) == 1


def test_text_documents_split_at_blank_lines_of_any_kind(tmp_path):
    p = tmp_path / "shard.txt"
    p.write_bytes(b"one\ntwo\n\nthree\n \t\nfour")
    assert list(documents(str(p))) == [(b"one\ntwo\n", 1), (b"three\n", 4), (b"four\n", 6)]


def test_gzip_and_zstd_bombs_stop_at_the_expansion_cap(tmp_path):
    import zstandard

    gz = tmp_path / "bomb.jsonl.gz"
    gz.write_bytes(_deflate_repeated(b"\n", 64 << 20, 31))
    zst = tmp_path / "bomb.jsonl.zst"
    zst.write_bytes(zstandard.ZstdCompressor().compress(b"\n" * (8 << 20)))
    for p in (gz, zst):
        with pytest.raises(InputError, match="max-expansion"):
            list(documents(str(p), limits=SMALL))


def test_ordinary_compressed_shards_pass_the_expansion_cap(tmp_path):
    rng = random.Random(0)
    words = [f"w{rng.randrange(10**6)}" for _ in range(200_000)]
    text = "\n".join(json.dumps({"text": " ".join(words[i : i + 50])}) for i in range(0, len(words), 50))
    p = tmp_path / "ok.jsonl.gz"
    p.write_bytes(gzip.compress(text.encode() + b"\n") + gzip.compress(b'{"text": "second member"}\n'))
    docs = list(documents(str(p)))
    assert len(docs) == 4001 and docs[-1] == (b"second member", 4001)


def test_a_benchmark_over_the_size_cap_is_refused_before_reading(tmp_path):
    p = tmp_path / "bench.jsonl"
    with open(p, "wb") as fh:
        fh.truncate(10_000)
    with pytest.raises(InputError, match="max-benchmark-bytes"):
        read_items(p, limits=SMALL)
    gz = tmp_path / "bench.jsonl.gz"
    gz.write_bytes(gzip.compress(b'{"question": "How many?"}\n' * 100))
    with pytest.raises(InputError, match="max-benchmark-bytes"):
        read_items(gz, limits=SMALL)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 5000)
    with pytest.raises(InputError):
        read_items(deep)


def test_contamination_flags_set_the_caps(tmp_path):
    bench = tmp_path / "bench.jsonl"
    bench.write_text('{"question": "How many clips did Natalia sell altogether in May?"}\n')
    shard = tmp_path / "s.jsonl"
    shard.write_text('{"text": "' + "y " * 2000 + '"}\n')
    args = ["contamination", "--benchmark", str(bench), "--corpus", str(shard), "--workers", "1"]
    got = CliRunner().invoke(main, [*args, "--max-line-bytes", "100"])
    assert got.exit_code == 2 and "max-line-bytes" in got.stderr and "s.jsonl:1" in got.stderr
    assert CliRunner().invoke(main, args).exit_code == 0


def _pdf_with(content: bytes, flate: bool = True) -> bytes:
    from hostile_cases import _FONT, _pdf, _stream

    return _pdf([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        b"/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
        _stream(zlib.compress(content) if flate else content, flate=flate),
        _FONT,
    ])


def test_pdf_stream_and_content_caps(tmp_path):
    p = tmp_path / "paper.pdf"
    p.write_bytes(_pdf_with(b"BT /F1 12 Tf 72 720 Td (We reach 87.3% on HumanEval.) Tj ET\n" + b"q Q\n" * 5000))
    runner = CliRunner()
    ok = runner.invoke(main, ["check", str(p)])
    assert ok.exit_code in (0, 1), ok.stderr
    small = runner.invoke(main, ["check", str(p), "--pdf-max-stream-bytes", "1000"])
    assert small.exit_code == 2 and "pdf-max-stream-bytes" in small.stderr and "paper.pdf" in small.stderr
    little = runner.invoke(main, ["check", str(p), "--pdf-max-content-bytes", "1000"])
    assert little.exit_code == 2 and "pdf-max-content-bytes" in little.stderr
    one = runner.invoke(main, ["check", str(p), "--pdf-max-chars-per-page", "5"])
    assert one.exit_code == 2 and "pdf-max-chars-per-page" in one.stderr


def test_pdf_stream_cap_leaves_pdfminer_as_it_was(tmp_path):
    from pdfminer import pdftypes

    before = (pdftypes.zlib, pdftypes.lzwdecode, pdftypes.decompress_corrupted, pdftypes.PDFStream.decode)
    p = tmp_path / "paper.pdf"
    p.write_bytes(_pdf_with(b"q Q\n" * 5000))
    CliRunner().invoke(main, ["check", str(p), "--pdf-max-stream-bytes", "100"])
    assert (pdftypes.zlib, pdftypes.lzwdecode, pdftypes.decompress_corrupted, pdftypes.PDFStream.decode) == before


def test_a_damaged_flate_stream_keeps_its_text(tmp_path):
    body = zlib.compress(b"BT /F1 12 Tf 72 720 Td (We reach 87.3% on HumanEval.) Tj ET\n")
    p = tmp_path / "damaged.pdf"
    p.write_bytes(_pdf_with(b"", flate=False).replace(b"/Length 0 >>\nstream\n\n", b"/Length %d /Filter /FlateDecode >>\nstream\n" % (len(body) - 2) + body[:-2] + b"\n"))
    got = CliRunner().invoke(main, ["check", str(p), "--format", "json"])
    assert got.exit_code in (0, 1), got.stderr
    assert "87.3" in got.stdout


def test_baseline_from_a_device_or_too_large_is_refused(tmp_path):
    from benchaudit.suppress import read_baseline

    with pytest.raises(InputError, match="not a regular file"):
        read_baseline("/dev/zero", 1000)  # refused by type, before any read
    big = tmp_path / "big.json"
    big.write_text("[" + '"x", ' * 1000 + '"x"]')
    with pytest.raises(InputError, match="max-baseline-bytes"):
        read_baseline(str(big), 1000)
    deep = tmp_path / "b.json"
    deep.write_text("[" * 5000)
    with pytest.raises(InputError, match="not a baseline file"):
        read_baseline(str(deep))


def test_line_breaks_are_newline_crlf_and_cr_only():
    assert split_lines("a\u2028b\fc\x85d\ve\r\nf\rg\n") == ["a\u2028b\fc\x85d\ve", "f", "g"]
    assert split_lines("") == [] and split_lines("\n\n") == ["", ""]


def test_findings_point_at_the_right_line_after_odd_separators(tmp_path):
    p = tmp_path / "card.md"
    p.write_text("Intro\u2028more\fand\x85more.\r\nWe reach 87.3% on HumanEval with greedy decoding.\n",
                 encoding="utf-8", newline="")
    got = CliRunner().invoke(main, ["check", str(p), "--format", "json"])
    lines = {f["line"] for f in json.loads(got.stdout)["findings"] if f["rule"] == "BA101"}
    assert lines == {2}


def test_a_jsonl_record_holding_u2028_is_one_record(tmp_path):
    p = tmp_path / "scores.jsonl"
    rows = [{"model": m, "question_id": f"q{i}\u2028x", "correct": (i * (m == "b")) % 2}
            for m in "ab" for i in range(30)]
    p.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    got = CliRunner().invoke(main, ["check", str(p), "--format", "json"])
    assert got.exit_code in (0, 1), got.stderr
    assert {m["n_items"] for m in json.loads(got.stdout)["results"]["models"]} == {30}


@pytest.mark.parametrize(
    "text",
    [
        f"On {'9' * 155} questions our model scores 50.0%.",
        f"Our model solves {'9' * 35} of {'9' * 35} problems (50.0%).",
        f"We reach 87.3% on HumanEval ({'9' * 20} problems), averaged over {'9' * 20} samples.",
        f"| Model | HumanEval |\n|---|---|\n| ours | {'7' * 4301} |\n| base | 87.3 |",
        "We reach 87.30000000000000000000000000001% on HumanEval.",
    ],
)
def test_huge_numbers_in_prose_are_answered(tmp_path, text):
    p = tmp_path / "card.md"
    p.write_text(text + "\n", encoding="utf-8")
    got = CliRunner().invoke(main, ["check", str(p), "--format", "json"])
    assert got.exit_code in (0, 1), (got.stderr, got.exception)
    assert got.exception is None or isinstance(got.exception, SystemExit)


def test_a_leaderboard_with_nan_and_inf_is_read():
    from benchaudit.inputs.leaderboard import _number

    assert _number("NaN") is None and _number("inf") is None and _number("-1e400") is None
    assert _number("71.5%") == 71.5


def test_softmax_of_logits_at_the_float_limit_is_finite():
    import numpy as np

    from benchaudit.stats.calibration import softmax, summarise

    logits = np.array([[1e308, -1e308], [-1e308, 0.5], [0.2, 0.1]])
    for t in (0.01, 1.0, 100.0):
        assert np.isfinite(softmax(logits, t)).all()
    s = summarise([1.0, 1.0, 0.52], [1, 1, 0], logits=logits, labels=[0, 1, 0])
    assert s.temperature is not None and math.isfinite(s.ece_after_temperature)
    # A label whose logit is 2e308 below the best has likelihood 0 at every temperature.
    s = summarise([1.0, 1.0, 0.52], [0, 1, 0], logits=logits, labels=[1, 1, 0])
    assert s.temperature is None and math.isfinite(s.ece)


@pytest.mark.skipif(os.uname().sysname != "Linux", reason="a file name that is not UTF-8")
def test_a_file_name_with_byte_ff_in_every_format(tmp_path):
    from hostile_cases import run_capped

    raw = os.fsencode(str(tmp_path)) + b"/model\xffcard.md"
    with open(raw, "wb") as fh:
        fh.write(b"We reach 87.3% on HumanEval with greedy decoding.\n")
    argv = [os.fsdecode(raw)]
    for fmt in ("json", "markdown", "html", "sarif", "github"):
        argv += ["--format", fmt, "--output", str(tmp_path / f"report.{fmt}")]
    argv += ["--format", "text"]  # the last, without an --output: to stdout
    run = run_capped(["check", *argv], timeout=60, cwd=str(tmp_path))
    assert run.code == 1, run.stderr
    assert b"model%FFcard.md" in (tmp_path / "report.sarif").read_bytes()


def test_a_sniff_that_trips_is_no_match(tmp_path):
    for name, data in (("items.json", b"[" * 2000), ("scores.csv", b"a\rb\n"),
                       ("r.jsonl", b'{"model": "a", "correct": ' + b"7" * 4301 + b"}\n")):
        p = tmp_path / name
        p.write_bytes(data)
        got = CliRunner().invoke(main, ["check", str(p)])
        assert got.exit_code == 2 and name in got.stderr and "internal error" not in got.stderr
        assert len(got.stderr.strip().splitlines()) == 1
    assert Path(tmp_path / "scores.csv").read_bytes() == b"a\rb\n"
